/**
 * The "wander" scenario: the players (up to 4) and `settings.agents` agents wandering by the "wander" stream, with every
 * built-in system. It runs on any world, and is written with the same public API a user's scenario uses.
 */
import { defineScenario } from '../sim/scenario.js';
import { DEFAULT_SYSTEMS } from '../systems/default-systems.js';

/** The "wander" scenario: a player and `settings.agents` wandering agents with every built-in system, on any world. */
export const wanderScenario = defineScenario({
  name: 'wander',
  version: '1',
  description: 'a player and agents wandering by the "wander" stream',
  systems: DEFAULT_SYSTEMS,
  players: 4,
  place(sim) {
    sim.spawnPlayers();
    sim.spawnWanderers(sim.settings.agents);
  },
});
