/**
 * PS2 Emotion Engine FPU single precision, on float32 bit patterns held as u32 numbers (0..2^32-1).
 *
 * The EE's FPU is not IEEE 754 (docs/formats/ee-float.md):
 *   - exponent field 0 is zero whatever the fraction (no denormals, in or out);
 *   - exponent field 255 is an ordinary number (no Inf/NaN), so the largest magnitude is (2 - 2^-23)·2^128;
 *   - every result is the exact result truncated toward zero to 24 significant bits;
 *   - overflow saturates to ±FMAX (sign | 0x7fffffff), underflow flushes to ±0 with the result's sign;
 *   - x / 0 gives (sign a ^ sign b) | FMAX;
 *   - madd/msub truncate the product, then truncate the sum.
 *
 * Method (the reference's validated recipe): decode both operands exactly into doubles, do the operation in
 * double where the double result is provably on the same side of every 24-bit grid point as the exact result
 * (products are exact; a quotient or root of 24-bit significands is never within half a double ulp of a grid
 * point unless it is on it), then truncate the double's bits. Sums use TwoSum to recover the rounding error
 * of the double addition and step down one ulp when the double rounded up onto a grid point. Square roots use
 * the bit-by-bit integer root (the same algorithm newlib's `sqrtf` uses), so no `Math.sqrt` is involved.
 *
 * Hot paths: plain number arithmetic, one shared Float64Array/Uint32Array scratch, no BigInt, no allocation.
 */
import { detSqrt } from './det-math.js';

/** The sign bit of a pattern. */
export const EE_SIGN = 0x80000000;
/** The largest magnitude pattern, (2 - 2^-23)·2^128; saturated results are `sign | EE_FMAX`. */
export const EE_FMAX = 0x7fffffff;
/** 1.0 */
export const EE_ONE = 0x3f800000;
/** -1.0 */
export const EE_MINUS_ONE = 0xbf800000;
/** 0.5 */
export const EE_HALF = 0x3f000000;
/** The most negative pattern, -(2 - 2^-23)·2^128. */
export const EE_FMIN = 0xffffffff;

const FRAC_MASK = 0x007fffff;
const HIDDEN_BIT = 0x00800000;
const MAG_MASK = 0x7fffffff;

/**
 * Sign of sqrt.s of a zero (exponent-0) input. The reference sheet does not say; PCSX2's interpreter notes
 * that tests on hardware show √(−0) = +0 (the sign is dropped), so the result is always +0.
 */
export const EE_SQRT_OF_ZERO = 0x00000000;

/**
 * What `eeFromNumber` gives for NaN, which no EE value can hold: +0. (±Infinity saturates to ±FMAX.)
 * A defined answer so callers never see an exception.
 */
export const EE_FROM_NAN = 0x00000000;

// Scratch view of a double's bits. Little-endian hosts store the high word second.
const scratchF64 = new Float64Array(1);
const scratchU32 = new Uint32Array(scratchF64.buffer);
const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HI = HOST_LITTLE_ENDIAN ? 1 : 0;
const LO = HOST_LITTLE_ENDIAN ? 0 : 1;

/** SCALE[e] = 2^(e - 150): the weight of the significand's lowest bit for biased exponent e (exact). */
const SCALE = new Float64Array(256);
{
  let w = 1;
  for (let i = 0; i < 150; i++) w /= 2; // exact: powers of two down to 2^-150 are normal doubles
  for (let e = 0; e < 256; e++) {
    SCALE[e] = w;
    w *= 2;
  }
}

/** The magnitude of a pattern as a double (exact); 0 for exponent 0. */
function magnitude(a: number): number {
  const e = (a >>> 23) & 0xff;
  return e === 0 ? 0 : ((a & FRAC_MASK) | HIDDEN_BIT) * SCALE[e]!;
}

/**
 * Truncates a non-negative double `mag` (zero, or between 2^-300 and 2^300) to an EE pattern with sign bit
 * `sign` (0 or EE_SIGN): clears the double's low 29 significand bits, saturates above the range, flushes below.
 */
function packMagnitude(mag: number, sign: number): number {
  scratchF64[0] = mag;
  const hi = scratchU32[HI]!;
  const e = ((hi >>> 20) & 0x7ff) - 896; // double bias 1023 -> float bias 127
  if (e > 255) return (sign | MAG_MASK) >>> 0;
  if (e < 1) return sign >>> 0;
  return (sign | (e << 23) | ((hi & 0xfffff) << 3) | (scratchU32[LO]! >>> 29)) >>> 0;
}

/** The exact value of a pattern as a double; exponent 0 → ±0, exponent 255 an ordinary (finite) number. */
export function eeToNumber(a: number): number {
  const m = magnitude(a);
  return a & EE_SIGN ? -m : m;
}

/**
 * A JS number as an EE pattern, truncated toward zero; ±Infinity and values beyond the range → ±FMAX,
 * magnitudes below 2^-126 → ±0 (sign kept), NaN → EE_FROM_NAN.
 */
export function eeFromNumber(x: number): number {
  if (x !== x) return EE_FROM_NAN;
  if (x === Infinity) return EE_FMAX;
  if (x === -Infinity) return EE_FMIN;
  scratchF64[0] = x;
  const sign = scratchU32[HI]! & EE_SIGN;
  return packMagnitude(x < 0 ? -x : x, sign);
}

/** add.s: the exact sum truncated toward zero. */
export function eeAdd(a: number, b: number): number {
  const ea = (a >>> 23) & 0xff;
  const eb = (b >>> 23) & 0xff;
  if (ea === 0) {
    if (eb === 0) return (a & b & EE_SIGN) >>> 0; // −0 only when both are −0
    return b >>> 0; // one zero: the other operand's bits, unchanged
  }
  if (eb === 0) return a >>> 0;
  const ma = ((a & FRAC_MASK) | HIDDEN_BIT) * SCALE[ea]!;
  const mb = ((b & FRAC_MASK) | HIDDEN_BIT) * SCALE[eb]!;
  const va = a & EE_SIGN ? -ma : ma;
  const vb = b & EE_SIGN ? -mb : mb;
  const s = va + vb;
  if (s === 0) return 0; // exact cancellation → +0 (a double sum is 0 only when the exact sum is)
  // TwoSum: s + err is the exact sum.
  const bv = s - va;
  const err = va - (s - bv) + (vb - bv);
  const sign = s < 0 ? EE_SIGN : 0;
  const mag = s < 0 ? -s : s;
  scratchF64[0] = mag;
  const hi = scratchU32[HI]!;
  const e = ((hi >>> 20) & 0x7ff) - 896;
  if (e > 255) return (sign | MAG_MASK) >>> 0;
  if (e < 1) return sign >>> 0;
  const lo = scratchU32[LO]!;
  let bits = (e << 23) | ((hi & 0xfffff) << 3) | (lo >>> 29);
  // The double rounded away from zero onto a 24-bit grid point: the exact sum lies just inside it.
  if (err !== 0 && (lo & 0x1fffffff) === 0 && err < 0 !== s < 0) {
    bits -= 1;
    if (bits < HIDDEN_BIT) return sign >>> 0;
  }
  return (sign | bits) >>> 0;
}

/** sub.s: a − b = add(a, b with its sign flipped). */
export function eeSub(a: number, b: number): number {
  return eeAdd(a, (b ^ EE_SIGN) >>> 0);
}

/** mul.s: the exact product (exact in a double: 24 × 24 bits) truncated toward zero. */
export function eeMul(a: number, b: number): number {
  const sign = (a ^ b) & EE_SIGN;
  const ea = (a >>> 23) & 0xff;
  const eb = (b >>> 23) & 0xff;
  if (ea === 0 || eb === 0) return sign >>> 0;
  return packMagnitude(
    ((a & FRAC_MASK) | HIDDEN_BIT) * SCALE[ea]! * (((b & FRAC_MASK) | HIDDEN_BIT) * SCALE[eb]!),
    sign,
  );
}

/** div.s: the exact quotient truncated toward zero; x / 0 → (sign a ^ sign b) | FMAX (0/0 included). */
export function eeDiv(a: number, b: number): number {
  const sign = (a ^ b) & EE_SIGN;
  const ea = (a >>> 23) & 0xff;
  const eb = (b >>> 23) & 0xff;
  if (eb === 0) return (sign | MAG_MASK) >>> 0;
  if (ea === 0) return sign >>> 0;
  return packMagnitude(
    (((a & FRAC_MASK) | HIDDEN_BIT) * SCALE[ea]!) / (((b & FRAC_MASK) | HIDDEN_BIT) * SCALE[eb]!),
    sign,
  );
}

/** madd.s: acc + a·b with the product truncated first, then the sum. */
export function eeMadd(acc: number, a: number, b: number): number {
  return eeAdd(acc, eeMul(a, b));
}

/** msub.s: acc − a·b with the product truncated first, then the difference. */
export function eeMsub(acc: number, a: number, b: number): number {
  return eeAdd(acc, (eeMul(a, b) ^ EE_SIGN) >>> 0);
}

/** neg.s: flips the sign bit (no normalisation). */
export function eeNeg(a: number): number {
  return (a ^ EE_SIGN) >>> 0;
}

/** abs.s: clears the sign bit (no normalisation). */
export function eeAbs(a: number): number {
  return (a & MAG_MASK) >>> 0;
}

/**
 * The bit-by-bit square root of a positive non-zero pattern's magnitude (the restoring algorithm of
 * fdlibm's `__ieee754_sqrtf`): 25 root bits, then rounding to nearest (`round`) or truncation.
 */
function bitwiseRoot(a: number, round: boolean): number {
  let exp = ((a >>> 23) & 0xff) - 127;
  let rem = (a & FRAC_MASK) | HIDDEN_BIT;
  if (exp & 1) rem += rem; // make the exponent even
  exp >>= 1; // floor(exp / 2)
  rem += rem;
  let root = 0; // the root so far, with a one-bit guard below the 24 kept bits
  let twice = 0; // 2·root, aligned with rem
  for (let bit = 0x01000000; bit !== 0; bit >>>= 1) {
    const trial = twice + bit;
    if (trial <= rem) {
      twice = trial + bit;
      rem -= trial;
      root += bit;
    }
    rem += rem;
  }
  // A root is never exactly halfway between two 24-bit values, so a set guard bit with a non-zero
  // remainder means "above halfway": round up. Truncation just drops the guard bit.
  if (round && rem !== 0) root += root & 1;
  return ((root >>> 1) + ((exp + 126) << 23)) >>> 0;
}

/** sqrt.s: the root of the magnitude (negative inputs allowed), truncated; exponent-0 input → EE_SQRT_OF_ZERO. */
export function eeSqrt(a: number): number {
  if ((a & 0x7f800000) === 0) return EE_SQRT_OF_ZERO;
  return bitwiseRoot(a, false);
}

/**
 * newlib `sqrtf` (`__ieee754_sqrtf`), as linked into the game: the bit-by-bit root rounded to nearest.
 * An exponent-0 input is returned unchanged (e.g. 0x00000005); a negative input gives (x−x)/(x−x) = 0/0,
 * which the EE turns into +FMAX.
 */
export function sqrtfNewlib(a: number): number {
  if ((a & 0x7f800000) === 0) return a >>> 0;
  if (a & EE_SIGN) return EE_FMAX;
  return bitwiseRoot(a, true);
}

/**
 * rsqrt.s: a / √|b| truncated once (not a division by a truncated root). Sign of a; b with exponent 0 →
 * (sign a) | FMAX like a division by zero; a with exponent 0 → a zero with a's sign. Exact: with integer
 * significands A, B (B doubled to make b's exponent even), the result's significand is
 * floor(√floor(A²·2^26 / B)) (24 to 26 bits, then truncated to 24), computed by long division in doubles
 * and an integer root.
 */
export function eeRsqrt(a: number, b: number): number {
  const sign = a & EE_SIGN;
  const eb = (b >>> 23) & 0xff;
  if (eb === 0) return (sign | MAG_MASK) >>> 0;
  const ea = (a >>> 23) & 0xff;
  if (ea === 0) return sign >>> 0;
  const sigA = (a & FRAC_MASK) | HIDDEN_BIT;
  let sigB = (b & FRAC_MASK) | HIDDEN_BIT;
  let expB = eb - 150; // b = sigB·2^expB
  if (expB & 1) {
    sigB *= 2;
    expB -= 1;
  }
  // N = floor(A²·2^26 / B) in two exact steps (A² < 2^48, B < 2^25); N ∈ [2^47, 2^51)
  const sq = sigA * sigA;
  let hiQ = Math.floor(sq / sigB);
  let rem = sq - hiQ * sigB;
  if (rem < 0) {
    hiQ -= 1;
    rem += sigB;
  } else if (rem >= sigB) {
    hiQ += 1;
    rem -= sigB;
  }
  const scaled = rem * 67108864; // < 2^51
  let loQ = Math.floor(scaled / sigB);
  const rem2 = scaled - loQ * sigB;
  if (rem2 < 0) loQ -= 1;
  else if (rem2 >= sigB) loQ += 1;
  const n = hiQ * 67108864 + loQ; // exact
  let root = Math.floor(detSqrt(n));
  if (root * root > n) root -= 1;
  else if ((root + 1) * (root + 1) <= n) root += 1;
  // value = root · 2^(ea − 150 − 13 − expB/2); root ∈ [2^23.5, 2^25.5): truncate to 24 bits
  let exp = ea - 150 - 13 - expB / 2;
  while (root >= 16777216) {
    root = Math.floor(root / 2);
    exp += 1;
  }
  const e = exp + 150;
  if (e > 255) return (sign | MAG_MASK) >>> 0;
  if (e < 1) return sign >>> 0;
  return (sign | (e << 23) | (root - HIDDEN_BIT)) >>> 0;
}

/** cvt.s.w: a signed 32-bit integer to a float, truncating above 2^24 (0x01000001 → 16777216.0). */
export function eeFromInt(i: number): number {
  i |= 0;
  if (i === 0) return 0;
  return i < 0 ? packMagnitude(-i, EE_SIGN) : packMagnitude(i, 0);
}

/** cvt.w.s: toward zero, saturating to INT_MIN/INT_MAX; exponent 0 → 0. Returns a signed int32. */
export function eeToInt(a: number): number {
  const m = magnitude(a);
  if (a & EE_SIGN) return m >= 2147483648 ? -2147483648 : -Math.trunc(m) | 0;
  return m >= 2147483647 ? 2147483647 : Math.trunc(m);
}

/**
 * The game's unsigned-to-float conversion (`u2f`): with the top bit set it halves the value keeping the low
 * bit, converts with cvt.s.w, and doubles with add.s; otherwise a plain cvt.s.w.
 */
export function eeFromUint(u: number): number {
  u >>>= 0;
  if (u < 0x80000000) return eeFromInt(u);
  const half = eeFromInt((u >>> 1) | (u & 1));
  return eeAdd(half, half);
}

/** c.lt.s: exact value comparison; any two zeros are equal; exponent 255 compares as a number. */
export function eeCompareLt(a: number, b: number): boolean {
  return eeToNumber(a) < eeToNumber(b);
}

/** c.le.s */
export function eeCompareLe(a: number, b: number): boolean {
  return eeToNumber(a) <= eeToNumber(b);
}

/** c.eq.s: any two zeros are equal (0x00001234 == 0x80000000). */
export function eeCompareEq(a: number, b: number): boolean {
  return eeToNumber(a) === eeToNumber(b);
}

/** max.s: the larger value (the first operand when they are equal). */
export function eeMax(a: number, b: number): number {
  return eeToNumber(b) > eeToNumber(a) ? b >>> 0 : a >>> 0;
}

/** min.s: the smaller value (the first operand when they are equal). */
export function eeMin(a: number, b: number): number {
  return eeToNumber(b) < eeToNumber(a) ? b >>> 0 : a >>> 0;
}

/**
 * C `fmod` done through double, as GetHeight does it (`(float)fmod((double)x, (double)y)`): exact (the
 * remainder of two floats is representable), an exponent-0 result becomes a signed zero. A zero divisor,
 * which the field code never passes, gives +FMAX, the EE image of the NaN `fmod(x, 0)` would produce.
 */
export function eeFmodViaDouble(x: number, y: number): number {
  if ((y & 0x7f800000) === 0) return EE_FMAX;
  const r = eeToNumber(x) % eeToNumber(y); // JS % is C fmod: exact, sign of the dividend
  scratchF64[0] = r;
  return packMagnitude(r < 0 ? -r : r, scratchU32[HI]! & EE_SIGN);
}
