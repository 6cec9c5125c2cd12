/**
 * The point query (0x8002b240): is a point in the open, and what are the ceiling and floor above and below it.
 * Integer arithmetic only; writes into a caller-owned Int32Array, allocates nothing.
 */
import type { ColIndex } from './col-index.js';
import { FLAG_DIAGONAL_SUM, FLAG_HALF_MASK, FLAG_HALVED, FLAG_LAST, FLAG_HALF_SHIFT } from './layout.js';
import { slopedHeight } from './plane.js';

/** queryCol's result: the point is in the open, between a ceiling and a floor. */
export const QUERY_OPEN = 0;
/** queryCol's result: the point is inside solid ground, or in a cell with no tile for it. */
export const QUERY_CLOSED = 1;
/** queryCol's result: the point is outside the level's bounds. */
export const QUERY_OUTSIDE = 2;

/** queryCol's output slot for the result (QUERY_OPEN, QUERY_CLOSED or QUERY_OUTSIDE). */
export const Q_RESULT = 0;
/** queryCol's output slot for the ceiling's y above the point (0 when there is no tile). */
export const Q_CEILING = 1;
/** queryCol's output slot for the floor's y below the point (0 when there is no tile). */
export const Q_FLOOR = 2;
/** queryCol's output slot for the tile's id, its file offset (0 when there is no tile). */
export const Q_TILE = 3;

/** No stack: the point is outside the bounds or the column table. */
export const CELL_OUTSIDE = -2;
/** No stack: no cell in the column for the point's z. */
export const CELL_MISSING = -1;

/**
 * How a JavaScript number becomes the s32 coordinate the original works on (TO_S32): integers in range pass;
 * fractions truncate toward zero; beyond the s32 range (and ±Infinity) saturates; NaN reads as −2^31, which
 * lies outside every sane level. So queries on bad positions give a defined answer and never throw.
 */
export function toS32(v: number): number {
  if (v === (v | 0)) return v;
  if (v !== v) return -0x80000000;
  if (v >= 0x7fffffff) return 0x7fffffff;
  if (v <= -0x80000000) return -0x80000000;
  return Math.trunc(v) | 0;
}

/**
 * Finds the cell of a point (0x8002b114): checks x, y and z against the bounds (inclusive), takes the column
 * (x − min x) >> 10 and the z cell (z − min z) >> 10 (both differences are then non-negative, so the shift
 * rounds toward zero), and finds the cell (see findCellByHalves; the index's grid gives the same answer).
 * COLUMN_BEYOND_TABLE_IS_OUTSIDE: a column past the 512 of the table counts as outside the bounds. Returns the
 * global cell index, CELL_OUTSIDE or CELL_MISSING.
 */
export function locateCell(ix: ColIndex, x: number, y: number, z: number): number {
  if (x < ix.minX || x > ix.maxX || y < ix.minY || y > ix.maxY || z < ix.minZ || z > ix.maxZ) return CELL_OUTSIDE;
  const col = (x - ix.minX) >>> 10; // the difference is in 0..2^32 − 1, exact before the unsigned shift
  if (col >= 512) return CELL_OUTSIDE;
  const zc = (z - ix.minZ) >>> 10;
  if (zc > 255) return CELL_MISSING;
  return ix.cellGrid[(col << 8) | zc]!;
}

/** The cell search as the original does it (0x8002aec4): by halves over the column's cells sorted by z. */
export function findCellByHalves(ix: ColIndex, col: number, zc: number): number {
  let lo = ix.colCellStart[col]!;
  let hi = ix.colCellStart[col + 1]! - 1;
  const cz = ix.cellZ;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = cz[mid]!;
    if (v === zc) return mid;
    if (v < zc) lo = mid + 1;
    else hi = mid - 1;
  }
  return CELL_MISSING;
}

/**
 * The half of a halved cell a point is in, from the diagonal the cell's first tile names (bit 5 set: half 1
 * when (x & 1023) + (z & 1023) < 1024, else 3; clear: half 0 when (z & 1023) < (x & 1023), else 2).
 */
export function halfAt(flags: number, x: number, z: number): number {
  const lx = x & 1023;
  const lz = z & 1023;
  if (flags & FLAG_DIAGONAL_SUM) return lx + lz < 1024 ? 1 : 3;
  return lz < lx ? 0 : 2;
}

/** The first tile of the stack for the point's half in a cell (the cell's own stack when not halved). */
export function stackForPoint(ix: ColIndex, cell: number, x: number, z: number): number {
  const a = ix.cellStackA[cell]!;
  const f = ix.tileFlags[a]!;
  if ((f & FLAG_HALVED) === 0) return a;
  return halfAt(f, x, z) === (f & FLAG_HALF_MASK) >> FLAG_HALF_SHIFT ? a : ix.cellStackB[cell]!;
}

const isHalf3 = (flags: number): boolean => (flags & (FLAG_HALVED | FLAG_HALF_MASK)) === (FLAG_HALVED | FLAG_HALF_MASK);

/** Tile t's ceiling height at (x, z), sloped when its normal index is nonzero. */
export function ceilingAt(ix: ColIndex, t: number, x: number, z: number): number {
  const h = ix.tileCeiling[t]!;
  if (ix.tileCeilingSloped[t] === 0) return h;
  const n = ix.tileCeilingNormal;
  return slopedHeight(h, n[t * 3]!, n[t * 3 + 1]!, n[t * 3 + 2]!, x, z, isHalf3(ix.tileFlags[t]!));
}

/** Tile t's floor height at (x, z). */
export function floorAt(ix: ColIndex, t: number, x: number, z: number): number {
  const h = ix.tileFloor[t]!;
  if (ix.tileFloorSloped[t] === 0) return h;
  const n = ix.tileFloorNormal;
  return slopedHeight(h, n[t * 3]!, n[t * 3 + 1]!, n[t * 3 + 2]!, x, z, isHalf3(ix.tileFlags[t]!));
}

/** How much above the flat ceiling a sloped ceiling can reach: the cheap first test of the stack walk. */
export const CEILING_PREFILTER = 1024;

/**
 * Walks a stack from its first tile to the first tile whose ceiling the point is at or below (y ≥ ceiling, y
 * pointing down): first by the flat ceiling − 1024, then by the sloped ceiling (STACK_WALK). Returns the tile,
 * or −1 when the point is above every ceiling. The sloped ceiling found is left in walkOut[0].
 */
export function walkStack(ix: ColIndex, first: number, x: number, y: number, z: number): number {
  const flags = ix.tileFlags;
  const flat = ix.tileCeiling;
  for (let t = first; ; t++) {
    if (y >= ((flat[t]! - CEILING_PREFILTER) | 0)) {
      const c = ceilingAt(ix, t, x, z);
      if (y >= c) {
        walkOut[0] = c;
        return t;
      }
    }
    if (flags[t]! & FLAG_LAST) return -1;
  }
}
/** walkOut[0]: the sloped ceiling of the tile walkStack last found (a typed slot: no allocation, no TDZ checks). */
export const walkOut = new Int32Array(1);

/**
 * The game's point query: is (x, y, z) in the open, and what are the ceiling above and the floor below it.
 * Writes out[Q_RESULT] (QUERY_OPEN, QUERY_CLOSED or QUERY_OUTSIDE), out[Q_CEILING], out[Q_FLOOR] and out[Q_TILE]
 * (the tile's file offset) into `out`, an Int32Array of at least 4; when there is no tile (outside, no cell, or
 * above every ceiling) ceiling, floor and tile are written as 0 (QUERY_NO_TILE_OUTPUTS). Returns the result.
 * Coordinates are world units, y down; fractions truncate and values beyond 32 bits saturate. Allocates nothing.
 *
 * @example
 * ```ts
 * const out = new Int32Array(4);
 * if (queryCol(ix, x, y, z, out) === QUERY_OPEN) standOn(out[Q_FLOOR]);
 * ```
 */
export function queryCol(ix: ColIndex, x: number, y: number, z: number, out: Int32Array): number {
  x = toS32(x);
  y = toS32(y);
  z = toS32(z);
  const cell = locateCell(ix, x, y, z);
  if (cell < 0) return noTile(out, cell === CELL_OUTSIDE ? QUERY_OUTSIDE : QUERY_CLOSED);
  const t = walkStack(ix, stackForPoint(ix, cell, x, z), x, y, z);
  if (t < 0) return noTile(out, QUERY_CLOSED);
  const ceiling = walkOut[0]!;
  const floor = floorAt(ix, t, x, z);
  const result = ceiling < y && y < floor ? QUERY_OPEN : QUERY_CLOSED;
  out[Q_RESULT] = result;
  out[Q_CEILING] = ceiling;
  out[Q_FLOOR] = floor;
  out[Q_TILE] = ix.tileOffset[t]!;
  return result;
}

function noTile(out: Int32Array, result: number): number {
  out[Q_RESULT] = result;
  out[Q_CEILING] = 0;
  out[Q_FLOOR] = 0;
  out[Q_TILE] = 0;
  return result;
}
