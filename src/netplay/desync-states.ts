/**
 * What differs between our state and a peer's at a desynced frame: the peer's snapshot (sent as a `state`
 * message) is restored into a scratch simulation through the checked `restore` (it comes from the network),
 * both states are hashed section by section, and the values that differ are listed as `replay verify` lists
 * them.
 */
import { decodeValueBytes } from '../ecs/value-codec.js';
import { diffSnapshots } from '../replay/snapshot-diff.js';
import type { SimSnapshot, Simulation } from '../sim/simulation.js';
import { base64ToBytes } from './base64.js';

/** Most differing values listed per peer (all are counted). */
export const MAX_LISTED_STATE_DIFFERENCES = 20;

/** A peer's state at a desynced frame compared with ours. */
export interface DesyncStateComparison {
  /** The hash the peer sent with its state. */
  hash: string;
  /** Names of the hash sections whose hashes differ (see `Simulation.sectionNames`). */
  sections: string[];
  /** The first values that differ, one line each (e.g. `Position.x of entity 3: 12 against 13`). */
  differences: string[];
  /** How many values differ in all. */
  totalDifferences: number;
  /** The peer's snapshot, as decoded (null when it could not be read). */
  snapshot: SimSnapshot | null;
  /** Why the peer's state could not be compared (bad bytes, or a snapshot this simulation refuses). */
  error?: string;
}

function sectionWords(sim: Simulation): Uint32Array {
  return sim.hash().sections.slice();
}

/**
 * Compares our snapshot with a peer's (base64 value-codec bytes), using `scratch`, a simulation built from the
 * same config: its state is overwritten (the caller saves and puts it back).
 */
export function compareStates(scratch: Simulation, ours: SimSnapshot, theirs: { hash: string; data: string }): DesyncStateComparison {
  const out: DesyncStateComparison = { hash: theirs.hash, sections: [], differences: [], totalDifferences: 0, snapshot: null };
  try {
    const peer = decodeValueBytes(base64ToBytes(theirs.data, 'state'), 'state') as unknown as SimSnapshot;
    out.snapshot = peer;
    scratch.restore(peer);
    const theirWords = sectionWords(scratch);
    scratch.restore(ours);
    const ourWords = sectionWords(scratch);
    const names = scratch.sectionNames();
    for (let s = 0; s < names.length; s++) {
      if (ourWords[2 * s] !== theirWords[2 * s] || ourWords[2 * s + 1] !== theirWords[2 * s + 1]) out.sections.push(names[s]!);
    }
    const d = diffSnapshots(ours, peer, MAX_LISTED_STATE_DIFFERENCES);
    out.differences = d.lines;
    out.totalDifferences = d.total;
  } catch (e) {
    out.error = e instanceof Error ? e.message : String(e);
  }
  return out;
}
