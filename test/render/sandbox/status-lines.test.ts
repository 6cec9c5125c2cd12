/**
 * The status: the summary in plain words (the world, what the session does; a desync is the one alarm), the
 * determinism panel's rows (frame, hash, draws, then pace and costs), the pace (paused, the speed kept, or by
 * how much the machine falls behind) and the behind indicator's quiet note; the session line says live,
 * live, or whether every replay frame matches (and how far it is checked).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { behindNote, determinismRows, paceLine, rateLabel, sessionLine, statusSummary, type StatusInput } from '../../../src/render/sandbox/status-lines.js';
import type { ClockReport } from '../../../src/render/scene/sim-clock.js';

const keepingUp: ClockReport = { target: 60, achieved: 60, ratio: 1, behind: false, windowMs: 1000 };

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
      ['page', '60 fps · step 1.3 ms · draw 3.0 ms'],
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
        const rep: ClockReport = { target: 60 * speed, achieved: 60 * speed * ratio, ratio, behind, windowMs: 1000 };
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
    const slow: ClockReport = { target: 60, achieved: 48, ratio: 0.8, behind: true, windowMs: 1000 };
    expect(behindNote(false, 1, slow)).toBe('running at 0.8× — the machine cannot keep up');
    expect(behindNote(false, 4, { ...slow, target: 240, achieved: 120, ratio: 0.5 })).toBe('running at 2× (asked 4×) — the machine cannot keep up');
    expect(rateLabel(1 / 3)).toBe('0.33×');
    expect(rateLabel(2)).toBe('2×');
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
