/** fast-check generators of Rugrats levels for the property tests (not a test file itself). */
import fc from 'fast-check';
import type { LevelDescription, RoomDescription } from '../../../src/worlds/rugrats/index.js';

const room = fc.record({
  floor: fc.integer({ min: 0, max: 30 }),
  height: fc.integer({ min: 0, max: 20 }),
  rise: fc.option(fc.tuple(fc.integer({ min: -1024, max: 1024 }), fc.integer({ min: -1024, max: 1024 })), { nil: undefined }),
});
const toRoom = (r: { floor: number; height: number; rise: [number, number] | undefined }): RoomDescription => ({
  floor: r.floor,
  ceiling: r.floor + r.height,
  ...(r.rise ? { floorRise: r.rise } : {}),
});
export const levelArb: fc.Arbitrary<LevelDescription> = fc
  .uniqueArray(
    fc.record({
      x: fc.integer({ min: 0, max: 511 }),
      z: fc.integer({ min: 0, max: 255 }),
      rooms: fc.array(room, { minLength: 1, maxLength: 3 }),
      halved: fc.option(fc.tuple(fc.constantFrom<'x=z' | 'x+z'>('x=z', 'x+z'), fc.array(room, { minLength: 1, maxLength: 2 }), fc.boolean()), { nil: undefined }),
    }),
    { selector: (c) => c.x * 256 + c.z, maxLength: 40 },
  )
  .map((cells) => ({
    min: [0, -40000, 0] as [number, number, number],
    max: [524287, 0, 262143] as [number, number, number],
    cells: cells.map((c) =>
      c.halved
        ? { x: c.x, z: c.z, halved: { diagonal: c.halved[0], low: c.rooms.map(toRoom), high: c.halved[1].map(toRoom), first: c.halved[2] ? ('high' as const) : ('low' as const) } }
        : { x: c.x, z: c.z, rooms: c.rooms.map(toRoom) },
    ),
  }));


/**
 * A dense little level of flat full tiles (6 × 6 cells, some missing, some with two rooms), max y 0. Two rooms of a
 * stack are kept at least one height step apart: a slab of no thickness is a surface the segment stops at but
 * that no sampling of the query can see.
 */
export interface FlatCell {
  x: number;
  z: number;
  /** Rooms lowest first as [floor byte, ceiling byte]; empty = missing cell. */
  rooms: [number, number][];
}
export const FLAT_SIZE = 6;

export const flatLevelArb: fc.Arbitrary<FlatCell[]> = fc
  .array(
    fc.oneof(
      { weight: 1, arbitrary: fc.constant<[number, number][]>([]) },
      {
        weight: 6,
        arbitrary: fc
          .tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 24 }), fc.option(fc.tuple(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 16 })), { nil: undefined }))
          .map(([f, h, upper]) => {
            const rooms: [number, number][] = [[f, f + h]];
            if (upper) rooms.push([f + h + upper[0], f + h + upper[0] + upper[1]]);
            return rooms;
          }),
      },
    ),
    { minLength: FLAT_SIZE * FLAT_SIZE, maxLength: FLAT_SIZE * FLAT_SIZE },
  )
  .map((stacks) => stacks.map((rooms, i) => ({ x: Math.floor(i / FLAT_SIZE), z: i % FLAT_SIZE, rooms })));

export function flatDescription(cells: FlatCell[]): LevelDescription {
  return {
    min: [0, -12000, 0],
    max: [FLAT_SIZE * 1024 - 1, 0, FLAT_SIZE * 1024 - 1],
    cells: cells.filter((c) => c.rooms.length > 0).map((c) => ({ x: c.x, z: c.z, rooms: c.rooms.map(([floor, ceiling]) => ({ floor, ceiling })) })),
  };
}

/**
 * An independent statement of the query on flat full tiles, from the description alone: 2 outside the bounds,
 * 1 no cell or above every ceiling or not strictly between the heights, 0 in the open.
 */
export function flatModelQuery(cells: FlatCell[], x: number, y: number, z: number): number {
  if (x < 0 || z < 0 || x > FLAT_SIZE * 1024 - 1 || z > FLAT_SIZE * 1024 - 1 || y < -12000 || y > 0) return 2;
  const c = cells[Math.floor(x / 1024) * FLAT_SIZE + Math.floor(z / 1024)]!;
  for (const [f, ceil] of c.rooms) {
    if (y >= -128 * ceil) return -128 * ceil < y && y < -128 * f ? 0 : 1;
  }
  return 1;
}

/** Whether a point is within `d` units of a cell edge, a height of its cell, or the bounds. */
export function nearFlatBoundary(cells: FlatCell[], x: number, y: number, z: number, d: number): boolean {
  const edge = (v: number) => {
    const m = ((v % 1024) + 1024) % 1024;
    return m <= d || m >= 1023 - d;
  };
  if (edge(x) || edge(z)) return true;
  if (y >= -d || y <= -12000 + d) return true;
  if (x < 0 || z < 0 || x >= FLAT_SIZE * 1024 || z >= FLAT_SIZE * 1024) return true;
  const c = cells[Math.floor(x / 1024) * FLAT_SIZE + Math.floor(z / 1024)]!;
  for (const [f, ceil] of c.rooms) if (Math.abs(y + 128 * f) <= d || Math.abs(y + 128 * ceil) <= d) return true;
  return false;
}
