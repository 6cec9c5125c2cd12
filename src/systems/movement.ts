/**
 * The movement system: moves every body by its velocity through the collision world (`world.move`), in the
 * world's native units, and records what the move touched. Each body's move depends only on its own state and
 * the world, so the query's order does not matter here, and the work is a range kernel (`movementKernel`):
 * with `SystemThreads` it runs over ranges of bodies on several threads, with the same result.
 */
import { BodySize, Motion, Position, Velocity, type Components } from '../ecs/components.js';
import type { Body, CollisionWorld, MoveBatch, MoveResult, Vec3 } from '../worlds/world.js';
import { newMoveBatch, newMoveResult } from '../worlds/world.js';
import type { SystemDef, SystemHost } from './system.js';
import { localParallelHost, type RangeKernel } from './range-kernel.js';

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
  /** The batch a world with `moveMany` moves the bodies in, MOVE_BATCH at a time. */
  batch: MoveBatch;
}

/**
 * How many bodies a world's `moveMany` gets at once: enough that the stages' loops overlap their queries,
 * few enough that the batch's arrays (about 100 bytes a body, 50 KiB in all) stay in the second-level cache.
 */
export const MOVE_BATCH = 512;

export function newMoveScratch(): MoveScratch {
  return { body: { radius: 0, height: 0, stepHeight: 0 }, from: [0, 0, 0], delta: [0, 0, 0], out: newMoveResult(), batch: newMoveBatch(MOVE_BATCH) };
}

/** The stores a move reads and writes (a simulation's `Components` has them, and so do a kernel's stores). */
export type MoveStores = Pick<Components, 'Position' | 'Velocity' | 'BodySize' | 'Motion'>;

/**
 * Moves the bodies `ents[0..n)` by their velocities through `world.move` and records what each move
 * touched (walls; exit and death floors are the triggers system's). The movement system's whole per-frame
 * work (the benchmark runs it from a bare loop too).
 */
export function moveBodies(ents: ArrayLike<number>, n: number, world: CollisionWorld, c: MoveStores, s: MoveScratch): void {
  moveBodyRange(ents, 0, n, world, c, s);
}

/**
 * `moveBodies` over `ents[start..end)`: one thread's range. A world with `moveMany` gets the bodies in
 * batches (gather from the stores, move, write back); any other world one `move` at a time.
 */
export function moveBodyRange(ents: ArrayLike<number>, start: number, end: number, world: CollisionWorld, c: MoveStores, s: MoveScratch): void {
  if (world.moveMany !== undefined) moveBodyBatches(ents, start, end, world, c, s.batch);
  else moveBodyEach(ents, start, end, world, c, s);
}

/** The batched path of `moveBodyRange`: the same writes as `moveBodyEach`, body by body. */
function moveBodyBatches(ents: ArrayLike<number>, start: number, end: number, world: CollisionWorld, c: MoveStores, b: MoveBatch): void {
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
  for (let at = start; at < end; at += b.capacity) {
    const n = Math.min(b.capacity, end - at);
    // Gather.
    for (let i = 0; i < n; i++) {
      const e = ents[at + i]!;
      b.x[i] = px[e]!;
      b.y[i] = py[e]!;
      b.z[i] = pz[e]!;
      b.dx[i] = vx[e]!;
      b.dy[i] = vy[e]!;
      b.dz[i] = vz[e]!;
      b.radius[i] = radius[e]!;
      b.height[i] = height[e]!;
      b.step[i] = step[e]!;
    }
    world.moveMany!(b, n);
    // Write back, as moveBodyEach does.
    for (let i = 0; i < n; i++) {
      const e = ents[at + i]!;
      const x = b.x[i]!;
      const y = b.y[i]!;
      const z = b.z[i]!;
      if (Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) {
        px[e] = x;
        py[e] = y;
        pz[e] = z;
      }
      grounded[e] = b.grounded[i]!;
      const hit = b.hitWall[i]!;
      hitWall[e] = hit;
      if (hit) {
        contact[e] = b.wall[i]!;
        blocked[e] = (blocked[e]! + 1) >>> 0;
      }
    }
  }
}

/** The one-at-a-time path of `moveBodyRange` (and the reference of the batched one). */
export function moveBodyEach(ents: ArrayLike<number>, start: number, end: number, world: CollisionWorld, c: MoveStores, s: MoveScratch): void {
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
  for (let i = start; i < end; i++) {
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
 * The movement system's per-body work as a range kernel: reads Position, Velocity, BodySize and Motion, writes
 * Position and Motion of the body moved; each thread moves its range through its own copy of the world.
 */
export const movementKernel: RangeKernel = {
  name: 'retrosim:movement',
  reads: [Position, Velocity, BodySize, Motion],
  writes: [Position, Motion],
  ownEntityOnly: true,
  create(world, stores) {
    const c: MoveStores = {
      Position: stores.store(Position),
      Velocity: stores.store(Velocity),
      BodySize: stores.store(BodySize),
      Motion: stores.store(Motion),
    };
    const scratch = newMoveScratch();
    return (ids, start, end) => moveBodyRange(ids, start, end, world, c, scratch);
  },
};

/**
 * The movement system (priority 50): moves every body by its velocity through `world.move` and records what it
 * touched in Motion. The moves run as `movementKernel`, over ranges on the simulation's threads when it has them
 * (staged there, so gravity, movement and ground contact go out as one dispatch).
 */
export const movementSystem: SystemDef = {
  name: 'movement',
  priority: 50,
  create(host: SystemHost) {
    const ecs = host.ecs;
    const c = ecs.components;
    const q = ecs.defineQuery('movement', [c.Position, c.Velocity, c.BodySize, c.Motion]);
    const parallel = host.parallel ?? localParallelHost(host.world, c);
    const runner = parallel.runner(movementKernel);
    // On several threads the moves are staged, with gravity before and ground contact after: one dispatch.
    const staged = parallel.threads > 1 && runner.stage !== undefined;
    return {
      run() {
        const ents = ecs.entities(q);
        if (staged) runner.stage!(ents, ents.length, q.key);
        else runner.run(ents, ents.length);
      },
      stages: staged,
    };
  },
};
