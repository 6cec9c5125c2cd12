/**
 * The status panel's lines: the pace says paused, the speed kept, or by how much the machine falls behind; the
 * session line says live, recording, or whether every replay frame matches (and how far it is checked).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BEHIND, paceLine, sessionLine, statusLines, type StatusInput } from '../../../src/render/sandbox/status-lines.js';
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
  test('a live world: every line, in order', () => {
    const lines = statusLines(input);
    expect(lines[0]).toBe('piney  default  ·  rain, night');
    expect(lines[1]).toBe('frame 120   60 fps   step 1.3 ms   draw 3.0 ms');
    expect(lines[2]).toBe('game speed 1× (60 frames/s)');
    expect(lines[3]).toBe('hash 0x0123456789abcdef');
    expect(lines[4]).toBe('fieldrand 7   ccRand 3   agents 40');
    expect(lines[5]).toBe('live');
    expect(lines[6]).toMatch(/^weather: .+ ×12$/);
    expect(lines).toHaveLength(7);
    // No weather drawn, no ambience: those parts are left out.
    const bare = statusLines({ ...input, ambience: null, weather: null });
    expect(bare[0]).toBe('piney  default');
    expect(bare).toHaveLength(6);
  });

  test('the pace: paused wins; behind exactly when the clock says so, with its ratio', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0.25, 0.5, 1, 2, 4, 8), (paused, behind, ratio, speed) => {
        const rep: ClockReport = { target: 60 * speed, achieved: 60 * speed * ratio, ratio, behind, windowMs: 1000 };
        const line = paceLine(paused, speed, rep);
        if (paused) expect(line).toBe('paused');
        else if (behind) expect(line.startsWith(`${BEHIND}: the game runs at ${Math.round(ratio * 100)}% of `)).toBe(true);
        else expect(line.startsWith('game speed ')).toBe(true);
      }),
    );
  });

  test('the session line: replays say whether every frame matches, and where the first desync is', () => {
    expect(sessionLine({ mode: 'live', recording: true, divergence: -1, check: null, replayLength: 0 })).toBe('recording');
    expect(sessionLine({ mode: 'replay', recording: false, divergence: -1, check: { frame: 40, done: false }, replayLength: 600 })).toBe('replay: every frame matches (checked 40 of 600)');
    expect(sessionLine({ mode: 'replay', recording: false, divergence: -1, check: { frame: 600, done: true }, replayLength: 600 })).toBe('replay: every frame matches');
    expect(sessionLine({ mode: 'replay', recording: false, divergence: 77, check: { frame: 77, done: true }, replayLength: 600 })).toBe('replay: DESYNC at frame 77');
    expect(statusLines({ ...input, mode: 'replay', replayLength: 600, frame: 5 })[1]).toMatch(/^frame 5 \/ 600 /);
  });
});
