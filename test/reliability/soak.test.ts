/**
 * The short soak for CI (the long one is `npm run soak`, 1,000,000 frames; figures in docs/reliability.md):
 * two independent runs of the default scenario, each in its own worker thread, compared by state hash every
 * 1,000 frames for 30,000 frames. What each simulation holds (its retained footprint, counted by walking it:
 * the same number in every run, whatever the machine's load) must not grow once the bounded per-frame records
 * have filled (by frame ~8,200: see test/reliability/bounded-logs.test.ts), so the fit starts at frame 10,200.
 * The heap is sampled and reported but not judged here: over 30,000 frames its slope moves with when V8
 * compiles code and collects, which a loaded machine shifts (the million-frame `npm run soak` judges it).
 *
 * Runs the compiled soak from dist/ (worker threads need JavaScript): `npm test` builds first.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SoakSample } from '../../scripts/soak.js';

const dist = fileURLToPath(new URL('../../dist/scripts/soak.js', import.meta.url));

describe('soak', async () => {
  if (!existsSync(dist)) throw new Error('dist/ is missing: run `npm run build` (npm test does it)');
  const soak = (await import(dist)) as typeof import('../../scripts/soak.js');

  it('the slope fit sees growth of a few bytes a frame and ignores noise and early steps', () => {
    const samples = (f: (frame: number) => number): SoakSample[] =>
      Array.from({ length: 31 }, (_, i) => ({ frame: i * 1000, hash: '', heapUsed: f(i * 1000), arrayBuffers: 0, rss: 0, heapTotal: 0, footprint: 0 }));
    // 16 bytes a frame (the draw-count history before it was bounded) is 16 MB a million frames.
    const leak = soak.memoryTrend(samples((f) => 8e6 + 16 * f), (s) => s.heapUsed, 10_000);
    expect(leak.slopePerMillionFrames).toBe(16_000_000);
    // Flat with alternating noise of ±20 kB: the slope is small.
    const noisy = soak.memoryTrend(samples((f) => 8e6 + ((f / 1000) % 2 ? 20_000 : -20_000)), (s) => s.heapUsed, 10_000);
    expect(Math.abs(noisy.slopePerMillionFrames)).toBeLessThan(4 * 1024 * 1024);
    // A step before the fit starts does not count; one inside it does.
    const step = (at: number) => samples((f) => (f >= at ? 9e6 : 8e6));
    expect(soak.memoryTrend(step(9000), (s) => s.heapUsed, 10_000).slopePerMillionFrames).toBe(0);
    expect(soak.memoryTrend(step(20_000), (s) => s.heapUsed, 10_000).slopePerMillionFrames).toBeGreaterThan(4 * 1024 * 1024);
  });

  it('the retained footprint counts objects, entries, typed-array bytes and strings, each object once', () => {
    const shared = new Float64Array(4);
    const a = { x: 1, list: [shared, shared, 'abc'], m: new Map([['k', shared]]) };
    const base = soak.retainedFootprint(a);
    // One more object with one slot: 16 + 8 for the object, 8 for the slot that holds it.
    const b = { ...a, extra: { y: 2 } };
    expect(soak.retainedFootprint(b) - base).toBe(16 + 8 + 8);
    // The same typed array again adds a slot, not its bytes; a new one adds its bytes and a header.
    expect(soak.retainedFootprint({ ...a, again: shared }) - base).toBe(8);
    expect(soak.retainedFootprint({ ...a, other: new Float64Array(4) }) - base).toBe(8 + 16 + 32);
    // Cycles end; getters are not called.
    const c: Record<string, unknown> = { get boom(): never { throw new Error('called'); } };
    c['self'] = c;
    expect(soak.retainedFootprint(c)).toBe(16 + 8);
  });

  it('30,000 frames of the default scenario: two runs agree every 1,000 frames and memory does not grow', async () => {
    const s = await soak.runSoak({ frames: 30_000, checkEvery: 1000, warmupFraction: 0.34 });
    expect(s.scenario).toBe('piney-field');
    expect(s.world).toBe('builtin:piney-default');
    expect(s.agents).toBe(300);
    expect(s.mismatch).toBeNull();
    // Frame 0 and every 1,000th frame up to 30,000.
    expect(s.checks).toBe(31);
    expect(s.finalHash).toMatch(/^0x[0-9a-f]{16}$/);
    expect(s.growing).toEqual([]);
    expect(s.ok).toBe(true);
    // The footprint is deterministic: both runs count the same at every checkpoint, and it is not trivial.
    expect(s.samples.a.map((x) => x[5])).toEqual(s.samples.b.map((x) => x[5]));
    expect(s.runs.a.footprint.first).toBeGreaterThan(1_000_000);
    expect(s.runs.a.footprint.slopePerMillionFrames).toBeLessThanOrEqual(s.maxGrowthPerMillionFrames);
  });
});
