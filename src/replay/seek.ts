/**
 * Seeking in a replay: restore the keyframe at or before a frame (checked: its snapshot must restore, hash
 * to the keyframe's hash, and agree with the frame records), step on with the recorded inputs, and compare
 * the hash reached with the one recorded for that frame. A keyframe that does not hold is skipped for the
 * one before it, and the result says which were skipped and why.
 */
import { FormatError } from '../binary/format-error.js';
import { decodeValueBytes } from '../ecs/value-codec.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { Simulation, type SimSnapshot } from '../sim/simulation.js';
import { isInputWord } from '../systems/nav-orders.js';
import { frameInputs, hex64, readReplay, type Replay, type ReplayKeyframe } from './format.js';
import { checkReplayWork, replaySimulation, type ReplayTarget } from './rebuild.js';

/** Where a seek ended: the frame, the state hash there, the keyframe it started from, and whether it is proven. */
export interface SeekResult {
  frame: number;
  /** The state hash reached at `frame`. */
  hash: string;
  /** The keyframe the seek restored and stepped on from. */
  fromKeyframe: number;
  /**
   * True when the hash reached equals the one the replay records for `frame` (for frame 0, keyframe 0's),
   * so the answer is the recorded run's state (to 64 bits).
   */
  verified: boolean;
  /** The hash the replay records for `frame`. */
  expected: string;
  /** When not verified: the sections of the state hash whose recorded low word differs at `frame`. */
  sections: string[];
  /** Keyframes nearer to `frame` that were refused (their snapshot does not hold), nearest first, with why. */
  skippedKeyframes: { frame: number; reason: string }[];
}

/** Options of `seekReplay` and `restoreKeyframe`. */
export interface SeekOptions {
  /** The limits the replay (and its snapshots' decoding) is checked against; default DEFAULT_LIMITS. */
  limits?: Readonly<Limits>;
}

/** Options of `restoreKeyframe`. */
export interface RestoreKeyframeOptions extends SeekOptions {
  /**
   * The replay the keyframe is from: then the keyframe's hash must also be the one recorded for its frame,
   * and the restored state's section hashes and draw counts must be that frame's records.
   */
  replay?: Replay;
}

/** Keyframes a seek tries, nearest first, before it goes straight to keyframe 0 (each try decodes and restores). */
export const MAX_KEYFRAME_TRIES = 8;

/** The name errors give a keyframe. */
export function keyframeName(k: ReplayKeyframe): string {
  return `replay chunk KEYF (keyframe at frame ${k.frame})`;
}

/**
 * Decodes a keyframe's snapshot and restores it into `sim`, checked: the snapshot decodes within the limits,
 * is of the keyframe's frame, restores (every value checked, see `Simulation.restore`) and hashes to the
 * keyframe's hash; with `options.replay`, that hash is also the recorded hash of its frame, with the same
 * sections and draw counts. Any failure is a FormatError naming the keyframe (and the task, component and
 * field where a value is bad), and `sim` is left as it was.
 */
export function restoreKeyframe(sim: Simulation, k: ReplayKeyframe, options: RestoreKeyframeOptions = {}): void {
  const where = keyframeName(k);
  const rp = options.replay;
  const f = k.frame;
  if (rp && f > 0) {
    if (f > rp.frames.count) throw new FormatError(where, k.offset, `the keyframe is past the replay's last frame ${rp.frames.count}`);
    if (rp.frames.hashHi[f - 1] !== k.hashHi || rp.frames.hashLo[f - 1] !== k.hashLo) {
      throw new FormatError(where, k.offset, `the keyframe's hash ${hex64(k.hashHi, k.hashLo)} differs from the hash recorded for frame ${f}, ${hex64(rp.frames.hashHi[f - 1]!, rp.frames.hashLo[f - 1]!)}`);
    }
  }
  const snap = decodeValueBytes(k.snapshot, where, { limits: options.limits ?? DEFAULT_LIMITS }) as unknown as SimSnapshot;
  if (typeof snap !== 'object' || snap === null || snap.frame !== f) {
    throw new FormatError(where, k.offset, `snapshot is not of frame ${f} (its frame: ${typeof snap === 'object' && snap !== null ? String(snap.frame) : 'none'})`);
  }
  try {
    sim.restore(snap);
  } catch (e) {
    if (e instanceof FormatError) throw new FormatError(where, k.offset, `snapshot ${e.format === 'snapshot' ? e.detail : `${e.format}: ${e.detail}`}`);
    throw new FormatError(where, k.offset, `snapshot does not fit this simulation: ${(e as Error).message}`);
  }
  const h = sim.hash();
  let bad: string | null = null;
  if (h.hi !== k.hashHi || h.lo !== k.hashLo) {
    bad = `the restored state hashes to ${hex64(h.hi, h.lo)}, the keyframe records ${hex64(k.hashHi, k.hashLo)} (the snapshot and its hash disagree)`;
  } else if (rp && f > 0) {
    const differ = sectionsDiffering(rp, sim, f);
    const d = sim.scheduler.drawCounts();
    if (differ.length) bad = `the restored state's sections ${differ.join(', ')} differ from those recorded for frame ${f}`;
    else if (d.fieldrand !== rp.frames.fieldrand[f - 1] || d.ccrand !== rp.frames.ccrand[f - 1]) {
      bad = `the restored draw counts (fieldrand ${d.fieldrand}, ccRand ${d.ccrand}) differ from those recorded for frame ${f} (${rp.frames.fieldrand[f - 1]}, ${rp.frames.ccrand[f - 1]})`;
    }
  }
  if (bad) throw new FormatError(where, k.offset, bad);
}

/** Sections of `sim`'s hash whose low word differs from frame `f`'s record (f ≥ 1). */
export function sectionsDiffering(rp: Replay, sim: Simulation, f: number): string[] {
  const names = rp.header.sections;
  const S = names.length;
  const h = sim.hash();
  const out: string[] = [];
  for (let s = 0; s < S; s++) if (h.sections[2 * s + 1] !== rp.frames.sections[(f - 1) * S + s]) out.push(names[s]!);
  return out;
}

/** The keyframe at or before `frame`. */
export function nearestKeyframe(rp: Replay, frame: number): ReplayKeyframe {
  let best = rp.keyframes[0]!;
  for (const k of rp.keyframes) if (k.frame <= frame && k.frame >= best.frame) best = k;
  return best;
}

/**
 * Seeks to `frame`: restores the nearest keyframe at or before it that holds (see `restoreKeyframe`; up to
 * MAX_KEYFRAME_TRIES nearest, then keyframe 0), steps to `frame` with the recorded inputs, and compares the
 * hash reached with the recorded one (`verified`). `with_` is a simulation built from the replay's world and
 * settings (it is left at `frame`), or what to build one from (`{ world, scenario }`, checked against the
 * header as `replaySimulation` does). The work is checked against the limits first (agents × `frame`).
 * Throws a FormatError when no keyframe at or before `frame` holds.
 */
export function seekReplay(replay: Replay | Uint8Array, with_: Simulation | ReplayTarget, frame: number, options: SeekOptions = {}): SeekResult {
  const limits = options.limits ?? (with_ instanceof Simulation ? undefined : with_.limits) ?? DEFAULT_LIMITS;
  const rp = replay instanceof Uint8Array ? readReplay(replay, isInputWord, limits) : replay;
  if (!Number.isInteger(frame) || frame < 0 || frame > rp.frames.count) throw new RangeError(`frame ${frame} is outside 0..${rp.frames.count}`);
  checkReplayWork(rp.header, frame, limits);
  const sim = with_ instanceof Simulation ? with_ : replaySimulation(rp.header, { ...with_, limits });
  if (sim.players.length !== rp.frames.players) throw new FormatError('replay chunk HEAD (header)', -1, `the replay records ${rp.frames.players} player(s), the simulation given has ${sim.players.length}`);
  const candidates = rp.keyframes.filter((k) => k.frame <= frame).sort((a, b) => b.frame - a.frame);
  const tries = candidates.length > MAX_KEYFRAME_TRIES ? [...candidates.slice(0, MAX_KEYFRAME_TRIES - 1), candidates[candidates.length - 1]!] : candidates;
  const skipped: SeekResult['skippedKeyframes'] = [];
  let from: ReplayKeyframe | null = null;
  for (const k of tries) {
    try {
      restoreKeyframe(sim, k, { replay: rp, limits });
      from = k;
      break;
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      skipped.push({ frame: k.frame, reason: e.message });
    }
  }
  if (!from) {
    const passed = candidates.length - tries.length;
    throw new FormatError(
      'replay',
      -1,
      `no keyframe at or before frame ${frame} holds (${tries.length} tried${passed ? `, ${passed} between them skipped` : ''}): ${skipped.map((s) => s.reason).join('; ')}`,
    );
  }
  for (let f = from.frame; f < frame; f++) sim.step(frameInputs(rp.frames, f));
  const h = sim.hash();
  const [ehi, elo] = frame > 0 ? [rp.frames.hashHi[frame - 1]!, rp.frames.hashLo[frame - 1]!] : [rp.keyframes[0]!.hashHi, rp.keyframes[0]!.hashLo];
  const verified = h.hi === ehi && h.lo === elo;
  return {
    frame,
    hash: hex64(h.hi, h.lo),
    fromKeyframe: from.frame,
    verified,
    expected: hex64(ehi, elo),
    sections: verified || frame === 0 ? [] : sectionsDiffering(rp, sim, frame),
    skippedKeyframes: skipped,
  };
}
