/**
 * Verifying a replay: re-simulate it from its settings and inputs (not from its keyframes) and compare
 * everything it records: every frame's total hash, section hashes, fieldrand and ccRand draw counts and
 * input, and every keyframe (its hash, and its snapshot value by value against the re-simulated state at
 * its frame). At the first frame where anything differs, verify stops and reports the frame and every field
 * that differs, from the state it already has: it never simulates past the divergence.
 *
 * When all of that matches, verify also proves what a seek relies on (src/replay/keyframe-check.ts): each
 * keyframe, restored into a fresh simulation and run to the next, gives the recorded frames; otherwise it
 * reports the first frame that differs and the system responsible (`restoreDivergence`).
 */
import { FormatError } from '../binary/format-error.js';
import { decodeValueBytes, encodeValueBytes } from '../ecs/value-codec.js';
import { createEventBus } from '../ecs/events.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { Simulation } from '../sim/simulation.js';
import { isInputWord } from '../systems/nav-orders.js';
import { frameInputs, hex64, readReplay, RUNTIME_VERSION, type Replay, type ReplayKeyframe } from './format.js';
import { checkReplayWork, replaySimulation, type ReplayTarget } from './rebuild.js';
import { diffSnapshots } from './snapshot-diff.js';
import { keyframeName } from './seek.js';
import { checkKeyframes, traceStep, type RestoreDivergence, type TaskTraceEntry } from './keyframe-check.js';

export type { RestoreDivergence } from './keyframe-check.js';

/** The first frame at which the re-simulation differs from the recording, and everything that differs there. */
export interface Divergence {
  /** The first frame whose hash differs. */
  frame: number;
  /** The recorded hash (of the frame, or of the keyframe when only the keyframe differs). */
  expected: string;
  /** The re-simulated hash. */
  actual: string;
  /**
   * Every recorded value of that frame that differs: `hash`, `section <name>`, `fieldrand`, `ccrand`,
   * `input` (with several players `input of player <k>`), `keyframe hash`, `keyframe snapshot`. When the run from frame 0 matched everything and a run
   * restored from a keyframe did not (see `VerifyResult.restoreDivergence`), the list starts with
   * `restored from keyframe <K>` and ends with `system <name>` when the system was found; the others are
   * what that run gave differently.
   */
  fields: string[];
  /** Sections of the state hash whose recorded low word differs (component names, "rng", "tasks", ...). */
  sections: string[];
  /** RNG draw counters that differ at that frame. */
  rng: { name: string; recorded: number; replayed: number }[];
  /** The last keyframe before `frame` whose hash and snapshot matched the re-simulation (-1: none). */
  lastGoodKeyframe: number;
  /**
   * When the divergence is at a keyframe: its snapshot compared value by value with the re-simulated state
   * (RNG states and counts, tasks, entities, component fields); null otherwise.
   */
  detail: KeyframeDiff | null;
}

/** A keyframe compared value by value with the re-simulated state at its frame. */
export interface KeyframeDiff {
  /** The keyframe's frame. */
  frame: number;
  /** At most MAX_LISTED_DIFFERENCES lines like "Position.x of entity 3: recorded 12.5, replayed 12.75". */
  differences: string[];
  /** How many differences there are in all. */
  total: number;
}

/** How many differences a divergence report lists. */
export const MAX_LISTED_DIFFERENCES = 20;

/** The result of `verifyReplay`. */
export interface VerifyResult {
  /** True when every frame's hash matched. */
  ok: boolean;
  /** Frames re-simulated (up to the divergence). */
  frames: number;
  /** The final state hash, "0x" + 16 hex digits. */
  finalHash: string;
  /** Frames per second of the run from frame 0 (the keyframe check's time is not counted). */
  framesPerSecond: number;
  /** Keyframes whose hash and snapshot were compared with the re-simulation and matched. */
  keyframes: number;
  /** The first divergence, when not ok (for a restore divergence, that one, in this shape). */
  divergence?: Divergence;
  /**
   * When the run from frame 0 matched everything but a keyframe, restored into a fresh simulation and run
   * on, did not give the recorded frames: the keyframe, the first frame, and the system responsible. A seek
   * from that keyframe would answer wrong: the scenario keeps state outside its snapshot.
   */
  restoreDivergence?: RestoreDivergence;
  /** Non-fatal notes, e.g. a different runtime version. */
  warnings: string[];
}

/** Options of `verifyReplay`. */
export interface VerifyOptions {
  /** The limits the replay, its header's work and its snapshots' decoding are checked against; default DEFAULT_LIMITS. */
  limits?: Readonly<Limits>;
  /**
   * Also restore each keyframe into a fresh simulation, run it to the next one and compare (default true):
   * this proves seeks, and catches state a scenario keeps outside its snapshot. It re-simulates each
   * keyframe interval once more (about as much again as the run from frame 0).
   */
  restoreCheck?: boolean;
  /**
   * Builds the fresh simulations of the keyframe check: by default, from the verified simulation's world
   * object, scenario and settings. Give it when the simulation given to verify was changed after it was
   * built (tasks added by hand), or the check is skipped with a warning.
   */
  freshSimulation?: () => Simulation;
  /**
   * Called after each frame the verification simulates (the run from frame 0, then the keyframe check's),
   * outside the simulation: it cannot change a result. An error it throws stops the verification and
   * propagates (a batch worker stops a job over its memory limit this way).
   */
  onFrame?: () => void;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Compares keyframe `k` with the state of `sim` (at its frame), value by value: null when its hash and
 * snapshot are exactly what this state gives, else what differs.
 */
export function compareKeyframe(sim: Simulation, k: ReplayKeyframe, limits: Readonly<Limits> = DEFAULT_LIMITS): { fields: string[]; detail: KeyframeDiff } | null {
  const h = sim.hash();
  const state = sim.save();
  const mine = encodeValueBytes(state);
  const fields: string[] = [];
  if (h.hi !== k.hashHi || h.lo !== k.hashLo) fields.push('keyframe hash');
  if (!sameBytes(mine, k.snapshot)) fields.push('keyframe snapshot');
  if (!fields.length) return null;
  let lines: string[];
  let total: number;
  try {
    const d = diffSnapshots(decodeValueBytes(k.snapshot, keyframeName(k), { limits }), state, MAX_LISTED_DIFFERENCES);
    lines = d.lines;
    total = d.total;
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    lines = [`the keyframe's snapshot does not decode: ${e.message}`];
    total = 1;
  }
  if (fields.includes('keyframe hash')) {
    lines.unshift(`keyframe hash: recorded ${hex64(k.hashHi, k.hashLo)}, replayed ${hex64(h.hi, h.lo)}`);
    total++;
    if (lines.length > MAX_LISTED_DIFFERENCES) lines.length = MAX_LISTED_DIFFERENCES;
  }
  return { fields, detail: { frame: k.frame, differences: lines, total } };
}

/**
 * Re-simulates a replay from its settings and inputs (not from its keyframes) and compares everything it
 * records, frame by frame, stopping at the first difference. When everything matched, it then restores each
 * keyframe into a fresh simulation, runs it to the next keyframe (or the end) and compares again (unless
 * `options.restoreCheck` is false): a difference there is a `restoreDivergence` naming the keyframe, the
 * frame and the system, and the result is not ok. `with_` is a simulation freshly built from
 * the replay's world and settings, or what to build one from (`{ world, scenario }`, checked against the
 * header as `replaySimulation` does). The work is checked against the limits before any frame runs.
 *
 * `ok: false` is a re-simulation that ran and differed. A replay that cannot be re-simulated as recorded at
 * all throws a `FormatError` instead, before any frame runs: a world that is not the recorded bytes, a
 * scenario that is not the recorded one (its `format` reads "scenario module FILE" for a module that changed,
 * "scenario (SOURCE)" otherwise, and its message names what differs), settings or work over the limits, or
 * bytes that are not a replay.
 *
 * @example
 * const result = verifyReplay(bytes, { world: await openWorld('level.col'), scenario: guards });
 * if (!result.ok) console.log(result.divergence);
 */
export function verifyReplay(replay: Replay | Uint8Array, with_: Simulation | ReplayTarget, options: VerifyOptions = {}): VerifyResult {
  const limits = options.limits ?? (with_ instanceof Simulation ? undefined : with_.limits) ?? DEFAULT_LIMITS;
  const rp = replay instanceof Uint8Array ? readReplay(replay, isInputWord, limits) : replay;
  checkReplayWork(rp.header, rp.frames.count, limits);
  const sim = with_ instanceof Simulation ? with_ : replaySimulation(rp.header, { ...with_, limits });
  const warnings: string[] = [];
  if (rp.header.runtime !== RUNTIME_VERSION) warnings.push(`recorded by ${rp.header.runtime}, verified by ${RUNTIME_VERSION}`);
  const names = [...sim.sectionNames()];
  if (names.join(',') !== rp.header.sections.join(',')) {
    throw new FormatError('replay chunk HEAD (header)', -1, `hash sections ${rp.header.sections.join(',')} differ from this runtime's ${names.join(',')}`);
  }
  const f = rp.frames;
  const S = names.length;
  const P = f.players;
  if (sim.players.length !== P) throw new FormatError('replay chunk HEAD (header)', -1, `the replay records ${P} player${P === 1 ? '' : 's'}, the simulation given has ${sim.players.length}`);
  const t0 = performance.now();
  let lastGood = -1;
  let checked = 0;
  let ki = 0;
  const atKeyframe = (frame: number): VerifyResult | null => {
    const k = rp.keyframes[ki];
    if (!k || k.frame !== frame) return null;
    ki++;
    const c = compareKeyframe(sim, k, limits);
    if (!c) {
      lastGood = frame;
      checked++;
      return null;
    }
    const h = sim.hash();
    return fail(frame, hex64(k.hashHi, k.hashLo), hex64(h.hi, h.lo), c.fields, [], [], c.detail);
  };
  const first = atKeyframe(0);
  if (first) return first;
  // The first frame after each keyframe is traced task by task, for the keyframe check to name a system.
  const restoreCheck = options.restoreCheck !== false;
  const traced = new Set(restoreCheck ? rp.keyframes.map((k) => k.frame) : []);
  const traces = new Map<number, TaskTraceEntry[]>();
  for (let i = 0; i < f.count; i++) {
    const buttons = frameInputs(f, i);
    if (traced.has(i)) traces.set(i, traceStep(sim, buttons));
    else sim.step(buttons);
    options.onFrame?.();
    const h = sim.hash();
    const d = sim.scheduler.drawCounts();
    const fields: string[] = [];
    const sections: string[] = [];
    const rng: Divergence['rng'] = [];
    if (h.hi !== f.hashHi[i] || h.lo !== f.hashLo[i]) fields.push('hash');
    for (let s = 0; s < S; s++) {
      if (h.sections[2 * s + 1] !== f.sections[i * S + s]) {
        sections.push(names[s]!);
        fields.push(`section ${names[s]}`);
      }
    }
    if (d.fieldrand !== f.fieldrand[i]) {
      rng.push({ name: 'fieldrand', recorded: f.fieldrand[i]!, replayed: d.fieldrand });
      fields.push('fieldrand');
    }
    if (d.ccrand !== f.ccrand[i]) {
      rng.push({ name: 'ccrand', recorded: f.ccrand[i]!, replayed: d.ccrand });
      fields.push('ccrand');
    }
    for (let k = 0; k < P; k++) if (sim.inputs[k] !== f.inputs[i * P + k]) fields.push(P === 1 ? 'input' : `input of player ${k}`);
    if (fields.length) return fail(i + 1, hex64(f.hashHi[i]!, f.hashLo[i]!), hex64(h.hi, h.lo), fields, sections, rng, null);
    const k = atKeyframe(i + 1);
    if (k) return k;
  }
  const finalHash = sim.hashHex();
  // The speed of the run from frame 0, as before the keyframe check (which runs about as many frames again).
  const dt = (performance.now() - t0) / 1000;
  if (restoreCheck) {
    const fresh = options.freshSimulation ?? (() => new Simulation(sim.world, sim.scenario, sim.settings, { events: createEventBus() }));
    const found = checkKeyframes(rp, sim, { limits, fresh, traces, ...(options.onFrame ? { onFrame: options.onFrame } : {}) });
    if (found && 'skipped' in found) warnings.push(found.skipped);
    else if (found) {
      const r = found.divergence;
      const detail = `replay verify: the run restored from the keyframe at frame ${r.keyframe} differs at frame ${r.frame} in ${r.fields.join(', ')}${r.system ? `; system ${r.system.name}` : ''}`;
      sim.events.emit('desync', { frame: r.frame, detail });
      return {
        ok: false,
        frames: f.count,
        finalHash,
        framesPerSecond: dt > 0 ? f.count / dt : 0,
        keyframes: checked,
        divergence: {
          frame: r.frame,
          expected: r.expected,
          actual: r.actual,
          fields: [`restored from keyframe ${r.keyframe}`, ...r.fields, ...(r.system ? [`system ${r.system.name}`] : [])],
          sections: r.sections,
          rng: r.rng,
          lastGoodKeyframe: r.keyframe,
          detail: null,
        },
        restoreDivergence: r,
        warnings,
      };
    }
  }
  return { ok: true, frames: f.count, finalHash, framesPerSecond: dt > 0 ? f.count / dt : 0, keyframes: checked, warnings };

  function fail(frame: number, expected: string, actual: string, fields: string[], sections: string[], rng: Divergence['rng'], detail: KeyframeDiff | null): VerifyResult {
    const dt = (performance.now() - t0) / 1000;
    sim.events.emit('desync', { frame, detail: `replay verify: frame ${frame} differs in ${fields.join(', ')} (hash ${actual}, recorded ${expected})` });
    return {
      ok: false,
      frames: frame,
      finalHash: actual,
      framesPerSecond: dt > 0 ? frame / dt : 0,
      keyframes: checked,
      divergence: { frame, expected, actual, fields, sections, rng, lastGoodKeyframe: lastGood, detail },
      warnings,
    };
  }
}
