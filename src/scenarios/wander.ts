/**
 * The "wander" scenario: the players (up to 4) and `settings.agents` agents wandering by the "wander" stream, with every
 * built-in system. Its parameter `goers` makes that many of the agents walk between places by navigation (the
 * goers system, src/systems/goers.ts) instead of wandering; with none (the default) the scenario's components and systems are the
 * ones it always had, so its runs, hashes and replays are those of every earlier version. It runs on any
 * world, and is written with the same public API a user's scenario uses.
 */
import { defineScenario, type ScenarioExtras } from '../sim/scenario.js';
import { SETTING_RANGES } from '../sim/scenario.js';
import { DEFAULT_SYSTEMS } from '../systems/default-systems.js';
import { navigationSystem } from '../systems/navigation.js';
import { Goer, goersSystem } from '../systems/goers.js';
import { Goal, navCacheFor } from '../nav/navigator.js';
import { nodePosition } from '../nav/graph.js';

/** What goers add to a run: their components and systems (nothing without goers). */
const GOER_EXTRAS: ScenarioExtras = Object.freeze({ components: [Goal, Goer], systems: [navigationSystem, goersSystem] });

/** The stream the goers' standing places are drawn from. */
const GOER_PLACEMENT_STREAM = 'goers';

/**
 * The "wander" scenario: a player and `settings.agents` wandering agents with every built-in system, on any
 * world; with `goers` (a parameter, default 0), that many of the agents walk between places by navigation
 * instead of wandering.
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
      description: 'how many of the agents walk between places by navigation instead of wandering (at most the agents); 0, the default, is the run as it always was',
      // 0 is the scenario before goers: the same declared shape (content hash) and recorded parameters.
      optional: true,
    },
  },
  extras: (params) => ((params.goers as number) > 0 ? GOER_EXTRAS : {}),
  place(sim) {
    sim.spawnPlayers();
    const agents = sim.settings.agents;
    const goers = Math.min(sim.params.goers as number, agents);
    sim.spawnWanderers(agents - goers);
    if (goers === 0) return;
    // Goers stand on nodes of the navigation graph, drawn from their own stream. They are not wandering
    // agents (no Agent component), so neither the wander system nor the controller's behaviours move them.
    const g = navCacheFor(sim.world).graph;
    if (g.nodeCount === 0) return;
    const ecs = sim.ecs;
    const c = ecs.components;
    const goal = ecs.store(Goal);
    const goer = ecs.store(Goer);
    const stream = sim.rng.streams.get(GOER_PLACEMENT_STREAM);
    for (let k = 0; k < goers; k++) {
      const e = ecs.spawn([c.Position, c.Velocity, c.Heading, c.BodySize, c.Motion, goal, goer]);
      [c.Position.x[e], c.Position.y[e], c.Position.z[e]] = nodePosition(g, stream.int(g.nodeCount));
      c.Motion.contact[e] = -1;
      c.BodySize.radius[e] = g.body.radius;
      c.BodySize.height[e] = g.body.height;
      c.BodySize.step[e] = g.body.step;
      goal.target[e] = -1;
    }
  },
});
