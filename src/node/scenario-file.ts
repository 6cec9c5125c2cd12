/**
 * Loading a scenario from a module file in Node: a plain `.mjs` or `.js` ES module (TypeScript compiled by
 * its author) whose default export, or export named `scenario`, is a scenario definition. Its module graph
 * is its identity (scenario-identity.ts: the file, every local module it imports, the versions of the
 * packages they import): a replay records it, and verify refuses a graph that changed, naming the module.
 * A program that imports the same file gets the same identity.
 *
 * A batch job names a module by its graph's hash too, and a batch worker runs it only from a file of its
 * own with that graph (its allow-list), never from bytes a job carries. A module is always imported from a
 * sealed copy of the bytes its graph hashed (sealed-module.ts), after the graph was compared with what the
 * caller expects. Inside the copy, `import ... from 'retrosim'` resolves to the runtime loading it (see
 * scenario-hooks.ts), so the modules need no retrosim installed beside them.
 */
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { extname, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FormatError } from '../binary/format-error.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { registerScenarioSource } from '../scenarios/identity.js';
import { defineScenario, type ScenarioDef, type ScenarioIdentity } from '../sim/scenario.js';
import { BoundedReadError, readBounded } from './bounded-read.js';
import { registerBunScenarioModules } from './bun-scenario-modules.js';
import { moduleGraph, ModuleGraphError, type ModuleGraph } from './module-graph.js';
import { checkRecordedGraph, registerGraphIdentities, scenarioSourcePath } from './scenario-identity.js';
import { dropSealedCopy, sealCopy, sealedPrefixPath, type SealedCopy } from './sealed-module.js';

/** A scenario module and the identity its replays record. */
export interface LoadedScenario {
  scenario: ScenarioDef;
  identity: ScenarioIdentity;
}

/** How `loadScenarioFile` loads a module. */
export interface LoadScenarioOptions {
  /** How the path is recorded in replays (default: relative to the current folder, as a program importing the file records it). */
  source?: string;
  /**
   * The scenario identity a replay recorded: the module's graph is compared with it before anything of the
   * module is imported, and a module that differs is refused naming what changed.
   */
  recorded?: ScenarioIdentity;
  /** What recorded `recorded`, for the refusal's words: a replay (the default) or a netplay room. */
  recordedBy?: 'replay' | 'room';
  /** The module graph hash (64 hex digits) the module must have, checked before anything is imported. */
  graph?: string;
  /**
   * A fresh instance of every module of the graph instead of the one this process loaded before: module-level
   * state starts anew (each batch job's scenario is loaded this way).
   */
  fresh?: boolean;
}

/** A scenario module whose module graph is not the one expected (`LoadScenarioOptions.graph`); nothing of it ran. */
export class GraphMismatchError extends FormatError {
  constructor(
    what: string,
    /** The graph hash the module has now. */
    readonly actual: string,
    /** The graph hash that was expected. */
    readonly expected: string,
  ) {
    super(what, -1, `its module graph is ${actual.slice(0, 12)}…, not the ${expected.slice(0, 12)}… expected (a file of it changed): nothing of it was run`);
  }
}

/** Largest scenario module read (limits.scenarioBytes). */
export const MAX_SCENARIO_BYTES = DEFAULT_LIMITS.scenarioBytes;

let hooked = false;

/**
 * Makes `import 'retrosim'` inside sealed copies of scenario modules resolve to this runtime, and refuses
 * imports that leave a copy (scenario-hooks.ts). Needs the compiled hooks file: next to this module in the
 * build, or in dist/ when running from the sources. Under Bun, whose `module.register` does nothing, virtual
 * modules resolve 'retrosim' instead (bun-scenario-modules.ts).
 */
function registerHooks(): void {
  if (hooked) return;
  hooked = true;
  if (registerBunScenarioModules(new URL('../', import.meta.url))) return;
  let hooks = new URL('./scenario-hooks.js', import.meta.url);
  if (!existsSync(fileURLToPath(hooks))) {
    const compiled = fileURLToPath(hooks).replace(/([\\/])src([\\/]node[\\/]scenario-hooks\.js)$/, '$1dist$1src$2');
    if (!existsSync(compiled)) return; // not built: scenario modules resolve 'retrosim' as Node does
    hooks = pathToFileURL(compiled);
  }
  const base = new URL('../', hooks).href;
  register(hooks, { data: { base, sealedPrefix: sealedPrefixPath() } });
}

/**
 * Imports a scenario module file: its module graph is hashed (module-graph.ts), compared with what the
 * options expect (a replay's recorded graph, a batch job's graph hash) before anything runs, and imported
 * from a sealed copy of the bytes that were hashed. `options` may be the path to record (a string), as
 * before. Throws a FormatError naming the file when it cannot be read, its module graph cannot be hashed or
 * is not the one expected, it does not load, or it exports no scenario.
 *
 * @example
 * const { scenario } = await loadScenarioFile('examples/guards/guards.mjs');
 */
export async function loadScenarioFile(path: string, options: string | LoadScenarioOptions = {}): Promise<LoadedScenario> {
  const o: LoadScenarioOptions = typeof options === 'string' ? { source: options } : options;
  try {
    return await readScenarioFile(path, o.source ?? scenarioSourcePath(path), o);
  } catch (e) {
    if (e instanceof FormatError) e.file ??= path;
    throw e;
  }
}

async function readScenarioFile(path: string, source: string, o: LoadScenarioOptions): Promise<LoadedScenario> {
  const what = `scenario module ${path}`;
  const { mod, graph, copy } = await importScenarioGraph(path, o);
  const exported = (mod['default'] ?? mod['scenario']) as ScenarioDef | undefined;
  if (!exported || typeof exported !== 'object') throw new FormatError(what, -1, 'exports no scenario: export default defineScenario({ ... }) (or export const scenario)');
  let scenario: ScenarioDef;
  try {
    scenario = Object.isFrozen(exported) ? exported : defineScenario(exported);
    if (scenario === exported) defineScenario(exported); // the checks, even for an already frozen definition
  } catch (e) {
    throw new FormatError(what, -1, (e as Error).message);
  }
  const identity = registerGraphIdentities(scenario, graph, source);
  registerScenarioSource(scenario, identity);
  sealedUrls.set(scenario, copy.entryUrl);
  return { scenario, identity };
}

/** The sealed copy each loaded scenario was imported from. */
const sealedUrls = new WeakMap<ScenarioDef, string>();

/**
 * The URL of the sealed copy a scenario loaded by `loadScenarioFile` was imported from, or undefined for
 * another scenario: what a `SystemPool`'s threads import its kernels from, so that they run the bytes the
 * main thread checked.
 */
export function scenarioSealedUrl(def: ScenarioDef): string | undefined {
  return sealedUrls.get(def);
}

/**
 * A scenario module file's graph hashed and sealed, without importing it: the URL of the copy (for
 * `importSealedUrl` on another thread) and its content hash.
 */
export function sealScenarioModule(path: string): { url: string; contentHash: string } {
  const what = `scenario module ${path}`;
  let graph: ModuleGraph;
  try {
    graph = moduleGraph(path);
  } catch (e) {
    if (!(e instanceof ModuleGraphError)) throw e;
    throw new FormatError(what, -1, `cannot be identified for a replay: ${e.message}`);
  }
  let copy = copies.get(graph.hash);
  if (!copy) {
    copy = sealCopy(graph);
    copies.set(graph.hash, copy);
  }
  return { url: copy.entryUrl, contentHash: graph.contentHash };
}

/**
 * Imports a scenario module file as `loadScenarioFile` does (checked size and graph, imported from a sealed
 * copy, `import 'retrosim'` resolved to this runtime) and gives its exports, its content hash (its module
 * graph's, as a replay records it) and the URL of the copy it was imported from.
 */
export async function importScenarioModule(path: string, options: Omit<LoadScenarioOptions, 'source'> = {}): Promise<{ mod: Record<string, unknown>; contentHash: string; url: string }> {
  const { mod, graph, copy } = await importScenarioGraph(path, options);
  return { mod, contentHash: graph.contentHash, url: copy.entryUrl };
}

/**
 * Imports the entry of a sealed copy this process made (`importScenarioModule`'s `url`), on another thread
 * of the same process: a system worker imports a scenario's kernels from the copy the main thread checked.
 */
export async function importSealedUrl(url: string): Promise<Record<string, unknown>> {
  registerHooks();
  if (!isSealedUrl(url)) throw new Error(`not a sealed copy of a scenario module: ${url}`);
  return (await import(url)) as Record<string, unknown>;
}

/** Whether `spec` is the URL of a sealed copy (under the temporary folder's sealed prefix), not a path. */
export function isSealedUrl(spec: string): boolean {
  if (!spec.startsWith('file:')) return false;
  try {
    return fileURLToPath(spec).startsWith(sealedPrefixPath());
  } catch {
    return false;
  }
}

/** Removes the sealed copy whose entry is `url` (a fresh copy a job was imported from, once the job ended). */
export function dropSealedCopyOf(url: string): void {
  if (!isSealedUrl(url)) return;
  const path = fileURLToPath(url);
  const prefix = sealedPrefixPath();
  const end = path.indexOf(sep, prefix.length);
  if (end > 0) dropSealedCopy(path.slice(0, end));
}

/** Sealed copies made by this process, by module graph hash (reused unless a fresh instance is asked for). */
const copies = new Map<string, SealedCopy>();

async function importScenarioGraph(path: string, o: LoadScenarioOptions): Promise<{ mod: Record<string, unknown>; graph: ModuleGraph; copy: SealedCopy }> {
  const what = `scenario module ${path}`;
  const ext = extname(path).toLowerCase();
  if (ext === '.ts' || ext === '.mts' || ext === '.cts') throw new FormatError(what, -1, 'is TypeScript: compile it to JavaScript (.mjs or .js) first (tsc, esbuild)');
  try {
    readBounded(path, MAX_SCENARIO_BYTES); // the limit holds on the bytes read, whatever size the file reports
  } catch (e) {
    if (!(e instanceof BoundedReadError)) throw e;
    throw new FormatError(what, -1, e.code === 'ENOTREG' ? 'is not a file' : e.code === 'EFBIG' ? (e.message.includes('reads past') ? `reads past the limit of ${MAX_SCENARIO_BYTES} bytes (limits.scenarioBytes)` : `is ${e.size} bytes, over the limit of ${MAX_SCENARIO_BYTES} bytes (limits.scenarioBytes)`) : `cannot be read (${e.code})`);
  }
  let graph: ModuleGraph;
  try {
    graph = moduleGraph(path);
  } catch (e) {
    if (!(e instanceof ModuleGraphError)) throw e;
    throw new FormatError(what, -1, `cannot be identified for a replay: ${e.message}`);
  }
  if (o.recorded) checkRecordedGraph(o.recorded, graph, path, o.recordedBy);
  if (o.graph !== undefined && o.graph !== graph.hash) throw new GraphMismatchError(what, graph.hash, o.graph);
  registerHooks();
  let copy = o.fresh ? undefined : copies.get(graph.hash);
  if (!copy) {
    copy = sealCopy(graph);
    if (!o.fresh) copies.set(graph.hash, copy);
  }
  try {
    return { mod: (await import(copy.entryUrl)) as Record<string, unknown>, graph, copy };
  } catch (e) {
    throw new FormatError(what, -1, `failed to load: ${(e as Error).message ?? String(e)}`);
  }
}
