/**
 * Seeking in a replay: restore the keyframe at or before a frame, then step on with the recorded inputs.
 */
import { FormatError } from '../binary/format-error.js';
import { decodeValueBytes } from '../ecs/value-codec.js';
import { Simulation, type SimSnapshot } from '../sim/simulation.js';
import { BUTTON_MASK } from '../systems/input.js';
import { hex64, readReplay, type Replay, type ReplayKeyframe } from './format.js';
import { replaySimulation, type ReplayTarget } from './rebuild.js';

/** Where a seek ended: the frame, the state hash there, the keyframe it started from. */
export interface SeekResult {
  frame: number;
  hash: string;
  fromKeyframe: number;
}

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
 * Restores the keyframe nearest before `frame` and steps to `frame` with the recorded inputs; returns the
 * hash there. `with_` is a simulation built from the replay's world and settings (it is left at `frame`),
 * or what to build one from (`{ world, scenario }`, checked against the header as `replaySimulation` does).
 */
export function seekReplay(replay: Replay | Uint8Array, with_: Simulation | ReplayTarget, frame: number): SeekResult {
  const rp = replay instanceof Uint8Array ? readReplay(replay, BUTTON_MASK) : replay;
  const sim = with_ instanceof Simulation ? with_ : replaySimulation(rp.header, with_);
  if (!Number.isInteger(frame) || frame < 0 || frame > rp.frames.count) throw new RangeError(`frame ${frame} is outside 0..${rp.frames.count}`);
  const k = nearestKeyframe(rp, frame);
  restoreKeyframe(sim, k);
  for (let f = k.frame; f < frame; f++) sim.step(rp.frames.inputs[f]!);
  return { frame, hash: sim.hashHex(), fromKeyframe: k.frame };
}
