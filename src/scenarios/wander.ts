/**
 * The "wander" scenario: the players (up to 4) and `settings.agents` agents wandering by the "wander" stream, with every
 * built-in system. Its parameter `goers` makes the first that many agents walk to places by navigation (the
 * goers system, src/systems/goers.ts); with none (the default) the scenario's components and systems are the
 * ones it always had, so its runs, hashes and replays are those of every earlier version. It runs on any
 * world, and is written with the same public API a user's scenario uses.
 */
import { defineScenario, type ScenarioExtras } from '../sim/scenario.js';
import { SETTING_RANGES } from '../sim/scenario.js';
import { DEFAULT_SYSTEMS } from '../systems/default-systems.js';
import { navigationSystem } from '../systems/navigation.js';
import { Goer, goersSystem } from '../systems/goers.js';
import { Goal } from '../nav/navigator.js';

/**
 * The navigation system at the wander system's priority (48) and listed after it: a goer on its way keeps the
 * velocity navigation gives it (wander's is overwritten), still before gravity (49) and movement (50).
 */
const navigationAfterWander = { ...navigationSystem, priority: 48 };

/** What goers add to a run: their components and systems (nothing without goers). */
const GOER_EXTRAS: ScenarioExtras = Object.freeze({ components: [Goal, Goer], systems: [navigationAfterWander, goersSystem] });

/**
 * The "wander" scenario: a player and `settings.agents` wandering agents with every built-in system, on any
 * world; with `goers` (a parameter, default 0), the first that many agents walk between places by navigation.
 */
export const wanderScenario = defineScenario({
  name: 'wander',
  version: '1',
  description: 'a player and agents wandering by the "wander" stream; goers walk to places by navigation',
  systems: DEFAULT_SYSTEMS,
  players: 4,
  params: {
    goers: {
      type: 'int',
      default: 0,
      min: 0,
      max: SETTING_RANGES.agents.max,
      description: 'how many of the agents (the first ones) walk between places by navigation; 0, the default, is the run as it always was',
    },
  },
  extras: (params) => ((params.goers as number) > 0 ? GOER_EXTRAS : {}),
  // The declaration before `goers` existed: its replays are runs with no goers, re-simulated to the bit.
  compatibleWith: ['0x2800d83fa26637c4'],
  place(sim) {
    sim.spawnPlayers();
    sim.spawnWanderers(sim.settings.agents);
    let goers = sim.params.goers as number;
    if (goers === 0) return;
    const ecs = sim.ecs;
    const goal = ecs.store(Goal);
    const goer = ecs.store(Goer);
    const agent = ecs.components.Agent;
    for (let e = 1; e <= ecs.maxId && goers > 0; e++) {
      if (ecs.alive[e] !== 1 || !ecs.has(e, agent)) continue;
      ecs.add(e, goal);
      ecs.add(e, goer);
      goal.target[e] = -1;
      goers--;
    }
  },
});
