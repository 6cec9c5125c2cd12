/**
 * From a batch file to its jobs: the file checked (schema.ts), its inputs read once each and named by
 * content (blobs.ts), each job's payload built and its key computed. The key is the SHA-256 of everything
 * a job's result depends on (the runtime's version and built files' hash, its inputs' bytes and how they are named, its settings
 * and measures), so equal keys mean equal results and a re-run can reuse them.
 *
 * Paths in a batch file are relative to the file's folder and are recorded as written, so results do not
 * depend on where the batch runs from. Inputs that cannot be read are errors up front, naming the field;
 * a world file that reads but does not parse is the job's failure (its worker says why). A replay that
 * cannot be verified at all (corrupt, its world missing) is a failed job, not the end of the batch.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import {
  BUILTIN_SCENARIOS,
  BUILTIN_WORLDS,
  DEFAULT_LIMITS,
  detectWorldFile,
  loadScenarioFile,
  packageRoot,
  readReplay,
  resolveParams,
  RUNTIME_VERSION,
  BUTTON_MASK,
  type Limits,
  type ScenarioDef,
  type WorldKind,
} from '../index.js';
import { gtaPlacementsPath, siblingWithExtension } from '../node/world-files.js';
import { BlobStore } from './blobs.js';
import { expandReplayPattern, GlobError } from './glob.js';
import { runtimeHash } from './runtime-hash.js';
import type { BlobRef, JobPayload, RunPayload, ScenarioInput, VerifyPayload, WorldInput } from './payload.js';
import { BatchFileError, checkBatchFile, type BatchSpec, type RunJobSpec, type VerifySpec } from './schema.js';

/** Bumped when what a key covers changes, so old results are not taken for new ones. */
export const KEY_VERSION = 2;

/** One job of a batch, in batch order. */
export interface PlannedJob {
  index: number;
  key: string;
  kind: 'run' | 'verify';
  /** The job as the results describe it (paths as written, settings given). */
  job: Record<string, unknown>;
  /** What a worker runs; null for a job that failed before it could run (`error` says why). */
  payload: JobPayload | null;
  error?: string;
  /** Frames it simulates (for the progress estimate). */
  frames: number;
}

export interface BatchPlan {
  name: string;
  /** The batch file, and the folder its paths are relative to. */
  file: string;
  dir: string;
  retries: number;
  jobs: PlannedJob[];
  blobs: BlobStore;
}

/** Reads and checks a batch file and everything it names; see the module comment. */
export async function planBatch(file: string, limits: Readonly<Limits> = DEFAULT_LIMITS): Promise<BatchPlan> {
  const text = readText(file, limits.batch.fileBytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new BatchFileError(`${file}: not JSON (${(e as Error).message})`);
  }
  const stem = basename(file, extname(file));
  const spec = checkBatchFile(value, file, stem, limits);
  return planSpec(spec, file, limits);
}

/** The plan of an already checked batch (`checkBatchFile`), its paths relative to `file`'s folder. */
export async function planSpec(spec: BatchSpec, file: string, limits: Readonly<Limits> = DEFAULT_LIMITS): Promise<BatchPlan> {
  const dir = dirname(resolve(file));
  const p = new Planner(dir, limits, file);
  const jobs: PlannedJob[] = [];
  for (const r of spec.runs) jobs.push(await p.run(r, jobs.length));
  for (const v of spec.verify) for (const j of await p.verify(v, jobs.length, limits.batch.jobs - jobs.length)) jobs.push(j);
  return { name: spec.name, file, dir, retries: spec.retries, jobs, blobs: p.blobs };
}

/** JSON with object keys sorted at every level: the same value always gives the same text. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * A job's key: SHA-256 of its payload without the key, with the key version, the runtime's version and the
 * hash of its built files (so results of other code are never taken for this code's).
 */
export function jobKey(payload: Omit<JobPayload, 'key'> | Record<string, unknown>): string {
  const { key: _drop, ...rest } = payload as Record<string, unknown>;
  return createHash('sha256').update(canonicalJson({ keyVersion: KEY_VERSION, ...rest, runtime: RUNTIME_VERSION, runtimeHash: runtimeHash() })).digest('hex');
}

interface WorldFound {
  input: WorldInput;
  kind: WorldKind | null;
}

class Planner {
  readonly blobs = new BlobStore();
  private readonly worlds = new Map<string, WorldFound>();
  private readonly modules = new Map<string, { def: ScenarioDef; blob: BlobRef }>();

  constructor(
    private readonly dir: string,
    private readonly limits: Readonly<Limits>,
    private readonly file: string,
  ) {}

  private abs(p: string): string {
    return isAbsolute(p) ? p : join(this.dir, p);
  }

  private fail(where: string, msg: string): never {
    throw new BatchFileError(`${this.file}: ${where} ${msg}`);
  }

  /** A world by id or path (relative to the batch file), its partner files found as `loadWorldFile` finds them. */
  world(given: string, map: string | undefined, where: string): WorldFound {
    const id = `${given}\0${map ?? ''}`;
    const cached = this.worlds.get(id);
    if (cached) return cached;
    let found: WorldFound;
    if (Object.hasOwn(BUILTIN_WORLDS, given) && !existsSync(this.abs(given)) && map === undefined) {
      const rel = BUILTIN_WORLDS[given]!;
      const bytes = this.read(join(packageRoot(), rel), this.limits.fileBytes, `${where}.world`);
      found = { input: { source: `builtin:${given}`, name: basename(rel), parts: [{ role: 'main', blob: this.blobs.add(bytes) }] }, kind: kindOf(bytes) };
    } else {
      const path = this.abs(given);
      const bytes = this.read(path, this.limits.fileBytes, `${where}.world`);
      const kind = detectWorldFile(bytes);
      const parts: WorldInput['parts'] = [{ role: 'main', blob: this.blobs.add(bytes) }];
      if (map !== undefined) parts.push({ role: 'map', blob: this.blobs.add(this.read(this.abs(map), this.limits.fileBytes, `${where}.map`)) });
      else if (kind === 'llama-trak') {
        const m = siblingWithExtension(path, 'map');
        if (m) parts.push({ role: 'map', blob: this.blobs.add(this.read(m, this.limits.fileBytes, `${where}.world (its MAP)`)) });
      } else if (kind === 'llama-map') {
        const t = siblingWithExtension(path, 'trak');
        if (t) parts.push({ role: 'trak', blob: this.blobs.add(this.read(t, this.limits.fileBytes, `${where}.world (its TRAK)`)) });
      } else if (kind === 'gta') {
        const pl = gtaPlacementsPath(path);
        if (pl) parts.push({ role: 'placements', blob: this.blobs.add(this.read(pl, this.limits.fileBytes, `${where}.world (its placements)`)) });
      }
      found = { input: { source: `file:${given}${map !== undefined ? `;map:${map}` : ''}`, name: basename(given), parts }, kind: kindOf(bytes) };
    }
    this.worlds.set(id, found);
    return found;
  }

  /** A scenario by built-in name or module path; a module is loaded here too, to check parameters up front. */
  async scenario(given: string | undefined, kind: WorldKind | null, where: string): Promise<{ input: ScenarioInput; def: ScenarioDef }> {
    if (given === undefined) {
      const name = kind === 'piney' ? 'piney-field' : 'wander';
      return { input: { builtin: name }, def: BUILTIN_SCENARIOS.get(name)! };
    }
    const builtin = BUILTIN_SCENARIOS.get(given);
    if (builtin) return { input: { builtin: given }, def: builtin };
    if (!/[\\/.]/.test(given)) this.fail(`${where}.scenario`, `${JSON.stringify(given)} is not a built-in scenario (${[...BUILTIN_SCENARIOS.keys()].join(', ')}) nor a module file path`);
    let m = this.modules.get(given);
    if (!m) {
      const path = this.abs(given);
      const bytes = this.read(path, this.limits.scenarioBytes, `${where}.scenario`);
      let def: ScenarioDef;
      try {
        def = (await loadScenarioFile(path, given)).scenario;
      } catch (e) {
        return this.fail(`${where}.scenario`, (e as Error).message);
      }
      m = { def, blob: this.blobs.add(bytes) };
      this.modules.set(given, m);
    }
    return { input: { source: given, blob: m.blob }, def: m.def };
  }

  async run(r: RunJobSpec, index: number): Promise<PlannedJob> {
    const w = this.world(r.world, r.map, r.where);
    const sc = await this.scenario(r.scenario, w.kind, r.where);
    if (sc.def.worldKinds && w.kind && !sc.def.worldKinds.includes(w.kind)) {
      this.fail(`${r.where}.scenario`, `${sc.def.name} runs on ${sc.def.worldKinds.join(', ')} worlds, not on ${r.world} (${w.kind})`);
    }
    try {
      resolveParams(sc.def.name, sc.def.params ?? {}, r.params);
    } catch (e) {
      this.fail(`${r.where}.params`, (e as Error).message);
    }
    const settings: RunPayload['settings'] = { params: { ...r.params } };
    if (r.agents !== undefined) settings.agents = r.agents;
    if (r.seed !== undefined) settings.streamSeed = r.seed;
    if (r.fieldSeed !== undefined) settings.fieldSeed = r.fieldSeed;
    if (r.ccRandInit !== undefined) settings.ccRandInit = r.ccRandInit;
    if (r.capacity !== undefined) settings.capacity = r.capacity;
    const losEvery = r.measure.includes('los') ? r.losEvery : 0;
    const body: Omit<RunPayload, 'key'> = { kind: 'run', runtime: RUNTIME_VERSION, runtimeHash: runtimeHash(), world: w.input, scenario: sc.input, settings, frames: r.frames, input: r.input, measure: r.measure, losEvery: r.losEvery, keepReplay: r.keepReplay };
    // The sampling interval matters only to a job that samples: without "los" it does not change the key.
    const key = jobKey({ ...body, losEvery });
    const job: Record<string, unknown> = { world: w.input.source, scenario: 'builtin' in sc.input ? `builtin:${sc.input.builtin}` : `file:${sc.input.source}` };
    if (r.agents !== undefined) job['agents'] = r.agents;
    if (r.seed !== undefined) job['seed'] = r.seed;
    if (r.fieldSeed !== undefined) job['fieldSeed'] = r.fieldSeed;
    if (r.ccRandInit !== undefined) job['ccRandInit'] = r.ccRandInit;
    if (r.capacity !== undefined) job['capacity'] = r.capacity;
    job['params'] = { ...r.params };
    job['frames'] = r.frames;
    job['input'] = r.input;
    job['measure'] = r.measure;
    if (losEvery) job['losEvery'] = losEvery;
    job['keepReplay'] = r.keepReplay;
    return { index, key, kind: 'run', job, payload: { ...body, key }, frames: r.frames };
  }

  async verify(v: VerifySpec, first: number, room: number): Promise<PlannedJob[]> {
    let files: string[];
    try {
      files = expandReplayPattern(v.replays, this.dir, this.limits.batch.globEntries);
    } catch (e) {
      if (e instanceof GlobError) this.fail(`${v.where}.replays`, e.message);
      throw e;
    }
    if (files.length === 0) this.fail(`${v.where}.replays`, `${JSON.stringify(v.replays)} matches no file`);
    if (files.length > room) this.fail(`${v.where}.replays`, `matches ${files.length} files; with the other jobs that is over the limit of ${this.limits.batch.jobs} (limits.batch.jobs)`);
    const overrideWorld = v.world !== undefined ? this.world(v.world, v.map, v.where) : null;
    const overrideScenario = v.scenario !== undefined ? await this.scenario(v.scenario, overrideWorld?.kind ?? null, v.where) : null;
    const out: PlannedJob[] = [];
    for (const file of files) {
      const index = first + out.length;
      const bytes = this.read(this.abs(file), this.limits.fileBytes, `${v.where}.replays (${file})`);
      const replay = this.blobs.addFile(this.abs(file), bytes);
      const job: Record<string, unknown> = { replay: file };
      const failed = (error: string): PlannedJob => ({ index, key: jobKey({ kind: 'verify', file, replay, error }), kind: 'verify', job, payload: null, error, frames: 0 });
      let header;
      let frames = 0;
      try {
        const rp = readReplay(bytes, BUTTON_MASK, this.limits);
        header = rp.header;
        frames = rp.frames.count;
      } catch (e) {
        out.push(failed((e as Error).message));
        continue;
      }
      let world: WorldInput;
      if (overrideWorld) world = overrideWorld.input;
      else if (header.world.source.startsWith('builtin:') && Object.hasOwn(BUILTIN_WORLDS, header.world.source.slice(8))) world = this.world(header.world.source.slice(8), undefined, v.where).input;
      else if (header.world.source.startsWith('file:')) {
        const { path, mapPath } = splitFileSource(header.world.source);
        const at = this.locate(path);
        const mapAt = mapPath !== undefined ? this.locate(mapPath) : undefined;
        if (at === null || mapAt === null) {
          out.push(failed(`the replay ran on ${header.world.source}, which is not found beside the batch file nor in the current folder: give "world" in ${v.where}`));
          continue;
        }
        world = { ...this.world(at, mapAt, v.where).input, source: header.world.source };
      } else {
        out.push(failed(`the replay's world ${JSON.stringify(header.world.source)} is not one this runtime ships: give "world" in ${v.where}`));
        continue;
      }
      let scenario: ScenarioInput | null = null;
      if (overrideScenario) scenario = overrideScenario.input;
      else if (header.scenario.source.startsWith('file:')) {
        const path = header.scenario.source.slice(5);
        const at = this.locate(path);
        if (at === null) {
          out.push(failed(`the replay ran scenario ${header.scenario.name} from ${path}, which is not found beside the batch file nor in the current folder: give "scenario" in ${v.where}`));
          continue;
        }
        const b = this.read(this.abs(at), this.limits.scenarioBytes, `${v.where} (scenario ${path})`);
        scenario = { source: path, blob: this.blobs.add(b) };
      }
      job['world'] = world.source;
      job['scenario'] = scenario ? ('builtin' in scenario ? `builtin:${scenario.builtin}` : `file:${scenario.source}`) : header.scenario.source;
      const body: Omit<VerifyPayload, 'key'> = { kind: 'verify', runtime: RUNTIME_VERSION, runtimeHash: runtimeHash(), file, replay, world, scenario };
      const key = jobKey(body);
      out.push({ index, key, kind: 'verify', job, payload: { ...body, key }, frames });
    }
    return out;
  }

  /** A recorded path as found: relative to the batch file first, then to the current folder; null if neither. */
  private locate(path: string): string | null {
    if (isAbsolute(path)) return existsSync(path) ? path : null;
    if (existsSync(join(this.dir, path))) return path;
    const cwd = resolve(path);
    return existsSync(cwd) ? cwd : null;
  }

  private read(path: string, max: number, where: string): Uint8Array {
    try {
      const st = statSync(path);
      if (!st.isFile()) this.fail(where, `${path} is not a file`);
      if (st.size > max) this.fail(where, `${path} is ${st.size} bytes, over the limit of ${max} bytes`);
      const b = readFileSync(path);
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    } catch (e) {
      if (e instanceof BatchFileError) throw e;
      return this.fail(where, `cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
}

function kindOf(bytes: Uint8Array): WorldKind | null {
  const k = detectWorldFile(bytes);
  return k === null ? null : k.startsWith('llama') ? 'llama' : (k as WorldKind);
}

function splitFileSource(source: string): { path: string; mapPath?: string } {
  const body = source.slice('file:'.length);
  const i = body.lastIndexOf(';map:');
  return i < 0 ? { path: body } : { path: body.slice(0, i), mapPath: body.slice(i + 5) };
}

function readText(file: string, max: number): string {
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new BatchFileError(`${file}: not a file`);
    if (st.size > max) throw new BatchFileError(`${file}: ${st.size} bytes is over the ${max}-byte limit of a batch file (limits.batch.fileBytes)`);
    return readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof BatchFileError) throw e;
    throw new BatchFileError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
