/**
 * `retrosim/worlds/rugrats`: Rugrats' LEVELnn.COL collision database. Parse and write the file byte for byte,
 * build one from a readable description, index it, ask the game's point query and its segment test
 * ("vectorwalk") with integer-exact answers, check the port against traces of the original, and open it as a
 * CollisionWorld.
 *
 * Units are the game's: 1024 per tile, heights in steps of 128, y pointing down.
 *
 * @example
 * ```ts
 * import { loadColIndex, queryCol, QUERY_OPEN, Q_FLOOR } from 'retrosim/worlds/rugrats';
 * const ix = loadColIndex(bytes);
 * const out = new Int32Array(4);
 * if (queryCol(ix, 1500, -600, 1500, out) === QUERY_OPEN) console.log('floor at y', out[Q_FLOOR]);
 * ```
 *
 * @module
 */
export { COL_FORMAT, COLUMN_COUNT, HEIGHT_STEP, TILE_UNITS, halfOf, isHalved, isLast, type ColCell, type ColColumn, type ColData, type ColTile, type Vec3i } from './layout.js';
export { parseCol, parseColWithOffsets, type ColOffsets, type ParsedCol } from './parse.js';
export { writeCol } from './write.js';
export { buildLevel, ceilingNormalForRise, floorNormalForRise, type CellDescription, type LevelDescription, type RoomDescription } from './level-builder.js';
export { buildColIndex, loadColIndex, tileIndexOfOffset, type ColIndex } from './col-index.js';
export { queryCol, QUERY_CLOSED, QUERY_OPEN, QUERY_OUTSIDE, Q_CEILING, Q_FLOOR, Q_RESULT, Q_TILE } from './query.js';
export {
  segmentCol,
  SEGMENT_OUT_LENGTH,
  SEG_GETS_THROUGH,
  SEG_START_NOT_OPEN,
  SEG_STOPPED,
  S_DEPTH,
  S_NORMAL,
  S_POINT,
  S_RESULT,
  S_TILE,
  S_WRITTEN,
  WROTE_ALL,
  WROTE_DEPTH,
  WROTE_NORMAL,
  WROTE_POINT,
  WROTE_TILE,
} from './segment.js';
export { parseTrace, verifyTrace, TRACE_FORMAT, type QueryExpect, type SegmentExpect, type TraceDifference, type TraceEntry, type TraceHeader, type TraceReport } from './trace.js';
export { RugratsWorld, detectRugrats, loadRugratsWorld, DEFAULT_STEP_HEIGHT, RUGRATS_SCALE } from './collision-world.js';
export { SegmentStopWalker, tileOpenSpan } from './segment-stop.js';
