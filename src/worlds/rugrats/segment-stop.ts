/**
 * vectorwalk's answer and stop point alone, the fast path behind `RugratsWorld.segmentFraction` (line of
 * sight). It walks exactly as `segmentCol` does (segment.ts, the rule-exact reference, which stays the oracle:
 * a property test and the line-of-sight benchmark check that the two agree on every segment) with the same
 * integer arithmetic, and leaves out what only the other outputs need (normals, tiles, depth). Four shortcuts,
 * none of which can change an answer:
 *
 * - The start's query is remembered: segments cast one after the other from the same start (a watcher's rays,
 *   as a visibility matrix casts them) do not repeat it.
 * - The first part's stack walk is the start query's own: the same cell, the same half, the same walk from
 *   the same point, and the start being open means it is not under that tile's floor.
 * - A landing (the line's other coordinate where one axis reaches the next cell) is a function of the landing
 *   coordinate alone; a step through the other axis keeps the cell on this one, so the same landing is not
 *   divided out again.
 * - Flat tiles (neither plane sloped, the common case) take their heights straight from the index.
 *
 * Integer arithmetic only; allocates nothing.
 */
import type { ColIndex } from './col-index.js';
import { FLAG_DIAGONAL_SUM, FLAG_HALF_MASK, FLAG_HALF_SHIFT, FLAG_HALVED, FLAG_LAST } from './layout.js';
import { PLANE_MISS, cornerX, cornerZ, flatPlaneFraction, lerpFp12, planeFraction } from './plane.js';
import { CEILING_PREFILTER, floorAt, halfAt, locateCell, stackForPoint, toS32, walkOut, walkStack } from './query.js';
import { CLEARANCE, SEG_GETS_THROUGH, SEG_START_NOT_OPEN, SEG_STOPPED } from './segment.js';

/**
 * Walks segments for their result (0 gets through, 1 stopped, 2 from not open) and, when stopped, the stop
 * point, identical to `segmentCol`'s result and S_POINT outputs. One walker per index (each keeps the last
 * start it queried); not shared between threads.
 */
export class SegmentStopWalker {
  /** The stop point (x, y, z) of the last walk that answered SEG_STOPPED. */
  readonly stop = new Int32Array(3);
  /**
   * Per cell (global index): the first tile of a flat stack (the cell is not halved and every tile of its
   * stack has flat planes), whose part test needs no sloped height and no plane corner; −1 for any other cell.
   */
  readonly flatStack: Int32Array;
  /**
   * Per cell: an open span (low, high) of y such that every part of a walk in the cell with both ends strictly
   * inside it gets through: the cell lies inside the bounds on x and z, and the span is within the first
   * tile's (of each half's, in a halved cell) `tileOpenSpan`. Other cells hold an empty span (low 2^31 − 1,
   * high −2^31).
   */
  readonly openLow: Int32Array;
  /** Per cell: the high end of its open span (see `openLow`). */
  readonly openHigh: Int32Array;
  /** Per tile: 1 when both its planes are flat. */
  readonly flatTile: Uint8Array;
  // The last start queried (after toS32) and its tile: the query's tile index, −1 when not open.
  private lastX = 0;
  private lastY = 0;
  private lastZ = 0;
  private lastTile = -1;
  private haveLast = false;
  // The segment being walked (from, direction) and the diagonal rule's axis, for the cell tests.
  private fx = 0;
  private fy = 0;
  private fz = 0;
  private dx = 0;
  private dy = 0;
  private dz = 0;
  private yAlongX = false;
  private vertical = false;

  constructor(readonly ix: ColIndex) {
    this.flatTile = new Uint8Array(ix.tileFlags.length);
    for (let t = 0; t < ix.tileFlags.length; t++) this.flatTile[t] = ix.tileFloorSloped[t] === 0 && ix.tileCeilingSloped[t] === 0 ? 1 : 0;
    const n = ix.cellStackA.length;
    this.flatStack = new Int32Array(n);
    for (let c = 0; c < n; c++) {
      const first = ix.cellStackA[c]!;
      let flat = (ix.tileFlags[first]! & FLAG_HALVED) === 0;
      for (let t = first; flat; t++) {
        if (this.flatTile[t] === 0) flat = false;
        if (ix.tileFlags[t]! & FLAG_LAST) break;
      }
      this.flatStack[c] = flat ? first : -1;
    }
    this.openLow = new Int32Array(n).fill(0x7fffffff);
    this.openHigh = new Int32Array(n).fill(-0x80000000);
    const span = new Int32Array(2);
    for (let col = 0; col < 512; col++) {
      const x0 = ix.minX + col * 1024;
      for (let k = ix.colCellStart[col]!; k < ix.colCellStart[col + 1]!; k++) {
        const z0 = ix.minZ + ix.cellZ[k]! * 1024;
        if (!(x0 + 1023 <= ix.maxX && z0 + 1023 <= ix.maxZ)) continue; // a cell the bounds cut
        const a = ix.cellStackA[k]!;
        if (!tileOpenSpan(ix, a, span)) continue;
        let low = span[0]!, high = span[1]!;
        if (ix.tileFlags[a]! & FLAG_HALVED) {
          // Both halves: a part may run in either, up to or from the diagonal.
          if (!tileOpenSpan(ix, ix.cellStackB[k]!, span)) continue;
          if (span[0]! > low) low = span[0]!;
          if (span[1]! < high) high = span[1]!;
        }
        if (low < high) {
          this.openLow[k] = low;
          this.openHigh[k] = high;
        }
      }
    }
  }

  /** vectorwalk(from, to): the result; for SEG_STOPPED the stop point is in `stop`. */
  walk(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    const ix = this.ix;
    fx = toS32(fx); fy = toS32(fy); fz = toS32(fz);
    tx = toS32(tx); ty = toS32(ty); tz = toS32(tz);

    // Result 2 (from not open) first, as segmentCol does; the start's tile is the first part's.
    let t0: number;
    if (this.haveLast && fx === this.lastX && fy === this.lastY && fz === this.lastZ) t0 = this.lastTile;
    else {
      t0 = openTile(ix, fx, fy, fz);
      this.lastX = fx;
      this.lastY = fy;
      this.lastZ = fz;
      this.lastTile = t0;
      this.haveLast = true;
    }
    if (t0 < 0) return SEG_START_NOT_OPEN;
    if (fx === tx && fy === ty && fz === tz) return SEG_GETS_THROUGH;

    const dx = (tx - fx) | 0;
    const dy = (ty - fy) | 0;
    const dz = (tz - fz) | 0;
    const vertical = dx === 0 && dz === 0;
    this.fx = fx; this.fy = fy; this.fz = fz;
    this.dx = dx; this.dy = dy; this.dz = dz;
    this.yAlongX = Math.abs(dx) >= Math.abs(dz);
    this.vertical = vertical;
    const flatStackOf = this.flatStack;
    const flatOf = this.flatTile;
    const grid = ix.cellGrid;
    const minX = ix.minX, minY = ix.minY, minZ = ix.minZ, maxX = ix.maxX, maxY = ix.maxY, maxZ = ix.maxZ;
    const flagsOf = ix.tileFlags;
    const stackAOf = ix.cellStackA;
    const ceilingOf = ix.tileCeiling;
    const floorOf = ix.tileFloor;
    const floorNormal = ix.tileFloorNormal;
    const ceilingNormal = ix.tileCeilingNormal;
    // The cells of `to`, and where a step lands past the cell's edge: cell + 1024 moving up, cell − 1 down.
    const txCell = tx & -1024;
    const tzCell = tz & -1024;
    const landX = dx > 0 ? 1024 : -1;
    const landZ = dz > 0 ? 1024 : -1;
    // Every point the walk visits lies between from's and to's y (each is the line's y at a landing, measured
    // from `from`) when nothing wraps: the differences are exact and dy times a run fits in 32 bits. When, in
    // addition, both ends are inside the bounds' y range, so is every point. Otherwise no cell is skipped.
    const openLowOf = this.openLow;
    const openHighOf = this.openHigh;
    const yLow = fy < ty ? fy : ty;
    const yMax = fy > ty ? fy : ty;
    const exact = dx === tx - fx && dy === ty - fy && dz === tz - fz && Math.abs(dy) * (Math.abs(dx) > Math.abs(dz) ? Math.abs(dx) : Math.abs(dz)) < 0x80000000;
    const yHigh = exact && yLow >= minY && yMax <= maxY ? yMax : 0x7fffffff;
    let cx = fx, cy = fy, cz = fz;
    // The landings last computed: z where x reaches bx, x where z reaches bz.
    let memoBx = 0, memoZAt = 0, haveBx = false;
    let memoBz = 0, memoXAt = 0, haveBz = false;

    for (let first = true; ; first = false) {
      // 1. The next point (segmentCol's step 1, same expressions).
      let nx = tx, ny = ty, nz = tz;
      let final = true;
      const cellX = cx & -1024;
      const cellZ = cz & -1024;
      // An axis leaves the cell when `to` lies past the cell's edge in the direction of motion (segmentCol's
      // `tx > cell + 1023` moving up, `tx < cell` moving down), compared cell to cell.
      const xLeaves = dx > 0 ? cellX < txCell : dx < 0 ? txCell < cellX : false;
      const zLeaves = dz > 0 ? cellZ < tzCell : dz < 0 ? tzCell < cellZ : false;
      if (xLeaves || zLeaves) {
        final = false;
        let stepX = false;
        if (xLeaves) {
          const bx = (cellX + landX) | 0;
          const run = (bx - fx) | 0;
          if (!haveBx || bx !== memoBx) {
            memoBx = bx;
            memoZAt = (fz + ((Math.imul(dz, run) / dx) | 0)) | 0;
            haveBx = true;
          }
          const zAt = memoZAt;
          if (!zLeaves || (zAt & -1024) === cellZ) {
            stepX = true;
            nx = bx;
            nz = zAt < cellZ ? cellZ : zAt > cellZ + 1023 ? (cellZ + 1023) | 0 : zAt;
            ny = (fy + ((Math.imul(dy, run) / dx) | 0)) | 0;
          }
        }
        if (!stepX) {
          const bz = (cellZ + landZ) | 0;
          const run = (bz - fz) | 0;
          if (!haveBz || bz !== memoBz) {
            memoBz = bz;
            memoXAt = (fx + ((Math.imul(dx, run) / dz) | 0)) | 0;
            haveBz = true;
          }
          const xAt = memoXAt;
          nx = xAt < cellX ? cellX : xAt > cellX + 1023 ? (cellX + 1023) | 0 : xAt;
          nz = bz;
          ny = (fy + ((Math.imul(dy, run) / dz) | 0)) | 0;
        }
      }

      // 2. The current point's cell. A cell whose open span holds the whole segment's y range lets every
      // part through (see openLow); any other goes through locateCell and the part tests.
      const col = (cx - minX) >>> 10;
      const zc = (cz - minZ) >>> 10;
      const cell = col < 512 && zc < 256 ? grid[(col << 8) | zc]! : -1;
      if (!(cell >= 0 && openLowOf[cell]! < yLow && yHigh < openHighOf[cell]!)) {
        if (cx < minX || cx > maxX || cy < minY || cy > maxY || cz < minZ || cz > maxZ || cell < 0) return this.stopAt(cx, cy, cz);
        const stack = flatStackOf[cell]!;
        if (stack >= 0 || (first && (flagsOf[stackAOf[cell]!]! & FLAG_HALVED) === 0 && flatOf[t0] !== 0)) {
          // One part on flat tiles: the cell's stack (not halved, every tile flat), or the first cell's with the
          // start's tile (no stack walk: the start is open).
          let t = t0;
          if (!first) {
            // walkStack with flat ceilings: the first tile whose ceiling the start is at or below; none is a wall.
            for (t = stack; ; t++) {
              const c = ceilingOf[t]!;
              if (cy >= ((c - CEILING_PREFILTER) | 0) && cy >= c) break;
              if (flagsOf[t]! & FLAG_LAST) return this.stopAt(cx, cy, cz);
            }
            if (cy > floorOf[t]!) return this.stopAt(cx, cy, cz); // the start is under the floor: a wall
          }
          const fc = ceilingOf[t]!;
          const ff = floorOf[t]!;
          if (!(cy < ((ff - CLEARANCE) | 0) && ny < ((ff - CLEARANCE) | 0) && ny > ((fc + CLEARANCE) | 0))) {
            const k = t * 3 + 1;
            const f = nearer(flatPlaneFraction(cy, ny, ff, floorNormal[k]!), flatPlaneFraction(cy, ny, fc, ceilingNormal[k]!));
            if (f !== PLANE_MISS) return this.stopAt(lerpFp12(cx, nx, f), lerpFp12(cy, ny, f), lerpFp12(cz, nz, f));
          }
        } else if (this.cellStops(cell, first ? t0 : -1, cx, cy, cz, nx, ny, nz)) return SEG_STOPPED;
      }

      if (final) return SEG_GETS_THROUGH;
      cx = nx; cy = ny; cz = nz;
    }
  }

  private stopAt(x: number, y: number, z: number): number {
    const s = this.stop;
    s[0] = x;
    s[1] = y;
    s[2] = z;
    return SEG_STOPPED;
  }

  /** A crossing at 4.12 fraction f of the part s → e: the stop point. */
  private stopAlong(sx: number, sy: number, sz: number, ex: number, ey: number, ez: number, f: number): boolean {
    this.stopAt(lerpFp12(sx, ex, f), lerpFp12(sy, ey, f), lerpFp12(sz, ez, f));
    return true;
  }

  /**
   * Any cell's parts (segmentCol's step 2 and 3): the cell's stack or, in a halved cell, the half the point is
   * in up to the diagonal and the other half after it. `t0` ≥ 0 in the first cell: the first part's tile.
   */
  private cellStops(cell: number, t0: number, cx: number, cy: number, cz: number, nx: number, ny: number, nz: number): boolean {
    const ix = this.ix;
    const stackA = ix.cellStackA[cell]!;
    const fA = ix.tileFlags[stackA]!;
    if ((fA & FLAG_HALVED) === 0) return this.partStops(t0, stackA, cx, cy, cz, nx, ny, nz);
    const stackB = ix.cellStackB[cell]!;
    const h = halfAt(fA, cx, cz);
    const mine = h === (fA & FLAG_HALF_MASK) >> FLAG_HALF_SHIFT ? stackA : stackB;
    const other = mine === stackA ? stackB : stackA;
    if (this.vertical || !diagonalCrossing(fA, cx, cz, nx, nz)) return this.partStops(t0, mine, cx, cy, cz, nx, ny, nz);
    const kx = cross[0]!, kz = cross[1]!;
    const fx = this.fx, fy = this.fy, fz = this.fz, dx = this.dx, dy = this.dy, dz = this.dz;
    const ky = this.yAlongX ? (fy + ((Math.imul(dy, (kx - fx) | 0) / dx) | 0)) | 0 : (fy + ((Math.imul(dy, (kz - fz) | 0) / dz) | 0)) | 0;
    return this.partStops(t0, mine, cx, cy, cz, kx, ky, kz) || this.partStops(-1, other, kx, ky, kz, nx, ny, nz);
  }

  /**
   * testPart of the part s → e from the stack starting at tile `first`, then its stop: the stack walk at the
   * start (skipped when `known` ≥ 0 gives its tile: the first part, whose start is the open start point), the
   * start under the floor, then the planes. True when it stops (the stop point written).
   */
  private partStops(known: number, first: number, sx: number, sy: number, sz: number, ex: number, ey: number, ez: number): boolean {
    const ix = this.ix;
    let t = known;
    if (t < 0) {
      t = walkStack(ix, first, sx, sy, sz);
      if (t < 0 || sy > floorAt(ix, t, sx, sz)) return this.stopAt(sx, sy, sz) === SEG_STOPPED; // a wall
    }
    const ff = ix.tileFloor[t]!;
    const fc = ix.tileCeiling[t]!;
    // Clear of both: both ends more than 1024 above the flat floor, the end more than 1024 below the flat ceiling.
    if (sy < ((ff - CLEARANCE) | 0) && ey < ((ff - CLEARANCE) | 0) && ey > ((fc + CLEARANCE) | 0)) return false;
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
    const f = nearer(tf, tc);
    return f !== PLANE_MISS && this.stopAlong(sx, sy, sz, ex, ey, ez, f);
  }
}

/** The crossing that stops a part: the nearer; on a tie the floor (FLOOR_FIRST_ON_TIE); PLANE_MISS for none. */
function nearer(tf: number, tc: number): number {
  if (tc === PLANE_MISS) return tf;
  if (tf === PLANE_MISS) return tc;
  return tf <= tc ? tf : tc;
}

/** The diagonal crossing (segment.ts's diagonalCrossing, the same arithmetic), left in `cross`. */
const cross = new Int32Array(2);
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

/** What a plane test may add to the distance, in 4.12 units, from the other two axes (offsets up to 1025). */
const CORNER_REACH = 1025;

/**
 * The y span (low, high), into `out`, inside which any part starting in tile t's cell (as the first tile of
 * its stack or half) with both ends strictly inside gets through testPart; false when there is none. Each bound
 * decides one rule for every such part:
 * - low, the ceiling's side: the stack walk takes t (the start is at or below its ceiling, sloped or not,
 *   with the prefilter; a sloped height is within 1024 of the flat one) and the ceiling plane test misses
 *   (both distances positive). A flat ceiling gives its height; a sloped one (normal n, n.y > 0) its height
 *   plus max(1024, ⌈(4096 + (|n.x| + |n.z|) × 1025) / n.y⌉): there n·(p − corner) ≥ 4096, so the distance
 *   after the shift is at least 1.
 * - high, the floor's side: the start is not under the floor and the floor plane test misses; a flat floor
 *   gives its height, a sloped one (n.y < 0) its height minus the same margin.
 * Flat planes are tested on their normal's y alone (∓4096 needed). Every product stays far inside 32 bits
 * (checked here), so the wrapping arithmetic is exact over the span.
 */
export function tileOpenSpan(ix: ColIndex, t: number, out: Int32Array): boolean {
  const c = ix.tileCeiling[t]!;
  const f = ix.tileFloor[t]!;
  if (!(c >= -0x7ffff000 && f <= 0x7ffff000 && f - c < 1 << 18)) return false;
  const reach = f - c + 2048;
  const k = t * 3;
  let low = c;
  if (ix.tileCeilingSloped[t] !== 0) {
    const n = ix.tileCeilingNormal;
    const nx = Math.abs(n[k]!), ny = n[k + 1]!, nz = Math.abs(n[k + 2]!);
    if (!(ny > 0) || (nx + ny + nz) * reach >= 1 << 30) return false;
    const margin = Math.ceil((4096 + (nx + nz) * CORNER_REACH) / ny);
    low = c + (margin > CEILING_PREFILTER ? margin : CEILING_PREFILTER);
  } else if (ix.tileCeilingNormal[k + 1] !== 4096) return false;
  let high = f;
  if (ix.tileFloorSloped[t] !== 0) {
    const n = ix.tileFloorNormal;
    const nx = Math.abs(n[k]!), ny = -n[k + 1]!, nz = Math.abs(n[k + 2]!);
    if (!(ny > 0) || (nx + ny + nz) * reach >= 1 << 30) return false;
    const margin = Math.ceil((4096 + (nx + nz) * CORNER_REACH) / ny);
    high = f - (margin > CEILING_PREFILTER ? margin : CEILING_PREFILTER);
  } else if (ix.tileFloorNormal[k + 1] !== -4096) return false;
  if (!(low < high)) return false;
  out[0] = low;
  out[1] = high;
  return true;
}

/** The query's tile index for an open point (queryCol's walk), or −1 when the point is not open. */
function openTile(ix: ColIndex, x: number, y: number, z: number): number {
  const cell = locateCell(ix, x, y, z);
  if (cell < 0) return -1;
  const t = walkStack(ix, stackForPoint(ix, cell, x, z), x, y, z);
  if (t < 0) return -1;
  const ceiling = walkOut[0]!;
  return ceiling < y && y < floorAt(ix, t, x, z) ? t : -1;
}
