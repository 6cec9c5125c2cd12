/**
 * Runs one batch job through the public API: a simulation (createSimulation, the world from its bytes,
 * the scenario built in or from its module, the stand-in player's buttons, a ReplayRecorder when the job
 * keeps its replay) or a replay verification (verifyReplay). It touches nothing outside what it is given:
 * inputs come from `env` by content hash, and the result is plain data.
 *
 * The result body depends only on the payload: no clock, no path of this machine, no worker name. The
 * timing (seconds, frames per second) is returned beside it and never enters it.
 */
import { createHash } from 'node:crypto';
import {
  builtinScenario,
  createSimulation,
  demoButtons,
  detectWorldFile,
  loadWorldBytes,
  readReplay,
  ReplayRecorder,
  scenarioIdentity,
  verifyReplay,
  worldIdentity,
  isInputWord,
  type CollisionWorld,
  type LoadWorldOptions,
  type OpenedWorld,
  type PineyTables,
  type ScenarioDef,
  type ScenarioIdentity,
  type Simulation,
  type SimulationInit,
} from '../index.js';
import { parseGtaPlacements } from '../worlds/gta/index.js';
import { LosStats } from './los-stats.js';
import { MEMORY_CHECK_FRAMES } from './memory-limit.js';
import type { BlobRef, JobPayload, RunPayload, ScenarioInput, VerifyPayload, WorldInput } from './payload.js';

/** What a job runs with: its inputs by content hash, the field tables, module loading, a clock for the timing. */
export interface RunnerEnv {
  /** The bytes of an input; throws when they are not there. */
  blob(ref: BlobRef): Uint8Array;
  /** The Piney field tables (for a field spec world). */
  pineyTables(): PineyTables;
  /**
   * A scenario module by its module graph's hash, recorded as `file:<source>`: a file of the env's own
   * whose graph has that hash (its allow-list), a fresh instance for each job; throws when it has none. For
   * a verify job, `recorded` is the replay's scenario: the module is refused before it runs when its graph
   * is not that one.
   */
  scenarioModule(source: string, graph: string, recorded?: ScenarioIdentity): Promise<ScenarioDef>;
  /** Milliseconds, for the timing only. */
  now(): number;
  /**
   * The world of a job, when the env keeps worlds between jobs (a worker thread does: see worker-env.ts);
   * without it every job loads its world from its parts (`openWorldInput`).
   */
  world?(w: WorldInput): OpenedWorld;
  /**
   * Given each run job's simulation when the job ends, and null once the next run job has run its first
   * KEEP_PREVIOUS_FRAMES frames: a worker thread holds on to the simulation in between (see worker-env.ts),
   * which keeps the compiled code of its systems alive for the next job. Nothing reads it.
   */
  keep?(sim: Simulation | null): void;
  /**
   * Throws when the job uses more memory than it may (a worker thread's limit: see memory-limit.ts).
   * Called before the first frame, every MEMORY_CHECK_FRAMES frames and after the last; it only reads.
   */
  checkMemory?(): void;
}

/** Frames a run job runs before its env may let go of the previous job's simulation (RunnerEnv.keep). */
export const KEEP_PREVIOUS_FRAMES = 60;

/** A job's answer: the result body (compared across runs), a kept replay, and the timing (not compared). */
export interface JobOutput {
  body: Record<string, unknown>;
  replay: Uint8Array | null;
  seconds: number;
  framesPerSecond: number;
}

/** Where a job keeps its replay, relative to the results file's folder. */
export function replayFileFor(key: string): string {
  return `replays/${key}.replay`;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Runs one job. Throws an Error whose message says what failed (a bad world file, an unknown parameter...). */
export async function runJob(p: JobPayload, env: RunnerEnv): Promise<JobOutput> {
  return p.kind === 'run' ? runSimulation(p, env) : verify(p, env);
}

/** Loads a world from its parts, with the identity `openWorld` would give it. */
export function openWorldInput(w: WorldInput, env: RunnerEnv): OpenedWorld {
  const parts = w.parts.map((p) => ({ role: p.role, bytes: env.blob(p.blob) }));
  const main = parts.find((p) => p.role === 'main');
  if (!main) throw new Error(`world ${w.source}: no main file among its parts`);
  const options: LoadWorldOptions = {};
  for (const p of parts) {
    if (p.role === 'map') options.map = p.bytes;
    else if (p.role === 'trak') options.trak = p.bytes;
    else if (p.role === 'placements') options.placements = parseGtaPlacements(new TextDecoder().decode(p.bytes));
  }
  // Only a field spec needs the tables; reading them for other worlds would be wasted work.
  if (detectWorldFile(main.bytes) === 'piney') options.pineyTables = env.pineyTables();
  const world: CollisionWorld = loadWorldBytes(main.bytes, w.name, options);
  const all = concat(parts.map((p) => p.bytes));
  return { world, identity: worldIdentity(world, all, w.source), bytes: all };
}

async function scenarioOf(s: ScenarioInput, env: RunnerEnv, recorded?: ScenarioIdentity): Promise<ScenarioDef> {
  return 'builtin' in s ? builtinScenario(s.builtin) : env.scenarioModule(s.source, s.graph, recorded);
}

/** A job's world: the env's kept one, or loaded now. */
function worldOf(w: WorldInput, env: RunnerEnv): OpenedWorld {
  return env.world ? env.world(w) : openWorldInput(w, env);
}

async function runSimulation(p: RunPayload, env: RunnerEnv): Promise<JobOutput> {
  const opened = worldOf(p.world, env);
  const scenario = await scenarioOf(p.scenario, env);
  const init: SimulationInit = { scenario, params: { ...p.settings.params } };
  const s = p.settings;
  if (s.agents !== undefined) init.agents = s.agents;
  if (s.streamSeed !== undefined) init.streamSeed = s.streamSeed;
  if (s.fieldSeed !== undefined) init.fieldSeed = s.fieldSeed;
  if (s.ccRandInit !== undefined) init.ccRandInit = s.ccRandInit;
  if (s.capacity !== undefined) init.capacity = s.capacity;
  const sim = createSimulation(opened.world, init);
  const measure = new Set(p.measure);
  const events = { death: 0, exit: 0, signal: 0, sound: 0, flash: 0 };
  const signals = new Map<string, number>();
  if (measure.has('events')) {
    sim.events.on('death', () => void events.death++);
    sim.events.on('exit', () => void events.exit++);
    sim.events.on('sound', () => void events.sound++);
    sim.events.on('flash', () => void events.flash++);
    sim.events.on('signal', (e) => {
      events.signal++;
      signals.set(e.name, (signals.get(e.name) ?? 0) + 1);
    });
  }
  const los = measure.has('los') ? new LosStats(sim, p.losEvery) : null;
  const rec = p.keepReplay ? new ReplayRecorder(sim, opened.identity) : null;
  const release = Math.min(KEEP_PREVIOUS_FRAMES, p.frames);
  env.checkMemory?.();
  const t0 = env.now();
  for (let f = 1; f <= p.frames; f++) {
    const b = p.input === 'demo' ? demoButtons(f) : 0;
    if (rec) rec.step(b);
    else sim.step(b);
    los?.afterFrame(f);
    if (f === release) env.keep?.(null);
    if (f % MEMORY_CHECK_FRAMES === 0) env.checkMemory?.();
  }
  const seconds = (env.now() - t0) / 1000;
  env.keep?.(sim);
  const body: Record<string, unknown> = {
    world: opened.identity,
    scenario: resultScenario(scenarioIdentity(scenario)),
    settings: { ...sim.settings, params: { ...sim.settings.params } },
    agents: sim.agentsPlaced,
    frames: p.frames,
    finalHash: sim.hashHex(),
  };
  if (measure.has('draws')) {
    const d = sim.scheduler.drawCounts();
    const streams: Record<string, number> = {};
    for (const st of sim.rng.streams.save().streams) streams[st.name] = st.draws;
    body['draws'] = { fieldrand: d.fieldrand, ccrand: d.ccrand, streams };
  }
  if (measure.has('events')) {
    const named: Record<string, number> = {};
    for (const k of [...signals.keys()].sort()) named[k] = signals.get(k)!;
    body['events'] = { ...events, signals: named };
  }
  if (los) body['los'] = los.result();
  let replay: Uint8Array | null = null;
  if (rec) {
    replay = rec.finish();
    body['replay'] = { file: replayFileFor(p.key), bytes: replay.length, sha256: sha256Hex(replay) };
  }
  return { body, replay, seconds, framesPerSecond: seconds > 0 ? p.frames / seconds : 0 };
}

async function verify(p: VerifyPayload, env: RunnerEnv): Promise<JobOutput> {
  const rp = readReplay(env.blob(p.replay), isInputWord);
  const world = worldOf(p.world, env);
  const recordsModule = (rp.header.scenario.modules?.length ?? 0) > 0 || rp.header.scenario.source.startsWith('file:');
  if (recordsModule && !(p.scenario && 'graph' in p.scenario)) {
    throw new Error(`the replay ran scenario ${JSON.stringify(rp.header.scenario.name)} from a module (module graph ${rp.header.scenario.contentHash}), and the job names none: a module a replay names is never run on its own`);
  }
  const scenario = p.scenario ? await scenarioOf(p.scenario, env, recordsModule ? rp.header.scenario : undefined) : undefined;
  // The memory limit, checked as for a run: before the first frame and every MEMORY_CHECK_FRAMES frames.
  env.checkMemory?.();
  let simulated = 0;
  const onFrame = () => {
    if (++simulated % MEMORY_CHECK_FRAMES === 0) env.checkMemory?.();
  };
  const t0 = env.now();
  const v = verifyReplay(rp, { world, ...(scenario ? { scenario } : {}) }, env.checkMemory ? { onFrame } : {});
  const seconds = (env.now() - t0) / 1000;
  const body: Record<string, unknown> = {
    replay: { file: p.file, bytes: p.replay.bytes, sha256: p.replay.sha256 },
    world: rp.header.world,
    // As a run job's result names it: the per-module list stays in the replay's header.
    scenario: resultScenario(rp.header.scenario),
    settings: rp.header.settings,
    ok: v.ok,
    frames: v.frames,
    recordedFrames: rp.frames.count,
    finalHash: v.finalHash,
    divergence: v.divergence ?? null,
    warnings: v.warnings,
  };
  return { body, replay: null, seconds, framesPerSecond: seconds > 0 ? v.frames / seconds : 0 };
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of parts) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/**
 * The scenario as a result line names it: name, version, source and content hash (the hash covers its
 * module graph; the per-module list stays in the replay's header, not in every line).
 */
function resultScenario(i: ScenarioIdentity): ScenarioIdentity {
  return { name: i.name, version: i.version, source: i.source, contentHash: i.contentHash };
}
