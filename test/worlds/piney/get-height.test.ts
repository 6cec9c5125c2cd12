import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eeFromInt, eeFromNumber, eeToNumber } from '../../../src/numeric/ee-float.js';
import { getHeight, heightIndex, HeightQuery, HIDDEN_HEIGHT, surfaceHeight } from '../../../src/worlds/piney/get-height.js';
import { generateField } from '../../../src/worlds/piney/generate.js';
import { CELLS, CHIPS } from '../../../src/worlds/piney/field-state.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

const mapOf = (h: (x: number, y: number) => number) => {
  const m = new Uint32Array(CELLS * CELLS);
  for (let x = 0; x < CELLS; x++) for (let y = 0; y < CELLS; y++) m[x * CELLS + y] = eeFromInt(h(x, y));
  return m;
};
const noHidden = new Uint8Array(CHIPS * CHIPS);
const coord = fc.double({ min: 0, max: 47999.99, noNaN: true });

describe('GetHeight', () => {
  it('wraps indices as the game does: 80 → 0, and −1 → 78 (adds 79, the slip kept)', () => {
    expect(heightIndex(80)).toBe(0);
    expect(heightIndex(81)).toBe(1);
    expect(heightIndex(79)).toBe(79);
    expect(heightIndex(-1)).toBe(78);
    expect(heightIndex(1000)).toBe(1000 % 80);
    expect(heightIndex(-1000)).toBeGreaterThanOrEqual(0);
  });

  it('on a level map answers the level (to EE ray precision)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 900 }), coord, coord, (h, x, y) => {
        const z = eeToNumber(getHeight(mapOf(() => h), noHidden, eeFromNumber(x), eeFromNumber(y)));
        expect(Math.abs(z - h)).toBeLessThan(0.01);
      }),
      { numRuns: 200 },
    );
  });

  it('on a tilted map answers the plane through the cell corners', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }), fc.double({ min: 0, max: 47399, noNaN: true }), fc.double({ min: 0, max: 47399, noNaN: true }), (a, b, x, y) => {
        // Heights a·i + b·j (no wrap inside the cells used: x, y < 79 cells).
        const z = eeToNumber(getHeight(mapOf((i, j) => a * i + b * j), noHidden, eeFromNumber(x), eeFromNumber(y)));
        const ex = eeToNumber(eeFromNumber(x));
        const ey = eeToNumber(eeFromNumber(y));
        expect(Math.abs(z - (a * ex + b * ey) / 600)).toBeLessThan(0.05);
      }),
      { numRuns: 200 },
    );
  });

  it('answers −500 on a hidden chip and the surface elsewhere', () => {
    const hidden = new Uint8Array(CHIPS * CHIPS);
    hidden[3 * CHIPS + 5] = 1;
    const m = mapOf(() => 10);
    expect(getHeight(m, hidden, eeFromNumber(3 * 1200 + 10), eeFromNumber(5 * 1200 + 1199))).toBe(HIDDEN_HEIGHT);
    expect(eeToNumber(getHeight(m, hidden, eeFromNumber(4 * 1200 + 10), eeFromNumber(5 * 1200)))).toBeCloseTo(10, 2);
    expect(surfaceHeight(m, eeFromNumber(3 * 1200 + 10), eeFromNumber(5 * 1200 + 1199))).not.toBe(HIDDEN_HEIGHT);
  });

  it('gives a defined answer for any bit pattern (huge, negative, exponent 255)', () => {
    const m = mapOf((x, y) => (x * 7 + y * 3) % 64);
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), fc.nat({ max: 0xffffffff }), (x, y) => {
        const z = getHeight(m, noHidden, x, y);
        expect(Number.isInteger(z) && z >= 0 && z <= 0xffffffff).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('HeightQuery (GetHeight with per-cell constants cached)', () => {
  it('answers bit for bit what getHeight answers, anywhere, including on cell edges and diagonals', () => {
    const fields = [1, 2, 3].map((seed) => generateField({ seed, fieldType: seed * 3, weather: 0, ground: seed - 1, object: 1, event: seed === 2 ? 14 : 0, protect: false }, defaultPineyTables()));
    const onGrid = fc.tuple(fc.integer({ min: 0, max: 79 }), fc.integer({ min: 0, max: 79 }), fc.constantFrom(0, 0.001, 0.5, 299.999, 300, 599.99, 599.9999), fc.boolean())
      .map(([cx, cy, d, diag]) => [cx * 600 + d, cy * 600 + (diag ? d : 600 - d)] as [number, number]);
    const anywhere = fc.tuple(fc.double({ min: -2000, max: 50000, noNaN: true }), fc.double({ min: -2000, max: 50000, noNaN: true }));
    fc.assert(
      fc.property(fc.nat({ max: 2 }), fc.oneof(onGrid, anywhere), (k, [x, y]) => {
        const f = fields[k]!;
        const q = new HeightQuery(f.map, f.check3);
        const bx = eeFromNumber(x);
        const by = eeFromNumber(y);
        expect(q.getHeight(bx, by)).toBe(getHeight(f.map, f.check3, bx, by));
        // Twice: the second answer comes from the cache.
        expect(q.getHeight(bx, by)).toBe(getHeight(f.map, f.check3, bx, by));
      }),
      { numRuns: 1000 },
    );
  });
  it('answers the story area 14 vectors', () => {
    const f = generateField({ seed: 1420855, fieldType: 10, weather: 0, ground: 1, object: 1, event: 14, protect: false }, defaultPineyTables(), 'lake');
    const q = new HeightQuery(f.map, f.check3);
    expect(q.getHeight(eeFromNumber(1000), eeFromNumber(2000))).toBe(0x4222ab40);
    expect(q.getHeight(eeFromNumber(24600), eeFromNumber(24600))).toBe(0x39800000);
    expect(q.getHeight(eeFromNumber(16200), eeFromNumber(23100))).toBe(HIDDEN_HEIGHT);
  });
});
