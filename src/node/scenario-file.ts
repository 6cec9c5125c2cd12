/**
 * Loading a scenario from a module file in Node: a plain `.mjs` or `.js` ES module (TypeScript compiled by
 * its author) whose default export, or export named `scenario`, is a scenario definition. Its module graph
 * is its identity (scenario-identity.ts: the file, every local module it imports, the versions of the
 * packages they import): a replay records it, and verify refuses a graph that changed, naming the module.
 * A program that imports the same file gets the same identity.
 *
 * A batch job names a module by its graph's hash too, and a batch worker runs it only from a file of its
 * own with that graph (its allow-list), never from bytes a job carries. Inside the file and the local
 * modules it imports, `import ... from 'retrosim'` resolves to the runtime loading it (see
 * scenario-hooks.ts), so they need no retrosim installed beside them.
 */
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { extname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FormatError } from '../binary/format-error.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { registerScenarioSource } from '../scenarios/identity.js';
import { defineScenario, type ScenarioDef, type ScenarioIdentity } from '../sim/scenario.js';
import { BoundedReadError, readBounded } from './bounded-read.js';
import { registerBunScenarioModules } from './bun-scenario-modules.js';
import { moduleGraph, ModuleGraphError, type ModuleGraph } from './module-graph.js';
import { identityFromGraph, scenarioSourcePath } from './scenario-identity.js';

/** A scenario module and the identity its replays record. */
export interface LoadedScenario {
  scenario: ScenarioDef;
  identity: ScenarioIdentity;
}

/** Largest scenario module read (limits.scenarioBytes). */
export const MAX_SCENARIO_BYTES = DEFAULT_LIMITS.scenarioBytes;

let hooked = false;

/**
 * Makes `import 'retrosim'` inside scenario modules resolve to this runtime (scenario-hooks.ts). Needs the
 * compiled hooks file: next to this module in the build, or in dist/ when running from the sources. Under
 * Bun, whose `module.register` does nothing, virtual modules do it instead (bun-scenario-modules.ts).
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
  register(hooks, { data: { base } });
}

/**
 * Imports a scenario module file. `source` is how the path is recorded in replays (by default relative to
 * the current folder, as a program importing the file records it). Throws a FormatError naming the file
 * when it cannot be read, its module graph cannot be hashed, it does not load, or it exports no scenario.
 *
 * @example
 * const { scenario } = await loadScenarioFile('examples/guards/guards.mjs');
 */
export async function loadScenarioFile(path: string, source = scenarioSourcePath(path)): Promise<LoadedScenario> {
  try {
    return await readScenarioFile(path, source);
  } catch (e) {
    if (e instanceof FormatError) e.file ??= path;
    throw e;
  }
}

async function readScenarioFile(path: string, source: string): Promise<LoadedScenario> {
  const what = `scenario module ${path}`;
  const { mod, graph } = await importScenarioGraph(path);
  const exported = (mod['default'] ?? mod['scenario']) as ScenarioDef | undefined;
  if (!exported || typeof exported !== 'object') throw new FormatError(what, -1, 'exports no scenario: export default defineScenario({ ... }) (or export const scenario)');
  let scenario: ScenarioDef;
  try {
    scenario = Object.isFrozen(exported) ? exported : defineScenario(exported);
    if (scenario === exported) defineScenario(exported); // the checks, even for an already frozen definition
  } catch (e) {
    throw new FormatError(what, -1, (e as Error).message);
  }
  const identity: ScenarioIdentity = identityFromGraph(scenario, graph, source);
  registerScenarioSource(scenario, identity);
  return { scenario, identity };
}

/**
 * Imports a scenario module file as `loadScenarioFile` does (checked size, `import 'retrosim'` resolved to
 * this runtime, cached by content) and gives its exports and content hash (its module graph's, as a replay
 * records it). A system worker imports a scenario's module this way to find its range kernels (the
 * `kernels` export).
 */
export async function importScenarioModule(path: string): Promise<{ mod: Record<string, unknown>; contentHash: string }> {
  const { mod, graph } = await importScenarioGraph(path);
  return { mod, contentHash: `0x${graph.hash.slice(0, 16)}` };
}

async function importScenarioGraph(path: string): Promise<{ mod: Record<string, unknown>; graph: ModuleGraph }> {
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
  registerHooks();
  try {
    // The graph's hash in the URL (and, through the hooks, in its local modules'): a module whose graph
    // changed is a new module, never the cached one.
    return { mod: (await import(`${pathToFileURL(resolve(path)).href}?content=0x${graph.hash.slice(0, 16)}`)) as Record<string, unknown>, graph };
  } catch (e) {
    throw new FormatError(what, -1, `failed to load: ${(e as Error).message ?? String(e)}`);
  }
}
