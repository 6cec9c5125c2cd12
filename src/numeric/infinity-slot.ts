/**
 * +∞ for hot loops, read as `INFINITY_SLOT[0]`. TurboFan (Node 20) keeps the literal `Infinity` as a boxed
 * constant, and every double it merges with the literal (a `cond ? x : Infinity`, a variable that starts at
 * Infinity) is then boxed too: an allocation per loop turn. A value read from a Float64Array is an unboxed double
 * like the others. Never written: it holds +∞ for good.
 */
export const INFINITY_SLOT: Readonly<Float64Array> = new Float64Array([Infinity]);
