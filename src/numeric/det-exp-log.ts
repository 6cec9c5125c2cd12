/**
 * Deterministic exp, expm1, log, log1p, log2, log10 and pow: the same bits in every engine, unlike Math.*,
 * whose last bits ECMAScript leaves to the implementation. Built from IEEE + − × ÷ and exact operations only
 * (double-double.ts, double-bits.ts); the tables are computed when the module loads, by the same operations.
 *
 * Both cores carry about 70 bits: exp reduces x = k·ln2/256 + r (|r| ≤ ln2/512, ln2 in three parts so the
 * reduction is exact), takes 2^(k/256) from a double-double table and e^r − 1 from its series; log splits
 * x = 2^e·m (m within √2 of 1) and m = c·(1 + s)/(1 − s) around c = j/128, log c from a double-double table
 * and log((1 + s)/(1 − s)) = 2·atanh s from its series. Each function rounds once at the end, so it is within
 * half an ulp and a hair of the exact value (the tests measure it against a 200-bit reference).
 */
import { dd, ddDiv, ddMul, ddSqrt, normalise, twoProd, twoSum } from './double-double.js';
import { exponentField, pow2, roundScaled } from './double-bits.js';

// ln 2 = LN2_A + LN2_B + LN2_C: A and B with 33 significant bits (so k·A and k·B are exact for |k| < 2^20),
// C the next 53 bits. ln2 to 119 bits; the tests check the parts against a BigInt computation.
export const LN2_A = 0.6931471804855391;
export const LN2_B = 7.440617109802979e-11;
export const LN2_C = 2.0941744292700725e-21;
/** ln 2 as a double-double. */
export const LN2_HI = 0.6931471805599453;
export const LN2_LO = 2.3190468138462996e-17;
/** 1/ln 2 and 1/ln 10 as double-doubles. */
export const INV_LN2_HI = 1.4426950408889634;
export const INV_LN2_LO = 2.0355273740931033e-17;
export const INV_LN10_HI = 0.4342944819032518;
export const INV_LN10_LO = 1.098319650216765e-17;

// ---------------------------------------------------------------------------------------------------
// exp

/**
 * EXP2_HI[j] + EXP2_LO[j] = 2^(j/256), j = 0..255 (double-double, built from √2 by repeated square roots).
 */
export const EXP2_HI = new Float64Array(256);
export const EXP2_LO = new Float64Array(256);
{
  // ROOT[i] = 2^(2^i / 256): ROOT[7] = √2, each one below the square root of the one above.
  const rootHi = new Float64Array(8);
  const rootLo = new Float64Array(8);
  ddSqrt(2, 0);
  rootHi[7] = dd.hi;
  rootLo[7] = dd.lo;
  for (let i = 6; i >= 0; i--) {
    ddSqrt(rootHi[i + 1]!, rootLo[i + 1]!);
    rootHi[i] = dd.hi;
    rootLo[i] = dd.lo;
  }
  for (let j = 0; j < 256; j++) {
    let h = 1;
    let l = 0;
    for (let i = 0; i < 8; i++) {
      if ((j >> i) & 1) {
        ddMul(h, l, rootHi[i]!, rootLo[i]!);
        h = dd.hi;
        l = dd.lo;
      }
    }
    EXP2_HI[j] = h;
    EXP2_LO[j] = l;
  }
}

const INV_LN2_256 = 369.3299304675746; // 256/ln 2 (only picks k: the reduction is exact for any k)
const A256 = LN2_A / 256;
const B256 = LN2_B / 256;
const C256 = LN2_C / 256;

/**
 * What `expCore` found: e^(x) = 2^m·(h + l), h + l within [0.998, 2.003) (double-double, about 2^−70
 * relative), and p = ph + pl = e^r − 1 for the reduced argument (k = 0 when |x| < ln2/512, where e^x − 1 =
 * p).
 */
export const ex = { m: 0, k: 0, h: 0, l: 0, ph: 0, pl: 0 };

/** e^(xh + xl) into `ex`, for |xh| ≤ 746 (xl a small correction, |xl| ≤ 2^−40·|xh| or so). */
export function expCore(xh: number, xl: number): void {
  const k = Math.floor(xh * INV_LN2_256 + 0.5);
  // r = x − k·ln2/256 as a double-double: k·A and k·B are exact (k < 2^19, A and B of 33 bits), each
  // subtraction is exact as a TwoSum, and k·C is below the last bit that matters.
  twoSum(xh, -k * A256);
  const a = dd.hi;
  const ae = dd.lo;
  twoSum(a, -k * B256);
  const rh = dd.hi;
  const rl = dd.lo + ae + (xl - k * C256);
  // e^r − 1 = r + r²/2 + ... + r^6/720 (|r| ≤ 0.00136: the first term left out is below 2^−78).
  const q = rh * rh * (0.5 + rh * (1 / 6 + rh * (1 / 24 + rh * (1 / 120 + rh * (1 / 720)))));
  const ph = rh;
  const pl = rl + rh * rl + q;
  const m = Math.floor(k / 256);
  const j = k - 256 * m;
  const th = EXP2_HI[j]!;
  const tl = EXP2_LO[j]!;
  // (th + tl)·(1 + ph + pl): th·ph exactly, the rest as a small correction.
  twoProd(th, ph);
  const u = dd.hi;
  const ue = dd.lo;
  const s = th + u; // |u| < |th|
  const se = u - (s - th);
  normalise(s, se + ue + tl + th * pl + tl * ph);
  ex.m = m;
  ex.k = k;
  ex.h = dd.hi;
  ex.l = dd.lo;
  ex.ph = ph;
  ex.pl = pl;
}

const EXP_OVERFLOW = 709.8; // e^x > MAX_VALUE above 709.7827...
const EXP_UNDERFLOW = -745.2; // e^x < 2^−1075 below −745.1332...

/**
 * Deterministic `Math.exp` (the same bits in every engine): e^x, correctly rounded in all but the rarest
 * cases (within 0.5 ulp and a hair); e^±0 = 1, e^−∞ = +0.
 */
export function detExp(x: number): number {
  if (!(x < EXP_OVERFLOW)) return x !== x ? NaN : Infinity;
  if (x < EXP_UNDERFLOW) return 0;
  expCore(x, 0);
  return roundScaled(ex.h, ex.l, ex.m);
}

/**
 * e^x − 1 for x as a double-double, accurate relative to the result even where it is tiny (`dd`): for the
 * hyperbolic functions. For |x| ≤ 60.
 */
export function expm1DD(x: number): void {
  expCore(x, 0);
  if (ex.k === 0) {
    normalise(ex.ph, ex.pl);
    return;
  }
  // 2^m·(h + l) − 1, |m| ≤ 87: the scaling is exact, the subtraction exact as a double-double.
  const f = pow2(ex.m);
  const h = ex.h * f;
  const l = ex.l * f;
  twoSum(h, -1);
  normalise(dd.hi, dd.lo + l);
}

/**
 * Deterministic `Math.expm1` (the same bits in every engine): e^x − 1, accurate for tiny x (within 0.5 ulp
 * and a hair); keeps −0; −1 for x ≤ −38, +Infinity on overflow.
 */
export function detExpm1(x: number): number {
  if (!(x < EXP_OVERFLOW)) return x !== x ? NaN : Infinity;
  if (x === 0) return x;
  if (x <= -38) return -1; // e^x < 2^−54: −1 + e^x rounds to −1
  if (x > 40) {
    // the 1 is far below the last bit
    expCore(x, 0);
    return roundScaled(ex.h, ex.l, ex.m);
  }
  expm1DD(x);
  return dd.hi + dd.lo;
}

// ---------------------------------------------------------------------------------------------------
// log

/** LOG_HI[j − 90] + LOG_LO[j − 90] = ln(j/128), j = 90..182 (double-double, by the atanh series at load). */
const LOG_FIRST = 90;
export const LOG_HI = new Float64Array(93);
export const LOG_LO = new Float64Array(93);
{
  for (let j = LOG_FIRST; j < LOG_FIRST + 93; j++) {
    // ln(j/128) = 2·atanh(s), s = (j − 128)/(j + 128): Σ 2·s^(2n+1)/(2n+1) until the terms vanish.
    ddDiv(j - 128, 0, j + 128, 0);
    const sh = dd.hi;
    const sl = dd.lo;
    ddMul(sh, sl, sh, sl);
    const zh = dd.hi;
    const zl = dd.lo;
    let th = sh;
    let tl = sl;
    let sumH = 0;
    let sumL = 0;
    for (let n = 0; n < 60 && th !== 0; n++) {
      ddDiv(th, tl, 2 * n + 1, 0);
      const ah = dd.hi;
      const al = dd.lo;
      twoSum(sumH, ah);
      normalise(dd.hi, dd.lo + sumL + al);
      sumH = dd.hi;
      sumL = dd.lo;
      if (Math.abs(ah) < Math.abs(sumH) * 1e-34) break;
      ddMul(th, tl, zh, zl);
      th = dd.hi;
      tl = dd.lo;
    }
    LOG_HI[j - LOG_FIRST] = 2 * sumH;
    LOG_LO[j - LOG_FIRST] = 2 * sumL;
  }
}

const SQRT2 = 1.4142135623730951;
const TWO_POW_60 = 1152921504606846976;
const TWO_POW_54 = 18014398509481984;

/**
 * What `logCore` found: ln x = e·ln2 + (mh + ml), and its double-double sum h + l (about 2^−70 relative).
 */
export const lg = { e: 0, mh: 0, ml: 0, h: 0, l: 0 };

/** ln x into `lg`, for a finite x > 0. */
export function logCore(x: number): void {
  let e = 0;
  if (x < 2.2250738585072014e-308) {
    x *= TWO_POW_54; // subnormal: lift into the normal range (exact)
    e = -54;
  }
  const be = exponentField(x) - 1023;
  e += be;
  let m = x * pow2(-be); // [1, 2), exact
  if (m > SQRT2) {
    m *= 0.5;
    e += 1;
  }
  const j = Math.floor(m * 128 + 0.5); // 91..181
  const c = j / 128; // exact
  const d = m - c; // exact (c within a factor 2 of m)
  // s = d / (m + c) as a double-double: m + c exactly, then one correction of the quotient.
  twoSum(m, c);
  const uh = dd.hi;
  const ue = dd.lo;
  const sh = d / uh;
  twoProd(sh, uh);
  const sl = (d - dd.hi - dd.lo - sh * ue) / uh;
  // ln(m/c) = 2s + 2s³/3 + 2s⁵/5 + 2s⁷/7 (|s| ≤ 0.0028: the first term left out is below 2^−78).
  const z = sh * sh;
  const tail = sh * z * (2 / 3 + z * (2 / 5 + z * (2 / 7)));
  // ln c + ln(m/c)
  twoSum(LOG_HI[j - LOG_FIRST]!, 2 * sh);
  const mh0 = dd.hi;
  normalise(mh0, dd.lo + LOG_LO[j - LOG_FIRST]! + 2 * sl + tail);
  const mh = dd.hi;
  const ml = dd.lo;
  lg.e = e;
  lg.mh = mh;
  lg.ml = ml;
  if (e === 0) {
    lg.h = mh;
    lg.l = ml;
    return;
  }
  // + e·ln2: e·A and e·B exact (|e| ≤ 1075), e·C below the last bit that matters.
  twoSum(e * LN2_A, mh);
  const s = dd.hi;
  normalise(s, dd.lo + e * LN2_B + (ml + e * LN2_C));
  lg.h = dd.hi;
  lg.l = dd.lo;
}

/**
 * Deterministic `Math.log` (the same bits in every engine): ln x, within 0.5 ulp and a hair; NaN below 0,
 * −Infinity at ±0, +0 at 1.
 */
export function detLog(x: number): number {
  if (!(x > 0)) return x === 0 ? -Infinity : NaN;
  if (x === Infinity) return x;
  logCore(x);
  return lg.h + lg.l;
}

/**
 * Deterministic `Math.log2` (the same bits in every engine): log₂ x, within 0.5 ulp and a hair, exact at
 * powers of two; NaN below 0, −Infinity at ±0.
 */
export function detLog2(x: number): number {
  if (!(x > 0)) return x === 0 ? -Infinity : NaN;
  if (x === Infinity) return x;
  logCore(x);
  // e + (mh + ml)/ln2: the integer part exactly
  ddMul(lg.mh, lg.ml, INV_LN2_HI, INV_LN2_LO);
  const fh = dd.hi;
  const fl = dd.lo;
  twoSum(lg.e, fh);
  return dd.hi + (dd.lo + fl);
}

/**
 * Deterministic `Math.log10` (the same bits in every engine): log₁₀ x, within 0.5 ulp and a hair, exact at
 * powers of ten; NaN below 0, −Infinity at ±0.
 */
export function detLog10(x: number): number {
  if (!(x > 0)) return x === 0 ? -Infinity : NaN;
  if (x === Infinity) return x;
  logCore(x);
  ddMul(lg.h, lg.l, INV_LN10_HI, INV_LN10_LO);
  return dd.hi + dd.lo;
}

/** ln(1 + (wh + wl)) as a double-double into `dd`, for wh + wl > −1 finite (normalised). */
export function log1pDD(wh: number, wl: number): void {
  if (wh > TWO_POW_60) {
    // 1 + w = w·(1 + 1/w): the 1/w is below the last bit of ln w (≥ 41)
    logCore(wh);
    normalise(lg.h, lg.l);
    return;
  }
  twoSum(1, wh);
  normalise(dd.hi, dd.lo + wl);
  const uh = dd.hi;
  const ul = dd.lo;
  // ln(uh + ul) = ln uh + ln(1 + q) = ln uh + q − q²/2 + ..., q = ul/uh, |q| ≤ 2^−53. Near 0 the result is
  // as small as q, so q and the sum are taken as double-doubles and q²/2 counts (q³/3 is below 2^−159).
  ddDiv(ul, 0, uh, 0);
  const qh = dd.hi;
  const ql = dd.lo;
  logCore(uh);
  twoSum(lg.h, qh);
  normalise(dd.hi, dd.lo + lg.l + (ql - 0.5 * qh * qh));
}

/**
 * Deterministic `Math.log1p` (the same bits in every engine): ln(1 + x), accurate for tiny x (within 0.5 ulp
 * and a hair); keeps −0; −Infinity at −1, NaN below.
 */
export function detLog1p(x: number): number {
  if (!(x > -1)) return x === -1 ? -Infinity : NaN;
  if (x === Infinity) return x;
  if (x === 0) return x;
  // Below 2^−54 the result rounds to x (and x² would only underflow).
  if (x < 5.551115123125783e-17 && x > -5.551115123125783e-17) return x;
  log1pDD(x, 0);
  return dd.hi + dd.lo;
}

// ---------------------------------------------------------------------------------------------------
// pow

const TWO_POW_53 = 9007199254740992;

/** 0 when y is not an integer, 1 for an even integer, −1 for an odd one (y finite). */
function integerKind(y: number): number {
  if (Math.floor(y) !== y) return 0;
  if (y >= TWO_POW_53 || y <= -TWO_POW_53) return 1; // every double this large is even
  return y - 2 * Math.floor(y / 2) === 0 ? 1 : -1;
}

/**
 * Deterministic `Math.pow` and `**` (the same bits in every engine): x^y, with their special cases as
 * ECMAScript gives them (so x^±0 = 1 even for NaN, and (±1)^±∞ = NaN), otherwise e^(y·ln|x|) with the
 * logarithm and the product in double-double: within 0.5 ulp and a hair, exact where the result is (2^10,
 * 10^22, 4^0.5).
 */
export function detPow(x: number, y: number): number {
  if (y !== y) return NaN;
  if (y === 0) return 1;
  if (x !== x) return NaN;
  const ay = y < 0 ? -y : y;
  if (x === Infinity) return y > 0 ? Infinity : 0;
  if (x === -Infinity) {
    const odd = ay !== Infinity && integerKind(y) === -1;
    if (y > 0) return odd ? -Infinity : Infinity;
    return odd ? -0 : 0;
  }
  if (x === 0) {
    const odd = ay !== Infinity && integerKind(y) === -1 && 1 / x < 0;
    if (y > 0) return odd ? -0 : 0;
    return odd ? -Infinity : Infinity;
  }
  const ax = x < 0 ? -x : x;
  if (ay === Infinity) {
    if (ax === 1) return NaN;
    return ax > 1 === y > 0 ? Infinity : 0;
  }
  let sign = 1;
  if (x < 0) {
    const kind = integerKind(y);
    if (kind === 0) return NaN;
    sign = kind;
  }
  if (ax === 1) return sign;
  logCore(ax);
  const zh0 = y * lg.h;
  if (zh0 > EXP_OVERFLOW) return sign * Infinity;
  if (zh0 < EXP_UNDERFLOW) return sign * 0;
  // z = y·(h + l): y·h exactly, plus y·l
  twoProd(y, lg.h);
  normalise(dd.hi, dd.lo + y * lg.l);
  const zh = dd.hi;
  const zl = dd.lo;
  if (!(zh < EXP_OVERFLOW)) return sign * Infinity;
  if (zh < EXP_UNDERFLOW) return sign * 0;
  expCore(zh, zl);
  return sign * roundScaled(ex.h, ex.l, ex.m);
}
