/**
 * Snapshots for rollback: the whole state of a simulation copied into reused typed arrays, so a rollback
 * session can save every frame and restore one without building plain-data snapshots (`Simulation.save`) or
 * allocating per frame. These copies never leave the process: a restore checks only that the state was made
 * by this simulation; `save()`/`restore()` stay the checked path for anything read from outside.
 */
import { newEcsCopy, type EcsCopy } from '../ecs/ecs-world.js';
import { newSchedulerCopy, type SchedulerCopy } from '../ecs/scheduler.js';
import { newCcRandCopy, type CcRandCopy } from '../rng/ccrand.js';
import type { RandomStreamsCopy } from '../rng/streams.js';

/**
 * A simulation's whole state in reused buffers, made and refilled by `Simulation.saveInto` and put back by
 * `Simulation.restoreFrom` of the same simulation. Its typed arrays are made the first time it is filled (or
 * when more entities, tasks or streams are in use than it has room for); every later save copies into them.
 * Holds: the entity world (component fields of ids 0..maxId; the index, memberships and query orders, copied
 * only when they changed), fieldrand, ccRand and the named streams, the scheduler (frame, tasks, sleeps, each
 * task's state), the world's run-time state and the player and buttons.
 *
 * @example
 * ```ts
 * const ring = Array.from({ length: 9 }, () => new RollbackState());
 * sim.saveInto(ring[sim.frame % 9]);   // every frame
 * sim.restoreFrom(ring[confirmed % 9]); // on a late input: back, then re-simulate
 * ```
 */
export class RollbackState {
  /** @internal The simulation that filled it (null: empty). */
  owner: object | null = null;
  /** @internal */
  readonly ecs: EcsCopy = newEcsCopy();
  /** @internal */
  readonly scheduler: SchedulerCopy = newSchedulerCopy();
  /** @internal fieldrand's seed and count. */
  readonly fieldrand = { seed: 0, count: 0 };
  /** @internal */
  readonly ccrand: CcRandCopy = newCcRandCopy();
  /** @internal */
  readonly streams: RandomStreamsCopy = { count: 0, names: [], words: new Float64Array(0), bytes: new Uint8Array(0) };
  /** @internal The world's `saveState()` (null for worlds without run-time state). */
  world: unknown = null;
  /** @internal `Simulation.player`, `Simulation.input` and every player's word (`Simulation.inputs`). */
  readonly who = { player: 0, input: 0, inputs: new Uint32Array(4) };

  /** The frame the state is of (`sim.frame` when it was saved); −1 while empty. */
  get frame(): number {
    return this.owner === null ? -1 : this.scheduler.frame;
  }
}
