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
 * patrolling and chasing agents. Its per-agent state (behaviour, patrol heading, leg timer) is hashed, saved
 * and restored with the task. Directions use the integer angle table and det-math (no Math trig or sqrt).
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

/**
 * The controller system (priority 49): the player jumps on a fresh Jump press while standing; each agent gets a
 * behaviour the first frame it is seen (from the "behaviour" stream: half wander, a quarter patrol, a quarter
 * chase its Sight target while it sees it), which overrides the wander velocity of patrolling and chasing agents.
 */
export const controllerSystem: SystemDef = {
  name: 'controller',
  priority: 49,
  create(host: SystemHost): TaskBody {
    const ecs = host.ecs;
    const world = host.world;
    const c = ecs.components;
    const { Controller, Motion, Agent, Heading, Sight, Position, Velocity } = c;
    const agents = ecs.defineQuery('controller', [Agent, Heading, Velocity, Position]);
    const fall = fallSpeeds(ecs);
    const jump = jumpSpeedOf(world);
    const [h0, h1] = horizontalAxes(world);
    const pos = [Position.x, Position.y, Position.z] as const;
    const vel = [Velocity.x, Velocity.y, Velocity.z] as const;
    const integer = world.integer;
    const behaviour = new Uint8Array(ecs.capacity);
    const patrolAngle = new Int32Array(ecs.capacity);
    const legTimer = new Int32Array(ecs.capacity);
    const ascending = new AscendingIds();
    const hashBuf = new Float64Array(3 * ecs.capacity);
    const weightSum = BEHAVIOUR_WEIGHTS[0] + BEHAVIOUR_WEIGHTS[1] + BEHAVIOUR_WEIGHTS[2];

    const setVelocity = (e: number, d0: number, d1: number): void => {
      if (integer) {
        d0 = Math.round(d0);
        d1 = Math.round(d1);
      }
      vel[h0][e] = d0 + 0;
      vel[h1][e] = d1 + 0;
    };

    return {
      run(ctx: FrameContext) {
        // Each player (player 0 first): jump on a fresh press while standing.
        const players = host.players;
        for (let k = 0, n = players ? players.length : 1; k < n; k++) {
          const p = k === 0 ? host.player : players![k]!;
          if (ecs.has(p, Controller) && ecs.has(p, Motion)) {
            const b = Controller.buttons[p]!;
            if (b & Buttons.Jump && !(Controller.previous[p]! & Buttons.Jump) && Motion.grounded[p] === 1) fall[p] = -jump;
          }
        }
        // Agents, ascending id (draws from a shared stream make the order part of the result).
        const ids = ascending.of(ecs.entities(agents));
        const n = ids.length;
        for (let i = 0; i < n; i++) {
          const e = ids[i]!;
          if (behaviour[e] === Behaviour.Unassigned) {
            const r = ctx.rng.streams.get(BEHAVIOUR_STREAM).int(weightSum);
            behaviour[e] = r < BEHAVIOUR_WEIGHTS[0] ? Behaviour.Wander : r < BEHAVIOUR_WEIGHTS[0] + BEHAVIOUR_WEIGHTS[1] ? Behaviour.Patrol : Behaviour.Chase;
            patrolAngle[e] = Heading.angle[e]!;
            legTimer[e] = PATROL_LEG_FRAMES;
          }
          const speed = Agent.speed[e]!;
          if (behaviour[e] === Behaviour.Patrol) {
            legTimer[e] = legTimer[e]! - 1;
            if (legTimer[e]! <= 0 || Motion.hitWall[e] === 1) {
              patrolAngle[e] = wrapAngle(patrolAngle[e]! + ANGLE_UNITS_PER_TURN / 2);
              legTimer[e] = PATROL_LEG_FRAMES;
            }
            const a = patrolAngle[e]!;
            Heading.angle[e] = a;
            setVelocity(e, speed * cosAngle(a), speed * sinAngle(a));
          } else if (behaviour[e] === Behaviour.Chase) {
            const t = Sight.target[e]!;
            if (Sight.visible[e] === 1 && t !== 0 && ecs.has(t, Position)) {
              const d0 = pos[h0][t]! - pos[h0][e]!;
              const d1 = pos[h1][t]! - pos[h1][e]!;
              const len = detSqrt(d0 * d0 + d1 * d1);
              if (len > speed) {
                Heading.angle[e] = angleOf(d0, d1);
                setVelocity(e, (d0 / len) * speed, (d1 / len) * speed);
              } else setVelocity(e, 0, 0); // caught up: stand
            }
          }
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
