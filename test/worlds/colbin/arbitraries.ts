/** fast-check generators of COLBIN levels for the property tests (synthetic, like every COLBIN here). */
import fc from 'fast-check';
import type { LevelDescription, V3, WallDescription, FloorDescription } from '../../../src/worlds/colbin/level-builder.js';

const coord = (r: number) => fc.integer({ min: -r * 8, max: r * 8 }).map((v) => v / 8);
const v3 = (r: number): fc.Arbitrary<V3> => fc.tuple(coord(r), coord(r), coord(r));

/** Exactly representable unit-ish directions (Pythagorean triples) and arbitrary ones. */
const direction: fc.Arbitrary<V3> = fc.oneof(
  fc.constantFrom<V3>([1, 0, 0], [0, 1, 0], [0, 0, 1], [3, 0, 4], [-4, 0, 3], [0, 5, 12], [2, 3, 6]),
  fc.tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: -9, max: 9 }), fc.integer({ min: -9, max: 9 })).filter(([x, y, z]) => x !== 0 || y !== 0 || z !== 0) as fc.Arbitrary<V3>,
);

export const wallArb: fc.Arbitrary<WallDescription> = fc.record({
  center: v3(8),
  axes: fc.oneof(
    fc.constant<[V3, V3, V3]>([[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
    // the exporter's unrotated object: local X → X, local Y → +Z, local Z → −Y
    fc.constant<[V3, V3, V3]>([[1, 0, 0], [0, 0, 1], [0, -1, 0]]),
    fc.constant<[V3, V3, V3]>([[3, 0, 4], [0, 1, 0], [-4, 0, 3]]),
    fc.tuple(direction, direction, direction),
  ),
  halfExtents: fc.tuple(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 24 })).map(([a, b, c]) => [a / 8, b / 8, c / 8] as V3),
  flags: fc.constant(0),
});

export const floorArb: fc.Arbitrary<FloorDescription> = fc.record({ vertices: fc.tuple(v3(8), v3(8), v3(8)) });

export const levelArb = (version: 1 | 2 = 2, maxWalls = 12, maxFloors = 12): fc.Arbitrary<LevelDescription> =>
  fc.record({
    version: fc.constant(version),
    cellSize: fc.constantFrom(1, 2, 3.5),
    grid: fc.constantFrom<'footprint' | 'exporter'>('footprint', 'exporter'),
    floors: fc.array(floorArb, { maxLength: maxFloors }),
    walls: fc.array(wallArb, { maxLength: maxWalls }),
  });
