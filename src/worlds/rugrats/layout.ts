/**
 * LEVELnn.COL, Rugrats' collision database: the byte layout and the plain model the parser returns and the
 * writer takes. The model keeps every byte whose meaning is unknown (header pads, header +0x24, tile bytes
 * 4, 5, 7, the column pointers) so that write(parse(file)) gives the file back byte for byte.
 * Format notes: docs/formats/rugrats-col.md.
 */

/** The format name a FormatError from the parser, the writer, the index or the level builder carries. */
export const COL_FORMAT = 'rugrats COL';

export const HEADER_MIN = 0x00;
export const HEADER_MAX = 0x10;
export const HEADER_FLOOR_NORMAL_COUNT = 0x20;
export const HEADER_UNKNOWN_24 = 0x24;
export const HEADER_NORMALS_OFFSET = 0x28;
export const COLUMN_TABLE = 0x2c;
/** Columns in every database: column i covers x from min x + 1024 i; `ColData.columns` has exactly this many. */
export const COLUMN_COUNT = 512;
export const COLUMN_ENTRY_SIZE = 8;
/** 0x2c + 512 × 8: where the columns' cells and tiles start. */
export const COLUMN_DATA = COLUMN_TABLE + COLUMN_COUNT * COLUMN_ENTRY_SIZE;
export const CELL_SIZE = 2;
export const TILE_SIZE = 8;
export const NORMAL_SIZE = 6;

/** A tile is 1024 units on a side; heights step by 128 (an eighth of a tile). */
export const TILE_SHIFT = 10;
/** World units along one side of a tile (a cell of the grid). */
export const TILE_UNITS = 1024;
/** World units per height byte: a tile's floor or ceiling byte b stands at y = max y − b × 128. */
export const HEIGHT_STEP = 128;
/** A u8 z cell addresses 256 cells per column. */
export const CELLS_PER_COLUMN = 256;

/** Tile flag bits (byte 6). */
export const FLAG_LAST = 0x01;
export const FLAG_DIAGONAL_SUM = 0x20; // bit 5: the halves are split by x + z = 1024, else by x = z
export const FLAG_HALF_MASK = 0x60; // bits 5-6 name the half 0..3
export const FLAG_HALF_SHIFT = 5;
export const FLAG_HALVED = 0x80;

/**
 * Where the other half's stack of a halved cell is (our convention, the layout is not public): a halved cell
 * points at the stack of one half, and the stack of the opposite half (0↔2, 1↔3) follows it directly, starting
 * at the tile after that stack's last tile. Both halves always have a stack; a half with no room is a closed
 * tile (ceiling byte = floor byte). The parser enforces this; see docs/formats/rugrats-col.md.
 */
export const OTHER_HALF_FOLLOWS = true;

/** An integer x, y, z: bounds in world units, or a 4.12 normal (4096 = 1). */
export type Vec3i = [number, number, number];

/** One 8-byte tile record, as bytes. */
export interface ColTile {
  /** Floor height byte: the floor is at y = max y − byte × 128. */
  floor: number;
  /** Index into `ColData.floorNormals`; 0 is a flat floor. */
  floorNormal: number;
  /** Ceiling height byte, as `floor`; equal to it for a closed tile. */
  ceiling: number;
  /** Index into `ColData.ceilingNormals`; 0 is a flat ceiling. */
  ceilingNormal: number;
  /** Bytes 4 and 5: meaning unknown, kept. */
  unknown4: number;
  unknown5: number;
  /** Byte 6: bit 0 last tile of its stack, bit 7 halved cell, bits 5-6 the half (read them with isLast, isHalved, halfOf). */
  flags: number;
  /** Byte 7: meaning unknown, kept. */
  unknown7: number;
}

/** One cell of a column: a 1024-unit square of the grid, pointing at the stack of tiles (rooms) above it. */
export interface ColCell {
  /** The z cell, (z − min z) >> 10. */
  z: number;
  /** Index of the cell's first tile within its column's tiles (column-relative: a u8 reaches 256 tiles). */
  tile: number;
}

/** One column of the grid: the cells along z at one x, and the tiles their stacks use. */
export interface ColColumn {
  /** The file's pointer word: set at load by the game, don't-care here, kept for round trips. */
  pointer: number;
  cells: ColCell[];
  tiles: ColTile[];
}

/** The whole database, byte-faithful. */
export interface ColData {
  /** The level's bounds, inclusive, in world units. */
  min: Vec3i;
  max: Vec3i;
  /** The pad words at 0x0c and 0x1c. */
  pads: [number, number];
  /** Header word 0x24: meaning unknown, kept. */
  unknown24: number;
  /** Exactly 512 columns; column i covers x from min x + 1024 i. */
  columns: ColColumn[];
  /** Bytes between the last column's data and the normals (alignment; at most 3). */
  gap: number[];
  /** The 4.12 floor normals tiles index; entry 0 is the flat floor. */
  floorNormals: Vec3i[];
  /** The 4.12 ceiling normals tiles index; entry 0 is the flat ceiling. */
  ceilingNormals: Vec3i[];
  /** Zero padding after the ceiling normals (fewer than 6 bytes). */
  trailing: number[];
}

/** Whether a tile's flags mark the last tile of its stack. */
export const isLast = (flags: number): boolean => (flags & FLAG_LAST) !== 0;
/** Whether a tile's flags mark a cell split along a diagonal into two halves, each with its own stack. */
export const isHalved = (flags: number): boolean => (flags & FLAG_HALVED) !== 0;
/**
 * The half (0..3) a halved cell's tile belongs to: halves 0 and 2 are split by x = z (0 where z < x), halves 1
 * and 3 by x + z = 1024 (1 where x + z < 1024), in cell coordinates.
 */
export const halfOf = (flags: number): number => (flags & FLAG_HALF_MASK) >> FLAG_HALF_SHIFT;
