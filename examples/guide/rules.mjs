// The guards' rules: their component and their two systems. The scenario module (guards.mjs) imports them.
import { BodySize, Heading, Motion, Position, Velocity, cosAngle, defineComponent, defineSystem, eyeHeight, horizontalAxes, sinAngle, walkSpeed } from 'retrosim';

/** A guard: the heading of its current leg, frames left on it, whether it sees the player, alarms raised. */
export const Guard = defineComponent('Guard', { legAngle: 'i32', legLeft: 'i32', seeing: 'u8', alarms: 'u32' });

/** Guards walk a leg, then turn a quarter turn; a guard that bumps into a wall turns back at once. */
export const patrol = defineSystem({
  name: 'patrol',
  priority: 48, // beside the built-in wander system, before movement (50)
  create(host) {
    const { ecs, world } = host;
    const guard = ecs.store(Guard);
    const heading = ecs.store(Heading);
    const vel = ecs.store(Velocity);
    const motion = ecs.store(Motion);
    const guards = ecs.defineQuery('guards', [guard, heading, vel]);
    const [a0, a1] = horizontalAxes(world); // the two axes across the ground
    const v = [vel.x, vel.y, vel.z];
    const speed = walkSpeed(world);
    const legFrames = host.params.legFrames;
    return () => {
      for (const e of ecs.entities(guards)) {
        if (motion.hitWall[e] === 1) guard.legAngle[e] = (guard.legAngle[e] + 32768) & 0xffff; // half a turn
        else if (--guard.legLeft[e] <= 0) guard.legAngle[e] = (guard.legAngle[e] + 16384) & 0xffff; // a quarter
        if (guard.legLeft[e] <= 0 || motion.hitWall[e] === 1) guard.legLeft[e] = legFrames;
        heading.angle[e] = guard.legAngle[e];
        // Heading a walks cos(a) along the first horizontal axis and sin(a) along the second, from the
        // integer angle table: the same numbers on every machine. Whole units in an integer world.
        let d0 = speed * cosAngle(guard.legAngle[e]);
        let d1 = speed * sinAngle(guard.legAngle[e]);
        if (world.integer) {
          d0 = Math.round(d0);
          d1 = Math.round(d1);
        }
        v[a0][e] = d0 + 0; // + 0 turns -0 into 0
        v[a1][e] = d1 + 0;
      }
    };
  },
});

/**
 * Every 4 frames each guard looks at the player, eye to eye within its range; on first sight it raises the
 * alarm (a "signal" event). Its running total is declared state: hashed, saved and restored by the runtime.
 */
export const watch = defineSystem({
  name: 'watch',
  priority: 57, // after the built-in line of sight (56)
  create(host) {
    const { ecs, world } = host;
    const guard = ecs.store(Guard);
    const pos = ecs.store(Position);
    const body = ecs.store(BodySize);
    const guards = ecs.defineQuery('watchers', [guard, pos, body]);
    const up = world.up.axis;
    const range = host.params.range * world.scale; // metres into the world's units
    const total = new Uint32Array(1);
    const eye = (e, a) => [pos.x, pos.y, pos.z][a][e] + (a === up ? world.up.sign * eyeHeight(world, body.height[e]) : 0);
    return {
      state: { total },
      run(ctx) {
        if (ctx.frame % 4 !== 0) return;
        const p = ctx.player;
        const px = eye(p, 0), py = eye(p, 1), pz = eye(p, 2);
        for (const e of ecs.entities(guards)) {
          const gx = eye(e, 0), gy = eye(e, 1), gz = eye(e, 2);
          const dx = px - gx, dy = py - gy, dz = pz - gz;
          const near = dx * dx + dy * dy + dz * dz <= range * range;
          const sees = near && ctx.world.segmentFraction(gx, gy, gz, px, py, pz) < 0 ? 1 : 0; // -1: a clear line
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
