/**
 * An exact model of the EE FPU rules for the property tests, independent of the implementation under test:
 * operands become exact BigInt rationals, the operation is done exactly, then the EE rules (truncation to
 * 24 significant bits, saturation, flush to zero, the zero rules) are applied to the exact result. Slow on
 * purpose; used only in tests.
 */

export const SIGN = 0x80000000;
export const FMAX = 0x7fffffff;

/** An EE operand as sign · mant · 2^exp (mant 0 for an exponent-0 pattern). */
export interface Exact {
  neg: boolean;
  mant: bigint;
  exp: number;
}

export function decode(bits: number): Exact {
  const e = (bits >>> 23) & 0xff;
  const neg = bits >>> 31 === 1;
  if (e === 0) return { neg, mant: 0n, exp: 0 };
  return { neg, mant: BigInt((bits & 0x7fffff) | 0x800000), exp: e - 150 };
}

const bitLength = (v: bigint): number => v.toString(2).length;

/**
 * The EE pattern of the positive rational num/den · 2^exp2 truncated toward zero, with sign `neg`.
 */
export function packExact(neg: boolean, num: bigint, den: bigint, exp2: number): number {
  const sign = neg ? SIGN : 0;
  // choose s so that floor(num · 2^s / den) has exactly 24 bits
  let s = 24 - (bitLength(num) - bitLength(den));
  const q = (shift: number): bigint => (shift >= 0 ? (num << BigInt(shift)) / den : num / (den << BigInt(-shift)));
  let m = q(s);
  while (m >= 1n << 24n) m = q(--s);
  while (m < 1n << 23n) m = q(++s);
  const e = exp2 - s + 150;
  if (e > 255) return (sign | FMAX) >>> 0;
  if (e < 1) return sign >>> 0;
  return (sign | (e << 23) | Number(m - (1n << 23n))) >>> 0;
}

export function refAdd(a: number, b: number): number {
  const x = decode(a);
  const y = decode(b);
  if (x.mant === 0n && y.mant === 0n) return (a & b & SIGN) >>> 0;
  if (x.mant === 0n) return b >>> 0;
  if (y.mant === 0n) return a >>> 0;
  const e = Math.min(x.exp, y.exp);
  const vx = (x.mant << BigInt(x.exp - e)) * (x.neg ? -1n : 1n);
  const vy = (y.mant << BigInt(y.exp - e)) * (y.neg ? -1n : 1n);
  const sum = vx + vy;
  if (sum === 0n) return 0;
  return sum < 0n ? packExact(true, -sum, 1n, e) : packExact(false, sum, 1n, e);
}

export const refSub = (a: number, b: number): number => refAdd(a, (b ^ SIGN) >>> 0);

export function refMul(a: number, b: number): number {
  const x = decode(a);
  const y = decode(b);
  const neg = x.neg !== y.neg;
  if (x.mant === 0n || y.mant === 0n) return neg ? SIGN : 0;
  return packExact(neg, x.mant * y.mant, 1n, x.exp + y.exp);
}

export function refDiv(a: number, b: number): number {
  const x = decode(a);
  const y = decode(b);
  const neg = x.neg !== y.neg;
  if (y.mant === 0n) return ((neg ? SIGN : 0) | FMAX) >>> 0;
  if (x.mant === 0n) return neg ? SIGN : 0;
  return packExact(neg, x.mant, y.mant, x.exp - y.exp);
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt((bitLength(n) >> 1) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** The root of |a| with 24 significant bits: truncated, or rounded to nearest. */
function refRoot(a: number, nearest: boolean): number {
  const x = decode(a);
  let mant = x.mant;
  let exp = x.exp;
  if (exp % 2 !== 0) {
    mant <<= 1n;
    exp -= 1;
  }
  // sqrt(mant · 2^(2t)) · 2^(exp/2 - t) with t picked so the integer root has 24 bits
  let t = 0;
  while (bitLength(isqrt(mant << BigInt(2 * t))) < 24) t++;
  const wide = mant << BigInt(2 * t);
  let r = isqrt(wide);
  if (nearest && wide - r * r > r) r += 1n;
  // packExact re-normalises a carry to 2^24
  return packExact(false, r, 1n, exp / 2 - t);
}

export function refSqrtS(a: number): number {
  if (((a >>> 23) & 0xff) === 0) return 0;
  return refRoot(a, false);
}

export function refSqrtf(a: number): number {
  if (((a >>> 23) & 0xff) === 0) return a >>> 0;
  if (a >>> 31) return FMAX;
  return refRoot(a, true);
}

/** rsqrt.s: a / √|b| truncated once; b zero → (sign a) | FMAX; a zero → a's signed zero. */
export function refRsqrt(a: number, b: number): number {
  const x = decode(a);
  const y = decode(b);
  if (y.mant === 0n) return ((x.neg ? SIGN : 0) | FMAX) >>> 0;
  if (x.mant === 0n) return x.neg ? SIGN : 0;
  // |a|/√|b| = √(A²·2^(2ea) / (B·2^eb)); with eb even: A·2^(ea − eb/2) / √B
  let mant = y.mant;
  let exp = y.exp;
  if (exp % 2 !== 0) {
    mant <<= 1n;
    exp -= 1;
  }
  // floor(√(A²·2^(2t)/B)) with t large enough for 26 bits, then packExact truncates to 24
  const t = 30;
  const r = isqrt((x.mant * x.mant << BigInt(2 * t)) / mant);
  return packExact(x.neg, r, 1n, x.exp - exp / 2 - t);
}

export function refFromInt(i: number): number {
  i |= 0;
  if (i === 0) return 0;
  const v = BigInt(i);
  return v < 0n ? packExact(true, -v, 1n, 0) : packExact(false, v, 1n, 0);
}

export function refToInt(a: number): number {
  const x = decode(a);
  if (x.mant === 0n) return 0;
  let t = x.exp >= 0 ? x.mant << BigInt(x.exp) : x.mant >> BigInt(-x.exp);
  if (x.neg) t = -t;
  if (t > 2147483647n) return 2147483647;
  if (t < -2147483648n) return -2147483648;
  return Number(t);
}

/** Signed comparison key of two operands: -1, 0, 1 (all zeros equal). */
export function refCompare(a: number, b: number): number {
  const x = decode(a);
  const y = decode(b);
  const e = Math.min(x.exp, y.exp);
  const vx = x.mant === 0n ? 0n : (x.mant << BigInt(x.exp - e)) * (x.neg ? -1n : 1n);
  const vy = y.mant === 0n ? 0n : (y.mant << BigInt(y.exp - e)) * (y.neg ? -1n : 1n);
  return vx < vy ? -1 : vx > vy ? 1 : 0;
}

/** A finite double's exact value, truncated under the EE rules. */
export function refFromNumber(v: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const bits = view.getBigUint64(0);
  const neg = bits >> 63n === 1n;
  const ebits = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  if (ebits === 0 && frac === 0n) return neg ? SIGN : 0;
  const mant = ebits === 0 ? frac : frac | (1n << 52n);
  const exp = (ebits === 0 ? 1 : ebits) - 1075;
  return packExact(neg, mant, 1n, exp);
}

/**
 * Deterministic operand generator (mulberry32) producing patterns that cover every exponent (0 and 255
 * included), both signs, and the mantissas that matter most: random, all ones, all zeros, a single bit.
 */
export class PatternGen {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  u32(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  int(n: number): number {
    return this.u32() % n;
  }
  mantissa(): number {
    switch (this.int(8)) {
      case 0:
        return 0;
      case 1:
        return 0x7fffff;
      case 2:
        return 1 << this.int(23);
      case 3:
        return 0x7fffff ^ (1 << this.int(23));
      default:
        return this.u32() & 0x7fffff;
    }
  }
  exponent(): number {
    switch (this.int(10)) {
      case 0:
        return 0;
      case 1:
        return 255;
      case 2:
        return 1 + this.int(3);
      case 3:
        return 252 + this.int(3);
      case 4:
      case 5:
        return 100 + this.int(55); // ordinary magnitudes
      default:
        return this.int(256);
    }
  }
  pattern(): number {
    const sign = this.int(2) ? SIGN : 0;
    return (sign | (this.exponent() << 23) | this.mantissa()) >>> 0;
  }
  /** A second operand near the first one's exponent (cancellation, carries) or far from it. */
  partner(a: number): number {
    const mode = this.int(4);
    if (mode === 0) return this.pattern();
    const ea = (a >>> 23) & 0xff;
    const delta = mode === 1 ? this.int(3) - 1 : mode === 2 ? this.int(60) - 30 : 0;
    const e = Math.min(255, Math.max(0, ea + delta));
    const sign = this.int(2) ? SIGN : 0;
    const mant = mode === 3 ? (a & 0x7fffff) ^ (this.int(2) ? 0 : 1 << this.int(23)) : this.mantissa();
    return (sign | (e << 23) | mant) >>> 0;
  }
}
