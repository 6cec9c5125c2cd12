/**
 * NSPLINE (PreCalc 0x005b1b60, FRAC2's natural spline) as FIREFLY flies it: keys spaced ⌊P/(n−1)⌋ frames
 * apart with the last at P, a last span of 10, Hermite tangents from the neighbouring spans, and each frame
 * the cubic u³a + u²b + uc + d in EE order.
 */
import { add, sub, mul, div, lt, fromInt, toInt, ONE, TWO, K10, type F } from './ee-vec.js';

const THREE: F = 0x40400000;
const MINUS_THREE: F = 0xc0400000;

export interface SplineKey {
  val: F;
  a: F;
  b: F;
  c: F;
  d: F;
  span: F;
  frame: number;
}

export interface Spline {
  keys: SplineKey[];
  frame: number;
  key: number;
  period: number;
  wrapped: boolean;
}

export function makeSpline(vals: readonly F[], period: number): Spline {
  const n = vals.length;
  const keys: SplineKey[] = vals.map((val) => ({ val, a: 0, b: 0, c: 0, d: 0, span: 0, frame: 0 }));
  const step = Math.trunc(period / (n - 1));
  const v: F[] = [...vals, vals[n - 1]!, vals[n - 1]!];
  for (let i = 0; i < n; i++) keys[i]!.frame = i === n - 1 ? period : step * i;
  for (let i = 0; i < n; i++) keys[i]!.span = i < n - 1 ? fromInt(keys[i + 1]!.frame - keys[i]!.frame) : K10;
  for (let i = 0; i < n; i++) {
    const f4 = v[i]!;
    const f5 = v[i + 1]!;
    const span = keys[i]!.span;
    let f2: F;
    if (i === 0) {
      f2 = sub(f5, f4);
    } else {
      const prev = keys[i - 1]!.span;
      const acc = mul(span, sub(f4, v[i - 1]!));
      f2 = div(add(acc, mul(prev, sub(f5, f4))), add(prev, span));
    }
    let f3: F;
    if (i === n - 1) {
      f3 = sub(v[i + 2]!, f5);
    } else {
      const next = keys[i + 1]!.span;
      const acc = mul(span, sub(v[i + 2]!, f5));
      f3 = div(add(acc, mul(next, sub(f5, f4))), add(span, next));
    }
    const f0 = sub(mul(TWO, f4), mul(TWO, f5));
    const k = keys[i]!;
    k.a = add(f3, add(f2, f0));
    k.b = sub(sub(add(mul(MINUS_THREE, f4), mul(THREE, f5)), mul(TWO, f2)), f3);
    k.c = f2;
    k.d = f4;
  }
  return { keys, frame: 0, key: 0, period, wrapped: false };
}

/** One frame on: the spline's value. */
export function stepSpline(s: Spline): F {
  s.wrapped = false;
  s.frame = toInt(add(fromInt(s.frame), ONE));
  let k = s.keys[s.key]!;
  if (!lt(fromInt(s.frame), add(fromInt(k.frame), k.span))) {
    s.key++;
    if (s.key >= s.keys.length) {
      s.key = 0;
      s.frame = 0;
      s.wrapped = true;
    }
  }
  k = s.keys[s.key]!;
  const u = div(fromInt(s.frame - k.frame), k.span);
  const u2 = mul(u, u);
  const acc = add(mul(mul(u2, u), k.a), mul(u2, k.b));
  return add(k.d, add(acc, mul(u, k.c)));
}
