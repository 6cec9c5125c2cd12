/**
 * R3000A (PlayStation CPU) integer semantics and the GTE's 16-bit IR registers. Each helper is what one
 * instruction does, so ports of the original code can be written instruction for instruction.
 */

/** `mult` + `mflo`: the low 32 bits of the signed product (wraps). */
export const mul32 = (a: number, b: number): number => Math.imul(a, b);

/** `addu`: 32-bit wrapping add. */
export const add32 = (a: number, b: number): number => (a + b) | 0;

/** `subu`: 32-bit wrapping subtract. */
export const sub32 = (a: number, b: number): number => (a - b) | 0;

/**
 * `div` quotient: truncates toward zero. A zero divisor would trap (`break 7`) in compiled code; callers
 * must guard. Here it gives the hardware's value (-1 for a non-negative dividend, +1 otherwise) so nothing
 * throws. -2^31 / -1 gives -2^31 as on the hardware.
 */
export function div32(a: number, b: number): number {
  a |= 0;
  b |= 0;
  if (b === 0) return a >= 0 ? -1 : 1;
  return (a / b) | 0;
}

/** `div` remainder: takes the dividend's sign; equals the dividend on a zero divisor. */
export function rem32(a: number, b: number): number {
  a |= 0;
  b |= 0;
  if (b === 0) return a;
  return (a % b) | 0;
}

/** `sra`: arithmetic shift right (rounds toward minus infinity); the count uses its low 5 bits. */
export const sra = (a: number, n: number): number => a >> n;

/** `srl`: logical shift right, as an unsigned value. */
export const srl = (a: number, n: number): number => a >>> n;

/** C's signed `x / 2^n` as GCC compiles it: add 2^n - 1 when negative, then shift (rounds toward zero). */
export function divPow2(a: number, n: number): number {
  a |= 0;
  return (a < 0 ? (a + ((1 << n) - 1)) | 0 : a) >> n;
}

/** `lb`: sign-extend a byte. */
export const s8 = (v: number): number => (v << 24) >> 24;
/** `lbu`: zero-extend a byte. */
export const u8 = (v: number): number => v & 0xff;
/** `lh` / GTE IR read: sign-extend the low 16 bits. */
export const s16 = (v: number): number => (v << 16) >> 16;
/** `lhu`: zero-extend the low 16 bits. */
export const u16 = (v: number): number => v & 0xffff;

/** `slt`: signed less-than as 0/1. */
export const slt = (a: number, b: number): number => ((a | 0) < (b | 0) ? 1 : 0);
/** `sltu`: unsigned less-than as 0/1 (a negative value reads as huge). */
export const sltu = (a: number, b: number): number => (a >>> 0 < b >>> 0 ? 1 : 0);

/**
 * GTE LZCS/LZCR: the number of leading bits equal to the sign bit (leading zeros of a positive value,
 * leading ones of a negative one); 32 for 0 and for -1.
 */
export function lzcr(v: number): number {
  v |= 0;
  return Math.clz32(v < 0 ? ~v : v);
}

/**
 * The trapping `add` of hand-written assembly: returns the sum, or NaN when the signed result overflows 32
 * bits (where the CPU would raise Arithmetic Overflow). Callers decide what the port does then.
 */
export function addTrap(a: number, b: number): number {
  const s = (a | 0) + (b | 0);
  return s > 0x7fffffff || s < -0x80000000 ? NaN : s;
}

/** GTE IR with lm = 0: saturate to the signed 16-bit range. */
export function irSat(v: number): number {
  return v > 0x7fff ? 0x7fff : v < -0x8000 ? -0x8000 : v;
}
