/**
 * The identity a replay records for a scenario: built-in ("builtin:<name>"), from a module file
 * ("file:<path>", hashed by the file's bytes; the Node loader registers it here), or defined in a program
 * ("inline", hashed by its declared shape).
 */
import { scenarioFingerprint, type ScenarioDef, type ScenarioIdentity } from '../sim/scenario.js';
import { BUILTIN_SCENARIOS } from './builtin.js';

const fromFiles = new WeakMap<ScenarioDef, ScenarioIdentity>();

/** Records that `def` was loaded from a module file with this identity (done by `loadScenarioFile`). */
export function registerScenarioSource(def: ScenarioDef, identity: ScenarioIdentity): void {
  fromFiles.set(def, Object.freeze({ ...identity }));
}

/** The identity a replay of `def` records. */
export function scenarioIdentity(def: ScenarioDef): ScenarioIdentity {
  const file = fromFiles.get(def);
  if (file) return { ...file };
  const builtin = BUILTIN_SCENARIOS.get(def.name) === def;
  return { name: def.name, version: def.version, source: builtin ? `builtin:${def.name}` : 'inline', contentHash: scenarioFingerprint(def) };
}
