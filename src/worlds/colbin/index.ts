/** COLBIN (psyqo "Madnight engine" collision): reader, writer, level builder, queries and the CollisionWorld. */
export * from './types.js';
export { parseColbin, hasColbinMagic, COLBIN_FORMAT, type ParseColbinOptions } from './parse.js';
export { writeColbin } from './write.js';
export * from './level-builder.js';
export { checkGrid, type GridCheck, type GridMiss } from './check.js';
export { FloorIndex } from './floor.js';
export { XZGrid } from './broad-phase.js';
export * from './obb.js';
export { mulFx, isqrt, normalizeFp12, crossGte } from './fixed-math.js';
export { describeColbin, type ColbinDescription } from './describe.js';
export { demoLevelDescription, terrainDescription, workedExampleDescription } from './demo-level.js';
export {
  ColbinWorld,
  detectColbin,
  loadColbinWorld,
  snapFeetToFloor,
  toFixedCoordinate,
  DEFAULT_BODY,
  DEFAULT_STEP_HEIGHT,
  COLBIN_UNITS_PER_METRE,
  COORDINATE_LIMIT,
  type ColbinWorldOptions,
  type WallResponse,
} from './collision-world.js';
