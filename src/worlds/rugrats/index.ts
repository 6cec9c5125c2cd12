/** The Rugrats world: LEVELnn.COL parser and writer, the point query and the segment test. */
export * from './layout.js';
export { parseCol, parseColWithOffsets, stackEnd } from './parse.js';
export { writeCol } from './write.js';
export { buildLevel, floorNormalForRise, ceilingNormalForRise } from './level-builder.js';
export type { LevelDescription, CellDescription, RoomDescription } from './level-builder.js';
export { buildColIndex, loadColIndex, tileIndexOfOffset, FLAT_FLOOR_NORMAL, FLAT_CEILING_NORMAL } from './col-index.js';
export type { ColIndex } from './col-index.js';
export * from './query.js';
export * from './segment.js';
export * from './segment-stop.js';
export * from './plane.js';
export * from './trace.js';
export * from './collision-world.js';
