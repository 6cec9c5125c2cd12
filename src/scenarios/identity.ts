/**
 * The identity a replay records for a scenario, in this order: one loaded from a module file by
 * `loadScenarioFile` (registered here with its module graph's hash); a built-in one ("builtin:<name>");
 * one defined in a module file that a program imported (the same identity the CLI gives that file, from
 * the module graph, computed by the resolver the Node entry installs); else "inline", hashed by its
 * declared shape (a browser bundle, TypeScript run from source, `retrosim/core` without the Node entry).
 */
import { scenarioFingerprint, scenarioModuleUrl, type ScenarioDef, type ScenarioIdentity } from '../sim/scenario.js';
import { BUILTIN_SCENARIOS } from './builtin.js';

const fromFiles = new WeakMap<ScenarioDef, ScenarioIdentity>();
/** For a scenario from a module file: the identity a replay recorded before graph 2 gives the same module. */
const legacy = new WeakMap<ScenarioDef, ScenarioIdentity>();

/** Gives the identity of a scenario defined in the module at a `file:` URL, or undefined when it has none. */
export type ModuleIdentityResolver = (def: ScenarioDef, moduleUrl: string) => ScenarioIdentity | undefined;

let resolver: ModuleIdentityResolver | null = null;

/** Installs the resolver of scenarios defined in module files (done once by the Node entry). */
export function setModuleIdentityResolver(r: ModuleIdentityResolver): void {
  resolver = r;
}

/** Records that `def` was loaded from a module file with this identity (done by `loadScenarioFile`). */
export function registerScenarioSource(def: ScenarioDef, identity: ScenarioIdentity): void {
  fromFiles.set(def, freezeIdentity(identity));
}

/** Records the graph-1 identity of a scenario loaded from a module file (replays recorded before graph 2). */
export function registerLegacyIdentity(def: ScenarioDef, identity: ScenarioIdentity): void {
  legacy.set(def, freezeIdentity(identity));
}

/**
 * The identity a replay recorded before graph 2 would hold for `def` (its module graph's graph-1 hash), or
 * undefined for a scenario not from a module file. Compared with such a replay's instead of the current one.
 */
export function legacyScenarioIdentity(def: ScenarioDef): ScenarioIdentity | undefined {
  scenarioIdentity(def); // a program-imported module's identities are made on first use
  const l = legacy.get(def);
  return l ? copy(l) : undefined;
}

function freezeIdentity(i: ScenarioIdentity): ScenarioIdentity {
  return Object.freeze({
    ...i,
    ...(i.modules ? { modules: Object.freeze(i.modules.map((m) => Object.freeze({ ...m }))) as ScenarioIdentity['modules'] } : {}),
    ...(i.packages ? { packages: Object.freeze([...i.packages]) as string[] } : {}),
  });
}

function copy(i: ScenarioIdentity): ScenarioIdentity {
  return { ...i, ...(i.modules ? { modules: i.modules.map((m) => ({ ...m })) } : {}), ...(i.packages ? { packages: [...i.packages] } : {}) };
}

/**
 * The identity a replay of `def` records (see the module comment). For a scenario a program imported from
 * a module file, the module graph is hashed the first time and kept: the identity of the code that was
 * loaded, even if the file changes on disk later.
 */
export function scenarioIdentity(def: ScenarioDef): ScenarioIdentity {
  const file = fromFiles.get(def);
  if (file) return copy(file);
  const builtin = BUILTIN_SCENARIOS.get(def.name) === def;
  if (!builtin && resolver) {
    const url = scenarioModuleUrl(def);
    const found = url !== undefined ? resolver(def, url) : undefined;
    if (found) {
      registerScenarioSource(def, found);
      return copy(found);
    }
  }
  return { name: def.name, version: def.version, source: builtin ? `builtin:${def.name}` : 'inline', contentHash: scenarioFingerprint(def) };
}
