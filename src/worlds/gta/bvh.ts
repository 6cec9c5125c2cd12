/**
 * The collision structure of one model, in model space: its triangles as (v0, edge1, edge2), its spheres and
 * boxes, and a bounding-volume hierarchy over the triangles.
 *
 * When the model has face groups (COL2+), they are the broad phase: the tree's top levels split the groups,
 * each group is one subtree, and only then are a group's faces split further. Group boxes are recomputed from
 * the faces (the stored ones are kept for writing), so a wrong box in a file cannot hide a face. Models without
 * groups get the project's own tree straight over their faces.
 *
 * Queries use plain float64 + - * / only, test nodes in a fixed order and keep the first of equal hits, so they
 * are deterministic. Nothing is allocated per query.
 */
import type { ColModel } from './model.js';
import { detSqrt } from '../../numeric/det-math.js';

/** Faces per leaf in the project's own tree. */
export const BVH_LEAF_FACES = 4;
/** Node boxes are widened by this fraction of (|coordinate| + 1) so rounding in the slab test never loses a face on a box side. */
const BOX_PAD = 1 / (1 << 20);
const STACK_SIZE = 256;

/** `packRoot` of a model without triangles. */
export const PACK_NONE = 0x7fffffff;

/** The hit kind code for nothing (ColScene's `last.kind` and `push.kind`, with an index within the model). */
export const HIT_NONE = 0;
/** The hit kind code for a mesh face. */
export const HIT_FACE = 1;
/** The hit kind code for a collision sphere. */
export const HIT_SPHERE = 2;
/** The hit kind code for a collision box. */
export const HIT_BOX = 3;

/**
 * Scratch results of the last raycast that found a nearer hit (module-level, so queries allocate nothing).
 * `kind` and `index` say what, nx/ny/nz an unnormalised model-space normal facing the segment's start.
 */
export const rayHit = { kind: HIT_NONE, index: -1, nx: 0, ny: 0, nz: 0 };

export class ModelCollider {
  readonly model: ColModel;
  readonly faceCount: number;
  /**
   * Per face IN LEAF ORDER (entry k is face order[k]): v0 x y z, e1 = v1 - v0, e2 = v2 - v0. Leaf order keeps
   * each leaf's triangles next to each other in memory.
   */
  readonly tri: Float64Array;
  /** Per sphere: cx cy cz r. */
  readonly spheres: Float64Array;
  /** Model index of each sphere kept. */
  readonly sphereIndex: Int32Array;
  /** Per box: min xyz, max xyz. */
  readonly boxes: Float64Array;
  /** Model index of each box kept. */
  readonly boxIndex: Int32Array;
  /** Box around all solid geometry (min xyz, max xyz); empty models hold +inf/-inf. */
  readonly box: Float64Array;
  /** Node boxes: min xyz, max xyz. */
  readonly nodeBox: Float64Array;
  /** Leaf: -1; internal: left child. */
  readonly nodeLeft: Int32Array;
  /** Leaf: first entry in `order`; internal: right child. */
  readonly nodeRight: Int32Array;
  /** Leaf: number of faces; internal: split axis. */
  readonly nodeInfo: Int32Array;
  readonly nodeCount: number;
  /** Face indices in leaf order. */
  readonly order: Uint32Array;
  /** True when the tree's top levels are the model's face groups. */
  readonly usesFaceGroups: boolean;
  /**
   * The tree packed for the walk: per inner node (numbered in the order the walk may reach them) its two
   * children's boxes side by side, left then right (12 numbers: min xyz, max xyz each), so a visit reads one
   * run of memory.
   */
  readonly packBox: Float64Array;
  /** Per packed inner node, its left and right child: an inner node's number, or ~leaf for a leaf. */
  readonly packChild: Int32Array;
  /** Per leaf: its first leaf position (into `tri` and `order`) and its face count. */
  readonly leafFirst: Int32Array;
  readonly leafCount: Int32Array;
  /** The root's box and reference (an inner node, ~leaf, or PACK_NONE for no tree). */
  readonly rootBox: Float64Array;
  readonly packRoot: number;
  private readonly stack = new Int32Array(STACK_SIZE);
  private readonly tstack = new Float64Array(STACK_SIZE);

  constructor(model: ColModel, leafFaces = BVH_LEAF_FACES) {
    this.model = model;
    const mesh = model.mesh;
    const n = mesh.faceCount;
    this.faceCount = n;
    const V = mesh.vertices;
    const I = mesh.indices;
    const tri = new Float64Array(n * 9);
    for (let f = 0; f < n; f++) {
      const a = I[f * 3]! * 3, b = I[f * 3 + 1]! * 3, c = I[f * 3 + 2]! * 3;
      const ax = V[a]!, ay = V[a + 1]!, az = V[a + 2]!;
      tri[f * 9] = ax;
      tri[f * 9 + 1] = ay;
      tri[f * 9 + 2] = az;
      tri[f * 9 + 3] = V[b]! - ax;
      tri[f * 9 + 4] = V[b + 1]! - ay;
      tri[f * 9 + 5] = V[b + 2]! - az;
      tri[f * 9 + 6] = V[c]! - ax;
      tri[f * 9 + 7] = V[c + 1]! - ay;
      tri[f * 9 + 8] = V[c + 2]! - az;
    }
    // Spheres and boxes that cannot be solid (non-finite values, a negative radius, min above max on an axis)
    // are left out of queries; the index maps give the model's own index of each one kept.
    const sph: number[] = [], sphIdx: number[] = [];
    model.spheres.forEach((s, i) => {
      const v = [s.center[0], s.center[1], s.center[2], s.radius];
      if (v.every(isFiniteNumber) && s.radius >= 0) {
        sph.push(...v);
        sphIdx.push(i);
      }
    });
    const box: number[] = [], boxIdx: number[] = [];
    model.boxes.forEach((b, i) => {
      const v = [b.min[0], b.min[1], b.min[2], b.max[0], b.max[1], b.max[2]];
      if (v.every(isFiniteNumber) && b.min[0] <= b.max[0] && b.min[1] <= b.max[1] && b.min[2] <= b.max[2]) {
        box.push(...v);
        boxIdx.push(i);
      }
    });
    this.spheres = Float64Array.from(sph);
    this.sphereIndex = Int32Array.from(sphIdx);
    this.boxes = Float64Array.from(box);
    this.boxIndex = Int32Array.from(boxIdx);

    const built = buildTree(tri, n, model, leafFaces < 1 ? 1 : leafFaces);
    this.nodeBox = built.box;
    this.nodeLeft = built.left;
    this.nodeRight = built.right;
    this.nodeInfo = built.info;
    this.nodeCount = built.count;
    this.order = built.order;
    this.usesFaceGroups = built.usesGroups;
    const packed = packTree(built);
    this.packBox = packed.box;
    this.packChild = packed.child;
    this.leafFirst = packed.leafFirst;
    this.leafCount = packed.leafCount;
    this.rootBox = built.count > 0 ? built.box.slice(0, 6) : new Float64Array(6);
    this.packRoot = packed.root;
    const leafTri = new Float64Array(n * 9);
    for (let k = 0; k < n; k++) leafTri.set(tri.subarray(built.order[k]! * 9, built.order[k]! * 9 + 9), k * 9);
    this.tri = leafTri;

    const bounds = new Float64Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
    if (this.nodeCount > 0) for (let k = 0; k < 6; k++) bounds[k] = this.nodeBox[k]!;
    for (let i = 0; i < this.sphereIndex.length; i++) {
      const s = this.spheres;
      for (let k = 0; k < 3; k++) {
        widen(bounds, k, s[i * 4 + k]! - s[i * 4 + 3]!);
        widen(bounds, k, s[i * 4 + k]! + s[i * 4 + 3]!);
      }
    }
    for (let i = 0; i < this.boxIndex.length; i++) {
      for (let k = 0; k < 3; k++) {
        widen(bounds, k, this.boxes[i * 6 + k]!);
        widen(bounds, k, this.boxes[i * 6 + 3 + k]!);
      }
    }
    this.box = bounds;
  }

  /** True when the model has nothing solid. */
  get empty(): boolean {
    return !(this.box[0]! <= this.box[3]!);
  }

  /**
   * Nearest hit of the segment o + t·d, 0 ≤ t ≤ 1, that is nearer than `best` (pass a number above 1 for
   * "none yet"). Returns the new best t (unchanged when nothing nearer was found) and fills `rayHit` when it
   * finds one. Triangles are two-sided; a segment that starts inside a sphere or box hits it at t = 0.
   *
   * The tree is walked in its packed form (`packBox`, `packChild`): the same nodes in the same order with the
   * same arithmetic as `raycastReference`, so the answers (t, and what `rayHit` says) are the same.
   */
  raycast(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, best: number): number {
    const ix = 1 / dx, iy = 1 / dy, iz = 1 / dz;
    if (this.spheres.length !== 0 || this.boxes.length !== 0) best = this.raycastSolids(ox, oy, oz, dx, dy, dz, ix, iy, iz, best);
    const root = this.packRoot;
    if (root === PACK_NONE) return best;

    // Near and far planes by the direction's signs (offsets into a 6-number box).
    const nx0 = ix >= 0 ? 0 : 3, ny0 = iy >= 0 ? 1 : 4, nz0 = iz >= 0 ? 2 : 5;
    const fx0 = 3 - nx0, fy0 = 5 - ny0, fz0 = 7 - nz0;
    const PB = this.packBox, PC = this.packChild, LF = this.leafFirst, LC = this.leafCount, T = this.tri;
    const stack = this.stack, tstack = this.tstack;
    let sp = 0;
    // The root's box (slabEnter, written out).
    let ref = PACK_NONE;
    {
      const RB = this.rootBox;
      let t0 = 0, t1 = best < 1 ? best : 1;
      let v = (RB[nx0]! - ox) * ix;
      if (v > t0) t0 = v;
      v = (RB[fx0]! - ox) * ix;
      if (v < t1) t1 = v;
      v = (RB[ny0]! - oy) * iy;
      if (v > t0) t0 = v;
      v = (RB[fy0]! - oy) * iy;
      if (v < t1) t1 = v;
      v = (RB[nz0]! - oz) * iz;
      if (v > t0) t0 = v;
      v = (RB[fz0]! - oz) * iz;
      if (v < t1) t1 = v;
      if (t0 <= t1) ref = root;
    }
    while (ref !== PACK_NONE) {
      if (ref >= 0) {
        // An inner node: both children's boxes, side by side; the nearer first, ties to the left.
        const b = ref * 12;
        const limit = best < 1 ? best : 1;
        let t0 = 0, t1 = limit;
        let v = (PB[b + nx0]! - ox) * ix;
        if (v > t0) t0 = v;
        v = (PB[b + fx0]! - ox) * ix;
        if (v < t1) t1 = v;
        v = (PB[b + ny0]! - oy) * iy;
        if (v > t0) t0 = v;
        v = (PB[b + fy0]! - oy) * iy;
        if (v < t1) t1 = v;
        v = (PB[b + nz0]! - oz) * iz;
        if (v > t0) t0 = v;
        v = (PB[b + fz0]! - oz) * iz;
        if (v < t1) t1 = v;
        const tl = t0 <= t1 ? t0 : Infinity;
        t0 = 0;
        t1 = limit;
        v = (PB[b + 6 + nx0]! - ox) * ix;
        if (v > t0) t0 = v;
        v = (PB[b + 6 + fx0]! - ox) * ix;
        if (v < t1) t1 = v;
        v = (PB[b + 6 + ny0]! - oy) * iy;
        if (v > t0) t0 = v;
        v = (PB[b + 6 + fy0]! - oy) * iy;
        if (v < t1) t1 = v;
        v = (PB[b + 6 + nz0]! - oz) * iz;
        if (v > t0) t0 = v;
        v = (PB[b + 6 + fz0]! - oz) * iz;
        if (v < t1) t1 = v;
        const tr = t0 <= t1 ? t0 : Infinity;
        if (tl <= tr) {
          if (tl !== Infinity) {
            if (tr !== Infinity) {
              stack[sp] = PC[2 * ref + 1]!;
              tstack[sp++] = tr;
            }
            ref = PC[2 * ref]!;
            continue;
          }
        } else {
          if (tl !== Infinity) {
            stack[sp] = PC[2 * ref]!;
            tstack[sp++] = tl;
          }
          ref = PC[2 * ref + 1]!;
          continue;
        }
      } else {
        const leaf = ~ref;
        best = this.leafTriangles(LF[leaf]!, LC[leaf]!, T, ox, oy, oz, dx, dy, dz, best);
      }
      // Next: the most recently kept node that a hit found meanwhile does not rule out.
      ref = PACK_NONE;
      while (sp > 0) {
        sp--;
        if (tstack[sp]! <= best) {
          ref = stack[sp]!;
          break;
        }
      }
    }
    return best;
  }

  /** The spheres and boxes of raycastReference, in the same order (they come before the triangles). */
  private raycastSolids(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, ix: number, iy: number, iz: number, best: number): number {
    // Spheres: |o + t d - c|² = r².
    const S = this.spheres;
    for (let i = 0, n = S.length; i < n; i += 4) {
      const mx = ox - S[i]!, my = oy - S[i + 1]!, mz = oz - S[i + 2]!, r = S[i + 3]!;
      const c = mx * mx + my * my + mz * mz - r * r;
      let t: number;
      if (c <= 0) t = 0;
      else {
        const a = dx * dx + dy * dy + dz * dz;
        const b = mx * dx + my * dy + mz * dz;
        if (!(b < 0) || !(a > 0)) continue;
        const disc = b * b - a * c;
        if (!(disc >= 0)) continue;
        t = (-b - detSqrt(disc)) / a;
      }
      if (t >= 0 && t <= 1 && t < best) {
        best = t;
        rayHit.kind = HIT_SPHERE;
        rayHit.index = this.sphereIndex[i >> 2]!;
        rayHit.nx = mx + t * dx;
        rayHit.ny = my + t * dy;
        rayHit.nz = mz + t * dz;
        if (c <= 0) sphereInsideNormal(mx, my, mz, dx, dy, dz);
      }
    }
    // Boxes: slab test, remembering the axis entered.
    const B = this.boxes;
    for (let i = 0, n = B.length; i < n; i += 6) {
      let t0 = 0, t1 = 1, axis = -1;
      let lo = (B[i]! - ox) * ix, hi = (B[i + 3]! - ox) * ix;
      if (lo > hi) { const s = lo; lo = hi; hi = s; }
      if (lo > t0) { t0 = lo; axis = 0; }
      if (hi < t1) t1 = hi;
      lo = (B[i + 1]! - oy) * iy; hi = (B[i + 4]! - oy) * iy;
      if (lo > hi) { const s = lo; lo = hi; hi = s; }
      if (lo > t0) { t0 = lo; axis = 1; }
      if (hi < t1) t1 = hi;
      lo = (B[i + 2]! - oz) * iz; hi = (B[i + 5]! - oz) * iz;
      if (lo > hi) { const s = lo; lo = hi; hi = s; }
      if (lo > t0) { t0 = lo; axis = 2; }
      if (hi < t1) t1 = hi;
      if (!(t0 <= t1) || !(t0 < best)) continue;
      if (axis < 0 && !insideBox(B, i, ox, oy, oz)) continue;
      best = t0;
      rayHit.kind = HIT_BOX;
      rayHit.index = this.boxIndex[(i / 6) | 0]!;
      if (axis < 0) boxInsideNormal(dx, dy, dz);
      else {
        const sign = (axis === 0 ? dx : axis === 1 ? dy : dz) > 0 ? -1 : 1;
        rayHit.nx = axis === 0 ? sign : 0;
        rayHit.ny = axis === 1 ? sign : 0;
        rayHit.nz = axis === 2 ? sign : 0;
      }
    }
    return best;
  }

  /** A leaf's triangles (leaf positions first .. first + count − 1), as raycastReference tests them. */
  private leafTriangles(first: number, count: number, T: Float64Array, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, best: number): number {
    for (let k = first, end = first + count; k < end; k++) {
      const p = k * 9;
      const e1x = T[p + 3]!, e1y = T[p + 4]!, e1z = T[p + 5]!;
      const e2x = T[p + 6]!, e2y = T[p + 7]!, e2z = T[p + 8]!;
      const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
      const det = e1x * px + e1y * py + e1z * pz;
      if (det === 0 || det !== det) continue;
      const inv = 1 / det;
      const sx = ox - T[p]!, sy = oy - T[p + 1]!, sz = oz - T[p + 2]!;
      const u = (sx * px + sy * py + sz * pz) * inv;
      if (!(u >= 0 && u <= 1)) continue;
      const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
      const v = (dx * qx + dy * qy + dz * qz) * inv;
      if (!(v >= 0 && u + v <= 1)) continue;
      const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
      if (!(t >= 0 && t <= 1 && t < best)) continue;
      best = t;
      rayHit.kind = HIT_FACE;
      rayHit.index = this.order[k]!;
      let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
      if (nx * dx + ny * dy + nz * dz > 0) { nx = 0 - nx; ny = 0 - ny; nz = 0 - nz; } // 0 - x, not -x: no negative zeros in results
      rayHit.nx = nx;
      rayHit.ny = ny;
      rayHit.nz = nz;
    }
    return best;
  }

  /**
   * `raycast` walking the tree as built (nodeBox, nodeLeft, nodeRight): the reference the packed walk is
   * checked against. Same arguments and answers.
   */
  raycastReference(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, best: number): number {
    const ix = 1 / dx, iy = 1 / dy, iz = 1 / dz;
    // Spheres: |o + t d - c|² = r².
    const S = this.spheres;
    for (let i = 0, n = S.length; i < n; i += 4) {
      const mx = ox - S[i]!, my = oy - S[i + 1]!, mz = oz - S[i + 2]!, r = S[i + 3]!;
      const c = mx * mx + my * my + mz * mz - r * r;
      let t: number;
      if (c <= 0) t = 0;
      else {
        const a = dx * dx + dy * dy + dz * dz;
        const b = mx * dx + my * dy + mz * dz;
        if (!(b < 0) || !(a > 0)) continue;
        const disc = b * b - a * c;
        if (!(disc >= 0)) continue;
        t = (-b - detSqrt(disc)) / a;
      }
      if (t >= 0 && t <= 1 && t < best) {
        best = t;
        rayHit.kind = HIT_SPHERE;
        rayHit.index = this.sphereIndex[i >> 2]!;
        rayHit.nx = mx + t * dx;
        rayHit.ny = my + t * dy;
        rayHit.nz = mz + t * dz;
        if (c <= 0) sphereInsideNormal(mx, my, mz, dx, dy, dz);
      }
    }
    // Boxes: slab test, remembering the axis entered.
    const B = this.boxes;
    for (let i = 0, n = B.length; i < n; i += 6) {
      let t0 = 0, t1 = 1, axis = -1;
      let lo = (B[i]! - ox) * ix, hi = (B[i + 3]! - ox) * ix;
      if (lo > hi) { const s = lo; lo = hi; hi = s; }
      if (lo > t0) { t0 = lo; axis = 0; }
      if (hi < t1) t1 = hi;
      lo = (B[i + 1]! - oy) * iy; hi = (B[i + 4]! - oy) * iy;
      if (lo > hi) { const s = lo; lo = hi; hi = s; }
      if (lo > t0) { t0 = lo; axis = 1; }
      if (hi < t1) t1 = hi;
      lo = (B[i + 2]! - oz) * iz; hi = (B[i + 5]! - oz) * iz;
      if (lo > hi) { const s = lo; lo = hi; hi = s; }
      if (lo > t0) { t0 = lo; axis = 2; }
      if (hi < t1) t1 = hi;
      if (!(t0 <= t1) || !(t0 < best)) continue;
      // A start point outside the box on an axis with no direction fails the slab test through ±inf above.
      if (axis < 0 && !insideBox(B, i, ox, oy, oz)) continue;
      best = t0;
      rayHit.kind = HIT_BOX;
      rayHit.index = this.boxIndex[(i / 6) | 0]!;
      if (axis < 0) boxInsideNormal(dx, dy, dz);
      else {
        // The side entered faces against the direction on that axis.
        const sign = (axis === 0 ? dx : axis === 1 ? dy : dz) > 0 ? -1 : 1;
        rayHit.nx = axis === 0 ? sign : 0;
        rayHit.ny = axis === 1 ? sign : 0;
        rayHit.nz = axis === 2 ? sign : 0;
      }
    }
    if (this.nodeCount === 0) return best;

    // Triangles through the tree (slab tests in slabEnter).
    const NB = this.nodeBox, L = this.nodeLeft, R = this.nodeRight, INFO = this.nodeInfo, T = this.tri;
    const nx0 = ix >= 0 ? 0 : 3, ny0 = iy >= 0 ? 1 : 4, nz0 = iz >= 0 ? 2 : 5;
    const fx0 = 3 - nx0, fy0 = 5 - ny0, fz0 = 7 - nz0;
    // Front to back: test both children's boxes, go into the nearer, keep the farther with its entry fraction
    // and skip it later if a hit nearer than that was found meanwhile. Ties go left first.
    const stack = this.stack, tstack = this.tstack;
    let sp = 0;
    let node = slabEnter(NB, 0, ox, oy, oz, ix, iy, iz, nx0, ny0, nz0, fx0, fy0, fz0, best < 1 ? best : 1) === Infinity ? -1 : 0;
    while (node >= 0) {
      const left = L[node]!;
      if (left >= 0) {
        const right = R[node]!;
        const limit = best < 1 ? best : 1;
        const tl = slabEnter(NB, left * 6, ox, oy, oz, ix, iy, iz, nx0, ny0, nz0, fx0, fy0, fz0, limit);
        const tr = slabEnter(NB, right * 6, ox, oy, oz, ix, iy, iz, nx0, ny0, nz0, fx0, fy0, fz0, limit);
        if (tl <= tr) {
          if (tl !== Infinity) {
            if (tr !== Infinity) {
              stack[sp] = right;
              tstack[sp++] = tr;
            }
            node = left;
            continue;
          }
        } else {
          if (tl !== Infinity) {
            stack[sp] = left;
            tstack[sp++] = tl;
          }
          node = right;
          continue;
        }
      } else {
        const first = R[node]!, end = first + INFO[node]!;
        for (let k = first; k < end; k++) {
          const p = k * 9;
          const e1x = T[p + 3]!, e1y = T[p + 4]!, e1z = T[p + 5]!;
          const e2x = T[p + 6]!, e2y = T[p + 7]!, e2z = T[p + 8]!;
          const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
          const det = e1x * px + e1y * py + e1z * pz;
          if (det === 0 || det !== det) continue;
          const inv = 1 / det;
          const sx = ox - T[p]!, sy = oy - T[p + 1]!, sz = oz - T[p + 2]!;
          const u = (sx * px + sy * py + sz * pz) * inv;
          if (!(u >= 0 && u <= 1)) continue;
          const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
          const v = (dx * qx + dy * qy + dz * qz) * inv;
          if (!(v >= 0 && u + v <= 1)) continue;
          const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
          if (!(t >= 0 && t <= 1 && t < best)) continue;
          best = t;
          rayHit.kind = HIT_FACE;
          rayHit.index = this.order[k]!;
          // Face normal e1 × e2, turned to face the segment's start (faces are two-sided).
          let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
          if (nx * dx + ny * dy + nz * dz > 0) { nx = 0 - nx; ny = 0 - ny; nz = 0 - nz; } // 0 - x, not -x: no negative zeros in results
          rayHit.nx = nx;
          rayHit.ny = ny;
          rayHit.nz = nz;
        }
      }
      // Next: the most recently kept node that a hit found meanwhile does not rule out.
      node = -1;
      while (sp > 0) {
        sp--;
        if (tstack[sp]! <= best) {
          node = stack[sp]!;
          break;
        }
      }
    }
    return best;
  }

  /**
   * Collects into `out` (from index 0) the leaf positions k (face order[k], triangle data at tri[9k]) of the
   * leaves whose boxes overlap the box [lo, hi]; returns how many. `out` needs room for faceCount entries.
   */
  facesNear(lx: number, ly: number, lz: number, hx: number, hy: number, hz: number, out: Int32Array): number {
    if (this.nodeCount === 0) return 0;
    const NB = this.nodeBox, L = this.nodeLeft, R = this.nodeRight, INFO = this.nodeInfo;
    const stack = this.stack;
    let sp = 0, n = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const node = stack[--sp]!;
      const b = node * 6;
      if (!(NB[b]! <= hx && NB[b + 3]! >= lx && NB[b + 1]! <= hy && NB[b + 4]! >= ly && NB[b + 2]! <= hz && NB[b + 5]! >= lz)) continue;
      const left = L[node]!;
      if (left >= 0) {
        stack[sp++] = R[node]!;
        stack[sp++] = left;
        continue;
      }
      const first = R[node]!, end = first + INFO[node]!;
      for (let k = first; k < end; k++) out[n++] = k;
    }
    return n;
  }
}

/**
 * The fraction where the segment enters box b (near planes nx0.., far planes fx0.. chosen by the direction's
 * signs), clipped to [0, limit]; Infinity when it misses. A zero direction component gives ±inf or NaN terms;
 * NaN compares false and adds no constraint, right for a start point on that plane.
 */
function slabEnter(
  NB: Float64Array, b: number, ox: number, oy: number, oz: number, ix: number, iy: number, iz: number,
  nx0: number, ny0: number, nz0: number, fx0: number, fy0: number, fz0: number, limit: number,
): number {
  let t0 = 0, t1 = limit;
  let v = (NB[b + nx0]! - ox) * ix;
  if (v > t0) t0 = v;
  v = (NB[b + fx0]! - ox) * ix;
  if (v < t1) t1 = v;
  v = (NB[b + ny0]! - oy) * iy;
  if (v > t0) t0 = v;
  v = (NB[b + fy0]! - oy) * iy;
  if (v < t1) t1 = v;
  v = (NB[b + nz0]! - oz) * iz;
  if (v > t0) t0 = v;
  v = (NB[b + fz0]! - oz) * iz;
  if (v < t1) t1 = v;
  return t0 <= t1 ? t0 : Infinity;
}

/**
 * The tree in packed form (see ModelCollider.packBox): inner nodes numbered breadth first from the root,
 * each holding its children's boxes; leaves numbered in the same pass.
 */
function packTree(t: BuiltTree): { box: Float64Array; child: Int32Array; leafFirst: Int32Array; leafCount: Int32Array; root: number } {
  if (t.count === 0) return { box: new Float64Array(0), child: new Int32Array(0), leafFirst: new Int32Array(0), leafCount: new Int32Array(0), root: PACK_NONE };
  const inner: number[] = [];
  const leaves: number[] = [];
  const ref = new Int32Array(t.count);
  const queue = [0];
  for (let q = 0; q < queue.length; q++) {
    const node = queue[q]!;
    if (t.left[node]! >= 0) {
      ref[node] = inner.length;
      inner.push(node);
      queue.push(t.left[node]!, t.right[node]!);
    } else {
      ref[node] = ~leaves.length;
      leaves.push(node);
    }
  }
  const box = new Float64Array(inner.length * 12);
  const child = new Int32Array(inner.length * 2);
  inner.forEach((node, k) => {
    const l = t.left[node]!, r = t.right[node]!;
    box.set(t.box.subarray(l * 6, l * 6 + 6), k * 12);
    box.set(t.box.subarray(r * 6, r * 6 + 6), k * 12 + 6);
    child[2 * k] = ref[l]!;
    child[2 * k + 1] = ref[r]!;
  });
  const leafFirst = Int32Array.from(leaves, (node) => t.right[node]!);
  const leafCount = Int32Array.from(leaves, (node) => t.info[node]!);
  return { box, child, leafFirst, leafCount, root: ref[0]! };
}

function widen(box: Float64Array, axis: number, v: number): void {
  if (v < box[axis]!) box[axis] = v;
  if (v > box[axis + 3]!) box[axis + 3] = v;
}

function insideBox(B: Float64Array, i: number, x: number, y: number, z: number): boolean {
  return x >= B[i]! && x <= B[i + 3]! && y >= B[i + 1]! && y <= B[i + 4]! && z >= B[i + 2]! && z <= B[i + 5]!;
}

/** A segment starting inside a box: the normal opposes the segment's largest direction component (up when it has none). */
function boxInsideNormal(dx: number, dy: number, dz: number): void {
  const ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy, az = dz < 0 ? -dz : dz;
  rayHit.nx = 0;
  rayHit.ny = 0;
  rayHit.nz = 0;
  if (ax > ay && ax > az) rayHit.nx = dx > 0 ? -1 : 1;
  else if (ay > az) rayHit.ny = dy > 0 ? -1 : 1;
  else if (az > 0) rayHit.nz = dz > 0 ? -1 : 1;
  else rayHit.nz = 1;
}

/** A segment starting inside a sphere: the normal points from the centre to the start (or opposes the direction at the centre). */
function sphereInsideNormal(mx: number, my: number, mz: number, dx: number, dy: number, dz: number): void {
  if (mx !== 0 || my !== 0 || mz !== 0) {
    rayHit.nx = mx;
    rayHit.ny = my;
    rayHit.nz = mz;
  } else boxInsideNormal(dx, dy, dz);
}

interface BuiltTree {
  box: Float64Array;
  left: Int32Array;
  right: Int32Array;
  info: Int32Array;
  count: number;
  order: Uint32Array;
  usesGroups: boolean;
}

/** Growable node storage used while building. */
class NodeList {
  box: number[] = [];
  left: number[] = [];
  right: number[] = [];
  info: number[] = [];
  add(): number {
    this.box.push(0, 0, 0, 0, 0, 0);
    this.left.push(-1);
    this.right.push(0);
    this.info.push(0);
    return this.left.length - 1;
  }
}

// Infinite bounds (a node with no finite vertex) stay as they are: Infinity − Infinity would make a NaN.
function padLow(v: number): number {
  return v - v === 0 ? v - ((v < 0 ? -v : v) + 1) * BOX_PAD : v;
}
function padHigh(v: number): number {
  return v - v === 0 ? v + ((v < 0 ? -v : v) + 1) * BOX_PAD : v;
}

function isFiniteNumber(v: number): boolean {
  return v - v === 0;
}

function buildTree(tri: Float64Array, n: number, model: ColModel, leaf: number): BuiltTree {
  const nodes = new NodeList();
  const order = new Uint32Array(n);
  if (n === 0) return finish(nodes, order, false);
  // Per-face box and centroid, computed once.
  const fbox = new Float64Array(n * 6);
  const cent = new Float64Array(n * 3);
  for (let f = 0; f < n; f++) {
    const p = f * 9;
    for (let k = 0; k < 3; k++) {
      const a = tri[p + k]!, b = a + tri[p + 3 + k]!, c = a + tri[p + 6 + k]!;
      const lo = a < b ? (a < c ? a : c) : b < c ? b : c;
      const hi = a > b ? (a > c ? a : c) : b > c ? b : c;
      fbox[f * 6 + k] = lo;
      fbox[f * 6 + 3 + k] = hi;
      cent[f * 3 + k] = (lo + hi) * 0.5;
    }
  }
  let filled = 0;
  const groupRoots: number[] = [];
  const groups = usableGroups(model, n);
  if (groups) {
    const covered = new Uint8Array(n);
    for (const g of groups) {
      const start = filled;
      for (let f = g.first; f <= g.last; f++) {
        order[filled++] = f;
        covered[f] = 1;
      }
      groupRoots.push(buildFaces(nodes, order, start, filled, fbox, cent, leaf));
    }
    // Faces no group covers get a subtree of their own, so nothing is left out of the queries.
    const start = filled;
    for (let f = 0; f < n; f++) if (!covered[f]) order[filled++] = f;
    if (filled > start) groupRoots.push(buildFaces(nodes, order, start, filled, fbox, cent, leaf));
    const root = buildGroupLevel(nodes, groupRoots, 0, groupRoots.length);
    if (root !== 0) moveRootFirst(nodes, root);
    return finish(nodes, order, true);
  }
  for (let f = 0; f < n; f++) order[f] = f;
  // Reserve node 0 as the root by building into it first.
  buildFaces(nodes, order, 0, n, fbox, cent, leaf);
  return finish(nodes, order, false);
}

/** The model's face groups when they can serve as the broad phase: in range and not overlapping. */
function usableGroups(model: ColModel, n: number): { first: number; last: number }[] | null {
  const g = model.faceGroups;
  if (!g || g.length === 0) return null;
  const seen = new Uint8Array(n);
  for (const x of g) {
    if (!(x.first >= 0 && x.first <= x.last && x.last < n)) return null;
    for (let f = x.first; f <= x.last; f++) {
      if (seen[f]) return null; // overlapping groups: build our own tree instead
      seen[f] = 1;
    }
  }
  return g;
}

/** Builds a subtree over order[lo, hi), sorting that range; returns its node. */
function buildFaces(nodes: NodeList, order: Uint32Array, lo: number, hi: number, fbox: Float64Array, cent: Float64Array, leaf: number): number {
  const node = nodes.add();
  const nb = node * 6;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  let cx0 = Infinity, cy0 = Infinity, cz0 = Infinity, cx1 = -Infinity, cy1 = -Infinity, cz1 = -Infinity;
  for (let k = lo; k < hi; k++) {
    const f = order[k]!;
    const b = f * 6;
    if (fbox[b]! < x0) x0 = fbox[b]!;
    if (fbox[b + 1]! < y0) y0 = fbox[b + 1]!;
    if (fbox[b + 2]! < z0) z0 = fbox[b + 2]!;
    if (fbox[b + 3]! > x1) x1 = fbox[b + 3]!;
    if (fbox[b + 4]! > y1) y1 = fbox[b + 4]!;
    if (fbox[b + 5]! > z1) z1 = fbox[b + 5]!;
    const c = f * 3;
    if (cent[c]! < cx0) cx0 = cent[c]!;
    if (cent[c]! > cx1) cx1 = cent[c]!;
    if (cent[c + 1]! < cy0) cy0 = cent[c + 1]!;
    if (cent[c + 1]! > cy1) cy1 = cent[c + 1]!;
    if (cent[c + 2]! < cz0) cz0 = cent[c + 2]!;
    if (cent[c + 2]! > cz1) cz1 = cent[c + 2]!;
  }
  nodes.box[nb] = padLow(x0);
  nodes.box[nb + 1] = padLow(y0);
  nodes.box[nb + 2] = padLow(z0);
  nodes.box[nb + 3] = padHigh(x1);
  nodes.box[nb + 4] = padHigh(y1);
  nodes.box[nb + 5] = padHigh(z1);
  if (hi - lo <= leaf) {
    nodes.left[node] = -1;
    nodes.right[node] = lo;
    nodes.info[node] = hi - lo;
    return node;
  }
  // Split at the median centroid along the widest centroid axis (NaN extents count as 0); ties by face index.
  const ex = cx1 - cx0, ey = cy1 - cy0, ez = cz1 - cz0;
  const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
  const sub = order.subarray(lo, hi);
  sub.sort((a, b) => {
    const d = cent[a * 3 + axis]! - cent[b * 3 + axis]!;
    return d < 0 ? -1 : d > 0 ? 1 : a - b;
  });
  const mid = (lo + hi) >> 1;
  const l = buildFaces(nodes, order, lo, mid, fbox, cent, leaf);
  const r = buildFaces(nodes, order, mid, hi, fbox, cent, leaf);
  nodes.left[node] = l;
  nodes.right[node] = r;
  nodes.info[node] = axis;
  return node;
}

/** Builds the levels above the group subtrees: a median split over the groups' box centres, one group per leaf. */
function buildGroupLevel(nodes: NodeList, roots: number[], lo: number, hi: number): number {
  if (hi - lo === 1) return roots[lo]!;
  const node = nodes.add();
  const nb = node * 6;
  const B = nodes.box;
  const c0 = [Infinity, Infinity, Infinity], c1 = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < 6; k++) B[nb + k] = k < 3 ? Infinity : -Infinity;
  for (let i = lo; i < hi; i++) {
    const r = roots[i]! * 6;
    for (let k = 0; k < 3; k++) {
      if (B[r + k]! < B[nb + k]!) B[nb + k] = B[r + k]!;
      if (B[r + 3 + k]! > B[nb + 3 + k]!) B[nb + 3 + k] = B[r + 3 + k]!;
      const c = (B[r + k]! + B[r + 3 + k]!) * 0.5;
      if (c < c0[k]!) c0[k] = c;
      if (c > c1[k]!) c1[k] = c;
    }
  }
  const e = [c1[0]! - c0[0]!, c1[1]! - c0[1]!, c1[2]! - c0[2]!];
  const axis = e[0]! >= e[1]! && e[0]! >= e[2]! ? 0 : e[1]! >= e[2]! ? 1 : 2;
  const sub = roots.slice(lo, hi).sort((a, b) => {
    const d = B[a * 6 + axis]! + B[a * 6 + 3 + axis]! - (B[b * 6 + axis]! + B[b * 6 + 3 + axis]!);
    return d < 0 ? -1 : d > 0 ? 1 : a - b;
  });
  for (let i = lo; i < hi; i++) roots[i] = sub[i - lo]!;
  const mid = (lo + hi) >> 1;
  const l = buildGroupLevel(nodes, roots, lo, mid);
  const r = buildGroupLevel(nodes, roots, mid, hi);
  nodes.left[node] = l;
  nodes.right[node] = r;
  nodes.info[node] = axis;
  return node;
}

/** Swaps node `root` into slot 0 (queries start at node 0), fixing every child link. */
function moveRootFirst(nodes: NodeList, root: number): void {
  const swap = (i: number): number => (i === root ? 0 : i === 0 ? root : i);
  for (const arr of [nodes.left, nodes.right, nodes.info]) {
    const t = arr[0]!;
    arr[0] = arr[root]!;
    arr[root] = t;
  }
  for (let k = 0; k < 6; k++) {
    const t = nodes.box[k]!;
    nodes.box[k] = nodes.box[root * 6 + k]!;
    nodes.box[root * 6 + k] = t;
  }
  for (let i = 0; i < nodes.left.length; i++) {
    if (nodes.left[i]! >= 0) {
      nodes.left[i] = swap(nodes.left[i]!);
      nodes.right[i] = swap(nodes.right[i]!);
    }
  }
}

function finish(nodes: NodeList, order: Uint32Array, usesGroups: boolean): BuiltTree {
  return {
    box: Float64Array.from(nodes.box),
    left: Int32Array.from(nodes.left),
    right: Int32Array.from(nodes.right),
    info: Int32Array.from(nodes.info),
    count: nodes.left.length,
    order,
    usesGroups,
  };
}
