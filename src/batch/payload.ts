/**
 * What travels to a worker for one job: the job's settings and its inputs named by content (SHA-256 of
 * their bytes), never by path, so a worker on another machine needs no shared disk. The bytes travel
 * separately (worker_threads messages locally, Redis keys on a queue), once per worker.
 *
 * A payload read back from Redis is outside data: `checkPayload` checks its shape before anything runs.
 */
import { DEFAULT_LIMITS, RUNTIME_VERSION, type Limits } from '../index.js';
import type { ParamValue } from '../systems/system.js';
import { DEFAULT_MAX_MEMORY_MIB, DEFAULT_MAX_SECONDS, INPUTS, MAX_MAX_MEMORY_MIB, MAX_MAX_SECONDS, MEASURES, MIN_MAX_MEMORY_MIB, type InputMode, type Measure } from './schema.js';

/** An input's bytes, named by their SHA-256 (64 lower-case hex digits). */
export interface BlobRef {
  sha256: string;
  bytes: number;
}

/** The parts of a world, in the order its identity hashes them (the file given, then its partners). */
export interface WorldInput {
  /** "builtin:<id>" or "file:<path as written>" (plus ";map:<path>" for an explicit Llama MAP). */
  source: string;
  /** The name the world is loaded with (its file name). */
  name: string;
  parts: { role: WorldPartRole; blob: BlobRef }[];
}

export type WorldPartRole = 'main' | 'map' | 'trak' | 'placements';

/**
 * A built-in scenario by name, or a module file by its module graph's hash (see node/module-graph.ts) and
 * the path it is recorded as. A module never travels as bytes: a worker runs it only from a file of its own
 * whose graph has that hash (its allow-list), so a job is data, never code.
 */
export type ScenarioInput = { builtin: string } | { source: string; graph: string };

/** The settings a run job gives (the rest are the world's and scenario's defaults). */
export interface RunSettings {
  agents?: number;
  streamSeed?: string;
  fieldSeed?: number;
  ccRandInit?: number;
  capacity?: number;
  params: Record<string, ParamValue>;
}

/** A simulation to run and measure. */
export interface RunPayload {
  kind: 'run';
  key: string;
  /** The runtime the batch was planned with (`RUNTIME_VERSION`): a worker of another version refuses the job. */
  runtime: string;
  /** The SHA-256 of the planning runtime's built files (src/node/runtime-hash.ts): a worker of other code puts the job back. */
  runtimeHash: string;
  world: WorldInput;
  scenario: ScenarioInput;
  settings: RunSettings;
  frames: number;
  input: InputMode;
  measure: Measure[];
  losEvery: number;
  keepReplay: boolean;
  /**
   * Seconds it may run on a thread before it is stopped and fails (DEFAULT_MAX_SECONDS when absent). Not
   * part of the key: it changes no result, only whether there is one.
   */
  maxSeconds?: number;
  /**
   * MiB of memory its thread may use before it is stopped and fails (DEFAULT_MAX_MEMORY_MIB when absent);
   * not part of the key either.
   */
  maxMemoryMiB?: number;
}

/** A replay to verify against its world and scenario. */
export interface VerifyPayload {
  kind: 'verify';
  key: string;
  runtime: string;
  runtimeHash: string;
  /** The replay file's path as matched (relative to the batch file), for the result. */
  file: string;
  replay: BlobRef;
  world: WorldInput;
  /** Null for a built-in scenario (the replay names it). */
  scenario: ScenarioInput | null;
  /** As for a run job. */
  maxSeconds?: number;
  /** As for a run job. */
  maxMemoryMiB?: number;
}

export type JobPayload = RunPayload | VerifyPayload;

/** Every blob a payload needs. */
export function payloadBlobs(p: JobPayload): BlobRef[] {
  const out = p.world.parts.map((x) => x.blob);
  if (p.kind === 'verify') out.push(p.replay);
  return out;
}

const SHA = /^[0-9a-f]{64}$/;
const ROLES: readonly WorldPartRole[] = ['main', 'map', 'trak', 'placements'];

/** A payload that is not one (from Redis, written by something else): the message says what is wrong. */
export class PayloadError extends Error {
  override readonly name = 'PayloadError';
}

/** Checks a payload's shape (it may come from outside: a Redis key anyone could write). */
export function checkPayload(v: unknown, limits: Readonly<Limits> = DEFAULT_LIMITS): JobPayload {
  const bad = (what: string): never => {
    throw new PayloadError(`job payload: ${what}`);
  };
  const o = obj(v, 'the payload', bad);
  if (typeof o['key'] !== 'string' || !SHA.test(o['key'])) bad('key must be 64 hex digits');
  if (o['runtime'] !== RUNTIME_VERSION) bad(`the batch was planned by ${typeof o['runtime'] === 'string' ? o['runtime'].slice(0, 64) : 'another runtime'}, this worker is ${RUNTIME_VERSION}: run workers of the same version`);
  if (typeof o['runtimeHash'] !== 'string' || !SHA.test(o['runtimeHash'])) bad('runtimeHash must be 64 hex digits');
  const runtimeHash = o['runtimeHash'] as string;
  const world = worldInput(o['world'], bad);
  const maxSeconds = o['maxSeconds'] === undefined ? DEFAULT_MAX_SECONDS : int(o['maxSeconds'], 'maxSeconds', 1, MAX_MAX_SECONDS, bad);
  const maxMemoryMiB = o['maxMemoryMiB'] === undefined ? DEFAULT_MAX_MEMORY_MIB : int(o['maxMemoryMiB'], 'maxMemoryMiB', MIN_MAX_MEMORY_MIB, MAX_MAX_MEMORY_MIB, bad);
  if (o['kind'] === 'run') {
    const s = obj(o['settings'], 'settings', bad);
    const settings: RunSettings = { params: {} };
    for (const k of ['agents', 'fieldSeed', 'ccRandInit', 'capacity'] as const) {
      if (s[k] !== undefined) settings[k] = int(s[k], `settings.${k}`, 0, 0xffffffff, bad);
    }
    if (s['streamSeed'] !== undefined) settings.streamSeed = str(s['streamSeed'], 'settings.streamSeed', 256, bad);
    const params = obj(s['params'], 'settings.params', bad);
    for (const [k, x] of Object.entries(params)) {
      if (typeof x !== 'number' && typeof x !== 'string' && typeof x !== 'boolean') bad(`settings.params.${k} must be a number, string or boolean`);
      settings.params[k] = x as ParamValue;
    }
    if (!Array.isArray(o['measure']) || !o['measure'].every((m) => MEASURES.includes(m as Measure))) bad('measure must be a list of measures');
    if (!INPUTS.includes(o['input'] as InputMode)) bad('input must be demo or idle');
    if (typeof o['keepReplay'] !== 'boolean') bad('keepReplay must be true or false');
    return {
      kind: 'run',
      key: o['key'] as string,
      runtime: RUNTIME_VERSION,
      runtimeHash,
      world,
      scenario: scenarioInput(o['scenario'], bad),
      settings,
      frames: int(o['frames'], 'frames', 1, limits.replay.frames, bad),
      input: o['input'] as InputMode,
      measure: [...(o['measure'] as Measure[])],
      losEvery: int(o['losEvery'], 'losEvery', 1, limits.replay.frames, bad),
      keepReplay: o['keepReplay'] as boolean,
      maxSeconds,
      maxMemoryMiB,
    };
  }
  if (o['kind'] === 'verify') {
    return {
      kind: 'verify',
      key: o['key'] as string,
      runtime: RUNTIME_VERSION,
      runtimeHash,
      file: str(o['file'], 'file', 4096, bad),
      replay: blobRef(o['replay'], 'replay', bad),
      world,
      scenario: o['scenario'] === null ? null : scenarioInput(o['scenario'], bad),
      maxSeconds,
      maxMemoryMiB,
    };
  }
  return bad('kind must be "run" or "verify"');
}

type Bad = (what: string) => never;

function worldInput(v: unknown, bad: Bad): WorldInput {
  const w = obj(v, 'world', bad);
  const parts = w['parts'];
  if (!Array.isArray(parts) || parts.length < 1 || parts.length > 4) bad('world.parts must list 1 to 4 parts');
  return {
    source: str(w['source'], 'world.source', 8192, bad),
    name: str(w['name'], 'world.name', 4096, bad),
    parts: (parts as unknown[]).map((p, i) => {
      const q = obj(p, `world.parts[${i}]`, bad);
      if (!ROLES.includes(q['role'] as WorldPartRole)) bad(`world.parts[${i}].role must be one of ${ROLES.join(', ')}`);
      return { role: q['role'] as WorldPartRole, blob: blobRef(q['blob'], `world.parts[${i}].blob`, bad) };
    }),
  };
}

function scenarioInput(v: unknown, bad: Bad): ScenarioInput {
  const s = obj(v, 'scenario', bad);
  if (s['builtin'] !== undefined) return { builtin: str(s['builtin'], 'scenario.builtin', 64, bad) };
  if (s['blob'] !== undefined) bad('scenario.blob: a scenario module is named by its module graph (scenario.graph), never sent as bytes; a worker runs only modules on its allow-list');
  if (typeof s['graph'] !== 'string' || !SHA.test(s['graph'])) bad('scenario.graph must be 64 hex digits');
  return { source: str(s['source'], 'scenario.source', 4096, bad), graph: s['graph'] as string };
}

function blobRef(v: unknown, what: string, bad: Bad): BlobRef {
  const b = obj(v, what, bad);
  if (typeof b['sha256'] !== 'string' || !SHA.test(b['sha256'])) bad(`${what}.sha256 must be 64 hex digits`);
  return { sha256: b['sha256'] as string, bytes: int(b['bytes'], `${what}.bytes`, 0, Number.MAX_SAFE_INTEGER, bad) };
}

function obj(v: unknown, what: string, bad: Bad): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(`${what} must be an object`);
  return v as Record<string, unknown>;
}

function int(v: unknown, what: string, min: number, max: number, bad: Bad): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) bad(`${what} must be an integer in ${min}..${max}`);
  return v as number;
}

function str(v: unknown, what: string, max: number, bad: Bad): string {
  if (typeof v !== 'string' || v.length > max) bad(`${what} must be a string of at most ${max} characters`);
  return v as string;
}
