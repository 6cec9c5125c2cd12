/**
 * PsyQ libgte's VectorNormal, as the PlayStation runs it (the Rugrats segment test calls it at 0x8009f278).
 * The routine is hand-written assembly around the GTE: the inputs pass through the 16-bit IR registers, the
 * squares are summed with the trapping `add`, and a 192-entry reciprocal-square-root table scales the result.
 * docs/formats/rugrats-col.md lists the steps this follows.
 */

/** Integer square root (floor) of a non-negative integer below 2^31, by bisection: no Math.sqrt. */
function isqrtFloor(n: number): number {
  let lo = 0;
  let hi = 46341; // 46341^2 > 2^31
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (mid * mid <= n) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The reciprocal-square-root table: entry n − 64 for mantissa n in 64..255 is ⌊√(2^30 / n)⌋, which equals the
 * integer square root of ⌊2^30 / n⌋. Built once at load with integer arithmetic; the tests check it against the
 * reference sheet's sum and CRC-32 and a sample of its printed values.
 */
export const VECTOR_NORMAL_RSQRT: Int16Array = (() => {
  const t = new Int16Array(192);
  for (let n = 64; n < 256; n++) t[n - 64] = isqrtFloor(Math.floor(0x40000000 / n));
  return t;
})();

/**
 * What `vectorNormal` returns when the original would raise Arithmetic Overflow in one of its two trapping
 * adds (the sum of squares passing 2^31 − 1). The outputs are then zeroed: the original never returns, so the
 * port's answer is a choice, and a zero vector is the one the Rugrats port documents.
 */
export const VECTOR_NORMAL_TRAPPED = -1;

/**
 * VectorNormal(in, out): writes the 4.12 unit vector of (x, y, z) into out[o], out[o+1], out[o+2] and returns
 * the squared length of the 16-bit-truncated input, or VECTOR_NORMAL_TRAPPED (out zeroed) where the original
 * traps. Allocation-free; inputs are read as 32-bit integers.
 */
export function vectorNormal(x: number, y: number, z: number, out: Int32Array | number[], o = 0): number {
  // 1. The IR registers keep the low 16 bits, read as signed.
  const a = (x << 16) >> 16;
  const b = (y << 16) >> 16;
  const c = (z << 16) >> 16;
  // 2-3. Squares (each ≤ 2^30) summed with the trapping add: either partial sum above 2^31 − 1 traps.
  const s1 = a * a + b * b;
  const s = s1 + c * c;
  if (s1 > 0x7fffffff || s > 0x7fffffff) {
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = 0;
    return VECTOR_NORMAL_TRAPPED;
  }
  // 4-5. Leading zeros rounded down to even; the output shift (31 − E) >> 1 uses its low 5 bits (−1 → 31).
  const e = Math.clz32(s) & ~1;
  const sh = ((31 - e) >> 1) & 31;
  // 6-7. The mantissa in 64..255 picks the table entry. For s = 0 the index lies before the table, but every
  // component is then 0 so the value read does not matter: use 0.
  const m = e < 24 ? s >> (24 - e) : s << (e - 24);
  const f = m >= 64 ? VECTOR_NORMAL_RSQRT[m - 64]! : 0;
  // 8-9. GPF with sf = 0: MAC = F × component (|F × c| ≤ 2^27, exact), then an arithmetic shift.
  out[o] = (f * a) >> sh;
  out[o + 1] = (f * b) >> sh;
  out[o + 2] = (f * c) >> sh;
  return s;
}
