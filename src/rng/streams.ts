import seedrandom from 'seedrandom';
import { Saved } from '../binary/saved-value.js';

/** Most named streams a saved state may hold (a scenario uses a handful). */
export const MAX_STREAMS = 1024;
/** Longest stream name a saved state may hold. */
export const MAX_STREAM_NAME = 256;

/**
 * Named seedrandom streams for everything that is not a game RNG: scenario generation, agent behaviour,
 * test data. Each name gets its own ARC4 stream seeded from "<master>/<name>", so adding a stream never
 * shifts another's numbers. Streams are created with `state: true`, so they can be saved and restored.
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

interface Entry {
  rng: seedrandom.StatefulPRNG<seedrandom.State.Arc4>;
  stream: RandomStream;
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
    const rng = state ? seedrandom('', { state }) : seedrandom(`${this.master}/${name}`, { state: true });
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
      const st = e.rng.state();
      f(st.i);
      f(st.j);
      for (let k = 0; k < st.S.length; k++) f(st.S[k]!);
      f(e.stream.draws);
    }
  }
}
