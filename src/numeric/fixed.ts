/**
 * Fixed-point helpers. Storage stays integer; these convert to floats for views and do the integer
 * products with the rounding each format's engine uses.
 *
 *   4.12  (FP12):  1.0 = 4096, in a 16-bit word (PS1 normals and directions)
 *   20.12:         1.0 = 4096, in a 32-bit word (PS1 positions)
 *   x128:          1 unit = 128 (COLBIN positions, GTA COL2+ vertices as int16)
 */

export const ONE_FP12 = 4096;
export const FP12_SHIFT = 12;
export const ONE_X128 = 128;

/** A 4.12 or 20.12 integer as a float. */
export const fp12ToFloat = (v: number): number => v / 4096;
/** A float as 4.12/20.12, truncated toward zero (as a C cast does). */
export const floatToFp12 = (f: number): number => Math.trunc(f * 4096) | 0;
/** A float as 4.12/20.12, rounded to nearest (for writers making data). */
export const floatToFp12Round = (f: number): number => Math.round(f * 4096) | 0;

/** An x128 integer as a float. */
export const x128ToFloat = (v: number): number => v / 128;
/** A float as x128, rounded to nearest (writers). */
export const floatToX128 = (f: number): number => Math.round(f * 128) | 0;

/** Scratch results of mul64: the signed 64-bit product as two 32-bit words. */
export const mul64Result = { hi: 0, lo: 0 };

/**
 * The full signed 64-bit product of two int32 values (`mult` with both mfhi and mflo), into
 * `mul64Result` (hi signed, lo unsigned). No BigInt, no allocation.
 */
export function mul64(a: number, b: number): void {
  a |= 0;
  b |= 0;
  const neg = a < 0 !== b < 0;
  const ua = a < 0 ? -a : a; // up to 2^31, exact as a double
  const ub = b < 0 ? -b : b;
  const aH = Math.floor(ua / 65536), aL = ua % 65536, bH = Math.floor(ub / 65536), bL = ub % 65536;
  // ua*ub = aH*bH*2^32 + (aH*bL + aL*bH)*2^16 + aL*bL, each term exact in a double
  const ll = aL * bL;
  const mid = aH * bL + aL * bH; // < 2^34
  const midLo = mid % 65536;
  const midHi = Math.floor(mid / 65536);
  let lo = ll + midLo * 65536; // < 2^33
  let hi = aH * bH + midHi + Math.floor(lo / 4294967296);
  lo = lo % 4294967296;
  if (neg && (lo !== 0 || hi !== 0)) {
    // two's complement of (hi:lo)
    lo = (4294967296 - lo) % 4294967296;
    hi = lo === 0 ? -hi : -hi - 1;
  }
  mul64Result.hi = hi | 0;
  mul64Result.lo = lo >>> 0;
}

/**
 * Product of two 20.12 values as 20.12: the exact 64-bit product shifted right arithmetically by 12
 * (rounds toward minus infinity, as `mult; mflo/mfhi; srl/sll/or` sequences do), low 32 bits kept.
 */
export function mulFp12(a: number, b: number): number {
  mul64(a, b);
  return ((mul64Result.hi << 20) | (mul64Result.lo >>> 12)) | 0;
}

/** Same as mulFp12 but rounding toward zero, as C `(a*b)/4096` on 64-bit products does. */
export function mulFp12Trunc(a: number, b: number): number {
  mul64(a, b);
  const floored = ((mul64Result.hi << 20) | (mul64Result.lo >>> 12)) | 0;
  const negative = mul64Result.hi < 0;
  return negative && (mul64Result.lo & 0xfff) !== 0 ? (floored + 1) | 0 : floored;
}
