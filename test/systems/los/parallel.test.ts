import { describe, expect, it } from 'vitest';
import { losBatch, newLosOutput } from '../../../src/systems/los/los-batch.js';
import { LosPool, sliceFor } from '../../../src/node/los-pool.js';
import type { LlamaWorld } from '../../../src/worlds/llama/collision-world.js';
import { DEMO_KINDS, demoSource, openDemo, randomSegments } from '../demo-worlds.js';

describe('sliceFor', () => {
  it('covers 0..count in contiguous slices whose sizes differ by at most one', () => {
    for (const count of [0, 1, 2, 7, 100, 1001]) {
      for (let threads = 1; threads <= 5; threads++) {
        let next = 0;
        const sizes: number[] = [];
        for (let t = 0; t < threads; t++) {
          const [a, b] = sliceFor(count, threads, t);
          expect(a).toBe(next);
          next = b;
          sizes.push(b - a);
        }
        expect(next).toBe(count);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe('LosPool (worker_threads)', () => {
  for (const kind of DEMO_KINDS) {
    it(`${kind}: answers across 1, 2 and 3 threads equal one thread's, batch after batch`, async () => {
      const world = openDemo(kind);
      const serial = newLosOutput(2000);
      const pools = await Promise.all([1, 2, 3].map((t) => LosPool.create(demoSource(kind), t)));
      try {
        for (const [round, n] of [[1, 2000], [2, 37], [3, 1500]] as const) {
          const seg = randomSegments(world, n, 99 + round);
          losBatch(world, seg, serial, 0, n);
          for (const pool of pools) {
            const par = newLosOutput(n);
            await pool.run(seg, par);
            expect(Array.from(par.visible), `${pool.threads} threads, round ${round}`).toEqual(Array.from(serial.visible.subarray(0, n)));
            expect(Array.from(par.fraction), `${pool.threads} threads, round ${round}`).toEqual(Array.from(serial.fraction.subarray(0, n)));
          }
        }
      } finally {
        await Promise.all(pools.map((p) => p.close()));
      }
    });
  }

  it('carries a world run-time state (Llama tile swaps) to every thread', async () => {
    const world = openDemo('llama') as LlamaWorld;
    expect(world.swapCount).toBeGreaterThan(0);
    const pool = await LosPool.create(demoSource('llama'), 2);
    try {
      const seg = randomSegments(world, 3000, 5);
      const before = newLosOutput(3000);
      losBatch(world, seg, before);
      for (let s = 0; s < world.swapCount; s++) world.setSwap(s, true);
      await pool.setWorldState(world.saveState());
      const serial = newLosOutput(3000);
      losBatch(world, seg, serial);
      // The swap changes some answers, so a worker that missed it would disagree.
      expect(Array.from(serial.fraction)).not.toEqual(Array.from(before.fraction));
      const par = newLosOutput(3000);
      await pool.run(seg, par);
      expect(Array.from(par.fraction)).toEqual(Array.from(serial.fraction));
    } finally {
      await pool.close();
    }
  });

  it('refuses a thread count outside 1..64', async () => {
    await expect(LosPool.create(demoSource('piney'), 0)).rejects.toThrow(RangeError);
    await expect(LosPool.create(demoSource('piney'), 65)).rejects.toThrow(RangeError);
  });
});
