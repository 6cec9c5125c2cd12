/**
 * The movement system: moves every body by its velocity through the collision world (`world.move`), in the
 * world's native units, and records what the move touched. Each body's move depends only on its own state and
 * the world, so the query's order does not matter here.
 */
import type { Components } from '../ecs/components.js';
import type { Body, CollisionWorld, MoveResult, Vec3 } from '../worlds/world.js';
import { newMoveResult } from '../worlds/world.js';
import type { SystemDef, SystemHost } from './system.js';

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

/** An agent's walking speed in a world: 1.5 m/s at 60 frames per second in native units per frame (whole units, at least 1, in integer worlds). */
export function walkSpeed(world: CollisionWorld): number {
  const s = world.scale * WALK_METRES_PER_FRAME;
  if (!(s > 0) || !Number.isFinite(s)) return world.integer ? 1 : WALK_METRES_PER_FRAME;
  return world.integer ? Math.max(1, Math.round(s)) : s;
}

/** Scratch objects for `moveBodies`, reused for every body so the hot loop allocates nothing of its own. */
export interface MoveScratch {
  body: Body;
  from: Vec3;
  delta: Vec3;
  out: MoveResult;
}

export function newMoveScratch(): MoveScratch {
  return { body: { radius: 0, height: 0, stepHeight: 0 }, from: [0, 0, 0], delta: [0, 0, 0], out: newMoveResult() };
}

/**
 * Moves the bodies `ents[0..n)` by their velocities through `world.move` and records what each move
 * touched; exit and death contacts go out as events when a frame context is given. The movement system's
 * whole per-frame work (the benchmark runs it from a bare loop too).
 */
export function moveBodies(ents: ArrayLike<number>, n: number, world: CollisionWorld, c: Components, s: MoveScratch): void {
  const px = c.Position.x;
  const py = c.Position.y;
  const pz = c.Position.z;
  const vx = c.Velocity.x;
  const vy = c.Velocity.y;
  const vz = c.Velocity.z;
  const radius = c.BodySize.radius;
  const height = c.BodySize.height;
  const step = c.BodySize.step;
  const { grounded, hitWall, contact, blocked } = c.Motion;
  const { body, from, delta, out } = s;
  for (let i = 0; i < n; i++) {
    const e = ents[i]!;
    body.radius = radius[e]!;
    body.height = height[e]!;
    body.stepHeight = step[e]!;
    from[0] = px[e]!;
    from[1] = py[e]!;
    from[2] = pz[e]!;
    delta[0] = vx[e]!;
    delta[1] = vy[e]!;
    delta[2] = vz[e]!;
    const r = world.move(body, from, delta, out);
    const p = r.position;
    // A world that answers with a non-finite position leaves the body where it was (a defined answer).
    if (Number.isFinite(p[0]) && Number.isFinite(p[1]) && Number.isFinite(p[2])) {
      px[e] = p[0];
      py[e] = p[1];
      pz[e] = p[2];
    }
    grounded[e] = r.grounded ? 1 : 0;
    let wall = -1;
    let hit = 0;
    const contacts = r.contacts;
    for (let k = 0; k < contacts.length; k++) {
      const ct = contacts[k]!;
      // Exit and death contacts are the triggers system's (src/systems/triggers.ts): it raises one event per
      // visit and respawns the body, so movement only records walls.
      if (ct.kind === 'wall') {
        hit = 1;
        wall = ct.id;
      }
    }
    hitWall[e] = hit;
    if (hit) {
      contact[e] = wall;
      blocked[e] = (blocked[e]! + 1) >>> 0;
    }
  }
}

/**
 * The movement system (priority 50): moves every body by its velocity through `world.move` and records what it
 * touched in Motion; exit and death contacts go out as events.
 */
export const movementSystem: SystemDef = {
  name: 'movement',
  priority: 50,
  create(host: SystemHost) {
    const ecs = host.ecs;
    const world = host.world;
    const c = ecs.components;
    const q = ecs.defineQuery('movement', [c.Position, c.Velocity, c.BodySize, c.Motion]);
    const scratch = newMoveScratch();
    return () => {
      const ents = ecs.entities(q);
      moveBodies(ents, ents.length, world, c, scratch);
    };
  },
};
