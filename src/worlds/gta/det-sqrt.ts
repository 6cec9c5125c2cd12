/**
 * A square root built only from + - * / on doubles, which IEEE 754 defines exactly, so every machine gives the
 * same bits (Math.sqrt is banned from state by the project's rules). Newton's iteration from a fixed starting
 * guess; the result is within one unit in the last place of the true root, and always the same one.
 *
 * It is local to the GTA world until the shared deterministic math module is available.
 */
const TWO_64 = 18446744073709551616; // 2^64
const TWO_M64 = 1 / TWO_64;
const TWO_32 = 4294967296;
const TWO_M32 = 1 / TWO_32;

export function detSqrtGta(x: number): number {
  if (!(x > 0)) return x === 0 ? x : NaN; // ±0 stays, negatives and NaN give NaN
  if (x === Infinity) return x;
  // Scale into [1, 4) by exact powers of 4, remembering the matching power of 2.
  let s = x;
  let k = 1;
  while (s >= TWO_64) {
    s *= TWO_M64;
    k *= TWO_32;
  }
  while (s < TWO_M64) {
    s *= TWO_64;
    k *= TWO_M32;
  }
  while (s >= 4) {
    s *= 0.25;
    k *= 2;
  }
  while (s < 1) {
    s *= 4;
    k *= 0.5;
  }
  // Linear guess through (1, 1) and (4, 2): relative error under 6%, so five steps reach full precision.
  let y = (s + 2) / 3;
  y = 0.5 * (y + s / y);
  y = 0.5 * (y + s / y);
  y = 0.5 * (y + s / y);
  y = 0.5 * (y + s / y);
  y = 0.5 * (y + s / y);
  // One correction toward the nearer neighbour: pick whichever of y and the adjusted y squares closer to s.
  const r = s - y * y;
  const y2 = y + r / (2 * y);
  const r2 = s - y2 * y2;
  if ((r2 < 0 ? -r2 : r2) < (r < 0 ? -r : r)) y = y2;
  return y * k;
}
