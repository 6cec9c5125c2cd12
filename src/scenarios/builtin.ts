/**
 * The built-in scenarios by name, the scenario a world runs by default, and `createSimulation`, which fills
 * in what a caller leaves out (settings from the world's defaults, a built-in scenario by name).
 */
import type { EventBus } from '../ecs/events.js';
import { DEFAULT_SETTINGS, ScenarioError, type ScenarioDef, type ScenarioSettings } from '../sim/scenario.js';
import { Simulation } from '../sim/simulation.js';
import type { PineyWorld } from '../worlds/piney/collision-world.js';
import type { CollisionWorld } from '../worlds/world.js';
import type { SystemThreads } from '../systems/range-kernel.js';
import { pineyFieldScenario } from './piney-field.js';
import { wanderScenario } from './wander.js';
import { navigateScenario } from './navigate.js';

/** The scenarios shipped with the runtime, by name. */
export const BUILTIN_SCENARIOS: ReadonlyMap<string, ScenarioDef> = new Map([
  [wanderScenario.name, wanderScenario],
  [pineyFieldScenario.name, pineyFieldScenario],
  [navigateScenario.name, navigateScenario],
]);

/** A built-in scenario by name; a ScenarioError lists the known ones. */
export function builtinScenario(name: string): ScenarioDef {
  const s = BUILTIN_SCENARIOS.get(name);
  if (!s) throw new ScenarioError(`unknown scenario ${JSON.stringify(name)} (built-in: ${[...BUILTIN_SCENARIOS.keys()].join(', ')}; a scenario of your own is given as a definition or a module file)`);
  return s;
}

/** The built-in scenario a world runs by default: the field's weather on a Piney field, "wander" elsewhere. */
export function scenarioForWorld(world: CollisionWorld): ScenarioDef {
  return world.kind === 'piney' ? pineyFieldScenario : wanderScenario;
}

/**
 * Full settings for a world: the defaults, the field's own seed for a Piney field (GO seeds fieldrand with
 * it), the world's default scenario, then `over`.
 */
export function defaultSettingsFor(world: CollisionWorld, over: Partial<ScenarioSettings> = {}): ScenarioSettings {
  const fieldSeed = world.kind === 'piney' ? (world as PineyWorld).field.params.seed : DEFAULT_SETTINGS.fieldSeed;
  return { ...DEFAULT_SETTINGS, scenario: scenarioForWorld(world).name, fieldSeed, params: {}, ...over };
}

/** What `createSimulation` takes: any settings (the rest from the world's defaults) and the scenario. */
export interface SimulationInit extends Partial<Omit<ScenarioSettings, 'scenario'>> {
  /** A scenario definition, or a built-in scenario's name; by default the world's (`scenarioForWorld`). */
  scenario?: ScenarioDef | string;
  /** The event bus; a fresh one by default. */
  events?: EventBus;
  /** Threads for the systems' range kernels (in Node, a `SystemPool`); the main thread alone by default. */
  threads?: SystemThreads;
}

/**
 * Makes a simulation of a world. Settings not given come from `defaultSettingsFor(world)`; the capacity
 * grows to fit the agents asked for.
 *
 * @example
 * const sim = createSimulation(world, { scenario: guards, agents: 20, params: { guards: 4 } });
 * for (let f = 0; f < 600; f++) sim.step(Buttons.Up);
 * console.log(sim.hashHex());
 */
export function createSimulation(world: CollisionWorld, init: SimulationInit = {}): Simulation {
  const { scenario: which, events, threads, ...over } = init;
  const def = typeof which === 'object' && which !== null ? which : which === undefined ? scenarioForWorld(world) : builtinScenario(which);
  const base = defaultSettingsFor(world, { ...over, scenario: def.name });
  if (over.capacity === undefined) base.capacity = Math.max(base.capacity, nextPow2(base.agents + 1 + (base.players ?? 1)));
  return new Simulation(world, def, base, { ...(events ? { events } : {}), ...(threads ? { threads } : {}) });
}

/**
 * Builds a simulation from full settings (a replay's, say): the scenario given (its name replaces the
 * settings' one), else the built-in one the settings name.
 */
export function simulationFromSettings(world: CollisionWorld, settings: ScenarioSettings, scenario?: ScenarioDef, events?: EventBus, threads?: SystemThreads): Simulation {
  const def = scenario ?? builtinScenario(settings.scenario);
  return new Simulation(world, def, { ...settings, scenario: def.name, params: settings.params ?? {} }, { ...(events ? { events } : {}), ...(threads ? { threads } : {}) });
}

function nextPow2(n: number): number {
  let p = 2;
  while (p < n) p *= 2;
  return p;
}
