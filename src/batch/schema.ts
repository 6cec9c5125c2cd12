/**
 * The batch file: a JSON description of many runs and replay checks (documented in docs/batch.md). This
 * module checks it, field by field, and multiplies its sweeps out into a flat list of run jobs in a fixed
 * order; it reads no file. An error names the file and the path of the bad field ("sweep.agents[2]").
 *
 * Shape, in short:
 *
 *   { "batch": 1, "name": "...", "retries": 1,
 *     "defaults": { run fields },
 *     "sweep": { run fields, any of them a list or a range: the cross product } | [ such objects ],
 *     "jobs": [ { run fields } ],
 *     "verify": [ { "replays": "folder or glob", "world"?, "map"?, "scenario"? } ] }
 *
 * Run fields: world, map, scenario, agents, seed, fieldSeed, ccRandInit, capacity, params, frames, input,
 * measure, losEvery, keepReplay, maxSeconds, maxMemoryMiB (a verify entry takes the two limits too). Sweep axes multiply in the order world, scenario, frames, input, agents,
 * fieldSeed, ccRandInit, params (in the order written), seed (innermost).
 */
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import type { ParamValue } from '../systems/system.js';

/** The batch file format this runtime reads (`"batch": 1`). */
export const BATCH_FORMAT = 1;

/** What a run job can measure ("hash" is always measured; "fps" goes to the timing file, never the results). */
export const MEASURES = ['hash', 'draws', 'los', 'events', 'fps'] as const;
export type Measure = (typeof MEASURES)[number];

/** The buttons a run job presses: the stand-in player of `retrosim run`, or none. */
export const INPUTS = ['demo', 'idle'] as const;
export type InputMode = (typeof INPUTS)[number];

/** Frames between line-of-sight samples when a job measures "los" and does not say. */
export const DEFAULT_LOS_EVERY = 60;
/** Retries of a failed job when the batch file does not say (so two attempts in all). */
export const DEFAULT_RETRIES = 1;
/** Most retries a batch file may ask for. */
export const MAX_RETRIES = 10;
/** Most values one sweep axis may list. */
export const MAX_AXIS_VALUES = 100_000;
/**
 * A job's time limit when the batch file does not say (`maxSeconds`): seconds of running on a thread,
 * after which it is stopped and fails with that reason. Wall time, measured outside the simulation: it
 * never changes a result, only whether there is one, so it is not part of the job's key.
 */
export const DEFAULT_MAX_SECONDS = 3600;
/** The longest time limit a job may have (a week). */
export const MAX_MAX_SECONDS = 7 * 24 * 3600;
/**
 * A job's memory limit when the batch file does not say (`maxMemoryMiB`), MiB: the memory its worker
 * thread uses, V8 heap and memory outside it (ArrayBuffers, typed arrays, Buffers), measured between frames
 * and at the end (see memory-limit.ts). Past it the job is stopped and fails with that reason. Like the time
 * limit, it is not part of the job's key.
 */
export const DEFAULT_MAX_MEMORY_MIB = 2048;
/** The smallest memory limit a job may have, MiB (a thread with a simulation uses about 20 to 30). */
export const MIN_MAX_MEMORY_MIB = 16;
/** The largest memory limit a job may have, MiB (64 GiB). */
export const MAX_MAX_MEMORY_MIB = 65_536;

/** One run job, every field settled (the settings left out take the world's and scenario's defaults). */
export interface RunJobSpec {
  /** A shipped world's id ("piney-default") or a world file's path, relative to the batch file. */
  world: string;
  /** A Llama world's MAP file, relative to the batch file (else found beside the TRAK). */
  map?: string;
  /** A built-in scenario's name or a scenario module file's path; the world's default when absent. */
  scenario?: string;
  agents?: number;
  /** Master seed of the named random streams (`streamSeed`). */
  seed?: string;
  fieldSeed?: number;
  ccRandInit?: number;
  capacity?: number;
  /** The scenario's parameters. */
  params: Record<string, ParamValue>;
  frames: number;
  input: InputMode;
  measure: Measure[];
  losEvery: number;
  keepReplay: boolean;
  /** Seconds it may run before it is stopped and fails (DEFAULT_MAX_SECONDS when not given). */
  maxSeconds: number;
  /** MiB of memory its thread may use before it is stopped and fails (DEFAULT_MAX_MEMORY_MIB when not given). */
  maxMemoryMiB: number;
  /** Where in the batch file this job comes from ("sweep[1]", "jobs[3]"), for error messages. */
  where: string;
}

/** One replay-verification entry: every replay file it matches becomes a job. */
export interface VerifySpec {
  /** A folder (its `*.replay` files) or a glob (`*`, `?`, `**`), relative to the batch file. */
  replays: string;
  /** The world to verify against, when not the one the replay recorded. */
  world?: string;
  map?: string;
  /** The scenario module, when not the one the replay recorded. */
  scenario?: string;
  /** Seconds each of its jobs may run before it is stopped and fails. */
  maxSeconds: number;
  /** MiB of memory the thread of each of its jobs may use before the job is stopped and fails. */
  maxMemoryMiB: number;
  where: string;
}

/** A checked batch file. */
export interface BatchSpec {
  name: string;
  /** Retries of a job that fails (attempts = retries + 1). */
  retries: number;
  runs: RunJobSpec[];
  verify: VerifySpec[];
}

/** A batch file that cannot be used: the message names the file and the field. */
export class BatchFileError extends Error {
  override readonly name = 'BatchFileError';
}

type Json = unknown;
type Obj = Record<string, Json>;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const PARAM_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const TOP_KEYS = ['batch', 'name', 'description', 'retries', 'defaults', 'sweep', 'jobs', 'verify'];
const RUN_KEYS = ['world', 'map', 'scenario', 'agents', 'seed', 'fieldSeed', 'ccRandInit', 'capacity', 'params', 'frames', 'input', 'measure', 'losEvery', 'keepReplay', 'maxSeconds', 'maxMemoryMiB'];
/** Run fields a sweep may vary, outermost first (params sit before seed, which is innermost). */
const AXES = ['world', 'scenario', 'frames', 'input', 'agents', 'fieldSeed', 'ccRandInit'] as const;
const VERIFY_KEYS = ['replays', 'world', 'map', 'scenario', 'maxSeconds', 'maxMemoryMiB'];
const MAX_PATH = 4096;
const MAX_STRING = 256;

/**
 * Checks a parsed batch file and multiplies its sweeps out. `file` names it in errors; `fallbackName` is
 * the batch's name when the file gives none (the CLI passes the file's stem).
 */
export function checkBatchFile(value: Json, file: string, fallbackName: string, limits: Readonly<Limits> = DEFAULT_LIMITS): BatchSpec {
  const fail = (where: string, msg: string): never => {
    throw new BatchFileError(`${file}: ${where ? `${where} ` : ''}${msg}`);
  };
  if (!isObj(value)) fail('', 'must be a JSON object { "batch": 1, ... }');
  const top = value as Obj;
  unknownKeys(top, TOP_KEYS, '', fail);
  if (top['batch'] !== BATCH_FORMAT) fail('batch', `must be ${BATCH_FORMAT} (the batch file format), got ${show(top['batch'])}`);
  let name = fallbackName;
  if (top['name'] !== undefined) {
    if (typeof top['name'] !== 'string' || !NAME.test(top['name'])) fail('name', `must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, got ${show(top['name'])}`);
    name = top['name'] as string;
  } else if (!NAME.test(name)) name = 'batch';
  if (top['description'] !== undefined && typeof top['description'] !== 'string') fail('description', 'must be a string');
  const retries = top['retries'] === undefined ? DEFAULT_RETRIES : int(top['retries'], 'retries', 0, MAX_RETRIES, fail);

  const base: Obj = {};
  if (top['defaults'] !== undefined) {
    if (!isObj(top['defaults'])) fail('defaults', 'must be an object of run fields');
    const d = top['defaults'] as Obj;
    unknownKeys(d, RUN_KEYS, 'defaults', fail);
    for (const [k, v] of Object.entries(d)) base[k] = v;
  }

  const runs: RunJobSpec[] = [];
  const room = () => limits.batch.jobs - runs.length;
  const sweeps = top['sweep'] === undefined ? [] : Array.isArray(top['sweep']) ? (top['sweep'] as Json[]) : [top['sweep']];
  sweeps.forEach((s, i) => {
    const where = Array.isArray(top['sweep']) ? `sweep[${i}]` : 'sweep';
    if (!isObj(s)) fail(where, 'must be an object of run fields (a list or range where a field varies)');
    unknownKeys(s as Obj, RUN_KEYS, where, fail);
    for (const job of multiply(merge(base, s as Obj), where, room(), limits, fail)) runs.push(job);
  });
  if (top['jobs'] !== undefined) {
    if (!Array.isArray(top['jobs'])) fail('jobs', 'must be a list of run jobs');
    const list = top['jobs'] as Json[];
    if (list.length > room()) fail('jobs', `lists ${list.length} jobs; with the sweeps that is over the limit of ${limits.batch.jobs} (limits.batch.jobs)`);
    list.forEach((j, i) => {
      const where = `jobs[${i}]`;
      if (!isObj(j)) fail(where, 'must be an object of run fields');
      unknownKeys(j as Obj, RUN_KEYS, where, fail);
      runs.push(single(merge(base, j as Obj), where, limits, fail));
    });
  }
  const verify: VerifySpec[] = [];
  if (top['verify'] !== undefined) {
    const list = Array.isArray(top['verify']) ? (top['verify'] as Json[]) : [top['verify']];
    list.forEach((v, i) => {
      const where = Array.isArray(top['verify']) ? `verify[${i}]` : 'verify';
      if (!isObj(v)) fail(where, 'must be an object { "replays": "folder or glob" }');
      const o = v as Obj;
      unknownKeys(o, VERIFY_KEYS, where, fail);
      const spec: VerifySpec = {
        replays: path(o['replays'], `${where}.replays`, fail),
        maxSeconds: int(o['maxSeconds'], `${where}.maxSeconds`, 1, MAX_MAX_SECONDS, fail, DEFAULT_MAX_SECONDS),
        maxMemoryMiB: int(o['maxMemoryMiB'], `${where}.maxMemoryMiB`, MIN_MAX_MEMORY_MIB, MAX_MAX_MEMORY_MIB, fail, DEFAULT_MAX_MEMORY_MIB),
        where,
      };
      for (const k of ['world', 'map', 'scenario'] as const) if (o[k] !== undefined) spec[k] = path(o[k], `${where}.${k}`, fail);
      verify.push(spec);
    });
  }
  if (runs.length === 0 && verify.length === 0) fail('', 'describes no job: give a "sweep", "jobs" or "verify"');
  return { name, retries, runs, verify };
}

type Fail = (where: string, msg: string) => never;

/** The jobs of one sweep: the cross product of its list- or range-valued fields, in the documented order. */
function multiply(o: Obj, where: string, room: number, limits: Readonly<Limits>, fail: Fail): RunJobSpec[] {
  const axes: { key: string; param: boolean; values: Json[] }[] = [];
  const fixed: Obj = { ...o };
  const take = (key: string, param: boolean, v: Json, at: string): boolean => {
    const values = axisValues(v, at, fail);
    if (!values) return false;
    if (values.length === 0) fail(at, 'is an empty list: the sweep would have no job');
    // Each value checked where it is written, so an error names its place in the list.
    axes.push({ key, param, values: values.map((x, i) => (param ? paramValue(x, `${at}[${i}]`, fail) : field(key, x, `${at}[${i}]`, limits, fail))) });
    return true;
  };
  for (const k of AXES) if (o[k] !== undefined && take(k, false, o[k], `${where}.${k}`)) delete fixed[k];
  const params: Obj = {};
  if (o['params'] !== undefined) {
    if (!isObj(o['params'])) fail(`${where}.params`, "must be an object of the scenario's parameters");
    for (const [k, v] of Object.entries(o['params'] as Obj)) {
      paramName(k, `${where}.params.${k}`, fail);
      if (!take(k, true, v, `${where}.params.${k}`)) params[k] = v;
    }
  }
  fixed['params'] = params;
  if (o['seed'] !== undefined && take('seed', false, o['seed'], `${where}.seed`)) delete fixed['seed'];
  let total = 1;
  for (const a of axes) {
    total *= a.values.length;
    if (total > room) fail(where, `multiplies out to more than ${room} jobs (limits.batch.jobs is ${limits.batch.jobs})`);
  }
  const base = single(fixed, where, limits, fail, axes.some((a) => a.key === 'world' && !a.param));
  const out: RunJobSpec[] = [];
  const idx = new Array<number>(axes.length).fill(0);
  for (let n = 0; n < total; n++) {
    const job = { ...base, params: { ...base.params } } as RunJobSpec & Obj;
    axes.forEach((a, i) => {
      const v = a.values[idx[i]!];
      if (a.param) job.params[a.key] = v as ParamValue;
      else job[a.key] = v;
    });
    crossCheck(job, where, fail);
    out.push(job);
    for (let i = axes.length - 1; i >= 0; i--) {
      if (++idx[i]! < axes[i]!.values.length) break;
      idx[i] = 0;
    }
  }
  return out;
}

/** The values of a sweep axis: a list, a range object, or null for a single value. */
function axisValues(v: Json, at: string, fail: Fail): Json[] | null {
  if (Array.isArray(v)) {
    if (v.length > MAX_AXIS_VALUES) fail(at, `lists ${v.length} values, at most ${MAX_AXIS_VALUES}`);
    return v;
  }
  if (isObj(v) && ('from' in v || 'count' in v || 'to' in v)) {
    const r = v as Obj;
    unknownKeys(r, ['from', 'to', 'count', 'step'], at, fail);
    const from = int(r['from'], `${at}.from`, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, fail);
    const step = r['step'] === undefined ? 1 : int(r['step'], `${at}.step`, 1, Number.MAX_SAFE_INTEGER, fail);
    let count: number;
    if (r['count'] !== undefined) {
      if (r['to'] !== undefined) fail(at, 'gives both "to" and "count": give one');
      count = int(r['count'], `${at}.count`, 1, MAX_AXIS_VALUES, fail);
    } else if (r['to'] !== undefined) {
      const to = int(r['to'], `${at}.to`, from, Number.MAX_SAFE_INTEGER, fail);
      count = Math.floor((to - from) / step) + 1;
      if (count > MAX_AXIS_VALUES) fail(at, `has ${count} values, at most ${MAX_AXIS_VALUES}`);
    } else return fail(at, 'is a range: give "from" and "count" (or "to"), and optionally "step"');
    if (!Number.isSafeInteger(from + (count - 1) * step)) fail(at, 'runs past the largest safe integer');
    return Array.from({ length: count }, (_, i) => from + i * step);
  }
  return null;
}

/**
 * One run job from its fields (single values only). `worldLater`: the world comes from a sweep axis, so
 * its absence here is not an error.
 */
function single(o: Obj, where: string, limits: Readonly<Limits>, fail: Fail, worldLater = false): RunJobSpec {
  const at = (k: string) => `${where}.${k}`;
  if (o['world'] === undefined && !worldLater) fail(where, 'has no "world" (a shipped world id such as "piney-default", or a world file path)');
  const job: RunJobSpec = {
    world: o['world'] === undefined ? '' : (field('world', o['world'], at('world'), limits, fail) as string),
    params: {},
    frames: o['frames'] === undefined ? 600 : (field('frames', o['frames'], at('frames'), limits, fail) as number),
    input: o['input'] === undefined ? 'demo' : (field('input', o['input'], at('input'), limits, fail) as InputMode),
    measure: measures(o['measure'], at('measure'), fail),
    losEvery: int(o['losEvery'], at('losEvery'), 1, limits.replay.frames, fail, DEFAULT_LOS_EVERY),
    keepReplay: bool(o['keepReplay'], at('keepReplay'), fail, false),
    maxSeconds: int(o['maxSeconds'], at('maxSeconds'), 1, MAX_MAX_SECONDS, fail, DEFAULT_MAX_SECONDS),
    maxMemoryMiB: int(o['maxMemoryMiB'], at('maxMemoryMiB'), MIN_MAX_MEMORY_MIB, MAX_MAX_MEMORY_MIB, fail, DEFAULT_MAX_MEMORY_MIB),
    where,
  };
  if (o['map'] !== undefined) job.map = path(o['map'], at('map'), fail);
  for (const k of ['scenario', 'agents', 'seed', 'fieldSeed', 'ccRandInit', 'capacity'] as const) {
    if (o[k] !== undefined) (job as unknown as Obj)[k] = field(k, o[k], at(k), limits, fail);
  }
  if (o['params'] !== undefined) {
    if (!isObj(o['params'])) fail(at('params'), "must be an object of the scenario's parameters");
    for (const [k, v] of Object.entries(o['params'] as Obj)) {
      paramName(k, at(`params.${k}`), fail);
      job.params[k] = paramValue(v, at(`params.${k}`), fail);
    }
  }
  if (!worldLater) crossCheck(job, where, fail);
  return job;
}

/** One field's value, checked and normalised (a list or a range here means it was not in a sweep). */
function field(key: string, v: Json, at: string, limits: Readonly<Limits>, fail: Fail): Json {
  if (Array.isArray(v)) fail(at, 'is a list: only a "sweep" may vary a field');
  if (isObj(v)) fail(at, 'is an object: only a "sweep" may give a range');
  switch (key) {
    case 'world':
    case 'scenario':
      return path(v, at, fail);
    case 'frames':
      return int(v, at, 1, limits.replay.frames, fail);
    case 'input':
      return oneOf(v, at, INPUTS, fail, 'demo');
    case 'agents':
      return int(v, at, 0, limits.agents, fail);
    case 'fieldSeed':
      return int(v, at, 0, 0xffffffff, fail);
    case 'ccRandInit':
      return int(v, at, 0, 100_000_000, fail);
    case 'capacity':
      return int(v, at, 2, 1 << 20, fail);
    case 'seed':
      if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
      if (typeof v === 'string' && v.length <= MAX_STRING) return v;
      return fail(at, `must be a string of at most ${MAX_STRING} characters or an integer, got ${show(v)}`);
    default:
      return fail(at, 'cannot be varied by a sweep');
  }
}

/** Checks between fields of one job. */
function crossCheck(job: RunJobSpec, where: string, fail: Fail): void {
  if (job.capacity !== undefined && job.agents !== undefined && job.agents > job.capacity - 2) fail(`${where}.agents`, `is ${job.agents}, more than capacity ${job.capacity} − 2 allows`);
}

function paramName(k: string, at: string, fail: Fail): void {
  if (!PARAM_NAME.test(k)) fail(at, 'is not a parameter name (a letter, then letters, digits or _)');
}

function paramValue(v: Json, at: string, fail: Fail): ParamValue {
  if (typeof v === 'number' ? !Number.isFinite(v) : typeof v === 'string' ? v.length > MAX_STRING : typeof v !== 'boolean') {
    fail(at, `must be a number, a boolean or a string of at most ${MAX_STRING} characters, got ${show(v)}`);
  }
  return v as ParamValue;
}

function measures(v: Json, at: string, fail: Fail): Measure[] {
  if (v === undefined) return ['hash', 'draws', 'events'];
  if (!Array.isArray(v)) return fail(at, `must be a list of measures (${MEASURES.join(', ')})`);
  const out: Measure[] = [];
  v.forEach((m, i) => {
    if (!MEASURES.includes(m as Measure)) fail(`${at}[${i}]`, `is not a measure (${MEASURES.join(', ')}), got ${show(m)}`);
    if (out.includes(m as Measure)) fail(`${at}[${i}]`, `names ${show(m)} twice`);
    out.push(m as Measure);
  });
  if (!out.includes('hash')) out.unshift('hash');
  // A fixed order, so the same set written in another order is the same job.
  return MEASURES.filter((m) => out.includes(m));
}

function int(v: Json, at: string, min: number, max: number, fail: Fail, dflt?: number): number {
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) return fail(at, `must be an integer in ${min}..${max}, got ${show(v)}`);
  return v;
}

function bool(v: Json, at: string, fail: Fail, dflt: boolean): boolean {
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') return fail(at, `must be true or false, got ${show(v)}`);
  return v;
}

function oneOf<T extends string>(v: Json, at: string, values: readonly T[], fail: Fail, dflt: T): T {
  if (v === undefined) return dflt;
  if (!values.includes(v as T)) return fail(at, `must be one of ${values.join(', ')}, got ${show(v)}`);
  return v as T;
}

function path(v: Json, at: string, fail: Fail): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_PATH || v.includes('\0')) return fail(at, `must be a path or name (a non-empty string), got ${show(v)}`);
  return v;
}

function unknownKeys(o: Obj, known: readonly string[], where: string, fail: Fail): void {
  for (const k of Object.keys(o)) {
    if (!known.includes(k)) fail(where ? `${where}.${k}` : k, `is not a field here (fields: ${known.join(', ')})`);
  }
}

/** A job's fields over the defaults; parameters merge name by name. */
function merge(base: Obj, o: Obj): Obj {
  const out = { ...base, ...o };
  if (isObj(base['params']) && isObj(o['params'])) out['params'] = { ...base['params'], ...o['params'] };
  return out;
}

function isObj(v: Json): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function show(v: Json): string {
  let s: string;
  try {
    s = v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
