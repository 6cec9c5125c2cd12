/**
 * Seeking in a replay: restore the keyframe at or before a frame, then step on with the recorded inputs.
 */
import { FormatError } from '../binary/format-error.js';
import { decodeValueBytes } from '../ecs/value-codec.js';
import type { SimSnapshot, Simulation } from '../sim/simulation.js';
import { hex64, type Replay, type ReplayKeyframe } from './format.js';

/** Decodes a keyframe's snapshot and restores it into `sim`, with a FormatError naming the chunk on failure. */
export function restoreKeyframe(sim: Simulation, k: ReplayKeyframe): void {
  const where = `replay chunk KEYF (keyframe at frame ${k.frame})`;
  const snap = decodeValueBytes(k.snapshot, where) as unknown as SimSnapshot;
  try {
    sim.restore(snap);
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw new FormatError(where, k.offset, `snapshot does not fit this simulation: ${(e as Error).message}`);
  }
  if (sim.frame !== k.frame) throw new FormatError(where, k.offset, `snapshot is of frame ${sim.frame}`);
  const h = sim.hash();
  if (h.hi !== k.hashHi || h.lo !== k.hashLo) {
    throw new FormatError(where, k.offset, `restored state hashes to ${hex64(h.hi, h.lo)}, the keyframe records ${hex64(k.hashHi, k.hashLo)}`);
  }
}

/** The keyframe at or before `frame`. */
export function nearestKeyframe(rp: Replay, frame: number): ReplayKeyframe {
  let best = rp.keyframes[0]!;
  for (const k of rp.keyframes) if (k.frame <= frame && k.frame >= best.frame) best = k;
  return best;
}

/**
 * Restores the keyframe nearest before `frame` into `sim` (built from the replay's world and settings) and
 * steps to `frame`. Returns the hash there.
 */
export function seekReplay(rp: Replay, sim: Simulation, frame: number): { frame: number; hash: string; fromKeyframe: number } {
  if (!Number.isInteger(frame) || frame < 0 || frame > rp.frames.count) throw new RangeError(`frame ${frame} is outside 0..${rp.frames.count}`);
  const k = nearestKeyframe(rp, frame);
  restoreKeyframe(sim, k);
  for (let f = k.frame; f < frame; f++) sim.step(rp.frames.inputs[f]!);
  return { frame, hash: sim.hashHex(), fromKeyframe: k.frame };
}
