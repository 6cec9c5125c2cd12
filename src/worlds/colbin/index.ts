/**
 * `retrosim/worlds/colbin`: COLBIN, the collision file of the psyqo "Madnight engine": floor triangles and
 * wall boxes (OBBs) with, from version 2, a uniform grid over the walls. Parse and write the file byte for
 * byte, build one from a readable description, check its grid, describe it in metres, and open it as a
 * CollisionWorld that pushes bodies out of walls with the engine's fixed-point separating-axis test.
 *
 * Native units are the engine's x128 fixed point (128 per metre), integers, with −Y up by default.
 *
 * @example
 * ```ts
 * import { buildColbin, demoLevelDescription, loadColbinWorld, writeColbin } from 'retrosim/worlds/colbin';
 * const bytes = writeColbin(buildColbin(demoLevelDescription()));
 * const world = loadColbinWorld(bytes, 'demo');
 * const moved = world.move({ radius: 32, height: 128 }, world.spawnPoint(), [64, 0, 0]);
 * ```
 *
 * @module
 */
export type { ColbinFile, ColbinGrid, ColbinVersion } from './types.js';
export { parseColbin, COLBIN_FORMAT, type ParseColbinOptions } from './parse.js';
export { writeColbin } from './write.js';
export { buildColbin, buildGrid, type FloorDescription, type GridMode, type LevelDescription, type V3, type WallDescription } from './level-builder.js';
export { checkGrid, type GridCheck, type GridMiss } from './check.js';
export { describeColbin, type ColbinDescription } from './describe.js';
export { demoLevelDescription, terrainDescription, workedExampleDescription } from './demo-level.js';
export {
  ColbinWorld,
  detectColbin,
  loadColbinWorld,
  DEFAULT_BODY,
  DEFAULT_STEP_HEIGHT,
  COLBIN_UNITS_PER_METRE,
  COORDINATE_LIMIT,
  type ColbinWorldOptions,
  type WallResponse,
} from './collision-world.js';
