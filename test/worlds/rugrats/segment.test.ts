import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  buildColIndex,
  buildLevel,
  loadColIndex,
  queryCol,
  segmentCol,
  writeCol,
  SEGMENT_OUT_LENGTH,
  S_WRITTEN,
  WROTE_ALL,
  WROTE_DEPTH,
  WROTE_TILE,
  type ColIndex,
  type LevelDescription,
} from '../../../src/worlds/rugrats/index.js';
import { DIAGONAL_COMPONENT, DIAGONAL_NORMALS } from '../../../src/worlds/rugrats/segment.js';
import { vectorNormal } from '../../../src/numeric/gte.js';
import { flatDescription, flatLevelArb, levelArb, nearFlatBoundary, FLAT_SIZE, type FlatCell } from './arbitraries.js';

const out = new Int32Array(SEGMENT_OUT_LENGTH);
type V = [number, number, number];
interface Answer {
  result: number;
  depth?: number;
  point?: V;
  normal?: V;
  tile?: number;
}
/** Runs the segment and keeps only what the original writes for that answer. */
function walk(ix: ColIndex, f: V, t: V): Answer {
  out.fill(0x5a5a5a5a);
  const result = segmentCol(ix, f[0], f[1], f[2], t[0], t[1], t[2], out);
  expect(out[0]).toBe(result);
  const w = out[S_WRITTEN]!;
  const a: Answer = { result };
  if (w & WROTE_DEPTH) a.depth = out[1]!;
  if (w & 2) a.point = [out[2]!, out[3]!, out[4]!];
  if (w & 4) a.normal = [out[5]!, out[6]!, out[7]!];
  if (w & WROTE_TILE) a.tile = out[8]!;
  return a;
}
const index = (d: LevelDescription) => loadColIndex(writeCol(buildLevel(d)));
const room = (floor = 0, ceiling = 32) => ({ floor, ceiling });

/** 3 × 3 open cells (y 0 .. −4096) around a closed centre (1, 1). */
const ring = index({
  min: [0, -8192, 0],
  max: [3071, 0, 3071],
  cells: [0, 1, 2].flatMap((x) => [0, 1, 2].map((z) => ({ x, z, rooms: [x === 1 && z === 1 ? room(32, 32) : room()] }))),
});
const centre = (ix: ColIndex) => ix.tileOffset[4]!; // column 1's second cell

describe('vectorwalk walls and their side normals', () => {
  it('stops where it enters a closed cell, with the normal facing back, from each side', () => {
    const y = -500;
    expect(walk(ring, [512, y, 1536], [1600, y, 1536])).toEqual({ result: 1, depth: 0, point: [1024, y, 1536], normal: [-4096, 0, 0], tile: centre(ring) });
    expect(walk(ring, [2560, y, 1536], [1500, y, 1536])).toEqual({ result: 1, depth: 0, point: [2047, y, 1536], normal: [4096, 0, 0], tile: centre(ring) });
    expect(walk(ring, [1536, y, 512], [1536, y, 1600])).toEqual({ result: 1, depth: 0, point: [1536, y, 1024], normal: [0, 0, -4096], tile: centre(ring) });
    expect(walk(ring, [1536, y, 2560], [1536, y, 1500])).toEqual({ result: 1, depth: 0, point: [1536, y, 2047], normal: [0, 0, 4096], tile: centre(ring) });
  });
  it('keeps the other axis inside the cell it leaves and lets y follow the line', () => {
    // From (512, −500, 100) toward (1536, −1500, 1124): x lands on 1024 when z = 100 + 512 = 612 (still cell
    // (1, 0), open); then z lands on 1024 at x = 512 + 1024 × 924 / 1024 = 1436, y = −500 − 1000 × 924 / 1024
    // = −500 − 902 (truncated): inside the closed centre, entered through its −z side.
    expect(walk(ring, [512, -500, 100], [1536, -1500, 1124])).toEqual({ result: 1, depth: 0, point: [1436, -1402, 1024], normal: [0, 0, -4096], tile: centre(ring) });
    // Steeper in z: z lands on 1024 first, x = 900 + (924 × 100 / 1000) = 992 (truncated).
    expect(walk(ring, [900, -500, 100], [1000, -500, 1100])).toMatchObject({ result: 0 });
  });
  it('goes around the closed cell when it does not touch it', () => {
    expect(walk(ring, [512, -500, 512], [2560, -500, 512])).toEqual({ result: 0, tile: ring.tileOffset[6]! });
  });
  it('stops at the bounds as a missing tile', () => {
    expect(walk(ring, [2560, -500, 512], [4000, -500, 512])).toEqual({ result: 1, depth: 0, point: [3072, -500, 512], normal: [-4096, 0, 0], tile: 0 });
    expect(walk(ring, [512, -500, 512], [512, -500, -700])).toEqual({ result: 1, depth: 0, point: [512, -500, -1], normal: [0, 0, 4096], tile: 0 });
  });
});

describe('vectorwalk across diagonals', () => {
  const halved = (diagonal: 'x=z' | 'x+z', openHalf: 'low' | 'high') =>
    index({
      min: [0, -8192, 0],
      max: [1023, 0, 1023],
      cells: [{ x: 0, z: 0, halved: { diagonal, low: [openHalf === 'low' ? room() : room(32, 32)], high: [openHalf === 'high' ? room() : room(32, 32)] } }],
    });
  it('stops on the x + z diagonal leaving half 1 with the normal back into half 1', () => {
    const ix = halved('x+z', 'low');
    // u = (100, 100): 200 − 1024 = −824; v = (900, 900): 776; crossing 100 + 800 × 824 / 1600 = 512 on each axis.
    expect(walk(ix, [100, -500, 100], [900, -500, 900])).toEqual({ result: 1, depth: 0, point: [512, -500, 512], normal: [-2896, 0, -2896], tile: ix.tileOffset[1]! });
  });
  it('stops on the x = z diagonal leaving half 2 with the normal back into half 2', () => {
    const ix = halved('x=z', 'high');
    // u = (100, 900): 800; v = (900, 100): −800; crossing at 100 + 800 × 800 / 1600 = 500, 900 − 400 = 500.
    expect(walk(ix, [100, -700, 900], [900, -300, 100])).toEqual({ result: 1, depth: 0, point: [500, -500, 500], normal: [-2896, 0, 2896], tile: ix.tileOffset[0]! });
  });
  it('uses for 4096 / √2 what VectorNormal gives for (1, 0, 1)', () => {
    const n = new Int32Array(3);
    vectorNormal(1, 0, 1, n);
    expect(Array.from(n)).toEqual([DIAGONAL_COMPONENT, 0, DIAGONAL_COMPONENT]);
  });
  it('has four diagonal normals, each of length 4096 within rounding and facing into its half', () => {
    for (let h = 0; h < 4; h++) {
      const [x, y, z] = [DIAGONAL_NORMALS[h * 3]!, DIAGONAL_NORMALS[h * 3 + 1]!, DIAGONAL_NORMALS[h * 3 + 2]!];
      expect(y).toBe(0);
      expect(Math.abs(x * x + z * z - 4096 * 4096)).toBeLessThan(4096 * 8);
      // A point 100 units from the cell centre along the normal lies in half h.
      const px = 512 + Math.sign(x) * 100;
      const pz = 512 + Math.sign(z) * 100;
      const half = h & 1 ? (px + pz < 1024 ? 1 : 3) : pz < px ? 0 : 2;
      expect(half).toBe(h);
    }
  });
  it('passes along a diagonal that stays in its half, and through both halves when both are open', () => {
    const ix = halved('x=z', 'low');
    expect(walk(ix, [900, -500, 100], [1000, -500, 800])).toEqual({ result: 0, tile: ix.tileOffset[0]! });
    const both = index({ min: [0, -8192, 0], max: [1023, 0, 1023], cells: [{ x: 0, z: 0, halved: { diagonal: 'x=z', low: [room()], high: [room(2, 30)] } }] });
    // The last tile passed is the half it ends in.
    expect(walk(both, [900, -500, 100], [100, -500, 900])).toEqual({ result: 0, tile: both.tileOffset[1]! });
  });
});

describe('vectorwalk floors, ceilings and the start', () => {
  const ix = index({ min: [0, -8192, 0], max: [2047, 0, 1023], cells: [{ x: 0, z: 0, rooms: [room()] }, { x: 1, z: 0, rooms: [room(0, 16)] }] });
  it('stops at a floor with the up normal and leaves depth unwritten', () => {
    expect(walk(ix, [512, -1000, 512], [1536, 1000, 512])).toEqual({ result: 1, point: [1024, 0, 512], normal: [0, -4096, 0], tile: ix.tileOffset[0]! });
  });
  it('stops at a ceiling with the down normal when the ceiling is the nearer crossing', () => {
    // Into (1, 0) whose ceiling is −2048: the landing point (1024, −2000) is open there. Ceiling plane: da = 48,
    // db = −952, t = 48 × 4096 / 1000 = 196; x = 1024 + 512 × 196 / 4096 = 1048, y = −2000 − 1000 × 196 / 4096 = −2047.
    expect(walk(ix, [512, -1000, 512], [1536, -3000, 512])).toEqual({ result: 1, point: [1048, -2047, 512], normal: [0, 4096, 0], tile: ix.tileOffset[1]! });
  });
  it('answers 2 with VectorNormal(from − to), depth from the query floor, for a start not in the open', () => {
    // Above every ceiling: the query's floor output is 0. VectorNormal(−512, 0, 512): S = 2^19, SH = 9, F = 2896.
    expect(walk(ix, [512, -5000, 512], [1024, -5000, 0])).toEqual({ result: 2, depth: -5000, point: [512, -5000, 512], normal: [-2896, 0, 2896], tile: 0 });
    // On the floor: VectorNormal(0, 100, 0): S = 10000, SH = 6, mantissa 156, F = 2623, 2623 × 100 >> 6 = 4098.
    expect(walk(ix, [512, 0, 512], [512, -100, 512])).toEqual({ result: 2, depth: 0, point: [512, 0, 512], normal: [0, 4098, 0], tile: ix.tileOffset[0]! });
  });
  it('uses only the low 16 bits of from − to, and answers a zero normal where the original traps', () => {
    expect(walk(ix, [512, 100, 512], [512 - 65539, 100, 512 - 4])).toMatchObject({ result: 2, normal: [2457, 0, 3276] });
    expect(walk(ix, [512, 100, 512], [512 - 32768, 100, 512 - 32768])).toMatchObject({ result: 2, normal: [0, 0, 0] });
  });
  it('zeroes depth, point and normal for from == to, with the start tile', () => {
    expect(walk(ix, [1500, -100, 512], [1500, -100, 512])).toEqual({ result: 0, depth: 0, point: [0, 0, 0], normal: [0, 0, 0], tile: ix.tileOffset[1]! });
  });
  it('walks a vertical segment straight to its end', () => {
    // Ceiling −2048: da = 1948, db = −952, t = 1948 × 4096 / 2900 = 2751, y = −100 − 2900 × 2751 / 4096 = −100 − 1947.
    expect(walk(ix, [1500, -100, 512], [1500, -3000, 512])).toEqual({ result: 1, point: [1500, -2047, 512], normal: [0, 4096, 0], tile: ix.tileOffset[1]! });
    expect(walk(ix, [1500, -100, 512], [1500, -2000, 512])).toEqual({ result: 0, tile: ix.tileOffset[1]! });
    expect(walk(ix, [1500, -100, 512], [1500, -1000, 512])).toEqual({ result: 0, tile: ix.tileOffset[1]! });
  });
  it('writes only the tile when it gets through', () => {
    out.fill(77);
    segmentCol(ix, 100, -100, 100, 1900, -200, 900, out);
    expect(out[S_WRITTEN]).toBe(WROTE_TILE);
    expect(Array.from(out.subarray(1, 8))).toEqual([77, 77, 77, 77, 77, 77, 77]);
  });
});

describe('vectorwalk properties', () => {
  const coord = fc.oneof(fc.integer({ min: -2000, max: FLAT_SIZE * 1024 + 2000 }), fc.double(), fc.constantFrom(NaN, Infinity, -Infinity, 2 ** 31, -(2 ** 31)));
  it('never throws and always writes a result 0..2 with a consistent written mask', () => {
    const ix = loadColIndex(writeCol(buildLevel(flatDescription(Array.from({ length: 36 }, (_, i) => ({ x: Math.floor(i / 6), z: i % 6, rooms: i % 7 === 3 ? [] : [[i % 4, 20 + (i % 5)]] })) as FlatCell[]))));
    fc.assert(
      fc.property(coord, coord, coord, coord, coord, coord, (a, b, c, d, e, f) => {
        const r = segmentCol(ix, a, b, c, d, e, f, out);
        const w = out[S_WRITTEN]!;
        if (r === 0) return w === WROTE_TILE || w === WROTE_ALL;
        if (r === 2) return w === WROTE_ALL;
        return r === 1 && (w === WROTE_ALL || w === 14);
      }),
      { numRuns: 3000, seed: 3 },
    );
  });

  it('answers 2 exactly when the query does not answer 0 for from', () => {
    const ix = loadColIndex(writeCol(buildLevel(flatDescription(Array.from({ length: 36 }, (_, i) => ({ x: Math.floor(i / 6), z: i % 6, rooms: [[i % 3, 24]] })) as FlatCell[]))));
    const q = new Int32Array(4);
    fc.assert(
      fc.property(fc.integer({ min: -100, max: 6200 }), fc.integer({ min: -4000, max: 100 }), fc.integer({ min: -100, max: 6200 }), fc.integer({ min: 0, max: 6000 }), (x, y, z, t) => {
        const qr = queryCol(ix, x, y, z, q);
        return (segmentCol(ix, x, y, z, t, -200, 6000 - t, out) === 2) === (qr !== 0);
      }),
      { numRuns: 2000, seed: 8 },
    );
  });

  it('on flat full tiles agrees with a dense sampling of the query, except within one unit of a boundary', () => {
    const qo = new Int32Array(4);
    fc.assert(
      fc.property(
        flatLevelArb,
        fc.tuple(fc.integer({ min: 0, max: FLAT_SIZE * 1024 - 1 }), fc.integer({ min: -4000, max: -1 }), fc.integer({ min: 0, max: FLAT_SIZE * 1024 - 1 })),
        fc.tuple(fc.integer({ min: -500, max: FLAT_SIZE * 1024 + 500 }), fc.integer({ min: -5000, max: 500 }), fc.integer({ min: -500, max: FLAT_SIZE * 1024 + 500 })),
        (cells, from, to) => {
          const ix = buildColIndex(buildLevel(flatDescription(cells)));
          if (queryCol(ix, from[0], from[1], from[2], qo) !== 0) return true;
          const r = segmentCol(ix, from[0], from[1], from[2], to[0], to[1], to[2], out);
          const d = [to[0] - from[0], to[1] - from[1], to[2] - from[2]];
          const axis = [0, 1, 2].reduce((m, a) => (Math.abs(d[a]!) > Math.abs(d[m]!) ? a : m), 0);
          if (d[axis] === 0) return r === 0;
          const stop = r === 1 ? (out[2 + axis]! - from[axis]!) / d[axis]! : 1;
          const at = (s: number): V => [Math.round(from[0] + d[0]! * s), Math.round(from[1] + d[1]! * s), Math.round(from[2] + d[2]! * s)];
          const len = Math.abs(d[axis]!);
          // Every sample before the stop, away from boundaries, is open.
          for (let k = 0; k <= 400; k++) {
            const s = (k / 400) * stop;
            if (s * len > stop * len - 3) break;
            const p = at(s);
            if (nearFlatBoundary(cells, p[0], p[1], p[2], 1)) continue;
            if (queryCol(ix, p[0], p[1], p[2], qo) !== 0) return false;
          }
          if (r === 0) return true;
          const stopPoint: V = [out[2]!, out[3]!, out[4]!];
          if (out[S_WRITTEN] === WROTE_ALL) {
            // A wall: the point where it came in is not open (under a floor, above every ceiling or no tile).
            return queryCol(ix, stopPoint[0], stopPoint[1], stopPoint[2], qo) !== 0;
          }
          // A floor or ceiling: the stop is at one of its cell's heights, and a little further on is not open.
          if (!nearFlatBoundary(cells, stopPoint[0], stopPoint[1], stopPoint[2], 1)) return false;
          const nearEdge = nearFlatBoundary(cells, stopPoint[0], -6000.5, stopPoint[2], 1);
          if (nearEdge) return true;
          const beyond = at(stop + 3 / len);
          return queryCol(ix, beyond[0], beyond[1], beyond[2], qo) !== 0 || nearFlatBoundary(cells, beyond[0], beyond[1], beyond[2], 1);
        },
      ),
      { numRuns: 1500, seed: 21 },
    );
  });

  it('is deterministic and leaves its inputs alone', () => {
    const ix = loadColIndex(writeCol(buildLevel(flatDescription(Array.from({ length: 36 }, (_, i) => ({ x: Math.floor(i / 6), z: i % 6, rooms: [[i % 5, 24]] })) as FlatCell[]))));
    const a = new Int32Array(SEGMENT_OUT_LENGTH);
    const b = new Int32Array(SEGMENT_OUT_LENGTH);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6143 }), fc.integer({ min: 0, max: 6143 }), fc.integer({ min: 0, max: 6143 }), fc.integer({ min: 0, max: 6143 }), (x0, z0, x1, z1) => {
        segmentCol(ix, x0, -1500, z0, x1, -900, z1, a);
        segmentCol(ix, 100, -100, 100, 6000, -3000, 6000, b);
        segmentCol(ix, x0, -1500, z0, x1, -900, z1, b);
        return a.every((v, i) => v === b[i]);
      }),
      { numRuns: 300, seed: 2 },
    );
  });

  it('on random levels with slopes, stacks and halves: int32 outputs, a stop on the segment, the tile ids real', () => {
    fc.assert(
      fc.property(levelArb, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 1023 }), fc.integer({ min: 0, max: 1023 }), fc.integer({ min: -6000, max: 0 }), fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: -5000, max: 5000 })), { minLength: 20, maxLength: 20 }), (desc, segs) => {
        if (desc.cells.length === 0) return true;
        const ix = buildColIndex(buildLevel(desc));
        const ids = new Set(Array.from(ix.tileOffset));
        for (const [pick, lx, lz, y, dx, dy, dz] of segs) {
          const c = desc.cells[pick % desc.cells.length]!;
          const f: V = [c.x * 1024 + lx, y, c.z * 1024 + lz];
          const t: V = [f[0] + dx, f[1] + dy, f[2] + dz];
          const a = walk(ix, f, t);
          if (a.tile !== undefined && a.tile !== 0 && !ids.has(a.tile)) return false;
          if (a.result === 1) {
            // The stop lies within the segment's box (the walk never goes past `to` or behind `from`).
            for (let k = 0; k < 3; k++) {
              const lo = Math.min(f[k]!, t[k]!) - 1;
              const hi = Math.max(f[k]!, t[k]!) + 1;
              if (a.point![k]! < lo || a.point![k]! > hi) return false;
            }
          }
        }
        return true;
      }),
      { numRuns: 150, seed: 31 },
    );
  });
});
