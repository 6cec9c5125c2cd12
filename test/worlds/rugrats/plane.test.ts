import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildColIndex, buildLevel } from '../../../src/worlds/rugrats/index.js';
import { PLANE_MISS, flatPlaneFraction, lerpFp12, planeFraction, crossingFraction } from '../../../src/worlds/rugrats/plane.js';
import { findCellByHalves, locateCell, CELL_MISSING } from '../../../src/worlds/rugrats/query.js';
import { levelArb } from './arbitraries.js';

const i32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });

describe('the plane test', () => {
  it('finds the crossing of a horizontal plane by hand', () => {
    // Floor at 0, from y −500 to 500: da 500, db −500, t = 500 × 4096 / 1000 = 2048.
    expect(planeFraction(7, -500, 9, 7, 500, 9, 0, 0, 0, 0, -4096, 0)).toBe(2048);
    expect(planeFraction(7, -500, 9, 7, -100, 9, 0, 0, 0, 0, -4096, 0)).toBe(PLANE_MISS);
    // Lying in the plane: da = db, no crossing.
    expect(planeFraction(0, 0, 0, 900, 0, 0, 0, 0, 0, 0, -4096, 0)).toBe(PLANE_MISS);
    // Starting on the plane and going through: t = 0.
    expect(planeFraction(0, 0, 0, 0, 10, 0, 0, 0, 0, 0, -4096, 0)).toBe(0);
    expect(lerpFp12(-500, 500, 2048)).toBe(0);
    expect(lerpFp12(0, -7, 2048)).toBe(-3); // truncation toward zero
  });
  it('always answers PLANE_MISS or a fraction 0..4096, whatever the inputs', () => {
    fc.assert(
      fc.property(fc.array(i32, { minLength: 12, maxLength: 12 }), (v) => {
        const t = planeFraction(v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, v[5]!, v[6]!, v[7]!, v[8]!, v[9]!, v[10]!, v[11]!);
        return t === PLANE_MISS || (Number.isInteger(t) && t >= 0 && t <= 4096);
      }),
      { numRuns: 3000, seed: 12 },
    );
  });
  it('has a flat fast path identical to the general test', () => {
    fc.assert(
      fc.property(i32, i32, i32, i32, i32, i32, i32, fc.constantFrom(-4096, 4096), (ax, ay, az, bx, by, bz, h, ny) => {
        return flatPlaneFraction(ay, by, h, ny) === planeFraction(ax, ay, az, bx, by, bz, 5, h, 9, 0, ny, 0);
      }),
      { numRuns: 5000, seed: 13 },
    );
  });
  it('puts the crossing between the ends: sign change gives t, no change gives a miss', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100000, max: 100000 }), fc.integer({ min: -100000, max: 100000 }), (da, db) => {
        const t = crossingFraction(da, db);
        if ((da > 0 && db > 0) || (da < 0 && db < 0) || da === db) return t === PLANE_MISS;
        return Math.abs(t - (da * 4096) / (da - db)) < 1;
      }),
      { numRuns: 3000, seed: 14 },
    );
  });
});

describe('cell lookup', () => {
  it('finds by the grid exactly the cell the original search by halves finds', () => {
    fc.assert(
      fc.property(levelArb, fc.array(fc.tuple(fc.integer({ min: 0, max: 511 }), fc.integer({ min: 0, max: 255 })), { minLength: 100, maxLength: 100 }), (desc, probes) => {
        const ix = buildColIndex(buildLevel(desc));
        for (const c of desc.cells) probes.push([c.x, c.z]);
        for (const [col, zc] of probes) {
          const byHalves = findCellByHalves(ix, col, zc);
          expect(locateCell(ix, col * 1024 + 5, -10, zc * 1024 + 5)).toBe(byHalves);
          expect(byHalves === CELL_MISSING).toBe(!desc.cells.some((c) => c.x === col && c.z === zc));
        }
      }),
      { numRuns: 40, seed: 15 },
    );
  });
});
