/**
 * +∞ and NaN for hot loops, read as `INFINITY_SLOT[0]` and `NAN_SLOT[0]`. TurboFan (Node 20) keeps the literals
 * `Infinity` and `NaN` as boxed constants, and every double it merges with one (a `cond ? x : Infinity`, a
 * variable that starts at Infinity) is then boxed too: an allocation per loop turn. A value read from a
 * Float64Array is an unboxed double like the others. Never written: they hold their values for good.
 */
export const INFINITY_SLOT: Readonly<Float64Array> = new Float64Array([Infinity]);
export const NAN_SLOT: Readonly<Float64Array> = new Float64Array([NaN]);
