/**
 * The project's own spatial index for COLBIN (built at load time; the file's grid is never trusted): a
 * uniform grid over x/z holding item indices by their x/z rectangles, in compressed rows (cellStart/items,
 * ascending item index inside each cell). Cells come from one monotone mapping used both to insert and to
 * query, so a point inside an item's rectangle always lands in a cell that lists the item.
 */
import { sqrtNewton } from './obb.js';

/** Upper bound on cells along each axis (keeps hostile files' indexes small). */
export const MAX_CELLS_PER_AXIS = 1024;
/**
 * Cells per item aimed for. Items overlap several cells, so one cell per item leaves five or six candidates
 * per query on a tiled level; four per item brings that to about two or three.
 */
export const CELLS_PER_ITEM = 4;

export class XZGrid {
  readonly count: number;
  readonly minX: number;
  readonly maxX: number;
  readonly minZ: number;
  readonly maxZ: number;
  nx = 1;
  nz = 1;
  private invX = 0;
  private invZ = 0;
  readonly cellStart: Int32Array;
  readonly items: Int32Array;

  /** `rects`: count × 4 numbers (minX, maxX, minZ, maxZ) per item; items with a NaN are left out. */
  constructor(rects: Float64Array, count: number) {
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
    // side = √(area / (CELLS_PER_ITEM · count)), bounded per axis.
    const side = count > 0 && w > 0 && h > 0 ? sqrtNewton((w * h) / (CELLS_PER_ITEM * count)) : Math.max(w, h) / Math.max(1, CELLS_PER_ITEM * count);
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
