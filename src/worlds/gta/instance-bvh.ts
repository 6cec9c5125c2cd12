/**
 * The broad phase over placements: a bounding-volume hierarchy over the world boxes of the placed models,
 * built once when the scene is made, so that a query visits the few placements near it instead of all.
 *
 * Placements that are exactly alike (the same model, position and rotation, bit for bit) form one class and
 * are one entry in the tree. A segment or an overlap test only ever needs the first of a class (a later copy
 * can never give a nearer hit, see ColScene); push-out walks a class's members in order.
 *
 * The tree only prunes: a node's box is the exact union (min and max, no arithmetic) of its children's, and
 * the tests on it are the same expressions the scene applies to one placement, so a node passes whenever one
 * of its placements would. Candidates come out in ascending class order, which is the order of each class's
 * first placement. The build uses comparisons only (median splits, ties by index), so it is the same
 * everywhere; queries allocate nothing.
 */

/** Classes per leaf. */
const LEAF_CLASSES = 4;

export class InstanceBroadPhase {
  /** Number of distinct placements (classes). */
  readonly classCount: number;
  /** Class of each placement. Classes are numbered in order of their first placement. */
  readonly classOf: Int32Array;
  /** Per class: where its members start in `members` (classCount + 1 entries). */
  readonly memberStart: Int32Array;
  /** Placements grouped by class, ascending within each class (so the first is the class's lowest index). */
  readonly members: Int32Array;
  /** Node boxes (min xyz, max xyz). */
  readonly nodeBox: Float64Array;
  /** Leaf: -1; internal: left child. */
  readonly nodeLeft: Int32Array;
  /** Leaf: first entry in `leafClasses`; internal: right child. */
  readonly nodeRight: Int32Array;
  /** Leaf: number of classes. */
  readonly nodeCount: Int32Array;
  /** Classes in leaf order. */
  readonly leafClasses: Int32Array;
  /** Nodes in the tree (0 when no placement can be hit). */
  readonly nodes: number;
  private readonly box: Float64Array;
  private readonly stack: Int32Array;

  /**
   * `instBox` holds each placement's world box (min xyz, max xyz; +inf/-inf for a model with nothing solid),
   * `instModel`, `instPos` and `instRot` what makes two placements alike.
   */
  constructor(count: number, instModel: Int32Array, instPos: Float64Array, instRot: Float64Array, instBox: Float64Array) {
    // Classes: placements equal bit for bit in model, position and rotation (so -0 and 0 differ, as they may
    // in results). A hash of the words finds candidates; the words themselves decide.
    const pos = new Uint32Array(instPos.buffer, instPos.byteOffset, count * 6);
    const rot = new Uint32Array(instRot.buffer, instRot.byteOffset, count * 18);
    const same = (a: number, b: number): boolean => {
      if (instModel[a] !== instModel[b]) return false;
      for (let k = 0; k < 6; k++) if (pos[a * 6 + k] !== pos[b * 6 + k]) return false;
      for (let k = 0; k < 18; k++) if (rot[a * 18 + k] !== rot[b * 18 + k]) return false;
      return true;
    };
    const classOf = new Int32Array(count);
    const firstOf: number[] = [];
    const byHash = new Map<number, number[]>();
    for (let i = 0; i < count; i++) {
      let h = Math.imul(instModel[i]! ^ 0x9e3779b9, 0x85ebca6b);
      for (let k = 0; k < 6; k++) h = Math.imul(h ^ pos[i * 6 + k]!, 0x01000193);
      for (let k = 0; k < 18; k++) h = Math.imul(h ^ rot[i * 18 + k]!, 0x01000193);
      const list = byHash.get(h);
      let c = -1;
      if (list) {
        for (const cand of list) {
          if (same(firstOf[cand]!, i)) {
            c = cand;
            break;
          }
        }
      }
      if (c < 0) {
        c = firstOf.length;
        firstOf.push(i);
        if (list) list.push(c);
        else byHash.set(h, [c]);
      }
      classOf[i] = c;
    }
    const nc = firstOf.length;
    this.classCount = nc;
    this.classOf = classOf;
    const start = new Int32Array(nc + 1);
    for (let i = 0; i < count; i++) start[classOf[i]! + 1]!++;
    for (let c = 0; c < nc; c++) start[c + 1]! += start[c]!;
    const fill = start.slice(0, nc);
    const members = new Int32Array(count);
    for (let i = 0; i < count; i++) members[fill[classOf[i]!]!++] = i;
    this.memberStart = start;
    this.members = members;

    // Class boxes; a class whose box is the empty one (+inf..-inf on every axis) can never be hit and stays out.
    const box = new Float64Array(nc * 6);
    const used: number[] = [];
    for (let c = 0; c < nc; c++) {
      const i = firstOf[c]!;
      let empty = true;
      for (let k = 0; k < 3; k++) {
        box[c * 6 + k] = instBox[i * 6 + k]!;
        box[c * 6 + 3 + k] = instBox[i * 6 + 3 + k]!;
        if (!(instBox[i * 6 + k] === Infinity && instBox[i * 6 + 3 + k] === -Infinity)) empty = false;
      }
      if (!empty) used.push(c);
    }
    this.box = box;
    const ids = Int32Array.from(used);
    const n = ids.length;
    const maxNodes = n === 0 ? 0 : 2 * Math.ceil(n / LEAF_CLASSES) + 1;
    const b = new TreeBuilder(box, ids, maxNodes);
    if (n > 0) b.build(0, n, 0);
    this.nodes = b.count;
    this.nodeBox = b.nodeBox.slice(0, b.count * 6);
    this.nodeLeft = b.left.slice(0, b.count);
    this.nodeRight = b.right.slice(0, b.count);
    this.nodeCount = b.leafCount.slice(0, b.count);
    this.leafClasses = ids;
    this.stack = new Int32Array(b.depth + 2);
  }

  /** The lowest placement of class `c`. */
  first(c: number): number {
    return this.members[this.memberStart[c]!]!;
  }

  /** The lowest placement of class `c` at or after `from`, or -1. */
  nextMember(c: number, from: number): number {
    let lo = this.memberStart[c]!, hi = this.memberStart[c + 1]!;
    const M = this.members;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (M[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.memberStart[c + 1]! ? M[lo]! : -1;
  }

  /**
   * The classes whose box the segment from (fx, fy, fz) with inverse direction (ix, iy, iz) enters for t in
   * [0, 1], by the scene's own slab test; written to `out` in ascending order, count returned.
   */
  segmentClasses(fx: number, fy: number, fz: number, ix: number, iy: number, iz: number, out: Int32Array): number {
    if (this.nodes === 0) return 0;
    const nx0 = ix >= 0 ? 0 : 3, ny0 = iy >= 0 ? 1 : 4, nz0 = iz >= 0 ? 2 : 5;
    const fx0 = 3 - nx0, fy0 = 5 - ny0, fz0 = 7 - nz0;
    const NB = this.nodeBox, CB = this.box, L = this.nodeLeft, R = this.nodeRight, C = this.nodeCount, LC = this.leafClasses;
    const stack = this.stack;
    let sp = 0, n = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const node = stack[--sp]!;
      if (!slabPasses(NB, node * 6, fx, fy, fz, ix, iy, iz, nx0, ny0, nz0, fx0, fy0, fz0)) continue;
      const left = L[node]!;
      if (left >= 0) {
        stack[sp++] = R[node]!;
        stack[sp++] = left;
        continue;
      }
      for (let k = R[node]!, end = k + C[node]!; k < end; k++) {
        const c = LC[k]!;
        if (slabPasses(CB, c * 6, fx, fy, fz, ix, iy, iz, nx0, ny0, nz0, fx0, fy0, fz0)) out[n++] = c;
      }
    }
    sortAscending(out, n);
    return n;
  }

  /** The classes whose box a sphere touches (the scene's own test), ascending in `out`; count returned. */
  sphereClasses(x: number, y: number, z: number, r: number, out: Int32Array): number {
    if (this.nodes === 0) return 0;
    const NB = this.nodeBox, CB = this.box, L = this.nodeLeft, R = this.nodeRight, C = this.nodeCount, LC = this.leafClasses;
    const stack = this.stack;
    let sp = 0, n = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const node = stack[--sp]!;
      if (!touches(NB, node * 6, x, y, z, r)) continue;
      const left = L[node]!;
      if (left >= 0) {
        stack[sp++] = R[node]!;
        stack[sp++] = left;
        continue;
      }
      for (let k = R[node]!, end = k + C[node]!; k < end; k++) {
        const c = LC[k]!;
        if (touches(CB, c * 6, x, y, z, r)) out[n++] = c;
      }
    }
    sortAscending(out, n);
    return n;
  }
}

/** The scene's slab test on box b for t in [0, 1] (the same expressions, so the same answer). */
function slabPasses(
  B: Float64Array, b: number, fx: number, fy: number, fz: number, ix: number, iy: number, iz: number,
  nx0: number, ny0: number, nz0: number, fx0: number, fy0: number, fz0: number,
): boolean {
  let t0 = 0, t1 = 1;
  let v = (B[b + nx0]! - fx) * ix;
  if (v > t0) t0 = v;
  v = (B[b + fx0]! - fx) * ix;
  if (v < t1) t1 = v;
  v = (B[b + ny0]! - fy) * iy;
  if (v > t0) t0 = v;
  v = (B[b + fy0]! - fy) * iy;
  if (v < t1) t1 = v;
  v = (B[b + nz0]! - fz) * iz;
  if (v > t0) t0 = v;
  v = (B[b + fz0]! - fz) * iz;
  if (v < t1) t1 = v;
  return t0 <= t1;
}

/** The scene's sphere-against-box test. */
function touches(B: Float64Array, b: number, x: number, y: number, z: number, r: number): boolean {
  return x + r >= B[b]! && x - r <= B[b + 3]! && y + r >= B[b + 1]! && y - r <= B[b + 4]! && z + r >= B[b + 2]! && z - r <= B[b + 5]!;
}

/** Sorts a[0, n) ascending in place: insertion sort when short, heapsort otherwise (nothing allocated). */
export function sortAscending(a: Int32Array, n: number): void {
  if (n <= 24) {
    for (let i = 1; i < n; i++) {
      const v = a[i]!;
      let j = i - 1;
      while (j >= 0 && a[j]! > v) {
        a[j + 1] = a[j]!;
        j--;
      }
      a[j + 1] = v;
    }
    return;
  }
  const sift = (root: number, end: number): void => {
    for (;;) {
      let child = 2 * root + 1;
      if (child >= end) return;
      if (child + 1 < end && a[child + 1]! > a[child]!) child++;
      if (a[root]! >= a[child]!) return;
      const t = a[root]!;
      a[root] = a[child]!;
      a[child] = t;
      root = child;
    }
  };
  for (let i = (n >> 1) - 1; i >= 0; i--) sift(i, n);
  for (let end = n - 1; end > 0; end--) {
    const t = a[0]!;
    a[0] = a[end]!;
    a[end] = t;
    sift(0, end);
  }
}

/** Builds the tree over `ids` (reordered in place into leaf order) by median splits. */
class TreeBuilder {
  readonly nodeBox: Float64Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly leafCount: Int32Array;
  count = 0;
  depth = 0;
  private readonly key: Float64Array;

  constructor(
    private readonly box: Float64Array,
    private readonly ids: Int32Array,
    maxNodes: number,
  ) {
    this.nodeBox = new Float64Array(maxNodes * 6);
    this.left = new Int32Array(maxNodes);
    this.right = new Int32Array(maxNodes);
    this.leafCount = new Int32Array(maxNodes);
    this.key = new Float64Array(box.length / 6);
  }

  build(lo: number, hi: number, depth: number): number {
    if (depth > this.depth) this.depth = depth;
    const node = this.count++;
    const B = this.box, ids = this.ids, NB = this.nodeBox;
    for (let k = 0; k < 3; k++) {
      NB[node * 6 + k] = Infinity;
      NB[node * 6 + 3 + k] = -Infinity;
    }
    const c0 = [Infinity, Infinity, Infinity], c1 = [-Infinity, -Infinity, -Infinity];
    for (let j = lo; j < hi; j++) {
      const c = ids[j]! * 6;
      for (let k = 0; k < 3; k++) {
        if (B[c + k]! < NB[node * 6 + k]!) NB[node * 6 + k] = B[c + k]!;
        if (B[c + 3 + k]! > NB[node * 6 + 3 + k]!) NB[node * 6 + 3 + k] = B[c + 3 + k]!;
        const m = centre(B[c + k]!, B[c + 3 + k]!);
        if (m < c0[k]!) c0[k] = m;
        if (m > c1[k]!) c1[k] = m;
      }
    }
    if (hi - lo <= LEAF_CLASSES) {
      this.left[node] = -1;
      this.right[node] = lo;
      this.leafCount[node] = hi - lo;
      return node;
    }
    // Split at the median centre along the widest spread of centres (a NaN spread counts as none).
    const e0 = c1[0]! - c0[0]!, e1 = c1[1]! - c0[1]!, e2 = c1[2]! - c0[2]!;
    const s0 = e0 === e0 ? e0 : 0, s1 = e1 === e1 ? e1 : 0, s2 = e2 === e2 ? e2 : 0;
    const axis = s0 >= s1 && s0 >= s2 ? 0 : s1 >= s2 ? 1 : 2;
    const key = this.key;
    for (let j = lo; j < hi; j++) key[ids[j]!] = centre(B[ids[j]! * 6 + axis]!, B[ids[j]! * 6 + 3 + axis]!);
    const mid = (lo + hi) >>> 1;
    select(ids, lo, hi - 1, mid, key);
    const l = this.build(lo, mid, depth + 1);
    const r = this.build(mid, hi, depth + 1);
    this.left[node] = l;
    this.right[node] = r;
    return node;
  }
}

/** The middle of [lo, hi] as a sort key: never NaN (an unbounded axis counts as 0). */
function centre(lo: number, hi: number): number {
  const m = lo * 0.5 + hi * 0.5;
  return m === m ? m : 0;
}

/** Reorders ids[lo..hi] so that ids[k] is the k-th by (key, id), smaller ones before it, larger after. */
function select(ids: Int32Array, lo: number, hi: number, k: number, key: Float64Array): void {
  const less = (a: number, b: number): boolean => key[a]! < key[b]! || (key[a] === key[b] && a < b);
  while (hi > lo) {
    // Median of three as the pivot, moved to hi.
    const mid = (lo + hi) >>> 1;
    let a = ids[lo]!, b = ids[mid]!, c = ids[hi]!;
    let p: number;
    if (less(a, b)) p = less(b, c) ? mid : less(a, c) ? hi : lo;
    else p = less(a, c) ? lo : less(b, c) ? hi : mid;
    a = ids[p]!;
    ids[p] = ids[hi]!;
    ids[hi] = a;
    const pivot = a;
    let store = lo;
    for (let j = lo; j < hi; j++) {
      if (less(ids[j]!, pivot)) {
        b = ids[j]!;
        ids[j] = ids[store]!;
        ids[store++] = b;
      }
    }
    c = ids[store]!;
    ids[store] = ids[hi]!;
    ids[hi] = c;
    if (store === k) return;
    if (k < store) hi = store - 1;
    else lo = store + 1;
  }
}
