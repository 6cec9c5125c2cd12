/**
 * The identity of a scenario defined in a module file, the same whether the CLI loaded the file
 * (`loadScenarioFile`) or a program imported it with `import`: its module graph
 * (module-graph.ts) names it, so an edit of any local module it imports, or another version of a package it
 * imports, is a changed scenario. The path it records is relative to the current folder, so a program and
 * the CLI run from the same folder write byte-identical replays.
 *
 * Importing this module installs the resolver that gives program-imported scenarios this identity (the Node
 * entry, src/index.ts, imports it).
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setModuleIdentityResolver } from '../scenarios/identity.js';
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
    contentHash: `0x${graph.hash.slice(0, 16)}`,
    modules: graph.files.map((path, i) => ({ path, hash: graph.fileHashes[i]! })),
    packages: [...graph.packages],
  };
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
  return identityFromGraph(def, graph, scenarioSourcePath(path));
}

setModuleIdentityResolver(importedScenarioIdentity);
