/**
 * The controller: what drives bodies beyond the raw input and the wander stream.
 *
 * - Each player jumps on a fresh press of the Jump button while standing (input.ts already turns and walks it).
 * - Each agent gets a behaviour the first frame it is seen, drawn from the "behaviour" seedrandom stream in
 *   ascending entity id: wander (the wander system's heading, untouched), patrol (walk a fixed heading and
 *   turn back when blocked or after a leg of PATROL_LEG_FRAMES), or chase (while it sees its Sight target,
 *   walk straight at it; otherwise wander). Sight comes from the line-of-sight system of earlier frames.
 *
 * Runs after wander (48) and before gravity (49, created after it), so it overrides the wander velocity of
 * patrolling and chasing agents. Its per-agent state (behaviour, patrol heading, leg timer) lives in the
 * `ControllerState` task-state store, so that the steps can run as a range kernel on the simulation's threads;
 * it is hashed, saved and restored with the task. Directions use the integer angle table and det-math (no Math
 * trig or sqrt).
 */
import { cosAngle, sinAngle, wrapAngle } from '../ecs/angle.js';
import { ANGLE_UNITS_PER_TURN } from '../ecs/components.js';
import type { FrameContext, TaskBody } from '../ecs/scheduler.js';
import { detAtan2, detSqrt } from '../numeric/det-math.js';
import { fallSpeeds, jumpSpeedOf } from './gravity.js';
import type { SystemDef, SystemHost } from './system.js';
import { Buttons } from './input.js';
import { horizontalAxes } from './movement.js';
import { AscendingIds } from './ascending-ids.js';
import { Saved } from '../binary/saved-value.js';
import { Agent, ControllerState, Heading, Motion, Position, Sight, Velocity } from '../ecs/components.js';
import type { CollisionWorld } from '../worlds/world.js';
import { kernelStores, localParallelHost, type KernelStores, type RangeKernel } from './range-kernel.js';

/** The stream behaviours are drawn from. */
export const BEHAVIOUR_STREAM = 'behaviour';

/** An agent's behaviour, as the controller keeps it: not yet drawn, wander, patrol or chase. */
export const Behaviour = { Unassigned: 0, Wander: 1, Patrol: 2, Chase: 3 } as const;

/** Chance weights of wander, patrol, chase (out of their sum): half wander, a quarter each of the others. */
export const BEHAVIOUR_WEIGHTS = [2, 1, 1] as const;

/** A patrol leg lasts this many frames before the agent turns back (4 s at 60 frames per second). */
export const PATROL_LEG_FRAMES = 240;

const TWO_PI = 6.283185307179586;

/** The integer angle (1/65536 turn) of a direction across the ground, by det-math's atan2. */
export function angleOf(d0: number, d1: number): number {
  return wrapAngle(Math.round((detAtan2(d1, d0) * ANGLE_UNITS_PER_TURN) / TWO_PI));
}

/** The arrays an agent's controller step reads and writes, on whichever thread runs it. */
interface StepArrays {
  patrolAngle: Int32Array;
  legTimer: Int32Array;
  speed: Float64Array;
  hitWall: Uint8Array;
  heading: Int32Array;
  target: Int32Array;
  visible: Uint8Array;
  pos: readonly [Float64Array, Float64Array, Float64Array];
  vel: readonly [Float64Array, Float64Array, Float64Array];
  /** Whether an entity is alive with a Position (a chase's target must be). */
  hasPosition: (e: number) => boolean;
}

/** An agent's controller step for its behaviour: patrol and chase (a wanderer keeps the wander velocity). */
interface Steps {
  /** Walks the agent's patrol leg, turning back when blocked or after PATROL_LEG_FRAMES. */
  patrol(e: number): void;
  /** Walks at the agent's Sight target while it sees it (stands when caught up). */
  chase(e: number): void;
}

/**
 * The controller's per-agent steps. Each reads only the agent's own state and its target's position, so agents
 * may be stepped in any order, on any thread.
 */
function controllerSteps(world: CollisionWorld, a: StepArrays): Steps {
  const [h0, h1] = horizontalAxes(world);
  const { patrolAngle, legTimer, speed: speeds, hitWall, heading, target, visible, pos, vel, hasPosition } = a;
  const p0 = pos[h0];
  const p1 = pos[h1];
  const v0 = vel[h0];
  const v1 = vel[h1];
  const integer = world.integer;
  const setVelocity = (e: number, d0: number, d1: number): void => {
    if (integer) {
      d0 = Math.round(d0);
      d1 = Math.round(d1);
    }
    v0[e] = d0 + 0;
    v1[e] = d1 + 0;
  };
  return {
    patrol(e) {
      const speed = speeds[e]!;
      legTimer[e] = legTimer[e]! - 1;
      if (legTimer[e]! <= 0 || hitWall[e] === 1) {
        patrolAngle[e] = wrapAngle(patrolAngle[e]! + ANGLE_UNITS_PER_TURN / 2);
        legTimer[e] = PATROL_LEG_FRAMES;
      }
      const ang = patrolAngle[e]!;
      heading[e] = ang;
      setVelocity(e, speed * cosAngle(ang), speed * sinAngle(ang));
    },
    chase(e) {
      const t = target[e]!;
      if (visible[e] === 1 && t !== 0 && hasPosition(t)) {
        const speed = speeds[e]!;
        const d0 = p0[t]! - p0[e]!;
        const d1 = p1[t]! - p1[e]!;
        const len = detSqrt(d0 * d0 + d1 * d1);
        if (len > speed) {
          heading[e] = angleOf(d0, d1);
          setVelocity(e, (d0 / len) * speed, (d1 / len) * speed);
        } else setVelocity(e, 0, 0); // caught up: stand
      }
    },
  };
}

/** The step's arrays out of a kernel's stores. */
function stepArrays(stores: KernelStores): StepArrays {
  const st = stores.store(ControllerState);
  const p = stores.store(Position);
  const v = stores.store(Velocity);
  const sight = stores.store(Sight);
  return {
    patrolAngle: st.patrolAngle,
    legTimer: st.legTimer,
    speed: stores.store(Agent).speed,
    hitWall: stores.store(Motion).hitWall,
    heading: stores.store(Heading).angle,
    target: sight.target,
    visible: sight.visible,
    pos: [p.x, p.y, p.z],
    vel: [v.x, v.y, v.z],
    hasPosition: (e) => stores.has(e, Position),
  };
}

/**
 * The controller's per-agent part as a range kernel: steps every agent whose behaviour is drawn and marks
 * those not drawn yet, for the system to draw in ascending id from the shared stream and then step.
 */
export const controllerKernel: RangeKernel = {
  name: 'retrosim:controller',
  reads: [Agent, Motion, Sight, Position],
  writes: [Heading, Velocity, ControllerState],
  create(world, stores) {
    const behaviour = stores.store(ControllerState).behaviour;
    const { patrol, chase } = controllerSteps(world, stepArrays(stores));
    return (ids, start, end, marks) => {
      let k = 0;
      for (let i = start; i < end; i++) {
        const e = ids[i]!;
        const b = behaviour[e];
        if (b === Behaviour.Patrol) patrol(e);
        else if (b === Behaviour.Chase) chase(e);
        else if (b === Behaviour.Unassigned) marks[start + k++] = e;
      }
      return k;
    };
  },
};

/**
 * The controller system (priority 49): the player jumps on a fresh Jump press while standing; each agent gets a
 * behaviour the first frame it is seen (from the "behaviour" stream: half wander, a quarter patrol, a quarter
 * chase its Sight target while it sees it), which overrides the wander velocity of patrolling and chasing agents.
 * The agents' steps run as `controllerKernel` (over ranges on the simulation's threads when it has them); the
 * draws for agents it marks run here, in ascending id, so the stream's order does not depend on the threads.
 */
export const controllerSystem: SystemDef = {
  name: 'controller',
  priority: 49,
  create(host: SystemHost): TaskBody {
    const ecs = host.ecs;
    const world = host.world;
    const c = ecs.components;
    const { Controller: buttonsOf, Motion: motion, Agent: agent, Heading: heading, Position: position, Velocity: velocity } = c;
    const agents = ecs.defineQuery('controller', [agent, heading, velocity, position]);
    const fall = fallSpeeds(ecs);
    const jump = jumpSpeedOf(world);
    const state = ecs.store(ControllerState);
    const { behaviour, patrolAngle, legTimer } = state;
    const ascending = new AscendingIds();
    const hashBuf = new Float64Array(3 * ecs.capacity);
    const weightSum = BEHAVIOUR_WEIGHTS[0] + BEHAVIOUR_WEIGHTS[1] + BEHAVIOUR_WEIGHTS[2];
    const runner = (host.parallel ?? localParallelHost(world, c)).runner(controllerKernel);
    const steps = controllerSteps(world, stepArrays(kernelStores(controllerKernel, c.capacity, c.byName, c.membership)));

    return {
      run(ctx: FrameContext) {
        // Each player (player 0 first): jump on a fresh press while standing.
        const players = host.players;
        for (let k = 0, n = players ? players.length : 1; k < n; k++) {
          const p = k === 0 ? host.player : players![k]!;
          if (ecs.has(p, buttonsOf) && ecs.has(p, motion)) {
            const b = buttonsOf.buttons[p]!;
            if (b & Buttons.Jump && !(buttonsOf.previous[p]! & Buttons.Jump) && motion.grounded[p] === 1) fall[p] = -jump;
          }
        }
        // Agents, ascending id: the kernel steps those with a behaviour and marks the others, whose draws from
        // the shared stream follow here in ascending id (the order is part of the result).
        const ids = ascending.of(ecs.entities(agents), ecs.structureId);
        const marked = runner.run(ids, ids.length);
        for (let i = 0; i < marked.length; i++) {
          const e = marked[i]!;
          const r = ctx.rng.streams.get(BEHAVIOUR_STREAM).int(weightSum);
          behaviour[e] = r < BEHAVIOUR_WEIGHTS[0] ? Behaviour.Wander : r < BEHAVIOUR_WEIGHTS[0] + BEHAVIOUR_WEIGHTS[1] ? Behaviour.Patrol : Behaviour.Chase;
          patrolAngle[e] = heading.angle[e]!;
          legTimer[e] = PATROL_LEG_FRAMES;
          if (behaviour[e] === Behaviour.Patrol) steps.patrol(e);
          else if (behaviour[e] === Behaviour.Chase) steps.chase(e);
        }
      },
      hashState() {
        const m = ecs.maxId + 1;
        for (let e = 0; e < m; e++) {
          hashBuf[3 * e] = behaviour[e]!;
          hashBuf[3 * e + 1] = patrolAngle[e]!;
          hashBuf[3 * e + 2] = legTimer[e]!;
        }
        return hashBuf.subarray(0, 3 * m);
      },
      // Ids past maxId stay 0 (nothing writes them), so the whole arrays are the state.
      stateArrays: [behaviour, patrolAngle, legTimer],
      save() {
        const m = ecs.maxId + 1;
        return { behaviour: behaviour.slice(0, m), patrolAngle: patrolAngle.slice(0, m), legTimer: legTimer.slice(0, m) };
      },
      /** One entry per id 0..maxId (the entities are restored first), behaviours 0..3. */
      restore(s: unknown) {
        const m = ecs.maxId + 1;
        const v = new Saved(s, 'state').object(['behaviour', 'patrolAngle', 'legTimer']);
        const b = v.get('behaviour').typed(Uint8Array, m);
        v.get('behaviour').elementsIn(b, Behaviour.Unassigned, Behaviour.Chase);
        const a = v.get('patrolAngle').typed(Int32Array, m);
        const t = v.get('legTimer').typed(Int32Array, m);
        behaviour.fill(0).set(b);
        patrolAngle.fill(0).set(a);
        legTimer.fill(0).set(t);
      },
    };
  },
};
