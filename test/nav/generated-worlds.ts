/**
 * The generated worlds the navigation property tests share: a flat 40 × 40 floor with up to 7 boxes on it,
 * in integer or float units, and the graph of a body of radius 1 on cells of 4.
 */
import fc from 'fast-check';
import { buildNavGraph, type NavGraph } from '../../src/nav/graph.js';
import type { NavBody } from '../../src/nav/walk.js';
import { FlatWorld, type Box } from '../sim/flat-world.js';

/** A box on the floor, 1 to 14 units a side. */
export const boxArb = fc
  .record({ x: fc.integer({ min: 0, max: 36 }), z: fc.integer({ min: 0, max: 36 }), w: fc.integer({ min: 1, max: 14 }), d: fc.integer({ min: 1, max: 14 }) })
  .map((b): Box => ({ minX: b.x, minZ: b.z, maxX: b.x + b.w, maxZ: b.z + b.d }));

/** Up to 7 boxes. */
export const boxesArb = fc.array(boxArb, { maxLength: 7 });

/** The world of `boxes`, its body (1 unit a frame in integer worlds, 0.75 in float ones) and their graph. */
export function generatedGraph(boxes: Box[], integer: boolean): { world: FlatWorld; body: NavBody; g: NavGraph } {
  const world = new FlatWorld({ size: 40, boxes, integer });
  const body: NavBody = { radius: 1, height: 2, step: 0, speed: integer ? 1 : 0.75 };
  return { world, body, g: buildNavGraph(world, body, { cell: 4 }) };
}
