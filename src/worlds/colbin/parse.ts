/**
 * COLBIN reader, versions 1 and 2. The engine's loader (ColbinManager::LoadColbin) checks only the magic;
 * this one is strict where it is not: the version byte, every count against the bytes present, every grid
 * index against the wall count, a usable cell size, and trailing bytes. Each problem is a FormatError naming
 * the field and its offset. Counts are checked against the bytes left before anything is allocated.
 */
import { BinaryReader } from '../../binary/reader.js';
import {
  COLBIN_FLOOR_BYTES,
  COLBIN_GRID_HEADER_BYTES,
  COLBIN_HEADER_BYTES,
  COLBIN_MAGIC,
  COLBIN_WALL_BYTES_V1,
  COLBIN_WALL_BYTES_V2,
  emptyColbin,
  type ColbinFile,
  type ColbinGrid,
  type ColbinVersion,
} from './types.js';
import { checkFileBytes, checkLimit, DEFAULT_LIMITS, type Limits } from '../../limits.js';

/** The format name a FormatError from parseColbin carries. */
export const COLBIN_FORMAT = 'COLBIN';

/** Options of parseColbin (and of loadColbinWorld, through ColbinWorldOptions). */
export interface ParseColbinOptions {
  /**
   * Accept bytes after the last wall (the engine ignores them). Off by default: a COLBIN has no reason to
   * carry any, so they mean a wrong count or a concatenated file.
   */
  allowTrailingBytes?: boolean;
  /** File size and element-count limits (src/limits.ts); DEFAULT_LIMITS when absent. */
  limits?: Readonly<Limits>;
}

/** True when `bytes` start with the COLBIN magic (detection by content, not by file name). */
export function hasColbinMagic(bytes: Uint8Array): boolean {
  if (bytes.length < COLBIN_MAGIC.length) return false;
  for (let i = 0; i < COLBIN_MAGIC.length; i++) if (bytes[i] !== COLBIN_MAGIC.charCodeAt(i)) return false;
  return true;
}

/**
 * Parses a COLBIN file (version 1 or 2). Throws a FormatError (format COLBIN_FORMAT) naming the byte offset on
 * any fault, on bytes after the last wall unless `allowTrailingBytes`, and for a file or a count beyond the limits.
 */
export function parseColbin(data: Uint8Array, options: ParseColbinOptions = {}): ColbinFile {
  const limits = options.limits ?? DEFAULT_LIMITS;
  checkFileBytes(COLBIN_FORMAT, data.length, limits);
  const r = new BinaryReader(data, COLBIN_FORMAT);
  r.need(COLBIN_HEADER_BYTES, 'header');
  if (!hasColbinMagic(data)) r.fail('magic: expected the 6 ASCII bytes "COLBIN"', 0);
  r.pos = 6;
  const version = r.u8('version');
  if (version !== 1 && version !== 2) r.fail(`version: ${version} is not 1 or 2`, 6);
  const floorCount = r.u32('floorTriCount');
  const wallCount = r.u32('wallOBBCount');
  const wallBytes = version === 1 ? COLBIN_WALL_BYTES_V1 : COLBIN_WALL_BYTES_V2;

  // The fixed-size parts alone must fit before anything is allocated or any cell is walked.
  const fixed = floorCount * COLBIN_FLOOR_BYTES + wallCount * wallBytes + (version === 2 ? COLBIN_GRID_HEADER_BYTES : 0);
  if (fixed > r.remaining) {
    r.fail(
      `counts: ${floorCount} floor triangles × ${COLBIN_FLOOR_BYTES} + ${wallCount} walls × ${wallBytes}` +
        `${version === 2 ? ` + ${COLBIN_GRID_HEADER_BYTES}-byte grid header` : ''} = ${fixed} bytes, but only ${r.remaining} follow the header`,
      7,
    );
  }
  // Counts that fit the file may still be absurd: the configured limits (checked after the bytes, which say more).
  checkLimit(COLBIN_FORMAT, 7, 'floorTriCount', floorCount, limits.colbin.floors, 'colbin.floors');
  checkLimit(COLBIN_FORMAT, 11, 'wallOBBCount', wallCount, limits.colbin.walls, 'colbin.walls');

  const file = emptyColbin(version as ColbinVersion, floorCount, wallCount);
  if (version === 2) file.grid = readGrid(r, wallCount, floorCount * COLBIN_FLOOR_BYTES + wallCount * wallBytes, limits);

  r.checkCount(floorCount, COLBIN_FLOOR_BYTES, 'floor triangles');
  const fv = file.floorVertices;
  const fn = file.floorNormals;
  for (let i = 0; i < floorCount; i++) {
    for (let k = 0; k < 9; k++) fv[i * 9 + k] = r.i32('floor vertex');
    for (let k = 0; k < 3; k++) fn[i * 3 + k] = r.i16('floor normal');
    file.floorPads[i] = r.u16('floor pad');
  }

  r.checkCount(wallCount, wallBytes, 'wall OBBs');
  for (let i = 0; i < wallCount; i++) {
    for (let k = 0; k < 3; k++) file.wallCenters[i * 3 + k] = r.i32('wall centre');
    for (let a = 0; a < 3; a++) {
      if (version === 1) {
        for (let k = 0; k < 3; k++) file.wallAxes[i * 9 + a * 3 + k] = r.i16('wall axis (i16)');
        file.wallAxisPads[i * 3 + a] = r.u16('wall axis pad');
      } else {
        for (let k = 0; k < 3; k++) file.wallAxes[i * 9 + a * 3 + k] = r.i32('wall axis');
      }
    }
    for (let k = 0; k < 3; k++) file.wallHalfExtents[i * 3 + k] = r.i32('wall half extent');
    file.wallFlags[i] = r.u32('wall flags');
  }

  if (!options.allowTrailingBytes && r.remaining > 0) {
    r.fail(`trailing bytes: ${r.remaining} bytes after the last wall OBB (the counts say the file ends here)`);
  }
  return file;
}

/** Reads the version-2 grid header and cells; `tailBytes` is what the floors and walls still need after it. */
function readGrid(r: BinaryReader, wallCount: number, tailBytes: number, limits: Readonly<Limits>): ColbinGrid {
  const headerAt = r.pos;
  const originX = r.i32('grid originX');
  const originZ = r.i32('grid originZ');
  const cellSize = r.u32('grid cellSize');
  const width = r.u16('grid width');
  const height = r.u16('grid height');
  const cells = width * height;
  // A cell size of 0 would make the cell mapping floor((x - origin) / cellSize) divide by zero.
  if (cellSize === 0 && cells > 0) r.fail('grid cellSize: 0 with a non-empty grid', headerAt + 8);
  const cellsAt = r.pos;
  // Every cell is at least its 2-byte count, and the floors and walls must still fit after the cells.
  if (cells * 2 + tailBytes > r.remaining) {
    r.fail(`grid cells: ${width} × ${height} cells need at least ${cells * 2} bytes before ${tailBytes} bytes of floors and walls, but only ${r.remaining} remain`, cellsAt);
  }
  checkLimit(COLBIN_FORMAT, headerAt + 12, `grid of ${width}×${height} cells`, cells, limits.colbin.gridCells, 'colbin.gridCells');
  // First pass: counts only, so the index array is allocated once at its exact size.
  let total = 0;
  for (let c = 0; c < cells; c++) {
    const count = r.u16('grid cell count');
    r.checkCount(count, 2, `grid cell ${c} indices`);
    total += count;
    r.pos += count * 2;
    if (r.remaining < (cells - 1 - c) * 2 + tailBytes) {
      r.fail(`grid cell ${c}: its ${count} indices leave too few bytes for the remaining cells, floors and walls`, r.pos - count * 2 - 2);
    }
  }
  const cellStart = new Uint32Array(cells + 1);
  const indices = new Uint16Array(total);
  r.pos = cellsAt;
  let n = 0;
  for (let c = 0; c < cells; c++) {
    const count = r.u16('grid cell count');
    cellStart[c] = n;
    for (let k = 0; k < count; k++) {
      const at = r.pos;
      const index = r.u16('grid cell index');
      if (index >= wallCount) r.fail(`grid cell ${c} (gx ${Math.floor(c / height)}, gz ${c % height}): wall index ${index} is not below the wall count ${wallCount}`, at);
      indices[n++] = index;
    }
  }
  cellStart[cells] = n;
  return { originX, originZ, cellSize, width, height, cellStart, indices };
}
