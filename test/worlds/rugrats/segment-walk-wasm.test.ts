/**
 * The Rugrats line-of-sight walk in WebAssembly (WasmLevelWalker, behind RugratsWorld.segmentFractions with
 * `wasm: 'on'`) against the JavaScript walk (SegmentStopWalker, its oracle) and the rule-exact vectorwalk
 * (`segmentFractionReference`): the same answer, bit for bit, on random dense levels (slopes, halves, stacks,
 * heights that wrap, bounds that cut cells) and on the demo level, for random segments, segments along cell
 * borders and tile edges, vertical ones, zero-length ones, starts that are not open, watchers casting many rays
 * from one start (the remembered start), ±0, fractions, huge and non-finite coordinates, in batches cut
 * anywhere and longer than the kernel takes at once. The mode itself: off / on / auto, refused values, the load
 * option, the rule of auto.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { buildColIndex, buildLevel, loadRugratsWorld, RugratsWorld } from '../../../src/worlds/rugrats/index.js';
import { WASM_CHUNK } from '../../../src/worlds/rugrats/segment-walk-wasm.js';
import { wasmAutoChoice, wasmAutoChoiceFor } from '../../../src/worlds/wasm-mode.js';
import { loadWorldBytes } from '../../../src/worlds/load.js';
import { DENSE_SIZE, coord, denseLevelArb, endFrom } from './dense-levels.js';

const DEMO = new Uint8Array(readFileSync(new URL('../../../assets/worlds/rugrats/demo.col', import.meta.url)));
const demoJs = loadRugratsWorld(DEMO, 'demo', undefined, 'off');
const demoWasm = loadRugratsWorld(DEMO, 'demo', undefined, 'on');

const bits = new Float64Array(2);
const words = new Uint32Array(bits.buffer);
function sameBits(a: number, b: number): boolean {
  bits[0] = a;
  bits[1] = b;
  return words[0] === words[2] && words[1] === words[3];
}

/**
 * Every segment of `batch` through the kernel (the range `start..end` of it), the JavaScript batch and one
 * segment at a time through vectorwalk: true when all three have the same bits and nothing outside the range was
 * written. `counts` gathers how many answers of each kind (−1, 0 or a fraction) ran, and in `counts[3]` how
 * many were −0 (a stop at the start moving down an axis).
 */
function agree(js: RugratsWorld, wasm: RugratsWorld, batch: Float64Array, start: number, end: number, counts: number[]): boolean {
  const n = batch.length / 6;
  const want = new Float64Array(n).fill(7);
  const got = new Float64Array(n).fill(7);
  js.segmentFractions(batch, start, end, want);
  wasm.segmentFractions(batch, start, end, got);
  for (let i = 0; i < n; i++) {
    if (!sameBits(want[i]!, got[i]!)) return false;
    if (i < start || i >= end) continue;
    const o = i * 6;
    if (!sameBits(got[i]!, js.segmentFractionReference(batch[o]!, batch[o + 1]!, batch[o + 2]!, batch[o + 3]!, batch[o + 4]!, batch[o + 5]!))) return false;
    counts[got[i]! < 0 ? 0 : got[i]! === 0 ? 1 : 2]!++;
    if (Object.is(got[i]!, -0)) counts[3] = (counts[3] ?? 0) + 1;
  }
  return true;
}

/** A coordinate of the demo level on axis a: anywhere, on a cell border or tile edge, or hostile. */
function demoCoord(a: 0 | 1 | 2): fc.Arbitrary<number> {
  const lo = demoJs.bounds.min[a], hi = demoJs.bounds.max[a];
  const base = a === 1 ? fc.integer({ min: -6000, max: 200 }) : fc.integer({ min: lo - 500, max: hi + 500 });
  return fc.oneof(
    { weight: 6, arbitrary: base },
    { weight: 2, arbitrary: fc.tuple(base, fc.constantFrom(0, 1, 1023, 1024, -1, 512)).map(([v, o]) => (v & -1024) + o) },
    { weight: 1, arbitrary: fc.tuple(base, fc.constantFrom(0.5, -0.5, 0.999, -1e-9, 1e-300)).map(([v, e]) => v + e) },
    { weight: 1, arbitrary: fc.constantFrom(0, -0, 0x7fffffff, -0x80000000, 2 ** 31, -(2 ** 31) - 1, 2 ** 40, -(2 ** 40), 1e300, -1e300, NaN, Infinity, -Infinity, 5e-324, -5e-324) },
  );
}
type Seg = [number, number, number, number, number, number];
/** A point of the demo level: anywhere (hostile included), or in the open up to 3000 above a floor. */
const demoPoint = fc.oneof(
  fc.tuple(demoCoord(0), demoCoord(1), demoCoord(2)),
  fc
    .tuple(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.integer({ min: 1, max: 3000 }))
    .map(([u, v, up]) => {
      const p = demoJs.sampleOpen(u, v);
      return p ? ([p[0], p[1] - up, p[2]] as [number, number, number]) : ([u, v, up] as [number, number, number]);
    }),
);
/** A step of up to 3 units on each axis (so a run or a diagonal's denominator is ±1 now and then). */
const tinyStep = fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 }));
/** Local offsets in a cell near its borders or on either diagonal (x = z, x + z = 1024), a unit or two off. */
const nearEdge = fc.oneof(
  fc.tuple(fc.constantFrom(-2, -1, 0, 1, 2, 1021, 1022, 1023, 1024, 1025), fc.integer({ min: -2, max: 1025 })),
  fc.tuple(fc.integer({ min: 0, max: 1023 }), fc.integer({ min: -2, max: 2 })).map(([u, e]) => [u, u + e] as [number, number]),
  fc.tuple(fc.integer({ min: 0, max: 1023 }), fc.integer({ min: -2, max: 2 })).map(([u, e]) => [u, 1024 - u + e] as [number, number]),
);
/** Segments on the demo level: random, short, along an axis, vertical, zero-length, −0 ends, fanning from one start. */
const demoSegments: fc.Arbitrary<Seg[]> = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: fc.tuple(demoPoint, demoPoint).map(([f, t]) => [[...f, ...t] as Seg]) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(demoPoint, fc.array(fc.tuple(fc.integer({ min: -6000, max: 6000 }), fc.integer({ min: -1500, max: 1500 }), fc.integer({ min: -6000, max: 6000 })), { minLength: 1, maxLength: 8 }))
        .map(([f, ds]) => ds.map(([a, b, c]) => [...f, f[0] + a, f[1] + b, f[2] + c] as Seg)),
    },
    { weight: 1, arbitrary: fc.tuple(demoPoint, demoCoord(0)).map(([f, x]) => [[...f, x, f[1], f[2]] as Seg]) },
    { weight: 1, arbitrary: fc.tuple(demoPoint, demoCoord(2)).map(([f, z]) => [[...f, f[0], f[1], z] as Seg]) },
    { weight: 1, arbitrary: fc.tuple(demoPoint, demoCoord(1)).map(([f, y]) => [[...f, f[0], y, f[2]] as Seg]) },
    { weight: 1, arbitrary: demoPoint.map((f) => [[...f, ...f] as Seg]) },
    { weight: 1, arbitrary: fc.tuple(demoPoint, fc.constantFrom(0, -0)).map(([f, zero]) => [[...f, zero, f[1] - 5, zero] as Seg]) },
    {
      // Starts one after the other that differ on one axis only (the remembered start must not answer for both).
      weight: 2,
      arbitrary: fc
        .tuple(demoPoint, demoPoint, fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.constantFrom(1, -1, 600, -600, 1024, -1024, 3000, -3000)), { minLength: 1, maxLength: 4 }))
        .map(([f, t, moves]) => {
          const segs: Seg[] = [[...f, ...t]];
          for (const [axis, d] of moves) {
            const g = [...segs[segs.length - 1]!] as Seg;
            g[axis] = g[axis]! + d;
            segs.push(g, [...g]);
          }
          return segs;
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(demoPoint, nearEdge, fc.array(tinyStep, { minLength: 1, maxLength: 4 }))
        .map(([p, [u, v], ds]) => {
          const f = [(p[0] & -1024) + u, p[1], (p[2] & -1024) + v];
          return ds.map(([a, b, c]) => [...f, f[0]! + a, f[1]! + b, f[2]! + c] as Seg);
        }),
    },
  ),
  { minLength: 1, maxLength: 12 },
).map((groups) => groups.flat());

function batchOf(segs: readonly (readonly number[])[]): Float64Array {
  const b = new Float64Array(segs.length * 6);
  segs.forEach((s, i) => b.set(s, i * 6));
  return b;
}

describe('the Rugrats walk in WebAssembly equals the JavaScript walk and vectorwalk', () => {
  it('on random dense levels: watchers casting rays from one start, bit for bit', () => {
    const counts = [0, 0, 0];
    fc.assert(
      fc.property(
        denseLevelArb,
        fc.array(
          fc
            .tuple(coord(0, (DENSE_SIZE + 2) * 1024), fc.oneof({ weight: 4, arbitrary: fc.integer({ min: -2500, max: -1 }) }, { weight: 1, arbitrary: coord(-45000, 1000) }), coord(0, (DENSE_SIZE + 2) * 1024))
            .chain((f) => fc.tuple(fc.constant(f), fc.array(endFrom(f), { minLength: 1, maxLength: 6 }))),
          { minLength: 4, maxLength: 12 },
        ),
        (level, watchers) => {
          const ix = buildColIndex(level.data);
          const js = new RugratsWorld(ix, 'dense', 'off');
          const wasm = new RugratsWorld(ix, 'dense', 'on');
          const segs: number[][] = [];
          for (const [f, ends] of watchers) {
            // The y of a start on the level's own scale when max y moved (so starts are open now and then).
            const fy = Number.isInteger(f[1]) && Math.abs(f[1]) < 45000 ? f[1] + level.maxY : f[1];
            for (const t of ends) segs.push([f[0], fy, f[2], t[0], Number.isInteger(t[1]) && Math.abs(t[1]) < 1e6 ? t[1] - f[1] + fy : t[1], t[2]]);
          }
          return agree(js, wasm, batchOf(segs), 0, segs.length, counts);
        },
      ),
      { numRuns: 300 },
    );
    expect(counts[0]).toBeGreaterThan(100);
    expect(counts[1]).toBeGreaterThan(500);
    expect(counts[2]).toBeGreaterThan(300);
  });

  it('on random dense levels: open starts, the walk going cell by cell', () => {
    const counts = [0, 0, 0];
    fc.assert(
      fc.property(
        denseLevelArb,
        fc.tuple(fc.integer({ min: 1024, max: (DENSE_SIZE + 1) * 1024 - 1 }), fc.integer({ min: -6000, max: -1 }), fc.integer({ min: 1024, max: (DENSE_SIZE + 1) * 1024 - 1 })),
        fc.array(
          fc.oneof(
            fc.tuple(fc.integer({ min: -7000, max: 7000 }), fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: -7000, max: 7000 })),
            fc.tuple(fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: -200, max: 200 }), fc.integer({ min: -3000, max: 3000 })),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        (level, f, ds) => {
          const ix = buildColIndex(level.data);
          const js = new RugratsWorld(ix, 'dense', 'off');
          const from = [f[0] + level.shiftX, f[1] + level.maxY, f[2] + level.shiftZ];
          fc.pre(js.segmentFraction(from[0]!, from[1]!, from[2]!, from[0]!, from[1]!, from[2]!) !== 0);
          const segs = ds.map((d) => [...from, from[0]! + d[0], from[1]! + d[1], from[2]! + d[2]]);
          return agree(js, new RugratsWorld(ix, 'dense', 'on'), batchOf(segs), 0, segs.length, counts);
        },
      ),
      { numRuns: 500 },
    );
    expect(counts[0]).toBeGreaterThan(100);
    expect(counts[2]).toBeGreaterThan(100);
  });

  it('on random dense levels: tiny steps from cell borders and diagonals', () => {
    const counts = [0, 0, 0];
    fc.assert(
      fc.property(
        denseLevelArb,
        fc.array(fc.tuple(fc.integer({ min: 0, max: DENSE_SIZE + 1 }), fc.integer({ min: 0, max: DENSE_SIZE + 1 }), nearEdge, fc.integer({ min: -3000, max: -1 }), fc.boolean(), fc.array(tinyStep, { minLength: 1, maxLength: 4 })), { minLength: 1, maxLength: 10 }),
        (level, starts) => {
          const ix = buildColIndex(level.data);
          const segs: number[][] = [];
          for (const [cx, cz, [u, v], y, shifted, ds] of starts) {
            // On the absolute grid (the walk's cell steps) or on the bounds' grid (the cells' lookup).
            const f = [cx * 1024 + u + (shifted ? level.shiftX : 0), y + level.maxY, cz * 1024 + v + (shifted ? level.shiftZ : 0)];
            for (const [a, b, c] of ds) segs.push([...f, f[0]! + a, f[1]! + b, f[2]! + c]);
          }
          return agree(new RugratsWorld(ix, 'dense', 'off'), new RugratsWorld(ix, 'dense', 'on'), batchOf(segs), 0, segs.length, counts);
        },
      ),
      { numRuns: 300 },
    );
    expect(counts[0]).toBeGreaterThan(100);
    expect(counts[2]).toBeGreaterThan(10);
  });

  it('in a corridor 512 cells long, where the rise times the run passes 2^31 and the walk must not skip cells', () => {
    // One room 100 height steps (12,800 units) tall along every column; the y bounds hug it.
    const data = buildLevel({ min: [0, -12800, 0], max: [512 * 1024 - 1, 0, 1023], cells: Array.from({ length: 512 }, (_, x) => ({ x, z: 0, rooms: [{ floor: 0, ceiling: 100 }] })) });
    const ix = buildColIndex(data);
    const js = new RugratsWorld(ix, 'corridor', 'off');
    const wasm = new RugratsWorld(ix, 'corridor', 'on');
    const counts = [0, 0, 0];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 * 1024 }), fc.integer({ min: 1, max: 12799 }), fc.integer({ min: 0, max: 1023 }), fc.integer({ min: 300 * 1024, max: 512 * 1024 - 1 }), fc.integer({ min: 1, max: 12799 }), fc.integer({ min: 0, max: 1023 })), { minLength: 1, maxLength: 10 }),
        (ends) => agree(js, wasm, batchOf(ends.map(([x, y, z, x2, y2, z2]) => [x, -y, z, x2, -y2, z2])), 0, ends.length, counts),
      ),
      { numRuns: 200 },
    );
    // Both kinds: rises small enough to get through, and wrapped landings that stop.
    expect(counts[0]).toBeGreaterThan(100);
    expect(counts[2]).toBeGreaterThan(50);
  });

  it('stops at its start moving down the major axis as the JavaScript does: −0', () => {
    // Open starts on the demo level whose walk stops where it starts, moving toward −x: the fraction 0 / dx.
    const segs = [
      [2294, -1408, 2827, -1677, -2159, -41],
      [5862, -1535, 5014, 3478, -4838, 4254],
      [4640, -605, 2527, 6944, -2981, 2657],
      [1654, -1, 1346, -1668, 3085, 1264],
    ];
    const counts = [0, 0, 0];
    for (const s of segs) expect(Object.is(demoJs.segmentFraction(...(s as Seg)), -0)).toBe(true);
    expect(agree(demoJs, demoWasm, batchOf(segs), 0, segs.length, counts)).toBe(true);
    expect(counts[3]).toBe(segs.length);
  });

  it('on the demo level, batches cut anywhere, adversarial coordinates included', () => {
    const counts = [0, 0, 0];
    fc.assert(
      fc.property(demoSegments, fc.option(fc.tuple(fc.nat(), fc.nat())), (segs, cut) => {
        const start = cut ? cut[0] % (segs.length + 1) : 0;
        const end = cut ? start + (cut[1] % (segs.length - start + 1)) : segs.length;
        return agree(demoJs, demoWasm, batchOf(segs), start, end, counts);
      }),
      { numRuns: 1500 },
    );
    expect(counts[0]).toBeGreaterThan(300);
    expect(counts[1]).toBeGreaterThan(300);
    expect(counts[2]).toBeGreaterThan(300);
  });

  it('on eye-to-eye segments between agents within 20 m on the demo level, in batches longer than the kernel takes at once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0x7fffffff }), fc.integer({ min: WASM_CHUNK - 3, max: 2 * WASM_CHUNK + 5 }), (seed, n) => {
        let s = seed;
        const next = () => {
          s = (Math.imul(s, 1103515245) + 12345) >>> 0;
          return s / 4294967296;
        };
        const feet: number[][] = [];
        while (feet.length < 200) {
          const p = demoJs.sampleOpen(next(), next());
          if (p) feet.push([p[0], p[1] - 922, p[2]]);
        }
        const segs: number[][] = [];
        while (segs.length < n) {
          const a = feet[Math.floor(next() * feet.length)]!, b = feet[Math.floor(next() * feet.length)]!;
          if (Math.hypot(a[0]! - b[0]!, a[2]! - b[2]!) <= 20 * 1024) segs.push([...a, ...b]);
        }
        const counts = [0, 0, 0];
        return agree(demoJs, demoWasm, batchOf(segs), 0, n, counts) && counts[0]! > 0 && counts[2]! > 0;
      }),
      { numRuns: 4 },
    );
  });

  it('answers one segment as segmentFraction does, and refuses a bad range as the JavaScript does', () => {
    fc.assert(
      fc.property(demoSegments, (segs) => {
        const out = new Float64Array(1);
        return segs.every((s) => {
          demoWasm.segmentFractions(new Float64Array(s), 0, 1, out);
          return sameBits(out[0]!, demoJs.segmentFraction(...s));
        });
      }),
      { numRuns: 500 },
    );
    const six = new Float64Array(12);
    for (const w of [demoJs, demoWasm]) {
      expect(() => w.segmentFractions(six, 0, 3, new Float64Array(3))).toThrow(/segment range 0\.\.3 is not within the batch's 2 segments/);
      expect(() => w.segmentFractions(six, 0, 2, new Float64Array(1))).toThrow(/output arrays hold 1 answers, 2 needed/);
    }
  });
});

describe('the Rugrats wasm mode', () => {
  it('off, on and auto (on V8 here), by the constructor, setWasm and the load option; other values refused', () => {
    const w = loadRugratsWorld(DEMO, 'demo', undefined, 'off');
    expect(w.wasmKernels).toBe(false);
    expect(w.setWasm('on')).toBe(true);
    expect(w.wasmKernels).toBe(true);
    expect(w.setWasm('off')).toBe(false);
    expect(w.setWasm('auto')).toBe(wasmAutoChoiceFor('rugrats-walk', true));
    expect(() => w.setWasm('fast' as never)).toThrow(/RugratsWorld\.setWasm: wasm mode must be one of off, on, auto \(got "fast"\)/);
    expect(loadRugratsWorld(DEMO, 'demo').wasmKernels).toBe(wasmAutoChoiceFor('rugrats-walk', true));
    expect((loadWorldBytes(DEMO, 'demo', { wasm: 'off' }) as RugratsWorld).wasmKernels).toBe(false);
    expect((loadWorldBytes(DEMO, 'demo', { wasm: 'on' }) as RugratsWorld).wasmKernels).toBe(true);
    expect((loadWorldBytes(DEMO, 'demo') as RugratsWorld).wasmKernels).toBe(wasmAutoChoiceFor('rugrats-walk', true));
  });

  it('auto runs each kernel only where it compiles and was measured faster', () => {
    for (const kernel of ['piney-cast', 'rugrats-walk'] as const) {
      for (const engine of ['v8', 'spidermonkey', 'jsc', 'other'] as const) expect(wasmAutoChoiceFor(kernel, false, engine)).toBe(false);
      expect(wasmAutoChoiceFor(kernel, true, 'other')).toBe(false);
    }
    // The Rugrats walk: faster in WebAssembly on V8, SpiderMonkey and JavaScriptCore.
    for (const engine of ['v8', 'spidermonkey', 'jsc'] as const) expect(wasmAutoChoiceFor('rugrats-walk', true, engine)).toBe(true);
    // The Piney cast keeps its rule.
    for (const engine of ['v8', 'spidermonkey', 'jsc', 'other'] as const) expect(wasmAutoChoiceFor('piney-cast', true, engine)).toBe(wasmAutoChoice(true, engine));
  });
});
