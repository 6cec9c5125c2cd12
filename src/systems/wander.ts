/**
 * The wander system: every agent walks straight along its heading and, when its timer runs out or its last
 * move was blocked, picks a new heading and a new timer from the "wander" seedrandom stream.
 *
 * Agents draw from one shared stream, so the order in which they draw is part of the result: they are visited
 * in ascending entity id (a defined order that does not depend on the history of spawns and despawns). The
 * walk is a range kernel that marks the agents needing a draw; the draws follow on the main thread, in
 * ascending id, so the stream sees the same order on any number of threads.
 */
import { cosAngle, sinAngle } from '../ecs/angle.js';
import { Agent, ANGLE_UNITS_PER_TURN, Heading, Motion, Velocity, type Vec3Store } from '../ecs/components.js';
import type { FrameContext } from '../ecs/scheduler.js';
import type { SystemDef, SystemHost } from './system.js';
import { horizontalAxes } from './movement.js';
import { AscendingIds } from './ascending-ids.js';
import { localParallelHost, type RangeKernel } from './range-kernel.js';
import type { CollisionWorld } from '../worlds/world.js';

/** Name of the seedrandom stream agents draw from. */
export const WANDER_STREAM = 'wander';
/** A new heading lasts 30..149 frames (½ to 2½ seconds at 60 frames per second). */
export const WANDER_MIN_FRAMES = 30;
export const WANDER_SPAN_FRAMES = 120;

/**
 * The wander system's per-agent part as a range kernel: counts the agent's timer down and, unless it ran out
 * or the last move was blocked, sets its velocity from its heading. An agent that needs a new heading is
 * marked instead (timer and velocity untouched): the system draws for the marked ones on the main thread, in
 * ascending id, from the shared stream. Reads Agent, Heading and Motion; writes Agent and Velocity.
 */
export const wanderKernel: RangeKernel = {
  name: 'retrosim:wander',
  reads: [Agent, Heading, Motion],
  writes: [Agent, Velocity],
  create(world, stores) {
    const agent = stores.store(Agent);
    const heading = stores.store(Heading).angle;
    const hitWall = stores.store(Motion).hitWall;
    const walk = walker(world, stores.store(Velocity));
    const timer = agent.timer;
    const speed = agent.speed;
    return (ids, start, end, marks) => {
      let k = 0;
      for (let i = start; i < end; i++) {
        const e = ids[i]!;
        const t = timer[e]! - 1;
        if (t <= 0 || hitWall[e] === 1) {
          marks[start + k++] = e;
          continue;
        }
        timer[e] = t;
        walk(e, heading[e]!, speed[e]!);
      }
      return k;
    };
  },
};

/** Sets an agent's velocity across the ground from its heading and speed (whole units in integer worlds). */
function walker(world: CollisionWorld, velocity: Pick<Vec3Store, 'x' | 'y' | 'z'>): (e: number, a: number, s: number) => void {
  const [h0, h1] = horizontalAxes(world);
  const vel = [velocity.x, velocity.y, velocity.z] as const;
  const v0 = vel[h0];
  const v1 = vel[h1];
  const integer = world.integer;
  return (e, a, s) => {
    let dx = s * cosAngle(a);
    let dz = s * sinAngle(a);
    if (integer) {
      dx = Math.round(dx);
      dz = Math.round(dz);
    }
    v0[e] = dx + 0;
    v1[e] = dz + 0;
  };
}

/**
 * The wander system (priority 48): every agent walks along its heading and, when its timer runs out or its last
 * move was blocked, draws a new heading and timer from the "wander" stream, agents in ascending id. The walk
 * runs as `wanderKernel` (over ranges on the simulation's threads when it has them); the draws for the agents
 * it marks run here, in ascending id, so the stream's order does not depend on the threads.
 */
export const wanderSystem: SystemDef = {
  name: 'wander',
  priority: 48,
  create(host: SystemHost) {
    const ecs = host.ecs;
    const { Agent: agent, Heading: heading, Velocity: velocity, Position } = ecs.components;
    const q = ecs.defineQuery('wander', [agent, heading, velocity, Position]);
    const walk = walker(host.world, velocity);
    const ascending = new AscendingIds();
    const runner = (host.parallel ?? localParallelHost(host.world, ecs.components)).runner(wanderKernel);
    return (ctx: FrameContext) => {
      const ids = ascending.of(ecs.entities(q), ecs.structureId);
      const marked = runner.run(ids, ids.length);
      if (marked.length === 0) return;
      // Looked up per frame, not kept: restoring a snapshot replaces the stream objects.
      const stream = ctx.rng.streams.get(WANDER_STREAM);
      for (let i = 0; i < marked.length; i++) {
        const e = marked[i]!;
        const a = stream.int(ANGLE_UNITS_PER_TURN);
        heading.angle[e] = a;
        agent.timer[e] = WANDER_MIN_FRAMES + stream.int(WANDER_SPAN_FRAMES);
        walk(e, a, agent.speed[e]!);
      }
    };
  },
};
