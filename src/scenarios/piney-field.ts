/**
 * The "piney-field" scenario, the runtime's default: a generated Piney field with its weather and ambient
 * tasks (installed after the systems, at the game's priorities), a player and wandering agents. Written with
 * the same public API a user's scenario uses; the field's tables come from the world.
 */
import { installAmbient, type InstalledAmbient } from '../systems/piney-ambient/install.js';
import { defineScenario } from '../sim/scenario.js';
import { DEFAULT_SYSTEMS } from '../systems/default-systems.js';
import type { PineyWorld } from '../worlds/piney/collision-world.js';

const installed = new WeakMap<object, InstalledAmbient>();

/**
 * The "piney-field" scenario, the runtime's default: on a Piney field, its weather and ambient tasks at the game's
 * priorities, a player and wandering agents.
 */
export const pineyFieldScenario = defineScenario({
  name: 'piney-field',
  version: '1',
  description: 'a generated Piney field with its weather and ambient tasks, a player and wandering agents',
  systems: DEFAULT_SYSTEMS,
  worldKinds: ['piney'],
  place(sim) {
    sim.spawnPlayer();
    sim.spawnWanderers(sim.settings.agents);
  },
  setup(sim) {
    const field = (sim.world as PineyWorld).field;
    const p = field.params;
    installed.set(sim, installAmbient(sim.scheduler, { seed: p.seed, type: p.fieldType, row: p.weather, ground: p.ground, object: p.object, tables: field.tables }));
  },
});

/**
 * The field weather a simulation's scenario installed (its runtime holds each frame's operation list), or
 * undefined when the scenario has none. For readers such as the renderer: they must not change it.
 */
export function ambientOf(sim: object): Readonly<InstalledAmbient> | undefined {
  return installed.get(sim);
}
