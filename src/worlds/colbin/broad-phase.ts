/**
 * The project's own spatial index for COLBIN (built at load time; the file's grid is never trusted): a
 * uniform grid over x/z holding item indices by their x/z rectangles, in compressed rows (cellStart/items,
 * ascending item index inside each cell). Cells come from one monotone mapping used both to insert and to
 * query, so a point inside an item's rectangle always lands in a cell that lists the item.
 *
 * Items may also carry a y range; each cell then keeps the union of its items' ranges, so a segment walk
 * (`SegmentCellWalk`, a 2D DDA over the same cells) can skip a cell, or an item, whose heights the segment
 * never reaches there.
 */
import { sqrtNewton } from './obb.js';

/** Upper bound on cells along each axis (keeps hostile files' indexes small). */
export const MAX_CELLS_PER_AXIS = 1024;
/**
 * Cells per item aimed for. Items overlap several cells, so one cell per item leaves five or six candidates
 * per query on a tiled level; four per item brings that to about two or three.
 */
export const CELLS_PER_ITEM = 4;
/**
 * Cells per item of the floors' second grid, walked by segments. A segment crosses a column per cell and
 * most columns are skipped on their heights alone, so fewer, larger cells are cheaper for it: measured on the
 * demo level (4 m segments at eye height, +15 to 20 %) and on the benchmark terrain (no loss). The ground
 * query reads a single cell, so it keeps the finer grid.
 */
export const SEGMENT_CELLS_PER_ITEM = 1;

export class XZGrid {
  readonly count: number;
  readonly minX: number;
  readonly maxX: number;
  readonly minZ: number;
  readonly maxZ: number;
  nx = 1;
  nz = 1;
  /** Cells per unit along x and z (0 on a flat axis), and the cell sizes: one mapping for insert and query. */
  invX = 0;
  invZ = 0;
  cellW = Infinity;
  cellH = Infinity;
  readonly cellStart: Int32Array;
  readonly items: Int32Array;
  /** Per item and per cell (the union of its items), the y range; (−∞, +∞) when no ranges were given. */
  readonly itemMinY: Float64Array;
  readonly itemMaxY: Float64Array;
  readonly cellMinY: Float64Array;
  readonly cellMaxY: Float64Array;
  /** The same unions per column (x index) and per row (z index): a walk skips a whole line out of reach. */
  readonly columnMinY: Float64Array;
  readonly columnMaxY: Float64Array;
  readonly rowMinY: Float64Array;
  readonly rowMaxY: Float64Array;
  /** The largest finite magnitude of any bound or item height: the scale of the segment walk's margin. */
  readonly magnitude: number;

  /**
   * `rects`: count × 4 numbers (minX, maxX, minZ, maxZ) per item; items with a NaN are left out.
   * `yRanges` (optional): count × 2 numbers (minY, maxY); a NaN range counts as every height.
   * `cellsPerItem`: the density aimed for (CELLS_PER_ITEM unless given).
   */
  constructor(rects: Float64Array, count: number, yRanges?: Float64Array, cellsPerItem = CELLS_PER_ITEM) {
    this.count = count;
    let minX = Infinity;
    let maxX = -Infinity;
    let minZ = Infinity;
    let maxZ = -Infinity;
    for (let i = 0; i < count; i++) {
      const o = i * 4;
      if (!(rects[o]! <= rects[o + 1]! && rects[o + 2]! <= rects[o + 3]!)) continue;
      if (rects[o]! < minX) minX = rects[o]!;
      if (rects[o + 1]! > maxX) maxX = rects[o + 1]!;
      if (rects[o + 2]! < minZ) minZ = rects[o + 2]!;
      if (rects[o + 3]! > maxZ) maxZ = rects[o + 3]!;
    }
    if (minX > maxX) minX = maxX = minZ = maxZ = 0;
    this.minX = minX;
    this.maxX = maxX;
    this.minZ = minZ;
    this.maxZ = maxZ;
    const w = maxX - minX;
    const h = maxZ - minZ;
    // side = √(area / (cellsPerItem · count)), bounded per axis.
    const side = count > 0 && w > 0 && h > 0 ? sqrtNewton((w * h) / (cellsPerItem * count)) : Math.max(w, h) / Math.max(1, cellsPerItem * count);
    let nx = side > 0 ? Math.max(1, Math.min(MAX_CELLS_PER_AXIS, Math.ceil(w / side))) : 1;
    let nz = side > 0 ? Math.max(1, Math.min(MAX_CELLS_PER_AXIS, Math.ceil(h / side))) : 1;
    // Items spanning many cells (hostile or just huge triangles) could make the index quadratic: coarsen
    // the grid until the total number of entries fits a linear budget.
    const budget = 16 * count + 65536;
    for (;;) {
      this.nx = nx;
      this.nz = nz;
      this.invX = w > 0 ? nx / w : 0;
      this.invZ = h > 0 ? nz / h : 0;
      this.cellW = w > 0 ? w / nx : Infinity;
      this.cellH = h > 0 ? h / nz : Infinity;
      if (nx === 1 && nz === 1) break;
      let entries = 0;
      for (let i = 0; i < count && entries <= budget; i++) {
        const o = i * 4;
        if (!(rects[o]! <= rects[o + 1]! && rects[o + 2]! <= rects[o + 3]!)) continue;
        entries += (this.cellX(rects[o + 1]!) - this.cellX(rects[o]!) + 1) * (this.cellZ(rects[o + 3]!) - this.cellZ(rects[o + 2]!) + 1);
      }
      if (entries <= budget) break;
      nx = Math.ceil(nx / 2);
      nz = Math.ceil(nz / 2);
    }
    const cells = this.nx * this.nz;
    // Two passes over the same cell ranges: count, then fill (ascending item index inside every cell).
    const cellStart = new Int32Array(cells + 1);
    for (let i = 0; i < count; i++) this.visitCells(rects, i, cellStart, 1);
    for (let c = 0; c < cells; c++) cellStart[c + 1]! += cellStart[c]!;
    const items = new Int32Array(cellStart[cells]!);
    const fill = cellStart.slice();
    for (let i = 0; i < count; i++) this.visitCells(rects, i, fill, 0, items);
    this.cellStart = cellStart;
    this.items = items;
    this.itemMinY = new Float64Array(count).fill(-Infinity);
    this.itemMaxY = new Float64Array(count).fill(Infinity);
    let magnitude = Math.max(Math.abs(minX), Math.abs(maxX), Math.abs(minZ), Math.abs(maxZ));
    if (yRanges) {
      for (let i = 0; i < count; i++) {
        const lo = yRanges[i * 2]!, hi = yRanges[i * 2 + 1]!;
        if (!(lo <= hi)) continue; // NaN or inverted: every height
        this.itemMinY[i] = lo;
        this.itemMaxY[i] = hi;
        if (Number.isFinite(lo) && Math.abs(lo) > magnitude) magnitude = Math.abs(lo);
        if (Number.isFinite(hi) && Math.abs(hi) > magnitude) magnitude = Math.abs(hi);
      }
    }
    this.magnitude = magnitude;
    // Empty cells get an empty range (+∞, −∞), so every walk skips them without reading their lists.
    this.cellMinY = new Float64Array(cells).fill(Infinity);
    this.cellMaxY = new Float64Array(cells).fill(-Infinity);
    for (let c = 0; c < cells; c++) {
      for (let k = cellStart[c]!; k < cellStart[c + 1]!; k++) {
        const i = items[k]!;
        if (this.itemMinY[i]! < this.cellMinY[c]!) this.cellMinY[c] = this.itemMinY[i]!;
        if (this.itemMaxY[i]! > this.cellMaxY[c]!) this.cellMaxY[c] = this.itemMaxY[i]!;
      }
    }
    this.columnMinY = new Float64Array(this.nx).fill(Infinity);
    this.columnMaxY = new Float64Array(this.nx).fill(-Infinity);
    this.rowMinY = new Float64Array(this.nz).fill(Infinity);
    this.rowMaxY = new Float64Array(this.nz).fill(-Infinity);
    for (let gx = 0; gx < this.nx; gx++) {
      for (let gz = 0; gz < this.nz; gz++) {
        const c = gx * this.nz + gz;
        if (this.cellMinY[c]! < this.columnMinY[gx]!) this.columnMinY[gx] = this.cellMinY[c]!;
        if (this.cellMaxY[c]! > this.columnMaxY[gx]!) this.columnMaxY[gx] = this.cellMaxY[c]!;
        if (this.cellMinY[c]! < this.rowMinY[gz]!) this.rowMinY[gz] = this.cellMinY[c]!;
        if (this.cellMaxY[c]! > this.rowMaxY[gz]!) this.rowMaxY[gz] = this.cellMaxY[c]!;
      }
    }
  }

  /** Counts item i into `cursor[c + shift]` for each cell it covers, or (with `items`) files it there. */
  private visitCells(rects: Float64Array, i: number, cursor: Int32Array, shift: number, items?: Int32Array): void {
    const o = i * 4;
    if (!(rects[o]! <= rects[o + 1]! && rects[o + 2]! <= rects[o + 3]!)) return;
    const x0 = this.cellX(rects[o]!);
    const x1 = this.cellX(rects[o + 1]!);
    const z0 = this.cellZ(rects[o + 2]!);
    const z1 = this.cellZ(rects[o + 3]!);
    for (let gx = x0; gx <= x1; gx++) {
      for (let gz = z0; gz <= z1; gz++) {
        const c = gx * this.nz + gz + shift;
        if (items) items[cursor[c]!++] = i;
        else cursor[c]!++;
      }
    }
  }

  /** Column of x, clamped; monotone in x. */
  cellX(x: number): number {
    const c = Math.floor((x - this.minX) * this.invX);
    return c < 0 ? 0 : c >= this.nx ? this.nx - 1 : c;
  }
  cellZ(z: number): number {
    const c = Math.floor((z - this.minZ) * this.invZ);
    return c < 0 ? 0 : c >= this.nz ? this.nz - 1 : c;
  }

  /** The cell holding (x, z), or −1 when the point is outside every item's rectangle bounds (or NaN). */
  cellAt(x: number, z: number): number {
    if (!(x >= this.minX && x <= this.maxX && z >= this.minZ && z <= this.maxZ)) return -1;
    return this.cellX(x) * this.nz + this.cellZ(z);
  }
}

/**
 * The walk's margin, relative to the magnitude of the coordinates involved (segment ends, grid bounds, item
 * heights): cells within this distance of the segment's x/z path are visited too. Rounding in the walk and
 * in the item tests is a few units in the last place (2^-52 relative), far below it, so an item whose test
 * reports a hit lies in a visited cell and the answers equal testing every item. For walls always: their
 * hits are inside the reach box. For triangles whenever their arithmetic is exact: integer coordinates
 * within ±2^15 (every product sum stays below 2^53); beyond that, unless a segment grazes a triangle's plane
 * so closely that rounding decides the test. It costs nearly nothing: an extra cell only where the path
 * passes within ~2^-32 of a cell edge (on integer edges, a path with integer ends below 2^10 that misses a
 * cell misses it by at least 2^-11).
 */
export const SEGMENT_WALK_MARGIN = 2 ** -32;
/**
 * Segment coordinates beyond the engine's int32 space (hostile input): the double arithmetic of the item
 * tests no longer says where a hit is, so the walk gives up and the caller tests every item (`everything`).
 */
export const SEGMENT_WALK_MAX_COORDINATE = 2 ** 31;

/** Slots of `SegmentCellWalk.range`: the segment's y range over the current column, and the stopping fraction. */
export const WALK_Y_LO = 0;
export const WALK_Y_HI = 1;
export const WALK_T_NEXT = 2;

// Slots of the walker's private state (doubles in a typed array: a double stored in an object field may be
// boxed, an allocation per store).
const A0 = 0, INV_DA = 1, A_MIN = 2, A_SIZE = 3, B0 = 4, DB = 5, B_MIN = 6, B_INV = 7, Y0 = 8, DY = 9;
const T0 = 10, T1 = 11, MARGIN = 12, MARGIN_T = 13, ENTER_T = 14, STATE_WORDS = 15;

/**
 * A 2D DDA over an XZGrid: the cells a segment's x/z projection touches (closed cells, so a line through a
 * corner or along a cell edge visits the cells on both sides), column by column along the segment's major
 * x/z axis, in the segment's direction. Each step gives one column (or row) as a run of cells
 * `first, first + stride, …` (`count` of them), the segment's y range over that column
 * (`range[WALK_Y_LO]`, `range[WALK_Y_HI]`), and `range[WALK_T_NEXT]`: every point of the segment's x/z path
 * before that fraction lies in the cells visited so far (widened by the margin), so a hit found before it
 * cannot be beaten by an item of a later column. Allocation-free: one walker is reused for every query.
 */
export class SegmentCellWalk {
  first = 0;
  stride = 1;
  count = 0;
  readonly range = new Float64Array(3);
  /** Set by `begin` for hostile coordinates: no walk, the caller must test every item. */
  everything = false;
  private grid: XZGrid | null = null;
  private readonly s = new Float64Array(STATE_WORDS);
  /** True: columns step along x (the major axis), rows along z; false: the other way round. */
  private alongX = true;
  private aCells = 1;
  private bCells = 1;
  private lineMinY: Float64Array = EMPTY;
  private lineMaxY: Float64Array = EMPTY;
  private cur = 0;
  private last = 0;
  private step = 1;

  /**
   * Starts a walk of from→to over `grid`; false when there is nothing to visit (the segment comes nowhere
   * near the grid's items, or an end is NaN). True with `everything` set: coordinates beyond
   * SEGMENT_WALK_MAX_COORDINATE, test every item instead.
   */
  begin(grid: XZGrid, fx: number, fy: number, fz: number, tx: number, ty: number, tz: number): boolean {
    this.grid = grid;
    this.everything = false;
    const dx = tx - fx, dy = ty - fy, dz = tz - fz;
    if (dx !== dx || dy !== dy || dz !== dz) return false; // a NaN end: nothing to walk
    let mag = 1;
    if (fx > mag || -fx > mag) mag = fx < 0 ? -fx : fx;
    if (fy > mag || -fy > mag) mag = fy < 0 ? -fy : fy;
    if (fz > mag || -fz > mag) mag = fz < 0 ? -fz : fz;
    if (tx > mag || -tx > mag) mag = tx < 0 ? -tx : tx;
    if (ty > mag || -ty > mag) mag = ty < 0 ? -ty : ty;
    if (tz > mag || -tz > mag) mag = tz < 0 ? -tz : tz;
    if (!(mag <= SEGMENT_WALK_MAX_COORDINATE)) {
      this.everything = true;
      this.cur = this.last + this.step; // next() ends at once
      return true;
    }
    if (grid.magnitude > mag) mag = grid.magnitude;
    const m = mag * SEGMENT_WALK_MARGIN;
    // Clip to the grid's bounds widened by the margin (nothing outside them can be hit).
    let t0 = 0, t1 = 1;
    if (dx !== 0) {
      const u = (grid.minX - m - fx) / dx, v = (grid.maxX + m - fx) / dx;
      if ((u < v ? u : v) > t0) t0 = u < v ? u : v;
      if ((u < v ? v : u) < t1) t1 = u < v ? v : u;
    } else if (fx < grid.minX - m || fx > grid.maxX + m) return false;
    if (dz !== 0) {
      const u = (grid.minZ - m - fz) / dz, v = (grid.maxZ + m - fz) / dz;
      if ((u < v ? u : v) > t0) t0 = u < v ? u : v;
      if ((u < v ? v : u) < t1) t1 = u < v ? v : u;
    } else if (fz < grid.minZ - m || fz > grid.maxZ + m) return false;
    if (!(t0 <= t1)) return false;
    const s = this.s;
    s[T0] = t0;
    s[T1] = t1;
    s[MARGIN] = m;
    s[Y0] = fy;
    s[DY] = dy;
    // Walk columns of the axis the segment moves along most, so each column holds few cells.
    const alongX = (dx < 0 ? -dx : dx) >= (dz < 0 ? -dz : dz);
    this.alongX = alongX;
    const a0 = alongX ? fx : fz, da = alongX ? dx : dz;
    const aMin = alongX ? grid.minX : grid.minZ, aSize = alongX ? grid.cellW : grid.cellH;
    const aCells = alongX ? grid.nx : grid.nz;
    s[A0] = a0;
    s[A_MIN] = aMin;
    s[A_SIZE] = aSize;
    this.aCells = aCells;
    s[B0] = alongX ? fz : fx;
    s[DB] = alongX ? dz : dx;
    s[B_MIN] = alongX ? grid.minZ : grid.minX;
    s[B_INV] = alongX ? grid.invZ : grid.invX;
    this.bCells = alongX ? grid.nz : grid.nx;
    this.stride = alongX ? 1 : grid.nz;
    this.lineMinY = alongX ? grid.columnMinY : grid.rowMinY;
    this.lineMaxY = alongX ? grid.columnMaxY : grid.rowMaxY;
    // da = 0 only for a vertical (or point) segment: one x/z spot, every column spans the whole fraction range.
    const inv = da === 0 ? 0 : 1 / da;
    s[INV_DA] = inv;
    s[MARGIN_T] = da === 0 ? Infinity : m / (da < 0 ? -da : da);
    const pa = a0 + t0 * da, pb = a0 + t1 * da;
    const cLo = cellOf((pa < pb ? pa : pb) - m, aMin, alongX ? grid.invX : grid.invZ, aCells);
    const cHi = cellOf((pa < pb ? pb : pa) + m, aMin, alongX ? grid.invX : grid.invZ, aCells);
    this.step = da < 0 ? -1 : 1;
    this.cur = da < 0 ? cHi : cLo;
    this.last = da < 0 ? cLo : cHi;
    // The first column's entry edge: its low edge going up, its high edge going down; −∞ at the grid's
    // outer edges (the mapping clamps, so outer columns reach to infinity) or without movement along it.
    const g = this.cur;
    if (inv === 0 || (da > 0 ? g === 0 : g === aCells - 1)) s[ENTER_T] = -Infinity;
    else s[ENTER_T] = (aMin + (da > 0 ? g : g + 1) * aSize - a0) * inv;
    return true;
  }

  /** Moves to the next column; false when the walk is over. */
  next(): boolean {
    const g = this.cur;
    if (g === this.last + this.step) return false;
    this.cur = g + this.step;
    const s = this.s;
    const r = this.range;
    const m = s[MARGIN]!, mt = s[MARGIN_T]!, inv = s[INV_DA]!;
    // The column's stretch of the path, widened by the margin at both edges, as a fraction range. Its exit
    // edge: the high edge going up, the low edge going down; +∞ at the grid's outer edges.
    const up = this.step > 0;
    const exitT = inv === 0 ? -Infinity : (up ? g === this.aCells - 1 : g === 0) ? Infinity : (s[A_MIN]! + (up ? g + 1 : g) * s[A_SIZE]! - s[A0]!) * inv;
    let ta = s[ENTER_T]! - mt, tb = exitT + mt;
    s[ENTER_T] = exitT;
    if (inv === 0) {
      ta = -Infinity;
      tb = Infinity;
    }
    if (ta < s[T0]!) ta = s[T0]!;
    if (tb > s[T1]!) tb = s[T1]!;
    // Points before tNext are short of this column's exit edge by more than the margin; with no movement
    // along the major axis any column may hold the first hit.
    r[WALK_T_NEXT] = inv === 0 ? -Infinity : exitT - 2 * mt;
    if (!(ta <= tb)) {
      this.count = 0;
      return true;
    }
    const y0 = s[Y0]!, dy = s[DY]!;
    const ya = y0 + ta * dy, yb = y0 + tb * dy;
    const yLo = (ya < yb ? ya : yb) - m, yHi = (ya < yb ? yb : ya) + m;
    // The whole column out of reach: nothing to visit (each of its cells would be skipped anyway).
    if (this.lineMaxY[g]! < yLo || this.lineMinY[g]! > yHi) {
      this.count = 0;
      return true;
    }
    r[WALK_Y_LO] = yLo;
    r[WALK_Y_HI] = yHi;
    const b0 = s[B0]!, db = s[DB]!;
    const ba = b0 + ta * db, bb = b0 + tb * db;
    // The grid's own mapping (XZGrid.cellX / cellZ), written out: a call would box its double arguments.
    const bMin = s[B_MIN]!, bInv = s[B_INV]!, bLast = this.bCells - 1;
    let c0 = Math.floor(((ba < bb ? ba : bb) - m - bMin) * bInv);
    let c1 = Math.floor(((ba < bb ? bb : ba) + m - bMin) * bInv);
    c0 = c0 < 0 ? 0 : c0 > bLast ? bLast : c0;
    c1 = c1 < 0 ? 0 : c1 > bLast ? bLast : c1;
    this.first = this.alongX ? g * this.grid!.nz + c0 : c0 * this.grid!.nz + g;
    this.count = c1 - c0 + 1;
    return true;
  }
}

const EMPTY = new Float64Array(0);

/** The grid's cell mapping (`XZGrid.cellX` / `cellZ`) for either axis. */
function cellOf(v: number, min: number, inv: number, cells: number): number {
  const c = Math.floor((v - min) * inv);
  return c < 0 ? 0 : c >= cells ? cells - 1 : c;
}
