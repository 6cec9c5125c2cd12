/**
 * Numerics shared by the worlds: EE single precision (ee-float), the game's newlib float routines under the
 * EE rules (libm-ee), deterministic double maths (det-math and the other det-*.ts), R3000 integers (r3000) and fixed point (fixed).
 */
export * from './ee-float.js';
export * from './libm-ee.js';
export * from './det-math.js';
export { detExp, detExpm1, detLog, detLog1p, detLog2, detLog10, detPow } from './det-exp-log.js';
export { detAcosh, detAsinh, detAtanh, detCosh, detSinh, detTanh } from './det-hyperbolic.js';
export { detAcos, detAsin } from './det-arcsine.js';
export { detCbrt, detHypot } from './det-roots.js';
export * from './r3000.js';
export * from './fixed.js';
