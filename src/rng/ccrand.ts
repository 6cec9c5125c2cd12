/**
 * ccRand: the game's Mersenne Twister (MT19937: 624 words, M = 397, matrix 0x9908b0df, standard tempering)
 * with the 1998 `sgenrand` seeding, reproduced exactly.
 *
 * Seeding (1998 reference code): for each of the 624 words, the high 16 bits of s become the word's high
 * half, s = s × 69069 + 1, the high 16 bits of the new s become its low half, s = s × 69069 + 1.
 * The game seeds with 4352; `init(count)` seeds and then discards `count` draws (the frames since power-on).
 * An unseeded generator seeds itself with 4352 on its first draw, as genrand does.
 */

import { Saved } from '../binary/saved-value.js';

/** The seed the game gives ccRand. */
export const CCRAND_SEED = 4352;

const N = 624;

/** @internal A CcRand's state in a reused buffer (CcRand.saveInto / restoreFrom). */
export interface CcRandCopy {
  readonly mt: Uint32Array;
  mti: number;
  seeded: boolean;
  draws: number;
}

/** @internal An empty CcRandCopy. */
export function newCcRandCopy(): CcRandCopy {
  return { mt: new Uint32Array(N), mti: 0, seeded: false, draws: 0 };
}
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER = 0x80000000;
const LOWER = 0x7fffffff;

/** A CcRand's whole state, as plain data. */
export interface CcRandState {
  mt: number[];
  mti: number;
  seeded: boolean;
  draws: number;
}

/**
 * ccRand, the game's Mersenne Twister (MT19937 with the 1998 sgenrand seeding), reproduced exactly. The game
 * seeds it with CCRAND_SEED and discards a draw per frame since power-on (`init(count)`); unseeded, it seeds
 * itself with CCRAND_SEED on its first draw.
 */
export class CcRand {
  private readonly mt = new Uint32Array(N);
  private mti = N + 1;
  private seeded = false;
  /** Draws since the last `init` (discarded draws not counted). */
  draws = 0;

  /** sgenrand(seed) of the 1998 code. */
  seed(seed: number): void {
    let s = seed >>> 0;
    for (let i = 0; i < N; i++) {
      const hi = s & 0xffff0000;
      s = (Math.imul(s, 69069) + 1) >>> 0;
      this.mt[i] = (hi | (s >>> 16)) >>> 0;
      s = (Math.imul(s, 69069) + 1) >>> 0;
    }
    this.mti = N;
    this.seeded = true;
  }

  /** Seeds with 4352, discards `count` draws, and resets the draw counter. */
  init(count: number): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`ccRand init count must be a non-negative integer, got ${count}`);
    this.seed(CCRAND_SEED);
    for (let i = 0; i < count; i++) this.nextU32();
    this.draws = 0;
  }

  private regenerate(): void {
    const mt = this.mt;
    let kk = 0;
    let y: number;
    for (; kk < N - M; kk++) {
      y = (mt[kk]! & UPPER) | (mt[kk + 1]! & LOWER);
      mt[kk] = mt[kk + M]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    for (; kk < N - 1; kk++) {
      y = (mt[kk]! & UPPER) | (mt[kk + 1]! & LOWER);
      mt[kk] = mt[kk + (M - N)]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    y = (mt[N - 1]! & UPPER) | (mt[0]! & LOWER);
    mt[N - 1] = mt[M - 1]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    this.mti = 0;
  }

  /** The next tempered word, unsigned. */
  nextU32(): number {
    if (!this.seeded) this.seed(CCRAND_SEED);
    if (this.mti >= N) this.regenerate();
    let y = this.mt[this.mti++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    this.draws++;
    return y >>> 0;
  }

  /** ccRand(): the tempered word as a signed int32. */
  next(): number {
    return this.nextU32() | 0;
  }

  /** The state, for `restore`. */
  save(): CcRandState {
    return { mt: Array.from(this.mt), mti: this.mti, seeded: this.seeded, draws: this.draws };
  }

  /**
   * Puts back a saved state: 624 u32 words, the index (0..624 once seeded, 625 before), the seeded flag and
   * the draw count. A malformed one (from a file) is a FormatError naming `path`, and nothing changes.
   */
  restore(s: CcRandState, path = 'ccrand'): void {
    const v = new Saved(s, path).object(['mt', 'mti', 'seeded', 'draws']);
    const words = v.get('mt');
    words.array(N, N);
    words.elementsIn(s.mt, 0, 0xffffffff);
    const seeded = v.get('seeded').bool();
    const mti = v.get('mti').int(0, seeded ? N : N + 1);
    const draws = v.get('draws').count();
    this.mt.set(s.mt);
    this.mti = mti;
    this.seeded = seeded;
    this.draws = draws;
  }

  /** @internal Copies the state into `c` (a rollback's reused buffer; no allocation). */
  saveInto(c: CcRandCopy): void {
    c.mt.set(this.mt);
    c.mti = this.mti;
    c.seeded = this.seeded;
    c.draws = this.draws;
  }

  /** @internal Puts back what `saveInto` copied (unchecked: it comes from this process). */
  restoreFrom(c: CcRandCopy): void {
    this.mt.set(c.mt);
    this.mti = c.mti;
    this.seeded = c.seeded;
    this.draws = c.draws;
  }

  /** Folds the generator's whole state into a hash (no allocation). */
  forEachStateWord(f: (w: number) => void): void {
    for (let i = 0; i < N; i++) f(this.mt[i]!);
    f(this.mti);
    f(this.seeded ? 1 : 0);
    f(this.draws);
  }
}

/** The low 16 bits of a ccRand word as a signed value: the "turn" the game scales to an angle. */
export function ccRandTurnS16(word: number): number {
  return (word << 16) >> 16;
}
