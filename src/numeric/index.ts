/**
 * Numerics shared by the worlds: EE single precision (ee-float), the game's newlib float routines under the
 * EE rules (libm-ee), deterministic double maths (det-math), R3000 integers (r3000) and fixed point (fixed).
 */
export * from './ee-float.js';
export * from './libm-ee.js';
export * from './det-math.js';
export * from './r3000.js';
export * from './fixed.js';
