/**
 * The segment test of a whole scene in one function: every placed model's spheres, boxes and packed tree laid
 * out end to end in shared typed arrays (struct of arrays, global node and leaf numbers), and one walk that
 * does what ColScene's reference path does through its calls — a placement's box, the move into model space,
 * the spheres, the boxes, the tree — written out inline, so a query passes no floating-point arguments
 * through calls (which the engine would box) and allocates nothing.
 *
 * The order and the arithmetic are the reference's, expression for expression: placements in the order
 * given, the first of equal hits kept, the tree's children nearer first (ties to the left) with the same
 * slab tests and limits. So the fraction and the hit details (kind, index, model-space normal, placement)
 * are the reference's bit for bit; a property test holds the two together.
 */
import { detSqrt } from '../../numeric/det-math.js';
import { HIT_BOX, HIT_FACE, HIT_NONE, HIT_SPHERE, PACK_NONE, type ModelCollider } from './bvh.js';
import { INFINITY_SLOT } from '../../numeric/special-doubles.js';

/** Depth of the walk's stack (as a model's own walk). */
export const STACK_SIZE = 256;
/** Most placements the grid over placements takes (a bit each per cell); above, every placement is tried. */
export const GRID_MAX_PLACEMENTS = 256;
/**
 * The height map that proves segments clear: placements and segments within ± this on every axis only, so that
 * the rounding of every test the reference makes (slab tests on the tree's boxes, the spheres' quadratic) stays
 * far below CAP_MARGIN.
 */
const CAP_MAX_COORD = 1 << 15;
/** Most boxes (leaf boxes, spheres and boxes of every placement) the height map is built from; above, none. */
const CAP_MAX_BOXES = 1 << 18;
/** Cells of the height map along each of x and y, at most. */
const CAP_CELLS = 32;
/** Rectangle sizes of the map's maxima (`capMax`): 2^0 .. 2^(CAP_LEVELS − 1) cells along each axis. */
const CAP_LEVELS = 6;
/**
 * How far (metres) a segment must pass above every leaf box of every tree, every sphere and every box of the
 * scene, or beside them on x or y, to be clear without a walk. See SceneSegmentKernel.capClear.
 */
const CAP_MARGIN = 1 / 256;
/** Cells of the grid over placements along each of x and y, at most. */
const GRID_CELLS = 16;
/** Most cells a segment's box may cover for the grid to be used (more: every placement is tried). */
const GRID_MAX_SEGMENT_CELLS = 64;
/**
 * Each placement is put in the cells its box widened by this many metres touches, so a segment whose box
 * misses those cells is farther than this from the placement's box on x or y.
 */
const GRID_MARGIN = 1 / 1024;
/**
 * The grid is used only for segments shorter than this on x and y, and built only when every finite placement
 * box lies within ± this on x and y: then a segment GRID_MARGIN beside a box
 * fails the reference's own slab test on it (its entry fraction is above 1 by far more than the rounding of
 * (plane − start) × (1 / d)), so a placement the grid leaves out is one the reference would not try.
 */
const GRID_MAX_EXTENT = 1 << 30;

/** What the last run hit (valid when it returned ≥ 0): as ColScene's `last`. */
export interface KernelHit {
  instance: number;
  kind: number;
  index: number;
  nx: number;
  ny: number;
  nz: number;
}

/**
 * The tables of a SceneSegmentKernel as it holds them (struct of arrays, global node and leaf numbers), with its
 * grid over placements and its height map: what the WebAssembly walk (segment-walk-wasm.ts) copies into its
 * memory. Read only.
 */
export interface SceneKernelTables {
  instModel: Int32Array;
  instRot: Float64Array;
  instPos: Float64Array;
  instBox: Float64Array;
  sphereStart: Int32Array;
  boxStart: Int32Array;
  spheres: Float64Array;
  boxes: Float64Array;
  root: Int32Array;
  rootBox: Float64Array;
  packBox: Float64Array;
  packChild: Int32Array;
  leafFirst: Int32Array;
  leafCount: Int32Array;
  tri: Float64Array;
  /** The grid over placements (null when not built), its `always` masks, words per cell, origin, 1 / cell size, size. */
  grid: Int32Array | null;
  always: Int32Array;
  words: number;
  gx0: number;
  gy0: number;
  gInv: number;
  gw: number;
  gh: number;
  /** The height map's rectangle maxima (CAP_LEVELS² levels, null when there is no map), origin, 1 / cell size, size. */
  capMax: readonly Float64Array[] | null;
  cx0: number;
  cy0: number;
  cInv: number;
  cw: number;
  ch: number;
}

export class SceneSegmentKernel {
  private readonly instCount: number;
  private readonly instModel: Int32Array;
  private readonly instRot: Float64Array;
  private readonly instPos: Float64Array;
  private readonly instBox: Float64Array;
  /** Per model: first sphere number and end (spheres are 4 numbers), likewise boxes (6 numbers). */
  private readonly sphereStart: Int32Array;
  private readonly boxStart: Int32Array;
  private readonly spheres: Float64Array;
  private readonly sphereIndex: Int32Array;
  private readonly boxes: Float64Array;
  private readonly boxIndex: Int32Array;
  /** Per model: its root (a global inner number, ~global leaf, or PACK_NONE) and root box (6 numbers). */
  private readonly root: Int32Array;
  private readonly rootBox: Float64Array;
  /** Inner nodes of every model: both children's boxes (12 numbers), their references (global). */
  private readonly packBox: Float64Array;
  private readonly packChild: Int32Array;
  /** Per global leaf: first global triangle and count. */
  private readonly leafFirst: Int32Array;
  private readonly leafCount: Int32Array;
  /** Triangles of every model in leaf order (9 numbers: v0, e1, e2) and their face numbers within the model. */
  private readonly tri: Float64Array;
  private readonly order: Uint32Array;
  private readonly stack = new Int32Array(STACK_SIZE);
  private readonly tstack = new Float64Array(STACK_SIZE);
  /**
   * The grid over placements on x and y (null when there are too many placements or none is finite): per
   * cell, `words` 32-bit masks of the placements whose widened box touches it; `always` the placements whose
   * box is not finite (tried by every segment).
   */
  private readonly grid: Int32Array | null = null;
  private readonly always: Int32Array;
  private readonly words: number;
  private readonly gx0: number = 0;
  private readonly gy0: number = 0;
  private readonly gInv: number = 0;
  private readonly gw: number = 0;
  private readonly gh: number = 0;
  /**
   * The height map (null when it does not apply): per cell on x and y, a height above which a segment touches
   * nothing the reference could test (see capClear); −∞ for a cell with nothing.
   */
  private readonly cap: Float64Array | null = null;
  /**
   * The map's rectangle maxima: entry kx × CAP_LEVELS + ky holds, per cell (y-major), the highest cell of the
   * 2^kx × 2^ky cells starting there (cut at the map's edge), so the highest cell of any box of cells is the
   * highest of four entries. Null with `cap`.
   */
  private readonly capMax: readonly Float64Array[] | null = null;
  private readonly cx0: number = 0;
  private readonly cy0: number = 0;
  private readonly cInv: number = 0;
  private readonly cw: number = 0;
  private readonly ch: number = 0;
  /** The answer of the last run. */
  readonly result = new Float64Array(1);
  /** The placements a grid query found, ascending. */
  private readonly cand: Int32Array;

  constructor(colliders: readonly ModelCollider[], instModel: Int32Array, instRot: Float64Array, instPos: Float64Array, instBox: Float64Array) {
    this.instCount = instModel.length;
    this.instModel = instModel;
    this.instRot = instRot;
    this.instPos = instPos;
    this.instBox = instBox;
    const m = colliders.length;
    this.sphereStart = new Int32Array(m + 1);
    this.boxStart = new Int32Array(m + 1);
    this.root = new Int32Array(m);
    this.rootBox = new Float64Array(m * 6);
    let spheres = 0, boxes = 0, inner = 0, leaves = 0, tris = 0;
    for (let k = 0; k < m; k++) {
      const c = colliders[k]!;
      this.sphereStart[k] = spheres;
      this.boxStart[k] = boxes;
      spheres += c.spheres.length >> 2;
      boxes += (c.boxes.length / 6) | 0;
      inner += c.packChild.length >> 1;
      leaves += c.leafFirst.length;
      tris += c.faceCount;
    }
    this.sphereStart[m] = spheres;
    this.boxStart[m] = boxes;
    this.spheres = new Float64Array(spheres * 4);
    this.sphereIndex = new Int32Array(spheres);
    this.boxes = new Float64Array(boxes * 6);
    this.boxIndex = new Int32Array(boxes);
    this.packBox = new Float64Array(inner * 12);
    this.packChild = new Int32Array(inner * 2);
    this.leafFirst = new Int32Array(leaves);
    this.leafCount = new Int32Array(leaves);
    this.tri = new Float64Array(tris * 9);
    this.order = new Uint32Array(tris);
    inner = leaves = tris = 0;
    for (let k = 0; k < m; k++) {
      const c = colliders[k]!;
      this.spheres.set(c.spheres, this.sphereStart[k]! * 4);
      this.sphereIndex.set(c.sphereIndex, this.sphereStart[k]!);
      this.boxes.set(c.boxes, this.boxStart[k]! * 6);
      this.boxIndex.set(c.boxIndex, this.boxStart[k]!);
      this.rootBox.set(c.rootBox, k * 6);
      const move = (ref: number): number => (ref === PACK_NONE ? PACK_NONE : ref >= 0 ? ref + inner : ~(~ref + leaves));
      this.root[k] = move(c.packRoot);
      this.packBox.set(c.packBox, inner * 12);
      for (let q = 0; q < c.packChild.length; q++) this.packChild[inner * 2 + q] = move(c.packChild[q]!);
      for (let q = 0; q < c.leafFirst.length; q++) {
        this.leafFirst[leaves + q] = c.leafFirst[q]! + tris;
        this.leafCount[leaves + q] = c.leafCount[q]!;
      }
      this.tri.set(c.tri, tris * 9);
      this.order.set(c.order, tris);
      inner += c.packChild.length >> 1;
      leaves += c.leafFirst.length;
      tris += c.faceCount;
    }
    const count = this.instCount;
    this.words = (count + 31) >>> 5;
    this.always = new Int32Array(this.words);
    this.cand = new Int32Array(count);
    if (count > 0 && count <= GRID_MAX_PLACEMENTS) {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      const fin = (i: number): boolean => {
        for (let k = 0; k < 6; k++) if (!(instBox[i * 6 + k]! - instBox[i * 6 + k]! === 0)) return false;
        return true;
      };
      for (let i = 0; i < count; i++) {
        if (!fin(i)) continue;
        if (instBox[i * 6]! < x0) x0 = instBox[i * 6]!;
        if (instBox[i * 6 + 1]! < y0) y0 = instBox[i * 6 + 1]!;
        if (instBox[i * 6 + 3]! > x1) x1 = instBox[i * 6 + 3]!;
        if (instBox[i * 6 + 4]! > y1) y1 = instBox[i * 6 + 4]!;
      }
      const extent = x1 - x0 > y1 - y0 ? x1 - x0 : y1 - y0;
      // Boxes within ±GRID_MAX_EXTENT, so the margin is far above the rounding of box ± margin.
      if (extent > 0 && x0 > -GRID_MAX_EXTENT && y0 > -GRID_MAX_EXTENT && x1 < GRID_MAX_EXTENT && y1 < GRID_MAX_EXTENT) {
        const size = extent / GRID_CELLS;
        const inv = 1 / size;
        const w = Math.min(GRID_CELLS, Math.floor((x1 - x0) * inv) + 1), h = Math.min(GRID_CELLS, Math.floor((y1 - y0) * inv) + 1);
        const grid = new Int32Array(w * h * this.words);
        const cell = (v: number, o: number, n: number): number => {
          const c = Math.floor((v - o) * inv);
          return c < 0 ? 0 : c > n - 1 ? n - 1 : c;
        };
        for (let i = 0; i < count; i++) {
          const bit = 1 << (i & 31), word = i >>> 5;
          // Empty models (+inf/−inf boxes) are never hit and go nowhere; other non-finite boxes everywhere.
          if (!(instBox[i * 6]! <= instBox[i * 6 + 3]!)) continue;
          if (!fin(i)) {
            this.always[word]! |= bit;
            continue;
          }
          const cx0 = cell(instBox[i * 6]! - GRID_MARGIN, x0, w), cx1 = cell(instBox[i * 6 + 3]! + GRID_MARGIN, x0, w);
          const cy0 = cell(instBox[i * 6 + 1]! - GRID_MARGIN, y0, h), cy1 = cell(instBox[i * 6 + 4]! + GRID_MARGIN, y0, h);
          for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) grid[(cy * w + cx) * this.words + word]! |= bit;
        }
        this.grid = grid;
        this.gx0 = x0;
        this.gy0 = y0;
        this.gInv = inv;
        this.gw = w;
        this.gh = h;
      }
    }
    const cap = this.buildCap(colliders);
    if (cap) {
      this.cap = cap.cap;
      this.capMax = rectangleMaxima(cap.cap, cap.w, cap.h);
      this.cx0 = cap.x0;
      this.cy0 = cap.y0;
      this.cInv = cap.inv;
      this.cw = cap.w;
      this.ch = cap.h;
    }
  }

  /**
   * The height map over every placement's leaf boxes, spheres and boxes: each one's world box (its corners
   * turned and moved, widened a little as the placement boxes are) raised by CAP_MARGIN is put in the cells
   * its x/y extent widened by CAP_MARGIN touches. Null when a placement is not finite or lies beyond
   * CAP_MAX_COORD, or the scene has more than CAP_MAX_BOXES of them.
   */
  private buildCap(colliders: readonly ModelCollider[]): { cap: Float64Array; x0: number; y0: number; inv: number; w: number; h: number } | null {
    const n = this.instCount, IB = this.instBox, R = this.instRot, P = this.instPos;
    if (n === 0) return null;
    let boxes = 0;
    for (let i = 0; i < n && boxes <= CAP_MAX_BOXES; i++) {
      const c = colliders[this.instModel[i]!]!;
      boxes += (c.spheres.length >> 2) + ((c.boxes.length / 6) | 0) + c.leafFirst.length;
    }
    if (boxes > CAP_MAX_BOXES) return null;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i < n; i++) {
      if (!(IB[i * 6]! <= IB[i * 6 + 3]!)) continue; // nothing solid
      for (let k = 0; k < 6; k++) if (!(IB[i * 6 + k]! >= -CAP_MAX_COORD && IB[i * 6 + k]! <= CAP_MAX_COORD)) return null;
      if (IB[i * 6]! < x0) x0 = IB[i * 6]!;
      if (IB[i * 6 + 1]! < y0) y0 = IB[i * 6 + 1]!;
      if (IB[i * 6 + 3]! > x1) x1 = IB[i * 6 + 3]!;
      if (IB[i * 6 + 4]! > y1) y1 = IB[i * 6 + 4]!;
    }
    const extent = x1 - x0 > y1 - y0 ? x1 - x0 : y1 - y0;
    if (!(extent > 0)) return null;
    const inv = CAP_CELLS / extent;
    const w = Math.min(CAP_CELLS, Math.floor((x1 - x0) * inv) + 1), h = Math.min(CAP_CELLS, Math.floor((y1 - y0) * inv) + 1);
    const cap = new Float64Array(w * h).fill(-Infinity);
    const cell = (v: number, o: number, m: number): number => {
      const c = Math.floor((v - o) * inv);
      return c < 0 ? 0 : c > m - 1 ? m - 1 : c;
    };
    const box = new Float64Array(6);
    let ok = true;
    // One model-space box of placement i into the map.
    const put = (i: number, B: Float64Array, b: number): void => {
      for (let k = 0; k < 3; k++) {
        box[k] = Infinity;
        box[k + 3] = -Infinity;
      }
      for (let corner = 0; corner < 8; corner++) {
        const lx = corner & 1 ? B[b + 3]! : B[b]!, ly = corner & 2 ? B[b + 4]! : B[b + 1]!, lz = corner & 4 ? B[b + 5]! : B[b + 2]!;
        for (let k = 0; k < 3; k++) {
          const v = R[i * 9 + k * 3]! * lx + R[i * 9 + k * 3 + 1]! * ly + R[i * 9 + k * 3 + 2]! * lz + P[i * 3 + k]!;
          const pad = ((v < 0 ? -v : v) + 1) / (1 << 20);
          if (v - pad < box[k]!) box[k] = v - pad;
          if (v + pad > box[k + 3]!) box[k + 3] = v + pad;
        }
      }
      for (let k = 0; k < 6; k++) if (!(box[k]! >= -CAP_MAX_COORD && box[k]! <= CAP_MAX_COORD)) ok = false;
      if (!ok) return;
      const top = box[5]! + CAP_MARGIN;
      const gx0 = cell(box[0]! - CAP_MARGIN, x0, w), gx1 = cell(box[3]! + CAP_MARGIN, x0, w);
      const gy0 = cell(box[1]! - CAP_MARGIN, y0, h), gy1 = cell(box[4]! + CAP_MARGIN, y0, h);
      for (let gy = gy0; gy <= gy1; gy++) for (let gx = gx0; gx <= gx1; gx++) if (top > cap[gy * w + gx]!) cap[gy * w + gx] = top;
    };
    const sphereBox = new Float64Array(6);
    for (let i = 0; i < n && ok; i++) {
      const c = colliders[this.instModel[i]!]!;
      const S = c.spheres;
      for (let q = 0; q < S.length; q += 4) {
        for (let k = 0; k < 3; k++) {
          sphereBox[k] = S[q + k]! - S[q + 3]!;
          sphereBox[k + 3] = S[q + k]! + S[q + 3]!;
        }
        put(i, sphereBox, 0);
      }
      for (let q = 0; q < c.boxes.length; q += 6) put(i, c.boxes, q);
      // The tree's leaves: the root when it is one, else the children of inner nodes that are leaves.
      if (c.packRoot === PACK_NONE) continue;
      if (c.packRoot < 0) put(i, c.rootBox, 0);
      for (let k = 0; k < c.packChild.length; k++) if (c.packChild[k]! < 0) put(i, c.packBox, k * 6);
    }
    return ok ? { cap, x0, y0, inv, w, h } : null;
  }

  /** @internal The tables, the grid and the height map as held (for the WebAssembly walk; not to be written). */
  tables(): SceneKernelTables {
    return {
      instModel: this.instModel,
      instRot: this.instRot,
      instPos: this.instPos,
      instBox: this.instBox,
      sphereStart: this.sphereStart,
      boxStart: this.boxStart,
      spheres: this.spheres,
      boxes: this.boxes,
      root: this.root,
      rootBox: this.rootBox,
      packBox: this.packBox,
      packChild: this.packChild,
      leafFirst: this.leafFirst,
      leafCount: this.leafCount,
      tri: this.tri,
      grid: this.grid,
      always: this.always,
      words: this.words,
      gx0: this.gx0,
      gy0: this.gy0,
      gInv: this.gInv,
      gw: this.gw,
      gh: this.gh,
      capMax: this.capMax,
      cx0: this.cx0,
      cy0: this.cy0,
      cInv: this.cInv,
      cw: this.cw,
      ch: this.ch,
    };
  }

  /** Stage one's list (`screen`): the indices of the segments left for the walk. */
  private restList = new Uint32Array(0);
  /** One segment, for `capClear`. */
  private readonly one = new Float64Array(6);

  /** The indices `screen` left for the walk, in order (valid until the next `screen` or batch). */
  get rest(): Uint32Array {
    return this.restList;
  }

  /**
   * Stage one of a batch: every segment of `segments[start..end)` (6 numbers each) that is not finite or that the
   * height map proves clear gets its answer, −1, in `out` at its index; the indices of the others go to `rest`,
   * in order, and their count is returned. One pass over the batch reading only the map, before any walk.
   */
  screen(segments: Float64Array, start: number, end: number, out: Float64Array): number {
    if (this.restList.length < end - start) this.restList = new Uint32Array(Math.max(end - start, 2 * this.restList.length));
    const rest = this.restList;
    let n = 0;
    for (let i = start, o = start * 6; i < end; i++, o += 6) {
      const fx = segments[o]!, fy = segments[o + 1]!, fz = segments[o + 2]!, tx = segments[o + 3]!, ty = segments[o + 4]!, tz = segments[o + 5]!;
      // As run's own check: a non-finite end or direction is −1 there too.
      // The map's proof reads the segment from the batch itself: passed as six doubles to a call the engine does
      // not inline, they would be boxed, an allocation per segment.
      if (fx - fx === 0 && fy - fy === 0 && fz - fz === 0 && tx - fx - (tx - fx) === 0 && ty - fy - (ty - fy) === 0 && tz - fz - (tz - fz) === 0 && !this.capClearAt(segments, o)) {
        rest[n++] = i;
      } else {
        out[i] = -1;
      }
    }
    return n;
  }

  /**
   * True when the segment is proved clear by the height map: its coordinates within ±CAP_MAX_COORD, and its
   * lower end above the map in every cell its x/y box covers (the highest of them read from `capMax`, four
   * entries for any box). Then every leaf box, sphere and box of the scene
   * is more than CAP_MARGIN below the segment or beside it, and the reference finds nothing: a slab test that
   * passes puts a point of the segment within rounding (far below the margin at these coordinates) of the box,
   * so no leaf is entered and no box primitive is hit; a sphere more than the margin away fails its quadratic
   * for the same reason. (Finite input only: run checks first.)
   */
  capClear(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): boolean {
    const one = this.one;
    one[0] = fx; one[1] = fy; one[2] = fz;
    one[3] = tx; one[4] = ty; one[5] = tz;
    return this.capClearAt(one, 0);
  }

  /** `capClear` of the segment at `segments[o .. o + 6)`. */
  capClearAt(segments: Float64Array, o: number): boolean {
    const cap = this.cap;
    if (cap === null) return false;
    const fx = segments[o]!, fy = segments[o + 1]!, fz = segments[o + 2]!, tx = segments[o + 3]!, ty = segments[o + 4]!, tz = segments[o + 5]!;
    const M = CAP_MAX_COORD;
    if (!(fx >= -M && fx <= M && fy >= -M && fy <= M && fz >= -M && fz <= M && tx >= -M && tx <= M && ty >= -M && ty <= M && tz >= -M && tz <= M)) return false;
    const low = fz < tz ? fz : tz;
    const inv = this.cInv, w = this.cw, h = this.ch;
    let gx0 = Math.floor(((fx < tx ? fx : tx) - this.cx0) * inv), gx1 = Math.floor(((fx < tx ? tx : fx) - this.cx0) * inv);
    let gy0 = Math.floor(((fy < ty ? fy : ty) - this.cy0) * inv), gy1 = Math.floor(((fy < ty ? ty : fy) - this.cy0) * inv);
    gx0 = gx0 < 0 ? 0 : gx0 > w - 1 ? w - 1 : gx0;
    gx1 = gx1 < 0 ? 0 : gx1 > w - 1 ? w - 1 : gx1;
    gy0 = gy0 < 0 ? 0 : gy0 > h - 1 ? h - 1 : gy0;
    gy1 = gy1 < 0 ? 0 : gy1 > h - 1 ? h - 1 : gy1;
    // The box's highest cell, from four rectangles of 2^kx × 2^ky cells at its corners (they cover it exactly).
    const kx = 31 - Math.clz32(gx1 - gx0 + 1), ky = 31 - Math.clz32(gy1 - gy0 + 1);
    const top = this.capMax![kx * CAP_LEVELS + ky]!;
    const xs = gx1 - (1 << kx) + 1, ys = gy1 - (1 << ky) + 1;
    return low > top[gy0 * w + gx0]! && low > top[gy0 * w + xs]! && low > top[ys * w + gx0]! && low > top[ys * w + xs]!;
  }

  /**
   * The placements the segment at `segments[o .. o + 6)` may hit (by its x and y), ascending, into `cand`; their count, or −1
   * when the grid does not apply (every placement is to be tried). Exact: see GRID_MARGIN and GRID_MAX_EXTENT.
   */
  private gridCandidates(segments: Float64Array, o: number): number {
    const grid = this.grid;
    if (grid === null) return -1;
    // Read here, not passed in: doubles passed to a call the engine does not inline would be boxed.
    const fx = segments[o]!, fy = segments[o + 1]!, tx = segments[o + 3]!, ty = segments[o + 4]!;
    const lx = fx < tx ? fx : tx, hx = fx < tx ? tx : fx, ly = fy < ty ? fy : ty, hy = fy < ty ? ty : fy;
    if (!(hx - lx < GRID_MAX_EXTENT && hy - ly < GRID_MAX_EXTENT)) return -1;
    const inv = this.gInv, w = this.gw, h = this.gh;
    let cx0 = Math.floor((lx - this.gx0) * inv), cx1 = Math.floor((hx - this.gx0) * inv);
    let cy0 = Math.floor((ly - this.gy0) * inv), cy1 = Math.floor((hy - this.gy0) * inv);
    cx0 = cx0 < 0 ? 0 : cx0 > w - 1 ? w - 1 : cx0;
    cx1 = cx1 < 0 ? 0 : cx1 > w - 1 ? w - 1 : cx1;
    cy0 = cy0 < 0 ? 0 : cy0 > h - 1 ? h - 1 : cy0;
    cy1 = cy1 < 0 ? 0 : cy1 > h - 1 ? h - 1 : cy1;
    if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > GRID_MAX_SEGMENT_CELLS) return -1;
    const words = this.words, cand = this.cand, always = this.always;
    let n = 0;
    for (let word = 0; word < words; word++) {
      let bits = always[word]!;
      for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0, at = (cy * w + cx0) * words + word; cx <= cx1; cx++, at += words) bits |= grid[at]!;
      while (bits !== 0) {
        const low = bits & -bits;
        cand[n++] = (word << 5) + 31 - Math.clz32(low);
        bits ^= low;
      }
    }
    return n;
  }

  /**
   * The nearest hit of from→to among the placements `list[0 .. count)` (in that order), or among every
   * placement in order when `list` is null: ColScene.segmentFraction's answer, into `result[0]`, with `out`
   * filled as its `last`. The answer is −1 for a clear segment (out.instance −1, kind HIT_NONE, index −1; the
   * normal left as it was) and for non-finite input (out left as it was). (The answer goes into an array, not
   * out as a return value, which the engine would box.) `screened`: the segment already failed the height map
   * (`screen` left it for the walk), so the map is not read again.
   */
  run(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number, list: Int32Array | null, count: number, out: KernelHit, screened = false): void {
    const one = this.one;
    one[0] = fx; one[1] = fy; one[2] = fz;
    one[3] = tx; one[4] = ty; one[5] = tz;
    this.runAt(one, 0, list, count, out, screened);
  }

  /**
   * `run` of the segment at `segments[o .. o + 6)`. (It reads the segment itself: six doubles passed to a call
   * the engine does not inline would be boxed, an allocation per segment.)
   */
  runAt(segments: Float64Array, o: number, list: Int32Array | null, count: number, out: KernelHit, screened = false): void {
    const fx = segments[o]!, fy = segments[o + 1]!, fz = segments[o + 2]!, tx = segments[o + 3]!, ty = segments[o + 4]!, tz = segments[o + 5]!;
    const result = this.result;
    // Not the literal: merged with it, the children's entry fractions would be boxed, per tree node (INFINITY_SLOT).
    const inf = INFINITY_SLOT[0]!;
    result[0] = -1;
    const dx = tx - fx, dy = ty - fy, dz = tz - fz;
    if (!(fx - fx === 0 && fy - fy === 0 && fz - fz === 0 && dx - dx === 0 && dy - dy === 0 && dz - dz === 0)) return;
    const ix = 1 / dx, iy = 1 / dy, iz = 1 / dz;
    const wnx0 = ix >= 0 ? 0 : 3, wny0 = iy >= 0 ? 1 : 4, wnz0 = iz >= 0 ? 2 : 5;
    const wfx0 = 3 - wnx0, wfy0 = 5 - wny0, wfz0 = 7 - wnz0;
    const IB = this.instBox, R = this.instRot, P = this.instPos, IM = this.instModel;
    const SS = this.sphereStart, BS = this.boxStart, S = this.spheres, B = this.boxes;
    const ROOT = this.root, RB = this.rootBox, PB = this.packBox, PC = this.packChild, LF = this.leafFirst, LC = this.leafCount, T = this.tri;
    const stack = this.stack, tstack = this.tstack;
    let best = 2;
    let hit = -1;
    // The hit's details (what the reference keeps in rayHit, then in `last`).
    let hKind = HIT_NONE, hIndex = -1, hnx = 0, hny = 0, hnz = 0;
    let nearer = false;
    if (!screened && this.capClearAt(segments, o)) {
      out.instance = -1;
      out.kind = HIT_NONE;
      out.index = -1;
      return;
    }
    let n = count;
    if (list === null) {
      n = this.gridCandidates(segments, o);
      if (n >= 0) list = this.cand;
      else n = this.instCount;
    }
    for (let j = 0; j < n; j++) {
      const i = list === null ? j : list[j]!;
      // The placement's box (ColScene.segmentInstance).
      const b = i * 6;
      let t0 = 0, t1 = best < 1 ? best : 1;
      let v = (IB[b + wnx0]! - fx) * ix;
      if (v > t0) t0 = v;
      v = (IB[b + wfx0]! - fx) * ix;
      if (v < t1) t1 = v;
      v = (IB[b + wny0]! - fy) * iy;
      if (v > t0) t0 = v;
      v = (IB[b + wfy0]! - fy) * iy;
      if (v < t1) t1 = v;
      v = (IB[b + wnz0]! - fz) * iz;
      if (v > t0) t0 = v;
      v = (IB[b + wfz0]! - fz) * iz;
      if (v < t1) t1 = v;
      if (!(t0 <= t1)) continue;
      const r = i * 9;
      const px = fx - P[i * 3]!, py = fy - P[i * 3 + 1]!, pz = fz - P[i * 3 + 2]!;
      const ox = R[r]! * px + R[r + 3]! * py + R[r + 6]! * pz;
      const oy = R[r + 1]! * px + R[r + 4]! * py + R[r + 7]! * pz;
      const oz = R[r + 2]! * px + R[r + 5]! * py + R[r + 8]! * pz;
      const ldx = R[r]! * dx + R[r + 3]! * dy + R[r + 6]! * dz;
      const ldy = R[r + 1]! * dx + R[r + 4]! * dy + R[r + 7]! * dz;
      const ldz = R[r + 2]! * dx + R[r + 5]! * dy + R[r + 8]! * dz;
      // The model (ModelCollider.raycast), from this placement's best on.
      const model = IM[i]!;
      const lix = 1 / ldx, liy = 1 / ldy, liz = 1 / ldz;
      const before = best;
      nearer = false;
      const s0 = SS[model]!, s1 = SS[model + 1]!, b0 = BS[model]!, b1 = BS[model + 1]!;
      if (s1 !== s0 || b1 !== b0) {
        for (let q = s0 * 4, qe = s1 * 4; q < qe; q += 4) {
          const mx = ox - S[q]!, my = oy - S[q + 1]!, mz = oz - S[q + 2]!, sr = S[q + 3]!;
          const c = mx * mx + my * my + mz * mz - sr * sr;
          let t: number;
          if (c <= 0) t = 0;
          else {
            const a = ldx * ldx + ldy * ldy + ldz * ldz;
            const bb = mx * ldx + my * ldy + mz * ldz;
            if (!(bb < 0) || !(a > 0)) continue;
            const disc = bb * bb - a * c;
            if (!(disc >= 0)) continue;
            t = (-bb - detSqrt(disc)) / a;
          }
          if (t >= 0 && t <= 1 && t < best) {
            best = t;
            nearer = true;
            hKind = HIT_SPHERE;
            hIndex = this.sphereIndex[q >> 2]!;
            hnx = mx + t * ldx;
            hny = my + t * ldy;
            hnz = mz + t * ldz;
            if (c <= 0) {
              if (mx !== 0 || my !== 0 || mz !== 0) {
                hnx = mx;
                hny = my;
                hnz = mz;
              } else {
                insideNormal(ldx, ldy, ldz);
                hnx = inside.x;
                hny = inside.y;
                hnz = inside.z;
              }
            }
          }
        }
        for (let q = b0 * 6, qe = b1 * 6; q < qe; q += 6) {
          let u0 = 0, u1 = 1, axis = -1;
          let lo = (B[q]! - ox) * lix, hi = (B[q + 3]! - ox) * lix;
          if (lo > hi) { const s = lo; lo = hi; hi = s; }
          if (lo > u0) { u0 = lo; axis = 0; }
          if (hi < u1) u1 = hi;
          lo = (B[q + 1]! - oy) * liy; hi = (B[q + 4]! - oy) * liy;
          if (lo > hi) { const s = lo; lo = hi; hi = s; }
          if (lo > u0) { u0 = lo; axis = 1; }
          if (hi < u1) u1 = hi;
          lo = (B[q + 2]! - oz) * liz; hi = (B[q + 5]! - oz) * liz;
          if (lo > hi) { const s = lo; lo = hi; hi = s; }
          if (lo > u0) { u0 = lo; axis = 2; }
          if (hi < u1) u1 = hi;
          if (!(u0 <= u1) || !(u0 < best)) continue;
          if (axis < 0 && !(ox >= B[q]! && ox <= B[q + 3]! && oy >= B[q + 1]! && oy <= B[q + 4]! && oz >= B[q + 2]! && oz <= B[q + 5]!)) continue;
          best = u0;
          nearer = true;
          hKind = HIT_BOX;
          hIndex = this.boxIndex[(q / 6) | 0]!;
          if (axis < 0) {
            insideNormal(ldx, ldy, ldz);
            hnx = inside.x;
            hny = inside.y;
            hnz = inside.z;
          } else {
            const sign = (axis === 0 ? ldx : axis === 1 ? ldy : ldz) > 0 ? -1 : 1;
            hnx = axis === 0 ? sign : 0;
            hny = axis === 1 ? sign : 0;
            hnz = axis === 2 ? sign : 0;
          }
        }
      }
      const root = ROOT[model]!;
      if (root !== PACK_NONE) {
        const nx0 = lix >= 0 ? 0 : 3, ny0 = liy >= 0 ? 1 : 4, nz0 = liz >= 0 ? 2 : 5;
        const fx0 = 3 - nx0, fy0 = 5 - ny0, fz0 = 7 - nz0;
        let sp = 0;
        let ref = PACK_NONE;
        {
          const rb = model * 6;
          let a0 = 0, a1 = best < 1 ? best : 1;
          let w = (RB[rb + nx0]! - ox) * lix;
          if (w > a0) a0 = w;
          w = (RB[rb + fx0]! - ox) * lix;
          if (w < a1) a1 = w;
          w = (RB[rb + ny0]! - oy) * liy;
          if (w > a0) a0 = w;
          w = (RB[rb + fy0]! - oy) * liy;
          if (w < a1) a1 = w;
          w = (RB[rb + nz0]! - oz) * liz;
          if (w > a0) a0 = w;
          w = (RB[rb + fz0]! - oz) * liz;
          if (w < a1) a1 = w;
          if (a0 <= a1) ref = root;
        }
        while (ref !== PACK_NONE) {
          if (ref >= 0) {
            const nb = ref * 12;
            const limit = best < 1 ? best : 1;
            let a0 = 0, a1 = limit;
            let w = (PB[nb + nx0]! - ox) * lix;
            if (w > a0) a0 = w;
            w = (PB[nb + fx0]! - ox) * lix;
            if (w < a1) a1 = w;
            w = (PB[nb + ny0]! - oy) * liy;
            if (w > a0) a0 = w;
            w = (PB[nb + fy0]! - oy) * liy;
            if (w < a1) a1 = w;
            w = (PB[nb + nz0]! - oz) * liz;
            if (w > a0) a0 = w;
            w = (PB[nb + fz0]! - oz) * liz;
            if (w < a1) a1 = w;
            const tl = a0 <= a1 ? a0 : inf;
            a0 = 0;
            a1 = limit;
            w = (PB[nb + 6 + nx0]! - ox) * lix;
            if (w > a0) a0 = w;
            w = (PB[nb + 6 + fx0]! - ox) * lix;
            if (w < a1) a1 = w;
            w = (PB[nb + 6 + ny0]! - oy) * liy;
            if (w > a0) a0 = w;
            w = (PB[nb + 6 + fy0]! - oy) * liy;
            if (w < a1) a1 = w;
            w = (PB[nb + 6 + nz0]! - oz) * liz;
            if (w > a0) a0 = w;
            w = (PB[nb + 6 + fz0]! - oz) * liz;
            if (w < a1) a1 = w;
            const tr = a0 <= a1 ? a0 : inf;
            if (tl <= tr) {
              if (tl !== inf) {
                if (tr !== inf) {
                  stack[sp] = PC[2 * ref + 1]!;
                  tstack[sp++] = tr;
                }
                ref = PC[2 * ref]!;
                continue;
              }
            } else {
              if (tl !== inf) {
                stack[sp] = PC[2 * ref]!;
                tstack[sp++] = tl;
              }
              ref = PC[2 * ref + 1]!;
              continue;
            }
          } else {
            const leaf = ~ref;
            for (let k = LF[leaf]!, end = k + LC[leaf]!; k < end; k++) {
              const p = k * 9;
              const e1x = T[p + 3]!, e1y = T[p + 4]!, e1z = T[p + 5]!;
              const e2x = T[p + 6]!, e2y = T[p + 7]!, e2z = T[p + 8]!;
              const qx0 = ldy * e2z - ldz * e2y, qy0 = ldz * e2x - ldx * e2z, qz0 = ldx * e2y - ldy * e2x;
              const det = e1x * qx0 + e1y * qy0 + e1z * qz0;
              if (det === 0 || det !== det) continue;
              const inv = 1 / det;
              const sx = ox - T[p]!, sy = oy - T[p + 1]!, sz = oz - T[p + 2]!;
              const u = (sx * qx0 + sy * qy0 + sz * qz0) * inv;
              if (!(u >= 0 && u <= 1)) continue;
              const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
              const vv = (ldx * qx + ldy * qy + ldz * qz) * inv;
              if (!(vv >= 0 && u + vv <= 1)) continue;
              const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
              if (!(t >= 0 && t <= 1 && t < best)) continue;
              best = t;
              nearer = true;
              hKind = HIT_FACE;
              hIndex = this.order[k]!;
              let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
              if (nx * ldx + ny * ldy + nz * ldz > 0) { nx = 0 - nx; ny = 0 - ny; nz = 0 - nz; } // no negative zeros
              hnx = nx;
              hny = ny;
              hnz = nz;
            }
          }
          ref = PACK_NONE;
          while (sp > 0) {
            sp--;
            if (tstack[sp]! <= best) {
              ref = stack[sp]!;
              break;
            }
          }
        }
      }
      if (nearer && best < before) hit = i;
    }
    out.instance = hit;
    if (hit < 0) {
      out.kind = HIT_NONE;
      out.index = -1;
      return;
    }
    out.kind = hKind;
    out.index = hIndex;
    out.nx = hnx;
    out.ny = hny;
    out.nz = hnz;
    result[0] = best;
  }
}

/** The normal of a segment starting inside a box or at a sphere's centre (as the model's own walk gives it). */
const inside = { x: 0, y: 0, z: 0 };
function insideNormal(dx: number, dy: number, dz: number): void {
  const ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy, az = dz < 0 ? -dz : dz;
  inside.x = 0;
  inside.y = 0;
  inside.z = 0;
  if (ax > ay && ax > az) inside.x = dx > 0 ? -1 : 1;
  else if (ay > az) inside.y = dy > 0 ? -1 : 1;
  else if (az > 0) inside.z = dz > 0 ? -1 : 1;
  else inside.z = 1;
}

/**
 * The maxima of a w × h map (y-major) over every 2^kx × 2^ky rectangle of cells, kx and ky below CAP_LEVELS:
 * entry kx × CAP_LEVELS + ky, per cell, the highest cell of the rectangle starting there, cut at the map's edge.
 */
function rectangleMaxima(cap: Float64Array, w: number, h: number): Float64Array[] {
  const out: Float64Array[] = new Array<Float64Array>(CAP_LEVELS * CAP_LEVELS);
  out[0] = cap;
  for (let kx = 0; kx < CAP_LEVELS; kx++) {
    if (kx > 0) {
      // Twice as wide: this cell's rectangle and the one half the width to its right.
      const below = out[(kx - 1) * CAP_LEVELS]!, half = 1 << (kx - 1);
      const level = new Float64Array(w * h);
      for (let gy = 0; gy < h; gy++) {
        for (let gx = 0; gx < w; gx++) {
          const a = below[gy * w + gx]!;
          const b = gx + half < w ? below[gy * w + gx + half]! : a;
          level[gy * w + gx] = a > b ? a : b;
        }
      }
      out[kx * CAP_LEVELS] = level;
    }
    for (let ky = 1; ky < CAP_LEVELS; ky++) {
      // Twice as tall: this cell's rectangle and the one half the height above it.
      const below = out[kx * CAP_LEVELS + ky - 1]!, half = 1 << (ky - 1);
      const level = new Float64Array(w * h);
      for (let gy = 0; gy < h; gy++) {
        for (let gx = 0; gx < w; gx++) {
          const a = below[gy * w + gx]!;
          const b = gy + half < h ? below[(gy + half) * w + gx]! : a;
          level[gy * w + gx] = a > b ? a : b;
        }
      }
      out[kx * CAP_LEVELS + ky] = level;
    }
  }
  return out;
}
