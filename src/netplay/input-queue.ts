/**
 * One player's inputs as a session knows them: a ring of button words for a window of frames, the highest
 * frame up to which every input is known (`known`), and the frame from which the player has left (idle, 0).
 * Memory is the ring: it never grows with the frames played (a spectator's ring may grow, to `maxCapacity`).
 */

/** What `put` made of an input. */
export type PutResult = 'new' | 'same' | 'differs' | 'old' | 'gap' | 'beyond';

export class InputQueue {
  private ring: Uint32Array;
  private mask: number;
  /** Every input of frames 1..known is stored (or older than the ring). */
  known = 0;
  /** Frames ≥ leftFrom are 0: the player left. */
  leftFrom = Number.POSITIVE_INFINITY;
  /** The lowest frame the owner still needs; frames below may be overwritten. */
  floor = 1;

  constructor(capacity: number, private readonly maxCapacity = capacity) {
    this.ring = new Uint32Array(pow2(capacity));
    this.mask = this.ring.length - 1;
  }

  get capacity(): number {
    return this.ring.length;
  }

  /** Highest frame whose input is known: everything when the player has left. */
  get knownUpTo(): number {
    return this.leftFrom <= this.known + 1 ? Number.POSITIVE_INFINITY : this.known;
  }

  /** Whether frame f's input is known. */
  has(f: number): boolean {
    return f >= this.leftFrom || (f <= this.known && f >= 1);
  }

  /** Frame f's input if known, else the prediction: the last known input (0 before any). */
  get(f: number): number {
    if (f >= this.leftFrom) return 0;
    const g = Math.min(f, this.known);
    if (g < 1) return 0;
    if (this.known - g >= this.ring.length) throw new RangeError(`input of frame ${g} is no longer kept`);
    return this.ring[g & this.mask]!;
  }

  /** Stores frame f's input: inputs are taken in frame order only, so a gap waits for a resend. */
  put(f: number, v: number): PutResult {
    if (f <= this.known) {
      if (this.known - f >= this.ring.length || f < this.floor) return 'old';
      return this.ring[f & this.mask] === v ? 'same' : 'differs';
    }
    if (f > this.known + 1) return 'gap';
    if (f - this.floor >= this.ring.length && !this.grow(f - this.floor + 1)) return 'beyond';
    this.ring[f & this.mask] = v;
    this.known = f;
    return 'new';
  }

  private grow(need: number): boolean {
    if (need > this.maxCapacity) return false;
    const next = new Uint32Array(Math.min(pow2(need), pow2(this.maxCapacity)));
    const nmask = next.length - 1;
    for (let f = Math.max(1, this.floor); f <= this.known; f++) next[f & nmask] = this.ring[f & this.mask]!;
    this.ring = next;
    this.mask = nmask;
    return true;
  }
}

function pow2(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}
