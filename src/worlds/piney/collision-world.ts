/**
 * A generated Piney field as a CollisionWorld: the game's units (600 per cell, 48,000 across, a torus) and
 * axes (z up). `ground` is GetHeight's triangle height; `segment` / `segmentFraction` cast against the
 * height field's triangles (the split GetHeight uses) and the objects' footprints; `move` slides a body
 * around the footprints and keeps its feet on GetHeight.
 *
 * The field spec a world is loaded from is spec.ts's; the field's drawing data (PineyScene, the vertex
 * colours) is scene.ts's.
 */
import { eeToNumber } from '../../numeric/ee-float.js';
import { detSqrt } from '../../numeric/det-math.js';
import {
  newGroundResult,
  newMoveBatch,
  newMoveResult,
  newSegmentResult,
  type Body,
  type Bounds,
  type CollisionWorld,
  type Contact,
  type GroundResult,
  type MoveBatch,
  type MoveResult,
  type SegmentResult,
  type UpAxis,
  type Vec3,
} from '../world.js';
import { setContactAt, setGroundMiss, setPointAlong, setSegmentMiss } from '../results.js';
import { CELLS, CELL_UNITS, CHIP_UNITS, CHIPS, FIELD_SIZE, type FieldParams, type PineyField } from './field-state.js';
import { checkFieldParams, generateField } from './generate.js';
import { HeightQuery } from './get-height.js';
import { HeightCache } from './height-cache.js';
import { type PineyTables } from './tables.js';
import { parsePineyFieldSpec, type PineyFieldSpec } from './spec.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { FieldSegmentCaster, MAX_SEGMENT_CELLS } from './segment-cast.js';
import { pineyCastWasmError, pineyCastWasmModule, WasmFieldCaster } from './segment-cast-wasm.js';
import { checkWasmMode, wasmAutoChoice, type WasmMode } from '../wasm-mode.js';

/** The spec parser, also reachable here for modules that import it with the loader (its home is spec.ts). */

/**
 * How tall an object's footprint blocks. The reference gives no object collision, so every object is a
 * column over its footprint from below the ground to its z plus this (a little above a character's head).
 */
export const OBJECT_BLOCK_HEIGHT = 1200;
/** Native units per metre, roughly (a .hack character is about 180 units tall). */
export const PINEY_SCALE = 100;
export { MAX_SEGMENT_CELLS } from './segment-cast.js';
/** A move is split into steps no longer than this, so a body cannot jump over a one-chip object. */
const MOVE_STEP = CHIP_UNITS / 4;
const MAX_MOVE_STEPS = 4096;
/** A body's radius is taken as at most this (4 chips), so a hostile radius cannot make a query scan forever. */
export const MAX_BODY_RADIUS = 4 * CHIP_UNITS;

/** Reduces a coordinate onto the torus: the same place in [0, 48000). Non-finite input gives NaN. */
export function wrapField(v: number): number {
  if (v > 0 && v < FIELD_SIZE) return v; // already on the torus (most calls): skip the division
  const r = v % FIELD_SIZE;
  if (r >= 0) return r + 0; // + 0 turns −0 into +0
  const w = r + FIELD_SIZE;
  // A tiny negative r rounds up to exactly 48000, which is the same place as 0.
  return w >= FIELD_SIZE ? 0 : w;
}

// Indices are nearly always on the grid already: skip the two integer divisions then.
const wrapCell = (i: number): number => (i >= 0 && i < CELLS ? i : ((i % CELLS) + CELLS) % CELLS);
const wrapChip = (i: number): number => (i >= 0 && i < CHIPS ? i : ((i % CHIPS) + CHIPS) % CHIPS);

/**
 * A generated Piney field as a CollisionWorld, in the game's units (600 per cell, 48,000 across, z up) on a
 * torus: positions wrap. `ground` is GetHeight's triangle height, bit for bit; `segment` casts against the
 * terrain's triangles and the objects, each object a column over its footprint up to OBJECT_BLOCK_HEIGHT above
 * its base; `move` slides a body (a circle of its radius) around the footprints, feet on the ground. The field
 * has no run-time state: the same spec gives the same world.
 */
export class PineyWorld implements CollisionWorld {
  readonly kind = 'piney' as const;
  readonly bounds: Bounds;
  readonly up: UpAxis = { axis: 2, sign: 1 };
  readonly scale = PINEY_SCALE;
  readonly integer = false;
  /** Heights as doubles (exact values of the EE floats), x-major. */
  readonly heights = new Float64Array(CELLS * CELLS);
  /** Per chip, the index in field.objects of the object whose footprint covers it, or −1. */
  readonly blocker = new Int16Array(CHIPS * CHIPS).fill(-1);
  /** Per object, the top of its blocking column. */
  readonly blockerTop: Float64Array;
  /** @internal GetHeight with its per-cell constants cached (bit-identical to getHeight on this field's final map). */
  readonly heightQuery: HeightQuery;
  /** @internal GetHeight's fast path over the same map (bit-identical too), every cell prepared at load. */
  readonly heightCache: HeightCache;
  private readonly maxTop: number;
  /** The fast cast behind segmentFraction (the same answers as `cast`, its reference). */
  private readonly caster: FieldSegmentCaster;
  /** The same cast in WebAssembly, for batches, when the world's `WasmMode` chose it; null otherwise. */
  /** The kernel this world runs (null: the JavaScript cast), and its instance, made on the first batch and kept. */
  private wasmModule: WebAssembly.Module | null = null;
  private wasmCaster: WasmFieldCaster | null = null;
  private mode: WasmMode = 'auto';
  // The last cast's hit, kept in fields so segmentFraction allocates nothing.
  private hitWhat: 'floor' | 'object' = 'floor';
  private hitId = -1;
  private hitNx = 0;
  private hitNy = 0;
  private hitNz = 0;
  // The contact objects last written into `contactsOf`'s contacts, by index (see setContact).
  private contactsOf: MoveResult | undefined;
  private readonly contactPool: Contact[] = [];
  // move's one-body batch, and the last walk's wall direction (walkBody).
  private readonly one = newMoveBatch(1);
  private readonly wallDir = new Float64Array(2);
  // moveMany's lanes: the bodies whose ground is asked, and their x, y and height.
  private moveLane = new Int32Array(0);
  private moveQx = new Float64Array(0);
  private moveQy = new Float64Array(0);
  private moveQz = new Float64Array(0);

  /**
   * @param field the generated field
   * @param name the world's name
   * @param wasm whether `segmentFractions` runs the WebAssembly kernel (`WasmMode`; `auto` by default). The
   *   answers are the same either way, bit for bit. `on` throws an Error when this engine cannot compile it.
   */
  constructor(
    readonly field: PineyField,
    readonly name: string,
    wasm: WasmMode = 'auto',
  ) {
    this.heightCache = new HeightCache(field.map, field.check3).prepareAll();
    this.heightQuery = this.heightCache.exact;
    let top = 0;
    for (let i = 0; i < this.heights.length; i++) {
      const h = eeToNumber(field.map[i]!);
      this.heights[i] = h;
      if (h > top) top = h;
    }
    this.blockerTop = new Float64Array(field.objects.length);
    field.objects.forEach((o, k) => {
      const z = eeToNumber(o.z);
      this.blockerTop[k] = (z > 0 ? z : 0) + OBJECT_BLOCK_HEIGHT;
      if (this.blockerTop[k]! > top) top = this.blockerTop[k]!;
      for (let i = o.x; i < Math.min(o.x + o.w, CHIPS); i++) {
        for (let j = o.y; j < Math.min(o.y + o.h, CHIPS); j++) this.blocker[i * CHIPS + j] = k;
      }
    });
    this.maxTop = top;
    this.bounds = { min: [0, 0, 0], max: [FIELD_SIZE, FIELD_SIZE, top] };
    this.caster = new FieldSegmentCaster(this.heights, this.blocker, this.blockerTop, top);
    this.setWasm(wasm);
  }

  /**
   * Sets whether `segmentFractions` runs the WebAssembly kernel (`WasmMode`) and says whether it now does. The
   * answers are the same either way, bit for bit. `on` throws an Error when this engine cannot compile it.
   */
  setWasm(mode: WasmMode): boolean {
    checkWasmMode(mode, 'PineyWorld.setWasm');
    // auto: only where the kernel was measured faster (wasmAutoChoice); then, as on, only if it compiles.
    const module = mode === 'off' || (mode === 'auto' && !wasmAutoChoice(true)) ? null : pineyCastWasmModule();
    if (module === null && mode === 'on') throw new Error(`the WebAssembly line-of-sight kernel does not compile on this engine: ${pineyCastWasmError()}`);
    this.wasmModule = module;
    this.mode = mode;
    return this.wasmModule !== null;
  }

  /** The mode last set (`setWasm`, or the constructor's `wasm`). */
  get wasmMode(): WasmMode {
    return this.mode;
  }

  /** Whether `segmentFractions` runs the WebAssembly kernel (see the constructor's `wasm`). */
  get wasmKernels(): boolean {
    return this.wasmModule !== null;
  }

  /** GetHeight's triangle height at (x, y) (wrapped onto the torus), as a double. */
  heightAt(x: number, y: number): number {
    const z = this.heightCache.surfaceAt(wrapField(x), wrapField(y));
    // The EE cast can miss by a hair on a cell edge (−1, MISS_HEIGHT's value); the plane's own height answers then.
    return z === -1 ? this.planeHeight(x, y) : z;
  }

  /** The height field's plane at (x, y) in doubles (the same triangle split as GetHeight). */
  planeHeight(x: number, y: number): number {
    const wx = wrapField(x);
    const wy = wrapField(y);
    const ix = Math.min(CELLS - 1, Math.floor(wx / CELL_UNITS));
    const iy = Math.min(CELLS - 1, Math.floor(wy / CELL_UNITS));
    return this.cellPlane(ix, iy, (wx - ix * CELL_UNITS) / CELL_UNITS, (wy - iy * CELL_UNITS) / CELL_UNITS);
  }

  /** Height inside cell (ix, iy) at local fractions (u, v) ∈ [0, 1]: T0 when v ≥ u, else T1. */
  private cellPlane(ix: number, iy: number, u: number, v: number): number {
    const h = this.heights;
    const x0 = wrapCell(ix) * CELLS;
    const x1 = wrapCell(ix + 1) * CELLS;
    const y0 = wrapCell(iy);
    const y1 = wrapCell(iy + 1);
    const h00 = h[x0 + y0]!;
    const h11 = h[x1 + y1]!;
    if (v >= u) {
      const h01 = h[x0 + y1]!;
      return h00 + (h11 - h01) * u + (h01 - h00) * v;
    }
    const h10 = h[x1 + y0]!;
    return h00 + (h10 - h00) * u + (h11 - h10) * v;
  }

  private blockerAt(x: number, y: number): number {
    const cx = wrapChip(Math.floor(x / CHIP_UNITS));
    const cy = wrapChip(Math.floor(y / CHIP_UNITS));
    return this.blocker[cx * CHIPS + cy]!;
  }

  /** The field's start position, feet on the ground. */
  spawnPoint(): Vec3 {
    const f = this.field;
    const x = eeToNumber(f.startPos[0]);
    const y = eeToNumber(f.startPos[1]);
    return [x, y, this.heightAt(x, y)];
  }

  /** The ground at (u, v) of the field (each in [0, 1)), or null on an object's footprint. */
  sampleOpen(u: number, v: number): Vec3 | null {
    if (!(u >= 0 && u < 1 && v >= 0 && v < 1)) return null;
    const x = u * FIELD_SIZE;
    const y = v * FIELD_SIZE;
    if (this.blockerAt(x, y) >= 0) return null;
    return [x, y, this.heightAt(x, y)];
  }

  /**
   * GetHeight's height under (x, y) (wrapped onto the torus) as the floor, with no ceiling; `hasFloor` is false
   * only for a point below the ground. `id` is the triangle, (cell · 2 + triangle), and `status` 1 where the game's
   * GetHeight itself answers −500 (a chip hidden under a levelled object or the lake). Non-finite x or y: no floor.
   */
  ground(pos: Vec3, out: GroundResult = newGroundResult()): GroundResult {
    const [x, y, z] = pos;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return setGroundMiss(out);
    out.ceiling = NaN;
    out.material = 0;
    const wx = wrapField(x);
    const wy = wrapField(y);
    const floor = this.heightAt(wx, wy);
    const ix = Math.min(CELLS - 1, Math.floor(wx / CELL_UNITS));
    const iy = Math.min(CELLS - 1, Math.floor(wy / CELL_UNITS));
    const tri = wy - iy * CELL_UNITS >= wx - ix * CELL_UNITS ? 0 : 1;
    out.floor = floor;
    // A point with no height (z NaN) still gets the floor under it; a point below the ground has none.
    out.hasFloor = !(z < floor - 1e-6);
    out.id = (ix * CELLS + iy) * 2 + tri;
    // Status 1: GetHeight itself would answer −500 here (a chip hidden under a levelled object or the lake).
    out.status = this.heightCache.hiddenAt(wx, wy) ? 1 : 0;
    return out;
  }

  /**
   * The first hit's fraction along the segment, or −1: the fast cast (`FieldSegmentCaster`), equal to the
   * cast `segment` makes (see `segmentFractionReference`).
   */
  segmentFraction(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    return this.caster.cast(fx, fy, fz, tx, ty, tz);
  }

  /** `segmentFraction` of a batch of segments, as stages over the batch (`FieldSegmentCaster.castMany`); the same answers. */
  segmentFractions(segments: Float64Array, start: number, end: number, out: Float64Array): void {
    if (this.wasmModule !== null) {
      this.wasmCaster ??= new WasmFieldCaster(this.wasmModule, this.heights, this.caster.squareTop, this.blocker, this.blockerTop, this.maxTop);
      this.wasmCaster.castMany(segments, start, end, out);
    } else this.caster.castMany(segments, start, end, out);
  }

  /** `segmentFraction` through the cast `segment` makes, testing every cell: the oracle of the fast cast. */
  segmentFractionReference(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    return this.cast(fx, fy, fz, tx, ty, tz);
  }

  /**
   * The first hit on the terrain (`what` "floor", `id` the triangle) or an object's column (`what` "object", `id`
   * its index in `field.objects`), with a unit normal. Segments are followed for at most MAX_SEGMENT_CELLS cells.
   */
  segment(from: Vec3, to: Vec3, out: SegmentResult = newSegmentResult()): SegmentResult {
    const t = this.cast(from[0], from[1], from[2], to[0], to[1], to[2]);
    out.material = 0;
    out.status = 0;
    if (t < 0) return setSegmentMiss(out, to[0], to[1], to[2]);
    out.hit = true;
    out.fraction = t;
    setPointAlong(out.point, from[0], from[1], from[2], to[0], to[1], to[2], t);
    out.normal[0] = this.hitNx;
    out.normal[1] = this.hitNy;
    out.normal[2] = this.hitNz;
    out.id = this.hitId;
    out.what = this.hitWhat;
    return out;
  }

  /**
   * The first hit's fraction along the segment, or −1: walks the cells under the segment (a 2D DDA on the
   * 600-unit grid) and tests, in each, the terrain (two planes split at the diagonal) and the chip's object
   * column. Allocation-free; the hit's details are left in this.hit*.
   */
  private cast(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    if (!(Number.isFinite(fx) && Number.isFinite(fy) && Number.isFinite(fz) && Number.isFinite(tx) && Number.isFinite(ty) && Number.isFinite(tz))) return -1;
    const dx = tx - fx;
    const dy = ty - fy;
    const dz = tz - fz;
    // Coordinates so far apart that their difference overflows: no defined segment, no hit.
    if (!(Number.isFinite(dx) && Number.isFinite(dy) && Number.isFinite(dz))) return -1;
    // Both ends above every surface and blocker: nothing to hit. Otherwise only the part at or below the
    // highest top needs walking.
    let tEnd = 1;
    if (fz > this.maxTop && tz > this.maxTop) return -1;
    if (fz > this.maxTop) {
      // Skip the part above everything.
      const tIn = (this.maxTop - fz) / dz;
      return this.walk(fx, fy, fz, dx, dy, dz, tIn, tEnd);
    }
    if (tz > this.maxTop) tEnd = (this.maxTop - fz) / dz;
    return this.walk(fx, fy, fz, dx, dy, dz, 0, tEnd);
  }

  private walk(fx: number, fy: number, fz: number, dx: number, dy: number, dz: number, t0: number, t1: number): number {
    // Limit the horizontal travel to MAX_SEGMENT_CELLS cells.
    const cellsX = Math.abs(dx) / CELL_UNITS;
    const cellsY = Math.abs(dy) / CELL_UNITS;
    const span = (cellsX + cellsY) * (t1 - t0);
    if (span > MAX_SEGMENT_CELLS) t1 = t0 + (MAX_SEGMENT_CELLS / (cellsX + cellsY));
    let ix = Math.floor((fx + dx * t0) / CELL_UNITS);
    let iy = Math.floor((fy + dy * t0) / CELL_UNITS);
    const stepX = dx > 0 ? 1 : dx < 0 ? -1 : 0;
    const stepY = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    const invX = dx !== 0 ? 1 / dx : Infinity;
    const invY = dy !== 0 ? 1 / dy : Infinity;
    let nextX = stepX > 0 ? ((ix + 1) * CELL_UNITS - fx) * invX : stepX < 0 ? (ix * CELL_UNITS - fx) * invX : Infinity;
    let nextY = stepY > 0 ? ((iy + 1) * CELL_UNITS - fy) * invY : stepY < 0 ? (iy * CELL_UNITS - fy) * invY : Infinity;
    const dtX = stepX !== 0 ? CELL_UNITS * Math.abs(invX) : Infinity;
    const dtY = stepY !== 0 ? CELL_UNITS * Math.abs(invY) : Infinity;
    let ta = t0;
    let enteredX = false;
    let enteredY = false;
    for (let guard = 0; guard <= 2 * MAX_SEGMENT_CELLS + 4 && ta <= t1; guard++) {
      const tb = Math.min(nextX, nextY, t1);
      const t = this.testCell(ix, iy, fx, fy, fz, dx, dy, dz, ta, tb, enteredX ? -stepX : 0, enteredY ? -stepY : 0);
      if (t >= 0) return t;
      if (tb >= t1) break;
      enteredX = enteredY = false;
      if (nextX <= nextY) {
        ix += stepX;
        ta = nextX;
        nextX += dtX;
        enteredX = true;
      } else {
        iy += stepY;
        ta = nextY;
        nextY += dtY;
        enteredY = true;
      }
    }
    return -1;
  }

  /** Tests one cell over [ta, tb]; (sx, sy) is the face normal of the side the segment came in by. */
  private testCell(
    ix: number, iy: number,
    fx: number, fy: number, fz: number,
    dx: number, dy: number, dz: number,
    ta: number, tb: number,
    sx: number, sy: number,
  ): number {
    const ox = ix * CELL_UNITS;
    const oy = iy * CELL_UNITS;
    // The object column of this cell's chip.
    const k = this.blocker[wrapChip(ix >> 1) * CHIPS + wrapChip(iy >> 1)]!;
    let best = -1;
    if (k >= 0) {
      const top = this.blockerTop[k]!;
      const za = fz + dz * ta;
      const zb = fz + dz * tb;
      if (za <= top) {
        best = ta;
        this.setHit('object', k, sx, sy, sx === 0 && sy === 0 ? 1 : 0);
      } else if (zb <= top) {
        best = ta + ((za - top) / (za - zb)) * (tb - ta);
        this.setHit('object', k, 0, 0, 1);
      }
    }
    // Terrain: g(t) = z(t) − plane(t), linear on each side of the diagonal u = v.
    // Where the segment crosses the diagonal inside the cell, if it does.
    const du = dx / CELL_UNITS;
    const dv = dy / CELL_UNITS;
    const u0 = (fx - ox) / CELL_UNITS;
    const v0 = (fy - oy) / CELL_UNITS;
    let tm = -1;
    if (du !== dv) {
      const tc = (u0 - v0) / (dv - du);
      if (tc > ta && tc < tb) tm = tc;
    }
    const pieces = tm > 0 ? 2 : 1;
    let a = ta;
    let ga = this.aboveGround(ix, iy, fx, fy, fz, dx, dy, dz, ta);
    for (let p = 0; p < pieces; p++) {
      const b = p === 0 && pieces === 2 ? tm : tb;
      if (best >= 0 && a >= best) break;
      const gb = this.aboveGround(ix, iy, fx, fy, fz, dx, dy, dz, b);
      let t = -1;
      if (ga <= 0) t = a;
      else if (gb <= 0) t = a + (ga / (ga - gb)) * (b - a);
      if (t >= 0 && (best < 0 || t < best)) {
        best = t;
        const u = Math.min(1, Math.max(0, u0 + du * t));
        const v = Math.min(1, Math.max(0, v0 + dv * t));
        this.setTerrainNormal(ix, iy, u, v);
        break;
      }
      a = b;
      ga = gb;
    }
    return best;
  }

  /** How far the segment's point at t is above cell (ix, iy)'s surface (local coordinates clamped to the cell). */
  private aboveGround(ix: number, iy: number, fx: number, fy: number, fz: number, dx: number, dy: number, dz: number, t: number): number {
    const u = (fx + dx * t - ix * CELL_UNITS) / CELL_UNITS;
    const v = (fy + dy * t - iy * CELL_UNITS) / CELL_UNITS;
    return fz + dz * t - this.cellPlane(ix, iy, Math.min(1, Math.max(0, u)), Math.min(1, Math.max(0, v)));
  }

  private setHit(what: 'floor' | 'object', id: number, nx: number, ny: number, nz: number): void {
    this.hitWhat = what;
    this.hitId = id;
    this.hitNx = nx;
    this.hitNy = ny;
    this.hitNz = nz;
  }

  /** The unit normal of the triangle under local (u, v) of cell (ix, iy). */
  private setTerrainNormal(ix: number, iy: number, u: number, v: number): void {
    const h = this.heights;
    const x0 = wrapCell(ix) * CELLS;
    const x1 = wrapCell(ix + 1) * CELLS;
    const y0 = wrapCell(iy);
    const y1 = wrapCell(iy + 1);
    const h00 = h[x0 + y0]!;
    const h11 = h[x1 + y1]!;
    let sx: number;
    let sy: number;
    let tri: number;
    if (v >= u) {
      const h01 = h[x0 + y1]!;
      sx = (h11 - h01) / CELL_UNITS;
      sy = (h01 - h00) / CELL_UNITS;
      tri = 0;
    } else {
      const h10 = h[x1 + y0]!;
      sx = (h10 - h00) / CELL_UNITS;
      sy = (h11 - h10) / CELL_UNITS;
      tri = 1;
    }
    const len = detSqrt(sx * sx + sy * sy + 1);
    this.setHit('floor', (wrapCell(ix) * CELLS + wrapCell(iy)) * 2 + tri, -sx / len, -sy / len, 1 / len);
  }

  /**
   * Moves a body across the ground in steps of a quarter chip, sliding along an object's footprint it would
   * overlap (a "wall" contact), and puts its feet on the ground at the end (always grounded, a "floor" contact).
   * The body is a circle of `body.radius` (at most MAX_BODY_RADIUS); the result is wrapped onto the torus and
   * delta's z is ignored.
   */
  move(body: Body, from: Vec3, delta: Vec3, out: MoveResult = newMoveResult()): MoveResult {
    // One body through moveMany's walk (the one copy of the rules), then its ground and contacts.
    const b = this.one;
    b.x[0] = from[0];
    b.y[0] = from[1];
    b.dx[0] = delta[0];
    b.dy[0] = delta[1];
    b.radius[0] = body.radius;
    if (!this.walkBody(b, 0)) {
      out.position[0] = from[0];
      out.position[1] = from[1];
      out.position[2] = from[2];
      out.grounded = false;
      out.contacts.length = 0;
      return out;
    }
    let contacts = 0;
    const x = b.x[0]!;
    const y = b.y[0]!;
    out.position[0] = x;
    out.position[1] = y;
    out.position[2] = this.heightAt(x, y);
    out.grounded = true;
    const wallX = this.wallDir[0]!;
    const wallY = this.wallDir[1]!;
    if (wallX !== 0 || wallY !== 0) {
      const n = wallX !== 0 && wallY !== 0 ? Math.SQRT1_2 : 1;
      this.setContact(out, contacts++, 'wall', wallX * n, wallY * n, 0, b.wall[0]!);
    }
    this.setContact(out, contacts++, 'floor', 0, 0, 1, -1);
    // Setting an array's length is a runtime call even when nothing changes.
    if (out.contacts.length !== contacts) out.contacts.length = contacts;
    return out;
  }

  /**
   * `move` for the first n bodies of a batch, bit for bit (see `MoveBatch`), in two stages: every body's
   * walk around the footprints; then the batch's ground heights in one `surfacesAt` (the height query's EE
   * chains overlap there instead of running one after another).
   */
  moveMany(batch: MoveBatch, n: number): void {
    if (n > this.moveLane.length) this.growMoveLanes(n);
    const lane = this.moveLane;
    const qx = this.moveQx;
    const qy = this.moveQy;
    const qz = this.moveQz;
    let m = 0;
    for (let i = 0; i < n; i++) {
      if (!this.walkBody(batch, i)) continue;
      lane[m] = i;
      qx[m] = batch.x[i]!;
      qy[m] = batch.y[i]!;
      m++;
    }
    // The ground under every body that moved, as `heightAt` (x and y are on the torus already).
    this.heightCache.surfacesAt(qx, qy, qz, m);
    const bz = batch.z;
    for (let l = 0; l < m; l++) {
      const z = qz[l]!;
      bz[lane[l]!] = z === -1 ? this.planeHeight(qx[l]!, qy[l]!) : z;
    }
  }

  /**
   * Body i's walk: steps of at most a quarter chip, sliding along an object's footprint it would overlap.
   * Returns false, leaving it where it stands (not grounded, no contact), when its position or delta is not
   * finite; else writes its wrapped end into x[i], y[i], grounded[i] = 1, hitWall[i] and wall[i] (the
   * footprint next to it), and the wall's direction into `wallDir` (0, 0 for none).
   */
  private walkBody(batch: MoveBatch, i: number): boolean {
    const br = batch.radius[i]!;
    const r = Number.isFinite(br) && br > 0 ? Math.min(br, MAX_BODY_RADIUS) : 0;
    let x = batch.x[i]!;
    let y = batch.y[i]!;
    const ddx = batch.dx[i]!;
    const ddy = batch.dy[i]!;
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(ddx) && Number.isFinite(ddy))) {
      batch.grounded[i] = 0;
      batch.hitWall[i] = 0;
      batch.wall[i] = -1;
      return false;
    }
    const len = Math.abs(ddx) + Math.abs(ddy);
    // A move of at most one step (a walk: the usual case) skips the three divisions; the values are the same
    // (len ≤ MOVE_STEP gives ceil(len / MOVE_STEP) ≤ 1, and d / 1 is d).
    const steps = len <= MOVE_STEP ? 1 : Math.min(MAX_MOVE_STEPS, Math.ceil(len / MOVE_STEP));
    const sx = steps === 1 ? ddx : ddx / steps;
    const sy = steps === 1 ? ddy : ddy / steps;
    let wallX = 0;
    let wallY = 0;
    const blocker = this.blocker;
    for (let s = 0; s < steps; s++) {
      const tx = x + sx;
      const ty = y + sy;
      // blockerNear's usual case, a circle inside one chip with no object, written out: a call that is not
      // inlined would box its numbers, an allocation per move. Any other case asks `blocked`.
      const wx = wrapField(tx);
      const wy = wrapField(ty);
      const c0 = Math.floor((wx - r) / CHIP_UNITS);
      const d0 = Math.floor((wy - r) / CHIP_UNITS);
      const clear = c0 === Math.floor((wx + r) / CHIP_UNITS) && d0 === Math.floor((wy + r) / CHIP_UNITS) && blocker[wrapChip(c0) * CHIPS + wrapChip(d0)]! < 0;
      if (clear || !this.blocked(tx, ty, r)) {
        x = tx;
        y = ty;
      } else if (sx !== 0 && !this.blocked(x + sx, y, r)) {
        x += sx;
        wallY = sy > 0 ? -1 : 1;
      } else if (sy !== 0 && !this.blocked(x, y + sy, r)) {
        y += sy;
        wallX = sx > 0 ? -1 : 1;
      } else {
        wallX = sx > 0 ? -1 : sx < 0 ? 1 : 0;
        wallY = sy > 0 ? -1 : sy < 0 ? 1 : 0;
        break;
      }
    }
    x = wrapField(x);
    y = wrapField(y);
    batch.x[i] = x;
    batch.y[i] = y;
    batch.grounded[i] = 1;
    const wall = wallX !== 0 || wallY !== 0;
    batch.hitWall[i] = wall ? 1 : 0;
    batch.wall[i] = wall ? this.blockerNear(x, y, r) : -1;
    this.wallDir[0] = wallX;
    this.wallDir[1] = wallY;
    return true;
  }

  private growMoveLanes(n: number): void {
    const cap = Math.max(n, 2 * this.moveLane.length, 256);
    this.moveLane = new Int32Array(cap);
    this.moveQx = new Float64Array(cap);
    this.moveQy = new Float64Array(cap);
    this.moveQz = new Float64Array(cap);
  }

  /**
   * Writes contact `i` of a move result into the contact object already there, or else into the one this
   * world last put at `i` for the same `out` (a caller that empties `out.contacts` before every move, as the
   * movement system does, would otherwise cost an allocation per move), or a new one.
   */
  private setContact(out: MoveResult, i: number, kind: string, nx: number, ny: number, nz: number, id: number): void {
    if (this.contactsOf !== out) {
      this.contactsOf = out;
      this.contactPool.length = 0;
    }
    this.contactPool[i] = setContactAt(out.contacts, i, kind, nx, ny, nz, id, 0, this.contactPool[i]);
  }

  /** Whether a circle of radius r at (x, y) overlaps an object's footprint (on the torus). */
  blocked(x: number, y: number, r: number): boolean {
    if (!(Number.isFinite(x) && Number.isFinite(y))) return false;
    return this.blockerNear(x, y, Number.isFinite(r) && r > 0 ? Math.min(r, MAX_BODY_RADIUS) : 0) >= 0;
  }

  private blockerNear(x: number, y: number, r: number): number {
    // The field is a torus: wrap first, so that a huge coordinate (where x + CHIP_UNITS == x) cannot make the
    // chip loop below run forever. The answer is the same, since the field's size is a whole number of chips.
    x = wrapField(x);
    y = wrapField(y);
    const c0 = Math.floor((x - r) / CHIP_UNITS);
    const c1 = Math.floor((x + r) / CHIP_UNITS);
    const d0 = Math.floor((y - r) / CHIP_UNITS);
    const d1 = Math.floor((y + r) / CHIP_UNITS);
    for (let cx = c0; cx <= c1; cx++) {
      for (let cy = d0; cy <= d1; cy++) {
        const k = this.blocker[wrapChip(cx) * CHIPS + wrapChip(cy)]!;
        if (k < 0) continue;
        // Distance from the centre to the chip square.
        const qx = Math.max(cx * CHIP_UNITS, Math.min(x, (cx + 1) * CHIP_UNITS));
        const qy = Math.max(cy * CHIP_UNITS, Math.min(y, (cy + 1) * CHIP_UNITS));
        const ex = x - qx;
        const ey = y - qy;
        if (ex * ex + ey * ey < r * r || (r === 0 && ex === 0 && ey === 0 && x < (cx + 1) * CHIP_UNITS && y < (cy + 1) * CHIP_UNITS)) return k;
      }
    }
    return -1;
  }
}


/**
 * Generates the field a spec describes and wraps it as a CollisionWorld named `name`. `spec` may be the spec's
 * bytes, a parsed spec, or generator parameters. Throws FormatError for a bad spec, FieldParamError for bad
 * parameters, NoSiteError for a field the game would never finish generating.
 * `wasm` says whether its line-of-sight batches run the WebAssembly kernel (`WasmMode`, `auto` by default; the
 * same answers bit for bit either way).
 *
 * @example
 * ```ts
 * const world = loadPineyWorld({ format: 'retrosim-piney-field', seed: 1420855, type: 10, weather: 0, ground: 1, object: 1 }, 'field', tables);
 * const g = world.ground(world.spawnPoint()); // g.floor: GetHeight at the start
 * ```
 */
export function loadPineyWorld(spec: Uint8Array | PineyFieldSpec | FieldParams, name: string, tables: PineyTables, limits: Readonly<Limits> = DEFAULT_LIMITS, wasm: WasmMode = 'auto'): PineyWorld {
  const params = 'fieldType' in spec && !(spec instanceof Uint8Array) ? (checkFieldParams(spec), spec) : parsePineyFieldSpec(spec as Uint8Array | PineyFieldSpec, limits);
  return new PineyWorld(generateField(params, tables), name, wasm);
}
