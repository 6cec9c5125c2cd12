/**
 * A high-precision reference for the deterministic maths' tests: binary floating point on BigInt, m·2^e with
 * about 200 significant bits, and the elementary functions on it written out from their series (exp, ln,
 * sin/cos after an exact reduction by a 1,600-bit π/2, atan by argument halving, and the rest from these
 * in forms that do not cancel). Independent of the code under test: it shares no constant, table or
 * algorithm with src/numeric, only the definitions. `ulpError` measures a double against it.
 */

/** m·2^e; m = 0n is zero (no signed zero, no infinities: the tests handle those). */
export interface Big {
  m: bigint;
  e: number;
}

/** Significant bits kept by every operation. */
const P = 200;
const ZERO: Big = { m: 0n, e: 0 };

const bitLength = (m: bigint): number => (m < 0n ? -m : m).toString(2).length;

/** m·2^e with at most P significant bits (truncated). */
function norm(m: bigint, e: number): Big {
  if (m === 0n) return ZERO;
  const extra = bitLength(m) - P;
  if (extra > 0) return { m: m >> BigInt(extra), e: e + extra }; // toward −∞ for negatives: fine at 200 bits
  return { m, e };
}

/** The double x exactly (finite). */
export function big(x: number): Big {
  if (!Number.isFinite(x)) throw new RangeError(`big(${x}): not finite`);
  if (x === 0) return ZERO;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const field = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (field === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = field - 1075;
  }
  return { m: hi >>> 31 ? -m : m, e };
}

export const int = (n: number | bigint): Big => norm(BigInt(n), 0);
export const neg = (a: Big): Big => ({ m: -a.m, e: a.e });
export const abs = (a: Big): Big => ({ m: a.m < 0n ? -a.m : a.m, e: a.e });
export const sign = (a: Big): number => (a.m > 0n ? 1 : a.m < 0n ? -1 : 0);
export const isZero = (a: Big): boolean => a.m === 0n;
/** 2^k·a (exact). */
export const scale = (a: Big, k: number): Big => (a.m === 0n ? ZERO : { m: a.m, e: a.e + k });
/** floor(log2 |a|) for a ≠ 0. */
export const ilog2 = (a: Big): number => bitLength(a.m) - 1 + a.e;

export function add(a: Big, b: Big): Big {
  if (a.m === 0n) return b;
  if (b.m === 0n) return a;
  // Far apart: the smaller is below the last kept bit of the larger.
  if (ilog2(a) - ilog2(b) > P + 8) return a;
  if (ilog2(b) - ilog2(a) > P + 8) return b;
  const e = Math.min(a.e, b.e);
  return norm((a.m << BigInt(a.e - e)) + (b.m << BigInt(b.e - e)), e);
}
export const sub = (a: Big, b: Big): Big => add(a, neg(b));
export const mul = (a: Big, b: Big): Big => norm(a.m * b.m, a.e + b.e);
export function div(a: Big, b: Big): Big {
  if (b.m === 0n) throw new RangeError('division by zero');
  if (a.m === 0n) return ZERO;
  const shift = P + 8 + bitLength(b.m) - bitLength(a.m);
  return norm((a.m << BigInt(Math.max(shift, 0))) / b.m, a.e - b.e - Math.max(shift, 0));
}
export const cmp = (a: Big, b: Big): number => sign(sub(a, b));

/** ⌊√n⌋ for n ≥ 0. */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(bitLength(n) / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

export function sqrt(a: Big): Big {
  if (a.m < 0n) throw new RangeError('sqrt of a negative');
  if (a.m === 0n) return ZERO;
  let s = 2 * P + 16 - bitLength(a.m);
  if ((a.e - s) % 2 !== 0) s++;
  return norm(isqrt(a.m << BigInt(s)), (a.e - s) / 2);
}

/** ∛a (a ≥ 0). */
export function cbrt(a: Big): Big {
  if (a.m === 0n) return ZERO;
  let s = 3 * P + 16 - bitLength(a.m);
  while ((((a.e - s) % 3) + 3) % 3 !== 0) s++;
  const n = a.m << BigInt(s);
  let x = 1n << BigInt(Math.ceil(bitLength(n) / 3) + 1);
  for (;;) {
    const y = (2n * x + n / (x * x)) / 3n;
    if (y >= x) break;
    x = y;
  }
  return norm(x, (a.e - s) / 3);
}

// ---------------------------------------------------------------------------------------------------
// Constants, as fixed point with F fractional bits (computed once)

const F = 1700;
const ONE_F = 1n << BigInt(F);
const fixed = (v: bigint): Big => norm(v, -F);

/** atan(1/n)·2^F by its series. */
function atanInvFixed(n: bigint): bigint {
  let sum = 0n;
  let term = ONE_F / n;
  const n2 = n * n;
  for (let k = 1n, sgn = 1n; term !== 0n; k += 2n, sgn = -sgn) {
    sum += (sgn * term) / k;
    term /= n2;
  }
  return sum;
}
/** π·2^F (Machin: π = 16·atan(1/5) − 4·atan(1/239)). */
const PI_F = 16n * atanInvFixed(5n) - 4n * atanInvFixed(239n);
/** ln 2·2^F = Σ 1/(k·2^k). */
const LN2_F = (() => {
  let sum = 0n;
  for (let k = 1n; ; k++) {
    const t = ONE_F / (k << k);
    if (t === 0n) return sum;
    sum += t;
  }
})();
export const PI = fixed(PI_F);
export const PI_HALF = fixed(PI_F / 2n);
export const LN2 = fixed(LN2_F);

/** π/2 with F fractional bits, as a fixed-point integer (for the reduction of huge arguments). */
const PIO2_F = PI_F / 2n;

// ---------------------------------------------------------------------------------------------------
// Functions

const STOP = (term: Big, sum: Big): boolean => term.m === 0n || (sum.m !== 0n && ilog2(term) < ilog2(sum) - P - 4);

/** e^a − 1 by its series, for |a| ≤ 1 (relative precision even for tiny a). */
export function expm1Small(a: Big): Big {
  let term = a;
  let sum = a;
  for (let n = 2; ; n++) {
    term = div(mul(term, a), int(n));
    if (STOP(term, sum)) return sum;
    sum = add(sum, term);
  }
}

/** e^a, for |a| < 2^20. */
export function exp(a: Big): Big {
  if (a.m === 0n) return int(1);
  if (ilog2(abs(a)) >= 20) throw new RangeError('exp: |a| ≥ 2^20');
  // a = k·ln2 + r, |r| ≤ ln2/2; e^r = (e^(r/2^16))^(2^16)
  const k = Math.round(Number(div(a, LN2).m) * 2 ** div(a, LN2).e);
  const r = sub(a, mul(int(k), LN2));
  let y = add(int(1), expm1Small(scale(r, -16)));
  for (let i = 0; i < 16; i++) y = mul(y, y);
  return scale(y, k);
}

export function expm1(a: Big): Big {
  if (ilog2(abs(a)) < 0) return expm1Small(a);
  return sub(exp(a), int(1));
}

/** 2·atanh s = ln((1 + s)/(1 − s)) by its series, |s| ≤ 1/3 (relative precision). */
function twoAtanh(s: Big): Big {
  const s2 = mul(s, s);
  let term = s;
  let sum = s;
  for (let k = 3; ; k += 2) {
    term = mul(term, s2);
    const t = div(term, int(k));
    if (STOP(t, sum)) return scale(sum, 1);
    sum = add(sum, t);
  }
}

/** ln a, a > 0. */
export function log(a: Big): Big {
  if (a.m <= 0n) throw new RangeError('log of a non-positive');
  // a = m·2^e, m within [0.75, 1.5)
  let e = ilog2(a);
  let m = scale(a, -e); // [1, 2)
  if (cmp(m, { m: 3n, e: -1 }) >= 0) {
    m = scale(m, -1);
    e += 1;
  }
  const s = div(sub(m, int(1)), add(m, int(1)));
  return add(mul(int(e), LN2), twoAtanh(s));
}

/** ln(1 + a), a > −1 (relative precision for tiny a). */
export function log1p(a: Big): Big {
  if (ilog2(abs(a)) < -1) return twoAtanh(div(a, add(int(2), a)));
  return log(add(int(1), a));
}

/** The reduction x = n·π/2 + r, |r| ≤ π/4, exact to about 2^−F·n: r and n mod 4. */
function reduce(x: Big): { r: Big; n: number } {
  if (x.m === 0n || ilog2(abs(x)) < -1) return { r: x, n: 0 }; // |x| < 1/2
  // x·2^F as an integer (exact: every double is a multiple of 2^−1074, F > 1074)
  const X = x.m << BigInt(x.e + F);
  const half = PIO2_F / 2n;
  let n = (X + (X >= 0n ? half : -half)) / PIO2_F;
  const R = X - n * PIO2_F;
  n = ((n % 4n) + 4n) % 4n;
  return { r: fixed(R), n: Number(n) };
}

function sinSmall(r: Big): Big {
  const r2 = mul(r, r);
  let term = r;
  let sum = r;
  for (let k = 1; ; k++) {
    term = neg(div(mul(term, r2), int(2 * k * (2 * k + 1))));
    if (STOP(term, sum)) return sum;
    sum = add(sum, term);
  }
}
function cosSmall(r: Big): Big {
  const r2 = mul(r, r);
  let term = int(1);
  let sum = int(1);
  for (let k = 1; ; k++) {
    term = neg(div(mul(term, r2), int((2 * k - 1) * (2 * k))));
    if (STOP(term, sum)) return sum;
    sum = add(sum, term);
  }
}

export function sin(x: Big): Big {
  const { r, n } = reduce(x);
  return [sinSmall(r), cosSmall(r), neg(sinSmall(r)), neg(cosSmall(r))][n]!;
}
export function cos(x: Big): Big {
  const { r, n } = reduce(x);
  return [cosSmall(r), neg(sinSmall(r)), neg(cosSmall(r)), sinSmall(r)][n]!;
}
export function tan(x: Big): Big {
  const { r, n } = reduce(x);
  const t = div(sinSmall(r), cosSmall(r));
  return n % 2 === 0 ? t : neg(div(int(1), t));
}

/** atan a: π/2 − atan(1/a) beyond 1, then atan a = 2·atan(a/(1 + √(1 + a²))) down to 2^−10, then the series. */
export function atan(a: Big): Big {
  if (a.m === 0n) return ZERO;
  if (a.m < 0n) return neg(atan(neg(a)));
  if (cmp(a, int(1)) > 0) return sub(PI_HALF, atan(div(int(1), a)));
  let halvings = 0;
  while (ilog2(a) >= -10) {
    a = div(a, add(int(1), sqrt(add(int(1), mul(a, a)))));
    halvings++;
  }
  const a2 = mul(a, a);
  let term = a;
  let sum = a;
  for (let k = 3, sgn = -1; ; k += 2, sgn = -sgn) {
    term = mul(term, a2);
    const t = div(sgn < 0 ? neg(term) : term, int(k));
    if (STOP(t, sum)) return scale(sum, halvings);
    sum = add(sum, t);
  }
}

/** atan2(y, x) for x, y not both zero. */
export function atan2(y: Big, x: Big): Big {
  if (x.m === 0n) return y.m > 0n ? PI_HALF : neg(PI_HALF);
  const t = atan(div(y, x));
  if (x.m > 0n) return t;
  return y.m >= 0n ? add(t, PI) : sub(t, PI);
}

/** asin a, |a| ≤ 1. */
export function asin(a: Big): Big {
  const one = int(1);
  if (cmp(abs(a), one) === 0) return a.m > 0n ? PI_HALF : neg(PI_HALF);
  return atan(div(a, sqrt(sub(one, mul(a, a)))));
}
export const acos = (a: Big): Big => sub(PI_HALF, asin(a));

export function sinh(a: Big): Big {
  if (ilog2(abs(a)) < 0) {
    // the odd series: no cancellation near 0
    const a2 = mul(a, a);
    let term = a;
    let sum = a;
    for (let k = 1; ; k++) {
      term = div(mul(term, a2), int(2 * k * (2 * k + 1)));
      if (STOP(term, sum)) return sum;
      sum = add(sum, term);
    }
  }
  const e = exp(a);
  return scale(sub(e, div(int(1), e)), -1);
}
export function cosh(a: Big): Big {
  const e = exp(a);
  return scale(add(e, div(int(1), e)), -1);
}
export const tanh = (a: Big): Big => div(sinh(a), cosh(a));
export function asinh(a: Big): Big {
  const s = sign(a);
  const x = abs(a);
  const x2 = mul(x, x);
  const w = add(x, div(x2, add(int(1), sqrt(add(int(1), x2)))));
  const r = log1p(w);
  return s < 0 ? neg(r) : r;
}
export function acosh(a: Big): Big {
  const t = sub(a, int(1));
  return log1p(add(t, sqrt(mul(t, add(t, int(2))))));
}
export function atanh(a: Big): Big {
  return scale(log1p(div(scale(a, 1), sub(int(1), a))), -1);
}
export const log2 = (a: Big): Big => div(log(a), LN2);
const LN10 = log(int(10));
export const log10 = (a: Big): Big => div(log(a), LN10);
/** |x|^y = e^(y·ln|x|) (the caller sets the sign). */
export const powAbs = (x: Big, y: Big): Big => exp(mul(y, log(abs(x))));
export const hypot = (xs: Big[]): Big => sqrt(xs.reduce((s, x) => add(s, mul(x, x)), ZERO));

// ---------------------------------------------------------------------------------------------------

const MAX_EXP = 1024;

/**
 * How far the double `got` is from the exact `want`, in units in the last place of `want` (the spacing of
 * doubles at `want`'s magnitude: 2^(⌊log2|want|⌋ − 52), or 2^−1074 in the subnormal range). A `want` whose
 * rounding overflows expects ±Infinity (0 error), any other Infinity is an infinite error.
 */
export function ulpError(got: number, want: Big): number {
  if (want.m === 0n) return got === 0 ? 0 : Infinity;
  const w = ilog2(want);
  // |want| ≥ MAX + half an ulp rounds to Infinity: MAX + ulp/2 = 2^1024 − 2^970
  const overflows = w >= MAX_EXP || (w === MAX_EXP - 1 && cmp(abs(want), sub(scale(int(1), 1024), scale(int(1), 970))) >= 0);
  if (!Number.isFinite(got)) return overflows && Math.sign(got) === sign(want) ? 0 : Infinity;
  if (overflows) return Infinity;
  const ulpExp = Math.max(w, -1022) - 52;
  const d = sub(big(got), want);
  if (d.m === 0n) return 0;
  // |d|/2^ulpExp as a double
  const q = abs(d);
  const bits = bitLength(q.m);
  const top = bits > 60 ? q.m >> BigInt(bits - 60) : q.m;
  return Number(top) * 2 ** (q.e + Math.max(bits - 60, 0) - ulpExp);
}
