/**
 * The field's segment cast for line of sight, fast: the first hit's fraction along a segment, or −1, exactly
 * what `PineyWorld`'s own cast gives (that cast stays the reference, `segmentFractionReference`; a property
 * test and the line-of-sight benchmark check that the two agree on every segment). The walk is the same DDA
 * over the 600-unit cells with the same doubles; two things change, neither of which can change an answer:
 *
 * - A cell the segment passes above everything in is not tested: each cell has a height nothing in it
 *   reaches (`cellTop`: its highest corner with a margin far above the rounding of the plane's few operations,
 *   or its chip's object column), and a segment whose z, computed as the cell test computes it, is above that
 *   at both ends of its stretch in the cell would find neither terrain (the surface there is at most the
 *   highest corner, so every sample of z − surface is positive) nor the column. (Only while the cell index is
 *   a 32-bit integer, where the cell test's chip, (i >> 1) wrapped, is the wrapped cell's chip.)
 * - A short segment above every cell top around its whole path is not walked at all: `squareTop` holds the
 *   highest top of every 2^k × 2^k square of cells (k = 0..4, wrapped), four of which cover the rectangle of
 *   cells the walk can visit (the cells under x and y between the segment's ends, with a unit of slack for the
 *   walk's rounding). Every z the walk computes is fz + dz × t with t in [0, 1], at least min(fz, fz + dz) as
 *   doubles round monotonically, so a segment whose lower end is above that rectangle's highest top would
 *   find nothing in any cell.
 * - The cell test is written out in one function with the segment in fields, so nothing is boxed across calls
 *   (no allocation per segment); its operations are the reference's, in the reference's order.
 *
 * Doubles with + − × ÷ and Math.min / Math.max / Math.floor only (no roots), as in the reference.
 */
import { CELLS, CELL_UNITS, CHIPS } from './field-state.js';
import { INFINITY_SLOT } from '../../numeric/special-doubles.js';
import { checkSegmentBatch } from '../world.js';

/** Segments are followed for at most this many cells (two laps of the torus each way); beyond, no hit. */
export const MAX_SEGMENT_CELLS = 4 * CELLS;

/** Square sizes of `squareTop`: 1, 2, 4, 8 and 16 cells. Segments whose rectangle of cells is wider are walked. */
const SQUARE_LEVELS = 5;
const MAX_SQUARE = 1 << (SQUARE_LEVELS - 1);
/** Slack, in units, around the segment's ends when finding the cells the walk can visit (its rounding is far smaller). */
const RECT_SLACK = 1;

const wrapCell = (i: number): number => (i >= 0 && i < CELLS ? i : ((i % CELLS) + CELLS) % CELLS);
const wrapChip = (i: number): number => (i >= 0 && i < CHIPS ? i : ((i % CHIPS) + CHIPS) % CHIPS);

/** The fast cast over one field's heights and object columns (see the module comment). */
export class FieldSegmentCaster {
  /** Per cell (x-major, wrapped): a height nothing in the cell reaches; +∞ where that is not known. */
  readonly cellTop = new Float64Array(CELLS * CELLS);
  /**
   * Per square size 2^k (k = 0..4), per cell (x-major): the highest `cellTop` of the 2^k × 2^k square of cells
   * starting there (wrapped); level 0 is `cellTop` itself.
   */
  readonly squareTop: readonly Float64Array[];
  // The segment being cast (fields, so the cell test takes no doubles as arguments), and the cell test's hit.
  private fx = 0;
  private fy = 0;
  private fz = 0;
  private dx = 0;
  private dy = 0;
  private dz = 0;
  private ta = 0;
  private tb = 0;
  private hitT = 0;
  /** The answer of the last walk. */
  private readonly answer = new Float64Array(1);
  /** Stage one's list (`screen`): the indices of the segments left for the walk. */
  private restList = new Uint32Array(1);
  /** One segment, for `cast`. */
  private readonly one = new Float64Array(6);

  /**
   * @param heights the field's heights as doubles, x-major (80 × 80)
   * @param blocker per chip (x-major, 40 × 40) the object whose column covers it, or −1
   * @param blockerTop per object the top of its column
   * @param maxTop the highest surface or column top of the field
   */
  constructor(
    private readonly heights: Float64Array,
    private readonly blocker: Int16Array,
    private readonly blockerTop: Float64Array,
    private readonly maxTop: number,
  ) {
    const h = heights;
    for (let i = 0; i < CELLS; i++) {
      for (let j = 0; j < CELLS; j++) {
        const h00 = h[i * CELLS + j]!, h01 = h[i * CELLS + wrapCell(j + 1)]!;
        const h10 = h[wrapCell(i + 1) * CELLS + j]!, h11 = h[wrapCell(i + 1) * CELLS + wrapCell(j + 1)]!;
        // The surface is a convex combination of three corners, computed in three roundings of values of
        // at most `size`: a margin of size × 1e−9 covers them by many orders of magnitude.
        const size = Math.abs(h00) + Math.abs(h01) + Math.abs(h10) + Math.abs(h11);
        let top = Math.max(h00, h01, h10, h11) + size * 1e-9 + 1e-9;
        const k = blocker[(i >> 1) * CHIPS + (j >> 1)]!;
        if (k >= 0 && !(blockerTop[k]! <= top)) top = blockerTop[k]!;
        this.cellTop[i * CELLS + j] = top - top === 0 ? top : Infinity;
      }
    }
    const levels: Float64Array[] = [this.cellTop];
    for (let k = 1; k < SQUARE_LEVELS; k++) {
      const below = levels[k - 1]!;
      const half = 1 << (k - 1);
      const level = new Float64Array(CELLS * CELLS);
      for (let i = 0; i < CELLS; i++) {
        const i1 = wrapCell(i + half);
        for (let j = 0; j < CELLS; j++) {
          const j1 = wrapCell(j + half);
          level[i * CELLS + j] = Math.max(below[i * CELLS + j]!, below[i * CELLS + j1]!, below[i1 * CELLS + j]!, below[i1 * CELLS + j1]!);
        }
      }
      levels.push(level);
    }
    this.squareTop = levels;
  }

  /** The first hit's fraction along from → to, or −1 (the reference cast's answer). */
  cast(fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): number {
    // Small, so callers take it in whole: a batch of one through the same two stages (the segment goes in a
    // typed array and the walk leaves its answer in one, so no double is boxed).
    const one = this.one;
    one[0] = fx; one[1] = fy; one[2] = fz;
    one[3] = tx; one[4] = ty; one[5] = tz;
    if (this.screen(one, 0, 1, this.answer) === 0) return this.answer[0]!;
    this.walk(one, 0);
    return this.answer[0]!;
  }

  /**
   * Stage one of a batch: every segment of `segments[start..end)` (6 numbers each) that the walk would not need
   * to walk (not finite, above every top, or above every cell top around its path; see the module comment) gets
   * its answer, −1, in `out` at its index; the indices of the others go to `rest`, in order, and their count is
   * returned. One tight pass over the batch, so the segments' loads and tests overlap.
   */
  screen(segments: Float64Array, start: number, end: number, out: Float64Array): number {
    if (this.restList.length < end - start) this.restList = new Uint32Array(Math.max(end - start, 2 * this.restList.length));
    const rest = this.restList;
    const maxTop = this.maxTop;
    const levels = this.squareTop;
    let n = 0;
    // The tests that spare a segment its walk, written out (no call, so no double is boxed), for the whole batch.
    for (let i = start, o = start * 6; i < end; i++, o += 6) {
      const fx = segments[o]!, fy = segments[o + 1]!, fz = segments[o + 2]!, tx = segments[o + 3]!, ty = segments[o + 4]!, tz = segments[o + 5]!;
      out[i] = -1;
      const dx = tx - fx, dy = ty - fy, dz = tz - fz;
      // Finite ends and direction (x − x is 0 exactly for finite x), and not above every top.
      if (!(fx - fx === 0 && fy - fy === 0 && fz - fz === 0 && tx - tx === 0 && ty - ty === 0 && tz - tz === 0 && dx - dx === 0 && dy - dy === 0 && dz - dz === 0)) continue;
      if (fz > maxTop && tz > maxTop) continue;
      const ex = fx + dx;
      const ey = fy + dy;
      const cx0 = Math.floor(((fx < ex ? fx : ex) - RECT_SLACK) / CELL_UNITS);
      const cy0 = Math.floor(((fy < ey ? fy : ey) - RECT_SLACK) / CELL_UNITS);
      const w = Math.floor(((fx < ex ? ex : fx) + RECT_SLACK) / CELL_UNITS) - cx0 + 1;
      const h = Math.floor(((fy < ey ? ey : fy) + RECT_SLACK) / CELL_UNITS) - cy0 + 1;
      if (w <= MAX_SQUARE && h <= MAX_SQUARE && cx0 > -0x40000000 && cx0 < 0x40000000 && cy0 > -0x40000000 && cy0 < 0x40000000) {
        const k = 31 - Math.clz32(w > h ? w : h);
        const side = 1 << k;
        const level = levels[k]!;
        const xa = wrapCell(cx0) * CELLS, ya = wrapCell(cy0);
        const xb = wrapCell(cx0 + w - side) * CELLS, yb = wrapCell(cy0 + h - side);
        const zLow = fz + dz < fz ? fz + dz : fz;
        if (zLow > level[xa + ya]! && zLow > level[xa + yb]! && zLow > level[xb + ya]! && zLow > level[xb + yb]!) continue;
      }
      rest[n++] = i;
    }
    return n;
  }

  /** The indices `screen` left for the walk, in order (valid until the next `screen`, `cast` or `castMany`). */
  get rest(): Uint32Array {
    return this.restList;
  }

  /**
   * `cast` of every segment of `segments[start..end)` into `out` at the same indices, bit for bit, as two stages
   * over the batch: `screen`, then the walk of the segments it left.
   */
  castMany(segments: Float64Array, start: number, end: number, out: Float64Array): void {
    checkSegmentBatch(segments, start, end, out.length);
    const k = this.screen(segments, start, end, out);
    const rest = this.restList;
    const answer = this.answer;
    for (let q = 0; q < k; q++) {
      const i = rest[q]!, o = i * 6;
      this.walk(segments, o);
      out[i] = answer[0]!;
    }
  }

  /**
   * The walk of the segment at `segments[o .. o + 6)`, one `screen` left for it (finite, and not above every top
   * around its path), its answer into `answer[0]`. (It reads the segment itself: six doubles passed to a call
   * the engine does not inline would be boxed.)
   */
  private walk(segments: Float64Array, o: number): void {
    const fx = segments[o]!, fy = segments[o + 1]!, fz = segments[o + 2]!, tx = segments[o + 3]!, ty = segments[o + 4]!, tz = segments[o + 5]!;
    const answer = this.answer;
    // Not the literal: merged with it, the next crossings and a cell's top would be boxed, per cell (INFINITY_SLOT).
    const inf = INFINITY_SLOT[0]!;
    answer[0] = -1;
    const dx = tx - fx;
    const dy = ty - fy;
    const dz = tz - fz;
    const maxTop = this.maxTop;
    // Only the part at or below the highest top needs walking (the reference's t0 and t1).
    let t0 = 0;
    let t1 = 1;
    if (fz > maxTop) t0 = (maxTop - fz) / dz;
    else if (tz > maxTop) t1 = (maxTop - fz) / dz;
    this.fx = fx; this.fy = fy; this.fz = fz;
    this.dx = dx; this.dy = dy; this.dz = dz;

    // The walk (the reference's, line for line).
    const cellsX = Math.abs(dx) / CELL_UNITS;
    const cellsY = Math.abs(dy) / CELL_UNITS;
    const span = (cellsX + cellsY) * (t1 - t0);
    if (span > MAX_SEGMENT_CELLS) t1 = t0 + (MAX_SEGMENT_CELLS / (cellsX + cellsY));
    let ix = Math.floor((fx + dx * t0) / CELL_UNITS);
    let iy = Math.floor((fy + dy * t0) / CELL_UNITS);
    const stepX = dx > 0 ? 1 : dx < 0 ? -1 : 0;
    const stepY = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    const invX = dx !== 0 ? 1 / dx : inf;
    const invY = dy !== 0 ? 1 / dy : inf;
    let nextX = stepX > 0 ? ((ix + 1) * CELL_UNITS - fx) * invX : stepX < 0 ? (ix * CELL_UNITS - fx) * invX : inf;
    let nextY = stepY > 0 ? ((iy + 1) * CELL_UNITS - fy) * invY : stepY < 0 ? (iy * CELL_UNITS - fy) * invY : inf;
    const dtX = stepX !== 0 ? CELL_UNITS * Math.abs(invX) : inf;
    const dtY = stepY !== 0 ? CELL_UNITS * Math.abs(invY) : inf;
    const tops = this.cellTop;
    // The cell test finds a cell's chip as (i >> 1) wrapped, which is the wrapped cell's chip only while the
    // cell index is a 32-bit integer: far beyond (huge coordinates) every cell is tested.
    const skip = ix > -0x40000000 && ix < 0x40000000 && iy > -0x40000000 && iy < 0x40000000;
    let ta = t0;
    for (let guard = 0; guard <= 2 * MAX_SEGMENT_CELLS + 4 && ta <= t1; guard++) {
      const tb = Math.min(nextX, nextY, t1);
      // The cell test's own z at both ends of the stretch: above the cell's top at both, it finds nothing.
      const top = skip ? tops[wrapCell(ix) * CELLS + wrapCell(iy)]! : inf;
      if (!(fz + dz * ta > top && fz + dz * tb > top)) {
        this.ta = ta;
        this.tb = tb;
        if (this.cellHits(ix, iy)) {
          answer[0] = this.hitT;
          return;
        }
      }
      if (tb >= t1) break;
      if (nextX <= nextY) {
        ix += stepX;
        ta = nextX;
        nextX += dtX;
      } else {
        iy += stepY;
        ta = nextY;
        nextY += dtY;
      }
    }
    return;
  }

  /**
   * The reference's cell test of cell (ix, iy) over [ta, tb], for the fraction alone: the chip's object
   * column, then the terrain's two planes split at the diagonal. True when it hits (the fraction in hitT).
   */
  private cellHits(ix: number, iy: number): boolean {
    const fx = this.fx, fy = this.fy, fz = this.fz, dx = this.dx, dy = this.dy, dz = this.dz;
    const ta = this.ta, tb = this.tb;
    const ox = ix * CELL_UNITS;
    const oy = iy * CELL_UNITS;
    const k = this.blocker[wrapChip(ix >> 1) * CHIPS + wrapChip(iy >> 1)]!;
    let best = -1;
    if (k >= 0) {
      const top = this.blockerTop[k]!;
      const za = fz + dz * ta;
      const zb = fz + dz * tb;
      if (za <= top) best = ta;
      else if (zb <= top) best = ta + ((za - top) / (za - zb)) * (tb - ta);
    }
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
    // The cell's corners (cellPlane's reads).
    const h = this.heights;
    const x0 = wrapCell(ix) * CELLS;
    const x1 = wrapCell(ix + 1) * CELLS;
    const y0 = wrapCell(iy);
    const y1 = wrapCell(iy + 1);
    const h00 = h[x0 + y0]!, h11 = h[x1 + y1]!, h01 = h[x0 + y1]!, h10 = h[x1 + y0]!;
    let a = ta;
    // aboveGround(ta): z minus the surface at the point's local coordinates clamped into the cell.
    let uc = Math.min(1, Math.max(0, (fx + dx * ta - ox) / CELL_UNITS));
    let vc = Math.min(1, Math.max(0, (fy + dy * ta - oy) / CELL_UNITS));
    let ga = fz + dz * ta - (vc >= uc ? h00 + (h11 - h01) * uc + (h01 - h00) * vc : h00 + (h10 - h00) * uc + (h11 - h10) * vc);
    for (let p = 0; p < pieces; p++) {
      const b = p === 0 && pieces === 2 ? tm : tb;
      if (best >= 0 && a >= best) break;
      uc = Math.min(1, Math.max(0, (fx + dx * b - ox) / CELL_UNITS));
      vc = Math.min(1, Math.max(0, (fy + dy * b - oy) / CELL_UNITS));
      const gb = fz + dz * b - (vc >= uc ? h00 + (h11 - h01) * uc + (h01 - h00) * vc : h00 + (h10 - h00) * uc + (h11 - h10) * vc);
      let t = -1;
      if (ga <= 0) t = a;
      else if (gb <= 0) t = a + (ga / (ga - gb)) * (b - a);
      if (t >= 0 && (best < 0 || t < best)) {
        best = t;
        break;
      }
      a = b;
      ga = gb;
    }
    if (best >= 0) {
      this.hitT = best;
      return true;
    }
    return false;
  }
}
