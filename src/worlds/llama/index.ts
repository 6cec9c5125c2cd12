/**
 * `retrosim/worlds/llama`: the Llama levels (the Croc 2 engine's tile grid on PC): a `.trak` file with the tile
 * models and their 5-plane collision polygons, and a `.map` file placing the tiles on a grid, with tile swaps
 * (doors, bridges) and visibility regions. Parse and write both files, build a level from a readable
 * description, check a level for the mistakes that crash the game, and open it as a CollisionWorld.
 *
 * Units are tiles (one grid cell is 1 × 1), y up, z the grid row.
 *
 * @example
 * ```ts
 * import { buildLevel, demoLevel, loadLlamaWorld } from 'retrosim/worlds/llama';
 * const built = buildLevel(demoLevel());
 * const world = loadLlamaWorld(built.trakBytes, built.mapBytes, 'demo');
 * const g = world.ground([0.5, 1, 0.5]);
 * ```
 *
 * @module
 */
export { DEFAULT_CONVENTIONS, LLAMA_SCALE, WFPC_CAMERA_POINTS, WFPC_IGNORE_MATERIALS_17_18, WFPC_MAX_PARTICLES, WFPC_TILE_SWAPS, positionCellOf, resolveConventions, type LlamaConventions } from './conventions.js';
export { MATERIAL_DEATH, MATERIAL_EXIT, MATERIAL_NORMAL, MATERIAL_SPECIAL_A, MATERIAL_SPECIAL_B } from './materials.js';
export { detectTrak, parseTrak, type Trak, type TrakModel } from './trak-parse.js';
export { writeTrakFile } from './trak-write.js';
export { detectMap, parseMap, vertexColourRgb, type LlamaMap } from './map-parse.js';
export { writeMapFile } from './map-write.js';
export { writeLlamaFile, writeLlamaFileKeepingLayout, llamaFileDifferences, type LlamaFileContents } from './file-write.js';
export { asLevelDescription, buildLevel, type BuiltLevel, type LevelDescription, type ModelDescription, type PolygonDescription, type TileDescription, type V3 } from './level-builder.js';
export { LlamaWorld, loadLlamaWorld } from './collision-world.js';
export { checkLevel, checkLevelBytes, type CheckProblem, type CheckReport, type CheckRule } from './check.js';
export { demoLevel, minimalLevel, brokenLevel } from './demo-levels.js';
