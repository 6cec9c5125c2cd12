/** Numerics shared by the worlds: EE single precision, newlib float routines, deterministic doubles, R3000 integers, fixed point. */
export * from './ee-float.js';
export * from './r3000.js';
export * from './fixed.js';
