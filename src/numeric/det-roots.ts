/**
 * Deterministic cube root and hypot: the same bits in every engine. Each is found to about 100 bits with
 * exact residuals (Dekker's products) and rounded once, so it is within half an ulp and a hair.
 */
import { dd, normalise, ddSqrt, twoProd, twoSum } from './double-double.js';
import { exponentField, pow2, roundScaled, scaleByPow2 } from './double-bits.js';

const TWO_POW_54 = 18014398509481984;
const SMALLEST_NORMAL = 2.2250738585072014e-308;

/**
 * Deterministic `Math.cbrt` (the same bits in every engine; within 0.5 ulp and a hair): ∛x, odd (∛−8 = −2),
 * exact for cubes; keeps ±0, ±Infinity and NaN.
 */
export function detCbrt(x: number): number {
  if (x === 0 || x !== x || x === Infinity || x === -Infinity) return x;
  let a = x < 0 ? -x : x;
  let scale = 0;
  if (a < SMALLEST_NORMAL) {
    a *= TWO_POW_54; // subnormal: lift (2^54 is a cube: 2^18)
    scale = -18;
  }
  // a = m·2^(3q), m in [1, 8)
  const q = Math.floor((exponentField(a) - 1023) / 3);
  const m = a * pow2(-3 * q);
  // within 1.4% on [1, 8), then Newton (each step squares the error: 2e−4, 4e−8, 2e−15, 4e−30)
  let y = 0.7091207 + m * (0.34002913 + m * (-0.03749812 + m * 0.00191683));
  for (let i = 0; i < 4; i++) y -= (y * y * y - m) / (3 * y * y);
  // the exact residual m − y³ decides the last bit: y² = p + pe, y³ = c + ce + pe·y
  twoProd(y, y);
  const p = dd.hi;
  const pe = dd.lo;
  twoProd(p, y);
  const r = m - dd.hi - dd.lo - pe * y;
  y += r / (3 * y * y);
  const root = y * pow2(q + scale);
  return x < 0 ? -root : root;
}

/**
 * Deterministic `Math.hypot` (the same bits in every engine; within 0.5 ulp and a hair): √(Σ values²) without
 * overflow or underflow on the way, as Math.hypot: +Infinity if any value is
 * infinite (even beside NaN), else NaN if any is NaN; +0 for no values or only zeros. The squares are summed
 * as a double-double at a power-of-two scale that brings the largest near 1, and the root is rounded once.
 */
export function detHypot(...values: number[]): number {
  let big = 0;
  let nan = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const a = v < 0 ? -v : v;
    if (a === Infinity) return Infinity;
    if (a !== a) nan = true;
    else if (a > big) big = a;
  }
  if (nan) return NaN;
  if (big === 0) return 0;
  const e = big < SMALLEST_NORMAL ? exponentField(big * TWO_POW_54) - 1023 - 54 : exponentField(big) - 1023;
  let sh = 0;
  let sl = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    // exact for every value within 2^1000 of the largest; those further below cannot change the sum
    const s = scaleByPow2(v < 0 ? -v : v, -e);
    twoProd(s, s);
    const pe = dd.lo;
    twoSum(sh, dd.hi);
    sh = dd.hi;
    sl += dd.lo + pe;
  }
  normalise(sh, sl);
  ddSqrt(dd.hi, dd.lo);
  return roundScaled(dd.hi, dd.lo, e);
}
