/**
 * The CollisionWorld adapter for GTA collision files: metres, z up, float coordinates. A .col file alone places
 * each model once at the origin; a list of placements (model, position, rotation quaternion, as in an IPL) puts
 * models anywhere, any number of times.
 *
 * Bodies are upright capsules (or spheres when height ≤ 2·radius) standing on their feet: walls push them out
 * sideways through a stack of spheres, and the feet are put on the highest walkable surface found by a
 * vertical probe. Everything is float64 + - * / (square roots through the deterministic routine).
 */
import {
  newGroundResult,
  newMoveResult,
  type Body,
  type Bounds,
  type CollisionWorld,
  type GroundResult,
  type MoveResult,
  type SegmentResult,
  type UpAxis,
  type Vec3,
} from '../world.js';
import { setGroundMiss } from '../results.js';
import { colVersionOf, type ColFile } from './model.js';
import { parseColFile } from './parse.js';
import { ColScene, WALKABLE_NZ2, newGtaHit, type ColSceneOptions, type GtaHit, type GtaPlacement } from './query.js';
import { checkLimit, DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { gtaWalkWasmError, gtaWalkWasmModule, WasmSceneWalker } from './segment-walk-wasm.js';
import { checkWasmMode, wasmAutoChoiceFor, type WasmMode } from '../wasm-mode.js';

export { parseGtaPlacements } from './placements.js';

/** True when the bytes start like a GTA collision file (FourCC COLL, COL2, COL3 or COL4 and a size). */
export function detectGtaCol(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && colVersionOf(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!) !== 0;
}

/** The body used to judge open ground for spawning and sampling: a GTA pedestrian, roughly. */
export const DEFAULT_BODY: Readonly<Body> = { radius: 0.35, height: 1.8, stepHeight: 0.4 };
/** Step height when a body does not give one, in metres. */
export const DEFAULT_STEP_HEIGHT = 0.4;
/** A move is cut into sub-steps of at most this fraction of the body radius per axis, so it cannot pass through thin walls. */
export const SUBSTEP_RADIUS_FRACTION = 0.5;
/** Most sub-steps per move (a longer move takes longer steps). */
export const MAX_SUBSTEPS = 64;
/** Gap kept under the clearance spheres when judging open ground, so the floor itself does not count. */
const CLEARANCE_GAP = 0.05;
/** More spheres than the default body's clearance check ever needs (it needs four). */
const CLEARANCE_STEPS = 16;
const fin = (v: number): boolean => v - v === 0;
/** Most contacts reported per move. */
const MAX_MOVE_CONTACTS = 16;

/** GtaWorld's ground answer: a GroundResult with the model, placement and normal of the floor. */
export interface GtaGroundResult extends GroundResult {
  /** Model the floor belongs to ('' when none). */
  model: string;
  /** Placement index of the floor (-1 when none). */
  instance: number;
  /** Unit normal of the floor (zeros when none). */
  normal: Vec3;
}

/** A fresh GtaGroundResult with no floor, to pass to GtaWorld.ground as `out` and reuse. */
export function newGtaGroundResult(): GtaGroundResult {
  return { ...newGroundResult(), model: '', instance: -1, normal: [0, 0, 0] };
}

/**
 * A GTA collision file as a CollisionWorld, in metres with z up. Bodies are upright capsules (spheres when
 * height ≤ 2 · radius) standing on their feet: walls push them sideways, and their feet go onto the highest
 * walkable surface (normal within 45° of up) a vertical probe finds.
 */
export class GtaWorld implements CollisionWorld {
  readonly kind = 'gta' as const;
  readonly up: UpAxis = { axis: 2, sign: 1 };
  readonly scale = 1;
  readonly integer = false;
  readonly bounds: Bounds;
  /** The placed models and their queries (sphere overlap and push-out among them). */
  readonly scene: ColScene;
  private spawn: Vec3 | null = null;
  private readonly n3 = new Float64Array(3);
  /** The compiled walk when the world's `WasmMode` chose it (null otherwise), and its instance, made on first use. */
  private wasmModule: WebAssembly.Module | null = null;
  private mode: WasmMode = 'auto';
  private wasmWalker: WasmSceneWalker | null = null;

  /**
   * @param name the world's name
   * @param file the parsed collision file
   * @param placements the placed models (each model once at the origin when absent)
   * @param options the scene's options (the broad phase over placements)
   * @param wasm whether `segmentFractions` runs the WebAssembly walk (`WasmMode`; `auto` by default; see
   *   `setWasm`). The answers are the same either way, bit for bit.
   */
  constructor(
    readonly name: string,
    readonly file: ColFile,
    placements?: readonly GtaPlacement[],
    options: ColSceneOptions = {},
    wasm: WasmMode = 'auto',
  ) {
    this.scene = new ColScene(file.models, placements, options);
    const b = this.scene.box;
    this.bounds = { min: [b[0]!, b[1]!, b[2]!], max: [b[3]!, b[4]!, b[5]!] };
    this.setWasm(wasm);
  }

  /**
   * Sets whether `segmentFractions` runs the WebAssembly walk (`WasmMode`) and says whether it now does. The
   * answers are the same either way, bit for bit. The kernel covers scenes that walk their placements in order
   * (fewer than BROAD_PHASE_MIN_PLACEMENTS placements by default, as the demo town): a scene with the broad
   * phase over placements keeps the JavaScript walk in every mode (and this returns false). `on` throws an
   * Error when this engine cannot compile the kernel; `auto` runs it only where it was measured faster
   * (`wasmAutoChoiceFor('gta-walk')`).
   */
  setWasm(mode: WasmMode): boolean {
    checkWasmMode(mode, 'GtaWorld.setWasm');
    const use = this.scene.broad === null && (mode === 'on' || (mode === 'auto' && wasmAutoChoiceFor('gta-walk', true)));
    const module = use ? gtaWalkWasmModule() : null;
    if (use && module === null && mode === 'on') throw new Error(`the WebAssembly line-of-sight kernel does not compile on this engine: ${gtaWalkWasmError()}`);
    this.wasmModule = module;
    this.mode = mode;
    return module !== null;
  }

  /** The mode last set (`setWasm`, or the constructor's `wasm`). */
  get wasmMode(): WasmMode {
    return this.mode;
  }

  /**
   * Whether `segmentFractions` runs the WebAssembly walk (see `setWasm`). Always false for a scene with the broad
   * phase over placements (`scene.broad`, 24 placements or more by default): the kernel covers scenes that walk
   * their placements in order, and such a scene keeps the JavaScript walk for now.
   */
  get wasmKernels(): boolean {
    return this.wasmModule !== null;
  }

  /** The fraction along the segment of the nearest solid hit, or −1; allocates nothing. */
  segmentFraction(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    return this.scene.segmentFraction(fx, fy, fz, tx, ty, tz);
  }

  /** `segmentFraction` of a batch of segments, as stages (see `ColScene.segmentFractions`); the same answers. */
  segmentFractions(segments: Float64Array, start: number, end: number, out: Float64Array): void {
    if (this.wasmModule === null) return this.scene.segmentFractions(segments, start, end, out);
    // The instance and the scene's tables in its memory, made on the first batch (a world that never casts a
    // batch never pays for them).
    this.wasmWalker ??= new WasmSceneWalker(this.wasmModule, this.scene.kernel.tables());
    this.wasmWalker.segmentFractions(segments, start, end, out);
  }

  /**
   * segmentFraction by the rule-exact reference path (every placement in order, each model's tree walked as
   * built): the oracle the fast path is tested against. Same answers, slower.
   */
  segmentFractionReference(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    return this.scene.segmentFractionReference(fx, fy, fz, tx, ty, tz);
  }

  /** The nearest hit with the model name and placement (GtaHit is a SegmentResult with `model` and `instance`). */
  segment(from: Vec3, to: Vec3, out?: SegmentResult): SegmentResult {
    return this.scene.segment(from, to, (out as GtaHit | undefined) ?? newGtaHit());
  }

  /** The nearest hit as a GtaHit, typed: what was hit, of which model and placement. */
  segmentHit(from: Vec3, to: Vec3, out: GtaHit = newGtaHit()): GtaHit {
    return this.scene.segment(from, to, out);
  }

  /**
   * The floor at or below the point (nearest surface straight down, to below the world) and the ceiling above
   * it. Non-finite points have neither.
   */
  ground(pos: Vec3, out?: GroundResult): GroundResult {
    const o = (out as GtaGroundResult | undefined) ?? newGtaGroundResult();
    setGroundMiss(o);
    if ('model' in o) {
      o.model = '';
      o.instance = -1;
      o.normal[0] = o.normal[1] = o.normal[2] = 0;
    }
    const [x, y, z] = pos;
    if (!(fin(x) && fin(y) && fin(z))) return o;
    const lowest = (z < this.bounds.min[2] ? z : this.bounds.min[2]) - 1;
    const highest = (z > this.bounds.max[2] ? z : this.bounds.max[2]) + 1;
    const scene = this.scene;
    const tf = scene.segmentFraction(x, y, z, x, y, lowest);
    if (tf >= 0) {
      const L = scene.last;
      o.hasFloor = true;
      o.floor = z + tf * (lowest - z);
      o.material = scene.materialOf(L.instance, L.kind, L.index);
      o.id = L.index;
      if ('model' in o) {
        o.model = scene.models[scene.instModel[L.instance]!]!.name;
        o.instance = L.instance;
        scene.worldUnitNormal(L.instance, L.nx, L.ny, L.nz, o.normal);
      }
    }
    const tc = scene.segmentFraction(x, y, z, x, y, highest);
    if (tc >= 0) o.ceiling = z + tc * (highest - z);
    return o;
  }

  /**
   * Moves an upright body from `from` by `delta`: sub-steps, then per sub-step the head stops at a ceiling when
   * rising, walls push the body sideways, and the feet go onto the highest walkable surface within the step
   * height above (or, when it was standing and is not rising, within the step height below).
   */
  move(body: Body, from: Vec3, delta: Vec3, out: MoveResult = newMoveResult()): MoveResult {
    out.contacts.length = 0;
    out.grounded = false;
    let x = from[0], y = from[1], z = from[2];
    const r = body.radius;
    const ok = fin(x) && fin(y) && fin(z) && fin(delta[0]) && fin(delta[1]) && fin(delta[2]) && fin(r) && fin(body.height) && r > 0;
    if (!ok) {
      out.position[0] = x;
      out.position[1] = y;
      out.position[2] = z;
      return out;
    }
    const h = body.height > 2 * r ? body.height : 2 * r;
    const step = body.stepHeight !== undefined && body.stepHeight >= 0 && body.stepHeight - body.stepHeight === 0 ? body.stepHeight : DEFAULT_STEP_HEIGHT;
    const [dx, dy, dz] = delta;
    const ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy, az = dz < 0 ? -dz : dz;
    const longest = ax > ay ? (ax > az ? ax : az) : ay > az ? ay : az;
    let n = Math.ceil(longest / (r * SUBSTEP_RADIUS_FRACTION));
    if (!(n >= 1)) n = 1;
    if (n > MAX_SUBSTEPS) n = MAX_SUBSTEPS;
    const sx = dx / n, sy = dy / n, sz = dz / n;
    // Wall spheres: from just above the step height to the head, at most a radius apart.
    const lowC = step + r < h - r ? step + r : h - r;
    const highC = h - r;
    const nSpheres = highC > lowC ? 1 + Math.ceil((highC - lowC) / r) : 1;
    let wasGrounded = this.standing(x, y, z, step);
    const scene = this.scene;
    for (let i = 0; i < n; i++) {
      const zPrev = z;
      x += sx;
      y += sy;
      z += sz;
      if (sz > 0) {
        const t = scene.segmentFraction(x, y, zPrev + h, x, y, z + h);
        if (t >= 0) {
          z = zPrev + t * sz;
          this.contact(out, 'ceiling');
        }
      }
      for (let s = 0; s < nSpheres; s++) {
        const off = nSpheres === 1 ? lowC : lowC + ((highC - lowC) * s) / (nSpheres - 1);
        const k = scene.pushOutSphere(x, y, z + off, r, true);
        if (k > 0) {
          x = scene.push.x;
          y = scene.push.y;
          for (let c = 0; c < k; c++) this.pushContact(out, c);
        }
      }
      const top = (zPrev > z ? zPrev : z) + step;
      const bottom = z - (wasGrounded && sz <= 0 ? step : 0);
      wasGrounded = false;
      const t = scene.segmentFraction(x, y, top, x, y, bottom);
      if (t >= 0) {
        const fz = top + t * (bottom - top);
        const L = scene.last;
        scene.worldUnitNormal(L.instance, L.nx, L.ny, L.nz, this.n3);
        const nz = this.n3[2]!;
        // Rising bodies only step up onto floors above their feet; falling or standing ones land.
        if (nz > 0 && nz * nz >= WALKABLE_NZ2 && (sz <= 0 || fz >= z)) {
          z = fz;
          wasGrounded = true;
          if (i === n - 1) this.contact(out, 'floor', this.n3, L.index, scene.materialOf(L.instance, L.kind, L.index));
        }
      }
    }
    out.position[0] = x;
    out.position[1] = y;
    out.position[2] = z;
    out.grounded = wasGrounded;
    return out;
  }

  /** True when a walkable floor lies within `step` below the feet (or at them). */
  private standing(x: number, y: number, z: number, step: number): boolean {
    const t = this.scene.segmentFraction(x, y, z + 1e-6, x, y, z - step);
    if (t < 0) return false;
    const L = this.scene.last;
    this.scene.worldUnitNormal(L.instance, L.nx, L.ny, L.nz, this.n3);
    return this.n3[2]! > 0 && this.n3[2]! * this.n3[2]! >= WALKABLE_NZ2;
  }

  private contact(out: MoveResult, kind: string, n?: Float64Array, id = -1, material = 0): void {
    if (out.contacts.length >= MAX_MOVE_CONTACTS) return;
    out.contacts.push({ kind, normal: n ? [n[0]!, n[1]!, n[2]!] : kind === 'ceiling' ? [0, 0, -1] : [0, 0, 1], id, material });
  }

  private pushContact(out: MoveResult, c: number): void {
    if (out.contacts.length >= MAX_MOVE_CONTACTS) return;
    const P = this.scene.push;
    out.contacts.push({
      kind: 'wall',
      normal: [P.normal[c * 3]!, P.normal[c * 3 + 1]!, P.normal[c * 3 + 2]!],
      id: P.index[c]!,
      material: this.scene.materialOf(P.instance[c]!, P.kind[c]!, P.index[c]!),
    });
  }

  /**
   * Maps (u, v) in [0, 1)² across the world's x/y extent; returns the highest walkable floor there when a
   * standard body fits above it, else null.
   */
  sampleOpen(u: number, v: number): Vec3 | null {
    if (!(u >= 0 && u < 1 && v >= 0 && v < 1)) return null;
    const { min, max } = this.bounds;
    if (!(min[0] <= max[0])) return null;
    const x = min[0] + u * (max[0] - min[0]);
    const y = min[1] + v * (max[1] - min[1]);
    const top = max[2] + 1, bottom = min[2] - 1;
    const t = this.scene.segmentFraction(x, y, top, x, y, bottom);
    if (t < 0) return null;
    const L = this.scene.last;
    this.scene.worldUnitNormal(L.instance, L.nx, L.ny, L.nz, this.n3);
    if (!(this.n3[2]! > 0 && this.n3[2]! * this.n3[2]! >= WALKABLE_NZ2)) return null;
    const fz = top + t * (bottom - top);
    const r = DEFAULT_BODY.radius, hgt = DEFAULT_BODY.height;
    // At a huge fz, c + r === c and the climb never reached the top (found by the fuzzer: bounds near −7.7e15
    // hung spawnPoint), and a NaN never compared: after the steps a body needs, take the top sphere and stop.
    for (let c = fz + r + CLEARANCE_GAP, k = 0; ; c += r, k++) {
      const cz = c < fz + hgt - r && k < CLEARANCE_STEPS ? c : fz + hgt - r;
      if (this.scene.sphereOverlaps(x, y, cz, r)) return null;
      if (!(cz < fz + hgt - r)) break;
    }
    return [x, y, fz];
  }

  /**
   * The open spot nearest the middle of the world on a 33 × 33 grid (centre first, then by squared distance,
   * ties in grid order); the top middle of the bounds when no spot is open.
   */
  spawnPoint(): Vec3 {
    if (this.spawn) return [...this.spawn];
    const N = 33;
    const cells: number[] = [];
    for (let i = 0; i < N * N; i++) cells.push(i);
    const half = (N - 1) / 2;
    const d2 = (i: number): number => {
      const a = (i % N) - half, b = Math.floor(i / N) - half;
      return a * a + b * b;
    };
    cells.sort((a, b) => d2(a) - d2(b) || a - b);
    for (const c of cells) {
      const p = this.sampleOpen((c % N) / N + 0.5 / N, Math.floor(c / N) / N + 0.5 / N);
      if (p) {
        this.spawn = p;
        return [...p];
      }
    }
    const { min, max } = this.bounds;
    this.spawn = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, max[2]];
    return [...this.spawn];
  }
}

/**
 * Parses a `.col` file and opens it as a world named `name`; `placements` (see parseGtaPlacements) default to each
 * model once at the origin; `wasm` says whether its line-of-sight batches run the WebAssembly walk (`WasmMode`,
 * `auto` by default; see `GtaWorld.setWasm`). Throws FormatError for bytes that do not parse or a placement naming no model.
 */
export function loadGtaWorld(bytes: Uint8Array, name: string, placements?: readonly GtaPlacement[], limits: Readonly<Limits> = DEFAULT_LIMITS, wasm: WasmMode = 'auto'): GtaWorld {
  if (placements) checkLimit('gta placements', -1, 'placements', placements.length, limits.gta.placements, 'gta.placements');
  return new GtaWorld(name, parseColFile(bytes, limits), placements, {}, wasm);
}
