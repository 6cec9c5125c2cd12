/**
 * A scenario: what a simulation is made of besides its world. Its settings are plain numbers and strings so
 * a replay can record them and rebuild exactly the same simulation.
 */
import type { SystemDef } from '../systems/index.js';
import { DEFAULT_SYSTEMS } from '../systems/index.js';
import type { Simulation } from './simulation.js';
import { DEFAULT_LIMITS } from '../limits.js';

export interface ScenarioSettings {
  /** Which scenario (a key of SCENARIOS): decides the extra set-up, e.g. a field's weather tasks. */
  scenario: string;
  /** Wandering agents to scatter over the world. */
  agents: number;
  /** fieldrand's seed (the game's fieldSeed, set by GO), u32. */
  fieldSeed: number;
  /** ccRand's init count (ccInitRand: draws discarded after seeding with 4352). */
  ccRandInit: number;
  /** Master seed of the named seedrandom streams. */
  streamSeed: string;
  /** Fixed entity capacity of the component arrays. */
  capacity: number;
}

/** Most agents a scenario places (limits.agents): each may cost up to PLACEMENT_TRIES world queries to place. */
export const MAX_AGENTS = DEFAULT_LIMITS.agents;

export const DEFAULT_SETTINGS: ScenarioSettings = {
  scenario: 'wander',
  agents: 300,
  fieldSeed: 0x1234,
  ccRandInit: 0,
  streamSeed: 'retrosim',
  capacity: 4096,
};

/** How a scenario sets up a simulation beyond the systems: extra tasks, extra entities. */
export interface ScenarioDef {
  readonly name: string;
  readonly description: string;
  /** The systems, in creation order (DEFAULT_SYSTEMS unless the scenario says otherwise). */
  readonly systems: readonly SystemDef[];
  /** The world kinds it runs on (any when absent): a replay naming it over another kind is refused up front. */
  readonly worldKinds?: readonly string[];
  /** Runs after the systems' tasks are created and the agents are placed. */
  setup?(sim: Simulation): void;
}

const wander: ScenarioDef = {
  name: 'wander',
  description: 'a player and agents wandering by the "wander" stream',
  systems: DEFAULT_SYSTEMS,
};

/** The scenarios a replay may name. Add one here to make it recordable and verifiable. */
export const SCENARIOS = new Map<string, ScenarioDef>([[wander.name, wander]]);

export function registerScenario(def: ScenarioDef): void {
  SCENARIOS.set(def.name, def);
}

export function findScenario(name: string): ScenarioDef {
  const s = SCENARIOS.get(name);
  if (!s) throw new Error(`unknown scenario ${JSON.stringify(name)} (known: ${[...SCENARIOS.keys()].join(', ')})`);
  return s;
}

/** Checks settings from a file or the command line; throws an Error naming the bad field. */
export function checkSettings(s: ScenarioSettings): ScenarioSettings {
  const int = (v: unknown, name: string, min: number, max: number): void => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new Error(`setting ${name} must be an integer in ${min}..${max}, got ${String(v)}`);
  };
  if (typeof s.scenario !== 'string') throw new Error('setting scenario must be a string');
  int(s.capacity, 'capacity', 2, 1 << 20);
  int(s.agents, 'agents', 0, Math.min(MAX_AGENTS, s.capacity - 2));
  int(s.fieldSeed, 'fieldSeed', 0, 0xffffffff);
  int(s.ccRandInit, 'ccRandInit', 0, 100_000_000);
  if (typeof s.streamSeed !== 'string' || s.streamSeed.length > 256) throw new Error('setting streamSeed must be a string of at most 256 characters');
  return s;
}
