// A scenario of your own in one program: a component, a system with a query, and place(). Lookouts stand
// on the level and count the frames they see the player, eye to eye, while the player walks about.
import { DEFAULT_SYSTEMS, createSimulation, defineComponent, defineScenario, defineSystem, demoButtons, eyeHeight, openWorld } from 'retrosim';

/** A component: a name and typed fields. Every simulation gets its own arrays, part of its state hash. */
const Lookout = defineComponent('Lookout', { seen: 'u32' });

/** A system: create(host) runs once per simulation and returns the function run every frame. */
const look = defineSystem({
  name: 'look',
  priority: 57, // after the built-in systems have moved everyone (movement runs at 50)
  create(host) {
    const { ecs, world } = host;
    const lookout = ecs.store(Lookout);
    const { Position, BodySize } = ecs.components;
    // A query: the entities that have all these components. Define it here, once, not every frame.
    const lookouts = ecs.defineQuery('lookouts', [lookout, Position, BodySize]);
    // Eyes are eyeHeight() above the feet, along up (up.sign says which way that is on up.axis).
    const eye = (e) => {
      const at = [Position.x[e], Position.y[e], Position.z[e]];
      at[world.up.axis] += world.up.sign * eyeHeight(world, BodySize.height[e]);
      return at;
    };
    return (ctx) => {
      const [px, py, pz] = eye(ctx.player);
      for (const e of ctx.ecs.entities(lookouts)) {
        const [x, y, z] = eye(e);
        // The fraction of the way to the first hit, or -1 when nothing is in the way: < 0 means "sees".
        if (ctx.world.segmentFraction(x, y, z, px, py, pz) < 0) lookout.seen[e]++;
      }
    };
  },
});

const scenario = defineScenario({
  name: 'lookouts',
  version: '1.0.0',
  description: 'lookouts count the frames they see the player',
  components: [Lookout],
  params: { lookouts: { type: 'int', default: 4, min: 1, max: 100, description: 'lookouts to place' } },
  systems: [...DEFAULT_SYSTEMS, look],
  // place() puts the entities in, before the systems are made: the player, then the lookouts on open ground.
  place(sim) {
    sim.spawnPlayer();
    const { Position, BodySize } = sim.ecs.components;
    const lookout = sim.ecs.store(Lookout);
    const stream = sim.rng.streams.get('lookouts'); // a named random stream: the same spots every run
    for (let i = 0; i < sim.params.lookouts; i++) {
      let spot = null; // sampleOpen answers null for a spot where nobody can stand: try again
      for (let t = 0; t < 64 && !spot; t++) spot = sim.world.sampleOpen(stream.next(), stream.next());
      if (!spot) continue;
      const e = sim.ecs.spawn([Position, BodySize, lookout]); // no Velocity: nothing moves it
      [Position.x[e], Position.y[e], Position.z[e]] = spot;
      sim.setBody(e); // a person's size in this world's units
    }
  },
});

const { world } = await openWorld('rugrats-demo');
const sim = createSimulation(world, { scenario, params: { lookouts: 6 } });
for (let f = 1; f <= 600; f++) sim.step(demoButtons(f)); // the demo's buttons: the player walks and turns

const lookout = sim.store(Lookout);
const { Position } = sim.components;
for (let e = 1; e <= sim.ecs.maxId; e++) {
  if (sim.ecs.has(e, lookout)) console.log(`lookout ${e} at [${Position.x[e]}, ${Position.z[e]}] saw the player on ${lookout.seen[e]} of 600 frames`);
}
console.log(`frame ${sim.frame}, state hash ${sim.hashHex()}`);
