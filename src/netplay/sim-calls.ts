/**
 * The calls the session makes into a simulation and its recorder, in one place: rollback states in reused
 * buffers (`saveInto`/`restoreFrom`) and one input word per player.
 */
import { RollbackState } from '../sim/rollback.js';
import type { Simulation } from '../sim/simulation.js';
import type { ReplayRecorder } from '../replay/recorder.js';

/** A saved state for rollback. */
export type RollbackSlot = RollbackState;

/** Saves `sim`'s state into `target`'s buffers (a new state the first time); returns the slot to keep. */
export function saveState(sim: Simulation, target?: RollbackSlot): RollbackSlot {
  return sim.saveInto(target);
}

/** Puts a state saved by `saveState` back. */
export function loadState(sim: Simulation, state: RollbackSlot): void {
  sim.restoreFrom(state);
}

/** Steps `sim` one frame with one input word per player. */
export function stepPlayers(sim: Simulation, inputs: Uint32Array): void {
  sim.step(inputs);
}

/** Steps a recorder's simulation one frame with one input word per player, recording it. */
export function recordPlayers(rec: ReplayRecorder, inputs: Uint32Array): void {
  rec.step(inputs);
}
