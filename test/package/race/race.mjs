// A race on a Llama level: racers head for their next checkpoint; a racer that sees another ahead of it,
// close, eases off (half speed) for that frame. Lap times are in the Lap component (laps.mjs).
import { BodySize, DEFAULT_SYSTEMS, Position, Velocity, defineScenario, defineSystem, eyeHeight, horizontalAxes, walkSpeed } from 'retrosim';
import { Lap, lapTimer } from './laps.mjs';
import { checkpointsOf } from './checkpoints.mjs';

const drive = defineSystem({
  name: 'drive',
  priority: 48,
  create(host) {
    const { ecs, world } = host;
    const lap = ecs.store(Lap);
    const pos = ecs.store(Position);
    const vel = ecs.store(Velocity);
    const body = ecs.store(BodySize);
    const racers = ecs.defineQuery('drivers', [lap, pos, vel, body]);
    const axes = horizontalAxes(world);
    const points = checkpointsOf(world, axes);
    const speed = walkSpeed(world) * 1.5;
    const seeAhead = host.params.seeAhead * world.scale;
    const p = [pos.x, pos.y, pos.z];
    const v = [vel.x, vel.y, vel.z];
    const up = world.up.axis;
    const eye = (e, a) => p[a][e] + (a === up ? world.up.sign * eyeHeight(world, body.height[e]) : 0);
    return (ctx) => {
      const ids = [...ecs.entities(racers)].sort((x, y) => x - y);
      for (const e of ids) {
        const [c0, c1] = points[lap.next[e]];
        const d0 = c0 - p[axes[0]][e];
        const d1 = c1 - p[axes[1]][e];
        const len = Math.sqrt(d0 * d0 + d1 * d1) || 1;
        let s = speed;
        for (const o of ids) {
          if (o === e) continue;
          const o0 = p[axes[0]][o] - p[axes[0]][e];
          const o1 = p[axes[1]][o] - p[axes[1]][e];
          const ahead = o0 * d0 + o1 * d1 > 0;
          if (!ahead || o0 * o0 + o1 * o1 > seeAhead * seeAhead) continue;
          if (ctx.world.segmentFraction(eye(e, 0), eye(e, 1), eye(e, 2), eye(o, 0), eye(o, 1), eye(o, 2)) < 0) {
            s = speed / 2;
            break;
          }
        }
        v[axes[0]][e] = (s * d0) / len;
        v[axes[1]][e] = (s * d1) / len;
      }
    };
  },
});

export default defineScenario({
  name: 'race',
  version: '1.0.0',
  description: 'racers lap four checkpoints; one that sees another close ahead eases off',
  worldKinds: ['llama'],
  components: [Lap],
  params: {
    racers: { type: 'int', default: 4, min: 1, max: 32, description: 'racers on the level' },
    seeAhead: { type: 'number', default: 6, min: 0, max: 100, description: 'how close a racer ahead slows one down, metres' },
  },
  systems: [...DEFAULT_SYSTEMS, drive, lapTimer],
  place(sim) {
    sim.spawnPlayer();
    const stream = sim.rng.streams.get('grid');
    const c = sim.ecs.components;
    const lap = sim.ecs.store(Lap);
    for (let i = 0; i < sim.params.racers; i++) {
      let spot = null;
      for (let t = 0; t < 64 && !spot; t++) spot = sim.world.sampleOpen(stream.next() * 0.4, stream.next() * 0.4); // on the flat ground near the start
      if (!spot) continue;
      const e = sim.ecs.spawn([c.Position, c.Velocity, c.Heading, c.BodySize, c.Motion, lap]);
      [c.Position.x[e], c.Position.y[e], c.Position.z[e]] = spot;
      c.Motion.contact[e] = -1;
      sim.setBody(e);
    }
  },
});
