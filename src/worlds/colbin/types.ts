/**
 * The in-memory model of a COLBIN file (psyqo "Madnight engine" collision: floor triangles, wall OBBs and,
 * from version 2, a uniform grid over the walls). Everything is kept as the raw integers of the file so a
 * parse → write round trip is byte-identical; `describe.ts` gives float views (/128 positions, /4096
 * directions). Layout notes: ../../../docs/formats/colbin.md.
 *
 * Flat typed arrays rather than objects per record: the collision code walks these in hot loops.
 */

/** "COLBIN" in ASCII, no terminator. */
export const COLBIN_MAGIC = 'COLBIN';
export const COLBIN_HEADER_BYTES = 15;
export const COLBIN_GRID_HEADER_BYTES = 16;
export const COLBIN_FLOOR_BYTES = 44;
/** Version 2 wall: centre i32×3, three axes i32×3, half extents i32×3, flags u32. */
export const COLBIN_WALL_BYTES_V2 = 64;
/** Version 1 wall: centre i32×3, three axes each i16×3 + 2 pad bytes, half extents i32×3, flags u32. */
export const COLBIN_WALL_BYTES_V1 = 52;

/** The file versions: 1 (52-byte walls with i16 axes, no grid) and 2 (64-byte walls and the wall grid). */
export type ColbinVersion = 1 | 2;

/** The version-2 uniform grid over the walls, kept for round trips and for `colbin check` (the engine never reads it). */
export interface ColbinGrid {
  /** x128 units. */
  originX: number;
  originZ: number;
  /** x128 units (u32 in the file). */
  cellSize: number;
  /** Cells along X. */
  width: number;
  /** Cells along Z. */
  height: number;
  /**
   * Cell c (= gx * height + gz, X-major) holds wall indices `indices[cellStart[c] .. cellStart[c + 1])`, in
   * file order. Length width*height + 1.
   */
  cellStart: Uint32Array;
  indices: Uint16Array;
}

/**
 * A COLBIN file as parseColbin returns it and writeColbin takes it: the raw integers of the file in flat typed
 * arrays (positions x128, directions FP12 = 4096 per unit), every byte kept for a byte-identical round trip.
 */
export interface ColbinFile {
  version: ColbinVersion;
  /** Floor triangles. */
  floorCount: number;
  /** Wall boxes. */
  wallCount: number;
  /** floorCount × 9 x128 integers: v0, v1, v2 (x, y, z each). */
  floorVertices: Int32Array;
  /** floorCount × 3 FP12 normal components, as stored (sign forced to y ≥ 0 by the exporter; not trusted). */
  floorNormals: Int16Array;
  /** The 2 pad bytes after each floor normal (zero from the exporter; kept so odd files round-trip). */
  floorPads: Uint16Array;
  /** wallCount × 3 x128 centres. */
  wallCenters: Int32Array;
  /** wallCount × 9 FP12 axis components: axes[0] xyz, axes[1] xyz, axes[2] xyz (object local X, Y, Z; unsorted). */
  wallAxes: Int32Array;
  /** wallCount × 3 x128 half extents, one per axis index. */
  wallHalfExtents: Int32Array;
  /** wallCount reserved flag words (always 0 from the exporter). */
  wallFlags: Uint32Array;
  /** Version 1 only: the pad u16 after each i16 axis (wallCount × 3), kept for round trips; empty for version 2. */
  wallAxisPads: Uint16Array;
  /** Version 2 only. */
  grid: ColbinGrid | null;
}

/** An empty file model of the given version (the writer and the level builder fill it). */
export function emptyColbin(version: ColbinVersion, floorCount: number, wallCount: number): ColbinFile {
  return {
    version,
    floorCount,
    wallCount,
    floorVertices: new Int32Array(floorCount * 9),
    floorNormals: new Int16Array(floorCount * 3),
    floorPads: new Uint16Array(floorCount),
    wallCenters: new Int32Array(wallCount * 3),
    wallAxes: new Int32Array(wallCount * 9),
    wallHalfExtents: new Int32Array(wallCount * 3),
    wallFlags: new Uint32Array(wallCount),
    wallAxisPads: new Uint16Array(version === 1 ? wallCount * 3 : 0),
    grid: null,
  };
}

/** Total size in bytes of the file `file` serialises to. */
export function colbinByteLength(file: ColbinFile): number {
  let n = COLBIN_HEADER_BYTES + COLBIN_FLOOR_BYTES * file.floorCount;
  if (file.version === 1) return n + COLBIN_WALL_BYTES_V1 * file.wallCount;
  n += COLBIN_WALL_BYTES_V2 * file.wallCount + COLBIN_GRID_HEADER_BYTES;
  const g = file.grid;
  if (g) n += 2 * g.width * g.height + 2 * g.indices.length;
  return n;
}
