/**
 * The "navigate" scenario: "wander" with navigation orders. The players and `settings.agents` agents wander as
 * in "wander"; an agent sent somewhere by a navigation order (an input word of player 0, see nav-orders.ts)
 * walks the world's navigation graph there, then wanders on from where it arrived. Written on the public API.
 */
import { defineScenario } from '../sim/scenario.js';
import { controllerSystem, DEFAULT_SYSTEMS } from '../systems/default-systems.js';
import { navigationSystem } from '../systems/navigation.js';
import { NavOrder, navOrderSystem } from '../systems/nav-orders.js';
import { Goal } from '../nav/navigator.js';

/**
 * The navigation system at the controller's priority (49), listed right after it and before gravity (also 49;
 * ties run as listed): an agent on its way keeps the velocity navigation gives it, over wander's and over a
 * patrol's or a chase's, and gravity and movement then act on it as they did when the graph was built.
 */
const navigationAfterController = { ...navigationSystem, priority: 49 };
const at = DEFAULT_SYSTEMS.indexOf(controllerSystem) + 1;
const SYSTEMS = [...DEFAULT_SYSTEMS.slice(0, at), navigationAfterController, ...DEFAULT_SYSTEMS.slice(at), navOrderSystem];

/** The "navigate" scenario: "wander", where navigation orders in player 0's input send agents along the graph. */
export const navigateScenario = defineScenario({
  name: 'navigate',
  version: '1',
  description: 'a player and wandering agents that navigation orders send across the world',
  components: [Goal, NavOrder],
  systems: SYSTEMS,
  players: 4,
  place(sim) {
    sim.spawnPlayers();
    sim.spawnWanderers(sim.settings.agents);
    const ecs = sim.ecs;
    const goal = ecs.store(Goal);
    const agent = ecs.components.Agent;
    for (let e = 1; e <= ecs.maxId; e++) {
      if (ecs.alive[e] !== 1) continue;
      if (ecs.has(e, agent)) {
        ecs.add(e, goal);
        goal.target[e] = -1;
      }
    }
    if (sim.player > 0) ecs.add(sim.player, ecs.store(NavOrder));
  },
});
