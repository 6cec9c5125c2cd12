/**
 * Gravity and ground contact, two tasks around the movement system:
 *
 * - `gravity` (before movement): every body's fall speed grows by the world's gravity (up to a terminal
 *   speed) and becomes its velocity along the world's up axis, pointing down (`-up.sign`). Horizontal
 *   velocity is left to input, wander and the controller.
 * - `ground-contact` (after movement): a body the move left standing on a floor (`Motion.grounded`) stops
 *   falling. A standing body still gets one frame of gravity as its downward delta, which is what keeps it
 *   on a floor that slopes away under it in worlds whose move only lands bodies that move down onto a floor.
 *
 * The fall speed is per-entity state (not in Velocity, which the input system rewrites every frame), kept in
 * the `FallState` task-state store beside the components; it is hashed, saved and restored with the gravity
 * task. The controller sets it negative to jump,
 * and triggers zero it on a respawn, through `fallSpeeds`.
 *
 * All arithmetic is + − × on doubles; integer worlds use whole units (gravity and speeds rounded once, at set-up).
 */
import type { EcsWorld } from '../ecs/ecs-world.js';
import type { FrameContext, TaskBody } from '../ecs/scheduler.js';
import type { CollisionWorld } from '../worlds/world.js';
import type { SystemDef, SystemHost } from './system.js';
import type { KernelRunner, RangeKernel } from './range-kernel.js';
import { Saved } from '../binary/saved-value.js';
import { FallState, Motion, Velocity, type ComponentOf } from '../ecs/components.js';

/** 9.8 m/s² at 60 frames per second, in metres per frame per frame. */
export const GRAVITY_METRES_PER_FRAME2 = 9.8 / 3600;
/** Terminal fall speed: 50 m/s, in metres per frame. */
export const TERMINAL_METRES_PER_FRAME = 50 / 60;
/** A jump's upward speed: 5 m/s, in metres per frame (about 1.3 m high). */
export const JUMP_METRES_PER_FRAME = 5 / 60;

/** A per-world rate in native units: whole units (at least 1) in integer worlds. */
export function nativeRate(world: CollisionWorld, metres: number): number {
  const s = world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1;
  const v = metres * s;
  return world.integer ? Math.max(1, Math.round(v)) : v;
}

export function gravityOf(world: CollisionWorld): number {
  return nativeRate(world, GRAVITY_METRES_PER_FRAME2);
}
export function terminalSpeedOf(world: CollisionWorld): number {
  return nativeRate(world, TERMINAL_METRES_PER_FRAME);
}
export function jumpSpeedOf(world: CollisionWorld): number {
  return nativeRate(world, JUMP_METRES_PER_FRAME);
}

/**
 * Fall speed per entity (native units per frame, positive = down; negative while rising from a jump): the
 * simulation's `FallState` task-state store, which the gravity kernels on other threads share.
 */
export function fallSpeeds(ecs: EcsWorld): Float64Array {
  return (ecs.components.byName.get(FallState.name) as ComponentOf<typeof FallState.schema>).speed;
}

/** Bodies: what the movement system moves. */
function bodyTerms(ecs: EcsWorld) {
  const c = ecs.components;
  return [c.Position, c.Velocity, c.BodySize, c.Motion];
}

/**
 * One frame of gravity for the bodies `ids[start..end)`: the fall speed grows by `g` up to `terminal` and
 * becomes the velocity along the up axis (`up`), pointing `down`. The gravity system's rule (on the main thread
 * or in `gravityKernel`).
 */
export function fallRange(ids: ArrayLike<number>, start: number, end: number, fall: Float64Array, up: Float64Array, g: number, terminal: number, down: number): void {
  for (let i = start; i < end; i++) {
    const e = ids[i]!;
    // Math.min, not `if (s > terminal) s = terminal`: the compiled loop would box s (an allocation per
    // body) to merge it with the captured constant. The same value for any s, NaN included.
    const s = Math.min(fall[e]! + g, terminal);
    fall[e] = s;
    up[e] = down * s + 0;
  }
}

/** Standing stops a fall for the bodies `ids[start..end)`; a body rising from a jump keeps rising until gravity turns it. */
export function landRange(ids: ArrayLike<number>, start: number, end: number, fall: Float64Array, grounded: Uint8Array): void {
  for (let i = start; i < end; i++) {
    const e = ids[i]!;
    if (grounded[e] === 1 && fall[e]! > 0) fall[e] = 0;
  }
}

/** The up axis's velocity array of a Velocity store. */
function upVelocity(world: CollisionWorld, v: { x: Float64Array; y: Float64Array; z: Float64Array }): Float64Array {
  return world.up.axis === 0 ? v.x : world.up.axis === 1 ? v.y : v.z;
}

/**
 * The gravity system's work as a range kernel, for simulations on several threads: reads and writes the body's
 * own fall speed and velocity only, so it joins movement's stage (one dispatch for gravity, movement and
 * ground contact).
 */
export const gravityKernel: RangeKernel = {
  name: 'retrosim:gravity',
  reads: [Velocity, FallState],
  writes: [Velocity, FallState],
  ownEntityOnly: true,
  create(world, stores) {
    const fall = stores.store(FallState).speed;
    const up = upVelocity(world, stores.store(Velocity));
    const g = gravityOf(world);
    const terminal = terminalSpeedOf(world);
    const down = -world.up.sign;
    return (ids, start, end) => fallRange(ids, start, end, fall, up, g, terminal, down);
  },
};

/** The ground-contact system's work as a range kernel (see `gravityKernel`): reads Motion, writes the fall speed. */
export const groundContactKernel: RangeKernel = {
  name: 'retrosim:ground-contact',
  reads: [Motion, FallState],
  writes: [FallState],
  ownEntityOnly: true,
  create(_world, stores) {
    const fall = stores.store(FallState).speed;
    const grounded = stores.store(Motion).grounded;
    return (ids, start, end) => landRange(ids, start, end, fall, grounded);
  },
};

/** A kernel's runner when the simulation has threads (the work is then staged with movement), else null. */
function threadedRunner(host: SystemHost, kernel: RangeKernel): KernelRunner | null {
  const p = host.parallel;
  return p !== undefined && p.threads > 1 ? p.runner(kernel) : null;
}

/**
 * The gravity system (priority 49, before movement): every body's fall speed grows by the world's gravity (9.8 m/s²,
 * up to 50 m/s) and becomes its velocity along the world's up axis, downward.
 */
export const gravitySystem: SystemDef = {
  name: 'gravity',
  // After the controller (49, created before it), before movement (50).
  priority: 49,
  create(host: SystemHost): TaskBody {
    const ecs = host.ecs;
    const q = ecs.defineQuery('gravity', bodyTerms(ecs));
    const fall = fallSpeeds(ecs);
    const g = gravityOf(host.world);
    const terminal = terminalSpeedOf(host.world);
    const up = upVelocity(host.world, ecs.components.Velocity);
    const down = -host.world.up.sign;
    // On one thread, a plain loop here. On several, staged with movement and ground contact: alone, at 1 to 3 ns
    // a body, a dispatch of its own (the id copy, the hand-off, the join) cost more than it saved (docs/threads.md).
    const runner = threadedRunner(host, gravityKernel);
    return {
      run(_ctx: FrameContext) {
        const ents = ecs.entities(q);
        if (runner === null) fallRange(ents, 0, ents.length, fall, up, g, terminal, down);
        else if (runner.stage) runner.stage(ents, ents.length, q.key);
        else runner.run(ents, ents.length);
      },
      stages: runner !== null,
      hashState: () => fall.subarray(0, ecs.maxId + 1),
      save: () => fall.slice(0, ecs.maxId + 1),
      // Ids past maxId stay 0 (nothing writes them), so the whole array is the state.
      stateArrays: [fall],
      /** A finite fall speed per id 0..maxId (the entities are restored first). */
      restore(s: unknown) {
        const v = new Saved(s, 'state');
        const f = v.typed(Float64Array, ecs.maxId + 1);
        v.elementsFinite(f);
        fall.fill(0);
        fall.set(f);
      },
    };
  },
};

/** The ground-contact system (priority 51, after movement): a body the move left standing on a floor stops falling. */
export const groundContactSystem: SystemDef = {
  name: 'ground-contact',
  // Right after movement (50).
  priority: 51,
  create(host: SystemHost) {
    const ecs = host.ecs;
    const q = ecs.defineQuery('ground-contact', bodyTerms(ecs));
    const fall = fallSpeeds(ecs);
    const grounded = ecs.components.Motion.grounded;
    // As gravity (above): a plain loop on one thread, staged after movement on several.
    const runner = threadedRunner(host, groundContactKernel);
    return {
      run() {
        const ents = ecs.entities(q);
        if (runner === null) landRange(ents, 0, ents.length, fall, grounded);
        else if (runner.stage) runner.stage(ents, ents.length, q.key);
        else runner.run(ents, ents.length);
      },
      stages: runner !== null,
    };
  },
};
