/**
 * The simulation's event bus (mitt). Tasks emit what happened (sounds, flashes, level exits, deaths,
 * desyncs) for the renderer, the sound player and the CLI. Events are outputs only: nothing in the simulation
 * listens to them, so a listener can never change the state (and a re-simulation with its own bus, or with
 * no listeners at all, gives the same hashes).
 */
import mittModule, { type Emitter, type EventType } from 'mitt';

/** The events of a simulation, by type. */
export type SimEvents = {
  /** A sound to play (the field's thunder and steam, footsteps). */
  sound: { name: string; frame: number; volume?: number; pan?: number; x?: number; y?: number; z?: number };
  /** The screen flashes (lightning). */
  flash: { frame: number; intensity: number };
  /** A body stepped onto an exit floor (`id`: the floor's id). */
  exit: { frame: number; entity: number; id: number };
  /** A body died (the kill plane, a death floor) and respawned. */
  death: { frame: number; entity: number };
  /** A re-simulation (verify, synctest) did not match. */
  desync: { frame: number; detail: string };
  /** A scenario's own event, named by it (a guard raising the alarm, say); `data` is the scenario's to define. */
  signal: { frame: number; name: string; entity: number; data?: number };
};

/** A simulation's event bus: mitt's emitter of SimEvents (`on`, `off`, `emit`). */
export type EventBus = Emitter<SimEvents>;

type MittFactory = <E extends Record<EventType, unknown>>() => Emitter<E>;

/**
 * mitt's types describe its CommonJS build (whose default import is the module object) while Node and Vite
 * load its ES build (whose default export is the function itself): take whichever is the function.
 */
const mitt: MittFactory =
  typeof mittModule === 'function'
    ? (mittModule as unknown as MittFactory)
    : ((mittModule as unknown as { default: MittFactory }).default);

/**
 * A new event bus. Listen with `bus.on('flash', (e) => ...)`; a listener cannot change the simulation, so
 * adding or removing one never changes a hash.
 */
export function createEventBus(): EventBus {
  return mitt<SimEvents>();
}
