/**
 * The movement system: moves every body by its velocity through the collision world (`world.move`), in the
 * world's native units, and records what the move touched. Each body's move depends only on its own state and
 * the world, so the query's order does not matter here.
 */
import type { FrameContext } from '../ecs/scheduler.js';
import type { Body, CollisionWorld, Vec3 } from '../worlds/world.js';
import { newMoveResult } from '../worlds/world.js';
import type { SystemDef, SystemHost } from './index.js';

/** The two axes across the ground (the ones that are not `up`), ascending. */
export function horizontalAxes(world: CollisionWorld): [0 | 1 | 2, 0 | 1 | 2] {
  switch (world.up.axis) {
    case 0:
      return [1, 2];
    case 1:
      return [0, 2];
    default:
      return [0, 1];
  }
}

/** An agent's walking speed: 1.5 m/s at 60 frames per second, in native units per frame (whole units in integer worlds). */
export const WALK_METRES_PER_FRAME = 0.025;

export function walkSpeed(world: CollisionWorld): number {
  const s = world.scale * WALK_METRES_PER_FRAME;
  if (!(s > 0) || !Number.isFinite(s)) return world.integer ? 1 : WALK_METRES_PER_FRAME;
  return world.integer ? Math.max(1, Math.round(s)) : s;
}

export const movementSystem: SystemDef = {
  name: 'movement',
  priority: 50,
  create(host: SystemHost) {
    const ecs = host.ecs;
    const world = host.world;
    const { Position, Velocity, BodySize, Motion } = ecs.components;
    const q = ecs.defineQuery('movement', [Position, Velocity, BodySize, Motion]);
    // Scratch objects, reused for every body: the hot loop allocates nothing of its own.
    const body: Body = { radius: 0, height: 0, stepHeight: 0 };
    const from: Vec3 = [0, 0, 0];
    const delta: Vec3 = [0, 0, 0];
    const out = newMoveResult();
    return (_ctx: FrameContext) => {
      const ents = ecs.entities(q);
      const px = Position.x;
      const py = Position.y;
      const pz = Position.z;
      for (let i = 0; i < ents.length; i++) {
        const e = ents[i]!;
        const vx = Velocity.x[e]!;
        const vy = Velocity.y[e]!;
        const vz = Velocity.z[e]!;
        body.radius = BodySize.radius[e]!;
        body.height = BodySize.height[e]!;
        body.stepHeight = BodySize.step[e]!;
        from[0] = px[e]!;
        from[1] = py[e]!;
        from[2] = pz[e]!;
        delta[0] = vx;
        delta[1] = vy;
        delta[2] = vz;
        out.contacts.length = 0;
        const r = world.move(body, from, delta, out);
        const p = r.position;
        // A world that answers with a non-finite position leaves the body where it was (a defined answer).
        if (Number.isFinite(p[0]) && Number.isFinite(p[1]) && Number.isFinite(p[2])) {
          px[e] = p[0];
          py[e] = p[1];
          pz[e] = p[2];
        }
        Motion.grounded[e] = r.grounded ? 1 : 0;
        let wall = -1;
        let hit = 0;
        for (let c = 0; c < r.contacts.length; c++) {
          const k = r.contacts[c]!;
          if (k.kind === 'wall') {
            hit = 1;
            wall = k.id;
          }
        }
        Motion.hitWall[e] = hit;
        if (hit) {
          Motion.contact[e] = wall;
          Motion.blocked[e] = (Motion.blocked[e]! + 1) >>> 0;
        }
      }
    };
  },
};
