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

