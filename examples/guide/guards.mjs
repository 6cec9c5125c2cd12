// A scenario module: guards patrol the level and raise the alarm when they see the player. Its rules live in
// rules.mjs beside it; a replay names both files by their content.
//
//   npx retrosim run --scenario ./guards.mjs --world rugrats-demo --set guards=6
import { DEFAULT_SYSTEMS, defineScenario } from 'retrosim';
import { Guard, patrol, watch } from './rules.mjs';

export default defineScenario({
  name: 'guards',
  version: '1.0.0',
  description: 'guards patrol the level and raise the alarm when they see the player',
  worldKinds: ['rugrats', 'llama'],
  components: [Guard],
  params: {
    guards: { type: 'int', default: 4, min: 1, max: 64, description: 'guards on patrol' },
    range: { type: 'number', default: 12, min: 1, max: 100, description: 'how far a guard sees, metres' },
    legFrames: { type: 'int', default: 180, min: 1, max: 100000, description: 'frames per leg of a patrol' },
  },
  systems: [...DEFAULT_SYSTEMS, patrol, watch],
  place(sim) {
    sim.spawnPlayer();
    // Guards stand where the world says a body can stand, drawn from their own stream.
    const stream = sim.rng.streams.get('guards');
    const { Position, Velocity, Heading, BodySize, Motion } = sim.ecs.components;
    const guard = sim.ecs.store(Guard);
    for (let i = 0; i < sim.params.guards; i++) {
      let spot = null;
      for (let t = 0; t < 64 && !spot; t++) spot = sim.world.sampleOpen(stream.next(), stream.next());
      if (!spot) continue;
      const e = sim.ecs.spawn([Position, Velocity, Heading, BodySize, Motion, guard]);
      [Position.x[e], Position.y[e], Position.z[e]] = spot;
      Motion.contact[e] = -1; // no wall touched yet
      sim.setBody(e);
      guard.legAngle[e] = stream.int(4) * 16384; // a quarter turn is 16384
      guard.legLeft[e] = sim.params.legFrames;
    }
    sim.spawnWanderers(sim.settings.agents); // and the wanderers asked for (--agents N, or agents: N)
  },
});
