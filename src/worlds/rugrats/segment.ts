/**
 * The segment test (0x8002cd7c, "vectorwalk"): walks from → to a cell at a time and says whether it gets
 * through, following the game's routine step by step (docs/formats/rugrats-col.md). Integer arithmetic only: products wrap,
 * divisions truncate toward zero. Writes into a caller-owned Int32Array; allocates nothing.
 *
 * The choices made where the original's arithmetic is not public are each one named function or constant
 * here or in plane.ts / query.ts, and are listed in docs/formats/rugrats-col.md.
 */
import { vectorNormal } from '../../numeric/gte.js';
import type { ColIndex } from './col-index.js';
import { FLAG_DIAGONAL_SUM, FLAG_HALF_MASK, FLAG_HALF_SHIFT, FLAG_HALVED } from './layout.js';
import { PLANE_MISS, cornerX, cornerZ, flatPlaneFraction, lerpFp12, planeFraction } from './plane.js';
import { Q_FLOOR, Q_TILE, floorAt, halfAt, locateCell, queryCol, toS32, walkStack } from './query.js';

/** segmentCol's result: the segment gets through to its end. */
export const SEG_GETS_THROUGH = 0;
/** segmentCol's result: the segment is stopped by a wall, a floor or a ceiling. */
export const SEG_STOPPED = 1;
/** segmentCol's result: the segment's start is not in the open. */
export const SEG_START_NOT_OPEN = 2;

/** segmentCol's output slot for the result (SEG_GETS_THROUGH, SEG_STOPPED or SEG_START_NOT_OPEN). */
export const S_RESULT = 0;
/** segmentCol's output slot for the depth: 0 at a wall; when the start is not open, its y minus the floor's (0 without a tile). */
export const S_DEPTH = 1;
/** segmentCol's output slots for the stop point: x, y, z in slots 2, 3, 4. */
export const S_POINT = 2;
/** segmentCol's output slots for the 4.12 normal of what stopped the segment: x, y, z in slots 5, 6, 7. */
export const S_NORMAL = 5;
/** segmentCol's output slot for the id (file offset) of the tile involved, 0 for none. */
export const S_TILE = 8;
/** A bit mask of the outputs the original writes for this answer (the others keep the caller's values). */
export const S_WRITTEN = 9;
/** The length of segmentCol's output array. */
export const SEGMENT_OUT_LENGTH = 10;

/** S_WRITTEN's bit for the depth slot. */
export const WROTE_DEPTH = 1;
/** S_WRITTEN's bit for the point slots. */
export const WROTE_POINT = 2;
/** S_WRITTEN's bit for the normal slots. */
export const WROTE_NORMAL = 4;
/** S_WRITTEN's bit for the tile slot. */
export const WROTE_TILE = 8;
/** S_WRITTEN with every output written. */
export const WROTE_ALL = 15;

/** The side a step moved through. */
export const SIDE_MINUS_Z = 0;
export const SIDE_PLUS_Z = 1;
export const SIDE_MINUS_X = 2;
export const SIDE_PLUS_X = 3;
export const SIDE_NONE = 4;

/**
 * The side normals (0x800b7018), indexed by the side moved through: +z, −z, +x, −x, none. Each faces back
 * against the motion. 4.12.
 */
export const SIDE_NORMALS: Int32Array = Int32Array.of(0, 0, 4096, 0, 0, -4096, 4096, 0, 0, -4096, 0, 0, 0, 0, 0);

/** 4096 / √2 as VectorNormal gives it for (1, 0, 1). */
export const DIAGONAL_COMPONENT = 2896;

/**
 * The diagonal normals (0x800b7068), indexed by the half left, each facing back into it (DIAGONAL_NORMALS):
 * half 0 (z < x) lies toward +x −z, half 2 toward −x +z, half 1 (x + z < 1024) toward −x −z, half 3 toward +x +z.
 */
export const DIAGONAL_NORMALS: Int32Array = Int32Array.of(
  DIAGONAL_COMPONENT, 0, -DIAGONAL_COMPONENT,
  -DIAGONAL_COMPONENT, 0, -DIAGONAL_COMPONENT,
  -DIAGONAL_COMPONENT, 0, DIAGONAL_COMPONENT,
  DIAGONAL_COMPONENT, 0, DIAGONAL_COMPONENT,
);

/** How far clear of the flat floor and ceiling a part must stay to skip the plane tests. */
export const CLEARANCE = 1024;

// Scratch slots (typed arrays: no allocation and no module-binding checks on the hot path).
const q = new Int32Array(4);
/** testPart's outputs: the tile (−1 none), the plane (0 wall, 1 floor, 2 ceiling) and the crossing fraction. */
const part = new Int32Array(3);
const P_TILE = 0;
const P_PLANE = 1;
const P_T = 2;
/** diagonalCrossing's output: the crossing's x and z. */
const cross = new Int32Array(2);

/** The part-test outcomes. */
const PART_THROUGH = 0;
const PART_WALL = 1;
const PART_PLANE = 2;

/**
 * The game's segment test ("vectorwalk"): walks from (fx, fy, fz) to (tx, ty, tz) a cell at a time and says
 * whether the segment gets through. Writes the answer into `out`, an Int32Array of SEGMENT_OUT_LENGTH (see the
 * S_* slots; S_WRITTEN says which of them this answer wrote, the others keep the caller's values). Returns the
 * result: SEG_GETS_THROUGH, SEG_STOPPED or SEG_START_NOT_OPEN. Coordinates are world units, y down; fractions
 * truncate and values beyond 32 bits saturate. Allocates nothing.
 *
 * @example
 * ```ts
 * const out = new Int32Array(SEGMENT_OUT_LENGTH);
 * if (segmentCol(ix, 1500, -600, 1500, 9000, -600, 9000, out) === SEG_STOPPED) {
 *   const stop = [out[S_POINT], out[S_POINT + 1], out[S_POINT + 2]];
 * }
 * ```
 */
export function segmentCol(
  ix: ColIndex,
  fx: number, fy: number, fz: number,
  tx: number, ty: number, tz: number,
  out: Int32Array,
): number {
  fx = toS32(fx); fy = toS32(fy); fz = toS32(fz);
  tx = toS32(tx); ty = toS32(ty); tz = toS32(tz);

  // Result 2: from is not in the open.
  if (queryCol(ix, fx, fy, fz, q) !== 0) {
    out[S_RESULT] = SEG_START_NOT_OPEN;
    out[S_DEPTH] = (fy - q[Q_FLOOR]!) | 0;
    out[S_POINT] = fx;
    out[S_POINT + 1] = fy;
    out[S_POINT + 2] = fz;
    // VectorNormal of from − to; where the original traps on overflow the port answers a zero normal.
    vectorNormal((fx - tx) | 0, (fy - ty) | 0, (fz - tz) | 0, out, S_NORMAL);
    out[S_TILE] = q[Q_TILE]!;
    out[S_WRITTEN] = WROTE_ALL;
    return SEG_START_NOT_OPEN;
  }
  // from == to: everything zeroed but the start's tile.
  if (fx === tx && fy === ty && fz === tz) {
    out[S_RESULT] = SEG_GETS_THROUGH;
    out.fill(0, S_DEPTH, S_TILE);
    out[S_TILE] = q[Q_TILE]!;
    out[S_WRITTEN] = WROTE_ALL;
    return SEG_GETS_THROUGH;
  }

  const dx = (tx - fx) | 0;
  const dy = (ty - fy) | 0;
  const dz = (tz - fz) | 0;
  const vertical = dx === 0 && dz === 0;
  // DIAGONAL_Y: the diagonal crossing takes y along the axis that moves more (x on a tie).
  const yAlongX = Math.abs(dx) >= Math.abs(dz);
  let cx = fx, cy = fy, cz = fz;
  let side = SIDE_NONE;
  let first = true;
  const flagsOf = ix.tileFlags;

  for (;;) {
    // 1. The next point (NEXT_POINT, STEP_ORDER). For each moving axis, `to` lies in another cell when it is
    // past the cell's edge. If neither axis leaves, the next point is `to`. Otherwise x is tried first: the
    // line's z where x lands on the first coordinate past the cell (cell + 1024 or cell − 1); when that z is
    // still inside the cell (or z does not leave), x leaves first. The other axis is clamped into the cell
    // (cell .. cell + 1023) and y follows the line, both measured from `from` with a wrapping product and a
    // truncating division. A vertical segment steps straight to `to`.
    let nx = tx, ny = ty, nz = tz;
    let nside = SIDE_NONE;
    let final = true;
    const cellX = cx & -1024;
    const cellZ = cz & -1024;
    if (!vertical) {
      const xLeaves = dx > 0 ? tx > cellX + 1023 : dx < 0 ? tx < cellX : false;
      const zLeaves = dz > 0 ? tz > cellZ + 1023 : dz < 0 ? tz < cellZ : false;
      if (xLeaves || zLeaves) {
        final = false;
        let stepX = false;
        if (xLeaves) {
          const bx = dx > 0 ? (cellX + 1024) | 0 : (cellX - 1) | 0;
          const run = (bx - fx) | 0;
          const zAt = (fz + ((Math.imul(dz, run) / dx) | 0)) | 0;
          if (!zLeaves || (zAt >= cellZ && zAt <= cellZ + 1023)) {
            stepX = true;
            nx = bx;
            nz = zAt < cellZ ? cellZ : zAt > cellZ + 1023 ? (cellZ + 1023) | 0 : zAt;
            ny = (fy + ((Math.imul(dy, run) / dx) | 0)) | 0;
            nside = dx > 0 ? SIDE_PLUS_X : SIDE_MINUS_X;
          }
        }
        if (!stepX) {
          const bz = dz > 0 ? (cellZ + 1024) | 0 : (cellZ - 1) | 0;
          const run = (bz - fz) | 0;
          const xAt = (fx + ((Math.imul(dx, run) / dz) | 0)) | 0;
          nx = xAt < cellX ? cellX : xAt > cellX + 1023 ? (cellX + 1023) | 0 : xAt;
          nz = bz;
          ny = (fy + ((Math.imul(dy, run) / dz) | 0)) | 0;
          nside = dz > 0 ? SIDE_PLUS_Z : SIDE_MINUS_Z;
        }
      }
    }

    // 2. The current point's stack and, for a halved cell, the diagonal.
    const cell = locateCell(ix, cx, cy, cz);
    if (cell < 0) {
      // No tile: stop where the step came in, with the side's normal (next − current in the first cell).
      if (first) return stopAt(out, cx, cy, cz, (nx - cx) | 0, (ny - cy) | 0, (nz - cz) | 0, 0, true);
      return stopAt(out, cx, cy, cz, SIDE_NORMALS[side * 3]!, SIDE_NORMALS[side * 3 + 1]!, SIDE_NORMALS[side * 3 + 2]!, 0, true);
    }
    const stackA = ix.cellStackA[cell]!;
    const fA = flagsOf[stackA]!;
    if ((fA & FLAG_HALVED) === 0) {
      if (testPart(ix, stackA, cx, cy, cz, nx, ny, nz) !== PART_THROUGH) return partStop(ix, out, cx, cy, cz, nx, ny, nz, side * 3, SIDE_NORMALS);
    } else {
      const stackB = ix.cellStackB[cell]!;
      const h = halfAt(fA, cx, cz);
      const mine = h === (fA & FLAG_HALF_MASK) >> FLAG_HALF_SHIFT ? stackA : stackB;
      const other = mine === stackA ? stackB : stackA;
      if (vertical || !diagonalCrossing(fA, cx, cz, nx, nz)) {
        if (testPart(ix, mine, cx, cy, cz, nx, ny, nz) !== PART_THROUGH) return partStop(ix, out, cx, cy, cz, nx, ny, nz, side * 3, SIDE_NORMALS);
      } else {
        const kx = cross[0]!, kz = cross[1]!;
        const ky = yAlongX ? (fy + ((Math.imul(dy, (kx - fx) | 0) / dx) | 0)) | 0 : (fy + ((Math.imul(dy, (kz - fz) | 0) / dz) | 0)) | 0;
        if (testPart(ix, mine, cx, cy, cz, kx, ky, kz) !== PART_THROUGH) return partStop(ix, out, cx, cy, cz, kx, ky, kz, side * 3, SIDE_NORMALS);
        if (testPart(ix, other, kx, ky, kz, nx, ny, nz) !== PART_THROUGH) return partStop(ix, out, kx, ky, kz, nx, ny, nz, h * 3, DIAGONAL_NORMALS);
      }
    }

    // 4. Done when the step reached to: only the last tile passed is written.
    if (final) {
      out[S_RESULT] = SEG_GETS_THROUGH;
      out[S_TILE] = ix.tileOffset[part[P_TILE]!]!;
      out[S_WRITTEN] = WROTE_TILE;
      return SEG_GETS_THROUGH;
    }
    cx = nx; cy = ny; cz = nz;
    side = nside;
    first = false;
  }
}

/** Writes a stop at (px, py, pz) with normal n and tile id; a wall writes depth 0, a plane hit does not. */
function stopAt(out: Int32Array, px: number, py: number, pz: number, nx: number, ny: number, nz: number, tile: number, wall: boolean): number {
  out[S_RESULT] = SEG_STOPPED;
  out[S_POINT] = px;
  out[S_POINT + 1] = py;
  out[S_POINT + 2] = pz;
  out[S_NORMAL] = nx;
  out[S_NORMAL + 1] = ny;
  out[S_NORMAL + 2] = nz;
  out[S_TILE] = tile;
  if (wall) {
    out[S_DEPTH] = 0;
    out[S_WRITTEN] = WROTE_ALL;
  } else {
    out[S_WRITTEN] = WROTE_POINT | WROTE_NORMAL | WROTE_TILE;
  }
  return SEG_STOPPED;
}

/** The stop for a part that did not get through: a wall at its start, or its plane crossing. */
function partStop(
  ix: ColIndex, out: Int32Array,
  sx: number, sy: number, sz: number, ex: number, ey: number, ez: number,
  wallIndex: number, wallTable: Int32Array,
): number {
  const t = part[P_TILE]!;
  const tile = t < 0 ? 0 : ix.tileOffset[t]!;
  const plane = part[P_PLANE]!;
  if (plane === 0) {
    return stopAt(out, sx, sy, sz, wallTable[wallIndex]!, wallTable[wallIndex + 1]!, wallTable[wallIndex + 2]!, tile, true);
  }
  const n = plane === 1 ? ix.tileFloorNormal : ix.tileCeilingNormal;
  const k = t * 3;
  const f = part[P_T]!;
  return stopAt(out, lerpFp12(sx, ex, f), lerpFp12(sy, ey, f), lerpFp12(sz, ez, f), n[k]!, n[k + 1]!, n[k + 2]!, tile, false);
}

/**
 * The diagonal crossing (0x8002baa0) of the step (cx, cz) → (nx, nz) in a halved cell whose first tile has
 * `flags` (DIAGONAL_CROSSING). The diagonal is the line x = z (bit 5 clear) or x + z = 1024 (bit 5 set) in cell
 * coordinates; the step heads at it when its ends are on different sides (by the same rule that names the
 * halves). The crossing is interpolated from the signed offsets of the ends from the line (wrapping products,
 * truncating division) and clamped into the cell (0..1023 on each axis). Returns false when the step stays in
 * its half; otherwise leaves the crossing in cross[0], cross[1].
 */
function diagonalCrossing(flags: number, cx: number, cz: number, nx: number, nz: number): boolean {
  const baseX = cx & -1024;
  const baseZ = cz & -1024;
  const ux = (cx - baseX) | 0, uz = (cz - baseZ) | 0;
  const vx = (nx - baseX) | 0, vz = (nz - baseZ) | 0;
  let fa: number, fb: number;
  if (flags & FLAG_DIAGONAL_SUM) {
    fa = (ux + uz - 1024) | 0;
    fb = (vx + vz - 1024) | 0;
  } else {
    fa = (uz - ux) | 0;
    fb = (vz - vx) | 0;
  }
  if (fa < 0 === fb < 0) return false;
  const k = (fa - fb) | 0;
  let px = (ux + ((Math.imul((vx - ux) | 0, fa) / k) | 0)) | 0;
  let pz = (uz + ((Math.imul((vz - uz) | 0, fa) / k) | 0)) | 0;
  px = px < 0 ? 0 : px > 1023 ? 1023 : px;
  pz = pz < 0 ? 0 : pz > 1023 ? 1023 : pz;
  cross[0] = baseX + px;
  cross[1] = baseZ + pz;
  return true;
}

/**
 * Step 3, the stack test of one part start → end, from the first tile `first` of the part's half
 * (0x8002c720). Leaves the tile (−1 for none), the plane (0 wall, 1 floor, 2 ceiling) and the fraction in part[].
 */
function testPart(ix: ColIndex, first: number, sx: number, sy: number, sz: number, ex: number, ey: number, ez: number): number {
  const t = walkStack(ix, first, sx, sy, sz);
  part[P_TILE] = t;
  part[P_PLANE] = 0;
  if (t < 0) return PART_WALL; // above every ceiling: a wall
  if (sy > floorAt(ix, t, sx, sz)) return PART_WALL; // the start is under the floor: a wall
  const ff = ix.tileFloor[t]!;
  const fc = ix.tileCeiling[t]!;
  // Clear of both: both ends more than 1024 above the flat floor, the end more than 1024 below the flat ceiling.
  if (sy < ((ff - CLEARANCE) | 0) && ey < ((ff - CLEARANCE) | 0) && ey > ((fc + CLEARANCE) | 0)) return PART_THROUGH;
  // The planes (0x8002c3a0): the crossing nearer the start wins; on a tie the floor (FLOOR_FIRST_ON_TIE).
  const k = t * 3;
  const fn = ix.tileFloorNormal;
  const cn = ix.tileCeilingNormal;
  const floorSloped = ix.tileFloorSloped[t] !== 0;
  const ceilingSloped = ix.tileCeilingSloped[t] !== 0;
  let px = 0;
  let pz = 0;
  if (floorSloped || ceilingSloped) {
    const half3 = (ix.tileFlags[t]! & (FLAG_HALVED | FLAG_HALF_MASK)) === (FLAG_HALVED | FLAG_HALF_MASK);
    px = cornerX(sx, half3);
    pz = cornerZ(sz, half3);
  }
  const tf = floorSloped ? planeFraction(sx, sy, sz, ex, ey, ez, px, ff, pz, fn[k]!, fn[k + 1]!, fn[k + 2]!) : flatPlaneFraction(sy, ey, ff, fn[k + 1]!);
  const tc = ceilingSloped ? planeFraction(sx, sy, sz, ex, ey, ez, px, fc, pz, cn[k]!, cn[k + 1]!, cn[k + 2]!) : flatPlaneFraction(sy, ey, fc, cn[k + 1]!);
  if (tf === PLANE_MISS && tc === PLANE_MISS) return PART_THROUGH;
  if (tc === PLANE_MISS || (tf !== PLANE_MISS && tf <= tc)) {
    part[P_PLANE] = 1;
    part[P_T] = tf;
  } else {
    part[P_PLANE] = 2;
    part[P_T] = tc;
  }
  return PART_PLANE;
}
