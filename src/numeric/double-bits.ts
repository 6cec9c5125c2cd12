/**
 * A double's bits for the deterministic maths (det-*.ts): its high word and exponent, exact powers of two,
 * and the one rounding of a double-double scaled by a power of two (into the subnormal range included).
 * Only exact operations: typed-array bit access, comparisons, products by powers of two, Math.floor.
 */

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HI = HOST_LITTLE_ENDIAN ? 1 : 0;
const LO = HOST_LITTLE_ENDIAN ? 0 : 1;

/** The high 32 bits of a double (sign, exponent, top 20 fraction bits) as a signed int. */
export function highWord(x: number): number {
  f64[0] = x;
  return u32[HI]! | 0;
}

/** `x` with its low 32 bits cleared. */
export function clearLowWord(x: number): number {
  f64[0] = x;
  u32[LO] = 0;
  return f64[0]!;
}

/** The double whose high word is `hi` and low word `lo`. */
export function fromWords(hi: number, lo: number): number {
  u32[HI] = hi;
  u32[LO] = lo;
  return f64[0]!;
}

/** The biased exponent field of `x` (0 for zeros and subnormals, 2047 for infinities and NaN). */
export function exponentField(x: number): number {
  return (highWord(x) >>> 20) & 0x7ff;
}

/** POW2[k + 1074] = 2^k for every integer k in [−1074, 1023] (exact; built by doubling from 2^−1074). */
const POW2 = new Float64Array(2098);
{
  let v = 5e-324; // 2^−1074, the smallest subnormal
  for (let i = 0; i < POW2.length; i++) {
    POW2[i] = v;
    v *= 2;
  }
}

/** 2^k for an integer k in [−1074, 1023] (exact). */
export function pow2(k: number): number {
  return POW2[k + 1074]!;
}

/**
 * x·2^k for any integer k, exact while the result is normal (two steps, so 2^k itself need not be a double).
 */
export function scaleByPow2(x: number, k: number): number {
  if (k > 1023) return x * pow2(1023) * pow2(k - 1023 > 1023 ? 1023 : k - 1023);
  if (k < -1022) return x * pow2(-1022) * pow2(k + 1022 < -1074 ? -1074 : k + 1022);
  return x * pow2(k);
}

const TWO_POW_52 = 4503599627370496;

/**
 * (h + l)·2^m rounded once to the nearest double (ties to even), for a normalised double-double h + l
 * (|l| ≤ half an ulp of h, h a positive normal double): in the normal range the sum is rounded, then
 * scaled exactly; where the result is subnormal it is rounded on the subnormal grid directly, so that it is
 * not rounded twice. Overflows to Infinity.
 */
export function roundScaled(h: number, l: number, m: number): number {
  const v = h + l;
  // The exponent of the result if v·2^m is normal: exponentField(v) − 1023 + m.
  const e = exponentField(v) - 1023 + m;
  if (e >= -1022) return scaleByPow2(v, m);
  if (e < -1080) return 0; // below half the smallest subnormal
  // In units of 2^−1074: V = (h + l)·2^(m + 1074) < 2^52, exact products (both stay normal or zero).
  const s = m + 1074;
  const hv = scaleByPow2(h, s);
  const lv = scaleByPow2(l, s);
  const n = hv + TWO_POW_52 - TWO_POW_52; // hv to the nearest integer, ties to even
  const f = hv - n; // exact
  let k = n;
  if (f === 0.5) {
    if (lv > 0) k = n + 1;
  } else if (f === -0.5) {
    if (lv < 0) k = n - 1;
  } else if (f + lv > 0.5) k = n + 1;
  else if (f + lv < -0.5) k = n - 1;
  return k * 5e-324; // exact: k < 2^53
}
