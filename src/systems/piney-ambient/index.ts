/** The Piney field's weather and ambient tasks. */
export * from './weather.js';
export * from './ops.js';
export * from './env.js';
export * from './statics.js';
export * from './ambient.js';
export * from './tasks.js';
export * from './install.js';
export * from './site.js';
export * from './walk.js';
export { ccRandTurn } from './ccrand-turn.js';
