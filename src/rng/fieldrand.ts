/**
 * fieldrand: the .hack field and dungeon generator's linear congruential generator, reproduced exactly.
 *
 * One step: count += 1; seed = ((seed × 109 mod 2^32) + 1021) mod 2^32; seed = seed mod 0xFFFFFFFE; the step
 * returns the new seed. `rand(n)` is `fieldrand(n)` = step mod n, and for n = 0 the raw step (the game's
 * behaviour for a zero modulus in this routine).
 */

import { Saved } from '../binary/saved-value.js';

/** A FieldRand's state: its seed and step count (both u32). */
export interface FieldRandState {
  seed: number;
  count: number;
}

const MODULUS = 0xfffffffe;

/**
 * fieldrand, the .hack field and dungeon generator's linear congruential generator, reproduced exactly: each
 * step sets seed = ((seed × 109 + 1021) mod 2^32) mod 0xFFFFFFFE and counts itself.
 *
 * @example
 * ```ts
 * const r = new FieldRand(1420855);
 * const draw = r.rand(40); // 0..39
 * ```
 */
export class FieldRand {
  /** Current seed, u32. */
  seed: number;
  /** Steps taken since the seed was set (the game's randcnt), u32. */
  count: number;

  constructor(seed = 0, count = 0) {
    this.seed = seed >>> 0;
    this.count = count >>> 0;
  }

  /** Sets the seed and resets the count. */
  setSeed(seed: number): void {
    this.seed = seed >>> 0;
    this.count = 0;
  }

  /** One raw step: the new seed (u32). */
  step(): number {
    this.count = (this.count + 1) >>> 0;
    // seed × 109 < 2^39, exact in a double; reduce mod 2^32, add, reduce again, then mod 0xFFFFFFFE.
    let s = ((this.seed * 109) % 0x100000000) + 1021;
    if (s >= 0x100000000) s -= 0x100000000;
    if (s >= MODULUS) s -= MODULUS;
    this.seed = s;
    return s;
  }

  /** fieldrand(n): step mod n; n = 0 returns the raw step. */
  rand(n: number): number {
    const s = this.step();
    return n === 0 ? s : s % (n >>> 0);
  }

  /** The state, for `restore`. */
  save(): FieldRandState {
    return { seed: this.seed, count: this.count };
  }

  /** Puts back a saved state; a malformed one (from a file) is a FormatError naming `path`, and nothing changes. */
  restore(s: FieldRandState, path = 'fieldrand'): void {
    const v = new Saved(s, path).object(['seed', 'count']);
    const seed = v.get('seed').u32();
    const count = v.get('count').u32();
    this.seed = seed;
    this.count = count;
  }
}
