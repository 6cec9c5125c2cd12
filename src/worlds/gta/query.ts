/**
 * Queries over placed collision models: a segment's nearest hit (spheres, boxes, triangles), a sphere's overlap
 * and push-out, the ground under a point. Each placement puts a model at a position with a rotation given as a
 * quaternion (as GTA's IPL placements do); a .col file alone places each model once at the origin.
 *
 * Shadow meshes are not solid and are never queried. Arithmetic is float64 + - * / only (square roots through
 * the deterministic routine), instances are visited in placement order and the first of equal hits is kept,
 * so the same inputs give the same answers everywhere. Hot calls allocate nothing.
 */
import { FormatError } from '../../binary/format-error.js';
import { checkSegmentBatch, newSegmentResult, type SegmentResult, type Vec3 } from '../world.js';
import { setPointAlong, setSegmentMiss } from '../results.js';
import { HIT_BOX, HIT_FACE, HIT_NONE, HIT_SPHERE, ModelCollider, rayHit } from './bvh.js';
import { detSqrt } from '../../numeric/det-math.js';
import { colNameKey, type ColModel } from './model.js';
import { InstanceBroadPhase, sortAscending } from './instance-bvh.js';
import { SceneSegmentKernel } from './segment-kernel.js';

/** One placed model: the model by name (case-insensitive, first match) or index, a position and a rotation. */
export interface GtaPlacement {
  model: string | number;
  position: Vec3;
  /** Unit quaternion x, y, z, w (identity when absent). A non-unit one is used as its normalised rotation. */
  rotation?: [number, number, number, number];
}

/** Options of a ColScene. */
export interface ColSceneOptions {
  /**
   * true: queries go through the broad phase over placements; false: they walk every placement in order (the
   * reference). By default the broad phase is used above BROAD_PHASE_MIN_PLACEMENTS placements, where it pays.
   * The answers are the same either way.
   */
  broadPhase?: boolean;
}

/** Fewest placements for which a scene builds its broad phase by default (below, walking them all is faster). */
export const BROAD_PHASE_MIN_PLACEMENTS = 24;

/** What a segment hit: a mesh face, a sphere, a box, or '' for nothing. */
export type GtaHitKind = 'face' | 'sphere' | 'box' | '';
const KIND_NAMES: readonly GtaHitKind[] = ['', 'face', 'sphere', 'box'];

/**
 * A segment's nearest hit, with the model it belongs to: a SegmentResult whose normal is unit length in world
 * space, facing the segment's start, and whose id is the face, sphere or box index within its model.
 */
export interface GtaHit extends SegmentResult {
  what: GtaHitKind;
  /** Name of the model hit ('' when nothing). */
  model: string;
  /** Index of the placement hit (-1 when nothing). */
  instance: number;
}

/** A fresh GtaHit for nothing hit, to pass as `out` and reuse. */
export function newGtaHit(): GtaHit {
  return { ...newSegmentResult(), what: '', model: '', instance: -1 };
}

/**
 * Walkable surfaces: a unit normal's up component squared at least this (cos² of 45°). Compared on squares so
 * no root is needed; used by the ground probe and to tell walls from floors in push-out.
 */
export const WALKABLE_NZ2 = 0.5;
/** Push-out passes before giving up on a sphere wedged between surfaces. */
export const PUSH_OUT_PASSES = 4;
/** Contacts remembered per push-out. */
export const MAX_CONTACTS = 16;

const PAD = 1 / (1 << 20);

const finite = (v: number): boolean => v - v === 0;

/**
 * Collision models placed in the world, and the queries over them: a segment's nearest hit, a sphere's overlap
 * and push-out. Each placement puts a model at a position with a rotation; without placements each model is
 * placed once at the origin. Hot calls allocate nothing: they leave their details in `last` and `push`. Throws
 * a FormatError (format "gta placements") for a placement naming a model that is not there, or not finite.
 */
export class ColScene {
  /** The models, as given. */
  readonly models: readonly ColModel[];
  /** @internal Each model's bounding-volume tree. */
  readonly colliders: readonly ModelCollider[];
  /** Placement count. */
  readonly instanceCount: number;
  /** Model index per placement. */
  readonly instModel: Int32Array;
  /** Rotation per placement, row-major 3×3: world = R·local + position. */
  readonly instRot: Float64Array;
  /** Position per placement, x, y, z. */
  readonly instPos: Float64Array;
  /** World box per placement (min xyz, max xyz); empty models hold +inf/-inf. */
  readonly instBox: Float64Array;
  /** World box of everything solid (min xyz, max xyz); zeros when nothing is. */
  readonly box: Float64Array;

  /**
   * What the last segmentFraction hit (valid when it returned ≥ 0): the placement, the kind (HIT_FACE,
   * HIT_SPHERE or HIT_BOX), the index within the model, and a model-space normal (see worldUnitNormal).
   */
  readonly last = { instance: -1, kind: HIT_NONE, index: -1, nx: 0, ny: 0, nz: 0 };
  /**
   * Results of the last pushOutSphere: the moved centre and `count` contacts, each with its kind (HIT_*), index
   * within the model, placement, and world normal (unit length, three numbers per contact).
   */
  readonly push = {
    x: 0,
    y: 0,
    z: 0,
    count: 0,
    kind: new Int32Array(MAX_CONTACTS),
    index: new Int32Array(MAX_CONTACTS),
    instance: new Int32Array(MAX_CONTACTS),
    normal: new Float64Array(MAX_CONTACTS * 3),
  };
  private readonly near: Int32Array;
  /** @internal The broad phase over placements (null when queries walk every placement, the reference path). */
  readonly broad: InstanceBroadPhase | null;
  private readonly cand: Int32Array;
  private readonly nextCand: Int32Array;
  /** @internal The segment test of every placement in one walk (the reference's order and arithmetic). */
  readonly kernel: SceneSegmentKernel;

  /**
   * Places `models` (each once at the origin when `placements` is not given). See ColSceneOptions for the
   * broad phase (on by default from BROAD_PHASE_MIN_PLACEMENTS placements).
   */
  constructor(models: readonly ColModel[], placements?: readonly GtaPlacement[], options: ColSceneOptions = {}) {
    this.models = models;
    this.colliders = models.map((m) => new ModelCollider(m));
    const places: readonly GtaPlacement[] = placements ?? models.map((_, i) => ({ model: i, position: [0, 0, 0] as Vec3 }));
    const n = places.length;
    this.instanceCount = n;
    this.instModel = new Int32Array(n);
    this.instRot = new Float64Array(n * 9);
    this.instPos = new Float64Array(n * 3);
    this.instBox = new Float64Array(n * 6);
    const byName = new Map<string, number>();
    models.forEach((m, i) => {
      const k = colNameKey(m.name);
      if (!byName.has(k)) byName.set(k, i);
    });
    const box = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
    places.forEach((p, i) => {
      const mi = typeof p.model === 'number' ? p.model : byName.get(colNameKey(p.model));
      if (mi === undefined || !Number.isInteger(mi) || mi < 0 || mi >= models.length) {
        throw new FormatError('gta placements', -1, `placement ${i} names model ${JSON.stringify(p.model)}, which is not in the collision file`);
      }
      this.instModel[i] = mi;
      if (!p.position.every(finite)) throw new FormatError('gta placements', -1, `placement ${i} has a non-finite position`);
      this.instPos.set(p.position, i * 3);
      this.instRot.set(rotationMatrix(p.rotation, i), i * 9);
      this.placeBox(i, box);
    });
    this.box = box[0]! <= box[3]! ? box : new Float64Array(6);
    let maxFaces = 0;
    for (const c of this.colliders) if (c.faceCount > maxFaces) maxFaces = c.faceCount;
    this.near = new Int32Array(maxFaces);
    const broad = options.broadPhase ?? n >= BROAD_PHASE_MIN_PLACEMENTS;
    this.broad = !broad ? null : new InstanceBroadPhase(n, this.instModel, this.instPos, this.instRot, this.instBox);
    const classes = this.broad ? this.broad.classCount : 0;
    this.cand = new Int32Array(classes);
    this.nextCand = new Int32Array(classes);
    this.kernel = new SceneSegmentKernel(this.colliders, this.instModel, this.instRot, this.instPos, this.instBox);
  }

  private placeBox(i: number, world: Float64Array): void {
    const c = this.colliders[this.instModel[i]!]!;
    const out = this.instBox;
    for (let k = 0; k < 3; k++) {
      out[i * 6 + k] = Infinity;
      out[i * 6 + 3 + k] = -Infinity;
    }
    if (c.empty) return;
    const R = this.instRot, P = this.instPos, b = c.box;
    for (let corner = 0; corner < 8; corner++) {
      const lx = corner & 1 ? b[3]! : b[0]!, ly = corner & 2 ? b[4]! : b[1]!, lz = corner & 4 ? b[5]! : b[2]!;
      for (let k = 0; k < 3; k++) {
        const v = R[i * 9 + k * 3]! * lx + R[i * 9 + k * 3 + 1]! * ly + R[i * 9 + k * 3 + 2]! * lz + P[i * 3 + k]!;
        // Widened a little so rounding never loses a hit on the box side; a non-finite corner makes the axis unbounded.
        const fin = finite(v);
        const lo = fin ? v - ((v < 0 ? -v : v) + 1) * PAD : -Infinity, hi = fin ? v + ((v < 0 ? -v : v) + 1) * PAD : Infinity;
        if (lo < out[i * 6 + k]!) out[i * 6 + k] = lo;
        if (hi > out[i * 6 + 3 + k]!) out[i * 6 + 3 + k] = hi;
      }
    }
    // World bounds take only finite boxes (a model with an infinite vertex still collides but sets no bounds).
    for (let k = 0; k < 6; k++) if (!finite(out[i * 6 + k]!)) return;
    for (let k = 0; k < 3; k++) {
      if (out[i * 6 + k]! < world[k]!) world[k] = out[i * 6 + k]!;
      if (out[i * 6 + 3 + k]! > world[k + 3]!) world[k + 3] = out[i * 6 + 3 + k]!;
    }
  }

  /**
   * The fraction in [0, 1] along from→to of the nearest solid hit, or -1 when the segment is clear (and for
   * non-finite input, or a segment so long its direction overflows). Fills `last`. Allocates nothing.
   *
   * Placements are tried in ascending order and the first of equal hits is kept. Through the broad phase only
   * the placements whose box the segment enters are tried, and of placements exactly alike only the first: a
   * later copy is tried with a bound no larger than its first was, so it can never find a nearer hit.
   */
  segmentFraction(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    // Kept small so that callers take it in whole (the answer then needs no box).
    if (this.broad !== null) this.segmentBroad(fx, fy, fz, tx, ty, tz, this.broad);
    else this.kernel.run(fx, fy, fz, tx, ty, tz, null, 0, this.last);
    return this.kernel.result[0]!;
  }

  /**
   * `segmentFraction` of every segment of `segments[start..end)` (6 numbers each: from x, y, z, to x, y, z) into
   * `out` at the same indices, bit for bit, as stages over the batch: first every segment the height map proves
   * clear (and every non-finite one) is answered in one pass, then the rest are walked one by one. Leaves `last`
   * unspecified. Throws a RangeError when the range is not within the batch or `out` is too short.
   */
  segmentFractions(segments: Float64Array, start: number, end: number, out: Float64Array): void {
    const kernel = this.kernel;
    checkSegmentBatch(segments, start, end, out.length);
    const k = kernel.screen(segments, start, end, out);
    const rest = kernel.rest;
    const broad = this.broad;
    for (let q = 0; q < k; q++) {
      const i = rest[q]!, o = i * 6;
      if (broad !== null) this.segmentBroad(segments[o]!, segments[o + 1]!, segments[o + 2]!, segments[o + 3]!, segments[o + 4]!, segments[o + 5]!, broad, true);
      else kernel.runAt(segments, o, null, 0, this.last, true);
      out[i] = kernel.result[0]!;
    }
  }

  /** segmentFraction through the broad phase: the first placement of each class whose box the segment enters. */
  private segmentBroad(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number, broad: InstanceBroadPhase, screened = false): void {
    const kernel = this.kernel;
    const dx = tx - fx, dy = ty - fy, dz = tz - fz;
    if (!(finite(fx) && finite(fy) && finite(fz) && finite(dx) && finite(dy) && finite(dz))) {
      kernel.result[0] = -1;
      return;
    }
    const cand = this.cand;
    const k = broad.segmentClasses(fx, fy, fz, 1 / dx, 1 / dy, 1 / dz, cand);
    for (let j = 0; j < k; j++) cand[j] = broad.first(cand[j]!);
    kernel.run(fx, fy, fz, tx, ty, tz, cand, k, this.last, screened);
  }

  /**
   * segmentFraction by trying every placement in order, through each model's packed walk (`raycast`), one call
   * per placement: the reference for the broad phase and for the one-walk kernel.
   */
  segmentFractionLinear(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    return this.segmentWalk(fx, fy, fz, tx, ty, tz, false);
  }

  /**
   * The rule-exact reference: every placement in order, each model's tree walked as built
   * (`raycastReference`). The same answers as segmentFraction (fraction and `last`), which tests hold it to.
   */
  segmentFractionReference(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    return this.segmentWalk(fx, fy, fz, tx, ty, tz, true);
  }

  private segmentWalk(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number, reference: boolean): number {
    const dx = tx - fx, dy = ty - fy, dz = tz - fz;
    if (!(finite(fx) && finite(fy) && finite(fz) && finite(dx) && finite(dy) && finite(dz))) return -1;
    const ix = 1 / dx, iy = 1 / dy, iz = 1 / dz;
    let best = 2;
    let hit = -1;
    for (let i = 0, n = this.instanceCount; i < n; i++) {
      const nb = this.segmentInstance(i, fx, fy, fz, dx, dy, dz, ix, iy, iz, best, reference);
      if (nb < best) {
        best = nb;
        hit = i;
      }
    }
    return this.finishSegment(hit, best);
  }

  private finishSegment(hit: number, best: number): number {
    this.last.instance = hit;
    if (hit < 0) {
      this.last.kind = HIT_NONE;
      this.last.index = -1;
      return -1;
    }
    return best;
  }

  /**
   * Placement i against the segment with the best fraction so far: its new best (and `last` filled) when it
   * has a nearer hit, else `best` unchanged.
   */
  private segmentInstance(i: number, fx: number, fy: number, fz: number, dx: number, dy: number, dz: number, ix: number, iy: number, iz: number, best: number, reference: boolean): number {
    const IB = this.instBox, R = this.instRot, P = this.instPos;
    // Slab test on the placement's box, near and far planes by the direction's sign (as in the model tree).
    const nx0 = ix >= 0 ? 0 : 3, ny0 = iy >= 0 ? 1 : 4, nz0 = iz >= 0 ? 2 : 5;
    const fx0 = 3 - nx0, fy0 = 5 - ny0, fz0 = 7 - nz0;
    const b = i * 6;
    let t0 = 0, t1 = best < 1 ? best : 1;
    let v = (IB[b + nx0]! - fx) * ix;
    if (v > t0) t0 = v;
    v = (IB[b + fx0]! - fx) * ix;
    if (v < t1) t1 = v;
    v = (IB[b + ny0]! - fy) * iy;
    if (v > t0) t0 = v;
    v = (IB[b + fy0]! - fy) * iy;
    if (v < t1) t1 = v;
    v = (IB[b + nz0]! - fz) * iz;
    if (v > t0) t0 = v;
    v = (IB[b + fz0]! - fz) * iz;
    if (v < t1) t1 = v;
    if (!(t0 <= t1)) return best;
    // Into model space: local = Rᵀ (world − position); directions by Rᵀ alone, so t is unchanged.
    const r = i * 9;
    const px = fx - P[i * 3]!, py = fy - P[i * 3 + 1]!, pz = fz - P[i * 3 + 2]!;
    const ox = R[r]! * px + R[r + 3]! * py + R[r + 6]! * pz;
    const oy = R[r + 1]! * px + R[r + 4]! * py + R[r + 7]! * pz;
    const oz = R[r + 2]! * px + R[r + 5]! * py + R[r + 8]! * pz;
    const ldx = R[r]! * dx + R[r + 3]! * dy + R[r + 6]! * dz;
    const ldy = R[r + 1]! * dx + R[r + 4]! * dy + R[r + 7]! * dz;
    const ldz = R[r + 2]! * dx + R[r + 5]! * dy + R[r + 8]! * dz;
    const c = this.colliders[this.instModel[i]!]!;
    const nb = reference ? c.raycastReference(ox, oy, oz, ldx, ldy, ldz, best) : c.raycast(ox, oy, oz, ldx, ldy, ldz, best);
    if (nb < best) {
      const L = this.last;
      L.kind = rayHit.kind;
      L.index = rayHit.index;
      L.nx = rayHit.nx;
      L.ny = rayHit.ny;
      L.nz = rayHit.nz;
    }
    return nb;
  }

  /** The nearest hit with its point, unit normal, material and model name (same hit as segmentFraction). */
  segment(from: Vec3, to: Vec3, out: GtaHit = newGtaHit()): GtaHit {
    const t = this.segmentFraction(from[0], from[1], from[2], to[0], to[1], to[2]);
    if (t < 0) {
      setSegmentMiss(out, to[0], to[1], to[2]);
      out.model = '';
      out.instance = -1;
      return out;
    }
    const L = this.last;
    out.hit = true;
    out.fraction = t;
    setPointAlong(out.point, from[0], from[1], from[2], to[0], to[1], to[2], t);
    this.worldUnitNormal(L.instance, L.nx, L.ny, L.nz, out.normal);
    out.id = L.index;
    out.material = this.materialOf(L.instance, L.kind, L.index);
    out.what = KIND_NAMES[L.kind]!;
    out.status = 0;
    out.instance = L.instance;
    out.model = this.models[this.instModel[L.instance]!]!.name;
    return out;
  }

  /** Surface material of a face, sphere or box (`kind` a HIT_* code) of the model placed as `instance`. */
  materialOf(instance: number, kind: number, index: number): number {
    const m = this.models[this.instModel[instance]!]!;
    if (kind === HIT_FACE) return m.mesh.surfaces[index * 4]!;
    if (kind === HIT_SPHERE) return m.spheres[index]!.surface.material;
    if (kind === HIT_BOX) return m.boxes[index]!.surface.material;
    return 0;
  }

  /** A model-space normal of placement `instance` turned into world space and made unit length, into `out` at `at` (up when n is zero). */
  worldUnitNormal(instance: number, nx: number, ny: number, nz: number, out: Vec3 | Float64Array, at = 0): void {
    const R = this.instRot, r = instance * 9;
    const wx = R[r]! * nx + R[r + 1]! * ny + R[r + 2]! * nz;
    const wy = R[r + 3]! * nx + R[r + 4]! * ny + R[r + 5]! * nz;
    const wz = R[r + 6]! * nx + R[r + 7]! * ny + R[r + 8]! * nz;
    const len2 = wx * wx + wy * wy + wz * wz;
    if (!(len2 > 0) || !finite(len2)) {
      out[at] = 0;
      out[at + 1] = 0;
      out[at + 2] = 1;
      return;
    }
    const len = detSqrt(len2);
    out[at] = wx / len;
    out[at + 1] = wy / len;
    out[at + 2] = wz / len;
  }

  /** True when a sphere overlaps anything solid (touching counts as not overlapping). */
  sphereOverlaps(x: number, y: number, z: number, r: number): boolean {
    const broad = this.broad;
    if (broad === null) return this.sphereOverlapsLinear(x, y, z, r);
    if (!(finite(x) && finite(y) && finite(z) && finite(r)) || !(r > 0)) return false;
    const k = broad.sphereClasses(x, y, z, r, this.cand);
    for (let j = 0; j < k; j++) if (this.sphereInstanceContact(broad.first(this.cand[j]!), x, y, z, r, false, true) > 0) return true;
    return false;
  }

  /** sphereOverlaps by testing every placement in order: the reference for the broad phase. */
  sphereOverlapsLinear(x: number, y: number, z: number, r: number): boolean {
    if (!(finite(x) && finite(y) && finite(z) && finite(r)) || !(r > 0)) return false;
    for (let i = 0; i < this.instanceCount; i++) {
      if (!this.sphereTouchesInstanceBox(i, x, y, z, r)) continue;
      if (this.sphereInstanceContact(i, x, y, z, r, false, true) > 0) return true;
    }
    return false;
  }

  /**
   * Moves a sphere out of everything solid it overlaps, surface by surface in a fixed order, for up to
   * PUSH_OUT_PASSES passes. With `horizontalOnly` (walls against an upright body) floors and ceilings are left
   * alone and the sphere moves only sideways. Results in `push` (moved centre, contacts); returns the contact
   * count. Non-finite input leaves the centre where it is with no contacts.
   *
   * Each pass resolves the placements whose box the sphere touches in ascending order. Through the broad phase
   * the candidates are found again whenever the sphere moves; a placement that leaves the sphere where it is
   * (touching nothing, or wedged with every contact slot filled) would do the same for every later copy of
   * it until the sphere moves, so those copies are skipped.
   */
  pushOutSphere(x: number, y: number, z: number, r: number, horizontalOnly = false): number {
    const broad = this.broad;
    if (broad === null) return this.pushOutSphereLinear(x, y, z, r, horizontalOnly);
    const P = this.push;
    P.x = x;
    P.y = y;
    P.z = z;
    P.count = 0;
    if (!(finite(x) && finite(y) && finite(z) && finite(r)) || !(r > 0)) return 0;
    const cand = this.cand, next = this.nextCand;
    for (let pass = 0; pass < PUSH_OUT_PASSES; pass++) {
      let moved = 0;
      let from = 0;
      for (;;) {
        // The next placement of each class touching the sphere where it now is, in ascending order.
        const k = broad.sphereClasses(P.x, P.y, P.z, r, cand);
        let m = 0;
        for (let j = 0; j < k; j++) {
          const i = broad.nextMember(cand[j]!, from);
          if (i >= 0) next[m++] = i;
        }
        sortAscending(next, m);
        let at = -1;
        for (let j = 0; j < m; j++) {
          const i = next[j]!;
          const x0 = P.x, y0 = P.y, z0 = P.z;
          const f = this.sphereInstanceContact(i, x0, y0, z0, r, horizontalOnly, false);
          if (f > 0) {
            moved += f;
            // Wedged: pushed, yet left exactly where it was, with no room for more contacts. Every later copy
            // would do the same (push, move nothing, record nothing), so the class is done until it moves.
            if (P.count >= MAX_CONTACTS && Object.is(P.x, x0) && Object.is(P.y, y0) && Object.is(P.z, z0)) continue;
            at = i;
            break;
          }
        }
        if (at < 0) break;
        from = at + 1;
      }
      if (moved === 0) break;
    }
    return P.count;
  }

  /** pushOutSphere by visiting every placement in order: the reference for the broad phase. */
  pushOutSphereLinear(x: number, y: number, z: number, r: number, horizontalOnly = false): number {
    const P = this.push;
    P.x = x;
    P.y = y;
    P.z = z;
    P.count = 0;
    if (!(finite(x) && finite(y) && finite(z) && finite(r)) || !(r > 0)) return 0;
    for (let pass = 0; pass < PUSH_OUT_PASSES; pass++) {
      let moved = 0;
      for (let i = 0; i < this.instanceCount; i++) {
        if (!this.sphereTouchesInstanceBox(i, P.x, P.y, P.z, r)) continue;
        moved += this.sphereInstanceContact(i, P.x, P.y, P.z, r, horizontalOnly, false);
      }
      if (moved === 0) break;
    }
    return P.count;
  }

  private sphereTouchesInstanceBox(i: number, x: number, y: number, z: number, r: number): boolean {
    const B = this.instBox, b = i * 6;
    return x + r >= B[b]! && x - r <= B[b + 3]! && y + r >= B[b + 1]! && y - r <= B[b + 4]! && z + r >= B[b + 2]! && z - r <= B[b + 5]!;
  }

  // Working state of the sphere being resolved against one placement (fields, so nothing is allocated).
  private wx = 0;
  private wy = 0;
  private wz = 0;
  private lx = 0;
  private ly = 0;
  private lz = 0;

  /** Local (model-space) centre of the working sphere for placement i: Rᵀ (world − position). */
  private toLocal(i: number): void {
    const R = this.instRot, r = i * 9, P = this.instPos;
    const ax = this.wx - P[i * 3]!, ay = this.wy - P[i * 3 + 1]!, az = this.wz - P[i * 3 + 2]!;
    this.lx = R[r]! * ax + R[r + 3]! * ay + R[r + 6]! * az;
    this.ly = R[r + 1]! * ax + R[r + 4]! * ay + R[r + 7]! * az;
    this.lz = R[r + 2]! * ax + R[r + 5]! * ay + R[r + 8]! * az;
  }

  /**
   * Pushes the working sphere by `depth` along the local unit normal n of placement i and records the contact;
   * false when skipped (with `horizontalOnly`, floors and ceilings are skipped).
   */
  private applyPush(i: number, nx: number, ny: number, nz: number, depth: number, horizontalOnly: boolean, kind: number, index: number): boolean {
    const R = this.instRot, r = i * 9;
    let ex = R[r]! * nx + R[r + 1]! * ny + R[r + 2]! * nz;
    let ey = R[r + 3]! * nx + R[r + 4]! * ny + R[r + 5]! * nz;
    let ez = R[r + 6]! * nx + R[r + 7]! * ny + R[r + 8]! * nz;
    let amount = depth;
    if (horizontalOnly) {
      if (ez * ez >= WALKABLE_NZ2) return false; // a floor or ceiling: the body's vertical handling owns it
      const h2 = ex * ex + ey * ey;
      if (!(h2 > 0)) return false;
      const h = detSqrt(h2);
      // Moving sideways by s reduces the overlap along n by s·|n_h|, so go depth / |n_h|.
      amount = depth / h;
      ex /= h;
      ey /= h;
      ez = 0;
    }
    this.wx += ex * amount;
    this.wy += ey * amount;
    this.wz += ez * amount;
    const P = this.push;
    if (P.count < MAX_CONTACTS) {
      const k = P.count++;
      P.kind[k] = kind;
      P.index[k] = index;
      P.instance[k] = i;
      P.normal[k * 3] = ex;
      P.normal[k * 3 + 1] = ey;
      P.normal[k * 3 + 2] = ez;
    }
    this.toLocal(i);
    return true;
  }

  /**
   * Resolves (or, with `testOnly`, just detects) the sphere against one placement: its spheres, then boxes, then
   * faces near it in tree order. Returns how many contacts moved the sphere (with `testOnly`: 1 at the first
   * overlap). Updates `push.x/y/z`.
   */
  private sphereInstanceContact(i: number, x: number, y: number, z: number, r: number, horizontalOnly: boolean, testOnly: boolean): number {
    const c = this.colliders[this.instModel[i]!]!;
    let found = 0;
    this.wx = x;
    this.wy = y;
    this.wz = z;
    this.toLocal(i);

    const S = c.spheres;
    for (let s = 0; s < S.length; s += 4) {
      const dx = this.lx - S[s]!, dy = this.ly - S[s + 1]!, dz = this.lz - S[s + 2]!;
      const rr = r + S[s + 3]!;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (!(d2 < rr * rr)) continue;
      if (testOnly) return 1;
      const id = c.sphereIndex[s >> 2]!;
      if (d2 > 0) {
        const d = detSqrt(d2);
        if (this.applyPush(i, dx / d, dy / d, dz / d, rr - d, horizontalOnly, HIT_SPHERE, id)) found++;
      } else if (this.applyPush(i, 0, 0, 1, rr, horizontalOnly, HIT_SPHERE, id)) found++;
    }
    const B = c.boxes;
    for (let b = 0; b < B.length; b += 6) {
      const lx = this.lx, ly = this.ly, lz = this.lz;
      const qx = lx < B[b]! ? B[b]! : lx > B[b + 3]! ? B[b + 3]! : lx;
      const qy = ly < B[b + 1]! ? B[b + 1]! : ly > B[b + 4]! ? B[b + 4]! : ly;
      const qz = lz < B[b + 2]! ? B[b + 2]! : lz > B[b + 5]! ? B[b + 5]! : lz;
      const dx = lx - qx, dy = ly - qy, dz = lz - qz;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (!(d2 < r * r)) continue;
      if (testOnly) return 1;
      const id = c.boxIndex[(b / 6) | 0]!;
      if (d2 > 0) {
        const d = detSqrt(d2);
        if (this.applyPush(i, dx / d, dy / d, dz / d, r - d, horizontalOnly, HIT_BOX, id)) found++;
        continue;
      }
      // Centre inside the box: leave through the nearest side (first of equals in the order -x +x -y +y -z +z).
      let axis = 0, sign = -1, depth = lx - B[b]!;
      let e = B[b + 3]! - lx;
      if (e < depth) { depth = e; sign = 1; }
      e = ly - B[b + 1]!;
      if (e < depth) { depth = e; axis = 1; sign = -1; }
      e = B[b + 4]! - ly;
      if (e < depth) { depth = e; axis = 1; sign = 1; }
      e = lz - B[b + 2]!;
      if (e < depth) { depth = e; axis = 2; sign = -1; }
      e = B[b + 5]! - lz;
      if (e < depth) { depth = e; axis = 2; sign = 1; }
      if (this.applyPush(i, axis === 0 ? sign : 0, axis === 1 ? sign : 0, axis === 2 ? sign : 0, depth + r, horizontalOnly, HIT_BOX, id)) found++;
    }
    if (c.faceCount > 0) {
      const near = this.near;
      const n = c.facesNear(this.lx - r, this.ly - r, this.lz - r, this.lx + r, this.ly + r, this.lz + r, near);
      const T = c.tri;
      for (let j = 0; j < n; j++) {
        const k = near[j]!; // leaf position: triangle at T[9k], face c.order[k]
        if (!closestOnTriangle(T, k * 9, this.lx, this.ly, this.lz)) continue;
        const dx = this.lx - cp.x, dy = this.ly - cp.y, dz = this.lz - cp.z;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (!(d2 < r * r)) continue;
        if (testOnly) return 1;
        const f = c.order[k]!;
        if (d2 > 0) {
          const d = detSqrt(d2);
          if (this.applyPush(i, dx / d, dy / d, dz / d, r - d, horizontalOnly, HIT_FACE, f)) found++;
          continue;
        }
        // Centre on the face: out along its normal e1 × e2.
        const p = k * 9;
        const nx = T[p + 4]! * T[p + 8]! - T[p + 5]! * T[p + 7]!;
        const ny = T[p + 5]! * T[p + 6]! - T[p + 3]! * T[p + 8]!;
        const nz = T[p + 3]! * T[p + 7]! - T[p + 4]! * T[p + 6]!;
        const len2 = nx * nx + ny * ny + nz * nz;
        if (!(len2 > 0) || !finite(len2)) continue;
        const len = detSqrt(len2);
        if (this.applyPush(i, nx / len, ny / len, nz / len, r, horizontalOnly, HIT_FACE, f)) found++;
      }
    }
    if (!testOnly) {
      this.push.x = this.wx;
      this.push.y = this.wy;
      this.push.z = this.wz;
    }
    return found;
  }
}

/** The closest point found by closestOnTriangle. */
const cp = { x: 0, y: 0, z: 0 };

/**
 * The point of triangle (v0, v0 + e1, v0 + e2) nearest to p, by the regions of its vertices, edges and face
 * (the standard Voronoi-region method). False for a degenerate triangle whose answer is not finite.
 */
export function closestOnTriangle(T: Float64Array, o: number, px: number, py: number, pz: number): boolean {
  const ax = T[o]!, ay = T[o + 1]!, az = T[o + 2]!;
  const abx = T[o + 3]!, aby = T[o + 4]!, abz = T[o + 5]!;
  const acx = T[o + 6]!, acy = T[o + 7]!, acz = T[o + 8]!;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) return setCp(ax, ay, az);
  const bpx = apx - abx, bpy = apy - aby, bpz = apz - abz;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return setCp(ax + abx, ay + aby, az + abz);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    return setCp(ax + abx * v, ay + aby * v, az + abz * v);
  }
  const cpx = apx - acx, cpy = apy - acy, cpz = apz - acz;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return setCp(ax + acx, ay + acy, az + acz);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    return setCp(ax + acx * w, ay + acy * w, az + acz * w);
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return setCp(ax + abx + (acx - abx) * w, ay + aby + (acy - aby) * w, az + abz + (acz - abz) * w);
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom, w = vc * denom;
  return setCp(ax + abx * v + acx * w, ay + aby * v + acy * w, az + abz * v + acz * w);
}

function setCp(x: number, y: number, z: number): boolean {
  cp.x = x;
  cp.y = y;
  cp.z = z;
  return finite(x) && finite(y) && finite(z);
}

/** The closest point of the last closestOnTriangle call (for tests). */
export function lastClosestPoint(): Vec3 {
  return [cp.x, cp.y, cp.z];
}

/**
 * Rotation matrix (row-major) of a quaternion x, y, z, w, using s = 2 / |q|² so a non-unit quaternion still
 * gives a rotation without a square root.
 */
export function rotationMatrix(q: readonly number[] | undefined, placement = 0): Float64Array {
  const m = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  if (!q) return m;
  const [x, y, z, w] = q as [number, number, number, number];
  const n2 = x * x + y * y + z * z + w * w;
  if (!(n2 > 0) || !finite(n2)) throw new FormatError('gta placements', -1, `placement ${placement} has a zero or non-finite rotation quaternion`);
  if (x === 0 && y === 0 && z === 0) return m;
  const s = 2 / n2;
  m[0] = 1 - s * (y * y + z * z);
  m[1] = s * (x * y - z * w);
  m[2] = s * (x * z + y * w);
  m[3] = s * (x * y + z * w);
  m[4] = 1 - s * (x * x + z * z);
  m[5] = s * (y * z - x * w);
  m[6] = s * (x * z - y * w);
  m[7] = s * (y * z + x * w);
  m[8] = 1 - s * (x * x + y * y);
  return m;
}
