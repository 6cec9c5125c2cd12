/**
 * One body walking, frame by frame, exactly as the simulation moves it: the navigation system sets the
 * horizontal velocity (`steer`: toward a target, each axis clamped to the body's speed), the gravity system
 * makes the fall speed grow and become the velocity along up, the movement system asks `world.move`, and the
 * ground-contact system stops the fall of a body the move left standing. The navigation graph, its paths and
 * its smoothing are all checked by this walk, so what they promise is what the movement system does.
 *
 * Only comparisons, `+`, `-` and `*` on doubles (no roots, no angles): the same bits on every engine.
 */
import type { Body, CollisionWorld, MoveResult, Vec3 } from '../worlds/world.js';
import { newMoveResult } from '../worlds/world.js';
import { gravityOf, nativeRate, terminalSpeedOf } from '../systems/gravity.js';
import { horizontalAxes, walkSpeed } from '../systems/movement.js';
import { belowKillPlane, defaultKillPlane } from '../systems/triggers.js';

/**
 * A body that navigates: its size, as the `BodySize` component holds it (radius, height, step height, native
 * units), and its walking speed (native units per frame, each horizontal axis).
 */
export interface NavBody {
  /** The body's radius (native units). */
  readonly radius: number;
  /** The body's height (native units). */
  readonly height: number;
  /** The highest step it climbs without a wall (native units). */
  readonly step: number;
  /** Its speed along each horizontal axis, native units per frame (a whole number in integer worlds). */
  readonly speed: number;
}

/**
 * The body a simulation gives its agents (a person: radius 0.3 m, height 1 m, step 0.3 m, whole units in
 * integer worlds, as `Simulation.setBody`), walking at `walkSpeed` (1.5 m/s).
 */
export function defaultNavBody(world: CollisionWorld): NavBody {
  return { radius: nativeRate(world, 0.3), height: nativeRate(world, 1.0), step: nativeRate(world, 0.3), speed: walkSpeed(world) };
}

/**
 * Throws a RangeError naming the field when a body is not usable: sizes finite and ≥ 0, speed finite and > 0,
 * whole numbers in an integer world.
 */
export function checkNavBody(world: CollisionWorld, body: NavBody): void {
  for (const k of ['radius', 'height', 'step', 'speed'] as const) {
    const v = body[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (k === 'speed' && v === 0)) {
      throw new RangeError(`nav body ${k} ${String(v)} must be a finite number ${k === 'speed' ? '> 0' : '≥ 0'}`);
    }
    if (world.integer && !Number.isInteger(v)) throw new RangeError(`nav body ${k} ${v} must be a whole number in the integer world ${world.name}`);
  }
}

/** The horizontal velocity along one axis toward a target `d` away: `d` clamped to ±speed. */
export function steer(d: number, speed: number): number {
  return d > speed ? speed : d < -speed ? -speed : d;
}

/**
 * A walker: the state the simulation keeps for one body (feet position, fall speed) and the scratch a walk
 * reuses. `fall` is 0 when the body's last move left it standing (or before its first move).
 */
export interface Walker {
  readonly world: CollisionWorld;
  readonly body: NavBody;
  /** Feet position, native units. */
  readonly pos: Vec3;
  /** Fall speed (native units per frame, positive = down), as the gravity system keeps it. */
  fall: number;
  /** Frames walked so far. */
  frames: number;
  /**
   * Whether a frame of the walk touched a death floor or took the feet below the kill plane (the triggers
   * system would respawn the body there): such a walk is not one a path may take.
   */
  hazard: boolean;
  /** The kill plane's height along up (the triggers system's default). */
  readonly kill: number;
  /** The first horizontal axis (the lower index of the two that are not up). */
  readonly a0: 0 | 1 | 2;
  /** The second horizontal axis. */
  readonly a1: 0 | 1 | 2;
  readonly moveBody: Body;
  readonly delta: Vec3;
  readonly out: MoveResult;
  readonly g: number;
  readonly terminal: number;
  readonly down: number;
}

/** A walker standing at `pos` (copied) with no fall speed. */
export function newWalker(world: CollisionWorld, body: NavBody, pos: Readonly<Vec3>): Walker {
  const [a0, a1] = horizontalAxes(world);
  return {
    world,
    body,
    pos: [pos[0], pos[1], pos[2]],
    fall: 0,
    frames: 0,
    hazard: false,
    kill: defaultKillPlane(world),
    a0,
    a1,
    moveBody: { radius: body.radius, height: body.height, stepHeight: body.step },
    delta: [0, 0, 0],
    out: newMoveResult(),
    g: gravityOf(world),
    terminal: terminalSpeedOf(world),
    down: -world.up.sign,
  };
}

/** Puts a walker at `pos` with no fall speed (reusing it for another walk). */
export function resetWalker(w: Walker, pos: Readonly<Vec3>): void {
  w.pos[0] = pos[0];
  w.pos[1] = pos[1];
  w.pos[2] = pos[2];
  w.fall = 0;
  w.frames = 0;
  w.hazard = false;
}

/**
 * One frame of the simulation for the walker, steering toward (t0, t1) on its horizontal axes: the velocity
 * the navigation system sets, gravity, `world.move` as the movement system calls it, ground contact. Returns
 * whether the move left the body standing.
 */
export function walkFrame(w: Walker, t0: number, t1: number): boolean {
  const p = w.pos;
  const d = w.delta;
  d[w.a0] = steer(t0 - p[w.a0], w.body.speed);
  d[w.a1] = steer(t1 - p[w.a1], w.body.speed);
  // The gravity system (fallRange).
  const s = Math.min(w.fall + w.g, w.terminal);
  w.fall = s;
  const up = 3 - w.a0 - w.a1;
  d[up] = w.down * s + 0;
  // The movement system (moveBodyEach).
  const r = w.world.move(w.moveBody, p, d, w.out);
  const q = r.position;
  if (Number.isFinite(q[0]) && Number.isFinite(q[1]) && Number.isFinite(q[2])) {
    p[0] = q[0];
    p[1] = q[1];
    p[2] = q[2];
  }
  // The ground-contact system (landRange).
  if (r.grounded && w.fall > 0) w.fall = 0;
  // What the triggers system would respawn the body for.
  const contacts = r.contacts;
  for (let k = 0; k < contacts.length; k++) if (contacts[k]!.kind === 'death') w.hazard = true;
  if (belowKillPlane(w.world, p, w.kill)) w.hazard = true;
  w.frames++;
  return r.grounded;
}

/** Whether the walker stands at (t0, t1) horizontally, to the bit, with no fall speed: it has arrived. */
export function arrived(w: Walker, t0: number, t1: number): boolean {
  return w.pos[w.a0] === t0 && w.pos[w.a1] === t1 && w.fall === 0;
}

/**
 * Walks toward (t0, t1) until the walker arrives (`arrived`) or `maxFrames` frames pass. Returns whether it
 * arrived without a hazard on the way; the walker's `pos` is where it stands then.
 */
export function walkTo(w: Walker, t0: number, t1: number, maxFrames: number): boolean {
  for (let f = 0; f < maxFrames; f++) {
    if (w.hazard) return false;
    if (arrived(w, t0, t1)) return true;
    walkFrame(w, t0, t1);
  }
  return !w.hazard && arrived(w, t0, t1);
}

/** How many frames a walk of `distance` (along the longer horizontal axis) may take: the frames it needs, twice, plus a second of falling. */
export function walkBudget(distance: number, speed: number): number {
  return 2 * Math.ceil(distance / speed) + 60;
}

/** Whether two positions are the same to the bit (−0 and 0 alike). */
export function samePos(a: Readonly<Vec3>, b: Readonly<Vec3>): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}
