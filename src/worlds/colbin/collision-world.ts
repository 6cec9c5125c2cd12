/**
 * COLBIN as a CollisionWorld. Native units: x128 fixed point (128 per engine metre), integer coordinates,
 * up = −Y by default (the exporter's default; configurable). Floors come from the triangles (floor.ts),
 * walls are the file's OBBs, and both go through our own x/z grids (broad-phase.ts) built at load time.
 *
 * `move` is the engine's wall response: the body is an OBB (axes = world axes) tested against every wall
 * with the fixed-point SAT (obb.ts), and each colliding wall's MTV is added to the position; then the feet
 * go onto the highest floor at or below them (probing from `stepHeight` above).
 */
import {
  newGroundResult,
  newMoveResult,
  newSegmentResult,
  type Body,
  type Bounds,
  type CollisionWorld,
  type Contact,
  type GroundResult,
  type MoveResult,
  type SegmentResult,
  type UpAxis,
  type Vec3,
} from '../world.js';
import { setPointAlong } from '../results.js';
import { SegmentCellWalk, WALK_T_NEXT, WALK_Y_HI, WALK_Y_LO, XZGrid } from './broad-phase.js';
import { CEILING_ID, CEILING_Y, FLOOR_ID, FLOOR_Y, FloorIndex, TRI_STRIDE } from './floor.js';
import {
  boxReach,
  BOX_WORDS,
  normalizeBoxAxes,
  prepareWallForAxisAlignedMover,
  PREPARED_WALL_WORDS,
  satPushOutAxisAligned,
  SAT_AXIS,
  SAT_MTV_X,
  SAT_NORMAL_X,
  SAT_OUT_WORDS,
  sqrtNewton,
} from './obb.js';
import { hasColbinMagic, parseColbin, type ParseColbinOptions } from './parse.js';
import type { ColbinFile } from './types.js';

/** Options of loadColbinWorld and the ColbinWorld constructor: parsing, the up axis, and how walls respond. */
export interface ColbinWorldOptions extends ParseColbinOptions {
  /** +1: y up; −1: −Y up (default, the exporter's default and the engine's PS1 convention). */
  upSign?: 1 | -1;
  /** Test every item on every query (the oracle the broad phase is checked against). Default false. */
  bruteForce?: boolean;
  /**
   * How `move` treats a wall the body exactly touches on some axis.
   *  - 'engine' (default): as Collision::IsSATCollision does, the touching axis is skipped, not separating,
   *    so a body resting flush against a face is pushed along the next-smallest axis (often vertically, by
   *    a large amount): the engine's behaviour, reproduced.
   *  - 'touch-separates': a touching axis separates, so flush contact gives no push. Not the engine; for
   *    simulations that want bodies to rest against walls.
   */
  wallResponse?: WallResponse;
}

/** How `move` treats a wall the body exactly touches; see ColbinWorldOptions.wallResponse. */
export type WallResponse = 'engine' | 'touch-separates';

/** Engine units per metre (the exporter's scale). */
export const COLBIN_UNITS_PER_METRE = 128;
/**
 * How far above its feet a body looks for the floor after a move, when the body gives no stepHeight: a
 * quarter metre, so walking up a slope or a low step keeps the body on it instead of dropping it through.
 */
export const DEFAULT_STEP_HEIGHT = 32;
/** The body `sampleOpen` keeps clear of walls: radius 32, height 128 (a quarter by one metre). */
export const DEFAULT_BODY: Body = { radius: 32, height: 128 };
/**
 * The largest coordinate a ColbinWorld works with: coordinates entering its fixed-point code are truncated and
 * clamped to ±2^30 (NaN → 0), so the int32 sums of the engine's arithmetic cannot wrap for any input.
 */
export const COORDINATE_LIMIT = 2 ** 30;

/** A coordinate as the fixed-point code takes it: truncated, clamped to ±COORDINATE_LIMIT, NaN as 0. */
export function toFixedCoordinate(v: number): number {
  if (v !== v) return 0;
  if (v >= COORDINATE_LIMIT) return COORDINATE_LIMIT;
  if (v <= -COORDINATE_LIMIT) return -COORDINATE_LIMIT;
  return Math.trunc(v) + 0; // + 0: no negative zero in results
}

/**
 * Feet on a floor of fractional height: rounded up along `up` so the feet are never inside the floor and the
 * same floor is still "at or below" them on the next query.
 */
export function snapFeetToFloor(floorY: number, upSign: number): number {
  return upSign * Math.ceil(upSign * floorY) + 0;
}

/** True when the bytes are a COLBIN this reader accepts the header of (magic and version 1 or 2). */
export function detectColbin(bytes: Uint8Array): boolean {
  return bytes.length >= 15 && hasColbinMagic(bytes) && (bytes[6] === 1 || bytes[6] === 2);
}

/** Parses a COLBIN file (see parseColbin) and opens it as a world named `name`. Throws FormatError. */
export function loadColbinWorld(bytes: Uint8Array, name: string, options: ColbinWorldOptions = {}): ColbinWorld {
  return new ColbinWorld(parseColbin(bytes, options), name, options);
}

const WALL_SEG_STRIDE = 15; // unit axes (9, doubles), half extents (3), reach (3)
/** Query stamps wrap below 2^30 (then the stamp arrays are cleared), so the counter stays a small integer. */
const STAMP_LIMIT = 2 ** 30 - 1;

/**
 * A COLBIN file as a CollisionWorld, in x128 integer units with −Y up by default. `ground` finds the floor
 * triangles under a point, `segment` traces against floors and walls, and `move` is the engine's wall response:
 * the body is an axis-aligned box pushed out of every wall it overlaps by the fixed-point SAT, then its feet go
 * onto the highest floor at or below them (looking from `stepHeight` above). Coordinates are truncated and
 * clamped to ±COORDINATE_LIMIT.
 */
export class ColbinWorld implements CollisionWorld {
  readonly kind = 'colbin' as const;
  readonly name: string;
  readonly file: ColbinFile;
  readonly bounds: Bounds;
  readonly up: UpAxis;
  readonly scale = COLBIN_UNITS_PER_METRE;
  readonly integer = true;
  readonly upSign: 1 | -1;
  /** @internal The floor triangles and their grids. */
  readonly floors: FloorIndex;
  /** @internal Walls as 15-word boxes, for the SAT. */
  readonly wallBoxes: Int32Array;
  /** @internal The walls' normalised axes, for the SAT. */
  readonly wallAxesN: Int32Array;
  /** @internal Per wall, the 15 SAT axes against an axis-aligned body, precomputed (obb.ts). */
  readonly wallPrepared: Int32Array;
  /** @internal Per wall: unit axes as doubles, half extents, reach along x/y/z (segment tests and the broad phase). */
  readonly wallSeg: Float64Array;
  /** @internal The walls' x/z grid (the broad phase). */
  readonly wallGrid: XZGrid;
  private readonly bruteForce: boolean;
  /** How `move` treats a wall the body exactly touches. */
  readonly wallResponse: WallResponse;
  private readonly floorStamp: Uint32Array;
  private readonly wallStamp: Uint32Array;
  private stamp = 0;
  private readonly walk = new SegmentCellWalk();
  private readonly floorOut = new Float64Array(4);
  private readonly body = new Int32Array(BOX_WORDS);
  private readonly sat = new Int32Array(SAT_OUT_WORDS);
  private readonly hitWalls: number[] = [];
  // Result of the last trace (the fraction in a typed array: a double in an object field may be boxed per store).
  private readonly hitFraction = new Float64Array(1);
  private hitKind = 0;
  private hitId = -1;
  private hitAxis = -1;
  private hitSign = 0;

  constructor(file: ColbinFile, name: string, options: ColbinWorldOptions = {}) {
    this.file = file;
    this.name = name;
    this.upSign = options.upSign ?? -1;
    this.up = { axis: 1, sign: this.upSign };
    this.bruteForce = options.bruteForce ?? false;
    this.wallResponse = options.wallResponse ?? 'engine';
    this.floors = new FloorIndex(file);
    const n = file.wallCount;
    this.wallBoxes = new Int32Array(n * BOX_WORDS);
    this.wallAxesN = new Int32Array(n * 9);
    this.wallPrepared = new Int32Array(n * PREPARED_WALL_WORDS);
    this.wallSeg = new Float64Array(n * WALL_SEG_STRIDE);
    const rects = new Float64Array(n * 4);
    const heights = new Float64Array(n * 2);
    for (let i = 0; i < n; i++) {
      const b = i * BOX_WORDS;
      for (let k = 0; k < 3; k++) this.wallBoxes[b + k] = file.wallCenters[i * 3 + k]!;
      for (let k = 0; k < 9; k++) this.wallBoxes[b + 3 + k] = file.wallAxes[i * 9 + k]!;
      for (let k = 0; k < 3; k++) this.wallBoxes[b + 12 + k] = file.wallHalfExtents[i * 3 + k]!;
      normalizeBoxAxes(this.wallBoxes, b, this.wallAxesN, i * 9);
      prepareWallForAxisAlignedMover(this.wallBoxes, b, this.wallAxesN, i * 9, this.wallPrepared, i * PREPARED_WALL_WORDS);
      const s = i * WALL_SEG_STRIDE;
      for (let a = 0; a < 3; a++) {
        const ax = file.wallAxes[i * 9 + a * 3]!, ay = file.wallAxes[i * 9 + a * 3 + 1]!, az = file.wallAxes[i * 9 + a * 3 + 2]!;
        const len = sqrtNewton(ax * ax + ay * ay + az * az);
        this.wallSeg[s + a * 3] = len > 0 ? ax / len : 0;
        this.wallSeg[s + a * 3 + 1] = len > 0 ? ay / len : 0;
        this.wallSeg[s + a * 3 + 2] = len > 0 ? az / len : 0;
        this.wallSeg[s + 9 + a] = file.wallHalfExtents[i * 3 + a]!;
        this.wallSeg[s + 12 + a] = boxReach(this.wallBoxes, b, a);
      }
      const cx = file.wallCenters[i * 3]!, cz = file.wallCenters[i * 3 + 2]!;
      rects[i * 4] = cx - this.wallSeg[s + 12]!;
      rects[i * 4 + 1] = cx + this.wallSeg[s + 12]!;
      rects[i * 4 + 2] = cz - this.wallSeg[s + 14]!;
      rects[i * 4 + 3] = cz + this.wallSeg[s + 14]!;
      heights[i * 2] = file.wallCenters[i * 3 + 1]! - this.wallSeg[s + 13]!;
      heights[i * 2 + 1] = file.wallCenters[i * 3 + 1]! + this.wallSeg[s + 13]!;
    }
    this.wallGrid = new XZGrid(rects, n, heights);
    this.floorStamp = new Uint32Array(file.floorCount);
    this.wallStamp = new Uint32Array(n);
    this.bounds = this.computeBounds();
  }

  private computeBounds(): Bounds {
    const min: Vec3 = [Infinity, Infinity, Infinity];
    const max: Vec3 = [-Infinity, -Infinity, -Infinity];
    const v = this.file.floorVertices;
    for (let i = 0; i < v.length; i++) {
      const k = i % 3;
      if (v[i]! < min[k]!) min[k] = v[i]!;
      if (v[i]! > max[k]!) max[k] = v[i]!;
    }
    for (let i = 0; i < this.file.wallCount; i++) {
      for (let k = 0; k < 3; k++) {
        const c = this.file.wallCenters[i * 3 + k]!;
        const r = this.wallSeg[i * WALL_SEG_STRIDE + 12 + k]!;
        if (c - r < min[k]!) min[k] = c - r;
        if (c + r > max[k]!) max[k] = c + r;
      }
    }
    if (min[0] > max[0]) return { min: [0, 0, 0], max: [0, 0, 0] };
    return { min, max };
  }

  // ---------------------------------------------------------------------------------------------- ground

  /**
   * The highest floor triangle at or below `pos` along up and the nearest one strictly above it (the ceiling,
   * see lastCeilingId); `id` is the floor's triangle index. Triangles are double-sided; ties go to the lower index.
   */
  ground(pos: Vec3, out: GroundResult = newGroundResult()): GroundResult {
    const f = this.floorOut;
    if (this.bruteForce) this.floors.queryAll(pos[0], pos[1], pos[2], this.upSign, f);
    else this.floors.query(pos[0], pos[1], pos[2], this.upSign, f);
    out.hasFloor = f[FLOOR_ID]! >= 0;
    out.floor = f[FLOOR_Y]!;
    out.ceiling = f[CEILING_Y]!;
    out.material = 0;
    out.id = f[FLOOR_ID]!;
    out.status = 0;
    return out;
  }

  /** Index of the ceiling triangle found by the last `ground` call (−1 when none). */
  lastCeilingId(): number {
    return this.floorOut[CEILING_ID]!;
  }

  // --------------------------------------------------------------------------------------------- segment

  /** The fraction along the segment of its nearest hit on a floor or a wall, or −1; allocates nothing. */
  segmentFraction(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    this.trace(fx, fy, fz, tx, ty, tz);
    return this.hitFraction[0]!;
  }

  /**
   * The nearest hit on a floor triangle or a wall box: `what` is "floor" or "wall", `id` the triangle's or the
   * wall's index, the normal a unit vector facing the start. Ties go to the smaller fraction, then floors, then
   * the lower index.
   */
  segment(from: Vec3, to: Vec3, out: SegmentResult = newSegmentResult()): SegmentResult {
    const fx = from[0], fy = from[1], fz = from[2];
    const tx = to[0], ty = to[1], tz = to[2];
    this.trace(fx, fy, fz, tx, ty, tz);
    const t = this.hitFraction[0]!;
    out.hit = t >= 0;
    out.fraction = t >= 0 ? t : 1;
    const f = out.fraction;
    // Filled in place: a caller passing `out` gets no new arrays.
    setPointAlong(out.point, fx, fy, fz, tx, ty, tz, f);
    out.id = this.hitId;
    out.material = 0;
    out.status = 0;
    out.what = t < 0 ? '' : this.hitKind === 0 ? 'floor' : 'wall';
    setVec(out.normal, 0, 0, 0);
    if (t >= 0 && this.hitKind === 0) {
      // The triangle's plane normal, facing the segment's start (triangles are double-sided).
      const r = this.floors.tri;
      const o = this.hitId * TRI_STRIDE;
      const e1x = r[o + 3]!, e1z = r[o + 4]!, e1y = r[o + 5]!, e2x = r[o + 6]!, e2z = r[o + 7]!, e2y = r[o + 8]!;
      let nx = e1y * e2z - e1z * e2y;
      let ny = e1z * e2x - e1x * e2z;
      let nz = e1x * e2y - e1y * e2x;
      if (nx * (tx - fx) + ny * (ty - fy) + nz * (tz - fz) > 0) {
        nx = -nx;
        ny = -ny;
        nz = -nz;
      }
      const len = sqrtNewton(nx * nx + ny * ny + nz * nz);
      if (len > 0) setVec(out.normal, nx / len, ny / len, nz / len);
    } else if (t >= 0 && this.hitAxis >= 0) {
      const s = this.hitId * WALL_SEG_STRIDE;
      const a = this.hitAxis;
      const g = this.hitSign;
      if (a < 3) setVec(out.normal, g * this.wallSeg[s + a * 3]!, g * this.wallSeg[s + a * 3 + 1]!, g * this.wallSeg[s + a * 3 + 2]!);
      else setVec(out.normal, a === 3 ? g : 0, a === 4 ? g : 0, a === 5 ? g : 0);
    }
    return out;
  }

  /**
   * Nearest hit along from→to into hitFraction/hitKind/hitId; ties: smaller fraction, then floors, then lower index.
   * Walls first, then floors, each by a DDA over its grid (only the cells the segment's x/z path touches,
   * each item tested once per query by its stamp, cells and items out of the segment's height range there
   * skipped), stopping once the best hit lies before every cell still to come.
   */
  private trace(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): void {
    this.hitFraction[0] = -1;
    this.hitKind = 0;
    this.hitId = -1;
    this.hitAxis = -1;
    if (!(Number.isFinite(fx) && Number.isFinite(fy) && Number.isFinite(fz) && Number.isFinite(tx) && Number.isFinite(ty) && Number.isFinite(tz))) return;
    if (this.bruteForce) {
      for (let i = 0, n = this.file.wallCount; i < n; i++) this.traceItem(1, i, fx, fy, fz, tx, ty, tz);
      for (let i = 0, n = this.file.floorCount; i < n; i++) this.traceItem(0, i, fx, fy, fz, tx, ty, tz);
      return;
    }
    const stamp = this.nextStamp();
    if (this.file.wallCount > 0) this.walkGrid(1, this.wallGrid, this.wallStamp, stamp, fx, fy, fz, tx, ty, tz);
    if (this.file.floorCount > 0) this.walkGrid(0, this.floors.segmentGrid, this.floorStamp, stamp, fx, fy, fz, tx, ty, tz);
  }

  private walkGrid(kind: number, g: XZGrid, marks: Uint32Array, stamp: number, fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): void {
    const walk = this.walk;
    if (!walk.begin(g, fx, fy, fz, tx, ty, tz)) return;
    if (walk.everything) {
      // Hostile coordinates: every item, as bruteForce does (the walk's geometry means nothing there).
      for (let i = 0, n = kind === 0 ? this.file.floorCount : this.file.wallCount; i < n; i++) this.traceItem(kind, i, fx, fy, fz, tx, ty, tz);
      return;
    }
    const cellStart = g.cellStart, items = g.items, cellMinY = g.cellMinY, cellMaxY = g.cellMaxY, itemMinY = g.itemMinY, itemMaxY = g.itemMaxY;
    const range = walk.range;
    while (walk.next()) {
      const yLo = range[WALK_Y_LO]!, yHi = range[WALK_Y_HI]!;
      for (let k = 0, c = walk.first; k < walk.count; k++, c += walk.stride) {
        if (cellMaxY[c]! < yLo || cellMinY[c]! > yHi) continue;
        for (let e = cellStart[c]!, end = cellStart[c + 1]!; e < end; e++) {
          const i = items[e]!;
          // Out of height here is not stamped: the item may reach the segment in another column.
          if (marks[i] === stamp || itemMaxY[i]! < yLo || itemMinY[i]! > yHi) continue;
          marks[i] = stamp;
          this.traceItem(kind, i, fx, fy, fz, tx, ty, tz);
        }
      }
      const h = this.hitFraction[0]!;
      if (h >= 0 && h < range[WALK_T_NEXT]!) return;
    }
  }

  private nextStamp(): number {
    this.stamp = this.stamp >= STAMP_LIMIT ? 0 : this.stamp + 1;
    if (this.stamp === 0) {
      this.floorStamp.fill(0);
      this.wallStamp.fill(0);
      this.stamp = 1;
    }
    return this.stamp;
  }

  private traceItem(kind: number, i: number, fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): void {
    if (!(kind === 0 ? this.segmentTriangle(i, fx, fy, fz, tx, ty, tz) : this.segmentWall(i, fx, fy, fz, tx, ty, tz))) return;
    const t = itemFraction[0]!;
    const h = this.hitFraction[0]!;
    if (h < 0 || t < h || (t === h && (kind < this.hitKind || (kind === this.hitKind && i < this.hitId)))) {
      this.hitFraction[0] = t;
      this.hitKind = kind;
      this.hitId = i;
      if (kind === 1) {
        this.hitAxis = slabAxis;
        this.hitSign = slabSign;
      } else this.hitAxis = -1;
    }
  }

  /**
   * Segment against floor triangle i, double-sided (Möller–Trumbore, divisions deferred): true on a hit, its
   * fraction in itemFraction[0].
   */
  private segmentTriangle(i: number, fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): boolean {
    const r = this.floors.tri;
    const o = i * TRI_STRIDE;
    const dx = tx - fx, dy = ty - fy, dz = tz - fz;
    const e1x = r[o + 3]!, e1z = r[o + 4]!, e1y = r[o + 5]!, e2x = r[o + 6]!, e2z = r[o + 7]!, e2y = r[o + 8]!;
    const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
    let det = e1x * px + e1y * py + e1z * pz;
    if (det === 0) return false;
    const sx = fx - r[o]!, sy = fy - r[o + 2]!, sz = fz - r[o + 1]!;
    let sgn = 1;
    if (det < 0) {
      det = -det;
      sgn = -1;
    }
    // Written so that NaN fails them: with coordinates near 1e305 the products overflow, and ∞ − ∞ or 0 · ∞
    // made a NaN fraction pass `u < 0 || u > det` (found by a property test). A non-finite det is no answer.
    if (!(det < Infinity)) return false;
    const u = sgn * (sx * px + sy * py + sz * pz);
    if (!(u >= 0 && u <= det)) return false;
    const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
    const v = sgn * (dx * qx + dy * qy + dz * qz);
    if (!(v >= 0 && u + v <= det)) return false;
    const t = sgn * (e2x * qx + e2y * qy + e2z * qz);
    if (!(t >= 0 && t <= det)) return false;
    itemFraction[0] = t / det;
    return true;
  }

  /**
   * Segment against wall i's solid: the box {|u_a · (p − c)| ≤ h_a} (u_a the unit axes) intersected with its
   * world-axis reach box (which keeps the solid inside the broad phase's rectangle even for skewed axes).
   * True on a hit, the entry fraction (0 when the start is inside) in itemFraction[0]; sets slabAxis/slabSign
   * for the normal.
   */
  private segmentWall(i: number, fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): boolean {
    const s = i * WALL_SEG_STRIDE;
    const w = this.wallSeg;
    const b = i * BOX_WORDS;
    const ox = fx - this.wallBoxes[b]!, oy = fy - this.wallBoxes[b + 1]!, oz = fz - this.wallBoxes[b + 2]!;
    const dx = tx - fx, dy = ty - fy, dz = tz - fz;
    // Quick rejection by the reach box alone (the same slab arithmetic as below, so it rejects nothing the
    // full test would keep; the full test then runs in its own order, which picks the normal on ties).
    let lo = 0, hi = 1;
    for (let a = 0; a < 3; a++) {
      const o = a === 0 ? ox : a === 1 ? oy : oz;
      const d = a === 0 ? dx : a === 1 ? dy : dz;
      const h = w[s + 12 + a]!;
      if (!(h >= 0)) return false;
      if (d === 0) {
        if (o < -h || o > h) return false;
        continue;
      }
      const t0 = (-h - o) / d, t1 = (h - o) / d;
      if ((t0 < t1 ? t0 : t1) > lo) lo = t0 < t1 ? t0 : t1;
      if ((t0 < t1 ? t1 : t0) < hi) hi = t0 < t1 ? t1 : t0;
      if (lo > hi) return false;
    }
    let tIn = -Infinity;
    let tOut = Infinity;
    slabAxis = -1;
    slabSign = 0;
    for (let a = 0; a < 6; a++) {
      let o: number, d: number, h: number;
      if (a < 3) {
        const ux = w[s + a * 3]!, uy = w[s + a * 3 + 1]!, uz = w[s + a * 3 + 2]!;
        o = ux * ox + uy * oy + uz * oz;
        d = ux * dx + uy * dy + uz * dz;
        h = w[s + 9 + a]!;
      } else {
        o = a === 3 ? ox : a === 4 ? oy : oz;
        d = a === 3 ? dx : a === 4 ? dy : dz;
        h = w[s + 12 + a - 3]!;
      }
      if (!(h >= 0)) return false;
      if (d === 0) {
        if (o < -h || o > h) return false;
        continue;
      }
      let t0 = (-h - o) / d;
      let t1 = (h - o) / d;
      const enterSign = d > 0 ? -1 : 1;
      if (t0 > t1) {
        const x = t0;
        t0 = t1;
        t1 = x;
      }
      if (t0 > tIn) {
        tIn = t0;
        slabAxis = a;
        slabSign = enterSign;
      }
      if (t1 < tOut) tOut = t1;
      if (tIn > tOut) return false;
    }
    if (tOut < 0 || tIn > 1) return false;
    if (tIn <= 0) {
      slabAxis = -1;
      itemFraction[0] = 0;
      return true;
    }
    itemFraction[0] = tIn;
    return true;
  }

  // ------------------------------------------------------------------------------------------------ move

  /**
   * Moves the body by `delta` and pushes it out of every wall it then overlaps (each wall's push added, as the
   * engine does; a "wall" contact per wall), then puts its feet on the highest floor at or below them, looking
   * from `stepHeight` (default DEFAULT_STEP_HEIGHT) above (a "floor" contact). The body is a box: `halfExtents`
   * when given, else radius × height / 2 × radius, standing on its feet.
   */
  move(body: Body, from: Vec3, delta: Vec3, out: MoveResult = newMoveResult()): MoveResult {
    const up = this.upSign;
    let px = toFixedCoordinate(toFixedCoordinate(from[0]) + toFixedCoordinate(delta[0]));
    let py = toFixedCoordinate(toFixedCoordinate(from[1]) + toFixedCoordinate(delta[1]));
    let pz = toFixedCoordinate(toFixedCoordinate(from[2]) + toFixedCoordinate(delta[2]));
    const contacts: Contact[] = out.contacts;
    contacts.length = 0;
    // Walls: the body box against each wall, MTVs summed (the engine's `pos += mtv` per colliding wall).
    this.setBodyBox(body, px, py, pz);
    const walls = this.collidingWalls();
    let mx = 0, my = 0, mz = 0;
    const bb = this.body;
    for (const i of walls) {
      satPushOutAxisAligned(bb[0]!, bb[1]!, bb[2]!, bb[12]!, bb[13]!, bb[14]!, this.wallPrepared, i * PREPARED_WALL_WORDS, this.sat, this.wallResponse === 'touch-separates');
      if (this.sat[SAT_AXIS]! < 0) continue; // separated, or touching only: no push
      mx += this.sat[SAT_MTV_X]!;
      my += this.sat[SAT_MTV_X + 1]!;
      mz += this.sat[SAT_MTV_X + 2]!;
      contacts.push({ kind: 'wall', normal: [this.sat[SAT_NORMAL_X]! / 4096 + 0, this.sat[SAT_NORMAL_X + 1]! / 4096 + 0, this.sat[SAT_NORMAL_X + 2]! / 4096 + 0], id: i, material: 0 });
    }
    px = toFixedCoordinate(px + mx);
    py = toFixedCoordinate(py + my);
    pz = toFixedCoordinate(pz + mz);
    // Floor: the highest floor at or below the feet, looking from stepHeight above them.
    const step = body.stepHeight === undefined || !(body.stepHeight >= 0) ? DEFAULT_STEP_HEIGHT : toFixedCoordinate(body.stepHeight);
    const f = this.floorOut;
    const probeY = py + up * step;
    if (this.bruteForce) this.floors.queryAll(px, probeY, pz, up, f);
    else this.floors.query(px, probeY, pz, up, f);
    let grounded = false;
    if (f[FLOOR_ID]! >= 0) {
      py = toFixedCoordinate(snapFeetToFloor(f[FLOOR_Y]!, up));
      grounded = true;
      contacts.push({ kind: 'floor', normal: [0, up, 0], id: f[FLOOR_ID]!, material: 0 });
    }
    setVec(out.position, px, py, pz);
    out.grounded = grounded;
    return out;
  }

  /** The body as an axis-aligned box: halfExtents when given, else (radius, height / 2, radius), above the feet. */
  private setBodyBox(body: Body, px: number, py: number, pz: number): void {
    const he = body.halfExtents;
    const hx = Math.abs(toFixedCoordinate(he ? he[0] : body.radius));
    const hy = Math.abs(toFixedCoordinate(he ? he[1] : Math.trunc(body.height / 2)));
    const hz = Math.abs(toFixedCoordinate(he ? he[2] : body.radius));
    const b = this.body;
    b[0] = px;
    b[1] = toFixedCoordinate(py + this.upSign * hy);
    b[2] = pz;
    b.fill(0, 3, 12);
    b[3] = b[7] = b[11] = 4096;
    b[12] = hx;
    b[13] = hy;
    b[14] = hz;
  }

  /**
   * Walls whose reach box touches the body box (edges included), ascending. The SAT on the body's own
   * (world) axes separates every other wall, so this drops nothing the full test would keep.
   */
  private collidingWalls(): number[] {
    const out = this.hitWalls;
    out.length = 0;
    const b = this.body;
    const n = this.file.wallCount;
    if (n === 0) return out;
    if (this.bruteForce) {
      for (let i = 0; i < n; i++) if (this.reachTouchesBody(i)) out.push(i);
      return out;
    }
    const g = this.wallGrid;
    const minX = b[0]! - b[12]!, maxX = b[0]! + b[12]!, minZ = b[2]! - b[14]!, maxZ = b[2]! + b[14]!;
    if (maxX < g.minX || minX > g.maxX || maxZ < g.minZ || minZ > g.maxZ) return out;
    const stamp = this.nextStamp();
    const x0 = g.cellX(minX), x1 = g.cellX(maxX), z0 = g.cellZ(minZ), z1 = g.cellZ(maxZ);
    for (let gx = x0; gx <= x1; gx++) {
      for (let gz = z0; gz <= z1; gz++) {
        const c = gx * g.nz + gz;
        for (let k = g.cellStart[c]!, end = g.cellStart[c + 1]!; k < end; k++) {
          const i = g.items[k]!;
          if (this.wallStamp[i] === stamp) continue;
          this.wallStamp[i] = stamp;
          if (this.reachTouchesBody(i)) out.push(i);
        }
      }
    }
    out.sort(ascending);
    return out;
  }

  private reachTouchesBody(i: number): boolean {
    const b = this.body;
    const s = i * WALL_SEG_STRIDE + 12;
    const c = i * BOX_WORDS;
    for (let k = 0; k < 3; k++) {
      const d = Math.abs(b[k]! - this.wallBoxes[c + k]!);
      if (d > b[12 + k]! + this.wallSeg[s + k]!) return false;
    }
    return true;
  }

  // ------------------------------------------------------------------------------------- spawn / sample

  /** True when a body standing at `feet` overlaps a wall with a positive penetration. */
  bodyInWall(body: Body, feet: Vec3): boolean {
    this.setBodyBox(body, toFixedCoordinate(feet[0]), toFixedCoordinate(feet[1]), toFixedCoordinate(feet[2]));
    const bb = this.body;
    for (const i of this.collidingWalls()) {
      satPushOutAxisAligned(bb[0]!, bb[1]!, bb[2]!, bb[12]!, bb[13]!, bb[14]!, this.wallPrepared, i * PREPARED_WALL_WORDS, this.sat, true);
      if (this.sat[SAT_AXIS]! >= 0) return true;
    }
    return false;
  }

  /** The top-most floor at (x, z) (probing from above the whole level), as feet coordinates, or null. */
  private standAt(x: number, z: number): Vec3 | null {
    const top = this.upSign < 0 ? this.bounds.min[1] - 1 : this.bounds.max[1] + 1;
    this.floors.query(x, top, z, this.upSign, this.floorOut);
    if (this.floorOut[FLOOR_ID]! < 0) return null;
    return [x, snapFeetToFloor(this.floorOut[FLOOR_Y]!, this.upSign), z];
  }

  /** The centroid of floor triangle 0 standing on the top-most floor there; the bounds' centre without floors. */
  spawnPoint(): Vec3 {
    const v = this.file.floorVertices;
    if (this.file.floorCount > 0) {
      const x = Math.trunc((v[0]! + v[3]! + v[6]!) / 3);
      const z = Math.trunc((v[2]! + v[5]! + v[8]!) / 3);
      const p = this.standAt(x, z);
      if (p) return p;
    }
    const { min, max } = this.bounds;
    return [Math.trunc((min[0] + max[0]) / 2), Math.trunc((min[1] + max[1]) / 2), Math.trunc((min[2] + max[2]) / 2)];
  }

  /** (u, v) in [0, 1)² → a point over the level's x/z bounds, on its top-most floor, clear of walls for DEFAULT_BODY. */
  sampleOpen(u: number, v: number): Vec3 | null {
    if (!(u >= 0 && u < 1 && v >= 0 && v < 1)) return null;
    const { min, max } = this.bounds;
    const x = min[0] + Math.floor(u * (max[0] - min[0] + 1));
    const z = min[2] + Math.floor(v * (max[2] - min[2] + 1));
    const p = this.standAt(x, z);
    if (!p || this.bodyInWall(DEFAULT_BODY, p)) return null;
    return p;
  }
}

const ascending = (p: number, q: number): number => p - q;

/** Writes a vector in place, turning −0 into 0 so results compare and print cleanly. */
function setVec(v: Vec3, x: number, y: number, z: number): void {
  v[0] = x + 0;
  v[1] = y + 0;
  v[2] = z + 0;
}

/**
 * The fraction of the last item test's hit. A typed array, not a return value: a double returned by a call
 * the compiler does not inline is boxed, an allocation per test.
 */
const itemFraction = new Float64Array(1);

// Which slab the last wall trace entered through (0–2: wall axes, 3–5: world x/y/z) and the normal's sign.
let slabAxis = -1;
let slabSign = 0;
