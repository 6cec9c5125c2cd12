import { positionCellOf } from './conventions.js';
import { REGION_COUNT, type LlamaMap } from './map-parse.js';

/**
 * Visibility regions (there is no BSP): a cell's tiles are drawn only if the cell's region bit is set in
 * the mask of the camera's region. Mask 0, or a camera outside the grid, means everything is visible.
 */

/** The region of a cell, or −1 when the index is outside the grid. */
export function cellRegion(map: LlamaMap, cell: number): number {
  return cell >= 0 && cell < map.cellRegions.length ? map.cellRegions[cell]! : -1;
}

/**
 * The visibility mask seen from a cell: the mask of its region; 0xffffffff ("everything") for a camera
 * outside the grid, a mask of 0, or a region number beyond the 32-entry table (nothing defines it, so we
 * choose not to hide anything).
 */
export function cameraMask(map: LlamaMap, cell: number): number {
  return regionMask(map, cellRegion(map, cell));
}

/** The visibility mask of region r, with "everything" (0xffffffff) for mask 0 or r outside the table. */
export function regionMask(map: LlamaMap, r: number): number {
  if (r < 0 || r >= REGION_COUNT) return 0xffffffff;
  const m = map.regionMasks[r]!;
  return m === 0 ? 0xffffffff : m;
}

/** Whether a cell in region `region` is visible under `mask`; regions ≥ 32 have no bit and are hidden. */
export function regionVisible(mask: number, region: number): boolean {
  if (mask === 0xffffffff) return true;
  return region >= 0 && region < REGION_COUNT && ((mask >>> region) & 1) === 1;
}

/** Per cell 1 = visible from a camera at game-space (x, z). */
export function visibleCells(map: LlamaMap, x: number, z: number): Uint8Array {
  const cells = map.cellRegions.length;
  const out = new Uint8Array(cells);
  const mask = cameraMask(map, positionCellOf(x, z, map.width, map.height));
  for (let c = 0; c < cells; c++) out[c] = regionVisible(mask, map.cellRegions[c]!) ? 1 : 0;
  return out;
}
