/**
 * Deterministic asin and acos: the same bits in every engine. asin x = x + x³/6 + 3x⁵/40 + ... (the series'
 * coefficients computed when the module loads, by + − × ÷) for |x| ≤ 1/2; beyond, asin x = π/2 − 2·asin s and
 * acos x = 2·asin s (or π − 2·asin s for x < 0) with s = √((1 − |x|)/2), s as a double-double, so nothing
 * cancels. Each rounds once at the end.
 */
import { dd, normalise, twoProd, twoSum } from './double-double.js';

/**
 * ASIN_C[n − 1] = (2n)!/(4^n·(n!)²·(2n + 1)), the coefficient of x^(2n+1); 28 of them (|x| ≤ 1/2: the next is
 * below 2^−62).
 */
const ASIN_TERMS = 28;
export const ASIN_C = new Float64Array(ASIN_TERMS);
{
  let b = 1;
  for (let n = 1; n <= ASIN_TERMS; n++) {
    b = (b * (2 * n - 1)) / (2 * n);
    ASIN_C[n - 1] = b / (2 * n + 1);
  }
}

/**
 * x·z·Σ ASIN_C[n − 1]·z^(n−1) (so that asin x = x + this, z = x²) as a double-double into `dd`: its first
 * term x·z/6 to about 2^−100, the rest (under 5% of the whole) in doubles.
 */
function asinTail(x: number, z: number): void {
  let p = ASIN_C[ASIN_TERMS - 1]!;
  for (let i = ASIN_TERMS - 2; i >= 1; i--) p = ASIN_C[i]! + z * p;
  twoProd(x, z);
  const w = dd.hi;
  const we = dd.lo;
  const q = w / 6;
  twoProd(q, 6);
  const ql = (w - dd.hi - dd.lo + we) / 6;
  normalise(q, ql + w * z * p);
}

const PIO2_HI = 1.5707963267948966;
const PIO2_LO = 6.123233995736766e-17;
const PI_HI = 3.141592653589793;
const PI_LO = 1.2246467991473532e-16;
const TWO_POW_MINUS_27 = 7.450580596923828e-9;

/** √z as a double-double into `dd` (z ≥ 0). */
function sqrtDD(z: number): void {
  const s = Math.sqrt(z);
  if (s === 0) {
    dd.hi = 0;
    dd.lo = 0;
    return;
  }
  twoProd(s, s);
  const l = (z - dd.hi - dd.lo) / (2 * s);
  dd.hi = s;
  dd.lo = l;
}

/**
 * Deterministic `Math.asin` (the same bits in every engine; within 0.53 ulp measured): asin x in [−π/2, π/2];
 * NaN beyond [−1, 1]; keeps −0.
 */
export function detAsin(x: number): number {
  if (!(x >= -1 && x <= 1)) return NaN;
  const a = x < 0 ? -x : x;
  if (a < TWO_POW_MINUS_27) return x; // asin x = x(1 + x²/6): the rest is below the last bit
  if (a <= 0.5) {
    asinTail(x, x * x);
    const tl = dd.lo;
    twoSum(x, dd.hi);
    return dd.hi + (dd.lo + tl);
  }
  // asin a = π/2 − 2·asin s, s = √z, z = (1 − a)/2 exactly
  const z = (1 - a) * 0.5;
  asinOfRoot(z);
  twoSum(PIO2_HI, -2 * dd.hi);
  const r = dd.hi + (dd.lo + (PIO2_LO - 2 * asinLo));
  return x < 0 ? -r : r;
}

/** The low part of `asinOfRoot`'s result. */
let asinLo = 0;

/** asin √z as a double-double: dd.hi and `asinLo` (z ≤ 1/4). */
function asinOfRoot(z: number): void {
  sqrtDD(z);
  const sh = dd.hi;
  const sl = dd.lo;
  asinTail(sh, z);
  const tl = dd.lo;
  twoSum(sh, dd.hi);
  normalise(dd.hi, dd.lo + sl + tl);
  asinLo = dd.lo;
}

/**
 * Deterministic `Math.acos` (the same bits in every engine; within 0.52 ulp measured): acos x in [0, π]; NaN
 * beyond [−1, 1]; acos 1 = +0.
 */
export function detAcos(x: number): number {
  if (!(x >= -1 && x <= 1)) return NaN;
  const a = x < 0 ? -x : x;
  if (a <= 0.5) {
    // π/2 − asin x
    if (a < TWO_POW_MINUS_27) {
      twoSum(PIO2_HI, -x);
      return dd.hi + (dd.lo + PIO2_LO);
    }
    asinTail(x, x * x);
    const th = dd.hi;
    const tl = dd.lo;
    twoSum(x, th);
    const sh = dd.hi;
    const sl = dd.lo + tl;
    twoSum(PIO2_HI, -sh);
    return dd.hi + (dd.lo + (PIO2_LO - sl));
  }
  const z = (1 - a) * 0.5;
  asinOfRoot(z);
  if (x > 0) return 2 * dd.hi + 2 * asinLo; // 2·asin s
  twoSum(PI_HI, -2 * dd.hi); // π − 2·asin s
  return dd.hi + (dd.lo + (PI_LO - 2 * asinLo));
}
