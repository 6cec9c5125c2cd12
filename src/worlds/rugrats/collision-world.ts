/**
 * The Rugrats database as a CollisionWorld: native integer units (1024 per tile, PlayStation y down), the point
 * query as `ground`, vectorwalk as `segment` / `segmentFraction`, and a body `move` by the game's rules as far as
 * they are known (the feet follow the floor the query gives; a step is refused when its destination is not open
 * or the segment at knee height is stopped, sliding along the blocking normal; a body with no floor falls).
 */
import type { Body, Bounds, CollisionWorld, Contact, GroundResult, MoveResult, SegmentResult, UpAxis, Vec3 } from '../world.js';
import { checkSegmentBatch, newGroundResult, newMoveResult, newSegmentResult } from '../world.js';
import { setSegmentMiss } from '../results.js';
import { buildColIndex, type ColIndex } from './col-index.js';
import { COLUMN_COUNT, COLUMN_DATA, COLUMN_ENTRY_SIZE, COLUMN_TABLE, HEADER_FLOOR_NORMAL_COUNT, HEADER_MAX, HEADER_MIN, HEADER_NORMALS_OFFSET, NORMAL_SIZE, FLAG_LAST } from './layout.js';
import { MAX_NORMALS_GAP, parseColWithOffsets } from './parse.js';
import { floorAt, locateCell, queryCol, stackForPoint, toS32, Q_CEILING, Q_FLOOR, Q_RESULT, Q_TILE } from './query.js';
import { tileIndexOfOffset } from './col-index.js';
import { SEGMENT_OUT_LENGTH, S_NORMAL, S_POINT, S_RESULT, S_TILE, S_WRITTEN, WROTE_DEPTH, segmentCol } from './segment.js';
import { SegmentStopWalker } from './segment-stop.js';
import { rugratsWalkWasmError, rugratsWalkWasmModule, WasmLevelWalker } from './segment-walk-wasm.js';
import { checkWasmMode, wasmAutoChoiceFor, type WasmMode } from '../wasm-mode.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';

/** Native units per metre, roughly: one 1024-unit tile is taken as about a metre. */
export const RUGRATS_SCALE = 1024;
/** How high a body steps up (and follows the floor down) without help: two height steps, 256 units. */
export const DEFAULT_STEP_HEIGHT = 256;

/**
 * A cheap structural check by content (the format has no magic): the header and column table fit, the bounds are
 * ordered, the normals offset lies in the file and the column counts add up to the data before it.
 */
export function detectRugrats(bytes: Uint8Array): boolean {
  if (bytes.length < COLUMN_DATA) return false;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let a = 0; a < 3; a++) if (v.getInt32(HEADER_MIN + 4 * a, true) > v.getInt32(HEADER_MAX + 4 * a, true)) return false;
  const normals = v.getUint32(HEADER_NORMALS_OFFSET, true);
  if (normals < COLUMN_DATA || normals > bytes.length) return false;
  if (v.getUint32(HEADER_FLOOR_NORMAL_COUNT, true) * NORMAL_SIZE > bytes.length - normals) return false;
  let data = 0;
  for (let i = 0; i < COLUMN_COUNT; i++) {
    const cells = v.getInt16(COLUMN_TABLE + i * COLUMN_ENTRY_SIZE + 4, true);
    const tiles = v.getInt16(COLUMN_TABLE + i * COLUMN_ENTRY_SIZE + 6, true);
    if (cells < 0 || tiles < 0 || cells > 256) return false;
    data += cells * 2 + tiles * 8;
  }
  const room = normals - COLUMN_DATA;
  return data <= room && room - data <= MAX_NORMALS_GAP;
}

/**
 * Parses (strictly, as parseColWithOffsets) and wraps a database as a CollisionWorld named `name`. Throws
 * FormatError. `wasm` says whether its line-of-sight batches run the WebAssembly kernel (`WasmMode`, `auto` by
 * default; the answers are the same either way).
 */
export function loadRugratsWorld(bytes: Uint8Array, name: string, limits: Readonly<Limits> = DEFAULT_LIMITS, wasm: WasmMode = 'auto'): RugratsWorld {
  const p = parseColWithOffsets(bytes, limits);
  return new RugratsWorld(buildColIndex(p.data, p.offsets), name, wasm);
}

// Scratch for the allocation-free paths.
const sq = new Int32Array(4);
const so = new Int32Array(SEGMENT_OUT_LENGTH);

/**
 * A Rugrats database as a CollisionWorld, in the game's integer units (1024 per tile, y pointing down): the point
 * query answers `ground`, vectorwalk answers `segment`, and `move` walks a body by the game's rules as far as
 * they are known. Positions are read as 32-bit integers (fractions truncate).
 */
export class RugratsWorld implements CollisionWorld {
  readonly kind = 'rugrats' as const;
  readonly bounds: Bounds;
  readonly up: UpAxis = { axis: 1, sign: -1 };
  readonly scale = RUGRATS_SCALE;
  readonly integer = true;
  /** vectorwalk's result and stop point alone (the line-of-sight path; `segmentCol` is its reference). */
  private readonly walker: SegmentStopWalker;
  /** The same walk in WebAssembly, for batches, when the world's `WasmMode` chose it; null otherwise. */
  /** The kernel this world runs (null: the JavaScript walk), and its instance, made on the first batch and kept. */
  private wasmModule: WebAssembly.Module | null = null;
  private wasmWalker: WasmLevelWalker | null = null;
  private mode: WasmMode = 'auto';

  /**
   * @param index the database, indexed
   * @param name the world's name
   * @param wasm whether `segmentFractions` runs the WebAssembly kernel (`WasmMode`; `auto` by default). The
   *   answers are the same either way, bit for bit. `on` throws an Error when this engine cannot compile it.
   */
  constructor(
    readonly index: ColIndex,
    readonly name: string,
    wasm: WasmMode = 'auto',
  ) {
    this.bounds = { min: [index.minX, index.minY, index.minZ], max: [index.maxX, index.maxY, index.maxZ] };
    this.walker = new SegmentStopWalker(index);
    this.setWasm(wasm);
  }

  /**
   * Sets whether `segmentFractions` runs the WebAssembly kernel (`WasmMode`) and says whether it now does. The
   * answers are the same either way; `on` throws an Error when this engine cannot compile the kernel.
   */
  setWasm(mode: WasmMode): boolean {
    checkWasmMode(mode, 'RugratsWorld.setWasm');
    // auto: only where the kernel was measured faster (wasmAutoChoiceFor); then, as on, only if it compiles.
    const module = mode === 'off' || (mode === 'auto' && !wasmAutoChoiceFor('rugrats-walk', true)) ? null : rugratsWalkWasmModule();
    if (module === null && mode === 'on') throw new Error(`the WebAssembly line-of-sight kernel does not compile on this engine: ${rugratsWalkWasmError()}`);
    this.wasmModule = module;
    this.mode = mode;
    return this.wasmModule !== null;
  }

  /** Whether `segmentFractions` runs the WebAssembly kernel (see the constructor's `wasm`). */
  get wasmKernels(): boolean {
    return this.wasmModule !== null;
  }

  /** The mode last set (`setWasm`, or the constructor's `wasm`). */
  get wasmMode(): WasmMode {
    return this.mode;
  }

  /** The query: hasFloor when the point is in the open; floor and ceiling of the tile found (NaN for none). */
  ground(pos: Vec3, out: GroundResult = newGroundResult()): GroundResult {
    const r = queryCol(this.index, pos[0], pos[1], pos[2], sq);
    const tile = sq[Q_TILE]!;
    out.hasFloor = r === 0;
    out.floor = tile !== 0 ? sq[Q_FLOOR]! : NaN;
    out.ceiling = tile !== 0 ? sq[Q_CEILING]! : NaN;
    out.material = 0;
    out.id = tile !== 0 ? tile : -1;
    out.status = r;
    return out;
  }

  /** vectorwalk; `what` is "wall", "floor", "ceiling" or "start" (result 2), "" when it gets through. */
  segment(from: Vec3, to: Vec3, out: SegmentResult = newSegmentResult()): SegmentResult {
    const r = segmentCol(this.index, from[0], from[1], from[2], to[0], to[1], to[2], so);
    if (r === 0) return setSegmentMiss(out, toS32(to[0]), toS32(to[1]), toS32(to[2]));
    out.status = r;
    out.material = 0;
    out.hit = true;
    out.point[0] = so[S_POINT]!;
    out.point[1] = so[S_POINT + 1]!;
    out.point[2] = so[S_POINT + 2]!;
    out.normal[0] = so[S_NORMAL]!;
    out.normal[1] = so[S_NORMAL + 1]!;
    out.normal[2] = so[S_NORMAL + 2]!;
    out.id = so[S_TILE]! !== 0 ? so[S_TILE]! : -1;
    out.fraction = r === 2 ? 0 : stopFraction(from[0], from[1], from[2], to[0], to[1], to[2], so[S_POINT]!, so[S_POINT + 1]!, so[S_POINT + 2]!);
    out.what = r === 2 ? 'start' : so[S_WRITTEN]! & WROTE_DEPTH ? 'wall' : so[S_NORMAL + 1]! < 0 ? 'floor' : 'ceiling';
    return out;
  }

  /**
   * The stop point's fraction along from → to; −1 when the segment gets through, 0 when from is not open.
   * The fast walk (`SegmentStopWalker`), equal to vectorwalk's answer: see `segmentFractionReference`.
   */
  segmentFraction(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    const w = this.walker;
    const r = w.walk(fx, fy, fz, tx, ty, tz);
    if (r === 0) return -1;
    if (r === 2) return 0;
    const p = w.stop;
    return stopFraction(fx, fy, fz, tx, ty, tz, p[0]!, p[1]!, p[2]!);
  }

  /**
   * `segmentFraction` of a batch of segments (`CollisionWorld.segmentFractions`): through the WebAssembly kernel
   * when the world's `WasmMode` chose it, else one segment after another; the same answers bit for bit.
   */
  segmentFractions(segments: Float64Array, start: number, end: number, out: Float64Array): void {
    if (this.wasmModule !== null) {
      this.wasmWalker ??= new WasmLevelWalker(this.wasmModule, this.walker);
      this.wasmWalker.walkMany(segments, start, end, out);
      return;
    }
    checkSegmentBatch(segments, start, end, out.length);
    for (let i = start, o = start * 6; i < end; i++, o += 6) {
      out[i] = this.segmentFraction(segments[o]!, segments[o + 1]!, segments[o + 2]!, segments[o + 3]!, segments[o + 4]!, segments[o + 5]!);
    }
  }

  /** `segmentFraction` through the rule-exact `segmentCol`: the oracle the fast walk is checked against. */
  segmentFractionReference(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    const r = segmentCol(this.index, fx, fy, fz, tx, ty, tz, so);
    if (r === 0) return -1;
    if (r === 2) return 0;
    return stopFraction(fx, fy, fz, tx, ty, tz, so[S_POINT]!, so[S_POINT + 1]!, so[S_POINT + 2]!);
  }

  /**
   * Moves a body (feet at `from`) by `delta`, integers in and out. Horizontal first: the segment at knee height
   * (feet − step height) must get through and the destination at knee height must be open with the ceiling above
   * the head; a blocked step slides once along the blocking wall's normal (axis normals drop that axis; the
   * diagonal normals keep the part of the step along the diagonal, halved sums truncating). Then vertical: the
   * feet take delta's y (the caller's gravity or jump), are stopped by the floor of the room at knee height, and
   * follow it down by up to the step height when not moving up; with no floor there the body falls freely.
   */
  move(body: Body, from: Vec3, delta: Vec3, out: MoveResult = newMoveResult()): MoveResult {
    const ix = this.index;
    const step = body.stepHeight !== undefined && Number.isFinite(body.stepHeight) ? Math.max(0, toS32(body.stepHeight)) : DEFAULT_STEP_HEIGHT;
    const height = Number.isFinite(body.height) ? Math.max(0, toS32(body.height)) : 0;
    let x = toS32(from[0]);
    let y = toS32(from[1]);
    let z = toS32(from[2]);
    const dx = toS32(delta[0]);
    const dy = toS32(delta[1]);
    const dz = toS32(delta[2]);
    const contacts: Contact[] = [];

    if (dx !== 0 || dz !== 0) {
      const knee = (y - step) | 0;
      if (this.stepClear(x, knee, z, dx, dz, y - height)) {
        x = (x + dx) | 0;
        z = (z + dz) | 0;
      } else if (so[S_RESULT] === 1) {
        const nx = so[S_NORMAL]!;
        const nz = so[S_NORMAL + 2]!;
        contacts.push({ kind: 'wall', normal: [nx, so[S_NORMAL + 1]!, nz], id: so[S_TILE]! || -1, material: 0 });
        let sx = 0;
        let sz = 0;
        if (Math.imul(dx, nx) + Math.imul(dz, nz) < 0) {
          if (nz === 0 && nx !== 0) sz = dz;
          else if (nx === 0 && nz !== 0) sx = dx;
          else if (nx !== 0 && nz !== 0) {
            // Along the diagonal: the tangent (−sign nz, sign nx) has squared length 2.
            const tx = nz > 0 ? -1 : 1;
            const tz = nx > 0 ? 1 : -1;
            const s = ((dx * tx + dz * tz) / 2) | 0;
            sx = s * tx;
            sz = s * tz;
          }
        }
        if ((sx !== 0 || sz !== 0) && this.stepClear(x, knee, z, sx, sz, y - height)) {
          x = (x + sx) | 0;
          z = (z + sz) | 0;
        }
      }
    }

    // Vertical: the floor and ceiling of the room the knee is in.
    let grounded = false;
    const r = queryCol(ix, x, (y - step) | 0, z, sq);
    const target = (y + dy) | 0;
    if (r === 0) {
      const floor = sq[Q_FLOOR]!;
      const ceiling = sq[Q_CEILING]!;
      const tileOffset = sq[Q_TILE]!;
      if (target >= floor || (dy >= 0 && floor - target <= step)) {
        y = floor;
        grounded = true;
        const t = tileIndexOfOffset(ix, tileOffset);
        const n = ix.tileFloorNormal;
        contacts.push({ kind: 'floor', normal: [n[t * 3]!, n[t * 3 + 1]!, n[t * 3 + 2]!], id: tileOffset, material: 0 });
      } else {
        y = target;
        if (((y - height) | 0) < ceiling) {
          y = Math.min((ceiling + height) | 0, floor);
          contacts.push({ kind: 'ceiling', normal: [0, 4096, 0], id: tileOffset, material: 0 });
        }
      }
    } else {
      y = target; // nothing under the feet: fall
    }
    out.position[0] = x;
    out.position[1] = y;
    out.position[2] = z;
    out.grounded = grounded;
    out.contacts = contacts;
    return out;
  }

  /** Whether a horizontal step at knee height is clear: the segment gets through, the end is open, the head fits. */
  private stepClear(x: number, knee: number, z: number, dx: number, dz: number, headY: number): boolean {
    const tx = (x + dx) | 0;
    const tz = (z + dz) | 0;
    if (segmentCol(this.index, x, knee, z, tx, knee, tz, so) !== 0) return false;
    if (queryCol(this.index, tx, knee, tz, sq) !== 0) return false;
    return sq[Q_CEILING]! <= headY;
  }

  /** The first cell (column order, then z) with a room at least a tile tall: its centre, feet on the floor. */
  spawnPoint(): Vec3 {
    const ix = this.index;
    for (let c = 0; c < COLUMN_COUNT; c++) {
      for (let k = ix.colCellStart[c]!; k < ix.colCellStart[c + 1]!; k++) {
        const x = (ix.minX + c * 1024 + 512) | 0;
        const z = (ix.minZ + ix.cellZ[k]! * 1024 + 512) | 0;
        const p = this.standAt(x, z, 1024);
        if (p) return p;
      }
    }
    return [ix.minX, ix.maxY, ix.minZ];
  }

  /** Feet on the lowest floor at the point (u, v) of the bounds (each in [0, 1)), or null where there is none. */
  sampleOpen(u: number, v: number): Vec3 | null {
    if (!(u >= 0 && u < 1 && v >= 0 && v < 1)) return null;
    const ix = this.index;
    const x = toS32(ix.minX + Math.floor(u * (ix.maxX - ix.minX + 1)));
    const z = toS32(ix.minZ + Math.floor(v * (ix.maxZ - ix.minZ + 1)));
    return this.standAt(x, z, 1);
  }

  /** The lowest room of the stack at (x, z) with at least `clearance` between floor and ceiling: feet on its floor. */
  private standAt(x: number, z: number, clearance: number): Vec3 | null {
    const ix = this.index;
    const cell = locateCell(ix, x, ix.minY, z);
    if (cell < 0) return null;
    for (let t = stackForPoint(ix, cell, x, z); ; t++) {
      const floor = floorAt(ix, t, x, z);
      if (queryCol(ix, x, (floor - 1) | 0, z, sq) === 0 && sq[Q_RESULT] === 0 && floor - sq[Q_CEILING]! >= clearance && floor <= ix.maxY) {
        return [x, floor, z];
      }
      if (ix.tileFlags[t]! & FLAG_LAST) return null;
    }
  }
}

/** The fraction along from → to of the stop point (px, py, pz), measured on the axis that moves most. */
function stopFraction(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number, px: number, py: number, pz: number): number {
  fx = toS32(fx); fy = toS32(fy); fz = toS32(fz);
  const dx = toS32(tx) - fx;
  const dy = toS32(ty) - fy;
  const dz = toS32(tz) - fz;
  const ax = Math.abs(dx), ay = Math.abs(dy), az = Math.abs(dz);
  let f: number;
  if (ax >= ay && ax >= az) f = ax === 0 ? 0 : (px - fx) / dx;
  else if (ay >= az) f = (py - fy) / dy;
  else f = (pz - fz) / dz;
  return f < 0 ? 0 : f > 1 ? 1 : f;
}
