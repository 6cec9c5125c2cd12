/**
 * Verifying a replay: re-simulate it from its settings and inputs (not from its keyframes) and compare
 * every frame's hash; on a divergence, report the frame, the sections and RNG counters that differ, and the
 * values that differ at the next keyframe.
 */
import { FormatError } from '../binary/format-error.js';
import { decodeValueBytes } from '../ecs/value-codec.js';
import { Simulation, type SimSnapshot } from '../sim/simulation.js';
import { BUTTON_MASK } from '../systems/input.js';
import { hex64, readReplay, RUNTIME_VERSION, type Replay } from './format.js';
import { replaySimulation, type ReplayTarget } from './rebuild.js';

/** Where a re-simulation first differed from its replay, and how. */
export interface Divergence {
  /** The first frame whose hash differs. */
  frame: number;
  /** The recorded hash and the re-simulated one, "0x" + 16 hex digits. */
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

/** The values that differ between a keyframe and the re-simulated state at its frame. */
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

/** verifyReplay's answer. */
export interface VerifyResult {
  /** True when every frame's hash matched. */
  ok: boolean;
  /** Frames re-simulated. */
  frames: number;
  /** The final state hash, "0x" + 16 hex digits. */
  finalHash: string;
  framesPerSecond: number;
  /** The first divergence, when not ok. */
  divergence?: Divergence;
  /** Non-fatal notes, e.g. a different runtime version. */
  warnings: string[];
}

/**
 * Re-simulates a replay from its settings and inputs (not from its keyframes) and compares every frame's
 * hash, and the state at every keyframe. `with_` is a simulation freshly built from the replay's world and
 * settings, or what to build one from (`{ world, scenario }`, checked against the header as
 * `replaySimulation` does).
 *
 * @example
 * const result = verifyReplay(bytes, { world: await openWorld('level.col'), scenario: guards });
 * if (!result.ok) console.log(result.divergence);
 */
export function verifyReplay(replay: Replay | Uint8Array, with_: Simulation | ReplayTarget): VerifyResult {
  const rp = replay instanceof Uint8Array ? readReplay(replay, BUTTON_MASK) : replay;
  const sim = with_ instanceof Simulation ? with_ : replaySimulation(rp.header, with_);
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
