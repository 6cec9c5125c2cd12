// A scenario of your own: guards patrol the level and raise the alarm when they see the player; a guard that
// loses sight of the player walks to where it last saw it, by the world's navigation, then patrols again.
//
//   npx retrosim run --scenario node_modules/retrosim/examples/guards/guards.mjs --world rugrats-demo --set guards=6
//
// (in a clone of the repository: --scenario examples/guards/guards.mjs)
//
// It declares components (Guard, and Sighting for the search), two systems (patrol, watch) beside the built-in
// ones and the navigation system, its parameters, and how its entities are placed. Everything it does is a
// function of the state and the frame context, so its replays verify to the bit. With --set search=false the
// guards only patrol: no navigation, and every run and hash is the patrol-only example's.
import {
  BodySize,
  DEFAULT_SYSTEMS,
  Goal,
  GoalStatus,
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
  navigationSystem,
  sinAngle,
  walkSpeed,
} from 'retrosim';

/** A guard: the heading of its current leg, frames left on it, whether it sees the player, alarms raised. */
export const Guard = defineComponent('Guard', { legAngle: 'i32', legLeft: 'i32', seeing: 'u8', alarms: 'u32' });

/** Where a guard last saw the player (feet, native units), the searches it set out on, and those that got there. */
export const Sighting = defineComponent('Sighting', { x: 'f64', y: 'f64', z: 'f64', searches: 'u32', reached: 'u32' });

/**
 * Guards walk a leg, then turn a quarter turn; a guard that bumps into a wall turns back at once. A guard
 * searching (its Goal active) is left to the navigation system; when its search ends it patrols again.
 */
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
    const goal = host.params.search ? ecs.store(Goal) : null;
    const sighting = host.params.search ? ecs.store(Sighting) : null;
    return (ctx) => {
      // Ascending id: a defined order, whatever the history of spawns.
      const ids = [...ecs.entities(guards)].sort((x, y) => x - y);
      for (const e of ids) {
        if (goal) {
          if (goal.active[e] === 1) continue; // on its way to where it last saw the player
          if (goal.status[e] !== GoalStatus.idle) {
            // The search is over (there, or no way there): back to the patrol, a fresh leg.
            if (goal.status[e] === GoalStatus.arrived) sighting.reached[e]++;
            ctx.nav.clearGoal(e);
            guard.legLeft[e] = legFrames;
          }
        }
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
 * With the search on, a guard that sees the player notes where it stands, and one that loses sight of it
 * sets out for that place (`ctx.nav.setGoal`), the latest one each time it loses sight.
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
    const sighting = host.params.search ? ecs.store(Sighting) : null;
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
          if (sighting && sees) {
            sighting.x[e] = pos.x[p];
            sighting.y[e] = pos.y[p];
            sighting.z[e] = pos.z[p];
          } else if (sighting && guard.seeing[e]) {
            sighting.searches[e]++;
            ctx.nav.setGoal(e, [sighting.x[e], sighting.y[e], sighting.z[e]]);
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
    search: { type: 'bool', default: true, description: 'a guard that loses sight of the player walks to where it last saw it' },
  },
  systems: [...DEFAULT_SYSTEMS, patrol, watch],
  // The search adds what it needs (where each guard walks, and the system that walks it) only when it is on,
  // so a run with search=false is the patrol-only run, to the bit.
  extras: (params) => (params.search ? { components: [Goal, Sighting], systems: [navigationSystem] } : {}),
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
      if (sim.params.search) {
        sim.ecs.add(e, sim.ecs.store(Goal));
        sim.ecs.add(e, sim.ecs.store(Sighting));
        sim.ecs.store(Goal).target[e] = -1; // no node chosen yet
      }
    }
    sim.spawnWanderers(sim.settings.agents);
  },
});
