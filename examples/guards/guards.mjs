// A scenario of your own: guards patrol the level and raise the alarm when they see the player.
//
//   npx retrosim run --scenario examples/guards/guards.mjs --world rugrats-demo --set guards=6
//
// It declares a component (Guard), two systems (patrol, watch) beside the built-in ones, its parameters, and
// how its entities are placed. Everything it does is a function of the state and the frame context, so its
// replays verify to the bit.
import {
  BodySize,
  DEFAULT_SYSTEMS,
  Heading,
  Motion,
  Position,
  Velocity,
  cosAngle,
  defineComponent,
  defineScenario,
  defineSystem,
  eyeHeight,
  horizontalAxes,
  sinAngle,
  walkSpeed,
} from 'retrosim';

/** A guard: the heading of its current leg, frames left on it, whether it sees the player, alarms raised. */
export const Guard = defineComponent('Guard', { legAngle: 'i32', legLeft: 'i32', seeing: 'u8', alarms: 'u32' });

/** Guards walk a leg, then turn a quarter turn; a guard that bumps into a wall turns back at once. */
const patrol = defineSystem({
  name: 'patrol',
  priority: 48, // beside the built-in wander system
  create(host) {
    const { ecs, world } = host;
    const guard = ecs.store(Guard);
    const heading = ecs.store(Heading);
    const vel = ecs.store(Velocity);
    const motion = ecs.store(Motion);
    const guards = ecs.defineQuery('guards', [guard, heading, vel]);
    const [a0, a1] = horizontalAxes(world);
    const v = [vel.x, vel.y, vel.z];
    const speed = walkSpeed(world);
    const legFrames = host.params.legFrames;
    return () => {
      // Ascending id: a defined order, whatever the history of spawns.
      const ids = [...ecs.entities(guards)].sort((x, y) => x - y);
      for (const e of ids) {
        if (motion.hitWall[e] === 1) guard.legAngle[e] = (guard.legAngle[e] + 32768) & 0xffff;
        else if (--guard.legLeft[e] <= 0) guard.legAngle[e] = (guard.legAngle[e] + 16384) & 0xffff;
        if (guard.legLeft[e] <= 0 || motion.hitWall[e] === 1) guard.legLeft[e] = legFrames;
        heading.angle[e] = guard.legAngle[e];
        let d0 = speed * cosAngle(guard.legAngle[e]);
        let d1 = speed * sinAngle(guard.legAngle[e]);
        if (world.integer) {
          d0 = Math.round(d0);
          d1 = Math.round(d1);
        }
        v[a0][e] = d0 + 0;
        v[a1][e] = d1 + 0;
      }
    };
  },
});

/**
 * Every 4 frames each guard looks at the player, eye to eye within its range; on first sight it raises the
 * alarm (a "signal" event). Its running total is declared state: hashed, saved and restored by the runtime.
 */
const watch = defineSystem({
  name: 'watch',
  priority: 57, // after the built-in line of sight (56)
  create(host) {
    const { ecs, world } = host;
    const guard = ecs.store(Guard);
    const pos = ecs.store(Position);
    const body = ecs.store(BodySize);
    const guards = ecs.defineQuery('watchers', [guard, pos, body]);
    const up = world.up.axis;
    const range = host.params.range * world.scale;
    const total = new Uint32Array(1);
    const eye = (e, a) => [pos.x, pos.y, pos.z][a][e] + (a === up ? world.up.sign * eyeHeight(world, body.height[e]) : 0);
    return {
      state: { total },
      run(ctx) {
        if (ctx.frame % 4 !== 0) return;
        const p = ctx.player;
        const px = eye(p, 0), py = eye(p, 1), pz = eye(p, 2);
        const ids = [...ecs.entities(guards)].sort((x, y) => x - y);
        for (const e of ids) {
          const gx = eye(e, 0), gy = eye(e, 1), gz = eye(e, 2);
          const dx = px - gx, dy = py - gy, dz = pz - gz;
          const near = dx * dx + dy * dy + dz * dz <= range * range;
          const sees = near && ctx.world.segmentFraction(gx, gy, gz, px, py, pz) < 0 ? 1 : 0;
          if (sees && !guard.seeing[e]) {
            guard.alarms[e]++;
            total[0]++;
            ctx.events.emit('signal', { frame: ctx.frame, name: 'alarm', entity: e, data: p });
          }
          guard.seeing[e] = sees;
        }
      },
    };
  },
});

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
    const c = sim.ecs.components;
    const guard = sim.ecs.store(Guard);
    for (let i = 0; i < sim.params.guards; i++) {
      let spot = null;
      for (let t = 0; t < 64 && !spot; t++) spot = sim.world.sampleOpen(stream.next(), stream.next());
      if (!spot) continue;
      const e = sim.ecs.spawn([c.Position, c.Velocity, c.Heading, c.BodySize, c.Motion, guard]);
      [c.Position.x[e], c.Position.y[e], c.Position.z[e]] = spot;
      c.Motion.contact[e] = -1;
      sim.setBody(e);
      guard.legAngle[e] = stream.int(4) * 16384;
      guard.legLeft[e] = sim.params.legFrames;
    }
    sim.spawnWanderers(sim.settings.agents);
  },
});
