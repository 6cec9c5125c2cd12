import seedrandom from 'seedrandom';

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

  /** Puts back saved streams (replacing every stream). Throws RangeError for another master seed's state. */
  restore(s: RandomStreamsState): void {
    if (s.master !== this.master) throw new RangeError(`stream state is for master seed ${s.master}, not ${this.master}`);
    this.entries.clear();
    for (const st of s.streams) this.create(st.name, structuredClone(st.state), st.draws);
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
