/**
 * The visibility matrix in slices of rows: pairRowSlice covers the rows once, PairRowsCaster's slices
 * concatenated equal the whole walk, and LosPool.matrix on 1, 2 and 3 threads gives exactly the answers of
 * pairSegments then losBatch on one thread, in the same order, frame after frame, as the agents and their
 * number change (the answer buffers grow on the way).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { losBatch, newLosOutput, pairSegments, SEGMENT_STRIDE } from '../../../src/systems/los/los-batch.js';
import { pairRowSlice, PairRowsCaster } from '../../../src/systems/los/pair-rows.js';
import { LosPool } from '../../../src/node/los-pool.js';
import type { CollisionWorld } from '../../../src/worlds/world.js';
import { DEMO_KINDS, demoSource, lcg, openDemo } from '../demo-worlds.js';

/** The whole walk on one thread: every pair's answer in order. */
function serial(world: CollisionWorld, feet: Float64Array, n: number, eye: number, range: number): { visible: number[]; fraction: number[] } {
  const all = Math.max(1, (n * (n - 1)) / 2);
  const seg = new Float64Array(all * SEGMENT_STRIDE);
  const k = pairSegments(world, feet, n, eye, range, seg, new Uint32Array(all * 2));
  const out = newLosOutput(k);
  losBatch(world, seg, out, 0, k);
  return { visible: Array.from(out.visible), fraction: Array.from(out.fraction) };
}

/** n agents standing in the world (sampleOpen from a seed), a few of them on the same spot. */
function crowd(world: CollisionWorld, n: number, seed: number): Float64Array {
  const r = lcg(seed);
  const feet = new Float64Array(3 * n);
  let k = 0;
  for (let tries = 0; k < n && tries < 200 * n; tries++) {
    const p = world.sampleOpen(r(), r());
    if (!p) continue;
    feet.set(p, 3 * k);
    k++;
    if (k < n && k % 17 === 0) {
      feet.set(p, 3 * k);
      k++;
    }
  }
  return feet.subarray(0, 3 * k);
}

describe('pairRowSlice', () => {
  it('cuts the rows 0 .. n − 2 into contiguous slices, heavier rows in smaller slices', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 1, max: 64 }), (n, threads) => {
        let next = 0;
        for (let t = 0; t < threads; t++) {
          const [a, b] = pairRowSlice(n, threads, t);
          if (a !== next || b < a) return false;
          next = b;
        }
        return next === Math.max(0, n - 1);
      }),
      { numRuns: 2000 },
    );
    // Two threads: the first takes the first 29% of the rows (about half the pairs).
    expect(pairRowSlice(10_001, 2, 0)).toEqual([0, 2929]);
  });
});

describe('PairRowsCaster', () => {
  it('slices walked one after another equal the whole walk, and a full region stops writing but counts on', () => {
    const world = openDemo('rugrats');
    const feet = crowd(world, 150, 3);
    const n = feet.length / 3;
    const range = 8 * world.scale;
    const whole = serial(world, feet, n, 922, range);
    const caster = new PairRowsCaster();
    for (const threads of [1, 2, 5]) {
      const visible: number[] = [];
      const fraction: number[] = [];
      for (let t = 0; t < threads; t++) {
        const [a, b] = pairRowSlice(n, threads, t);
        const v = new Uint8Array(whole.visible.length), f = new Float64Array(whole.visible.length);
        const k = caster.run(world, feet, n, 922, range, a, b, v, f, v.length);
        visible.push(...v.subarray(0, k));
        fraction.push(...f.subarray(0, k));
      }
      expect(visible).toEqual(whole.visible);
      expect(fraction).toEqual(whole.fraction);
    }
    const v = new Uint8Array(10).fill(7), f = new Float64Array(10);
    expect(caster.run(world, feet, n, 922, range, 0, n - 1, v, f, 5)).toBe(whole.visible.length);
    expect(Array.from(v.subarray(0, 5))).toEqual(whole.visible.slice(0, 5));
    expect(Array.from(v.subarray(5))).toEqual([7, 7, 7, 7, 7]);
  });
});

describe('LosPool.matrix', () => {
  for (const kind of DEMO_KINDS) {
    it(`${kind}: on 1, 2 and 3 threads, exactly the one-thread walk and cast, as agents move and their number changes`, async () => {
      const world = openDemo(kind);
      const pools = await Promise.all([1, 2, 3].map((t) => LosPool.create(demoSource(kind), t)));
      const eye = world.integer ? Math.round(0.9 * world.scale) : 0.9 * world.scale;
      const range = (kind === 'llama' ? 6 : 20) * world.scale;
      try {
        // Growing crowds (the answer buffers grow and a slice may overflow and be cast again), then a small one.
        for (const [n, seed] of [[0, 1], [2, 2], [90, 3], [260, 4], [40, 5]] as const) {
          const feet = crowd(world, n, seed);
          const m = feet.length / 3;
          const expected = serial(world, feet, m, eye, range);
          for (const pool of pools) {
            const ans = await pool.matrix(feet, m, eye, range);
            expect(ans.count, `${pool.threads} threads, ${m} agents`).toBe(expected.visible.length);
            expect(Array.from(ans.visible.subarray(0, ans.count))).toEqual(expected.visible);
            expect(Array.from(ans.fraction.subarray(0, ans.count))).toEqual(expected.fraction);
          }
        }
      } finally {
        await Promise.all(pools.map((p) => p.close()));
      }
    });
  }

  it('refuses feet that do not hold n agents, and a closed pool', async () => {
    const pool = await LosPool.create(demoSource('rugrats'), 2);
    await expect(pool.matrix(new Float64Array(5), 2, 922, 1000)).rejects.toThrow(RangeError);
    await pool.close();
    await expect(pool.matrix(new Float64Array(6), 2, 922, 1000)).rejects.toThrow(/closed/);
  });
});
