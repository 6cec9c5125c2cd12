/**
 * Per-frame records kept by the runtime must not grow with the length of a run (the soak found two that did:
 * the scheduler's draw-count history and the recording system's frame log, 80 bytes a frame together). Both
 * now keep a window of recent frames; these tests check the window's contents and its bound.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/ecs/events.js';
import { CcRand } from '../../src/rng/ccrand.js';
import { FieldRand } from '../../src/rng/fieldrand.js';
import { RandomStreams } from '../../src/rng/streams.js';
import { DRAW_HISTORY_FRAMES, Scheduler } from '../../src/ecs/scheduler.js';
import { FrameLog, LOG_WINDOW, RECORD_STRIDE } from '../../src/systems/recording.js';

function makeScheduler(): Scheduler {
  const ccrand = new CcRand();
  ccrand.init(0);
  return new Scheduler({ fieldrand: new FieldRand(7), ccrand, streams: new RandomStreams('t') }, createEventBus());
}

/** Draws in frame f: fieldrand f mod 3 times, ccRand once every 5th frame. */
const fieldDraws = (f: number) => f % 3;
const ccDraws = (f: number) => (f % 5 === 0 ? 1 : 0);

describe('bounded per-frame records', () => {
  it('the scheduler keeps exact draw counts for the recent frames of a long run, and forgets the oldest', () => {
    const s = makeScheduler();
    s.addTask('draw', 0, (ctx) => {
      for (let i = 0; i < fieldDraws(ctx.frame); i++) ctx.rng.fieldrand.step();
      for (let i = 0; i < ccDraws(ctx.frame); i++) ctx.rng.ccrand.next();
    });
    const frames = 3 * DRAW_HISTORY_FRAMES + 123;
    const cumulative: { fieldrand: number; ccrand: number }[] = [{ fieldrand: 0, ccrand: 0 }];
    for (let f = 1; f <= frames; f++) {
      s.step();
      const prev = cumulative[f - 1]!;
      cumulative.push({ fieldrand: prev.fieldrand + fieldDraws(f), ccrand: prev.ccrand + ccDraws(f) });
      // The current frame is always answered (the replay recorder reads it every frame).
      expect(s.drawCounts()).toEqual(cumulative[f]);
    }
    for (let f = frames - DRAW_HISTORY_FRAMES / 2 + 1; f <= frames; f++) expect(s.drawCounts(f)).toEqual(cumulative[f]);
    expect(s.frameDraws(frames)).toEqual({ fieldrand: fieldDraws(frames), ccrand: ccDraws(frames) });
    // Bounded: frames from the start of the run are gone.
    expect(() => s.drawCounts(0)).toThrow(RangeError);
    expect(() => s.drawCounts(frames - DRAW_HISTORY_FRAMES)).toThrow(RangeError);
  });

  it('a save and restore mid-run still records the following frames exactly', () => {
    const s = makeScheduler();
    s.addTask('draw', 0, (ctx) => ctx.rng.fieldrand.step());
    for (let f = 0; f < DRAW_HISTORY_FRAMES + 10; f++) s.step();
    const saved = s.save();
    const t = makeScheduler();
    t.addTask('draw', 0, (ctx) => ctx.rng.fieldrand.step());
    t.rng.fieldrand.restore(s.rng.fieldrand.save());
    t.restore(saved);
    for (let f = 0; f < 2 * DRAW_HISTORY_FRAMES; f++) {
      s.step();
      t.step();
      expect(t.drawCounts()).toEqual(s.drawCounts());
    }
  });

  it('the frame log holds the last frames of any run exactly, within LOG_WINDOW frames (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 * LOG_WINDOW }), (n) => {
        const log = new FrameLog();
        for (let f = 1; f <= n; f++) log.push(f, f & 0xff, f * 0.5, -f, f * 2, f & 1, f % 7, f % 11);
        expect(log.frames + log.dropped).toBe(n);
        expect(log.frames).toBeLessThanOrEqual(LOG_WINDOW);
        expect(log.data.length).toBeLessThanOrEqual(LOG_WINDOW * RECORD_STRIDE);
        if (n >= LOG_WINDOW) expect(log.frames).toBeGreaterThanOrEqual(LOG_WINDOW / 2);
        for (let i = 0; i < log.frames; i++) {
          const f = log.dropped + i + 1;
          expect(log.frame(i)).toEqual({ frame: f, buttons: f & 0xff, player: [f * 0.5, -f, f * 2], grounded: (f & 1) === 1, exits: f % 7, deaths: f % 11 });
        }
      }),
      { numRuns: 12 },
    );
  });

  it('truncating the log after a restore keeps the frames up to the restored one', () => {
    const log = new FrameLog();
    const n = LOG_WINDOW + 500;
    for (let f = 1; f <= n; f++) log.push(f, 0, f, 0, 0, 0, 0, 0);
    log.truncate(n - 100);
    expect(log.dropped + log.frames).toBe(n - 100);
    expect(log.frame(log.frames - 1).frame).toBe(n - 100);
  });
});
