import seedrandom from 'seedrandom';
import { Saved } from '../binary/saved-value.js';

/** Most named streams a saved state may hold (a scenario uses a handful). */
export const MAX_STREAMS = 1024;
/** Longest stream name a saved state may hold. */
export const MAX_STREAM_NAME = 256;

/**
 * Named seedrandom streams for everything that is not a game RNG: scenario generation, agent behaviour,
 * test data. Each name gets its own ARC4 stream seeded from "<master>/<name>", so adding a stream never
 * shifts another's numbers. seedrandom seeds each stream (its key schedule and first discarded bytes); the
 * draws then run on the project's own copy of seedrandom's ARC4 and `double()` (the same numbers, bit for
 * bit), over a byte array this module owns, so a rollback can copy a stream's state in place instead of
 * making a new generator.
 */

/** One named stream of RandomStreams. */
export interface RandomStream {
  /** A double in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** Numbers drawn so far. */
  draws: number;
}

/** RandomStreams' state: the master seed and every stream's ARC4 state and draw count, in creation order. */
export interface RandomStreamsState {
  master: string;
  streams: { name: string; state: Arc4State; draws: number }[];
}

/** A seedrandom ARC4 generator's state: the two indices and the 256-byte permutation. */
export interface Arc4State {
  i: number;
  j: number;
  S: number[];
}

/**
 * seedrandom's ARC4 over a byte array: `g(count)` and `double()` are seedrandom's own steps (same order of
 * reads and writes, same arithmetic), so a stream gives exactly the numbers seedrandom would.
 */
class Arc4 {
  i: number;
  j: number;
  readonly S = new Uint8Array(256);
  constructor(state: Arc4State) {
    this.i = state.i;
    this.j = state.j;
    this.S.set(state.S);
  }
  /** The next `count` bytes as one big-endian number (count ≤ 6 stays exact). */
  g(count: number): number {
    let r = 0;
    let i = this.i;
    let j = this.j;
    const s = this.S;
    while (count--) {
      i = (i + 1) & 255;
      const t = s[i]!;
      j = (j + t) & 255;
      s[i] = s[j]!;
      s[j] = t;
      r = r * 256 + s[(s[i]! + t) & 255]!;
    }
    this.i = i;
    this.j = j;
    return r;
  }
  /** seedrandom's `double()`: 52 significant bits from 7+ bytes. */
  double(): number {
    let n = this.g(6);
    let d = 281474976710656; // 256^6
    let x = 0;
    while (n < 4503599627370496) {
      // 2^52: fill up the significant digits
      n = (n + x) * 256;
      d *= 256;
      x = this.g(1);
    }
    while (n >= 9007199254740992) {
      // 2^53: drop bits so that adding x cannot round up
      n /= 2;
      d /= 2;
      x >>>= 1;
    }
    return (n + x) / d;
  }
  state(): Arc4State {
    return { i: this.i, j: this.j, S: Array.from(this.S) };
  }
}

interface Entry {
  rng: Arc4;
  stream: RandomStream;
}

/**
 * @internal Reused buffers holding every stream's state (RandomStreams.saveInto / restoreFrom): names in
 * creation order, and per stream i, j, draws and its 256 bytes.
 */
export interface RandomStreamsCopy {
  count: number;
  names: string[];
  words: Float64Array;
  bytes: Uint8Array;
}

/**
 * Named seeded streams for everything that is not a game RNG (scenario generation, agent behaviour): each name
 * gets its own ARC4 stream seeded from "master/name", so adding a stream never shifts another's numbers.
 *
 * @example
 * ```ts
 * const streams = new RandomStreams(7);
 * const spot = streams.get('placement').int(100);
 * ```
 */
export class RandomStreams {
  readonly master: string;
  private readonly entries = new Map<string, Entry>();

  constructor(masterSeed: number | string) {
    this.master = String(masterSeed);
  }

  /** The stream of that name, created on first use. */
  get(name: string): RandomStream {
    let e = this.entries.get(name);
    if (!e) e = this.create(name, undefined, 0);
    return e.stream;
  }

  /** Stream names in creation order (the order hashes and saves use). */
  names(): string[] {
    return [...this.entries.keys()];
  }

  private create(name: string, state: Arc4State | undefined, draws: number): Entry {
    const rng = new Arc4(state ?? seedrandom(`${this.master}/${name}`, { state: true }).state());
    const stream: RandomStream = {
      draws,
      next() {
        stream.draws++;
        return rng.double();
      },
      int(n: number) {
        if (!(n > 0)) throw new RangeError(`stream int(n) needs n > 0, got ${n}`);
        stream.draws++;
        // double() has 53 bits of randomness; floor(double × n) is exact for n < 2^31.
        return Math.floor(rng.double() * n);
      },
    };
    const e = { rng, stream };
    this.entries.set(name, e);
    return e;
  }

  /** Every stream's state, for `restore`. */
  save(): RandomStreamsState {
    return {
      master: this.master,
      streams: [...this.entries].map(([name, e]) => ({ name, state: e.rng.state(), draws: e.stream.draws })),
    };
  }

  /**
   * Puts back a saved state. Everything is checked first (it may come from a file): the master seed, at most
   * MAX_STREAMS streams with distinct names, each an ARC4 state (indices 0..255, S a permutation of 0..255)
   * and a draw count. A malformed one is a FormatError naming `path` and the stream, and nothing changes.
   */
  restore(s: RandomStreamsState, path = 'streams'): void {
    const v = new Saved(s, path).object(['master', 'streams']);
    const master = v.get('master').string(MAX_STREAM_NAME);
    if (master !== this.master) v.get('master').fail(`the state is for master seed ${JSON.stringify(master)}, this simulation's is ${JSON.stringify(this.master)}`);
    const list = v.get('streams').array(0, MAX_STREAMS);
    const names = new Set<string>();
    const checked: { name: string; state: Arc4State; draws: number }[] = [];
    for (const e of list) {
      e.object(['name', 'state', 'draws']);
      const name = e.get('name').string(MAX_STREAM_NAME);
      if (names.has(name)) e.get('name').fail(`a second stream named ${JSON.stringify(name)}`);
      names.add(name);
      const st = e.get('state').object(['i', 'j', 'S']);
      const i = st.get('i').int(0, 255);
      const j = st.get('j').int(0, 255);
      const S = st.get('S');
      const perm = S.array(256, 256).map((x) => x.int(0, 255));
      const seen = new Uint8Array(256);
      for (let k = 0; k < 256; k++) {
        if (seen[perm[k]!]) S.get(k).fail(`${perm[k]} appears twice: S must be a permutation of 0..255`);
        seen[perm[k]!] = 1;
      }
      checked.push({ name, state: { i, j, S: perm }, draws: e.get('draws').count() });
    }
    this.entries.clear();
    for (const st of checked) this.create(st.name, st.state, st.draws);
  }

  /** Folds every stream's state into `f` as 32-bit words, streams in creation order. */
  forEachStateWord(f: (w: number) => void): void {
    for (const [name, e] of this.entries) {
      for (let i = 0; i < name.length; i++) f(name.charCodeAt(i));
      const st = e.rng;
      f(st.i);
      f(st.j);
      for (let k = 0; k < 256; k++) f(st.S[k]!);
      f(e.stream.draws);
    }
  }

  /** @internal Copies every stream's state into `c`'s buffers (grown only when there are more streams). */
  saveInto(c: RandomStreamsCopy): void {
    const n = this.entries.size;
    if (c.words.length < 3 * n) c.words = new Float64Array(3 * Math.max(4, n));
    if (c.bytes.length < 256 * n) c.bytes = new Uint8Array(256 * Math.max(4, n));
    let k = 0;
    for (const [name, e] of this.entries) {
      c.names[k] = name;
      c.words[3 * k] = e.rng.i;
      c.words[3 * k + 1] = e.rng.j;
      c.words[3 * k + 2] = e.stream.draws;
      c.bytes.set(e.rng.S, 256 * k);
      k++;
    }
    c.names.length = n;
    c.count = n;
  }

  /**
   * @internal Puts back what `saveInto` copied (unchecked: it comes from this process). Streams that exist in
   * both are overwritten in place (their RandomStream objects stay the same); a different set of names
   * re-creates the streams in the saved order.
   */
  restoreFrom(c: RandomStreamsCopy): void {
    let same = this.entries.size === c.count;
    if (same) {
      let k = 0;
      for (const name of this.entries.keys()) if (name !== c.names[k++]) same = false;
    }
    if (!same) {
      this.entries.clear();
      for (let k = 0; k < c.count; k++) this.create(c.names[k]!, { i: 0, j: 0, S: [] }, 0);
    }
    let k = 0;
    for (const e of this.entries.values()) {
      e.rng.i = c.words[3 * k]!;
      e.rng.j = c.words[3 * k + 1]!;
      e.stream.draws = c.words[3 * k + 2]!;
      const S = e.rng.S;
      const bytes = c.bytes;
      for (let b = 0, o = 256 * k; b < 256; b++) S[b] = bytes[o + b]!;
      k++;
    }
  }
}
