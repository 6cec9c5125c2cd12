/**
 * Double-double arithmetic for the deterministic maths (det-*.ts): a value held as hi + lo, two doubles,
 * about 106 bits. Every operation is IEEE + − × ÷ (and Math.sqrt, correctly rounded by the standard), so the
 * results are the same bits in every engine. Results go to `dd` (no allocation): read `dd.hi` and `dd.lo`
 * before the next call.
 */

/** The last result: hi + lo, normalised (|lo| ≤ half an ulp of hi) unless said otherwise. */
export const dd = { hi: 0, lo: 0 };

const SPLITTER = 134217729; // 2^27 + 1 (Veltkamp)

/** a + b exactly: hi = fl(a + b), lo the rounding error (Knuth's TwoSum). */
export function twoSum(a: number, b: number): void {
  const s = a + b;
  const bb = s - a;
  dd.hi = s;
  dd.lo = a - (s - bb) + (b - bb);
}

/**
 * a·b exactly: hi = fl(a·b), lo the rounding error (Dekker's product; |a|, |b| < 2^995, no underflow in the
 * error).
 */
export function twoProd(a: number, b: number): void {
  const p = a * b;
  const ca = SPLITTER * a;
  const ah = ca - (ca - a);
  const al = a - ah;
  const cb = SPLITTER * b;
  const bh = cb - (cb - b);
  const bl = b - bh;
  dd.hi = p;
  dd.lo = ah * bh - p + ah * bl + al * bh + al * bl;
}

/** hi + lo normalised, for |hi| ≥ |lo| or hi = 0 (Fast2Sum). */
export function normalise(hi: number, lo: number): void {
  const s = hi + lo;
  dd.hi = s;
  dd.lo = lo - (s - hi);
}

/** (ah + al) + (bh + bl). */
export function ddAdd(ah: number, al: number, bh: number, bl: number): void {
  twoSum(ah, bh);
  const s = dd.hi;
  const e = dd.lo;
  twoSum(al, bl);
  const t = dd.hi;
  const f = dd.lo;
  normalise(s, e + t);
  normalise(dd.hi, dd.lo + f);
}

/** (ah + al)·(bh + bl). */
export function ddMul(ah: number, al: number, bh: number, bl: number): void {
  twoProd(ah, bh);
  normalise(dd.hi, dd.lo + (ah * bl + al * bh));
}

/** (ah + al) / (bh + bl), bh ≠ 0. */
export function ddDiv(ah: number, al: number, bh: number, bl: number): void {
  const q = ah / bh;
  twoProd(q, bh);
  const r = ah - dd.hi - dd.lo + al - q * bl; // a − q·b, its leading part exact
  normalise(q, r / bh);
}

/** √(ah + al), ah > 0. */
export function ddSqrt(ah: number, al: number): void {
  const s = Math.sqrt(ah);
  twoProd(s, s);
  normalise(s, (ah - dd.hi - dd.lo + al) / (2 * s));
}
