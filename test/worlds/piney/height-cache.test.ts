import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eeAdd, eeFromInt, eeFromNumber, eeMul, eeToNumber } from '../../../src/numeric/ee-float.js';
import { getHeight, HIDDEN_HEIGHT, surfaceHeight } from '../../../src/worlds/piney/get-height.js';
import { addNormal, eeAddValue, eeMulValue, eeValue, HeightCache, truncNormal } from '../../../src/worlds/piney/height-cache.js';
import { generateField } from '../../../src/worlds/piney/generate.js';
import { CELLS, CHIPS } from '../../../src/worlds/piney/field-state.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

const STORY14 = { seed: 1420855, fieldType: 10, weather: 0, ground: 1, object: 1, event: 14, protect: false };
const story14 = generateField(STORY14, defaultPineyTables());
const others = [1, 2, 3].map((seed) => generateField({ seed: seed * 7919, fieldType: seed * 3, weather: 0, ground: seed - 1, object: seed % 3, event: 0, protect: false }, defaultPineyTables()));
const fields = [story14, ...others];
const caches = fields.map((f) => new HeightCache(f.map, f.check3));
/** A fresh cache per field with every cell prepared up front (the CollisionWorld's way). */
const prepared = fields.map((f) => new HeightCache(f.map, f.check3).prepareAll());

/** Any EE bit pattern whose value is finite in a double (all of them) but as a value: sign, exponent, fraction. */
const eeBits = fc.nat({ max: 0xffffffff });
/** EE values: random bit patterns with exponents in the normal range, plus zeros. */
const eeVal = fc.oneof(
  fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 254 }), fc.nat({ max: 0x7fffff })).map(([s, e, m]) => eeToNumber(((s ? 0x80000000 : 0) | (e << 23) | m) >>> 0)),
  fc.tuple(fc.boolean(), fc.integer({ min: 100, max: 160 }), fc.nat({ max: 0x7fffff })).map(([s, e, m]) => eeToNumber(((s ? 0x80000000 : 0) | (e << 23) | m) >>> 0)),
  fc.constant(0),
);

/** Points on cell corners, edges and diagonals, and a hair either side of them. */
const hair = fc.constantFrom(0, 1e-9, 1e-6, 1e-4, 0.001, 0.002, 0.003, 0.004, 0.005, 0.01, 0.02, 0.05);
const onEdges = fc
  .tuple(fc.integer({ min: 0, max: 79 }), fc.integer({ min: 0, max: 79 }), fc.double({ min: 0, max: 600, noNaN: true }), hair, fc.constantFrom(-1, 1), fc.integer({ min: 0, max: 4 }))
  .map(([cx, cy, t, h, sign, kind]): [number, number] => {
    const d = sign * h;
    const x0 = cx * 600;
    const y0 = cy * 600;
    switch (kind) {
      case 0: // the diagonal u = v, pushed off it
        return [x0 + t, y0 + t + d];
      case 1: // the cell's left side
        return [x0 + d, y0 + t];
      case 2: // its bottom side
        return [x0 + t, y0 + d];
      case 3: // its right / top sides (the next cell's)
        return [x0 + 600 + d, y0 + t];
      default: // a corner
        return [x0 + (sign > 0 ? h : 600 - h), y0 + (sign > 0 ? 600 - h : h)];
    }
  });
const anywhere = fc.tuple(fc.double({ min: 0, max: 48000, noNaN: true }), fc.double({ min: 0, max: 48000, noNaN: true }));
const outside = fc.tuple(fc.double({ noNaN: false }), fc.double({ noNaN: false }));

describe('EE arithmetic on values', () => {
  it('eeMulValue is mul.s on the values (truncation, saturation, flush to zero)', () => {
    fc.assert(
      fc.property(eeVal, eeVal, (a, b) => {
        // As values: a zero's sign is not kept (GetHeight's answer never depends on it).
        const want = eeToNumber(eeMul(eeFromNumber(a), eeFromNumber(b)));
        const got = eeMulValue(a, b);
        expect(got === want).toBe(true);
        expect(eeFromNumber(got) === eeFromNumber(want) || want === 0).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
  it('eeAddValue is add.s on the values (rounding onto a grid point, cancellation, far exponents)', () => {
    const near = fc.tuple(eeVal, fc.integer({ min: -30, max: 30 })).map(([a, k]) => [a, -a + k * 2 ** -20] as const);
    fc.assert(
      fc.property(fc.oneof(fc.tuple(eeVal, eeVal), near.map(([a, b]) => [a, eeValue(b)] as [number, number])), ([a, b]) => {
        expect(eeAddValue(a, b)).toBe(eeToNumber(eeAdd(eeFromNumber(a), eeFromNumber(b))));
      }),
      { numRuns: 5000 },
    );
    // The double sum rounds up onto 2^24 · ulp: the exact sum lies just below it.
    const a = eeToNumber(0x4b7fffff); // 16777215
    const b = 0.75;
    expect(eeAddValue(a, b)).toBe(eeToNumber(eeAdd(eeFromNumber(a), eeFromNumber(b))));
    expect(eeAddValue(1, -(2 ** -60))).toBe(eeToNumber(eeAdd(eeFromNumber(1), eeFromNumber(-(2 ** -60)))));
  });
  it('truncNormal (the fast path\'s truncation) equals eeValue on normal magnitudes, either sign', () => {
    const mid = fc.tuple(fc.boolean(), fc.double({ min: 2 ** -120, max: 2 ** 120, noNaN: true })).map(([neg, v]) => (neg ? -v : v));
    const onGrid = eeVal.filter((v) => v === 0 || (Math.abs(v) >= 2 ** -120 && Math.abs(v) <= 2 ** 120));
    fc.assert(
      fc.property(fc.oneof(mid, onGrid), (v) => {
        expect(truncNormal(v)).toBe(eeValue(v));
      }),
      { numRuns: 5000 },
    );
    // Just below a power of two, where the float below has half the spacing.
    for (const v of [1 - 2 ** -30, 2 - 2 ** -40, -(1024 - 2 ** -20), 0.75 + 2 ** -30]) expect(truncNormal(v)).toBe(eeValue(v));
  });
  it('addNormal (the fast path\'s add.s) equals eeAddValue on normal magnitudes, the rounding-onto-a-grid-point case too', () => {
    const moderate = eeVal.filter((v) => v === 0 || (Math.abs(v) >= 2 ** -60 && Math.abs(v) <= 2 ** 60));
    const near = fc.tuple(moderate, fc.integer({ min: -40, max: 40 })).map(([a, k]): [number, number] => [a, eeValue(-a * (1 + k * 2 ** -23))]);
    fc.assert(
      fc.property(fc.oneof(fc.tuple(moderate, moderate), near), ([a, b]) => {
        expect(addNormal(a, b)).toBe(eeAddValue(a, b));
      }),
      { numRuns: 5000 },
    );
    // 1 − 2⁻⁶⁰ rounds to 1 in a double; add.s truncates the exact sum to the float below 1.
    expect(addNormal(1, -(2 ** -60))).toBe(1 - 2 ** -24);
    expect(addNormal(-1, 2 ** -60)).toBe(-(1 - 2 ** -24));
    expect(addNormal(1, 2 ** -60)).toBe(1);
  });
  it('eeValue is eeFromNumber then eeToNumber', () => {
    fc.assert(
      fc.property(fc.double(), (v) => {
        expect(Object.is(eeValue(v), eeToNumber(eeFromNumber(v))) || eeValue(v) === eeToNumber(eeFromNumber(v))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('HeightCache (the fast GetHeight)', () => {
  it('prepares every cell of a generated field for the fast path', () => {
    for (const c of prepared) expect(c.exactCells()).toBe(0);
  });

  it('answers bit for bit what getHeight answers: random points, cell edges, diagonals, corners, hidden chips', () => {
    fc.assert(
      fc.property(fc.nat({ max: fields.length - 1 }), fc.boolean(), fc.oneof(onEdges, anywhere, onEdges), (k, eager, [x, y]) => {
        const f = fields[k]!;
        const c = (eager ? prepared : caches)[k]!;
        const bx = eeFromNumber(x);
        const by = eeFromNumber(y);
        expect(c.getHeight(bx, by)).toBe(getHeight(f.map, f.check3, bx, by));
        expect(c.surfaceHeight(bx, by)).toBe(surfaceHeight(f.map, bx, by));
        expect(c.surfaceAt(x, y)).toBe(eeToNumber(surfaceHeight(f.map, bx, by)));
      }),
      { numRuns: 20000 },
    );
  });

  it('answers bit for bit for any bit pattern and any double (outside the field, NaN, infinities)', () => {
    const f = story14;
    const c = caches[0]!;
    fc.assert(
      fc.property(eeBits, eeBits, (bx, by) => {
        expect(c.getHeight(bx, by)).toBe(getHeight(f.map, f.check3, bx, by));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(outside, ([x, y]) => {
        expect(c.surfaceAt(x, y)).toBe(eeToNumber(surfaceHeight(f.map, eeFromNumber(x), eeFromNumber(y))));
        expect(c.hiddenAt(x, y)).toBe(getHeight(f.map, f.check3, eeFromNumber(x), eeFromNumber(y)) === HIDDEN_HEIGHT);
      }),
      { numRuns: 2000 },
    );
  });

  it('covers every hidden chip of story area 14 with −500', () => {
    const c = caches[0]!;
    let hidden = 0;
    for (let i = 0; i < CHIPS; i++) {
      for (let j = 0; j < CHIPS; j++) {
        if (story14.check3[i * CHIPS + j] !== 1) continue;
        hidden++;
        for (const [dx, dy] of [[0, 0], [1199.99, 1199.99], [600, 0.5], [17.25, 900.125]] as const) {
          const bx = eeFromNumber(i * 1200 + dx);
          const by = eeFromNumber(j * 1200 + dy);
          expect(c.getHeight(bx, by)).toBe(HIDDEN_HEIGHT);
          expect(c.hiddenAt(i * 1200 + dx, j * 1200 + dy)).toBe(true);
          expect(c.surfaceHeight(bx, by)).toBe(surfaceHeight(story14.map, bx, by));
        }
      }
    }
    expect(hidden).toBeGreaterThan(0);
  });

  it('equals getHeight on a dense sweep across one cell of every field, through both triangles and the diagonal', () => {
    for (let k = 0; k < fields.length; k++) {
      const f = fields[k]!;
      const c = prepared[k]!;
      const cx = 17 + k * 11;
      const cy = 41 - k * 7;
      for (let i = 0; i <= 120; i++) {
        for (let j = 0; j <= 120; j++) {
          const x = cx * 600 + i * 5 - 0.0025 * (j % 3);
          const y = cy * 600 + j * 5 + 0.0025 * (i % 3);
          const bx = eeFromNumber(x);
          const by = eeFromNumber(y);
          expect(c.getHeight(bx, by)).toBe(getHeight(f.map, f.check3, bx, by));
        }
      }
    }
  });

  it('answers the story area 14 vectors', () => {
    const lake = generateField(STORY14, defaultPineyTables(), 'lake');
    const c = new HeightCache(lake.map, lake.check3);
    expect(c.getHeight(eeFromNumber(1000), eeFromNumber(2000))).toBe(0x4222ab40);
    expect(c.getHeight(eeFromNumber(24600), eeFromNumber(24600))).toBe(0x39800000);
    expect(c.getHeight(eeFromNumber(16200), eeFromNumber(23100))).toBe(HIDDEN_HEIGHT);
  });

  it('takes the exact path on cells it cannot prove (huge, steep or exponent-255 heights) and still agrees', () => {
    const m = new Uint32Array(CELLS * CELLS);
    for (let x = 0; x < CELLS; x++) {
      for (let y = 0; y < CELLS; y++) {
        const v = (x * 31 + y * 17) % 23;
        m[x * CELLS + y] = v === 0 ? 0x7f7fffff : v === 1 ? eeFromInt(2400) : v === 2 ? 0xff000001 : v === 3 ? eeFromNumber(-3e6) : eeFromInt((x * y) % 900);
      }
    }
    const hidden = new Uint8Array(CHIPS * CHIPS);
    const c = new HeightCache(m, hidden);
    expect(c.exactCells()).toBeGreaterThan(0);
    expect(c.exactCells()).toBeLessThan(CELLS * CELLS);
    fc.assert(
      fc.property(fc.oneof(onEdges, anywhere), ([x, y]) => {
        const bx = eeFromNumber(x);
        const by = eeFromNumber(y);
        expect(c.getHeight(bx, by)).toBe(getHeight(m, hidden, bx, by));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('EE flush to zero keeps the sign (found by CI: a property run hit a cancelling sum below the smallest normal)', () => {
  it.each([
    ['add', () => eeAddValue(1.175494490952134e-38, -2.350988701644575e-38), eeToNumber(eeAdd(eeFromNumber(1.175494490952134e-38), eeFromNumber(-2.350988701644575e-38)))],
    ['mul', () => eeMulValue(-1e-20, 1e-20), eeToNumber(eeMul(eeFromNumber(-1e-20), eeFromNumber(1e-20)))],
    ['value', () => eeValue(-1e-39), eeToNumber(eeFromNumber(-1e-39))],
  ])('%s', (_name, got, expected) => {
    expect(Object.is(expected, -0)).toBe(true);
    expect(got()).toBe(expected);
  });
});

describe('surfacesAt: a batch of queries in stages', () => {
  it('answers every point of a batch as surfaceAt does, bit for bit (edges, anywhere, outside, NaN), on every field, prepared or not', () => {
    const point = fc.oneof(onEdges, anywhere, onEdges, outside);
    fc.assert(
      fc.property(fc.nat({ max: fields.length - 1 }), fc.boolean(), fc.array(point, { minLength: 0, maxLength: 700 }), (k, eager, pts) => {
        const c = (eager ? prepared : caches)[k]!;
        const xs = Float64Array.from(pts, (p) => p[0]);
        const ys = Float64Array.from(pts, (p) => p[1]);
        const zs = new Float64Array(pts.length).fill(12345);
        c.surfacesAt(xs, ys, zs, pts.length);
        for (let i = 0; i < pts.length; i++) {
          const want = c.surfaceAt(xs[i]!, ys[i]!);
          if (!Object.is(zs[i], want)) throw new Error(`point ${i} (${xs[i]}, ${ys[i]}): surfacesAt ${zs[i]}, surfaceAt ${want}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('answers only the first n points, and a batch larger than any before grows its lanes', () => {
    const c = prepared[0]!;
    const xs = Float64Array.from({ length: 5000 }, (_, i) => (i * 9.37) % 48000);
    const ys = Float64Array.from({ length: 5000 }, (_, i) => (i * 31.1) % 48000);
    const zs = new Float64Array(5000).fill(7);
    c.surfacesAt(xs, ys, zs, 10);
    expect(zs[10]).toBe(7);
    for (let i = 0; i < 10; i++) expect(zs[i]).toBe(c.surfaceAt(xs[i]!, ys[i]!));
    c.surfacesAt(xs, ys, zs, 5000);
    for (let i = 0; i < 5000; i++) expect(zs[i]).toBe(c.surfaceAt(xs[i]!, ys[i]!));
  });
});
