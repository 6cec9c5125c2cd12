import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eeFromInt, eeFromNumber, eeToNumber } from '../../../src/worlds/numeric/ee-float.js';
import { getHeight, heightIndex, HIDDEN_HEIGHT, surfaceHeight } from '../../../src/worlds/piney/get-height.js';
import { CELLS, CHIPS } from '../../../src/worlds/piney/field-state.js';

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
