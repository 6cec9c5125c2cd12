/**
 * The recording system, last in the frame: a log of what the frame did, for tools (the CLI, the sandbox, tests)
 * — the buttons, the player's position and footing, and the exit and death events raised. It is OUTPUT: it
 * reads the state and never changes it, draws nothing, and is not part of the state hash (so a simulation
 * with or without a reader of the log runs the same). Replays themselves (inputs, per-frame hashes,
 * keyframes) are recorded by `ReplayRecorder` in src/replay/replay.ts around `Simulation.step`.
 *
 * On a restore (a replay seek, a synctest rollback) the log is cut back to the restored frame, so it always
 * describes the frames that led to the current state.
 */
import type { EcsWorld } from '../ecs/ecs-world.js';
import type { SimEvents } from '../ecs/events.js';
import type { FrameContext, TaskBody } from '../ecs/scheduler.js';
import type { SystemDef, SystemHost } from './system.js';
import { Saved } from '../binary/saved-value.js';

/** Numbers per frame in the log: frame, buttons, player x, y, z, grounded, exits, deaths. */
export const RECORD_STRIDE = 8;

/**
 * Most frames (and, separately, events) the log holds: when full it forgets the older half, so a run of
 * millions of frames keeps a bounded log of at least the last LOG_WINDOW / 2.
 */
export const LOG_WINDOW = 1 << 14;

/**
 * A log of what each frame did, for tools: the buttons, the player's position and footing, the exit and death
 * events. Output only: it is not part of the state hash. Read it with `frameLog(sim.ecs)`.
 */
export class FrameLog {
  /** RECORD_STRIDE numbers per frame, oldest first. */
  data = new Float64Array(1024 * RECORD_STRIDE);
  /** Frames held in `data`. */
  frames = 0;
  /** Frames forgotten from the front of `data` (the log holds frames dropped + 1 ..). */
  dropped = 0;
  /** Exit and death events, in the order raised. */
  readonly events: ({ type: 'exit'; frame: number; entity: number; id: number } | { type: 'death'; frame: number; entity: number })[] = [];

  /** Appends a frame's record (the recording system calls it); when full, the older half is forgotten. */
  push(frame: number, buttons: number, x: number, y: number, z: number, grounded: number, exits: number, deaths: number): void {
    if ((this.frames + 1) * RECORD_STRIDE > this.data.length) {
      if (this.frames >= LOG_WINDOW) {
        const drop = this.frames >> 1;
        this.data.copyWithin(0, drop * RECORD_STRIDE, this.frames * RECORD_STRIDE);
        this.frames -= drop;
        this.dropped += drop;
      } else {
        const next = new Float64Array(this.data.length * 2);
        next.set(this.data);
        this.data = next;
      }
    }
    const k = this.frames * RECORD_STRIDE;
    const d = this.data;
    d[k] = frame; d[k + 1] = buttons; d[k + 2] = x; d[k + 3] = y; d[k + 4] = z; d[k + 5] = grounded; d[k + 6] = exits; d[k + 7] = deaths;
    this.frames++;
  }

  /** Drops everything logged after `frame`. */
  truncate(frame: number): void {
    let n = this.frames;
    while (n > 0 && this.data[(n - 1) * RECORD_STRIDE]! > frame) n--;
    this.frames = n;
    let e = this.events.length;
    while (e > 0 && this.events[e - 1]!.frame > frame) e--;
    this.events.length = e;
  }

  /** One logged frame as an object (for JSON output). */
  frame(i: number): { frame: number; buttons: number; player: [number, number, number]; grounded: boolean; exits: number; deaths: number } {
    const d = this.data;
    const k = i * RECORD_STRIDE;
    return { frame: d[k]!, buttons: d[k + 1]!, player: [d[k + 2]!, d[k + 3]!, d[k + 4]!], grounded: d[k + 5] === 1, exits: d[k + 6]!, deaths: d[k + 7]! };
  }
}

const LOGS = new WeakMap<EcsWorld, FrameLog>();

/** The frame log of a simulation (by its entity world), created on first use. */
export function frameLog(ecs: EcsWorld): FrameLog {
  let l = LOGS.get(ecs);
  if (!l) {
    l = new FrameLog();
    LOGS.set(ecs, l);
  }
  return l;
}

/** The recording system (last in every frame): fills the simulation's FrameLog; reads the state, never changes it. */
export const recordingSystem: SystemDef = {
  name: 'recording',
  // The last of the frame: after every system and game task.
  priority: 1 << 20,
  create(host: SystemHost): TaskBody {
    const ecs = host.ecs;
    const log = frameLog(ecs);
    const { Position, Motion } = ecs.components;
    let exits = 0;
    let deaths = 0;
    let lastFrame = 0;
    let subscribed: FrameContext['events'] | null = null;
    const keepEventsBounded = () => {
      if (log.events.length >= LOG_WINDOW) log.events.splice(0, LOG_WINDOW >> 1);
    };
    const onExit = (e: SimEvents['exit']) => {
      exits++;
      keepEventsBounded();
      log.events.push({ type: 'exit', frame: e.frame, entity: e.entity, id: e.id });
    };
    const onDeath = (e: SimEvents['death']) => {
      deaths++;
      keepEventsBounded();
      log.events.push({ type: 'death', frame: e.frame, entity: e.entity });
    };
    const subscribe = (bus: FrameContext['events']) => {
      if (subscribed === bus) return;
      subscribed?.off('exit', onExit);
      subscribed?.off('death', onDeath);
      subscribed = bus;
      bus.on('exit', onExit);
      bus.on('death', onDeath);
    };
    // The simulation's bus, when the host has one, from the start (so frame 1's events are heard too).
    const bus = (host as SystemHost & { events?: FrameContext['events'] }).events;
    if (bus) subscribe(bus);
    return {
      run(ctx: FrameContext) {
        subscribe(ctx.events);
        lastFrame = ctx.frame;
        const p = host.player;
        const has = ecs.has(p, Position);
        log.push(ctx.frame, host.input, has ? Position.x[p]! : 0, has ? Position.y[p]! : 0, has ? Position.z[p]! : 0, has && ecs.has(p, Motion) ? Motion.grounded[p]! : 0, exits, deaths);
        exits = 0;
        deaths = 0;
      },
      save: () => lastFrame,
      /** The last frame it ran (output only: the log is cut back to it). */
      restore(s: unknown) {
        const f = new Saved(s, 'state').count();
        exits = 0;
        deaths = 0;
        lastFrame = f;
        log.truncate(f);
      },
    };
  },
};
