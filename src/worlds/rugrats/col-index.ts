/**
 * The database laid out in flat typed arrays for the query and the segment test: per column the range of its
 * cells, per cell its z byte and the first tile of each half's stack, per tile its flags, flat heights, the
 * normal of each plane (the flat one substituted for index 0) and its file offset, which is the tile id the
 * outputs report (the analogue of the original's tile pointer; 0 means none).
 */
import { parseColWithOffsets, stackEnd, type ColOffsets } from './parse.js';
import { FormatError } from '../../binary/format-error.js';
import { COL_FORMAT, COLUMN_COUNT, COLUMN_DATA, HEIGHT_STEP, TILE_SIZE, isHalved, type ColData } from './layout.js';

/** The plane of a flat floor: the normal points up, which is −y on the PlayStation. */
export const FLAT_FLOOR_NORMAL = [0, -4096, 0] as const;
/** The plane of a flat ceiling: the normal points down into the room, +y. */
export const FLAT_CEILING_NORMAL = [0, 4096, 0] as const;

/**
 * A database laid out for the query and the segment test (made by buildColIndex or loadColIndex). Tiles are
 * numbered globally in file order; the per-tile arrays are indexed by that number, and tileIndexOfOffset turns
 * a tile id from an answer back into it.
 */
export interface ColIndex {
  /** The database indexed. */
  readonly data: ColData;
  /** The bounds, inclusive, in world units. */
  readonly minX: number;
  readonly minY: number;
  readonly minZ: number;
  readonly maxX: number;
  readonly maxY: number;
  readonly maxZ: number;
  /** Cells of column c are colCellStart[c] .. colCellStart[c + 1] − 1. */
  readonly colCellStart: Int32Array;
  readonly cellZ: Uint8Array;
  /**
   * cellGrid[col × 256 + zCell]: the global cell index, or −1 for no cell. The original finds the cell by halves
   * (0x8002aec4); with cells strictly sorted by z (the parser checks) a direct lookup gives the same cell, faster.
   */
  readonly cellGrid: Int32Array;
  /** Global index of the first tile of the stack the cell points at. */
  readonly cellStackA: Int32Array;
  /** For a halved cell, the global index of the opposite half's stack; −1 otherwise. */
  readonly cellStackB: Int32Array;
  readonly tileFlags: Uint8Array;
  /** Flat heights: max y − byte × 128 (wrapping as the 32-bit subtract does). */
  readonly tileFloor: Int32Array;
  readonly tileCeiling: Int32Array;
  /** 1 when the normal index is nonzero (the height is sloped). */
  readonly tileFloorSloped: Uint8Array;
  readonly tileCeilingSloped: Uint8Array;
  /** Three components per tile. */
  readonly tileFloorNormal: Int32Array;
  readonly tileCeilingNormal: Int32Array;
  /** File offset of the tile's 8 bytes: the tile id in every output. */
  readonly tileOffset: Int32Array;
}

/** Parses (strictly, as parseColWithOffsets) and indexes a database in one go. Throws FormatError. */
export function loadColIndex(bytes: Uint8Array): ColIndex {
  const p = parseColWithOffsets(bytes);
  return buildColIndex(p.data, p.offsets);
}

/**
 * Builds the index of a database. `offsets` (from parseColWithOffsets) give the tile ids; without them they are
 * recomputed from the layout the writer produces, which is the same thing. Throws a FormatError for data the
 * walks cannot use (not 512 columns, unsorted cells, a stack with no last tile, a halved cell without its other
 * half, a normal index beyond its table).
 */
export function buildColIndex(data: ColData, offsets?: ColOffsets): ColIndex {
  if (data.columns.length !== COLUMN_COUNT) throw new FormatError(COL_FORMAT, -1, `needs ${COLUMN_COUNT} columns, got ${data.columns.length}`);
  let nCells = 0;
  let nTiles = 0;
  for (const c of data.columns) {
    nCells += c.cells.length;
    nTiles += c.tiles.length;
  }
  const tileOffsets = offsets?.tileOffsets ?? recomputeTileOffsets(data);
  const colCellStart = new Int32Array(COLUMN_COUNT + 1);
  const cellGrid = new Int32Array(COLUMN_COUNT * 256).fill(-1);
  const cellZ = new Uint8Array(nCells);
  const cellStackA = new Int32Array(nCells);
  const cellStackB = new Int32Array(nCells);
  const tileFlags = new Uint8Array(nTiles);
  const tileFloor = new Int32Array(nTiles);
  const tileCeiling = new Int32Array(nTiles);
  const tileFloorSloped = new Uint8Array(nTiles);
  const tileCeilingSloped = new Uint8Array(nTiles);
  const tileFloorNormal = new Int32Array(nTiles * 3);
  const tileCeilingNormal = new Int32Array(nTiles * 3);
  const tileOffset = new Int32Array(nTiles);
  const maxY = data.max[1];
  let ci = 0;
  let ti = 0;
  for (let c = 0; c < COLUMN_COUNT; c++) {
    const col = data.columns[c]!;
    colCellStart[c] = ci;
    let prevZ = -1;
    for (const cell of col.cells) {
      // The parser has checked all of this for a file; data built in memory is checked here, because the walks
      // rely on it (sorted cells, stacks that end, halved cells with both halves).
      const end = cell.tile < col.tiles.length ? stackEnd(col.tiles, cell.tile) : -1;
      const halved = end >= 0 && isHalved(col.tiles[cell.tile]!.flags);
      if (cell.z <= prevZ || cell.z > 255 || end < 0 || (halved && stackEnd(col.tiles, end + 1) < 0)) {
        throw new FormatError(COL_FORMAT, -1, `column ${c}: cell z ${cell.z} is unsorted, or its stack does not end or lacks its other half`);
      }
      prevZ = cell.z;
      cellGrid[c * 256 + cell.z] = ci;
      cellZ[ci] = cell.z;
      cellStackA[ci] = ti + cell.tile;
      cellStackB[ci] = halved ? ti + end + 1 : -1;
      ci++;
    }
    for (let k = 0; k < col.tiles.length; k++) {
      const t = col.tiles[k]!;
      const g = ti + k;
      tileFlags[g] = t.flags;
      tileFloor[g] = (maxY - t.floor * HEIGHT_STEP) | 0;
      tileCeiling[g] = (maxY - t.ceiling * HEIGHT_STEP) | 0;
      tileFloorSloped[g] = t.floorNormal !== 0 ? 1 : 0;
      tileCeilingSloped[g] = t.ceilingNormal !== 0 ? 1 : 0;
      const fn = t.floorNormal !== 0 ? data.floorNormals[t.floorNormal] : FLAT_FLOOR_NORMAL;
      const cn = t.ceilingNormal !== 0 ? data.ceilingNormals[t.ceilingNormal] : FLAT_CEILING_NORMAL;
      if (!fn || !cn) throw new FormatError(COL_FORMAT, -1, `column ${c} tile ${k}: a normal index beyond its table`);
      tileFloorNormal.set(fn, g * 3);
      tileCeilingNormal.set(cn, g * 3);
      tileOffset[g] = tileOffsets[c]! + k * TILE_SIZE;
    }
    ti += col.tiles.length;
  }
  colCellStart[COLUMN_COUNT] = ci;
  return {
    data,
    minX: data.min[0],
    minY: data.min[1],
    minZ: data.min[2],
    maxX: data.max[0],
    maxY: data.max[1],
    maxZ: data.max[2],
    colCellStart,
    cellGrid,
    cellZ,
    cellStackA,
    cellStackB,
    tileFlags,
    tileFloor,
    tileCeiling,
    tileFloorSloped,
    tileCeilingSloped,
    tileFloorNormal,
    tileCeilingNormal,
    tileOffset,
  };
}

function recomputeTileOffsets(data: ColData): number[] {
  const out: number[] = [];
  let pos = COLUMN_DATA;
  for (const c of data.columns) {
    pos += c.cells.length * 2;
    out.push(pos);
    pos += c.tiles.length * TILE_SIZE;
  }
  return out;
}

/** The global tile index of a tile id (the file offset answers report), or −1. A binary search: for tools, not hot paths. */
export function tileIndexOfOffset(ix: ColIndex, offset: number): number {
  let lo = 0;
  let hi = ix.tileOffset.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = ix.tileOffset[mid]!;
    if (v === offset) return mid;
    if (v < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
