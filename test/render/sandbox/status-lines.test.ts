/**
 * The status: the summary in plain words (the world, what the session does; a desync is the one alarm), the
 * determinism panel's rows (frame, hash, draws, then pace and costs), the pace (paused, the speed kept, or by
 * how much the machine falls behind) and the behind indicator's quiet note; the session line says live,
 * live, or whether every replay frame matches (and how far it is checked).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { behindCause, behindNote, determinismRows, paceLine, rateLabel, sessionLine, statusSummary, type StatusInput } from '../../../src/render/sandbox/status-lines.js';
import type { ClockReport } from '../../../src/render/scene/sim-clock.js';

const keepingUp: ClockReport = { target: 60, achieved: 60, ratio: 1, behind: false, windowMs: 1000, frameMs: 1000 / 60, ranPerFrame: 1 };

const input: StatusInput = {
  world: { kind: 'piney', name: 'default' },
  ambience: { weather: 'rain', time: 'night', traveller: null },
  weather: { rain: 12 },
  frame: 120,
  mode: 'live',
  recording: false,
  replayLength: 0,
  fps: 59.6,
  stepMs: 1.25,
  drawMs: 3.04,
  renderMs: 2.26,
  paused: false,
  speed: 1,
  clock: keepingUp,
  hash: '0x0123456789abcdef',
  fieldrand: 7,
  ccrand: 3,
  agents: 40,
  divergence: -1,
  check: null,
};

describe('status lines', () => {
  test('a live world: the summary in plain words, the numbers in the determinism rows, in order', () => {
    expect(statusSummary(input)).toEqual({ world: 'piney · default · rain, night', session: 'live', alarm: false });
    expect(statusSummary({ ...input, paused: true, recording: true }).session).toBe('live · paused');
    const rows = determinismRows(input);
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ['frame', '120'],
      ['hash', '0x0123456789abcdef'],
      ['fieldrand', '7'],
      ['ccRand', '3'],
      ['agents', '40'],
      ['session', 'live'],
      ['pace', 'game speed 1× (60 frames/s)'],
      ['page', '60 fps · step 1.3 ms · draw 3.0 ms · render 2.3 ms'],
      ['weather drawn', expect.stringMatching(/^.+ ×12$/)],
    ]);
    // The summary leads with no number of the run: those are one click away.
    expect(JSON.stringify(statusSummary(input))).not.toMatch(/0x0123|fieldrand|ccRand/);
    // No weather drawn, no ambience: those parts are left out.
    const bare = { ...input, ambience: null, weather: null };
    expect(statusSummary(bare).world).toBe('piney · default');
    expect(determinismRows(bare).map((r) => r.label)).not.toContain('weather drawn');
  });

  test('the pace: paused wins; slower exactly when the clock says so, with its rate; the quiet note only then', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0.25, 0.5, 1, 2, 4, 8), (paused, behind, ratio, speed) => {
        const rep: ClockReport = { target: 60 * speed, achieved: 60 * speed * ratio, ratio, behind, windowMs: 1000, frameMs: 1000 / 60, ranPerFrame: 1 };
        const line = paceLine(paused, speed, rep);
        const note = behindNote(paused, speed, rep);
        if (paused) expect(line).toBe('paused');
        else if (behind) expect(line.startsWith(`running at ${rateLabel(ratio * speed)} of `)).toBe(true);
        else expect(line.startsWith('game speed ')).toBe(true);
        if (paused || !behind) expect(note).toBeNull();
        else {
          expect(note).toMatch(/^running at \d+(\.\d+)?× .*the machine cannot keep up$/);
          // Quiet: no shouting, no alarm word.
          expect(note).not.toMatch(/BEHIND|[A-Z]{3,}/);
        }
      }),
    );
    const slow: ClockReport = { target: 60, achieved: 48, ratio: 0.8, behind: true, windowMs: 1000, frameMs: 1000 / 60, ranPerFrame: 1 };
    expect(behindNote(false, 1, slow)).toBe('running at 0.8× — the machine cannot keep up');
    expect(behindNote(false, 4, { ...slow, target: 240, achieved: 120, ratio: 0.5 })).toBe('running at 2× (asked 4×) — the machine cannot keep up');
    expect(rateLabel(1 / 3)).toBe('0.33×');
    expect(rateLabel(2)).toBe('2×');
  });

  test('below 1× the pace names its cause: the costliest part of the page\'s work, or the browser when the work is small', () => {
    const slow: ClockReport = { target: 60, achieved: 30, ratio: 0.5, behind: true, windowMs: 1000, frameMs: 33.3, ranPerFrame: 2 };
    const at = (stepMs: number, drawMs: number, renderMs: number, clock = slow) => ({ ...input, stepMs, drawMs, renderMs, clock });
    expect(behindCause(at(12, 2, 3))).toBe('the simulation takes 24.0 ms of each 33.3 ms frame');
    expect(behindCause(at(1, 20, 3))).toBe('drawing the picture takes 20.0 ms of each 33.3 ms frame');
    expect(behindCause(at(1, 2, 25))).toBe('rendering it takes 25.0 ms of each 33.3 ms frame');
    // 200 ms between animation frames, the page's own work under a millisecond: the browser is why.
    expect(behindCause(at(0.2, 0.3, 0.1, { ...slow, frameMs: 200, ranPerFrame: 4 }))).toBe("the browser gives the page a frame only every 200.0 ms (the page's own work takes 1.2 ms: a busy machine, or a tab in the background)");
    // The costliest part is always the one named, and the render time is in the page's row.
    fc.assert(
      fc.property(fc.double({ min: 0, max: 50, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true }), (st, dr, re) => {
        const c = behindCause(at(st, dr, re));
        const steps = st * 2;
        if (steps + dr + re < 0.5 * 33.3) expect(c).toMatch(/^the browser /);
        else if (steps >= dr && steps >= re) expect(c).toMatch(/^the simulation /);
        else if (dr >= re) expect(c).toMatch(/^drawing /);
        else expect(c).toMatch(/^rendering /);
      }),
    );
    const rows = determinismRows(at(12, 2, 3));
    expect(rows.find((r) => r.label === 'pace')!.value).toBe('running at 0.5× of 1× (30 of 60 frames/s): the simulation takes 24.0 ms of each 33.3 ms frame');
    expect(rows.find((r) => r.label === 'page')!.value).toContain('render 3.0 ms');
    expect(behindNote(false, 1, slow, behindCause(at(12, 2, 3)))).toBe('running at 0.5× — the machine cannot keep up: the simulation takes 24.0 ms of each 33.3 ms frame');
  });

  test('the session line: replays say whether every frame matches, and where the first desync is', () => {
    expect(sessionLine({ mode: 'live', recording: true, divergence: -1, check: null, replayLength: 0 })).toBe('live');
    expect(sessionLine({ mode: 'replay', recording: false, divergence: -1, check: { frame: 40, done: false }, replayLength: 600 })).toBe('replay: every frame matches (checked 40 of 600)');
    expect(sessionLine({ mode: 'replay', recording: false, divergence: -1, check: { frame: 600, done: true }, replayLength: 600 })).toBe('replay: every frame matches');
    expect(sessionLine({ mode: 'replay', recording: false, divergence: 77, check: { frame: 77, done: true }, replayLength: 600 })).toBe('replay: DESYNC at frame 77');
    expect(determinismRows({ ...input, mode: 'replay', replayLength: 600, frame: 5 })[0]).toEqual({ label: 'frame', value: '5 / 600' });
    // A desync is the one alarm, in the summary and in its row.
    const desync = { ...input, mode: 'replay' as const, replayLength: 600, divergence: 77, check: { frame: 77, done: true } };
    expect(statusSummary(desync)).toMatchObject({ session: 'replay: DESYNC at frame 77', alarm: true });
    expect(determinismRows(desync).find((r) => r.label === 'session')).toEqual({ label: 'session', value: 'replay: DESYNC at frame 77', alarm: true });
    expect(determinismRows(input).some((r) => r.alarm)).toBe(false);
  });
});
