/**
 * Deterministic sinh, cosh, tanh, asinh, acosh and atanh: the same bits in every engine. Each is written on
 * the double-double cores of det-exp-log.ts (e^x − 1 and ln(1 + w) accurate where they are tiny), in forms
 * that do not cancel, and rounded once at the end.
 */
import { dd, ddAdd, ddDiv, ddMul, ddSqrt, twoProd, twoSum } from './double-double.js';
import { ex, expCore, expm1DD, lg, log1pDD, logCore, LN2_HI, LN2_LO } from './det-exp-log.js';
import { pow2, roundScaled } from './double-bits.js';

const TWO_POW_MINUS_28 = 3.725290298461914e-9;
const TWO_POW_28 = 268435456;

/**
 * Deterministic `Math.sinh` (the same bits in every engine; within 0.5001 ulp measured): (E + E/(E + 1))/2
 * with E = e^|x| − 1 (no cancellation), e^|x|/2 beyond 40; keeps −0.
 */
export function detSinh(x: number): number {
  if (x !== x) return NaN;
  const a = x < 0 ? -x : x;
  if (a < TWO_POW_MINUS_28) return x; // sinh x = x(1 + x²/6): the rest is below the last bit
  let r: number;
  if (a > 40) {
    if (a > 711) return x; // overflows (±Infinity)
    // e^−a is below 2^−115 of e^a
    expCore(a, 0);
    r = roundScaled(ex.h, ex.l, ex.m - 1);
  } else {
    expm1DD(a);
    const eh = dd.hi;
    const el = dd.lo;
    twoSum(eh, 1);
    ddDiv(eh, el, dd.hi, dd.lo + el);
    ddAdd(eh, el, dd.hi, dd.lo);
    r = 0.5 * dd.hi + 0.5 * dd.lo;
  }
  return x < 0 ? -r : r;
}

/**
 * Deterministic `Math.cosh` (the same bits in every engine; within 0.5 ulp and a hair): (e^|x| + e^−|x|)/2,
 * e^|x|/2 beyond 40.
 */
export function detCosh(x: number): number {
  if (x !== x) return NaN;
  const a = x < 0 ? -x : x;
  if (a < 7.450580596923828e-9) return 1; // below 2^−27: cosh x = 1 + x²/2 rounds to 1
  if (a > 40) {
    if (a > 711) return Infinity;
    expCore(a, 0);
    return roundScaled(ex.h, ex.l, ex.m - 1);
  }
  // e^a = 2^m·(h + l), m ≤ 58: the scaling is exact
  expCore(a, 0);
  const s = pow2(ex.m);
  const eh = ex.h * s;
  const el = ex.l * s;
  ddDiv(1, 0, eh, el);
  ddAdd(eh, el, dd.hi, dd.lo);
  return 0.5 * dd.hi + 0.5 * dd.lo;
}

/**
 * Deterministic `Math.tanh` (the same bits in every engine; within 0.5 ulp and a hair): E/(E + 2) with E =
 * e^(2|x|) − 1; ±1 beyond 22 (the difference is below the last bit); keeps −0.
 */
export function detTanh(x: number): number {
  if (x !== x) return NaN;
  const a = x < 0 ? -x : x;
  if (a < TWO_POW_MINUS_28) return x; // tanh x = x(1 − x²/3)
  let r: number;
  if (a > 22) r = 1;
  else {
    expm1DD(2 * a);
    const eh = dd.hi;
    const el = dd.lo;
    twoSum(eh, 2);
    ddDiv(eh, el, dd.hi, dd.lo + el);
    r = dd.hi + dd.lo;
  }
  return x < 0 ? -r : r;
}

/**
 * Deterministic `Math.asinh` (the same bits in every engine; within 0.5 ulp and a hair): ln(1 + w), w = |x| +
 * x²/(1 + √(1 + x²)) (the form that does not cancel near 0), ln(2|x|) beyond 2^28; keeps −0.
 */
export function detAsinh(x: number): number {
  if (x !== x) return NaN;
  const a = x < 0 ? -x : x;
  if (a < TWO_POW_MINUS_28 || a === Infinity) return x; // asinh x = x(1 − x²/6)
  let r: number;
  if (a > TWO_POW_28) {
    // asinh a = ln(2a) + 1/(4a²) − ...: the rest is below the last bit
    logCore(a);
    twoSum(lg.h, LN2_HI);
    r = dd.hi + (dd.lo + lg.l + LN2_LO);
  } else {
    twoProd(a, a);
    const qh = dd.hi;
    const ql = dd.lo;
    twoSum(1, qh);
    ddSqrt(dd.hi, dd.lo + ql); // √(1 + a²)
    const rl = dd.lo;
    twoSum(1, dd.hi);
    ddDiv(qh, ql, dd.hi, dd.lo + rl); // a²/(1 + √(1 + a²))
    ddAdd(a, 0, dd.hi, dd.lo);
    log1pDD(dd.hi, dd.lo);
    r = dd.hi + dd.lo;
  }
  return x < 0 ? -r : r;
}

/**
 * Deterministic `Math.acosh` (the same bits in every engine; within 0.5 ulp and a hair): ln(1 + w), w = t +
 * √(t(t + 2)), t = x − 1 (exact near 1); ln(2x) beyond 2^28; NaN below 1.
 */
export function detAcosh(x: number): number {
  if (!(x >= 1)) return NaN;
  if (x === Infinity) return x;
  if (x > TWO_POW_28) {
    logCore(x);
    twoSum(lg.h, LN2_HI);
    return dd.hi + (dd.lo + lg.l + LN2_LO);
  }
  twoSum(x, -1); // t, exact as a double-double
  const th = dd.hi;
  const tl = dd.lo;
  twoSum(th, 2);
  const uh = dd.hi;
  const ul = dd.lo + tl;
  ddMul(th, tl, uh, ul);
  if (dd.hi === 0) return 0;
  ddSqrt(dd.hi, dd.lo);
  ddAdd(th, tl, dd.hi, dd.lo);
  log1pDD(dd.hi, dd.lo);
  return dd.hi + dd.lo;
}

/**
 * Deterministic `Math.atanh` (the same bits in every engine; within 0.5 ulp and a hair): ln(1 + 2|x|/(1 −
 * |x|))/2; ±Infinity at ±1, NaN beyond; keeps −0.
 */
export function detAtanh(x: number): number {
  if (x !== x) return NaN;
  const a = x < 0 ? -x : x;
  if (a > 1) return NaN;
  if (a === 1) return x < 0 ? -Infinity : Infinity;
  if (a < TWO_POW_MINUS_28) return x; // atanh x = x(1 + x²/3)
  twoSum(1, -a); // 1 − a, exact as a double-double
  ddDiv(2 * a, 0, dd.hi, dd.lo);
  log1pDD(dd.hi, dd.lo);
  const r = 0.5 * dd.hi + 0.5 * dd.lo;
  return x < 0 ? -r : r;
}
