/**
 * The system contract: what a system is (a name, a priority and a factory), what it is given when it is
 * made (the simulation's parts) and on every frame (the frame context), and how it keeps state that
 * replays, snapshots and the state hash see.
 *
 * Built-in systems and a scenario's own are made the same way. A system must be a function of the state and
 * the frame context: random numbers from `ctx.rng`, the world from `ctx.world` (or the host), never
 * `Math.random`, clocks or module-level variables. A step refuses `Math.random`, `Date.now`, `performance.now`,
 * crypto's randomness and timers where they are called (a ScenarioError naming the system); `retrosim run
 * --synctest N` names a system that is not a function of the state in other ways.
 */
import type { EcsWorld } from '../ecs/ecs-world.js';
import type { EventBus } from '../ecs/events.js';
import type { FrameContext, TaskHandle } from '../ecs/scheduler.js';
import type { CollisionWorld } from '../worlds/world.js';
import type { ParallelHost } from './range-kernel.js';
import type { Navigator } from '../nav/navigator.js';

/** A scenario parameter's value. */
export type ParamValue = number | string | boolean;

/** What a system is given when it is created: the simulation's parts, never the outside world. */
export interface SystemHost {
  readonly ecs: EcsWorld;
  readonly world: CollisionWorld;
  /** The player's entity id (0 when the scenario has none). */
  readonly player: number;
  /** The buttons (bitmask, see `Buttons`) given for the frame being run: the only outside data. */
  readonly input: number;
  /**
   * Every player's entity id, by seat (player 0 first, `player`). A hand-made host without it has the one
   * player `player`.
   */
  readonly players?: readonly number[];
  /** Every player's buttons of the frame being run, by seat (`input` is seat 0's); absent: `[input]`. */
  readonly inputs?: ArrayLike<number>;
  /** The scenario's parameters (declared by its `params`, checked, defaults filled). */
  readonly params: Readonly<Record<string, ParamValue>>;
  /** The simulation's event bus (emit from a frame through `ctx.events`). */
  readonly events?: EventBus;
  /**
   * Where the system's range kernels run (src/systems/range-kernel.ts): the simulation's threads, or the main
   * thread alone. A host without it (a hand-made one) runs kernels on the main thread (`localParallelHost`).
   */
  readonly parallel?: ParallelHost;
}

/** What a system's frame function is given every frame. */
export interface SystemContext extends FrameContext {
  readonly world: CollisionWorld;
  readonly ecs: EcsWorld;
  /** The buttons of this frame (player 0's). */
  readonly input: number;
  /** The player's entity id (player 0's; 0 when none). */
  readonly player: number;
  /** Every player's buttons of this frame, by seat (read only). */
  readonly inputs: ArrayLike<number>;
  /** Every player's entity id, by seat (read only). */
  readonly players: readonly number[];
  readonly params: Readonly<Record<string, ParamValue>>;
  /**
   * Navigation on the world's graph (built on first use): paths, and agents with the `Goal` component sent
   * somewhere (`navigationSystem` walks them there).
   */
  readonly nav: Navigator;
}

/** Typed arrays a system may keep as declared state. */
export type StateArray = Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;

/** A system's frame function. */
export type SystemFunction = (ctx: SystemContext, self: TaskHandle) => void;

/**
 * A system's frame function with the state it keeps between frames. State the next frames depend on must be
 * declared, one of two ways:
 * - `state`: named typed arrays of fixed length, which the runtime hashes, saves and restores (a restore
 *   checks each array's type and length, then copies into it, so keep the references);
 * - or `hashState`, `save` and `restore` written by hand, as the built-in tasks do.
 */
export interface SystemBody {
  /** Runs the system's frame. */
  run(ctx: SystemContext, self: TaskHandle): void;
  /** Declared state: named typed arrays of fixed length the runtime hashes, saves and restores. */
  state?: Readonly<Record<string, StateArray>>;
  /** Numbers that describe the state, folded into the state hash: everything a later frame depends on. */
  hashState?(): ArrayLike<number>;
  /** The state as plain data, for snapshots (with `hashState` and `restore`, instead of `state`). */
  save?(): unknown;
  /**
   * Puts back what `save` gave. It may come from a file: check every value before using it and throw a
   * FormatError (a `Saved` helps: `new Saved(saved, 'state').object([...])`) for anything that cannot be
   * used. `frame` is the frame being restored; the entities and RNGs are already restored when it runs.
   */
  restore?(saved: unknown, frame: number): void;
  /**
   * Optional, with `save` and `restore`: the typed arrays that hold the whole state, such that copying their
   * contents back is exactly `restore(save())`. A rollback (`Simulation.saveInto`) then copies them into reused
   * buffers instead of calling `save` every frame. Keep the same array objects for the system's life.
   * (Declared `state` arrays are copied this way already.)
   */
  readonly stateArrays?: readonly StateArray[];
  /**
   * True when `run` only stages range kernels (`KernelRunner.stage`) and reads or writes no component
   * itself: kernels staged by consecutive such systems then run as one stage, on one dispatch (see
   * `TaskBody.stages`).
   */
  readonly stages?: boolean;
}

/** A system: one scheduler task per simulation. */
export interface SystemDef {
  /** Unique in a scenario; names the system in hashes, snapshots and desync reports. */
  readonly name: string;
  /** Scheduler priority (ascending runs first, ties in list order), in the game's scale (see docs/systems.md). */
  readonly priority: number;
  /** Called once per simulation, after the entities are placed. */
  create(host: SystemHost): SystemBody | SystemFunction;
}

const SYSTEM_NAME = /^[a-z][a-z0-9-]{0,63}$/;

/**
 * Declares a system (checks its name and priority; the object itself is the definition).
 *
 * @example
 * const patrol = defineSystem({
 *   name: 'patrol',
 *   priority: 48,
 *   create(host) {
 *     const guard = host.ecs.store(Guard);
 *     return (ctx) => { ... };
 *   },
 * });
 */
export function defineSystem(def: SystemDef): SystemDef {
  if (typeof def !== 'object' || def === null) throw new TypeError('a system is an object { name, priority, create }');
  if (typeof def.name !== 'string' || !SYSTEM_NAME.test(def.name)) throw new TypeError(`system name ${JSON.stringify(def.name)} must be lower-case letters, digits and -, starting with a letter`);
  if (!Number.isSafeInteger(def.priority)) throw new TypeError(`system ${def.name}: priority must be an integer, got ${String(def.priority)}`);
  if (typeof def.create !== 'function') throw new TypeError(`system ${def.name}: create(host) must be a function`);
  return Object.freeze({ ...def });
}
