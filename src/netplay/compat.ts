/**
 * STAND-IN (the lead replaces this file's bodies once the parallel parts merge): the three calls the session
 * makes into the simulation and recorder that other parts are changing, kept in this ONE place.
 * - `saveState`/`loadState`: rollback snapshots. Final form: `sim.saveInto(target)` / `sim.restoreFrom(state)`
 *   (reused buffers). Until then: `sim.save()` / `sim.restore()`.
 * - `stepPlayers`/`recordPlayers`: one input word per player. Final form: `sim.step(inputs)` /
 *   `recorder.step(inputs)`. Until then a one-player simulation gets the players' words folded into one
 *   (XOR), so every player's input still changes the state.
 */
import type { SimSnapshot, Simulation } from '../sim/simulation.js';
import type { ReplayRecorder } from '../replay/recorder.js';

/** A saved state for rollback (opaque to the session). */
export type RollbackSlot = unknown;

interface FastSnapshots {
  saveInto(target?: unknown): unknown;
  restoreFrom(state: unknown): void;
}

function fast(sim: Simulation): FastSnapshots | null {
  const s = sim as unknown as Partial<FastSnapshots>;
  return typeof s.saveInto === 'function' && typeof s.restoreFrom === 'function' ? (s as FastSnapshots) : null;
}

/** Saves `sim`'s state, reusing `target`'s buffers when it can; returns the slot to keep. */
export function saveState(sim: Simulation, target?: RollbackSlot): RollbackSlot {
  const f = fast(sim);
  return f ? f.saveInto(target) : sim.save();
}

/** Puts a state saved by `saveState` back. */
export function loadState(sim: Simulation, state: RollbackSlot): void {
  const f = fast(sim);
  if (f) f.restoreFrom(state);
  else sim.restore(state as SimSnapshot);
}

function playerCount(x: unknown): number {
  const p = (x as { players?: unknown }).players;
  return Array.isArray(p) ? p.length : 1;
}

function fold(inputs: Uint32Array): number {
  let b = 0;
  for (let i = 0; i < inputs.length; i++) b ^= inputs[i]!;
  return b;
}

/** Steps `sim` one frame with one input word per player. */
export function stepPlayers(sim: Simulation, inputs: Uint32Array): void {
  if (inputs.length > 1 && playerCount(sim) === inputs.length) (sim.step as unknown as (b: ArrayLike<number>) => void).call(sim, inputs);
  else sim.step(inputs.length === 1 ? inputs[0]! : fold(inputs));
}

/** Steps a recorder's simulation one frame with one input word per player, recording it. */
export function recordPlayers(rec: ReplayRecorder, inputs: Uint32Array): void {
  if (inputs.length > 1 && playerCount(rec.sim) === inputs.length) (rec.step as unknown as (b: ArrayLike<number>) => void).call(rec, inputs);
  else rec.step(inputs.length === 1 ? inputs[0]! : fold(inputs));
}
