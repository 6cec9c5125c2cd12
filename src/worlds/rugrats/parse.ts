/**
 * The LEVELnn.COL parser. Strict: every count is checked against the bytes left before anything is allocated,
 * every read is bounds-checked, and every structural rule the query and the segment test rely on (cells sorted
 * by z, every stack ending on a last-tile flag, halved cells with both halves, normal indices inside their
 * tables) is verified here, so the runtime code never has to check again.
 */
import { BinaryReader } from '../../binary/reader.js';
import { checkFileBytes, checkLimit, DEFAULT_LIMITS, type Limits } from '../../limits.js';
import {
  CELL_SIZE,
  COL_FORMAT,
  COLUMN_COUNT,
  COLUMN_DATA,
  COLUMN_ENTRY_SIZE,
  COLUMN_TABLE,
  FLAG_DIAGONAL_SUM,
  HEADER_FLOOR_NORMAL_COUNT,
  HEADER_MAX,
  HEADER_MIN,
  HEADER_NORMALS_OFFSET,
  HEADER_UNKNOWN_24,
  NORMAL_SIZE,
  TILE_SIZE,
  halfOf,
  isHalved,
  isLast,
  type ColCell,
  type ColColumn,
  type ColData,
  type ColTile,
  type Vec3i,
} from './layout.js';

/** Alignment bytes allowed between the column data and the normals. */
export const MAX_NORMALS_GAP = 3;

/** Where each column's cells and tiles were found (file offsets), for the runtime's tile ids. */
export interface ColOffsets {
  /** Per column, the file offset of its first cell. */
  cellOffsets: number[];
  /** Per column, the file offset of its first tile. */
  tileOffsets: number[];
}

/** A parsed database with where its columns were found in the file (see parseColWithOffsets). */
export interface ParsedCol {
  /** The database. */
  data: ColData;
  /** Per column, the file offset of its first cell and of its first tile. */
  offsets: ColOffsets;
}

/**
 * Parses a LEVELnn.COL. Throws a FormatError (format COL_FORMAT) naming the byte offset on any fault, and
 * refuses a file or a count beyond `limits`.
 */
export function parseCol(bytes: Uint8Array, limits: Readonly<Limits> = DEFAULT_LIMITS): ColData {
  return parseColWithOffsets(bytes, limits).data;
}

/**
 * Parses a LEVELnn.COL as parseCol does and also returns the file offsets of each column's cells and tiles;
 * buildColIndex takes them to give every tile its id (its file offset).
 */
export function parseColWithOffsets(bytes: Uint8Array, limits: Readonly<Limits> = DEFAULT_LIMITS): ParsedCol {
  checkFileBytes(COL_FORMAT, bytes.length, limits);
  const r = new BinaryReader(bytes, COL_FORMAT);
  r.need(COLUMN_DATA, 'header and column table');
  const min: Vec3i = [r.i32At(HEADER_MIN), r.i32At(HEADER_MIN + 4), r.i32At(HEADER_MIN + 8)];
  const max: Vec3i = [r.i32At(HEADER_MAX), r.i32At(HEADER_MAX + 4), r.i32At(HEADER_MAX + 8)];
  for (let a = 0; a < 3; a++) {
    if (min[a]! > max[a]!) r.fail(`bounds: min ${'xyz'[a]} ${min[a]} is above max ${max[a]}`, HEADER_MIN + 4 * a);
  }
  const pads: [number, number] = [r.u32At(HEADER_MIN + 12), r.u32At(HEADER_MAX + 12)];
  const floorCount = r.u32At(HEADER_FLOOR_NORMAL_COUNT);
  const unknown24 = r.u32At(HEADER_UNKNOWN_24);
  const normalsOffset = r.u32At(HEADER_NORMALS_OFFSET);
  if (normalsOffset < COLUMN_DATA || normalsOffset > bytes.length) {
    r.fail(`normals offset ${normalsOffset} is outside the data area ${COLUMN_DATA}..${bytes.length}`, HEADER_NORMALS_OFFSET);
  }
  r.checkCount(floorCount, NORMAL_SIZE, 'floor normals', Number.MAX_SAFE_INTEGER, normalsOffset);
  checkLimit(COL_FORMAT, HEADER_FLOOR_NORMAL_COUNT, 'floor normals', floorCount, limits.rugrats.normals, 'rugrats.normals');

  // The column table: counts only; the pointers are don't-care (the game sets them at load).
  const pointers: number[] = [];
  const cellCounts: number[] = [];
  const tileCounts: number[] = [];
  for (let i = 0; i < COLUMN_COUNT; i++) {
    const at = COLUMN_TABLE + i * COLUMN_ENTRY_SIZE;
    pointers.push(r.u32At(at));
    const cells = r.i16At(at + 4);
    const tiles = r.i16At(at + 6);
    if (cells < 0) r.fail(`column ${i}: negative cell count ${cells}`, at + 4);
    if (tiles < 0) r.fail(`column ${i}: negative tile count ${tiles}`, at + 6);
    cellCounts.push(cells);
    tileCounts.push(tiles);
  }

  // The columns' data, walked in order; it must end before the normals.
  const columns: ColColumn[] = [];
  const cellOffsets: number[] = [];
  const tileOffsets: number[] = [];
  let pos = COLUMN_DATA;
  const dataEnd = normalsOffset;
  let cellsAndTiles = 0;
  for (let i = 0; i < COLUMN_COUNT; i++) {
    const nCells = cellCounts[i]!;
    const nTiles = tileCounts[i]!;
    const need = nCells * CELL_SIZE + nTiles * TILE_SIZE;
    if (need > dataEnd - pos) {
      r.fail(`column ${i}: ${nCells} cells and ${nTiles} tiles (${need} bytes) run past the normals at ${dataEnd}`, pos);
    }
    cellsAndTiles += nCells + nTiles;
    checkLimit(COL_FORMAT, COLUMN_TABLE + i * COLUMN_ENTRY_SIZE + 4, 'cells and tiles up to this column', cellsAndTiles, limits.rugrats.cellsAndTiles, 'rugrats.cellsAndTiles');
    cellOffsets.push(pos);
    const cells: ColCell[] = [];
    for (let c = 0; c < nCells; c++) {
      const at = pos + c * CELL_SIZE;
      const z = bytes[at]!;
      const tile = bytes[at + 1]!;
      if (c > 0 && z <= cells[c - 1]!.z) r.fail(`column ${i}: cell ${c} has z ${z}, not above the previous cell's ${cells[c - 1]!.z}`, at);
      if (tile >= nTiles) r.fail(`column ${i}: cell ${c} points at tile ${tile} of ${nTiles}`, at + 1);
      cells.push({ z, tile });
    }
    pos += nCells * CELL_SIZE;
    tileOffsets.push(pos);
    const tiles: ColTile[] = [];
    for (let t = 0; t < nTiles; t++) {
      const at = pos + t * TILE_SIZE;
      tiles.push({
        floor: bytes[at]!,
        floorNormal: bytes[at + 1]!,
        ceiling: bytes[at + 2]!,
        ceilingNormal: bytes[at + 3]!,
        unknown4: bytes[at + 4]!,
        unknown5: bytes[at + 5]!,
        flags: bytes[at + 6]!,
        unknown7: bytes[at + 7]!,
      });
    }
    // Stacks: each cell's stack ends on a last-tile flag inside the column; a halved cell has both halves.
    for (let c = 0; c < nCells; c++) {
      const cellAt = cellOffsets[i]! + c * CELL_SIZE;
      const first = cells[c]!.tile;
      const end = stackEnd(tiles, first);
      if (end < 0) r.fail(`column ${i}: cell ${c}'s stack from tile ${first} has no last-tile flag`, pos + (nTiles - 1) * TILE_SIZE + 6);
      const f = tiles[first]!.flags;
      if (isHalved(f)) {
        const other = end + 1;
        if (other >= nTiles) r.fail(`column ${i}: halved cell ${c} has no stack for its other half after tile ${end}`, cellAt);
        const g = tiles[other]!.flags;
        if (!isHalved(g) || halfOf(g) !== (halfOf(f) ^ 2) || (g & FLAG_DIAGONAL_SUM) !== (f & FLAG_DIAGONAL_SUM)) {
          r.fail(`column ${i}: halved cell ${c} (half ${halfOf(f)}) is followed by tile ${other} that is not its opposite half`, pos + other * TILE_SIZE + 6);
        }
        if (stackEnd(tiles, other) < 0) r.fail(`column ${i}: cell ${c}'s other-half stack from tile ${other} has no last-tile flag`, pos + (nTiles - 1) * TILE_SIZE + 6);
      }
    }
    pos += nTiles * TILE_SIZE;
    columns.push({ pointer: pointers[i]!, cells, tiles });
  }
  if (normalsOffset - pos > MAX_NORMALS_GAP) {
    r.fail(`${normalsOffset - pos} unexplained bytes between the column data and the normals at ${normalsOffset}`, pos);
  }
  const gap = Array.from(bytes.subarray(pos, normalsOffset));

  // Normals: the floor table, then the ceiling table up to the end of the file.
  const floorNormals = readNormals(r, normalsOffset, floorCount);
  const ceilingStart = normalsOffset + floorCount * NORMAL_SIZE;
  const ceilingCount = Math.floor((bytes.length - ceilingStart) / NORMAL_SIZE);
  checkLimit(COL_FORMAT, ceilingStart, 'ceiling normals', ceilingCount, limits.rugrats.normals, 'rugrats.normals');
  const ceilingNormals = readNormals(r, ceilingStart, ceilingCount);
  const trailingAt = ceilingStart + ceilingCount * NORMAL_SIZE;
  const trailing = Array.from(bytes.subarray(trailingAt));
  for (let k = 0; k < trailing.length; k++) {
    if (trailing[k] !== 0) r.fail(`data past the end of the ceiling normals (a nonzero byte in the last ${trailing.length})`, trailingAt + k);
  }

  // Normal indices: zero means flat; a nonzero index must be inside its table.
  for (let i = 0; i < COLUMN_COUNT; i++) {
    const tiles = columns[i]!.tiles;
    for (let t = 0; t < tiles.length; t++) {
      const at = tileOffsets[i]! + t * TILE_SIZE;
      const tile = tiles[t]!;
      if (tile.floorNormal !== 0 && tile.floorNormal >= floorCount) {
        r.fail(`column ${i} tile ${t}: floor normal ${tile.floorNormal} beyond the ${floorCount} floor normals`, at + 1);
      }
      if (tile.ceilingNormal !== 0 && tile.ceilingNormal >= ceilingCount) {
        r.fail(`column ${i} tile ${t}: ceiling normal ${tile.ceilingNormal} beyond the ${ceilingCount} ceiling normals`, at + 3);
      }
    }
  }

  return {
    data: { min, max, pads, unknown24, columns, gap, floorNormals, ceilingNormals, trailing },
    offsets: { cellOffsets, tileOffsets },
  };
}

/** The index of the last tile of the stack starting at `first`, or -1 when no tile up to the column's end ends it. */
export function stackEnd(tiles: readonly ColTile[], first: number): number {
  for (let t = first; t < tiles.length; t++) if (isLast(tiles[t]!.flags)) return t;
  return -1;
}

function readNormals(r: BinaryReader, at: number, count: number): Vec3i[] {
  r.checkCount(count, NORMAL_SIZE, 'normals', Number.MAX_SAFE_INTEGER, at);
  const out: Vec3i[] = [];
  for (let k = 0; k < count; k++) {
    const p = at + k * NORMAL_SIZE;
    out.push([r.i16At(p), r.i16At(p + 2), r.i16At(p + 4)]);
  }
  return out;
}
