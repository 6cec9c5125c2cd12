/** The clock: frames owed by real time at 60 per second times the speed, capped per animation frame, and said when it falls behind. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_CATCH_UP, SimClock } from '../../../src/render/scene/sim-clock.js';

describe('sim clock', () => {
  test('at 60 animation frames a second it runs one frame each and keeps up', () => {
    const c = new SimClock();
    let n = 0;
    for (let i = 0; i < 240; i++) n += c.frames(1000 / 60, true);
    expect(n).toBeGreaterThanOrEqual(239);
    expect(n).toBeLessThanOrEqual(240);
    const r = c.report();
    expect(r.behind).toBe(false);
    expect(r.achieved).toBeCloseTo(60, 0);
  });

  test('slow animation frames run several frames each; too slow ones are capped and reported behind', () => {
    const c = new SimClock();
    for (let i = 0; i < 60; i++) expect(c.frames(50, true)).toBeGreaterThanOrEqual(2);
    expect(c.report().behind).toBe(false);
    for (let i = 0; i < 30; i++) expect(c.frames(150, true)).toBe(MAX_CATCH_UP);
    const r = c.report();
    expect(r.behind).toBe(true);
    expect(r.ratio).toBeCloseTo(MAX_CATCH_UP / 9, 1);
  });

  test('speed: 0.25× runs a frame every four, 8× eight a frame (the cap grows with the speed)', () => {
    const slow = new SimClock();
    slow.speed = 0.25;
    const runs = Array.from({ length: 16 }, () => slow.frames(1000 / 60, true));
    expect(runs.reduce((a, b) => a + b, 0)).toBe(4);
    const fast = new SimClock();
    fast.speed = 8;
    let n = 0;
    for (let i = 0; i < 60; i++) n += fast.frames(1000 / 60, true);
    expect(n).toBeGreaterThanOrEqual(479);
    expect(fast.report().behind).toBe(false);
  });

  test('paused owes nothing and is never behind; whatever the frame times, it never runs ahead of real time', () => {
    const c = new SimClock();
    for (let i = 0; i < 100; i++) expect(c.frames(500, false)).toBe(0);
    expect(c.report().behind).toBe(false);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 300 }), fc.constantFrom(0.25, 0.5, 1, 2, 4, 8), (dts, speed) => {
        const k = new SimClock();
        k.speed = speed;
        let ran = 0;
        let owed = 0;
        for (const dt of dts) {
          ran += k.frames(dt, true);
          owed += Math.min(250, dt);
        }
        expect(ran).toBeLessThanOrEqual(Math.floor((owed * 60 * speed) / 1000) + 1);
      }),
    );
  });
});
