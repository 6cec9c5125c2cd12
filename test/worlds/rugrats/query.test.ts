import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildColIndex,
  buildLevel,
  floorNormalForRise,
  queryCol,
  writeCol,
  loadColIndex,
  type LevelDescription,
} from '../../../src/worlds/rugrats/index.js';
import { slopedHeight } from '../../../src/worlds/rugrats/plane.js';
import { halfAt, toS32 } from '../../../src/worlds/rugrats/query.js';
import { flatDescription, flatLevelArb, flatModelQuery, FLAT_SIZE } from './arbitraries.js';

const q = new Int32Array(4);
const ask = (ix: ReturnType<typeof buildColIndex>, x: number, y: number, z: number) => {
  queryCol(ix, x, y, z, q);
  return Array.from(q);
};
const index = (d: LevelDescription) => loadColIndex(writeCol(buildLevel(d)));

describe('query bounds and cells', () => {
  const ix = index({ min: [1024, -8192, 2048], max: [4095, 0, 5119], cells: [{ x: 0, z: 0, rooms: [{ floor: 0, ceiling: 32 }] }, { x: 2, z: 2, rooms: [{ floor: 0, ceiling: 32 }] }] });
  it('treats the bounds as inclusive on every axis', () => {
    expect(ask(ix, 1024, -100, 2048)[0]).toBe(0);
    expect(ask(ix, 1023, -100, 2048)[0]).toBe(2);
    expect(ask(ix, 1024, -100, 2047)[0]).toBe(2);
    expect(ask(ix, 1024, 0, 2048)[0]).toBe(1); // on the floor: in bounds, not open
    expect(ask(ix, 1024, 1, 2048)[0]).toBe(2);
    expect(ask(ix, 1024, -8192, 2048)[0]).toBe(1); // above the ceiling: in bounds
    expect(ask(ix, 1024, -8193, 2048)[0]).toBe(2);
    expect(ask(ix, 4095, -100, 5119)[0]).toBe(0); // column 2, cell 2
    expect(ask(ix, 4096, -100, 5119)[0]).toBe(2);
  });
  it('takes the column and cell from min x and min z', () => {
    // (3000, 4000) is column (3000 − 1024) >> 10 = 1, cell (4000 − 2048) >> 10 = 1: no cell there.
    expect(ask(ix, 3000, -100, 4000)).toEqual([1, 0, 0, 0]);
    expect(ask(ix, 3100, -100, 4100)[0]).toBe(0);
  });
  it('reports a missing cell, and a point above every ceiling, as 1 with zero outputs', () => {
    expect(ask(ix, 1500, -100, 4000)).toEqual([1, 0, 0, 0]);
    expect(ask(ix, 1500, -4097, 2500)).toEqual([1, 0, 0, 0]);
  });
  it('counts a column past the 512 of the table as outside, and a z cell past 255 as missing', () => {
    const big = index({ min: [0, -8192, 0], max: [600 * 1024, 0, 300 * 1024], cells: [{ x: 511, z: 255, rooms: [{ floor: 0, ceiling: 32 }] }] });
    expect(ask(big, 511 * 1024 + 5, -100, 255 * 1024 + 5)[0]).toBe(0);
    expect(ask(big, 512 * 1024, -100, 255 * 1024 + 5)[0]).toBe(2);
    expect(ask(big, 511 * 1024 + 5, -100, 256 * 1024)).toEqual([1, 0, 0, 0]);
  });
  it('gives a defined answer for NaN, infinities, fractions and huge numbers', () => {
    for (const bad of [NaN, Infinity, -Infinity, 1e300, -1e300, 2 ** 31, -(2 ** 31) - 1]) {
      expect(ask(ix, bad, -100, 2500)[0]).toBe(2);
      expect(ask(ix, 1500, bad, 2500)[0]).toBe(2);
    }
    expect(ask(ix, 1500.9, -100.9, 2500.9)).toEqual(ask(ix, 1500, -100, 2500));
    expect(toS32(-0.5)).toBe(0);
    expect(toS32(NaN)).toBe(-(2 ** 31));
    expect(toS32(1e10)).toBe(2 ** 31 - 1);
  });
});

describe('query on stacks', () => {
  it('walks a stack lowest room first and reports the tile the point is at or below the ceiling of', () => {
    const ix = index({ min: [0, -8192, 0], max: [1023, 0, 1023], cells: [{ x: 0, z: 0, rooms: [{ floor: 0, ceiling: 8 }, { floor: 16, ceiling: 32 }, { floor: 40, ceiling: 48 }] }] });
    const t0 = ix.tileOffset[0]!, t1 = ix.tileOffset[1]!, t2 = ix.tileOffset[2]!;
    expect(ask(ix, 500, -1, 500)).toEqual([0, -1024, 0, t0]);
    expect(ask(ix, 500, -1024, 500)).toEqual([1, -1024, 0, t0]); // on the ceiling: picked, not open
    expect(ask(ix, 500, -1025, 500)).toEqual([1, -4096, -2048, t1]); // the slab under room 1
    expect(ask(ix, 500, -2049, 500)).toEqual([0, -4096, -2048, t1]);
    expect(ask(ix, 500, -5500, 500)).toEqual([0, -6144, -5120, t2]);
    expect(ask(ix, 500, -6145, 500)).toEqual([1, 0, 0, 0]);
  });
});

describe('query on halved cells', () => {
  it('names the halves as the seed says, ties going to half 2 and half 3', () => {
    expect(halfAt(0x80, 800, 100)).toBe(0);
    expect(halfAt(0x80, 100, 800)).toBe(2);
    expect(halfAt(0x80, 500, 500)).toBe(2);
    expect(halfAt(0xa0, 500, 523)).toBe(1);
    expect(halfAt(0xa0, 500, 524)).toBe(3);
    expect(halfAt(0xa0, 1024 * 7 + 1023, 1024 * 3 + 1023)).toBe(3); // only the low 10 bits count
  });
  it('picks the stack of the point half, whichever half the cell points at', () => {
    for (const first of ['low', 'high'] as const) {
      const ix = index({
        min: [0, -8192, 0],
        max: [2047, 0, 1023],
        cells: [
          { x: 0, z: 0, halved: { diagonal: 'x=z', low: [{ floor: 0, ceiling: 32 }], high: [{ floor: 8, ceiling: 32 }], first } },
          { x: 1, z: 0, halved: { diagonal: 'x+z', low: [{ floor: 0, ceiling: 32 }], high: [{ floor: 8, ceiling: 32 }], first } },
        ],
      });
      expect(ask(ix, 800, -100, 100).slice(0, 3)).toEqual([0, -4096, 0]);
      expect(ask(ix, 100, -100, 800).slice(0, 3)).toEqual([1, -4096, -1024]);
      expect(ask(ix, 1024 + 100, -100, 100).slice(0, 3)).toEqual([0, -4096, 0]);
      expect(ask(ix, 1024 + 900, -100, 900).slice(0, 3)).toEqual([1, -4096, -1024]);
    }
  });
});

describe('sloped heights', () => {
  it('puts a ramp through the cell low corner at the flat height and follows its rise', () => {
    const ix = index({ min: [0, -8192, 0], max: [1023, 0, 1023], cells: [{ x: 0, z: 0, rooms: [{ floor: 8, ceiling: 32, floorRise: [512, 0] }] }] });
    // At the corner the integer working gives h − 1: da = (−3663 × −1024) >> 12 = 915, db = −916,
    // t = 915 × 4096 / 1831 = 2046, y = h − 1024 + 2048 × 2046 / 4096 = h − 1.
    expect(ask(ix, 0, -2000, 300)[2]).toBe(-1025);
    // Halfway the floor has risen about 256: the hand working gives −1024 − 257 (see the trace notes).
    expect(ask(ix, 512, -2000, 300)[2]).toBe(-1024 - 257);
  });
  it('anchors a half-3 tile at the high corner (x | 1023, z | 1023)', () => {
    const ix = index({
      min: [0, -8192, 0],
      max: [1023, 0, 1023],
      cells: [{ x: 0, z: 0, halved: { diagonal: 'x+z', low: [{ floor: 8, ceiling: 32, floorRise: [512, 0] }], high: [{ floor: 8, ceiling: 32, floorRise: [512, 0] }] } }],
    });
    // Half 1 at its corner (0, 0) and half 3 at its corner (1023, 1023) both sit at the flat height (− 1, the
    // truncation worked out in the ramp test above).
    expect(ask(ix, 0, -2000, 0)[2]).toBe(-1025);
    expect(ask(ix, 1023, -2000, 1023)[2]).toBe(-1025);
    // Half 1 at (1023, 0), across the tile from its corner, has risen by about 512.
    expect(Math.abs(ask(ix, 1023, -2000, 0)[2]! - (-1024 - 512))).toBeLessThanOrEqual(2);
    // Half 3 one tile-half back from its corner is lower by about 256 (the ramp rises toward +x).
    const f = ask(ix, 1023 - 512, -2000, 1000)[2]!;
    expect(Math.abs(f - (-1024 + 256))).toBeLessThanOrEqual(2);
  });
  it('follows the plane within 2 units for every rise up to a tile', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1024, max: 1024 }), fc.integer({ min: -1024, max: 1024 }), fc.integer({ min: 0, max: 1023 }), fc.integer({ min: 0, max: 1023 }), fc.integer({ min: -30000, max: 30000 }), (rx, rz, lx, lz, h) => {
        const n = floorNormalForRise(rx, rz);
        const y = slopedHeight(h, n[0], n[1], n[2], 5 * 1024 + lx, 3 * 1024 + lz, false);
        const model = h - (rx * lx + rz * lz) / 1024;
        // Beyond h ± 1024 the vertical line misses the plane and the flat height stays.
        if (Math.abs(model - h) > 1020) return Math.abs(y - h) <= 1024;
        return Math.abs(y - model) <= 2 + (Math.abs(rx) + Math.abs(rz)) / 256;
      }),
      { numRuns: 2000, seed: 11 },
    );
  });
  it('keeps the flat height where a vertical plane never meets the line', () => {
    expect(slopedHeight(-500, 4096, 0, 0, 300, 300, false)).toBe(-500);
  });
});

describe('query against an independent model on flat levels', () => {
  it('agrees everywhere, boundaries included', () => {
    fc.assert(
      fc.property(flatLevelArb, fc.array(fc.tuple(fc.integer({ min: -100, max: FLAT_SIZE * 1024 + 100 }), fc.integer({ min: -12100, max: 100 }), fc.integer({ min: -100, max: FLAT_SIZE * 1024 + 100 })), { minLength: 50, maxLength: 50 }), (cells, points) => {
        const ix = buildColIndex(buildLevel(flatDescription(cells)));
        for (const [x, y, z] of points) {
          expect(queryCol(ix, x, y, z, q)).toBe(flatModelQuery(cells, x, y, z));
        }
      }),
      { numRuns: 150, seed: 5 },
    );
  });
});
