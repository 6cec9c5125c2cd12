export { FieldRand, type FieldRandState } from './fieldrand.js';
export { CcRand, CCRAND_SEED, ccRandTurnS16, type CcRandState } from './ccrand.js';
export { RandomStreams, type RandomStream, type RandomStreamsState } from './streams.js';
