/**
 * Deterministic double-precision maths built only from + − × / (and exact operations: comparisons,
 * Math.floor/abs on doubles, bit access through a scratch typed array). IEEE 754 makes each of those
 * correctly rounded on every engine, so these functions give the same bits everywhere — unlike
 * Math.sin/cos/atan2/hypot, whose results the ECMAScript standard leaves to the implementation.
 * Use them (not Math.*) in anything that feeds simulation state in float worlds.
 *
 *   detSqrt       correctly rounded (equal to IEEE sqrt, bit for bit)
 *   detSin/Cos    fdlibm's kernels and three-part π/2 reduction; beyond 2^19·π/2 an exact reduction
 *                 with the bits of 2/π; error below 1 ulp in practice
 *   detTan        the same reduction, then the series at an eighth of the angle in double-double and the
 *                 double-angle formula three times; within 0.5 ulp and a hair
 *   detAtan/Atan2 fdlibm's argument reduction and polynomial; below 1 ulp in practice
 *   detHypot3     √(x² + y² + z²) with power-of-two scaling (no overflow/underflow), within 2 ulp
 */

import { fromWords, highWord, pow2 } from './double-bits.js';
import { dd, ddDiv, normalise, twoProd, twoSum } from './double-double.js';

const TWO_POW_52 = 4503599627370496;
const ULP_1_2 = 1 / TWO_POW_52; // the spacing of doubles in [1, 2)
const TWO_POW_108 = 324518553658426726783156020576256;
const SPLITTER = 134217729; // 2^27 + 1, Veltkamp's constant
const TWO_POW_600 = 4.149515568880993e180;
const TWO_POW_MINUS_600 = 2.409919865102884e-181;

/**
 * √x correctly rounded to nearest, from + − × / only: scale x to m ∈ [1, 4), Newton's iteration from a
 * linear estimate, then an exact residual (Dekker's product) decides the last bit.
 */
export function detSqrt(x: number): number {
  if (!(x > 0)) return x === 0 ? x : NaN; // keeps −0; negatives and NaN → NaN
  if (x === Infinity) return x;
  let extra = 0;
  if (x < 1e-300) {
    x *= TWO_POW_108; // subnormal or tiny: lift into the normal range (exact)
    extra = -54;
  }
  const k = (((highWord(x) >>> 20) & 0x7ff) - 1023) >> 1; // floor(exponent / 2)
  const m = x * pow2(-2 * k); // exact, in [1, 4)
  let y = 0.53495 + m * (0.513 - 0.037415 * m); // within 1.1% of √m on [1, 4)
  // Newton doubles the correct bits: 1e-2 → 5e-5 → 1.3e-9 → 1e-18, then the exact residual fixes the last bit
  for (let i = 0; i < 3; i++) y = 0.5 * (y + m / y);
  if (y >= 2) y = 2 - ULP_1_2; // √m < 2 − 2^−53 for every m < 4
  if (y < 1) y = 1;
  // y ∈ [1, 2): let Y = y·2^52, M = m·2^104 (integers). The nearest double to √m is y iff
  // −Y < M − Y² ≤ Y; r = m − y² is exactly (M − Y²)·2^−104 and fits a double when it matters.
  for (let pass = 0; pass < 3; pass++) {
    const p = y * y;
    const c = SPLITTER * y;
    const yh = c - (c - y);
    const yl = y - yh;
    const err = yh * yh - p + 2 * yh * yl + yl * yl; // y² = p + err exactly
    const r = m - p - err;
    const bound = y * ULP_1_2;
    if (r > bound) y += ULP_1_2;
    else if (r <= -bound) y -= ULP_1_2;
    else break;
  }
  return y * pow2(k + extra);
}

// ---------------------------------------------------------------------------------------------------
// sin and cos

const S1 = -1.66666666666666324348e-1;
const S2 = 8.33333333332248946124e-3;
const S3 = -1.98412698298579493134e-4;
const S4 = 2.75573137070700676789e-6;
const S5 = -2.50507602534068634195e-8;
const S6 = 1.58969099521155010221e-10;

/** sin(x + y) for |x| ≤ π/4 (fdlibm __kernel_sin); `tail` false when y is zero. */
function kernelSin(x: number, y: number, tail: boolean): number {
  if (x < 7.450580596923828e-9 && x > -7.450580596923828e-9) return x; // |x| < 2^-27: sin x = x
  const z = x * x;
  const v = z * x;
  const r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  if (!tail) return x + v * (S1 + z * r);
  return x - (z * (0.5 * y - v * r) - y - v * S1);
}

const C1 = 4.16666666666666019037e-2;
const C2 = -1.38888888888741095749e-3;
const C3 = 2.48015872894767294178e-5;
const C4 = -2.75573143513906633035e-7;
const C5 = 2.08757232129817482790e-9;
const C6 = -1.13596475577881948265e-11;

/** cos(x + y) for |x| ≤ π/4 (fdlibm __kernel_cos). */
function kernelCos(x: number, y: number): number {
  const ax = x < 0 ? -x : x;
  if (ax < 7.450580596923828e-9) return 1;
  const z = x * x;
  const r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  if (ax < 0.3) return 1 - (0.5 * z - (z * r - x * y));
  // split 1 − z/2 so the leading subtraction is exact: qx ≈ x²/4 rounded down to its high word
  let qx: number;
  if (ax > 0.78125) qx = 0.28125;
  else qx = fromWords(highWord(ax) - 0x00200000, 0); // ax / 4 with the low word cleared
  const hz = 0.5 * z - qx;
  const a = 1 - qx;
  return a - (hz - (z * r - x * y));
}

/** The reduction x = n·π/2 + (y0 + y1), n mod 4 in 0..3. Module scratch: no allocation. */
const red = { n: 0, y0: 0, y1: 0 };

const INV_PIO2 = 6.36619772367581382433e-1;
const PIO2_1 = 1.57079632673412561417; // first 33 bits of π/2
const PIO2_1T = 6.07710050650619224932e-11; // π/2 − PIO2_1
const PIO2_2 = 6.07710050630396597660e-11; // second 33 bits
const PIO2_2T = 2.02226624879595063154e-21;
const PIO2_3 = 2.02226624871116645580e-21; // third 33 bits
const PIO2_3T = 8.47842766036889956997e-32;
const MEDIUM_LIMIT = 823549.6562500000; // 2^19·π/2: n·PIO2_1 stays exact below it

/** Reduces x (finite, |x| > π/4) into `red`. */
function reduce(x: number): void {
  const negative = x < 0;
  const t = negative ? -x : x;
  if (t <= MEDIUM_LIMIT) {
    const n = Math.floor(t * INV_PIO2 + 0.5);
    let r = t - n * PIO2_1; // exact: n has ≤ 20 bits, PIO2_1 33
    let w = n * PIO2_1T;
    let y0 = r - w;
    const j = (highWord(t) >>> 20) & 0x7ff;
    if (j - ((highWord(y0) >>> 20) & 0x7ff) > 16) {
      // cancellation: use the next 33 bits of π/2
      let tt = r;
      w = n * PIO2_2;
      r = tt - w;
      w = n * PIO2_2T - (tt - r - w);
      y0 = r - w;
      if (j - ((highWord(y0) >>> 20) & 0x7ff) > 49) {
        tt = r;
        w = n * PIO2_3;
        r = tt - w;
        w = n * PIO2_3T - (tt - r - w);
        y0 = r - w;
      }
    }
    const y1 = r - y0 - w;
    setRed(negative, n % 4, y0, y1);
    return;
  }
  reduceLarge(t);
  if (negative) setRed(true, red.n, red.y0, red.y1);
}

function setRed(negative: boolean, n: number, y0: number, y1: number): void {
  red.n = negative ? (4 - n) % 4 : n;
  red.y0 = negative ? -y0 : y0;
  red.y1 = negative ? -y1 : y1;
}

/** 2/π in 24-bit chunks: 2/π = Σ TWO_OVER_PI_24[k]·2^(−24(k+1)). 1,440 bits: enough for any double. */
export const TWO_OVER_PI_24 = [
  0xa2f983, 0x6e4e44, 0x1529fc, 0x2757d1, 0xf534dd, 0xc0db62, 0x95993c, 0x439041, 0xfe5163, 0xabdebb, 0xc561b7,
  0x246e3a, 0x424dd2, 0xe00649, 0x2eea09, 0xd1921c, 0xfe1deb, 0x1cb129, 0xa73ee8, 0x8235f5, 0x2ebb44, 0x84e99c,
  0x7026b4, 0x5f7e41, 0x3991d6, 0x398353, 0x39f49c, 0x845f8b, 0xbdf928, 0x3b1ff8, 0x97ffde, 0x05980f, 0xef2f11,
  0x8b5a0a, 0x6d1f6d, 0x367ecf, 0x27cb09, 0xb74f46, 0x3f669e, 0x5fea2d, 0x7527ba, 0xc7ebe5, 0xf17b3d, 0x0739f7,
  0x8a5292, 0xea6bfb, 0x5fb11f, 0x8d5d08, 0x560330, 0x46fc7b, 0x6babf0, 0xcfbc20, 0x9af436, 0x1da9e3, 0x91615e,
  0xe61b08, 0x659985, 0x5f14a0, 0x68408d, 0xffd880,
] as const;
const PIO2_HI = 1.5707963267948966;
const PIO2_LO = 6.123233995736766e-17;

/**
 * Exact reduction for t > 2^19·π/2 (Payne–Hanek in spirit): t·2/π taken mod 4 using only the chunks of
 * 2/π that reach the binary point, each product exact in a double, summed with TwoSum; the fraction
 * (in double-double) times π/2 gives y0 + y1.
 */
function reduceLarge(t: number): void {
  const hw = highWord(t);
  const e = ((hw >>> 20) & 0x7ff) - 1075; // t = mant·2^e
  const mant = t * pow2(-e); // exact 53-bit integer
  const mantHi = Math.floor(mant / 67108864); // top 27 bits
  const mantLo = mant - mantHi * 67108864; // low 26 bits
  // the first chunk where the low half's product reaches below 2^2 (earlier ones add multiples of 4)
  let k0 = Math.floor((e - 2) / 24);
  if (k0 < 0) k0 = 0;
  let whole4 = 0;
  let frac = 0;
  let fracLo = 0;
  for (let k = k0; k < k0 + 9; k++) {
    const c = TWO_OVER_PI_24[k]!;
    for (let half = 0; half < 2; half++) {
      const p = (half === 0 ? mantHi : mantLo) * c; // < 2^51: exact
      const shift = e + (half === 0 ? 26 : 0) - 24 * (k + 1);
      if (shift >= 2) continue; // a multiple of 4
      const scaled = p * pow2(shift);
      const w = Math.floor(scaled);
      whole4 = (whole4 + (w % 4)) % 4;
      const f = scaled - w;
      const s = frac + f;
      const bv = s - frac;
      fracLo += frac - (s - bv) + (f - bv);
      frac = s;
    }
  }
  const carry = Math.floor(frac);
  frac -= carry;
  whole4 = (whole4 + carry) % 4;
  if (frac + fracLo < 0) {
    frac += 1;
    whole4 = (whole4 + 3) % 4;
  } else if (frac + fracLo >= 1) {
    frac -= 1;
    whole4 = (whole4 + 1) % 4;
  }
  if (frac + fracLo >= 0.5) {
    whole4 = (whole4 + 1) % 4;
    frac -= 1;
  }
  const head = frac + fracLo;
  const tail = frac - head + fracLo;
  // (head + tail)·(PIO2_HI + PIO2_LO) in double-double
  const p = head * PIO2_HI;
  const ch = SPLITTER * head;
  const hh = ch - (ch - head);
  const hl = head - hh;
  const cp = SPLITTER * PIO2_HI;
  const ph = cp - (cp - PIO2_HI);
  const pl = PIO2_HI - ph;
  const perr = hh * ph - p + hh * pl + hl * ph + hl * pl;
  const lo = perr + (tail * PIO2_HI + head * PIO2_LO);
  const y0 = p + lo;
  red.n = whole4;
  red.y0 = y0;
  red.y1 = lo - (y0 - p);
}

/**
 * sin x by its Taylor series through the x^(2·terms+1) term, + − × ÷ only: for building small-angle tables
 * (|x| ≤ π/2, where each caller picks enough terms that the first one left out is below a double's last bit).
 */
export function taylorSin(x: number, terms: number): number {
  // ±0 is its own sine; without this −0 would come back as +0 (−0 + 0 = +0), and the series would not be odd.
  if (x === 0) return x;
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let k = 1; k <= terms; k++) {
    term = (-term * x2) / ((2 * k) * (2 * k + 1));
    sum += term;
  }
  return sum;
}

/**
 * Deterministic `Math.sin` (the same bits in every engine; within 0.83 ulp measured): sin x; NaN for NaN and
 * ±Infinity.
 */
export function detSin(x: number): number {
  if (x !== x || x === Infinity || x === -Infinity) return NaN;
  if (x <= 0.7853981633974483 && x >= -0.7853981633974483) return kernelSin(x, 0, false);
  reduce(x);
  switch (red.n) {
    case 0:
      return kernelSin(red.y0, red.y1, true);
    case 1:
      return kernelCos(red.y0, red.y1);
    case 2:
      return -kernelSin(red.y0, red.y1, true);
    default:
      return -kernelCos(red.y0, red.y1);
  }
}

/**
 * Deterministic `Math.cos` (the same bits in every engine; within 0.82 ulp measured): cos x; NaN for NaN and
 * ±Infinity.
 */
export function detCos(x: number): number {
  if (x !== x || x === Infinity || x === -Infinity) return NaN;
  if (x <= 0.7853981633974483 && x >= -0.7853981633974483) return kernelCos(x, 0);
  reduce(x);
  switch (red.n) {
    case 0:
      return kernelCos(red.y0, red.y1);
    case 1:
      return -kernelSin(red.y0, red.y1, true);
    case 2:
      return -kernelCos(red.y0, red.y1);
    default:
      return kernelSin(red.y0, red.y1, true);
  }
}

// ---------------------------------------------------------------------------------------------------
// tan

/**
 * TAN_C[k − 1] = the coefficient of u^(2k+1) in tan u (1/3, 2/15, 17/315, ...), from tan' = 1 + tan²:
 * (2k + 1)·a_k = Σ a_i·a_(k−1−i), a_0 = 1. Ten of them: for |u| ≤ π/32 the next is below 2^−70 of u.
 */
const TAN_TERMS = 10;
export const TAN_C = new Float64Array(TAN_TERMS);
{
  const a = [1];
  for (let k = 1; k <= TAN_TERMS; k++) {
    let sum = 0;
    for (let i = 0; i < k; i++) sum += a[i]! * a[k - 1 - i]!;
    a.push(sum / (2 * k + 1));
    TAN_C[k - 1] = a[k]!;
  }
}

/**
 * tan(rh + rl) for |rh| ≤ π/4 (or −1/tan with `inverse`): the series at u = r/8 as a double-double (its
 * tail, u³/3 and beyond, under 0.3% of it), then the double angle t ← 2t/(1 − t²) three times (the last
 * turned over for −1/tan), then one rounding.
 */
function kernelTan(rh: number, rl: number, inverse: boolean): number {
  const uh = rh * 0.125;
  const z = uh * uh;
  let p = TAN_C[TAN_TERMS - 1]!;
  for (let i = TAN_TERMS - 2; i >= 0; i--) p = TAN_C[i]! + z * p;
  normalise(uh, rl * 0.125 + uh * z * p); // tan u = u + u³·p
  let th = dd.hi;
  let tl = dd.lo;
  for (let step = 0; step < 3; step++) {
    // 1 − t² as a double-double
    twoProd(th, th);
    const sq = dd.hi;
    const sqe = dd.lo + 2 * th * tl;
    twoSum(1, -sq);
    const dh = dd.hi;
    const dl = dd.lo - sqe;
    if (step === 2 && inverse) ddDiv(-dh, -dl, 2 * th, 2 * tl);
    else ddDiv(2 * th, 2 * tl, dh, dl);
    th = dd.hi;
    tl = dd.lo;
  }
  return th + tl;
}

/**
 * Deterministic `Math.tan` (the same bits in every engine; within 0.52 ulp measured): tan x; NaN for NaN and
 * ±Infinity; keeps −0.
 */
export function detTan(x: number): number {
  if (x !== x || x === Infinity || x === -Infinity) return NaN;
  if (x < 7.450580596923828e-9 && x > -7.450580596923828e-9) return x; // |x| < 2^−27: tan x = x(1 + x²/3)
  if (x <= 0.7853981633974483 && x >= -0.7853981633974483) return kernelTan(x, 0, false);
  reduce(x);
  return kernelTan(red.y0, red.y1, (red.n & 1) === 1);
}

// ---------------------------------------------------------------------------------------------------
// atan and atan2

const ATAN_HI = [4.63647609000806093515e-1, 7.85398163397448278999e-1, 9.82793723247329054082e-1, 1.570796326794896558];
const ATAN_LO = [
  2.26987774529616870924e-17, 3.06161699786838301793e-17, 1.39033110312309984516e-17, 6.12323399573676603587e-17,
];
const AT = [
  3.33333333333329318027e-1, -1.99999999998764832476e-1, 1.42857142725034663711e-1, -1.1111110405462355788e-1,
  9.09088713343650656196e-2, -7.69187620504482999495e-2, 6.66107313738753120669e-2, -5.83357013379057348645e-2,
  4.97687799461593236017e-2, -3.6531572744216915527e-2, 1.62858201153657823623e-2,
];

/**
 * Deterministic `Math.atan` (the same bits in every engine; within 0.75 ulp measured): fdlibm's s_atan.c,
 * which reduces to |t| < 7/16 around atan(0.5), atan(1), atan(1.5) or π/2.
 */
export function detAtan(x: number): number {
  if (x !== x) return NaN;
  const negative = x < 0;
  let t = negative ? -x : x;
  if (t >= 7.378697629483821e19) return negative ? -ATAN_HI[3]! - ATAN_LO[3]! : ATAN_HI[3]! + ATAN_LO[3]!; // ≥ 2^66
  let id = -1;
  if (t < 0.4375) {
    if (t < 1.862645149230957e-9) return x; // |x| < 2^-29
  } else if (t < 1.1875) {
    if (t < 0.6875) {
      id = 0;
      t = (2 * t - 1) / (2 + t);
    } else {
      id = 1;
      t = (t - 1) / (t + 1);
    }
  } else if (t < 2.4375) {
    id = 2;
    t = (t - 1.5) / (1 + 1.5 * t);
  } else {
    id = 3;
    t = -1 / t;
  }
  const z = t * t;
  const w = z * z;
  const s1 = z * (AT[0]! + w * (AT[2]! + w * (AT[4]! + w * (AT[6]! + w * (AT[8]! + w * AT[10]!)))));
  const s2 = w * (AT[1]! + w * (AT[3]! + w * (AT[5]! + w * (AT[7]! + w * AT[9]!))));
  if (id < 0) return negative ? -(t - t * (s1 + s2)) : t - t * (s1 + s2);
  const r = ATAN_HI[id]! - (t * (s1 + s2) - ATAN_LO[id]! - t);
  return negative ? -r : r;
}

const PI = 3.141592653589793116;
const PI_LO = 1.2246467991473531772e-16;
const PI_O_2 = 1.570796326794896558;
const PI_O_4 = 7.85398163397448279e-1;

/**
 * Deterministic `Math.atan2` (the same bits in every engine): atan2(y, x) in (−π, π], with C's conventions
 * for zeros and infinities (fdlibm e_atan2.c). It rounds y/x first: within 1.28 ulp measured where x < 0,
 * 0.75 elsewhere.
 */
export function detAtan2(y: number, x: number): number {
  if (x !== x || y !== y) return NaN;
  if (x === 1) return detAtan(y);
  const yNeg = y < 0 || (y === 0 && 1 / y < 0);
  const xNeg = x < 0 || (x === 0 && 1 / x < 0);
  if (y === 0) {
    if (!xNeg) return y; // ±0
    return yNeg ? -PI : PI;
  }
  if (x === 0) return yNeg ? -PI_O_2 : PI_O_2;
  const ax = x < 0 ? -x : x;
  const ay = y < 0 ? -y : y;
  if (ax === Infinity) {
    if (ay === Infinity) {
      const a = xNeg ? 3 * PI_O_4 : PI_O_4;
      return yNeg ? -a : a;
    }
    const a = xNeg ? PI : 0;
    return yNeg ? -a : a;
  }
  if (ay === Infinity) return yNeg ? -PI_O_2 : PI_O_2;
  const k = (((highWord(ay) >>> 20) & 0x7ff) - ((highWord(ax) >>> 20) & 0x7ff)) | 0;
  let z: number;
  if (k > 60) z = PI_O_2 + 0.5 * PI_LO; // |y/x| > 2^60
  else if (xNeg && k < -60) z = 0; // |y|/x < −2^60
  else z = detAtan(ay / ax);
  if (!xNeg) return yNeg ? -z : z;
  return yNeg ? z - PI_LO - PI : PI - (z - PI_LO);
}

// ---------------------------------------------------------------------------------------------------

/**
 * √(x² + y² + z²) without overflow or underflow: the components are scaled by a power of two that brings
 * the largest near 1, squared and summed there, and the root scaled back. Infinity if any is infinite,
 * else NaN if any is NaN.
 */
export function detHypot3(x: number, y: number, z: number): number {
  const ax = x < 0 ? -x : x;
  const ay = y < 0 ? -y : y;
  const az = z < 0 ? -z : z;
  if (ax === Infinity || ay === Infinity || az === Infinity) return Infinity;
  if (ax !== ax || ay !== ay || az !== az) return NaN;
  let big = ax > ay ? ax : ay;
  if (az > big) big = az;
  if (big === 0) return 0;
  const e = ((highWord(big) >>> 20) & 0x7ff) - 1023; // −1023 for a subnormal
  if (e > 500 || e < -500) {
    // squares would overflow or lose bits: work at 2^∓600 (components far below the largest only
    // underflow where their squares could not change the sum anyway)
    const down = e > 0 ? TWO_POW_MINUS_600 : TWO_POW_600;
    const sx = ax * down;
    const sy = ay * down;
    const sz = az * down;
    return detSqrt(sx * sx + sy * sy + sz * sz) * (e > 0 ? TWO_POW_600 : TWO_POW_MINUS_600);
  }
  return detSqrt(ax * ax + ay * ay + az * az);
}
