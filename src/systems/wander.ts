/**
 * The wander system: every agent walks straight along its heading and, when its timer runs out or its last
 * move was blocked, picks a new heading and a new timer from the "wander" seedrandom stream.
 *
 * Agents draw from one shared stream, so the order in which they draw is part of the result: they are visited
 * in ascending entity id (a defined order that does not depend on the history of spawns and despawns).
 */
import { cosAngle, sinAngle } from '../ecs/angle.js';
import { ANGLE_UNITS_PER_TURN } from '../ecs/components.js';
import type { FrameContext } from '../ecs/scheduler.js';
import type { SystemDef, SystemHost } from './system.js';
import { horizontalAxes } from './movement.js';
import { AscendingIds } from './ascending-ids.js';

/** Name of the seedrandom stream agents draw from. */
export const WANDER_STREAM = 'wander';
/** A new heading lasts 30..149 frames (½ to 2½ seconds at 60 frames per second). */
export const WANDER_MIN_FRAMES = 30;
export const WANDER_SPAN_FRAMES = 120;

/**
 * The wander system (priority 48): every agent walks along its heading and, when its timer runs out or its last
 * move was blocked, draws a new heading and timer from the "wander" stream, agents in ascending id.
 */
export const wanderSystem: SystemDef = {
  name: 'wander',
  priority: 48,
  create(host: SystemHost) {
    const ecs = host.ecs;
    const { Agent, Heading, Velocity, Motion, Position } = ecs.components;
    const q = ecs.defineQuery('wander', [Agent, Heading, Velocity, Position]);
    const [h0, h1] = horizontalAxes(host.world);
    const vel = [Velocity.x, Velocity.y, Velocity.z] as const;
    const integer = host.world.integer;
    const ascending = new AscendingIds();
    return (ctx: FrameContext) => {
      const ids = ascending.of(ecs.entities(q));
      const n = ids.length;
      let stream = null as ReturnType<typeof ctx.rng.streams.get> | null;
      for (let i = 0; i < n; i++) {
        const e = ids[i]!;
        let t = Agent.timer[e]! - 1;
        const blocked = Motion.hitWall[e] === 1;
        if (t <= 0 || blocked) {
          // Looked up per frame, not kept: restoring a snapshot replaces the stream objects.
          stream ??= ctx.rng.streams.get(WANDER_STREAM);
          Heading.angle[e] = stream.int(ANGLE_UNITS_PER_TURN);
          t = WANDER_MIN_FRAMES + stream.int(WANDER_SPAN_FRAMES);
        }
        Agent.timer[e] = t;
        const a = Heading.angle[e]!;
        const s = Agent.speed[e]!;
        let dx = s * cosAngle(a);
        let dz = s * sinAngle(a);
        if (integer) {
          dx = Math.round(dx);
          dz = Math.round(dz);
        }
        vel[h0][e] = dx + 0;
        vel[h1][e] = dz + 0;
      }
    };
  },
};
