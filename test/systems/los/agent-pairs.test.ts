/**
 * The grid pair walk (AgentPairGrid, behind pairSegments) against the double loop over every pair
 * (pairSegmentsReference): the same segments (to the bit, the sign of zero included), the same pairs in the
 * same order, the same cursor, for crowds of any shape, odd coordinates and ranges, cursors and batch sizes;
 * every test once with the walk in JavaScript and once in WebAssembly (wasm/pair-walk.ts), and the kernel's
 * pairs coming out in several chunks in one call.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AgentPairGrid, PAIR_GRID_MIN_AGENTS } from '../../../src/systems/los/agent-pairs.js';
import { pairSegments, pairSegmentsReference, pairWalkKernelFor, SEGMENT_STRIDE } from '../../../src/systems/los/los-batch.js';
import { PAIR_WALK_CHUNK, pairWalkWasmModule } from '../../../src/systems/los/pair-walk-wasm.js';
import type { CollisionWorld } from '../../../src/worlds/world.js';
import { wasmAutoChoiceFor, type WasmMode } from '../../../src/worlds/wasm-mode.js';

/** The mode the suite now runs in: the pair walk in JavaScript (a world without a mode) or in WebAssembly. */
let wasmMode: WasmMode | undefined;
/** Only `up` is read by the pair walks, and `wasmMode` to choose the walk. */
const worldWithUp = (axis: 0 | 1 | 2, sign: 1 | -1) => ({ up: { axis, sign }, wasmMode }) as unknown as CollisionWorld;

const odd = fc.constantFrom(NaN, Infinity, -Infinity, -0, 1e300, -1e300, 2 ** 53, 5e-324);
/** Crowds: spread, clustered (many in range of each other), on a line, stacked on one spot; a few odd numbers. */
const crowd = fc
  .record({
    n: fc.integer({ min: PAIR_GRID_MIN_AGENTS - 4, max: 260 }),
    shape: fc.constantFrom('spread', 'cluster', 'line', 'spot', 'huge'),
    seed: fc.integer({ min: 1, max: 1 << 30 }),
    odd: fc.array(fc.tuple(fc.nat(), fc.nat(2), odd), { maxLength: 6 }),
  })
  .map(({ n, shape, seed, odd: oddOnes }) => {
    let s = seed >>> 0;
    const r = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
    const size = shape === 'spread' ? 400 : shape === 'cluster' ? 30 : shape === 'huge' ? 1e12 : 100;
    const feet = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      feet[3 * i] = shape === 'spot' ? 5 : r() * size - size / 2;
      feet[3 * i + 1] = shape === 'line' || shape === 'spot' ? 5 : r() * size - size / 2;
      feet[3 * i + 2] = r() * 10;
      if (shape === 'spot' && i % 3 === 0) feet[3 * i + 2] = 0;
    }
    for (const [i, a, v] of oddOnes) feet[3 * (i % n) + a] = v;
    return { n, feet };
  });
const rangeArb = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: 0.5, max: 60, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, NaN, Infinity, 1e200, 1e-200, 1e160) },
);

function same(a: Float64Array | Uint32Array, b: Float64Array | Uint32Array, count: number): boolean {
  for (let i = 0; i < count; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

for (const [how, mode] of [['in JavaScript', undefined], ['in WebAssembly', 'on']] as const) describe(`the grid pair walk ${how} equals the double loop`, () => {
  beforeAll(() => {
    wasmMode = mode;
    // The suite walks where it says it does.
    expect(pairWalkKernelFor(worldWithUp(2, 1)) !== null).toBe(mode === 'on');
  });

  it('on random crowds, whole walks: segments, pairs and cursor', () => {
    let withGrid = 0;
    let pairsSeen = 0;
    fc.assert(
      fc.property(crowd, rangeArb, fc.constantFrom<0 | 1 | 2>(0, 1, 2), fc.constantFrom<1 | -1>(1, -1), fc.oneof(fc.double({ min: 0, max: 5, noNaN: true }), fc.constant(NaN)), ({ n, feet }, range, axis, sign, eye) => {
        const world = worldWithUp(axis, sign);
        const all = (n * (n - 1)) / 2;
        const segA = new Float64Array(all * SEGMENT_STRIDE), segB = new Float64Array(all * SEGMENT_STRIDE);
        const pA = new Uint32Array(all * 2), pB = new Uint32Array(all * 2);
        const cA = { i: 0, j: 1 }, cB = { i: 0, j: 1 };
        const a = pairSegments(world, feet, n, eye, range, segA, pA, cA);
        const b = pairSegmentsReference(world, feet, n, eye, range, segB, pB, cB);
        if (new AgentPairGrid().walk(world, feet, n, eye, range, new Float64Array(all * 6), new Uint32Array(all * 2), { i: 0, j: 1 }, all) >= 0) withGrid++;
        pairsSeen += b;
        return a === b && same(segA, segB, b * SEGMENT_STRIDE) && same(pA, pB, 2 * b) && cA.i === cB.i && cA.j === cB.j;
      }),
      { numRuns: 500 },
    );
    expect(withGrid).toBeGreaterThan(250);
    expect(pairsSeen).toBeGreaterThan(100_000);
  });

  it('in batches through a cursor, from any cursor (odd ones too), with the same buffers as the whole walk', () => {
    let batches = 0;
    fc.assert(
      fc.property(
        crowd,
        fc.double({ min: 1, max: 40, noNaN: true }),
        fc.integer({ min: 0, max: 300 }),
        fc.oneof(fc.record({ i: fc.integer({ min: 0, max: 270 }), j: fc.integer({ min: 0, max: 270 }) }), fc.record({ i: fc.constantFrom(-1, 0.5, 1e9), j: fc.constantFrom(-3, 1.5, 2) })),
        ({ n, feet }, range, max, from) => {
          const world = worldWithUp(2, 1);
          const segA = new Float64Array(Math.max(max, 1) * SEGMENT_STRIDE), segB = new Float64Array(Math.max(max, 1) * SEGMENT_STRIDE);
          const pA = new Uint32Array(Math.max(max, 1) * 2), pB = new Uint32Array(Math.max(max, 1) * 2);
          const cA = { ...from }, cB = { ...from };
          // A few batches on from the same cursor: each must agree, and so must the cursor after it.
          for (let round = 0; round < 4; round++) {
            const a = pairSegments(world, feet, n, 1.5, range, segA, pA, cA, max);
            const b = pairSegmentsReference(world, feet, n, 1.5, range, segB, pB, cB, max);
            if (!(a === b && same(segA, segB, b * SEGMENT_STRIDE) && same(pA, pB, 2 * b) && Object.is(cA.i, cB.i) && Object.is(cA.j, cB.j))) return false;
            batches++;
            if (!(cB.i < n - 1) || max === 0) break;
          }
          return true;
        },
      ),
      { numRuns: 400 },
    );
    expect(batches).toBeGreaterThan(500);
  });

  it('keeps up when the agents move between calls, or their number changes (the grid is rebuilt)', () => {
    const world = worldWithUp(1, -1);
    const grid = new AgentPairGrid();
    const feet = new Float64Array(3 * 300);
    for (let i = 0; i < feet.length; i++) feet[i] = ((i * 7919) % 1000) / 10;
    const room = 300 * 299;
    const seg = new Float64Array(room * 3), seg2 = new Float64Array(room * 3);
    const p = new Uint32Array(room), p2 = new Uint32Array(room);
    for (const [n, nudge] of [[300, 0], [300, 0.25], [280, 0], [300, -0.5], [300, -0.5]] as const) {
      feet[3 * 17] = (feet[3 * 17] ?? 0) + nudge;
      const a = grid.walk(world, feet, n, 0.9, 12, seg, p, { i: 0, j: 1 }, room / 2);
      const b = pairSegmentsReference(world, feet, n, 0.9, 12, seg2, p2, { i: 0, j: 1 }, room / 2);
      expect(a).toBe(b);
      expect(same(seg, seg2, a * 6) && same(p, p2, 2 * a)).toBe(true);
    }
  });

  it('builds a new grid when agents become finite or not while their coordinates across up stay the same', () => {
    // Across up (y) the agents never move; only their height and the eye height change, which can make an
    // agent's eye infinite or NaN and then finite again: a grid kept from such a call would leave agents out.
    const world = worldWithUp(1, -1);
    const n = 120;
    const feet = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      feet[3 * i] = ((i * 7919) % 1000) / 10;
      feet[3 * i + 2] = ((i * 104_729) % 1000) / 10;
    }
    const room = (n * (n - 1)) / 2;
    const seg = new Float64Array(room * 6), seg2 = new Float64Array(room * 6);
    const p = new Uint32Array(room * 2), p2 = new Uint32Array(room * 2);
    const grid = new AgentPairGrid();
    const heights = (v: (i: number) => number) => {
      for (let i = 0; i < n; i++) feet[3 * i + 1] = v(i);
    };
    // Each call that leaves agents out also nudges agent 0 across, so its grid is built then; the call after
    // it makes every agent finite again and leaves the coordinates across as they are.
    const nudge = (dx: number) => (feet[0] = 5 + dx);
    const steps: [string, () => void, number][] = [
      ['an infinite eye height, on a new grid', () => heights(() => 0), Infinity],
      ['a finite one', () => heights(() => 0), 0.9],
      ['a NaN eye height, agent 0 moved', () => (nudge(0.5), heights(() => 0)), NaN],
      ['a finite one again', () => heights(() => 0), 0.9],
      ['every third agent at height NaN, agent 0 moved', () => (nudge(1), heights((i) => (i % 3 === 0 ? NaN : 0))), 0.9],
      ['all finite again', () => heights(() => 0), 0.9],
      ['every fifth agent infinitely high, agent 0 moved', () => (nudge(1.5), heights((i) => (i % 5 === 0 ? -Infinity : 1))), 0.9],
      ['all finite, higher', () => heights(() => 1), 0.9],
    ];
    let pairs = 0;
    for (const [what, set, eye] of steps) {
      set();
      const a = grid.walk(world, feet, n, eye, 12, seg, p, { i: 0, j: 1 }, room);
      const b = pairSegmentsReference(world, feet, n, eye, 12, seg2, p2, { i: 0, j: 1 }, room);
      expect(a, what).toBe(b);
      expect(same(seg, seg2, a * 6) && same(p, p2, 2 * a), what).toBe(true);
      pairs += b;
    }
    expect(pairs).toBeGreaterThan(1000);
  });

  it('equals the double loop call after call on one grid, as heights, eye heights and finiteness change', () => {
    let calls = 0;
    let pairs = 0;
    const grid = new AgentPairGrid();
    const heightArb = fc.oneof({ weight: 4, arbitrary: fc.double({ min: -3, max: 3, noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity) });
    const eyeArb = fc.oneof({ weight: 4, arbitrary: fc.double({ min: 0, max: 2, noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity) });
    fc.assert(
      fc.property(crowd, fc.array(fc.tuple(fc.array(fc.tuple(fc.nat(), heightArb), { maxLength: 8 }), eyeArb, fc.boolean()), { minLength: 2, maxLength: 5 }), fc.constantFrom<0 | 1 | 2>(0, 1, 2), ({ n, feet }, changes, axis) => {
        const f = feet.slice();
        const all = (n * (n - 1)) / 2;
        const segA = new Float64Array(all * SEGMENT_STRIDE), segB = new Float64Array(all * SEGMENT_STRIDE);
        const pA = new Uint32Array(all * 2), pB = new Uint32Array(all * 2);
        for (const [set, eye, flip] of changes) {
          // Only the up coordinate moves (and the up sign may flip): the coordinates across stay as they were.
          for (const [i, v] of set) f[3 * (i % n) + axis] = v;
          const world = worldWithUp(axis, flip ? -1 : 1);
          const a = grid.walk(world, f, n, eye, 20, segA, pA, { i: 0, j: 1 }, all);
          const b = pairSegmentsReference(world, f, n, eye, 20, segB, pB, { i: 0, j: 1 }, all);
          if (a >= 0) {
            calls++;
            pairs += b;
            if (!(a === b && same(segA, segB, b * SEGMENT_STRIDE) && same(pA, pB, 2 * b))) return false;
          }
        }
        return true;
      }),
      { numRuns: 150 },
    );
    expect(calls).toBeGreaterThan(150);
    expect(pairs).toBeGreaterThan(10_000);
  });

  it('equals the double loop batch after batch on one grid, whether the feet stay to the bit or change between batches, slices too', () => {
    let calls = 0, kept = 0;
    const grid = new AgentPairGrid();
    // Between two batches: nothing, the same numbers in a new array or a plain one, −0 for 0, a tiny move, NaN.
    const change = fc.oneof(
      fc.constant({ kind: 'none' as const, i: 0, v: 0 }),
      fc.constant({ kind: 'copy' as const, i: 0, v: 0 }),
      fc.constant({ kind: 'plain' as const, i: 0, v: 0 }),
      fc.record({ kind: fc.constant('set' as const), i: fc.nat(), v: fc.constantFrom(-0, 0, NaN, 5e-324, 1e-9, 3) }),
      fc.record({ kind: fc.constant('nudge' as const), i: fc.nat(), v: fc.constant(0) }),
    );
    fc.assert(
      fc.property(crowd, fc.integer({ min: 1, max: 400 }), fc.array(fc.tuple(change, fc.option(fc.nat(), { nil: undefined })), { minLength: 1, maxLength: 12 }), rangeArb, ({ n, feet }, max, changes, range) => {
        let f: ArrayLike<number> & { [k: number]: number } = feet.slice();
        const world = worldWithUp(2, 1);
        const segA = new Float64Array(max * SEGMENT_STRIDE), segB = new Float64Array(max * SEGMENT_STRIDE);
        const pA = new Uint32Array(max * 2), pB = new Uint32Array(max * 2);
        const ca = { i: 0, j: 1 }, cb = { i: 0, j: 1 };
        for (const [ch, cut] of changes) {
          const at = 3 * (ch.i % n) + (ch.i % 3);
          if (ch.kind === 'copy') f = Float64Array.from(f);
          else if (ch.kind === 'plain') f = Array.from(f);
          else if (ch.kind === 'set') f[at] = ch.v;
          else if (ch.kind === 'nudge') f[at] = f[at]! + Math.abs(f[at]!) * 2 ** -52 + 5e-324;
          else kept++;
          // The walk's cursor goes on; a finished walk starts again.
          if (ca.i >= n - 1) ca.i = cb.i = 0, ca.j = cb.j = 1;
          // Sometimes only the rows up to a cut (a thread's slice; the next call goes on from the cut).
          const rowEnd = cut === undefined ? n - 1 : ca.i + (cut % (n - ca.i));
          const a = grid.walk(world, f, n, 1.5, range, segA, pA, ca, max, rowEnd);
          if (a < 0) return true;
          const b = pairSegmentsReference(world, f, n, 1.5, range, segB, pB, cb, max, rowEnd);
          if (ca.i === rowEnd && rowEnd < n - 1) ca.j = cb.j = rowEnd + 1;
          calls++;
          if (!(a === b && ca.i === cb.i && ca.j === cb.j && same(segA, segB, b * SEGMENT_STRIDE) && same(pA, pB, 2 * b))) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
    expect(calls).toBeGreaterThan(800);
    expect(kept).toBeGreaterThan(100);
  });

  it('builds anew after a call with feet shorter than its agents (nothing of them is kept)', () => {
    const grid = new AgentPairGrid();
    const world = worldWithUp(2, 1);
    const n = 64;
    const full = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) full[3 * i] = i;
    const seg = new Float64Array(n * n * SEGMENT_STRIDE), pairs = new Uint32Array(n * n * 2);
    const ref = new Float64Array(n * n * SEGMENT_STRIDE), refPairs = new Uint32Array(n * n * 2);
    const expected = pairSegmentsReference(world, full, n, 1, 1.5, ref, refPairs);
    expect(expected).toBe(n - 1);
    expect(grid.walk(world, full, n, 1, 1.5, seg, pairs, { i: 0, j: 1 }, n * n)).toBe(expected);
    // One agent short: its missing coordinates read as undefined, NaN, so it has no partner.
    expect(grid.walk(world, full.subarray(0, 3 * n - 3), n, 1, 1.5, seg, pairs, { i: 0, j: 1 }, n * n)).toBe(expected - 1);
    expect(grid.walk(world, full, n, 1, 1.5, seg, pairs, { i: 0, j: 1 }, n * n)).toBe(expected);
    expect(same(seg, ref, expected * SEGMENT_STRIDE) && same(pairs, refPairs, 2 * expected)).toBe(true);
  });

  it('is not used below its threshold or for ranges it cannot trust (the double loop answers then)', () => {
    const world = worldWithUp(2, 1);
    const feet = new Float64Array(3 * 100);
    const seg = new Float64Array(6 * 5000), p = new Uint32Array(2 * 5000);
    const grid = new AgentPairGrid();
    expect(grid.walk(world, feet, PAIR_GRID_MIN_AGENTS - 1, 1, 10, seg, p, { i: 0, j: 1 }, 100)).toBe(-1);
    for (const range of [0, -5, NaN, Infinity, 1e200]) expect(grid.walk(world, feet, 100, 1, range, seg, p, { i: 0, j: 1 }, 100)).toBe(-1);
    expect(grid.walk(world, feet, 100, 1, 10, seg, p, { i: 0.5, j: 1 }, 100)).toBe(-1);
    expect(grid.walk(world, feet, 100, 1, 10, seg, p, { i: 0, j: 1 }, 4950)).toBe(4950); // 100 agents on one spot
  });
});

describe('the pair walk in WebAssembly', () => {
  it("follows the world's mode: none or off walk in JavaScript, on in WebAssembly, auto by the measured rule", () => {
    const withMode = (m: WasmMode | undefined) => ({ up: { axis: 2, sign: 1 }, wasmMode: m }) as unknown as CollisionWorld;
    expect(pairWalkKernelFor(withMode(undefined))).toBeNull();
    expect(pairWalkKernelFor(withMode('off'))).toBeNull();
    expect(pairWalkKernelFor(withMode('on'))).toBe(pairWalkWasmModule());
    expect(pairWalkKernelFor(withMode('auto')) !== null).toBe(wasmAutoChoiceFor('pair-walk', true));
    // Measured faster on the three engines the project runs on; an engine not measured keeps the JavaScript.
    for (const engine of ['v8', 'spidermonkey', 'jsc'] as const) expect(wasmAutoChoiceFor('pair-walk', true, engine)).toBe(true);
    expect(wasmAutoChoiceFor('pair-walk', true, 'other')).toBe(false);
    expect(wasmAutoChoiceFor('pair-walk', false, 'v8')).toBe(false);
  });

  it('gives the JavaScript walk\'s pairs and cursor for cursors and row ends past 32 bits, fractions and negatives', () => {
    const module = pairWalkWasmModule();
    const world = worldWithUp(2, 1);
    const big = fc.constantFrom(2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 53);
    fc.assert(
      fc.property(
        crowd,
        fc.oneof(fc.record({ i: fc.integer({ min: 0, max: 270 }), j: fc.integer({ min: 0, max: 270 }) }), fc.record({ i: fc.oneof(big, fc.integer({ min: 0, max: 270 })), j: fc.oneof(big, fc.integer({ min: 0, max: 270 })) })),
        fc.oneof(fc.integer({ min: -5, max: 300 }), fc.double({ min: -10, max: 300, noNaN: true }), fc.constantFrom(-(2 ** 32) + 5, 2 ** 31, 2 ** 32 + 3, Infinity, -Infinity)),
        fc.integer({ min: 0, max: 500 }),
        ({ n, feet }, from, rowEnd, max) => {
          const a = new AgentPairGrid(), b = new AgentPairGrid();
          const segA = new Float64Array(max * 6), segB = new Float64Array(max * 6);
          const pA = new Uint32Array(max * 2), pB = new Uint32Array(max * 2);
          const cA = { ...from }, cB = { ...from };
          const ka = a.walk(world, feet, n, 1, 30, segA, pA, cA, max, rowEnd);
          const kb = b.walk(world, feet, n, 1, 30, segB, pB, cB, max, rowEnd, module);
          return ka === kb && same(segA, segB, Math.max(0, ka) * 6) && same(pA, pB, Math.max(0, ka) * 2) && cA.i === cB.i && cA.j === cB.j;
        },
      ),
      { numRuns: 400 },
    );
  });

  it('pairSegments refuses a max that is not a whole number', () => {
    const world = worldWithUp(2, 1);
    for (const max of [2.5, -1, NaN]) expect(() => pairSegments(world, new Float64Array(300), 100, 1, 30, new Float64Array(60), new Uint32Array(20), { i: 0, j: 1 }, max)).toThrow(/max must be a whole number of pairs/);
  });

  it('gives the JavaScript walk\'s pairs when one call takes several of its chunks, whole and in batches', () => {
    const module = pairWalkWasmModule();
    expect(module, 'the kernel compiles in Node').not.toBeNull();
    const world = worldWithUp(2, 1);
    // 420 agents within a few metres of each other: every pair is in range, 87,990 pairs, over five chunks.
    const n = 420;
    const feet = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) feet.set([(i * 7919) % 13, (i * 104729) % 11, (i % 5) * 0.25], 3 * i);
    const all = (n * (n - 1)) / 2;
    expect(all).toBeGreaterThan(5 * PAIR_WALK_CHUNK);
    for (const batch of [all, 20_000, PAIR_WALK_CHUNK, PAIR_WALK_CHUNK + 1, 777]) {
      const js = new AgentPairGrid(), wasm = new AgentPairGrid();
      const segA = new Float64Array(batch * 6), segB = new Float64Array(batch * 6);
      const pA = new Uint32Array(batch * 2), pB = new Uint32Array(batch * 2);
      const cA = { i: 0, j: 1 }, cB = { i: 0, j: 1 };
      let total = 0;
      while (cA.i < n - 1) {
        const a = js.walk(world, feet, n, 1.5, 40, segA, pA, cA, batch);
        const b = wasm.walk(world, feet, n, 1.5, 40, segB, pB, cB, batch, n - 1, module);
        expect(b, `batch ${batch}`).toBe(a);
        expect(same(segA, segB, a * 6) && same(pA, pB, 2 * a), `batch ${batch}, pairs from ${total}`).toBe(true);
        expect(cB).toEqual(cA);
        total += a;
      }
      expect(total).toBe(all);
    }
  });
});
