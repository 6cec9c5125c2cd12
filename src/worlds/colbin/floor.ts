/**
 * Floor height under a point. The engine never reads its floor triangles, so the query is ours, defined as
 * the reference sheet recommends:
 *  - triangles are double-sided planes (the exporter forces the stored normal to y ≥ 0, which is "down"
 *    under the default −Y-up export, so neither winding nor normal is trusted);
 *  - a point is over a triangle when its (x, z) is inside the triangle's x/z projection, edges included;
 *    triangles vertical in x/z are skipped;
 *  - the height is the triangle's plane at (x, z), from the vertices, not from the truncated normal;
 *  - "below" follows the up axis: the floor is the highest surface at or below the probe along up, the
 *    ceiling the nearest strictly above; ties go to the lower triangle index.
 */
import { SEGMENT_CELLS_PER_ITEM, XZGrid } from './broad-phase.js';
import type { ColbinFile } from './types.js';

/** Per-triangle precomputed words (Float64Array stride). */
export const TRI_STRIDE = 10;
const X0 = 0, Z0 = 1, Y0 = 2, E1X = 3, E1Z = 4, E1Y = 5, E2X = 6, E2Z = 7, E2Y = 8, DET = 9;

/** Result slots of FloorIndex.query (Float64Array of 4). */
export const FLOOR_Y = 0;
export const FLOOR_ID = 1;
export const CEILING_Y = 2;
export const CEILING_ID = 3;

export class FloorIndex {
  readonly count: number;
  /** x0 z0 y0, edge1 (x z y), edge2 (x z y), the x/z determinant, per triangle. */
  readonly tri: Float64Array;
  /** The grid of the ground query (about four cells per triangle: two to four candidates per query). */
  readonly grid: XZGrid;
  /** The grid segments walk (coarser: fewer columns to step through; see SEGMENT_CELLS_PER_ITEM). */
  readonly segmentGrid: XZGrid;

  constructor(file: ColbinFile) {
    const n = file.floorCount;
    this.count = n;
    this.tri = new Float64Array(n * TRI_STRIDE);
    const rects = new Float64Array(n * 4);
    const heights = new Float64Array(n * 2);
    const v = file.floorVertices;
    for (let i = 0; i < n; i++) {
      const o = i * 9;
      const t = i * TRI_STRIDE;
      const x0 = v[o]!, y0 = v[o + 1]!, z0 = v[o + 2]!;
      const e1x = v[o + 3]! - x0, e1y = v[o + 4]! - y0, e1z = v[o + 5]! - z0;
      const e2x = v[o + 6]! - x0, e2y = v[o + 7]! - y0, e2z = v[o + 8]! - z0;
      this.tri[t + X0] = x0;
      this.tri[t + Z0] = z0;
      this.tri[t + Y0] = y0;
      this.tri[t + E1X] = e1x;
      this.tri[t + E1Z] = e1z;
      this.tri[t + E1Y] = e1y;
      this.tri[t + E2X] = e2x;
      this.tri[t + E2Z] = e2z;
      this.tri[t + E2Y] = e2y;
      this.tri[t + DET] = e1x * e2z - e2x * e1z;
      rects[i * 4] = Math.min(x0, v[o + 3]!, v[o + 6]!);
      rects[i * 4 + 1] = Math.max(x0, v[o + 3]!, v[o + 6]!);
      rects[i * 4 + 2] = Math.min(z0, v[o + 5]!, v[o + 8]!);
      rects[i * 4 + 3] = Math.max(z0, v[o + 5]!, v[o + 8]!);
      heights[i * 2] = Math.min(y0, v[o + 4]!, v[o + 7]!);
      heights[i * 2 + 1] = Math.max(y0, v[o + 4]!, v[o + 7]!);
    }
    this.grid = new XZGrid(rects, n);
    // With the heights, a segment walk skips the cells (and triangles) its heights never reach.
    this.segmentGrid = new XZGrid(rects, n, heights, SEGMENT_CELLS_PER_ITEM);
  }

  /**
   * The plane height of triangle i at (x, z), or NaN when (x, z) is outside its x/z projection (edges count
   * as inside) or the triangle is vertical.
   */
  heightOn(i: number, x: number, z: number): number {
    const t = this.tri;
    const o = i * TRI_STRIDE;
    const det = t[o + DET]!;
    if (det === 0) return NaN;
    const dx = x - t[o + X0]!;
    const dz = z - t[o + Z0]!;
    const n1 = dx * t[o + E2Z]! - t[o + E2X]! * dz;
    const n2 = t[o + E1X]! * dz - dx * t[o + E1Z]!;
    if (det > 0) {
      if (n1 < 0 || n2 < 0 || n1 + n2 > det) return NaN;
    } else if (n1 > 0 || n2 > 0 || n1 + n2 < det) return NaN;
    return t[o + Y0]! + (n1 * t[o + E1Y]! + n2 * t[o + E2Y]!) / det;
  }

  /**
   * Floor and ceiling at (x, y, z) with `upSign` +1 (y up) or −1 (−Y up, the exporter's default). Writes
   * heights and triangle indices into `out` (NaN and −1 when none). Allocation-free.
   */
  query(x: number, y: number, z: number, upSign: number, out: Float64Array): void {
    out[FLOOR_Y] = NaN;
    out[FLOOR_ID] = -1;
    out[CEILING_Y] = NaN;
    out[CEILING_ID] = -1;
    if (y !== y) return;
    const g = this.grid;
    const c = g.cellAt(x, z);
    if (c < 0) return;
    const h = upSign * y;
    let floorH = -Infinity;
    let floorId = -1;
    let ceilH = Infinity;
    let ceilId = -1;
    const items = g.items;
    const t = this.tri;
    for (let k = g.cellStart[c]!, end = g.cellStart[c + 1]!; k < end; k++) {
      const i = items[k]!;
      // heightOn, inlined: this loop is the hot path of every ground query.
      const o = i * TRI_STRIDE;
      const det = t[o + DET]!;
      if (det === 0) continue;
      const dx = x - t[o + X0]!;
      const dz = z - t[o + Z0]!;
      const n1 = dx * t[o + E2Z]! - t[o + E2X]! * dz;
      const n2 = t[o + E1X]! * dz - dx * t[o + E1Z]!;
      if (det > 0) {
        if (n1 < 0 || n2 < 0 || n1 + n2 > det) continue;
      } else if (n1 > 0 || n2 > 0 || n1 + n2 < det) continue;
      const ty = t[o + Y0]! + (n1 * t[o + E1Y]! + n2 * t[o + E2Y]!) / det;
      const th = upSign * ty;
      if (th <= h) {
        if (th > floorH || (th === floorH && i < floorId)) {
          floorH = th;
          floorId = i;
        }
      } else if (th < ceilH || (th === ceilH && i < ceilId)) {
        ceilH = th;
        ceilId = i;
      }
    }
    if (floorId >= 0) {
      out[FLOOR_Y] = upSign * floorH;
      out[FLOOR_ID] = floorId;
    }
    if (ceilId >= 0) {
      out[CEILING_Y] = upSign * ceilH;
      out[CEILING_ID] = ceilId;
    }
  }

  /** The same query testing every triangle (the oracle the broad phase is checked against). */
  queryAll(x: number, y: number, z: number, upSign: number, out: Float64Array): void {
    out[FLOOR_Y] = NaN;
    out[FLOOR_ID] = -1;
    out[CEILING_Y] = NaN;
    out[CEILING_ID] = -1;
    if (y !== y || x !== x || z !== z) return;
    const h = upSign * y;
    for (let i = 0; i < this.count; i++) {
      const ty = this.heightOn(i, x, z);
      if (ty !== ty) continue;
      const th = upSign * ty;
      if (th <= h) {
        if (out[FLOOR_ID] === -1 || th > upSign * out[FLOOR_Y]!) {
          out[FLOOR_Y] = ty;
          out[FLOOR_ID] = i;
        }
      } else if (out[CEILING_ID] === -1 || th < upSign * out[CEILING_Y]!) {
        out[CEILING_Y] = ty;
        out[CEILING_ID] = i;
      }
    }
  }
}
