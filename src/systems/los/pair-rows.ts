/**
 * The visibility of all pairs within range, cut into slices of rows (the pairs (i, j) with i in a slice) so
 * that threads can each walk and cast their own: the answers of the slices, one after the other, are exactly
 * the answers of the whole walk (`pairSegments` then `losBatch`), in the same order.
 *
 * Rows are cut by their expected work: row i has about (n − 1 − i) / (n − 1) of a full row's partners, so the
 * first rows are the heavy ones and the cuts sit at (n − 1)(1 − √(1 − t / T)). The cut only shares the work
 * out; it changes no answer.
 */
import type { CollisionWorld } from '../../worlds/world.js';
import { detSqrt } from '../../numeric/det-math.js';
import { losBatch, newLosOutput, pairSegments, SEGMENT_STRIDE, type LosOutput } from './los-batch.js';

/** Pairs walked and cast at a time. */
export const PAIR_ROWS_CHUNK = 8192;

/** Rows [start, end) of slice `t` of `threads` for n agents (rows 0 .. n − 2 hold pairs). */
export function pairRowSlice(n: number, threads: number, t: number): [number, number] {
  const rows = n > 1 ? n - 1 : 0;
  const cut = (k: number): number => (k <= 0 ? 0 : k >= threads ? rows : Math.round(rows * (1 - detSqrt(1 - k / threads))));
  return [cut(t), cut(t + 1)];
}

/** One thread's walker and caster of slices (its buffers are kept from call to call). */
export class PairRowsCaster {
  private readonly segments = new Float64Array(PAIR_ROWS_CHUNK * SEGMENT_STRIDE);
  private readonly pairs = new Uint32Array(PAIR_ROWS_CHUNK * 2);
  private readonly chunk: LosOutput = newLosOutput(PAIR_ROWS_CHUNK);
  private readonly cursor = { i: 0, j: 1 };

  /**
   * Walks the pairs within range of rows [rowStart, rowEnd) in order, casts them, and writes their answers
   * (as losBatch does) into `visible` and `fraction` from index 0, at most `capacity` of them. Returns how
   * many pairs there are, which may be more than `capacity` (then only the first `capacity` are written).
   */
  run(
    world: CollisionWorld,
    feet: ArrayLike<number>,
    n: number,
    eyeHeight: number,
    range: number,
    rowStart: number,
    rowEnd: number,
    visible: Uint8Array,
    fraction: Float32Array | Float64Array,
    capacity: number,
  ): number {
    const c = this.cursor;
    c.i = rowStart;
    c.j = rowStart + 1;
    const out = this.chunk;
    let total = 0;
    while (c.i < rowEnd) {
      const k = pairSegments(world, feet, n, eyeHeight, range, this.segments, this.pairs, c, PAIR_ROWS_CHUNK, rowEnd);
      if (total < capacity) {
        const room = capacity - total < k ? capacity - total : k;
        losBatch(world, this.segments, out, 0, room);
        const v = out.visible, f = out.fraction;
        for (let q = 0; q < room; q++) {
          visible[total + q] = v[q]!;
          fraction[total + q] = f[q]!;
        }
      }
      total += k;
    }
    return total;
  }
}
