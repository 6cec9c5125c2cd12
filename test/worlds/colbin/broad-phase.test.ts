import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { SegmentCellWalk, WALK_T_NEXT, WALK_Y_HI, WALK_Y_LO, XZGrid } from '../../../src/worlds/colbin/broad-phase.js';
import { ColbinWorld } from '../../../src/worlds/colbin/collision-world.js';
import { buildColbin, type V3 } from '../../../src/worlds/colbin/level-builder.js';
import { levelArb } from './arbitraries.js';

/**
 * A grid with exact cell edges: 2p × 2q cells of side s (a power of two) from (ox, oz). The grid sizes its
 * cells as √(area / (4 · items)), so p · q items over a (2sp × 2sq) area give exactly side s. Item 0 covers
 * the whole area (every cell lists something); the rest are smaller rectangles inside it.
 */
interface ExactGrid {
  grid: XZGrid;
  ox: number;
  oz: number;
  s: number;
  nx: number;
  nz: number;
}

const exactGridArb: fc.Arbitrary<ExactGrid> = fc
  .record({
    s: fc.constantFrom(1, 2, 4, 8, 16),
    p: fc.integer({ min: 1, max: 4 }),
    q: fc.integer({ min: 1, max: 4 }),
    ox: fc.integer({ min: -64, max: 64 }),
    oz: fc.integer({ min: -64, max: 64 }),
    inner: fc.array(fc.tuple(fc.nat(1000), fc.nat(1000), fc.nat(1000), fc.nat(1000)), { minLength: 15, maxLength: 15 }),
  })
  .map(({ s, p, q, ox, oz, inner }) => {
    const w = 2 * s * p, h = 2 * s * q, count = p * q;
    const rects = new Float64Array(count * 4);
    rects.set([ox, ox + w, oz, oz + h]);
    for (let i = 1; i < count; i++) {
      const [a, b, c, d] = inner[i - 1]!;
      const x0 = ox + Math.min(a, b) % (w + 1), x1 = ox + Math.max(a % (w + 1), Math.min(a, b) % (w + 1));
      const z0 = oz + Math.min(c, d) % (h + 1), z1 = oz + Math.max(c % (h + 1), Math.min(c, d) % (h + 1));
      rects.set([x0, x1, z0, z1], i * 4);
    }
    return { grid: new XZGrid(rects, count), ox, oz, s, nx: 2 * p, nz: 2 * q };
  });

/** Segments meant to hit the walk's hard cases on an exact grid: any, along an edge line, through a corner, vertical. */
const segmentOn = (e: ExactGrid): fc.Arbitrary<[number, number, number, number, number, number]> => {
  const X = (k: number) => e.ox + k * e.s, Z = (k: number) => e.oz + k * e.s;
  const xr = fc.integer({ min: e.ox - 2 * e.s, max: X(e.nx) + 2 * e.s });
  const zr = fc.integer({ min: e.oz - 2 * e.s, max: Z(e.nz) + 2 * e.s });
  const yr = fc.integer({ min: -100, max: 100 });
  const small = fc.integer({ min: -4, max: 4 });
  return fc.oneof(
    fc.tuple(xr, yr, zr, xr, yr, zr),
    // along a z edge line (axis-parallel, on the boundary between two rows) and along an x edge line
    fc.tuple(fc.integer({ min: 0, max: e.nz }), xr, xr, yr, yr).map(([k, a, b, y0, y1]) => [a, y0, Z(k), b, y1, Z(k)] as [number, number, number, number, number, number]),
    fc.tuple(fc.integer({ min: 0, max: e.nx }), zr, zr, yr, yr).map(([k, a, b, y0, y1]) => [X(k), y0, a, X(k), y1, b] as [number, number, number, number, number, number]),
    // through a grid corner, in any direction (a diagonal one crosses it exactly), from either side
    fc.tuple(fc.integer({ min: 0, max: e.nx }), fc.integer({ min: 0, max: e.nz }), small, small, fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), yr, yr).map(
      ([i, j, a, b, u, v, y0, y1]) => [X(i) - a * u * e.s, y0, Z(j) - b * u * e.s, X(i) + a * v * e.s, y1, Z(j) + b * v * e.s] as [number, number, number, number, number, number],
    ),
    // vertical (a point in x/z), possibly on an edge or a corner
    fc.tuple(fc.integer({ min: -1, max: e.nx + 1 }), fc.integer({ min: -1, max: e.nz + 1 }), fc.boolean(), yr, yr).map(([i, j, mid, y0, y1]) => {
      const x = X(i) + (mid ? e.s / 2 : 0);
      return [x, y0, Z(j), x, y1, Z(j)] as [number, number, number, number, number, number];
    }),
  );
};

/** Exact comparison of fractions n1/d1 and n2/d2 (d > 0; small integers, so the products are exact). */
const lessOrEqual = (n1: number, d1: number, n2: number, d2: number) => n1 * d2 <= n2 * d1;

/**
 * The fraction range [lo, hi] (as exact fractions) of the closed segment inside the closed rectangle, or null.
 * Liang–Barsky with exact rational bounds.
 */
function clipExact(seg: number[], x0: number, x1: number, z0: number, z1: number): { lo: [number, number]; hi: [number, number] } | null {
  let lo: [number, number] = [0, 1];
  let hi: [number, number] = [1, 1];
  for (const [p, d, a, b] of [[seg[0]!, seg[3]! - seg[0]!, x0, x1], [seg[2]!, seg[5]! - seg[2]!, z0, z1]] as const) {
    if (d === 0) {
      if (p < a || p > b) return null;
      continue;
    }
    // t ∈ [(a − p)/d, (b − p)/d], ordered; denominators made positive
    let e: [number, number] = d > 0 ? [a - p, d] : [p - a, -d];
    let f: [number, number] = d > 0 ? [b - p, d] : [p - b, -d];
    if (d < 0) [e, f] = [f, e];
    if (!lessOrEqual(e[0], e[1], lo[0], lo[1])) lo = e;
    if (lessOrEqual(f[0], f[1], hi[0], hi[1])) hi = f;
  }
  return lessOrEqual(lo[0], lo[1], hi[0], hi[1]) ? { lo, hi } : null;
}

interface Visit {
  cell: number;
  yLo: number;
  yHi: number;
  step: number;
}

function walkCells(g: XZGrid, seg: number[]): { visits: Visit[]; tNext: number[] } {
  const walk = new SegmentCellWalk();
  const visits: Visit[] = [];
  const tNext: number[] = [];
  if (!walk.begin(g, seg[0]!, seg[1]!, seg[2]!, seg[3]!, seg[4]!, seg[5]!)) return { visits, tNext };
  while (walk.next()) {
    for (let k = 0; k < walk.count; k++) visits.push({ cell: walk.first + k * walk.stride, yLo: walk.range[WALK_Y_LO]!, yHi: walk.range[WALK_Y_HI]!, step: tNext.length });
    tNext.push(walk.range[WALK_T_NEXT]!);
  }
  return { visits, tNext };
}

describe('COLBIN segment walk (2D DDA over the x/z grid)', () => {
  it('visits exactly the closed cells the segment touches, once each, with its heights and a safe stopping fraction (property)', () => {
    fc.assert(
      fc.property(exactGridArb.chain((e) => fc.tuple(fc.constant(e), segmentOn(e))), ([e, seg]) => {
        const g = e.grid;
        // the construction gives the exact grid it means to (else the reference below would be wrong)
        expect([g.nx, g.nz, g.cellW, g.cellH, g.minX, g.minZ]).toEqual([e.nx, e.nz, e.s, e.s, e.ox, e.oz]);
        const expected = new Map<number, { lo: [number, number]; hi: [number, number] }>();
        for (let gx = 0; gx < e.nx; gx++) {
          for (let gz = 0; gz < e.nz; gz++) {
            const r = clipExact(seg, e.ox + gx * e.s, e.ox + (gx + 1) * e.s, e.oz + gz * e.s, e.oz + (gz + 1) * e.s);
            if (r) expected.set(gx * e.nz + gz, r);
          }
        }
        const { visits, tNext } = walkCells(g, seg);
        const cells = visits.map((v) => v.cell);
        expect(new Set(cells).size).toBe(cells.length);
        expect([...cells].sort((a, b) => a - b)).toEqual([...expected.keys()].sort((a, b) => a - b));
        const dy = seg[4]! - seg[1]!;
        for (const v of visits) {
          const r = expected.get(v.cell)!;
          // the segment's heights inside the cell are within the column's reported range
          for (const [n, d] of [r.lo, r.hi]) {
            const y = seg[1]! + (n / d) * dy;
            expect(y).toBeGreaterThanOrEqual(v.yLo);
            expect(y).toBeLessThanOrEqual(v.yHi);
          }
          // no earlier column claims to cover a fraction at which the path is already in this cell
          for (let j = 0; j < v.step; j++) expect(r.lo[0] / r.lo[1]).toBeGreaterThanOrEqual(tNext[j]!);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('a corner crossing visits all four cells around the corner; an edge line both rows', () => {
    // 4 × 4 cells of side 4 from (0, 0): four items over 16 × 16
    const rects = new Float64Array(16);
    for (let i = 0; i < 4; i++) rects.set([0, 16, 0, 16], i * 4);
    const g = new XZGrid(rects, 4);
    expect([g.nx, g.nz, g.cellW]).toEqual([4, 4, 4]);
    const cellsOf = (seg: number[]) => walkCells(g, seg).visits.map((v) => [Math.floor(v.cell / 4), v.cell % 4]).sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
    // the diagonal through (8, 8) from (6, 6) to (10, 10): cells (1,1), (1,2), (2,1), (2,2)
    expect(cellsOf([6, 0, 6, 10, 0, 10])).toEqual([[1, 1], [1, 2], [2, 1], [2, 2]]);
    // along the edge line z = 8 from x = 5 to x = 7: cells (1, 1) and (1, 2)
    expect(cellsOf([5, 0, 8, 7, 0, 8])).toEqual([[1, 1], [1, 2]]);
    // a vertical segment on a corner: the four cells sharing it
    expect(cellsOf([4, -5, 12, 4, 5, 12])).toEqual([[0, 2], [0, 3], [1, 2], [1, 3]]);
    // wholly outside the grid's items: nothing
    expect(cellsOf([20, 0, 20, 30, 0, 25])).toEqual([]);
  });

  it('hostile coordinates ask the caller to test every item; NaN ends visit nothing; nothing throws', () => {
    const g = new XZGrid(new Float64Array([0, 16, 0, 16]), 1);
    const walk = new SegmentCellWalk();
    for (const v of [2 ** 31 + 1, -1e300, Number.MAX_VALUE, Infinity]) {
      expect(walk.begin(g, v, 0, 0, 8, 0, 8)).toBe(true);
      expect(walk.everything).toBe(true);
      expect(walk.next()).toBe(false);
    }
    expect(walk.begin(g, NaN, 0, 0, 1, 1, 1)).toBe(false);
    // at the limit itself the walk still runs, and resets the flag
    expect(walk.begin(g, -(2 ** 31), 0, 8, 2 ** 31, 0, 8)).toBe(true);
    expect(walk.everything).toBe(false);
    expect(walkCells(g, [-(2 ** 31), 0, 4, 2 ** 31, 0, 4]).visits.length).toBe(g.nx);
  });
});

describe('COLBIN segments through the walk equal testing every item (property)', () => {
  /** Segments along the world's own grid lines and through its corners, vertical ones, and any ones. */
  const segmentsArb = fc.array(
    fc.record({
      kind: fc.constantFrom('any', 'x-line', 'z-line', 'corner', 'vertical', 'huge'),
      grid: fc.constantFrom('walls', 'floors'),
      i: fc.nat(64),
      j: fc.nat(64),
      a: fc.integer({ min: -600, max: 600 }),
      b: fc.integer({ min: -600, max: 600 }),
      u: fc.integer({ min: -3, max: 3 }),
      v: fc.integer({ min: -3, max: 3 }),
      y0: fc.integer({ min: -1200, max: 1200 }),
      y1: fc.integer({ min: -1200, max: 1200 }),
    }),
    { minLength: 1, maxLength: 24 },
  );

  it('segmentFraction and segment give identical answers, and each item is tested at most once per query', () => {
    fc.assert(
      fc.property(levelArb(2, 16, 16), segmentsArb, (desc, segs) => {
        const file = buildColbin(desc);
        const fast = new ColbinWorld(file, 'fast');
        const slow = new ColbinWorld(file, 'slow', { bruteForce: true });
        const walls = vi.spyOn(fast as unknown as { segmentWall: (i: number) => number }, 'segmentWall');
        const floors = vi.spyOn(fast as unknown as { segmentTriangle: (i: number) => number }, 'segmentTriangle');
        for (const q of segs) {
          const g = q.grid === 'walls' ? fast.wallGrid : fast.floors.segmentGrid;
          const X = (k: number) => (g.nx > 1 ? g.minX + (k % (g.nx + 1)) * g.cellW : g.minX);
          const Z = (k: number) => (g.nz > 1 ? g.minZ + (k % (g.nz + 1)) * g.cellH : g.minZ);
          let from: V3, to: V3;
          switch (q.kind) {
            case 'x-line':
              from = [X(q.i), q.y0, q.a];
              to = [X(q.i), q.y1, q.b];
              break;
            case 'z-line':
              from = [q.a, q.y0, Z(q.j)];
              to = [q.b, q.y1, Z(q.j)];
              break;
            case 'corner': {
              const s = Math.min(g.cellW, g.cellH, 512);
              const ok = Number.isFinite(s);
              const cx = X(q.i), cz = Z(q.j);
              from = [cx - (ok ? q.u * s : q.a), q.y0, cz - (ok ? q.v * s : q.b)];
              to = [cx + (ok ? q.u * s : q.a) / 2, q.y1, cz + (ok ? q.v * s : q.b) / 2];
              break;
            }
            case 'vertical':
              from = [X(q.i), q.y0, Z(q.j)];
              to = [X(q.i), q.y1, Z(q.j)];
              break;
            case 'huge':
              from = [q.a * 2 ** 40, q.y0, q.b * 1e290];
              to = [-q.b, q.y1, q.a];
              break;
            default:
              from = [q.a, q.y0, q.b];
              to = [q.b, q.y1, q.a];
          }
          walls.mockClear();
          floors.mockClear();
          const f = fast.segmentFraction(from[0], from[1], from[2], to[0], to[1], to[2]);
          expect(f).toBe(slow.segmentFraction(from[0], from[1], from[2], to[0], to[1], to[2]));
          const wallIds = walls.mock.calls.map((c) => c[0]);
          const floorIds = floors.mock.calls.map((c) => c[0]);
          expect(new Set(wallIds).size).toBe(wallIds.length);
          expect(new Set(floorIds).size).toBe(floorIds.length);
          expect(fast.segment(from, to)).toEqual(slow.segment(from, to));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('on the demo level, the walk tests only triangles the segment can reach and answers the same', async () => {
    const { demoLevelDescription } = await import('../../../src/worlds/colbin/demo-level.js');
    const file = buildColbin(demoLevelDescription());
    const fast = new ColbinWorld(file, 'fast');
    const slow = new ColbinWorld(file, 'slow', { bruteForce: true });
    const floors = vi.spyOn(fast as unknown as { segmentTriangle: (i: number) => number }, 'segmentTriangle');
    // a 3 m diagonal at eye height over the open corner of the yard: no floor is within reach of its heights
    expect(fast.segmentFraction(-720, -115, -700, -530, -115, -400)).toBe(-1);
    expect(slow.segmentFraction(-720, -115, -700, -530, -115, -400)).toBe(-1);
    expect(floors).not.toHaveBeenCalled();
    // aimed down through the floor: tested and hit, as without the index
    const down = fast.segment([-700, -115, -700], [-560, 40, -420]);
    expect(down).toEqual(slow.segment([-700, -115, -700], [-560, 40, -420]));
    expect(down).toMatchObject({ hit: true, what: 'floor' });
    // only the triangles along the path's few cells, not the yard's 262
    expect(floors.mock.calls.length).toBeLessThan(40);
  });
});
