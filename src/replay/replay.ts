/**
 * Recording, verifying and seeking replays of a Simulation (the file format is src/replay/format.ts).
 * Runs in Node and in browsers (the global `performance` times verification; nothing here reads a file).
 */
import {
  DEFAULT_KEYFRAME_INTERVAL,
  hex64,
  ReplayWriter,
  RUNTIME_VERSION,
  type Replay,
  type ReplayKeyframe,
  type WorldIdentity,
} from './format.js';
import { decodeValueBytes, encodeValueBytes } from '../ecs/value-codec.js';
import { FormatError } from '../binary/format-error.js';
import { BUTTON_MASK } from '../systems/input.js';
import type { SimSnapshot, Simulation } from '../sim/simulation.js';
import { checkSettings, findScenario, type ScenarioSettings } from '../sim/scenario.js';
import type { ReplayHeader } from './format.js';

export { BUTTON_MASK };

/** Records a simulation as it runs: call `step(buttons)` instead of `sim.step`, then `finish()`. */
export class ReplayRecorder {
  private readonly w = new ReplayWriter();
  private readonly S: number;
  private readonly block: { inputs: Uint32Array; hashHi: Uint32Array; hashLo: Uint32Array; fieldrand: Uint32Array; ccrand: Uint32Array; sections: Uint32Array };
  private n = 0;
  private first = 1;
  lastHash = { hi: 0, lo: 0 };

  constructor(
    readonly sim: Simulation,
    world: WorldIdentity,
    readonly keyframeInterval = DEFAULT_KEYFRAME_INTERVAL,
  ) {
    if (!Number.isInteger(keyframeInterval) || keyframeInterval < 1 || keyframeInterval > 1 << 20) throw new RangeError(`keyframe interval must be in 1..${1 << 20}`);
    if (sim.frame % keyframeInterval !== 0) throw new RangeError(`recording must start on a keyframe frame, not ${sim.frame}`);
    const sections = [...sim.sectionNames()];
    this.S = sections.length;
    this.w.header({ formatVersion: 1, runtime: RUNTIME_VERSION, world, settings: { ...sim.settings }, keyframeInterval, sections });
    const K = keyframeInterval;
    this.block = {
      inputs: new Uint32Array(K),
      hashHi: new Uint32Array(K),
      hashLo: new Uint32Array(K),
      fieldrand: new Uint32Array(K),
      ccrand: new Uint32Array(K),
      sections: new Uint32Array(K * this.S),
    };
    this.first = sim.frame + 1;
    this.keyframe();
  }

  private keyframe(): void {
    const h = this.sim.hash();
    this.w.keyframe(this.sim.frame, h.hi, h.lo, encodeValueBytes(this.sim.save()));
  }

  step(buttons: number): void {
    const sim = this.sim;
    sim.step(buttons & BUTTON_MASK);
    const h = sim.hash();
    const d = sim.scheduler.drawCounts();
    const b = this.block;
    const i = this.n++;
    b.inputs[i] = sim.input;
    b.hashHi[i] = h.hi;
    b.hashLo[i] = h.lo;
    b.fieldrand[i] = d.fieldrand;
    b.ccrand[i] = d.ccrand;
    for (let s = 0; s < this.S; s++) b.sections[i * this.S + s] = h.sections[2 * s + 1]!;
    this.lastHash = { hi: h.hi, lo: h.lo };
    if (sim.frame % this.keyframeInterval === 0) {
      this.flush();
      this.keyframe();
    }
  }

  private flush(): void {
    if (this.n === 0) return;
    this.w.frames(this.first, this.n, this.block, this.S);
    this.first += this.n;
    this.n = 0;
  }

  finish(): Uint8Array {
    this.flush();
    return this.w.end(this.sim.frame, this.lastHash.hi, this.lastHash.lo);
  }
}

/**
 * The settings a replay asks for, checked (agent count, capacity, ccRand init count, ...) before anything is
 * built from them: a hostile header cannot ask for absurd work. A FormatError names the header.
 */
export function checkReplaySettings(h: ReplayHeader): ScenarioSettings {
  try {
    const s = checkSettings({ ...h.settings });
    // A scenario this runtime does not have, or one over a kind of world it does not run on, cannot be rebuilt
    // (found by the fuzzer: the Simulation constructor threw a plain Error). The recorded kind is checked
    // against the world opened by checkWorldIdentity.
    const def = findScenario(s.scenario);
    if (def.worldKinds && !def.worldKinds.includes(h.world.kind)) {
      throw new Error(`scenario ${s.scenario} runs on ${def.worldKinds.join(', ')} worlds, the replay's world is ${JSON.stringify(h.world.kind)}`);
    }
    return s;
  } catch (e) {
    throw new FormatError('replay chunk HEAD #0 (header)', -1, (e as Error).message);
  }
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

export interface Divergence {
  frame: number;
  expected: string;
  actual: string;
  /** Sections of the state hash whose recorded low word differs (component names, "rng", "tasks", ...). */
  sections: string[];
  /** RNG counters that differ at that frame. */
  rng: { name: string; recorded: number; replayed: number }[];
  /**
   * Field by field: the first keyframe at or after the divergence, compared with the re-simulated state at
   * that frame (null when the replay has no keyframe there or it cannot be read).
   */
  detail: KeyframeDiff | null;
}

export interface KeyframeDiff {
  frame: number;
  /** At most MAX_LISTED_DIFFERENCES lines like "Position.x of entity 3: recorded 12.5, replayed 12.75". */
  differences: string[];
  /** How many differences there are in all. */
  total: number;
}

/** How many differences a divergence report lists. */
export const MAX_LISTED_DIFFERENCES = 20;

/**
 * Steps `sim` (already past its divergence) to the first keyframe at or after `frame` and compares it with
 * that keyframe, value by value: RNG states and draw counts, tasks, entities, component fields.
 */
export function diffAtKeyframe(rp: Replay, sim: Simulation, frame: number): KeyframeDiff | null {
  const k = rp.keyframes.find((x) => x.frame >= frame);
  if (!k || sim.frame > k.frame) return null;
  let rec: SimSnapshot;
  try {
    rec = decodeValueBytes(k.snapshot, `replay chunk KEYF (keyframe at frame ${k.frame})`) as unknown as SimSnapshot;
  } catch {
    return null;
  }
  while (sim.frame < k.frame) sim.step(rp.frames.inputs[sim.frame]!);
  const now = sim.save();
  const out: string[] = [];
  let total = 0;
  const note = (line: string) => {
    if (out.length < MAX_LISTED_DIFFERENCES) out.push(line);
    total++;
  };
  const show = (v: unknown) => (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? String(v) : JSON.stringify(v) ?? 'undefined');
  // RNG and tasks first (a few lines that often explain the rest), then entities and fields.
  const ra = rec?.rng;
  if (ra) {
    if (ra.fieldrand?.seed !== now.rng.fieldrand.seed || ra.fieldrand?.count !== now.rng.fieldrand.count) {
      note(`fieldrand: recorded seed ${show(ra.fieldrand?.seed)} count ${show(ra.fieldrand?.count)}, replayed seed ${now.rng.fieldrand.seed} count ${now.rng.fieldrand.count}`);
    }
    if (ra.ccrand?.draws !== now.rng.ccrand.draws || ra.ccrand?.mti !== now.rng.ccrand.mti) note(`ccRand: recorded ${show(ra.ccrand?.draws)} draws, replayed ${now.rng.ccrand.draws}`);
    for (const st of now.rng.streams.streams) {
      const sa = Array.isArray(ra.streams?.streams) ? ra.streams.streams.find((x) => x && x.name === st.name) : undefined;
      if (!sa || sa.draws !== st.draws) note(`stream ${st.name}: recorded ${show(sa?.draws)} draws, replayed ${st.draws}`);
    }
  }
  const ta = rec?.scheduler?.tasks;
  if (Array.isArray(ta)) {
    for (const t of now.scheduler.tasks) {
      const u = ta.find((x) => x && x.id === t.id);
      if (!u) note(`task ${t.name} (${t.id}): not in the recording`);
      else if (u.sleepUntil !== t.sleepUntil) note(`task ${t.name}: recorded asleep until ${show(u.sleepUntil)}, replayed ${t.sleepUntil}`);
    }
  }
  const a = rec?.ecs;
  const b = now.ecs;
  if (!a || !Array.isArray(a.fields) || !(a.dense instanceof Uint32Array)) {
    note('the keyframe has no readable entity state');
  } else {
    const alive = (st: typeof b, id: number) => {
      for (let i = 0; i < st.aliveCount; i++) if (st.dense[i] === id) return true;
      return false;
    };
    const maxId = Math.max(a.maxId, b.maxId);
    for (let id = 1; id <= maxId; id++) {
      const ra = alive(a, id);
      const rb = alive(b, id);
      if (ra !== rb) note(`entity ${id}: ${ra ? 'alive' : 'dead'} in the recording, ${rb ? 'alive' : 'dead'} in the re-simulation`);
      else if (ra && a.membership[id] !== b.membership[id]) note(`entity ${id}: components 0x${a.membership[id]?.toString(16)} recorded, 0x${b.membership[id]!.toString(16)} replayed`);
    }
    for (let i = 0; i < b.fields.length; i++) {
      const fb = b.fields[i]!;
      const fa = a.fields.find((x) => x && x.component === fb.component && x.field === fb.field);
      if (!fa) {
        note(`${fb.component}.${fb.field}: missing from the keyframe`);
        continue;
      }
      for (let id = 1; id <= maxId; id++) {
        if (!alive(b, id)) continue;
        const va = fa.values[id];
        const vb = fb.values[id];
        if (!Object.is(va, vb)) note(`${fb.component}.${fb.field} of entity ${id}: recorded ${show(va)}, replayed ${show(vb)}`);
      }
    }
  }
  return { frame: k.frame, differences: out, total };
}

export interface VerifyResult {
  ok: boolean;
  frames: number;
  finalHash: string;
  framesPerSecond: number;
  divergence?: Divergence;
  /** Non-fatal notes, e.g. a different runtime version. */
  warnings: string[];
}

/**
 * Re-simulates a replay from its settings and inputs (not from its keyframes) and compares every frame's
 * hash, and the state at every keyframe. `sim` must be freshly built from the replay's world and settings.
 */
export function verifyReplay(rp: Replay, sim: Simulation): VerifyResult {
  const warnings: string[] = [];
  if (rp.header.runtime !== RUNTIME_VERSION) warnings.push(`recorded by ${rp.header.runtime}, verified by ${RUNTIME_VERSION}`);
  const names = [...sim.sectionNames()];
  if (names.join(',') !== rp.header.sections.join(',')) {
    throw new FormatError('replay chunk HEAD (header)', -1, `hash sections ${rp.header.sections.join(',')} differ from this runtime's ${names.join(',')}`);
  }
  const f = rp.frames;
  const S = names.length;
  const t0 = performance.now();
  const k0 = rp.keyframes[0]!;
  const h0 = sim.hash();
  if (h0.hi !== k0.hashHi || h0.lo !== k0.hashLo) {
    return fail(0, hex64(k0.hashHi, k0.hashLo), hex64(h0.hi, h0.lo), ['(initial state)'], []);
  }
  let ki = 1;
  for (let i = 0; i < f.count; i++) {
    sim.step(f.inputs[i]!);
    const h = sim.hash();
    if (h.hi !== f.hashHi[i] || h.lo !== f.hashLo[i]) {
      const sections: string[] = [];
      for (let s = 0; s < S; s++) if (h.sections[2 * s + 1] !== f.sections[i * S + s]) sections.push(names[s]!);
      const d = sim.scheduler.drawCounts();
      const rng: Divergence['rng'] = [];
      if (d.fieldrand !== f.fieldrand[i]) rng.push({ name: 'fieldrand', recorded: f.fieldrand[i]!, replayed: d.fieldrand });
      if (d.ccrand !== f.ccrand[i]) rng.push({ name: 'ccrand', recorded: f.ccrand[i]!, replayed: d.ccrand });
      return fail(i + 1, hex64(f.hashHi[i]!, f.hashLo[i]!), hex64(h.hi, h.lo), sections, rng, true);
    }
    const k = rp.keyframes[ki];
    if (k && k.frame === i + 1) {
      ki++;
      if (k.hashHi !== h.hi || k.hashLo !== h.lo) return fail(k.frame, hex64(k.hashHi, k.hashLo), hex64(h.hi, h.lo), ['(keyframe)'], []);
    }
  }
  const dt = (performance.now() - t0) / 1000;
  return { ok: true, frames: f.count, finalHash: sim.hashHex(), framesPerSecond: dt > 0 ? f.count / dt : 0, warnings };

  function fail(frame: number, expected: string, actual: string, sections: string[], rng: Divergence['rng'], withDetail = false): VerifyResult {
    const dt = (performance.now() - t0) / 1000;
    sim.events.emit('desync', { frame, detail: `replay verify: frame ${frame} hashes ${actual}, recorded ${expected}; differs in ${sections.join(', ') || '(no section)'}` });
    const detail = withDetail ? diffAtKeyframe(rp, sim, frame) : null;
    return { ok: false, frames: frame, finalHash: actual, framesPerSecond: dt > 0 ? frame / dt : 0, divergence: { frame, expected, actual, sections, rng, detail }, warnings };
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
