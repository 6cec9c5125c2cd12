/**
 * Builds a COL database from a readable level description (plain JSON-able data). The description names cells
 * by column and z cell, and gives each cell a stack of rooms from the lowest up (the order the stack walk
 * needs: the first tile whose ceiling a point is at or below is the room it is in), or, for a halved cell, a
 * stack per half. Heights are height bytes (y = max y − byte × 128); a slope is given as how much the surface
 * rises across the tile along x and z, and becomes a 4.12 normal through VectorNormal.
 */
import { vectorNormal, VECTOR_NORMAL_TRAPPED } from '../../numeric/gte.js';
import { FormatError } from '../../binary/format-error.js';
import {
  COL_FORMAT,
  COLUMN_COUNT,
  FLAG_DIAGONAL_SUM,
  FLAG_HALF_SHIFT,
  FLAG_HALVED,
  FLAG_LAST,
  TILE_UNITS,
  type ColColumn,
  type ColData,
  type ColTile,
  type Vec3i,
} from './layout.js';
import { FLAT_CEILING_NORMAL, FLAT_FLOOR_NORMAL } from './col-index.js';

/** One room of a stack: the open space between a floor and the ceiling above it. */
export interface RoomDescription {
  /** Floor height byte (0 = max y; larger is higher up). */
  floor: number;
  /** Ceiling height byte; must be ≥ floor (ceiling = floor makes a closed tile). */
  ceiling: number;
  /** Rise of the floor across the tile, in world units, along +x and +z from the plane's corner. */
  floorRise?: [number, number];
  /** Rise of the ceiling across the tile, as floorRise. */
  ceilingRise?: [number, number];
  /** Tile bytes 4, 5 and 7 (unknown meaning), default 0. */
  unknown?: [number, number, number];
}

/** One cell of the grid and its rooms: either one stack (`rooms`) or, for a cell split on a diagonal, `halved`. */
export interface CellDescription {
  /** Column, 0..511 (x cell). */
  x: number;
  /** Z cell, 0..255. */
  z: number;
  /** The stack of a whole cell, lowest room first. */
  rooms?: RoomDescription[];
  /** A halved cell: which diagonal, and the stack of each half (lowest room first). */
  halved?: {
    /** 'x=z' splits into half 0 (z < x) and half 2; 'x+z' into half 1 (x + z < 1024) and half 3. */
    diagonal: 'x=z' | 'x+z';
    /** Stack of half 0 or 1 (the low half). */
    low: RoomDescription[];
    /** Stack of half 2 or 3. */
    high: RoomDescription[];
    /** Which half's stack the cell points at (the other follows); default 'low'. */
    first?: 'low' | 'high';
  };
}

/** A whole level for buildLevel: bounds and cells (plain, JSON-able data). */
export interface LevelDescription {
  /** Bounds; min x and min z must be multiples of 1024 so cells line up with the tile grid. */
  min: Vec3i;
  /** Bounds, the upper corner (inclusive); max y is where height byte 0 stands. */
  max: Vec3i;
  /** Header word 0x24, default 0. */
  unknown24?: number;
  /** The cells that have rooms; every other cell is missing (closed). */
  cells: CellDescription[];
}

const BUILDER = `${COL_FORMAT} level builder`;

function fail(detail: string): never {
  throw new FormatError(BUILDER, -1, detail);
}

/** The 4.12 floor normal of a floor rising (riseX, riseZ) across a tile: faces up, −y. */
export function floorNormalForRise(riseX: number, riseZ: number): Vec3i {
  return normalOf(-riseX, -TILE_UNITS, -riseZ);
}
/** The 4.12 ceiling normal of a ceiling rising (riseX, riseZ) across a tile: faces down, +y. */
export function ceilingNormalForRise(riseX: number, riseZ: number): Vec3i {
  return normalOf(riseX, TILE_UNITS, riseZ);
}
function normalOf(x: number, y: number, z: number): Vec3i {
  const o = [0, 0, 0];
  if (vectorNormal(x, y, z, o) === VECTOR_NORMAL_TRAPPED) fail(`slope (${x}, ${y}, ${z}) is too steep`);
  return [o[0]!, o[1]!, o[2]!];
}

/**
 * Builds the database of a level description, ready for writeCol or buildColIndex. Throws a FormatError
 * (offset −1) naming the cell or room that cannot be written (bytes out of range, a cell given twice, a
 * ceiling below its floor, a slope too steep, more than 255 distinct normals).
 *
 * @example
 * ```ts
 * const data = buildLevel({
 *   min: [0, -4096, 0], max: [4095, 0, 4095],
 *   cells: [{ x: 1, z: 1, rooms: [{ floor: 0, ceiling: 16 }] }],
 * });
 * const bytes = writeCol(data);
 * ```
 */
export function buildLevel(desc: LevelDescription): ColData {
  const { min, max } = desc;
  if ((min[0] & 1023) !== 0 || (min[2] & 1023) !== 0) fail('min x and min z must be multiples of 1024');
  for (let a = 0; a < 3; a++) if (!(min[a]! <= max[a]!)) fail(`min ${'xyz'[a]} must not exceed max`);
  const floorNormals: Vec3i[] = [[...FLAT_FLOOR_NORMAL]];
  const ceilingNormals: Vec3i[] = [[...FLAT_CEILING_NORMAL]];
  const normalIndex = (table: Vec3i[], n: Vec3i): number => {
    let i = table.findIndex((m) => m[0] === n[0] && m[1] === n[1] && m[2] === n[2]);
    if (i < 1) {
      i = table.length;
      table.push(n);
    }
    if (i > 255) fail('more than 255 distinct normals');
    return i;
  };
  const byColumn: CellDescription[][] = Array.from({ length: COLUMN_COUNT }, () => []);
  const seen = new Set<number>();
  for (const c of desc.cells) {
    if (!Number.isInteger(c.x) || c.x < 0 || c.x >= COLUMN_COUNT) fail(`cell column ${c.x} outside 0..511`);
    if (!Number.isInteger(c.z) || c.z < 0 || c.z > 255) fail(`cell z ${c.z} outside 0..255`);
    if (seen.has(c.x * 256 + c.z)) fail(`cell (${c.x}, ${c.z}) given twice`);
    seen.add(c.x * 256 + c.z);
    if ((c.rooms === undefined) === (c.halved === undefined)) fail(`cell (${c.x}, ${c.z}) needs exactly one of rooms or halved`);
    byColumn[c.x]!.push(c);
  }
  const tileOf = (r: RoomDescription, flags: number, where: string): ColTile => {
    for (const b of [r.floor, r.ceiling]) if (!Number.isInteger(b) || b < 0 || b > 255) fail(`${where}: height byte ${b} outside 0..255`);
    if (r.ceiling < r.floor) fail(`${where}: ceiling byte ${r.ceiling} below floor byte ${r.floor}`);
    const u = r.unknown ?? [0, 0, 0];
    return {
      floor: r.floor,
      floorNormal: r.floorRise && (r.floorRise[0] !== 0 || r.floorRise[1] !== 0) ? normalIndex(floorNormals, floorNormalForRise(r.floorRise[0], r.floorRise[1])) : 0,
      ceiling: r.ceiling,
      ceilingNormal:
        r.ceilingRise && (r.ceilingRise[0] !== 0 || r.ceilingRise[1] !== 0) ? normalIndex(ceilingNormals, ceilingNormalForRise(r.ceilingRise[0], r.ceilingRise[1])) : 0,
      unknown4: u[0],
      unknown5: u[1],
      flags,
      unknown7: u[2],
    };
  };
  const pushStack = (tiles: ColTile[], rooms: RoomDescription[], baseFlags: number, where: string): void => {
    if (rooms.length === 0) fail(`${where}: a stack needs at least one room`);
    rooms.forEach((r, i) => tiles.push(tileOf(r, baseFlags | (i === rooms.length - 1 ? FLAG_LAST : 0), `${where} room ${i}`)));
  };
  const columns: ColColumn[] = byColumn.map((cells, x) => {
    cells.sort((a, b) => a.z - b.z);
    const col: ColColumn = { pointer: 0, cells: [], tiles: [] };
    for (const c of cells) {
      const where = `cell (${x}, ${c.z})`;
      if (col.tiles.length > 255) fail(`column ${x}: more than 256 tiles`);
      col.cells.push({ z: c.z, tile: col.tiles.length });
      if (c.rooms) pushStack(col.tiles, c.rooms, 0, where);
      else {
        const h = c.halved!;
        const lowHalf = h.diagonal === 'x+z' ? 1 : 0;
        const sum = h.diagonal === 'x+z' ? FLAG_DIAGONAL_SUM : 0;
        const flagsFor = (half: number) => FLAG_HALVED | sum | (half << FLAG_HALF_SHIFT);
        const order = (h.first ?? 'low') === 'low' ? (['low', 'high'] as const) : (['high', 'low'] as const);
        for (const which of order) {
          pushStack(col.tiles, h[which], flagsFor(which === 'low' ? lowHalf : lowHalf + 2), `${where} ${which} half`);
        }
      }
    }
    if (col.tiles.length > 0x7fff) fail(`column ${x}: too many tiles`);
    return col;
  });
  return {
    min: [...min],
    max: [...max],
    pads: [0, 0],
    unknown24: desc.unknown24 ?? 0,
    columns,
    gap: [],
    floorNormals,
    ceilingNormals,
    trailing: [],
  };
}
