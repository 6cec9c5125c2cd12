/**
 * The live record: the same replay bytes a ReplayRecorder writes of the same run; seeking back lands on the
 * recorded hash; a cut run goes on differently and still writes a replay that verifies; a replay's frames
 * carried on live; the memory budget drops the oldest blocks but never below the frames always kept.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { readReplay } from '../../src/replay/format.js';
import { LiveRecord } from '../../src/replay/live-record.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import type { Simulation } from '../../src/sim/simulation.js';
import { BUTTON_MASK, Buttons } from '../../src/systems/input.js';
import type { OpenedWorldSource } from '../../src/node/open-world.js';

let opened: OpenedWorldSource;
const sim = (): Simulation => simulationFromSettings(opened.world, defaultSettingsFor(opened.world, { agents: 4 }));
/** A key pattern from a seed: runs of held buttons. */
const pattern = (seed: number) => (f: number): number => [Buttons.Up, 0, Buttons.Up | Buttons.Left, Buttons.Down, 0, Buttons.Right][((f >> 4) + seed) % 6]!;

beforeAll(async () => {
  opened = await openBuiltinWorld('rugrats-demo');
});

describe('the live record', () => {
  test('writes the bytes a ReplayRecorder writes of the same run, at any length and interval', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 260 }), fc.integer({ min: 1, max: 70 }), fc.nat(5), (frames, K, seed) => {
        const a = sim();
        const b = sim();
        const live = new LiveRecord(a, opened.identity, { keyframeInterval: K });
        const rec = new ReplayRecorder(b, opened.identity, K);
        const keys = pattern(seed);
        for (let f = 0; f < frames; f++) {
          live.step(keys(f));
          rec.step(keys(f));
        }
        expect(live.head).toBe(frames);
        expect(Buffer.from(live.replayBytes()).equals(Buffer.from(rec.finish()))).toBe(true);
      }),
      { numRuns: 12 },
    );
  });

  test('seeks to any frame held with the recorded hash, backwards and forwards', () => {
    const s = sim();
    const live = new LiveRecord(s, opened.identity, { keyframeInterval: 40 });
    const keys = pattern(2);
    const hashes = [s.hashHex()];
    for (let f = 0; f < 200; f++) {
      live.step(keys(f));
      hashes.push(s.hashHex());
    }
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 6 }), (frames) => {
        for (const f of frames) {
          const r = live.seek(f);
          expect(r).toEqual({ frame: f, hash: hashes[f], verified: true });
          expect(s.frame).toBe(f);
        }
      }),
      { numRuns: 15 },
    );
    expect(() => live.seek(201)).toThrow(/outside the record's 0..200/);
    expect(live.input(17)).toBe(keys(16));
    expect(Array.from(live.inputs(5)!)).toEqual([0, 1, 2, 3, 4].map(keys));
  });

  test('cut at a frame sought back to, the run goes on differently and its replay verifies', () => {
    const s = sim();
    const live = new LiveRecord(s, opened.identity, { keyframeInterval: 30 });
    for (let f = 0; f < 100; f++) live.step(Buttons.Up);
    live.seek(45);
    expect(() => live.step(0)).toThrow(/stands at frame 45, the record's head is 100/);
    live.cut(45);
    expect(live.keyframes()).toEqual([0, 30]);
    for (let f = 0; f < 40; f++) live.step(Buttons.Down);
    expect(live.head).toBe(85);
    const rp = readReplay(live.replayBytes(), BUTTON_MASK);
    expect(rp.frames.count).toBe(85);
    expect(rp.frames.inputs[44]).toBe(Buttons.Up);
    expect(rp.frames.inputs[45]).toBe(Buttons.Down);
    expect(verifyReplay(rp, sim()).ok).toBe(true);
  });

  test("a replay's frames carried on live write the replay of the whole run", () => {
    const a = sim();
    const first = new ReplayRecorder(a, opened.identity, 25);
    for (let f = 0; f < 90; f++) first.step(pattern(1)(f));
    const rp = readReplay(first.finish(), BUTTON_MASK);
    // Another simulation brought to frame 60 of the replay, then on live.
    const b = sim();
    for (let f = 0; f < 60; f++) b.step(rp.frames.inputs[f]!);
    const live = LiveRecord.fromReplay(rp, b, 60);
    expect([live.start, live.head]).toEqual([0, 60]);
    for (let f = 0; f < 50; f++) live.step(Buttons.Jump);
    const c = sim();
    const whole = new ReplayRecorder(c, opened.identity, 25);
    for (let f = 0; f < 60; f++) whole.step(pattern(1)(f));
    for (let f = 0; f < 50; f++) whole.step(Buttons.Jump);
    expect(Buffer.from(live.replayBytes()).equals(Buffer.from(whole.finish()))).toBe(true);
    expect(() => LiveRecord.fromReplay(rp, sim(), 60)).toThrow(/stands at frame 0, not at frame 60/);
  });

  test('over its budget it drops keyframe copies first and keeps every frame record: the whole run still writes the bytes a ReplayRecorder writes', () => {
    const one = new LiveRecord(sim(), opened.identity, { keyframeInterval: 20 }).bytes; // one keyframe's block
    const budgetBytes = 6 * one;
    const a = sim();
    const b = sim();
    const live = new LiveRecord(a, opened.identity, { keyframeInterval: 20, minFrames: 50, budgetBytes });
    const rec = new ReplayRecorder(b, opened.identity, 20);
    const keys = pattern(3);
    for (let f = 0; f < 400; f++) {
      live.step(keys(f));
      rec.step(keys(f));
      expect(live.bytes).toBeLessThanOrEqual(budgetBytes);
      expect(live.complete).toBe(true);
      expect(live.head - live.start).toBeGreaterThanOrEqual(Math.min(50, live.head));
    }
    // only the newest keyframes can be sought quickly; the frame records go back to frame 0
    expect(live.start).toBeGreaterThan(200);
    expect(live.inputs()!.length).toBe(400);
    expect(() => live.seek(live.start - 1)).toThrow(/outside the record's/);
    const at = a.hashHex();
    const bytes = live.replayBytes();
    expect(Buffer.from(bytes).equals(Buffer.from(rec.finish()))).toBe(true);
    expect(a.hashHex()).toBe(at); // the simulation stands where it stood
    expect(live.bytes).toBeLessThanOrEqual(budgetBytes); // the keyframes made again are not kept
    expect(verifyReplay(readReplay(bytes), sim()).ok).toBe(true);
    expect(live.seek(live.start)).toMatchObject({ frame: live.start, verified: true });
  });

  test('over its budget it drops the oldest blocks, never below the frames always kept; then it cannot write a replay', () => {
    const s = sim();
    const live = new LiveRecord(s, opened.identity, { keyframeInterval: 20, minFrames: 50, budgetBytes: 1 });
    for (let f = 0; f < 200; f++) {
      live.step(Buttons.Up);
      // Always at least the last 50 frames held, and never more blocks than those and the one being filled.
      expect(live.head - live.start).toBeGreaterThanOrEqual(Math.min(50, live.head));
      expect(live.head - live.start).toBeLessThan(50 + 2 * 20);
    }
    expect(live.start).toBeGreaterThan(0);
    expect(live.complete).toBe(false);
    expect(live.bytes).toBeGreaterThan(0);
    expect(live.inputs()).toBeNull();
    expect(() => live.replayBytes()).toThrow(/no longer holds frame 0/);
    expect(() => live.seek(live.start - 1)).toThrow(/outside the record's/);
    const back = live.head - 45;
    const want = live.hashAt(back);
    expect(live.seek(back)).toEqual({ frame: back, hash: want, verified: true });
  });
});
