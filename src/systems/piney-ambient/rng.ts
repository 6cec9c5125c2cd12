/**
 * The two generators the ambient code draws from, as narrow interfaces (the project's FieldRand and CcRand
 * satisfy them), and the float of a fieldrand result.
 */
import { eeFromInt } from '../../numeric/ee-float.js';
import type { F } from './ee-vec.js';

/** fieldrand: `rand(n)` is the game's fieldrand(n); `count` its randcnt. */
export interface FieldRng {
  rand(n: number): number;
  count: number;
}

/** ccRand: `nextU32()` one raw tempered word; `draws` the count since ccInitRand. */
export interface CcRng {
  nextU32(): number;
  draws: number;
}

/**
 * The float of fieldrand(n). The game converts a result as unsigned; results are below 2^31 (n is small),
 * where that is plain cvt.s.w.
 */
export function fr(rng: FieldRng, n: number): F {
  return eeFromInt(rng.rand(n));
}
