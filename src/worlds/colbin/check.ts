/**
 * `colbin check`: which walls does the file's own grid leave out of cells they overlap? The engine never
 * queries the grid, but a port that trusts it would miss these walls. Overlap uses each wall's rotated
 * footprint (the same conservative reach the broad phase uses) and the exporter's cell mapping (clamped).
 */
import { cellOf, wallFootprint } from './level-builder.js';
import type { ColbinFile } from './types.js';

/** A wall the file's grid leaves out of cells it overlaps. */
export interface GridMiss {
  /** The wall's index. */
  wall: number;
  /** Linear cell indices (gx * height + gz) the wall overlaps but is not listed in, ascending. */
  cells: number[];
}

/** checkGrid's answer. */
export interface GridCheck {
  /** False for version 1 (no grid to check). */
  hasGrid: boolean;
  /** Every wall with cells missing, by wall index. */
  missing: GridMiss[];
  /** Total (wall, cell) pairs missing. */
  missingRefs: number;
}

/**
 * Which walls the file's own version-2 grid leaves out of cells they overlap (by each wall's rotated footprint
 * and the exporter's clamped cell mapping). The engine never reads the grid; a port that trusted it would miss
 * these walls.
 */
export function checkGrid(file: ColbinFile): GridCheck {
  const g = file.grid;
  if (!g) return { hasGrid: false, missing: [], missingRefs: 0 };
  const missing: GridMiss[] = [];
  let missingRefs = 0;
  if (g.width === 0 || g.height === 0) {
    // No cell at all: every wall is unreachable through the grid.
    for (let i = 0; i < file.wallCount; i++) missing.push({ wall: i, cells: [] });
    return { hasGrid: true, missing, missingRefs };
  }
  const fp = new Float64Array(4);
  for (let i = 0; i < file.wallCount; i++) {
    wallFootprint(file, i, 'footprint', fp);
    const x0 = cellOf(fp[0]!, g.originX, g.cellSize, g.width);
    const x1 = cellOf(fp[1]!, g.originX, g.cellSize, g.width);
    const z0 = cellOf(fp[2]!, g.originZ, g.cellSize, g.height);
    const z1 = cellOf(fp[3]!, g.originZ, g.cellSize, g.height);
    const cells: number[] = [];
    for (let gx = x0; gx <= x1; gx++) {
      for (let gz = z0; gz <= z1; gz++) {
        const c = gx * g.height + gz;
        let found = false;
        for (let k = g.cellStart[c]!; k < g.cellStart[c + 1]!; k++) {
          if (g.indices[k] === i) {
            found = true;
            break;
          }
        }
        if (!found) cells.push(c);
      }
    }
    if (cells.length > 0) {
      missing.push({ wall: i, cells });
      missingRefs += cells.length;
    }
  }
  return { hasGrid: true, missing, missingRefs };
}
