/** The Piney (.hack) field: generator, GetHeight, tables, drawing data and the CollisionWorld adapter. */
export * from './field-state.js';
export * from './tables.js';
export { generateField, mapFnv, checkFieldParams, initDrawCount, FieldParamError } from './generate.js';
export { fractal2, NaturalSpline } from './fractal2.js';
export { getHeight, surfaceHeight, isHiddenAt, heightIndex, HIDDEN_HEIGHT, MISS_HEIGHT } from './get-height.js';
export { objectCount, tooSteep } from './objects.js';
export * from './colours.js';
export { fieldPng } from './png.js';
export * from './collision-world.js';
export { FieldSegmentCaster } from './segment-cast.js';
export { fieldSummary, type FieldSummary } from './summary.js';
