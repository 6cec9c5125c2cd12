/**
 * `retrosim/worlds/piney`: the Piney field of .hack, generated bit for bit from its seed as the game does it
 * (EE single-precision arithmetic, the game's random-number order): the height map, hills, objects, lake,
 * entrance, cover and start. Generate a field from its parameters or from a field spec file, ask the game's
 * GetHeight, draw the field (scene data, lit colours, a PNG), and open it as a CollisionWorld.
 *
 * Units are the game's: 600 per height cell, 1200 per object chip, 48,000 across the field (a torus), z up.
 * Heights inside the generator are EE float bit patterns. The generator's tables (PineyTables) come from JSON:
 * loadPineyTables, or the shipped ones through `defaultPineyTables` of the Node entry.
 *
 * @example
 * ```ts
 * import { loadPineyWorld, fieldSummary } from 'retrosim/worlds/piney';
 * const world = loadPineyWorld({ format: 'retrosim-piney-field', seed: 1420855, type: 10, weather: 0, ground: 1, object: 1, event: 14 }, 'field', tables);
 * console.log(fieldSummary(world.field).mapFnv);
 * ```
 *
 * @module
 */
export {
  CELLS,
  CELL_UNITS,
  CHIPS,
  CHIP_UNITS,
  FIELD_SIZE,
  FIELD_STAGES,
  NoSiteError,
  OBJECT_KIND_NAMES,
  PineyField,
  type FieldObject,
  type FieldParams,
  type FieldStage,
  type Hill,
  type ObjectKindName,
} from './field-state.js';
export {
  FIELD_TYPE_COUNT,
  TABLES_FORMAT_ID,
  TABLE_KINDS,
  WEATHER_COUNT,
  loadPineyTables,
  parsePineyTables,
  type Background,
  type CountedKind,
  type Division,
  type HillSize,
  type ObjectRow,
  type PineyTables,
  type TableKind,
} from './tables.js';
export { generateField, checkFieldParams, mapFnv, FieldParamError } from './generate.js';
export { getHeight, surfaceHeight, isHiddenAt, HIDDEN_HEIGHT, MISS_HEIGHT } from './get-height.js';
export { PINEY_FIELD_FORMAT, detectPineyField, parsePineyFieldSpec, type PineyFieldSpec } from './spec.js';
export { PINEY_SPEC_KEYS, readPineyFieldSpec, writePineyFieldSpec, writePineyFieldSpecKeepingLayout, pineySpecDifferences, type PineyFieldSpecValues } from './spec-write.js';
export { PineyWorld, loadPineyWorld, wrapField, OBJECT_BLOCK_HEIGHT, PINEY_SCALE } from './collision-world.js';
export { pineyScene, pineyColours, type PineyScene } from './scene.js';
export { fieldLight, type FieldLight } from './colours.js';
export { fieldPng } from './png.js';
export { FieldSegmentCaster } from './segment-cast.js';
export { fieldSummary, type FieldSummary } from './summary.js';
