/**
 * The integer arithmetic the engine's collision code runs on, as psyqo and the GTE define it, plus the one
 * place where we had to choose (normalisation). Everything is integer in, integer out, no allocation.
 *
 *  - psyqo FixedPoint<12> `a * b`: 64-bit product, C division by 4096 (toward zero), kept as int32.
 *  - GTE cross product (`op`, sf = 1): 16-bit operands, exact sum, arithmetic >> 12 (toward −∞).
 *  - GTE `mvmva` (sf = 1, lm = 0): 16-bit matrix and vector, exact sum, >> 12, IR saturated to 16 bits.
 */
import { mulFp12Trunc } from '../../numeric/fixed.js';

const TWO_POW_53 = 9007199254740992;

/** psyqo FixedPoint<12> multiply: trunc(a·b / 4096), wrapped to int32 (the 64-bit product is exact here). */
export function mulFx(a: number, b: number): number {
  const p = a * b;
  // Below 2^53 the product is exact, and ToInt32 of p / 4096 truncates toward zero and wraps, as C does.
  if (p < TWO_POW_53 && p > -TWO_POW_53) return (p / 4096) | 0;
  return mulFp12Trunc(a, b);
}

/** Sign-extends the low 16 bits: what a GTE matrix, V or IR register keeps of a 32-bit raw value. */
export const gte16 = (v: number): number => (v << 16) >> 16;

/** GTE IR saturation with lm = 0. */
export const irSaturate = (v: number): number => (v > 32767 ? 32767 : v < -32768 ? -32768 : v);

/**
 * floor(√n) for an integer 0 ≤ n < 2^53, exactly, without Math.sqrt. Below 2^32 (every normalisation of
 * sane axes) it is the digit-by-digit method, two result bits per step; above, Newton's iteration from a
 * power of two above the root, then a final correction (x·x is exact because x < 2^26.5).
 */
export function isqrt(n: number): number {
  if (!(n > 0)) return 0;
  if (n < 4294967296) {
    let rem = n;
    let root = 0;
    let bit = 1 << ((31 - Math.clz32(n)) & ~1);
    while (bit !== 0) {
      const t = root + bit;
      if (rem >= t) {
        rem -= t;
        root = (root >>> 1) + bit;
      } else root >>>= 1;
      bit >>>= 2;
    }
    return root;
  }
  const bits = 64 - Math.clz32(Math.floor(n / 4294967296));
  let x = 2 ** ((bits + 1) >> 1); // ≥ √n
  for (;;) {
    const y = Math.floor((x + Math.floor(n / x)) / 2);
    if (y >= x) break;
    x = y;
  }
  while (x * x > n) x--;
  while ((x + 1) * (x + 1) <= n) x++;
  return x;
}

/** Scratch output of normalizeFp12 (no allocation per call). */
export const normalized = new Int32Array(3);

/**
 * Normalises an FP12 direction into `normalized` (4096 = 1.0).
 *
 * CONVENTION (the engine's exact routine is not reproducible): psyqo's normalizeVec3 has changed between
 * releases (a shift-subtract square root, then a Newton inverse square root seeded from the GTE's leading-zero
 * count, with component errors up to about 10 raw units). We keep its observable rules, the squared length
 * as a sum of FixedPoint products and "a squared length of at most 1 raw unit gives (0, 0, 1.0)", and replace
 * the approximate reciprocal square root with the exact one: n = trunc(v · 4096 / floor(√(square · 4096))).
 */
export function normalizeFp12(x: number, y: number, z: number): void {
  const square = (mulFx(x, x) + mulFx(y, y) + mulFx(z, z)) | 0;
  if (square <= 1) {
    normalized[0] = 0;
    normalized[1] = 0;
    normalized[2] = 4096;
    return;
  }
  const len = isqrt(square * 4096);
  normalized[0] = Math.trunc((x * 4096) / len) | 0;
  normalized[1] = Math.trunc((y * 4096) / len) | 0;
  normalized[2] = Math.trunc((z * 4096) / len) | 0;
}

/** Scratch output of crossGte. */
export const crossed = new Int32Array(3);

/** GTE outer product a × b (psyqo GteMath::crossProductVec3): 16-bit inputs, >> 12 rounding toward −∞. */
export function crossGte(ax: number, ay: number, az: number, bx: number, by: number, bz: number): void {
  ax = gte16(ax);
  ay = gte16(ay);
  az = gte16(az);
  bx = gte16(bx);
  by = gte16(by);
  bz = gte16(bz);
  crossed[0] = Math.floor((ay * bz - az * by) / 4096);
  crossed[1] = Math.floor((az * bx - ax * bz) / 4096);
  crossed[2] = Math.floor((ax * by - ay * bx) / 4096);
}
