/**
 * The keyframe check of a verify: what a seek relies on, proven. A seek restores a keyframe into a fresh
 * simulation and steps on; that answers the recorded state only if the simulation is a function of its
 * snapshot and the inputs. State kept outside the snapshot (a counter in a system's closure or at module
 * level) passes a re-simulation from frame 0 and fails only here.
 *
 * For each keyframe, a fresh simulation restores it and runs to the next keyframe (or the end), and every
 * frame's hash, section hashes and draw counts are compared with the recording. At the first frame that
 * differs, the system is found by hashing the state after each task of that frame, in the restored run and
 * in a run from frame 0, from the same state: the first task after which they differ is named. The run
 * from frame 0's trace of the first frame after each keyframe is taken while verify runs it (so it holds
 * even for state at module level, which no second simulation in the process could re-create); a later frame
 * is traced by running both again, which re-creates state kept per simulation (closures) exactly.
 */
import { FormatError } from '../binary/format-error.js';
import { createEventBus } from '../ecs/events.js';
import { Simulation } from '../sim/simulation.js';
import type { CollisionWorld } from '../worlds/world.js';
import type { Limits } from '../limits.js';
import { frameInputs, hex64, type Replay } from './format.js';
import { restoreKeyframe } from './seek.js';

/** The state hash after one task of a frame. */
export interface TaskTraceEntry {
  id: number;
  name: string;
  priority: number;
  hi: number;
  lo: number;
}

/** A keyframe that, restored into a fresh simulation and run on, does not give the recorded frames. */
export interface RestoreDivergence {
  /** The keyframe restored (its frame). */
  keyframe: number;
  /** The first frame after it whose recorded values the restored run does not give. */
  frame: number;
  /** The recorded hash of `frame` (the run from frame 0 gave it too). */
  expected: string;
  /** The restored run's hash at `frame`. */
  actual: string;
  /** What differs at `frame`: `hash`, `section <name>`, `fieldrand`, `ccrand`. */
  fields: string[];
  /** Sections of the state hash whose recorded low word differs at `frame`. */
  sections: string[];
  /** RNG draw counters that differ at `frame`. */
  rng: { name: string; recorded: number; replayed: number }[];
  /**
   * The system (scheduler task) found responsible: run from the same state at the start of `frame`, the
   * state first differs between the two runs right after it. Null when it could not be found (see `reason`).
   */
  system: { id: number; name: string; priority: number } | null;
  /** One line: what this means, or why no system is named. */
  reason: string;
}

/** Options of `checkKeyframes`. */
export interface KeyframeCheckOptions {
  limits: Readonly<Limits>;
  /** Builds a fresh simulation like the verified one (same world object, scenario and settings). */
  fresh: () => Simulation;
  /** The verified run's task trace of frame K + 1, for each keyframe K. */
  traces: ReadonlyMap<number, TaskTraceEntry[]>;
  /** Called after each frame a simulation of the check runs (`VerifyOptions.onFrame`). */
  onFrame?: () => void;
}

/** What the keyframe check found: a divergence, a reason it could not run, or neither. */
export type KeyframeCheckResult = { divergence: RestoreDivergence } | { skipped: string } | null;

interface StatefulWorld {
  saveState?(): unknown;
  restoreState?(s: unknown): void;
}

/** Steps `sim` one frame, hashing the state after every task (in run order). */
export function traceStep(sim: Simulation, buttons: number | ArrayLike<number>): TaskTraceEntry[] {
  const trail: TaskTraceEntry[] = [];
  const s = sim.scheduler;
  const before = s.afterTask;
  s.afterTask = (t) => {
    before?.(t);
    const h = sim.hash();
    trail.push({ id: t.id, name: t.name, priority: t.priority, hi: h.hi, lo: h.lo });
  };
  try {
    sim.step(buttons);
  } finally {
    s.afterTask = before;
  }
  return trail;
}

/** The first task after which two traces of a frame from the same state differ, or null. */
export function firstDifferingTask(a: TaskTraceEntry[], b: TaskTraceEntry[]): TaskTraceEntry | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.id !== y.id || x.name !== y.name || x.hi !== y.hi || x.lo !== y.lo) return x;
  }
  return a.length === b.length ? null : (a[n] ?? b[n])!;
}

function recordedHashIs(rp: Replay, sim: Simulation, f: number): boolean {
  const h = sim.hash();
  if (f === 0) return h.hi === rp.keyframes[0]!.hashHi && h.lo === rp.keyframes[0]!.hashLo;
  return h.hi === rp.frames.hashHi[f - 1] && h.lo === rp.frames.hashLo[f - 1];
}

/**
 * Restores every keyframe of `rp` before its last frame into a fresh simulation, runs it to the next
 * keyframe (or the end) with the recorded inputs and compares each frame with the recording; stops at the
 * first difference and names the system (see the module comment). `main` is the verified simulation (at
 * the last frame, every frame matched); a world with run-time state shared with the fresh simulations gets
 * `main`'s back at the end.
 */
export function checkKeyframes(rp: Replay, main: Simulation, options: KeyframeCheckOptions): KeyframeCheckResult {
  const world = main.world as CollisionWorld & StatefulWorld;
  const kept = world.saveState?.();
  try {
    return run(rp, options);
  } finally {
    if (world.restoreState) world.restoreState(kept);
  }
}

function run(rp: Replay, options: KeyframeCheckOptions): KeyframeCheckResult {
  const f = rp.frames;
  const S = rp.header.sections.length;
  const names = rp.header.sections;
  const keys = rp.keyframes;
  for (let ki = 0; ki < keys.length; ki++) {
    const k = keys[ki]!;
    if (k.frame >= f.count) break;
    const end = ki + 1 < keys.length ? keys[ki + 1]!.frame : f.count;
    let r: Simulation;
    try {
      r = options.fresh();
      restoreKeyframe(r, k, { replay: rp, limits: options.limits });
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      return { skipped: `the keyframes were not checked by restoring them: a simulation built from the scenario and settings does not take the keyframe at frame ${k.frame} (${e.message})` };
    }
    let firstTrace: TaskTraceEntry[] | null = null;
    for (let g = k.frame + 1; g <= end; g++) {
      const input = frameInputs(f, g - 1);
      if (g === k.frame + 1) firstTrace = traceStep(r, input);
      else r.step(input);
      options.onFrame?.();
      const h = r.hash();
      const d = r.scheduler.drawCounts();
      const fields: string[] = [];
      if (h.hi !== f.hashHi[g - 1] || h.lo !== f.hashLo[g - 1]) fields.push('hash');
      const sections: string[] = [];
      for (let s = 0; s < S; s++) {
        if (h.sections[2 * s + 1] !== f.sections[(g - 1) * S + s]) {
          sections.push(names[s]!);
          fields.push(`section ${names[s]}`);
        }
      }
      const rng: RestoreDivergence['rng'] = [];
      if (d.fieldrand !== f.fieldrand[g - 1]) {
        rng.push({ name: 'fieldrand', recorded: f.fieldrand[g - 1]!, replayed: d.fieldrand });
        fields.push('fieldrand');
      }
      if (d.ccrand !== f.ccrand[g - 1]) {
        rng.push({ name: 'ccrand', recorded: f.ccrand[g - 1]!, replayed: d.ccrand });
        fields.push('ccrand');
      }
      if (!fields.length) continue;
      const found = g === k.frame + 1 ? compareTraces(options.traces.get(k.frame) ?? null, firstTrace!) : retrace(rp, k.frame, g, h, options);
      const system = found.task ? { id: found.task.id, name: found.task.name, priority: found.task.priority } : null;
      return {
        divergence: {
          keyframe: k.frame,
          frame: g,
          expected: hex64(f.hashHi[g - 1]!, f.hashLo[g - 1]!),
          actual: hex64(h.hi, h.lo),
          fields,
          sections,
          rng,
          system,
          reason: system
            ? `system ${system.name} (task ${system.id}) does not give the same state in frame ${g} after a restore of the keyframe at frame ${k.frame} as in the run from frame 0, from the same state: it keeps state outside the snapshot (a closure or module variable, a cache), so a seek from that keyframe answers wrong`
            : `the run restored from the keyframe at frame ${k.frame} differs from the recording at frame ${g}; no system is named: ${found.why}`,
        },
      };
    }
  }
  return null;
}

function compareTraces(main: TaskTraceEntry[] | null, restored: TaskTraceEntry[]): { task: TaskTraceEntry | null; why: string } {
  if (!main) return { task: null, why: 'the run from frame 0 kept no trace of that frame' };
  const t = firstDifferingTask(main, restored);
  return t ? { task: t, why: '' } : { task: null, why: 'every task gave the same state in both runs (the difference is made outside the tasks)' };
}

/**
 * Runs frame `g` again, traced, in a fresh simulation from frame 0 and in one restored from keyframe
 * `from`; each must reproduce its first run (the recording at g − 1 and g, the restored run's hash at g),
 * or the comparison would not be of the same runs.
 */
function retrace(rp: Replay, from: number, g: number, restoredAt: { hi: number; lo: number }, options: KeyframeCheckOptions): { task: TaskTraceEntry | null; why: string } {
  const inputs = (i: number) => frameInputs(rp.frames, i);
  const c = options.fresh();
  for (let x = 1; x < g; x++) {
    c.step(inputs(x - 1));
    options.onFrame?.();
  }
  if (!recordedHashIs(rp, c, g - 1)) {
    return { task: null, why: `a second run from frame 0 in this process no longer gives the recorded frame ${g - 1} (state kept outside the simulations, e.g. at module level, changed between runs)` };
  }
  const a = traceStep(c, inputs(g - 1));
  if (!recordedHashIs(rp, c, g)) return { task: null, why: `a second run from frame 0 in this process no longer gives the recorded frame ${g} (state kept outside the simulations, e.g. at module level, changed between runs)` };
  const r = options.fresh();
  restoreKeyframe(r, rp.keyframes.find((k) => k.frame === from)!, { replay: rp, limits: options.limits });
  for (let x = from + 1; x < g; x++) {
    r.step(inputs(x - 1));
    options.onFrame?.();
  }
  const b = traceStep(r, inputs(g - 1));
  const h = r.hash();
  if (h.hi !== restoredAt.hi || h.lo !== restoredAt.lo) return { task: null, why: `a second restore of the keyframe at frame ${from} does not give the first one's frame ${g} (state kept outside the simulations changed between runs)` };
  return compareTraces(a, b);
}

