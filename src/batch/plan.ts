/**
 * From a batch file to its jobs: the file checked (schema.ts), its inputs read once each and named by
 * content (blobs.ts), each job's payload built and its key computed. The key is the SHA-256 of everything
 * a job's result depends on (the runtime's version and its built files' hash, its inputs' bytes and how they
 * are named, its settings and measures), so equal keys mean equal results and a re-run can reuse them. A
 * scenario module is named by the hash of its module graph (node/module-graph.ts: the file and the local
 * modules it imports, and the versions of the packages they import), computed here from the files on disk;
 * its bytes are not sent. To check a job's parameters and world up front, the module is also loaded, in a
 * worker thread of its own within a time limit (scenario-facts.ts), so that a module whose top level never
 * ends cannot hold the batch.
 *
 * Paths in a batch file are relative to the file's folder and are recorded as written, so results do not
 * depend on where the batch runs from. A batch file reaches only its own folder, and the folders its runner
 * allows (`allowDirs`, `--allow-dir`): every path it names (a world, its partner files, a scenario module,
 * the replays to verify and the world and scenario they recorded) must resolve there, symlinks followed,
 * or it is refused naming the field before anything is read. Built-in worlds come from the package. Inputs that cannot be read are errors up front, naming the field;
 * a world file that reads but does not parse is the job's failure (its worker says why). A replay that
 * cannot be verified at all (corrupt, its world missing) is a failed job, not the end of the batch.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createHash } from 'node:crypto';
import {
  BUILTIN_SCENARIOS,
  BUILTIN_WORLDS,
  DEFAULT_LIMITS,
  detectWorldFile,
  packageRoot,
  readReplay,
  resolveParams,
  RUNTIME_VERSION,
  isInputWord,
  type Limits,
  type ScenarioDef,
  type WorldIdentity,
  type WorldKind,
} from '../index.js';
import { moduleGraph, ModuleGraphError, type ModuleGraph } from '../node/module-graph.js';
import { checkRecordedGraph } from '../node/scenario-identity.js';
import { checkJsonDepth } from '../binary/json-depth.js';
import { FormatError } from '../binary/format-error.js';
import { builtinWorld, builtinWorldId, variantFileName, variantSpecBytes } from '../worlds/builtin.js';
import { builtinIdOfContent } from '../node/open-world.js';
import { fnv1a64Hex } from '../binary/fnv.js';
import { BoundedReadError, readBounded, readBoundedText } from '../node/bounded-read.js';
import { gtaPlacementsPath, siblingWithExtension } from '../node/world-files.js';
import { BlobStore } from './blobs.js';
import { expandReplayPattern, GlobError } from './glob.js';
import { runtimeHash } from '../node/runtime-hash.js';
import { factsOf, PLAN_MODULE_SECONDS, scenarioFacts, type ScenarioFacts } from './scenario-facts.js';
import type { JobPayload, RunPayload, ScenarioInput, VerifyPayload, WorldInput } from './payload.js';
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

/** How a batch file's paths are allowed to reach. */
export interface PlanOptions {
  /** Folders besides the batch file's own that its paths may name (`--allow-dir`). */
  allowDirs?: readonly string[];
}

/** Reads and checks a batch file and everything it names; see the module comment. */
export async function planBatch(file: string, limits: Readonly<Limits> = DEFAULT_LIMITS, options: PlanOptions = {}): Promise<BatchPlan> {
  const text = readText(file, limits.batch.fileBytes);
  try {
    checkJsonDepth(text, limits.jsonDepth, 'batch file');
  } catch (e) {
    if (e instanceof FormatError) e.file = file;
    throw e;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new BatchFileError(`${file}: not JSON (${(e as Error).message})`);
  }
  const stem = basename(file, extname(file));
  const spec = checkBatchFile(value, file, stem, limits);
  return planSpec(spec, file, limits, options);
}

/** The plan of an already checked batch (`checkBatchFile`), its paths relative to `file`'s folder. */
export async function planSpec(spec: BatchSpec, file: string, limits: Readonly<Limits> = DEFAULT_LIMITS, options: PlanOptions = {}): Promise<BatchPlan> {
  const dir = dirname(resolve(file));
  const p = new Planner(dir, limits, file, allowedRoots(file, dir, options.allowDirs ?? []));
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
  private readonly modules = new Map<string, { def: ScenarioFacts; graph: ModuleGraph; path: string }>();

  constructor(
    private readonly dir: string,
    private readonly limits: Readonly<Limits>,
    private readonly file: string,
    /** The real paths of the folders inputs may come from: the batch file's, then the allowed ones. */
    private readonly roots: readonly string[],
  ) {}

  private abs(p: string): string {
    return isAbsolute(p) ? p : join(this.dir, p);
  }

  /**
   * The real path of an input (symlinks resolved), refused naming `where` when it lies outside the allowed
   * folders; a missing file is a "cannot read" error here too, so nothing outside is ever opened.
   */
  private confine(path: string, where: string): string {
    const given = this.abs(path);
    let real: string;
    try {
      real = realpathSync(given);
    } catch (e) {
      if (!within(this.roots, resolve(given))) this.outside(path, where);
      return this.fail(where, `cannot read ${given} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (!within(this.roots, real)) this.outside(path, where);
    return real;
  }

  private outside(path: string, where: string): never {
    return this.fail(where, `${JSON.stringify(path)} is outside the batch file's folder${this.roots.length > 1 ? ' and the allowed folders' : ''}: a batch file reaches only its own folder (allow another with --allow-dir DIR)`);
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
    if (builtinWorldId(given, (g) => existsSync(this.abs(g)), map) !== undefined) {
      // Any world of the catalog, with its partner files; a variant's spec made from its base, as openWorld does.
      const entry = builtinWorld(given)!;
      const bytes = variantSpecBytes(this.read(join(packageRoot(), entry.file), this.limits.fileBytes, `${where}.world`), entry);
      const parts: WorldInput['parts'] = [{ role: 'main', blob: this.blobs.add(bytes) }];
      if (entry.map) parts.push({ role: 'map', blob: this.blobs.add(this.read(join(packageRoot(), entry.map), this.limits.fileBytes, `${where}.world (its MAP)`)) });
      if (entry.placements) parts.push({ role: 'placements', blob: this.blobs.add(this.read(join(packageRoot(), entry.placements), this.limits.fileBytes, `${where}.world (its placements)`)) });
      found = { input: { source: `builtin:${given}`, name: entry.variant ? variantFileName(entry) : basename(entry.file), parts }, kind: kindOf(bytes) };
    } else {
      const path = this.confine(given, `${where}.world`);
      const bytes = this.read(path, this.limits.fileBytes, `${where}.world`);
      const kind = detectWorldFile(bytes);
      const parts: WorldInput['parts'] = [{ role: 'main', blob: this.blobs.add(bytes) }];
      // Partner files are found beside the world as named, as loadWorldFile finds them, and are confined as
      // the world is (a partner may itself be a symlink that leads out).
      const partner = (p: string, w: string) => this.read(this.confine(p, w), this.limits.fileBytes, w);
      const named = this.abs(given);
      if (map !== undefined) parts.push({ role: 'map', blob: this.blobs.add(partner(map, `${where}.map`)) });
      else if (kind === 'llama-trak') {
        const m = siblingWithExtension(named, 'map');
        if (m) parts.push({ role: 'map', blob: this.blobs.add(partner(m, `${where}.world (its MAP)`)) });
      } else if (kind === 'llama-map') {
        const t = siblingWithExtension(named, 'trak');
        if (t) parts.push({ role: 'trak', blob: this.blobs.add(partner(t, `${where}.world (its TRAK)`)) });
      } else if (kind === 'gta') {
        const pl = gtaPlacementsPath(named);
        if (pl) parts.push({ role: 'placements', blob: this.blobs.add(partner(pl, `${where}.world (its placements)`)) });
      }
      found = { input: { source: `file:${given}${map !== undefined ? `;map:${map}` : ''}`, name: basename(given), parts }, kind: kindOf(bytes) };
    }
    this.worlds.set(id, found);
    return found;
  }

  /**
   * A scenario by built-in name or module path. A module is loaded here too, to check parameters up front:
   * in a thread of its own, within `maxSeconds` (the job's) and at most PLAN_MODULE_SECONDS (scenario-facts.ts).
   */
  async scenario(given: string | undefined, kind: WorldKind | null, where: string, maxSeconds: number): Promise<{ input: ScenarioInput; def: ScenarioFacts; graph?: ModuleGraph; path?: string }> {
    if (given === undefined) {
      const name = kind === 'piney' ? 'piney-field' : 'wander';
      return { input: { builtin: name }, def: factsOf(BUILTIN_SCENARIOS.get(name)!) };
    }
    const builtin = BUILTIN_SCENARIOS.get(given);
    if (builtin) return { input: { builtin: given }, def: factsOf(builtin) };
    if (!/[\\/.]/.test(given)) this.fail(`${where}.scenario`, `${JSON.stringify(given)} is not a built-in scenario (${[...BUILTIN_SCENARIOS.keys()].join(', ')}) nor a module file path`);
    let m = this.modules.get(given);
    if (!m) {
      const path = this.confine(given, `${where}.scenario`);
      this.read(path, this.limits.scenarioBytes, `${where}.scenario`);
      const graph = this.moduleGraph(path, `${where}.scenario`);
      let def: ScenarioFacts;
      try {
        // The graph just hashed is the one imported (from a sealed copy of those bytes), in a thread of its own.
        def = await scenarioFacts(path, given, Math.min(maxSeconds, PLAN_MODULE_SECONDS), graph.hash);
      } catch (e) {
        return this.fail(`${where}.scenario`, (e as Error).message);
      }
      m = { def, graph, path: given };
      this.modules.set(given, m);
    }
    return { input: { source: given, graph: m.graph.hash }, def: m.def, graph: m.graph, path: m.path };
  }

  async run(r: RunJobSpec, index: number): Promise<PlannedJob> {
    const w = this.world(r.world, r.map, r.where);
    const sc = await this.scenario(r.scenario, w.kind, r.where, r.maxSeconds);
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
    const body: Omit<RunPayload, 'key' | 'maxSeconds' | 'maxMemoryMiB'> = { kind: 'run', runtime: RUNTIME_VERSION, runtimeHash: runtimeHash(), world: w.input, scenario: sc.input, settings, frames: r.frames, input: r.input, measure: r.measure, losEvery: r.losEvery, keepReplay: r.keepReplay };
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
    // The time and memory limits change no result (only whether there is one): not part of the key.
    return { index, key, kind: 'run', job, payload: { ...body, key, maxSeconds: r.maxSeconds, maxMemoryMiB: r.maxMemoryMiB }, frames: r.frames };
  }

  async verify(v: VerifySpec, first: number, room: number): Promise<PlannedJob[]> {
    let files: string[];
    try {
      files = expandReplayPattern(v.replays, this.dir, this.limits.batch.globEntries, (dir) => within(this.roots, realOrSelf(dir)));
    } catch (e) {
      if (e instanceof GlobError) this.fail(`${v.where}.replays`, e.message);
      throw e;
    }
    if (files.length === 0) this.fail(`${v.where}.replays`, `${JSON.stringify(v.replays)} matches no file`);
    if (files.length > room) this.fail(`${v.where}.replays`, `matches ${files.length} files; with the other jobs that is over the limit of ${this.limits.batch.jobs} (limits.batch.jobs)`);
    const overrideWorld = v.world !== undefined ? this.world(v.world, v.map, v.where) : null;
    const overrideScenario = v.scenario !== undefined ? await this.scenario(v.scenario, overrideWorld?.kind ?? null, v.where, v.maxSeconds) : null;
    const out: PlannedJob[] = [];
    for (const file of files) {
      const index = first + out.length;
      const real = this.confine(file, `${v.where}.replays (${file})`);
      const bytes = this.read(real, this.limits.fileBytes, `${v.where}.replays (${file})`);
      const replay = this.blobs.addFile(real, bytes);
      const job: Record<string, unknown> = { replay: file };
      const failed = (error: string): PlannedJob => ({ index, key: jobKey({ kind: 'verify', file, replay, error }), kind: 'verify', job, payload: null, error, frames: 0 });
      let header;
      let frames = 0;
      try {
        const rp = readReplay(bytes, isInputWord, this.limits);
        header = rp.header;
        frames = rp.frames.count;
      } catch (e) {
        out.push(failed((e as Error).message));
        continue;
      }
      let world: WorldInput;
      if (overrideWorld) world = overrideWorld.input;
      else if (header.world.source.startsWith('builtin:') && Object.hasOwn(BUILTIN_WORLDS, header.world.source.slice(8))) world = this.world(header.world.source.slice(8), undefined, v.where).input;
      else if (builtinIdOfContent(header.world) !== undefined) world = { ...this.world(builtinIdOfContent(header.world)!, undefined, v.where).input, source: header.world.source };
      else if (header.world.source.startsWith('file:')) {
        const found = this.recordedWorld(header.world, real, `${v.where}.replays (${file})`, v.where);
        if (!found) {
          out.push(failed(`the replay ran on ${header.world.source} (${header.world.kind}, ${header.world.byteLength} bytes, content hash ${header.world.contentHash}), which is found with those bytes neither beside the batch file, nor in the current folder, nor beside the replay: give "world" in ${v.where}`));
          continue;
        }
        world = found;
      } else {
        out.push(failed(`the replay's world ${JSON.stringify(header.world.source)} is not one this runtime ships: give "world" in ${v.where}`));
        continue;
      }
      // A module the replay names is never run on its own: the verify entry names the module (the batch
      // file's author chose it), and its graph is compared with the replay's before any job is made.
      let scenario: ScenarioInput | null = null;
      const rec = header.scenario;
      const recordsModule = rec.source.startsWith('file:') || (rec.modules?.length ?? 0) > 0;
      if (overrideScenario) {
        if (recordsModule && overrideScenario.graph && overrideScenario.path !== undefined) {
          try {
            checkRecordedGraph(rec, overrideScenario.graph, overrideScenario.path);
          } catch (e) {
            out.push(failed((e as Error).message));
            continue;
          }
        }
        scenario = overrideScenario.input;
      } else if (recordsModule) {
        out.push(failed(`the replay ran scenario ${JSON.stringify(rec.name)} ${rec.version} from the module ${rec.source.startsWith('file:') ? rec.source.slice(5) : rec.source} (module graph ${rec.contentHash}): name that module as "scenario" in ${v.where} (a module a replay names is never run on its own)`));
        continue;
      }
      job['world'] = world.source;
      job['scenario'] = scenario ? ('builtin' in scenario ? `builtin:${scenario.builtin}` : `file:${scenario.source}`) : header.scenario.source;
      const body: Omit<VerifyPayload, 'key' | 'maxSeconds' | 'maxMemoryMiB'> = { kind: 'verify', runtime: RUNTIME_VERSION, runtimeHash: runtimeHash(), file, replay, world, scenario };
      const key = jobKey(body);
      out.push({ index, key, kind: 'verify', job, payload: { ...body, key, maxSeconds: v.maxSeconds, maxMemoryMiB: v.maxMemoryMiB }, frames });
    }
    return out;
  }

  /** The module graph of the scenario module at `path` (absolute), its hash remembered with its path for the local threads. */
  private moduleGraph(path: string, where: string): ModuleGraph {
    let graph: ModuleGraph;
    try {
      graph = moduleGraph(path, { fileBytes: this.limits.scenarioBytes });
    } catch (e) {
      if (e instanceof ModuleGraphError) this.fail(where, e.message);
      throw e;
    }
    this.blobs.addModule(graph.hash, resolve(path));
    return graph;
  }

  /**
   * The world a replay recorded as a file, found by its content: the recorded path (relative to the batch
   * file, then to the current folder: it must lie in the allowed folders), then the recorded path and its file
   * name beside the replay (when those lie in the allowed folders); the first with the recorded bytes.
   */
  private recordedWorld(recorded: WorldIdentity, replay: string, where: string, entry: string): WorldInput | null {
    const { path, mapPath } = splitFileSource(recorded.source);
    const cands: [string, string | undefined][] = [];
    const at = this.locate(path, `${where}: its recorded world`);
    const mapAt = mapPath !== undefined ? this.locate(mapPath, `${where}: its recorded map`) : undefined;
    if (at !== null && mapAt !== null) cands.push([at, mapAt]);
    const beside = dirname(replay);
    for (const [p, m] of [[path, mapPath], [basename(path), mapPath !== undefined ? basename(mapPath) : undefined]] as const) {
      const c = resolve(beside, p);
      const cm = m !== undefined ? resolve(beside, m) : undefined;
      if (!existsSync(c) || !within(this.roots, realOrSelf(c)) || (cm !== undefined && (!existsSync(cm) || !within(this.roots, realOrSelf(cm))))) continue;
      cands.push([c, cm]);
    }
    for (const [c, m] of cands) {
      const input = this.world(c, m, entry).input;
      const bytes = input.parts.map((p) => this.blobs.get(p.blob.sha256));
      const all = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
      let o = 0;
      for (const b of bytes) {
        all.set(b, o);
        o += b.length;
      }
      if (all.length === recorded.byteLength && fnv1a64Hex(all) === recorded.contentHash) return { ...input, source: recorded.source };
    }
    return null;
  }

  /**
   * A recorded path as found: relative to the batch file first, then to the current folder; null if
   * neither. Found or not, it must lie in the allowed folders (`where` names it when it does not).
   */
  private locate(path: string, where: string): string | null {
    const cands = isAbsolute(path) ? [path] : [join(this.dir, path), resolve(path)];
    for (const c of cands) {
      if (!within(this.roots, realOrSelf(c))) continue;
      if (existsSync(c)) return c === join(this.dir, path) ? path : c;
    }
    if (cands.some((c) => existsSync(c))) this.outside(path, where);
    return null;
  }

  /** The bytes of an input already confined, at most `max` of them (the count holds for files that lie about their size). */
  private read(path: string, max: number, where: string): Uint8Array {
    try {
      return readBounded(path, max);
    } catch (e) {
      if (!(e instanceof BoundedReadError)) throw e;
      if (e.code === 'ENOTREG') return this.fail(where, `${path} is not a file`);
      return this.fail(where, e.code === 'EFBIG' ? e.message : `cannot read ${path} (${e.code})`);
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
    return readBoundedText(file, max);
  } catch (e) {
    if (!(e instanceof BoundedReadError)) throw e;
    if (e.code === 'ENOTREG') throw new BatchFileError(`${file}: not a file`);
    if (e.code === 'EFBIG') throw new BatchFileError(`${file}: ${e.size} bytes is over the ${max}-byte limit of a batch file (limits.batch.fileBytes)${e.message.includes('reads past') ? ', read past the size it reports' : ''}`);
    throw new BatchFileError(`${file}: cannot read (${e.code})`);
  }
}

/** The folders a batch file's inputs may come from, as real paths: its own, then the allowed ones. */
function allowedRoots(file: string, dir: string, allowDirs: readonly string[]): string[] {
  const real = (d: string, what: string): string => {
    try {
      return realpathSync(d);
    } catch (e) {
      throw new BatchFileError(`${file}: ${what} ${d} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  };
  return [real(dir, 'its folder'), ...allowDirs.map((d) => real(resolve(d), 'allowed folder'))];
}

/** True when the real path `p` is one of `roots` or inside one. */
function within(roots: readonly string[], p: string): boolean {
  return roots.some((r) => {
    const rel = relative(r, p);
    return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
  });
}

/** `p`'s real path, or `p` resolved when it does not exist (yet). */
function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}
