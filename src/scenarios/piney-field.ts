/**
 * The "piney-field" scenario, the runtime's default: a generated Piney field with its weather and ambient
 * tasks (installed after the systems, at the game's priorities), a player and wandering agents. Written with
 * the same public API a user's scenario uses; the field's tables come from the world.
 */
import { installAmbient, type InstalledAmbient } from '../systems/piney-ambient/install.js';
import { pineySite, type FieldSite } from '../systems/piney-ambient/site.js';
import { defineScenario } from '../sim/scenario.js';
import { DEFAULT_SYSTEMS } from '../systems/default-systems.js';
import type { PineyWorld } from '../worlds/piney/collision-world.js';

const installed = new WeakMap<object, InstalledAmbient>();
/**
 * The ambient code's view of each world's field (generated again from the field's parameters, and read
 * only), made once per world: simulations on the same world (a batch sweep's, a sandbox's restarts) share
 * it instead of each generating the field again.
 */
const sites = new WeakMap<PineyWorld, FieldSite>();

function siteOf(world: PineyWorld): FieldSite {
  let site = sites.get(world);
  if (!site) {
    const p = world.field.params;
    site = pineySite({ seed: p.seed, type: p.fieldType, row: p.weather, ground: p.ground, object: p.object }, world.field.tables);
    sites.set(world, site);
  }
  return site;
}

/**
 * The "piney-field" scenario, the runtime's default: on a Piney field, its weather and ambient tasks at the game's
 * priorities, a player and wandering agents.
 */
export const pineyFieldScenario = defineScenario({
  name: 'piney-field',
  version: '1',
  description: 'a generated Piney field with its weather and ambient tasks, a player and wandering agents',
  systems: DEFAULT_SYSTEMS,
  players: 4,
  worldKinds: ['piney'],
  place(sim) {
    sim.spawnPlayers();
    sim.spawnWanderers(sim.settings.agents);
  },
  setup(sim) {
    const world = sim.world as PineyWorld;
    const p = world.field.params;
    installed.set(sim, installAmbient(sim.scheduler, { seed: p.seed, type: p.fieldType, row: p.weather, ground: p.ground, object: p.object, tables: world.field.tables, site: siteOf(world) }));
  },
});

/**
 * The field weather a simulation's scenario installed (its runtime holds each frame's operation list), or
 * undefined when the scenario has none. For readers such as the renderer: they must not change it.
 */
export function ambientOf(sim: object): Readonly<InstalledAmbient> | undefined {
  return installed.get(sim);
}
