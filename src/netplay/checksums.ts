/**
 * The checksums of confirmed frames: ours (the last few check frames)
 * and the peers' (kept until ours for that frame exists). Both are bounded by `keep`, whatever peers send.
 */
/** A mismatch found by `ChecksumLedger`. */
export interface ChecksumMismatch {
  frame: number;
  player: number;
  ours: string;
  theirs: string;
}

export class ChecksumLedger {
  private readonly ours = new Map<number, { hash: string }>();
  private readonly theirs: Map<number, string>[] = [];

  constructor(players: number, private readonly keep = 8) {
    for (let p = 0; p < players; p++) this.theirs.push(new Map());
  }

  /** Records our hash of check frame `frame`; returns the peers' pending checksums that differ from it. */
  addOurs(frame: number, hash: string): ChecksumMismatch[] {
    this.ours.set(frame, { hash });
    trim(this.ours, this.keep);
    const out: ChecksumMismatch[] = [];
    this.theirs.forEach((m, player) => {
      const h = m.get(frame);
      if (h === undefined) return;
      m.delete(frame);
      if (h !== hash) out.push({ frame, player, ours: hash, theirs: h });
    });
    return out;
  }

  /** Compares a peer's checksum with ours (or keeps it until ours exists); a mismatch, or null. */
  addTheirs(player: number, frame: number, hash: string, ourConfirmed: number): ChecksumMismatch | null {
    const o = this.ours.get(frame);
    if (o) return o.hash === hash ? null : { frame, player, ours: o.hash, theirs: hash };
    if (frame <= ourConfirmed) return null; // older than what we keep: nothing to compare with
    const m = this.theirs[player]!;
    m.set(frame, hash);
    trim(m, this.keep);
    return null;
  }

  /** Our recent checksums, oldest first, at most `n`. */
  recent(n: number, upTo: number): [number, string][] {
    const out: [number, string][] = [];
    for (const [f, o] of this.ours) if (f <= upTo) out.push([f, o.hash]);
    return out.slice(-n);
  }

  /** Entries kept (for bounds checks). */
  get size(): number {
    let n = this.ours.size;
    for (const m of this.theirs) n += m.size;
    return n;
  }
}

function trim<K, V>(m: Map<K, V>, keep: number): void {
  while (m.size > keep) m.delete(m.keys().next().value as K);
}
