/**
 * Line of sight in batches: many segments against one CollisionWorld through its `segmentFraction` (or its
 * `segmentFractions` stages), with plain typed arrays in and out, so a batch of any size creates nothing per
 * segment here (docs/systems.md says what V8 still boxes inside two worlds' walks).
 *
 * A segment is six numbers in a Float64Array: from x, y, z, then to x, y, z, in the world's native units and
 * axes. The answer per segment: `visible` 1 when nothing is hit (0 otherwise) and `fraction` the fraction
 * along from→to of the first hit (1 when visible), exactly what the world's own `segment` gives.
 */
import { checkSegmentBatch, type CollisionWorld } from '../../worlds/world.js';
import { AgentPairGrid, type PairCursor } from './agent-pairs.js';
import { pairWalkWasmError, pairWalkWasmModule } from './pair-walk-wasm.js';
import { wasmAutoChoiceFor } from '../../worlds/wasm-mode.js';

export type { PairCursor } from './agent-pairs.js';

/** Numbers per segment in a batch: from x, y, z, to x, y, z. */
export const SEGMENT_STRIDE = 6;

/** The answers of a line-of-sight batch, one entry per segment (newLosOutput makes one). */
export interface LosOutput {
  /** 1: clear line of sight; 0: something is in the way. One per segment. */
  visible: Uint8Array;
  /** Fraction along the segment of the first hit; 1 when clear. One per segment. */
  fraction: Float32Array | Float64Array;
}

/** Output arrays for `count` segments. */
export function newLosOutput(count: number, precision: 32 | 64 = 64): LosOutput {
  return { visible: new Uint8Array(count), fraction: precision === 32 ? new Float32Array(count) : new Float64Array(count) };
}

/**
 * Casts segments `[start, end)` of `segments` (default: all of them) and writes their answers at the same
 * indices of `out`. Throws a RangeError up front when the arrays are too short; creates nothing per segment.
 */
export function losBatch(world: CollisionWorld, segments: Float64Array, out: LosOutput, start = 0, end = Math.floor(segments.length / SEGMENT_STRIDE)): void {
  checkSegmentBatch(segments, start, end, Math.min(out.visible.length, out.fraction.length));
  const vis = out.visible;
  const frac = out.fraction;
  // The raw answers first (in place when the output holds doubles), through the world's batch stages when it
  // has them, else one segment at a time; then read.
  const raw = frac instanceof Float64Array ? frac : scratchFractions(end);
  if (world.segmentFractions) world.segmentFractions(segments, start, end, raw);
  else {
    for (let i = start, o = start * SEGMENT_STRIDE; i < end; i++, o += SEGMENT_STRIDE) {
      raw[i] = world.segmentFraction(segments[o]!, segments[o + 1]!, segments[o + 2]!, segments[o + 3]!, segments[o + 4]!, segments[o + 5]!);
    }
  }
  for (let i = start; i < end; i++) {
    const f = raw[i]!;
    // −1 (any negative) is the contract's "clear"; a hit outside [0, 1] or NaN is clamped to stay defined.
    if (f < 0) {
      vis[i] = 1;
      frac[i] = 1;
    } else {
      vis[i] = 0;
      frac[i] = f >= 0 && f <= 1 ? f : f > 1 ? 1 : 0;
    }
  }
}

/** This thread's answers of a batch before they are read, for outputs that are not doubles (grown, kept). */
let scratch = new Float64Array(0);
function scratchFractions(n: number): Float64Array {
  if (scratch.length < n) scratch = new Float64Array(Math.max(n, 2 * scratch.length));
  return scratch;
}

/**
 * The one convention of the matrix: sight between two agents is taken as symmetric and cast once per pair,
 * from the agent with the lower index to the higher (world segment tests need not be symmetric, e.g. the
 * Rugrats walk starts with a query of its start point, so the direction is fixed here, not left to chance).
 */
export const MATRIX_CAST_FROM_LOWER_INDEX = true;

/**
 * A visibility matrix for N agents: row-major N×N bytes, 1 where agent i sees agent j (eye to eye, within
 * range), the diagonal 1. Buffers are kept between calls, so a steady N allocates nothing per frame.
 */
export class VisibilityMatrix {
  /** The last answer: `n * n` bytes. */
  matrix = new Uint8Array(0);
  n = 0;
  /** Segments cast by the last `compute` (pairs within range). */
  cast = 0;
  private segments = new Float64Array(0);
  private pairs = new Uint32Array(0);
  private out: LosOutput = newLosOutput(0);
  private readonly cursor: PairCursor = { i: 0, j: 1 };

  /**
   * Computes the matrix for the first `n` agents and returns it (row-major n × n, kept in `matrix`): one segment
   * cast per pair within range, eye to eye, from the lower index to the higher.
   *
   * @param world the world to cast in
   * @param feet feet positions, 3 numbers per agent, native units
   * @param n how many agents (the first n of `feet`)
   * @param eyeHeight eye above the feet along the world's up axis, native units
   * @param range pairs farther apart than this (eye to eye) are not visible and not cast; Infinity for no limit
   */
  compute(world: CollisionWorld, feet: ArrayLike<number>, n: number, eyeHeight: number, range: number): Uint8Array {
    if (!Number.isInteger(n) || n < 0 || feet.length < 3 * n) throw new RangeError(`need 3 numbers per agent for ${n} agents, got ${feet.length}`);
    // Pairs are walked and cast in batches of bounded size, so memory follows n², not the pair buffers.
    const batch = Math.max(1, Math.min(MATRIX_BATCH, (n * (n - 1)) / 2));
    if (this.matrix.length < n * n) this.matrix = new Uint8Array(n * n);
    if (this.pairs.length < batch * 2) {
      this.pairs = new Uint32Array(batch * 2);
      this.segments = new Float64Array(batch * SEGMENT_STRIDE);
      this.out = newLosOutput(batch);
    }
    const m = this.matrix;
    m.fill(0, 0, n * n);
    this.n = n;
    for (let i = 0; i < n; i++) m[i * n + i] = 1;
    const cursor = this.cursor;
    cursor.i = 0;
    cursor.j = 1;
    let cast = 0;
    const vis = this.out.visible;
    const pairs = this.pairs;
    while (cursor.i < n - 1) {
      const k = pairSegments(world, feet, n, eyeHeight, range, this.segments, pairs, cursor, batch);
      cast += k;
      losBatch(world, this.segments, this.out, 0, k);
      for (let p = 0; p < k; p++) {
        if (vis[p] === 1) {
          const i = pairs[2 * p]!, j = pairs[2 * p + 1]!;
          m[i * n + j] = 1;
          m[j * n + i] = 1;
        }
      }
    }
    this.cast = cast;
    return m.subarray(0, n * n);
  }
}

/** Most pairs a VisibilityMatrix walks and casts at a time. */
export const MATRIX_BATCH = 1 << 14;

/**
 * Writes the eye-to-eye segment of every pair i < j of the first `n` agents that are within `range` into
 * `segments` (6 numbers each) and the pair into `pairs` (i, j), in the order (0,1), (0,2), ..., (1,2), ...;
 * returns how many. Eyes are `eyeHeight` above the feet along the world's up axis; distances are compared
 * squared (no root). With a `cursor`, it stops after `max` pairs and the cursor says where to go on, so any
 * number of agents can be walked in batches of bounded size (done when `cursor.i >= n − 1`); without one,
 * `segments` and `pairs` must have room for every pair, n(n−1)/2. With `rowEnd`, only the rows i < rowEnd are
 * walked (a slice of the walk, e.g. one thread's; done when `cursor.i >= rowEnd`).
 *
 * Many agents are sorted into a grid first (`AgentPairGrid`), so the cost follows the pairs in range rather
 * than n²; the answers are exactly the double loop's (`pairSegmentsReference`). The grid is walked in
 * WebAssembly when the world's `wasmMode` asks for kernels (`pairWalkKernelFor`), with the same answers.
 */
export function pairSegments(
  world: CollisionWorld,
  feet: ArrayLike<number>,
  n: number,
  eyeHeight: number,
  range: number,
  segments: Float64Array,
  pairs: Uint32Array,
  cursor: PairCursor = { i: 0, j: 1 },
  max = (n * (n - 1)) / 2,
  rowEnd = n - 1,
): number {
  if (!Number.isInteger(n) || n < 0 || feet.length < 3 * n) throw new RangeError(`need 3 numbers per agent for ${n} agents, got ${feet.length}`);
  if (!Number.isInteger(max) || max < 0) throw new RangeError(`max must be a whole number of pairs, got ${max}`);
  if (segments.length < max * SEGMENT_STRIDE || pairs.length < max * 2) throw new RangeError(`room for ${max} pairs needed`);
  const k = pairGrid.walk(world, feet, n, eyeHeight, range, segments, pairs, cursor, max, rowEnd, pairWalkKernelFor(world));
  return k >= 0 ? k : pairSegmentsReference(world, feet, n, eyeHeight, range, segments, pairs, cursor, max, rowEnd);
}

/**
 * The pair walk's WebAssembly kernel for agents on `world`, or null for the JavaScript walk: by the world's
 * `wasmMode` (a world without one walks in JavaScript). `on` takes the kernel (an Error when this engine cannot
 * compile it); `auto` takes it where it was measured faster (`wasmAutoChoiceFor('pair-walk')`) and compiles.
 */
export function pairWalkKernelFor(world: CollisionWorld): WebAssembly.Module | null {
  const mode = world.wasmMode;
  if (mode === undefined || mode === 'off' || (mode === 'auto' && !wasmAutoChoiceFor('pair-walk', true))) return null;
  const module = pairWalkWasmModule();
  if (module === null && mode === 'on') throw new Error(`the WebAssembly pair-walk kernel does not compile on this engine: ${pairWalkWasmError()}`);
  return module;
}

/** One grid for the calls of this thread (its buffers are kept between calls). */
const pairGrid = new AgentPairGrid();

/**
 * `pairSegments` by the plain double loop over every pair (i, j), i < j: the reference the grid walk is
 * checked against, and what runs when the grid does not apply. Same arguments and answers.
 */
export function pairSegmentsReference(
  world: CollisionWorld,
  feet: ArrayLike<number>,
  n: number,
  eyeHeight: number,
  range: number,
  segments: Float64Array,
  pairs: Uint32Array,
  cursor: PairCursor = { i: 0, j: 1 },
  max = (n * (n - 1)) / 2,
  rowEnd = n - 1,
): number {
  const axis = world.up.axis;
  const lift = world.up.sign * eyeHeight;
  const lx = axis === 0 ? lift : 0, ly = axis === 1 ? lift : 0, lz = axis === 2 ? lift : 0;
  const r2 = range * range;
  let k = 0;
  let i = cursor.i;
  let j = cursor.j;
  const last = rowEnd < n - 1 ? rowEnd : n - 1;
  for (; i < last; i++, j = i + 1) {
    const ix = feet[3 * i]! + lx, iy = feet[3 * i + 1]! + ly, iz = feet[3 * i + 2]! + lz;
    for (; j < n; j++) {
      const jx = feet[3 * j]! + lx, jy = feet[3 * j + 1]! + ly, jz = feet[3 * j + 2]! + lz;
      const dx = jx - ix, dy = jy - iy, dz = jz - iz;
      if (!(dx * dx + dy * dy + dz * dz <= r2)) continue;
      if (k === max) {
        cursor.i = i;
        cursor.j = j;
        return k;
      }
      const o = k * SEGMENT_STRIDE;
      segments[o] = ix; segments[o + 1] = iy; segments[o + 2] = iz;
      segments[o + 3] = jx; segments[o + 4] = jy; segments[o + 5] = jz;
      pairs[2 * k] = i;
      pairs[2 * k + 1] = j;
      k++;
    }
  }
  cursor.i = i;
  cursor.j = i + 1;
  return k;
}
