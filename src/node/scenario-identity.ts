/**
 * The identity of a scenario defined in a module file, the same whether the CLI loaded the file
 * (`loadScenarioFile`) or a program imported it with `import`: its module graph
 * (module-graph.ts) names it, so an edit of any local module it imports, or another version or content of a
 * package it imports, is a changed scenario. The path it records is relative to the current folder, so a
 * program and the CLI run from the same folder write byte-identical replays.
 *
 * A replay's recorded graph is compared with a module's before the module is imported
 * (`checkRecordedGraph`): a module that is not the one recorded is refused by name and nothing of it runs.
 *
 * Importing this module installs the resolver that gives program-imported scenarios this identity (the Node
 * entry, src/index.ts, imports it).
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError } from '../binary/format-error.js';
import { isGraph2 } from '../scenarios/graph-listing.js';
import { registerLegacyIdentity, setModuleIdentityResolver } from '../scenarios/identity.js';
import { describeChanges, scenarioModuleChanges } from '../replay/scenario-changes.js';
import { ScenarioError, type ScenarioDef, type ScenarioIdentity } from '../sim/scenario.js';
import { moduleGraph, ModuleGraphError, type ModuleGraph } from './module-graph.js';

/** Extensions of module files whose graph is hashed: what Node runs as JavaScript. */
const MODULE_EXTENSIONS = /\.(mjs|cjs|js)$/i;

/** How a replay records a scenario file's path: relative to the current folder, '/'-separated (absolute outside it). */
export function scenarioSourcePath(path: string): string {
  const abs = resolve(path);
  const rel = relative(process.cwd(), abs);
  const shown = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
  return shown.split(sep).join('/');
}

/** The identity of `def`, defined in the module whose graph is `graph`, recorded under `source`. */
export function identityFromGraph(def: ScenarioDef, graph: ModuleGraph, source: string): ScenarioIdentity {
  return {
    name: def.name,
    version: def.version,
    source: `file:${source}`,
    contentHash: graph.contentHash,
    modules: graph.files.map((path, i) => ({ path, hash: graph.fileHashes[i]! })),
    packages: [...graph.packages],
  };
}

/** The identity a replay recorded before graph 2 would have for the same module (its graph-1 hash). */
export function legacyIdentityFromGraph(def: ScenarioDef, graph: ModuleGraph, source: string): ScenarioIdentity {
  return { name: def.name, version: def.version, source: `file:${source}`, contentHash: graph.legacyHash, modules: graph.legacyModules.map((m) => ({ ...m })), packages: [...graph.legacyPackages] };
}

/** Both identities of a module's scenario, registered so that a replay of either graph can be checked. */
export function registerGraphIdentities(def: ScenarioDef, graph: ModuleGraph, source: string): ScenarioIdentity {
  registerLegacyIdentity(def, legacyIdentityFromGraph(def, graph, source));
  return identityFromGraph(def, graph, source);
}

/**
 * Refuses, before anything of it is imported, a module whose graph is not the one a replay recorded (or a
 * netplay room plays: `by`): a FormatError ("scenario module FILE", kind "scenario" in the CLI) naming the file and what differs.
 */
export function checkRecordedGraph(recorded: ScenarioIdentity, graph: ModuleGraph, path: string, by: 'replay' | 'room' = 'replay'): void {
  const what = `scenario module ${path}`;
  const given: ScenarioIdentity = isGraph2(recorded)
    ? { name: recorded.name, version: recorded.version, source: `file:${path}`, contentHash: graph.contentHash, modules: graph.files.map((p, i) => ({ path: p, hash: graph.fileHashes[i]! })), packages: [...graph.packages] }
    : { name: recorded.name, version: recorded.version, source: `file:${path}`, contentHash: graph.legacyHash, modules: graph.legacyModules, packages: graph.legacyPackages };
  if (given.contentHash === recorded.contentHash) return;
  const changes = scenarioModuleChanges(recorded, given);
  const e = new FormatError(
    what,
    -1,
    `${by === 'replay' ? 'is not the module the replay was recorded with: the replay ran' : "is not the room's module: the room plays"} scenario ${JSON.stringify(recorded.name)} ${recorded.version} from ${recorded.source} with module graph ${recorded.contentHash}, this file's graph is ${given.contentHash}${changes.length ? ` (${describeChanges(changes)})` : ''}; nothing of it was run`,
  );
  e.file = path;
  throw e;
}

/**
 * The identity of a scenario a program imported from the module at `moduleUrl`; undefined for a file that
 * is not JavaScript (TypeScript run from source: its imports are not what Node resolves). A graph that
 * cannot be hashed is a ScenarioError naming the file and why: recording under a weaker identity would let
 * a changed module through.
 */
export function importedScenarioIdentity(def: ScenarioDef, moduleUrl: string): ScenarioIdentity | undefined {
  let path: string;
  try {
    path = fileURLToPath(moduleUrl);
  } catch {
    return undefined;
  }
  if (!MODULE_EXTENSIONS.test(path)) return undefined;
  let graph: ModuleGraph;
  try {
    graph = moduleGraph(path);
  } catch (e) {
    if (!(e instanceof ModuleGraphError)) throw e;
    throw new ScenarioError(`scenario ${def.name}: its module ${scenarioSourcePath(path)} cannot be identified for a replay: ${e.message}`);
  }
  return registerGraphIdentities(def, graph, scenarioSourcePath(path));
}

setModuleIdentityResolver(importedScenarioIdentity);
