/**
 * A scenario: what a simulation is made of besides its world. It declares its own components, its systems
 * (the built-in ones, a subset, or with its own), the parameters it takes, and how its entities are placed.
 * Settings are plain numbers and strings so a replay can record them and rebuild exactly the same
 * simulation; a replay also records the scenario's name, version and content hash (see ScenarioIdentity).
 */
import { Fnv1a64 } from '../binary/fnv.js';
import { MAX_CAPACITY, type ComponentDef } from '../ecs/components.js';
import type { EcsWorld } from '../ecs/ecs-world.js';
import type { EventBus } from '../ecs/events.js';
import type { Scheduler, SimRng } from '../ecs/scheduler.js';
import { DEFAULT_LIMITS } from '../limits.js';
import type { ParamValue, SystemDef } from '../systems/system.js';
import type { CollisionWorld, Vec3, WorldKind } from '../worlds/world.js';
import { checkParamSpecs, type ParamSpecs } from './params.js';
import { callerModule } from './defining-module.js';

/** The settings every simulation takes, whatever its scenario. */
export interface ScenarioSettings {
  /** The scenario's name (`ScenarioDef.name`). */
  scenario: string;
  /**
   * Wandering agents to scatter over the world (the default placement; a scenario may read it otherwise). A
   * scenario that never reads it while it is built places its own: a simulation's settings then give the
   * wandering agents it placed (`spawnWanderers`), and so does the replay it records.
   */
  agents: number;
  /** fieldrand's seed (the game's fieldSeed, set by GO), u32. */
  fieldSeed: number;
  /** ccRand's init count (ccInitRand: draws discarded after seeding with 4352). */
  ccRandInit: number;
  /** Master seed of the named seedrandom streams. */
  streamSeed: string;
  /** Fixed entity capacity of the component arrays. */
  capacity: number;
  /** The scenario's own parameters (declared by its `params`); missing ones take their defaults. */
  params: Record<string, ParamValue>;
  /**
   * Players in this run, each an entity with its own input word: 1..the scenario's `players` (absent means
   * 1). A run of one player leaves the key out (its settings, replays and hashes are those of a runtime
   * without players), so give it only for 2 or more.
   */
  players?: number;
}

/** Most players a scenario (and so a run) may have, each with its own input word. */
export const MAX_PLAYERS = 4;

/** Most agents a scenario places (limits.agents): each may cost up to PLACEMENT_TRIES world queries to place. */
export const MAX_AGENTS = DEFAULT_LIMITS.agents;

/**
 * The whole-number range `checkSettings` accepts for each numeric setting (agents are also at most
 * capacity − 1 − players: the players and one spare; players are also at most the scenario's `players`). Anything that checks settings before a simulation is built (the
 * sandbox's link, say) reads these rather than copying the numbers.
 */
export const SETTING_RANGES: Readonly<Record<'capacity' | 'agents' | 'fieldSeed' | 'ccRandInit' | 'players', Readonly<{ min: number; max: number }>>> = Object.freeze({
  capacity: Object.freeze({ min: 2, max: MAX_CAPACITY }),
  players: Object.freeze({ min: 1, max: MAX_PLAYERS }),
  agents: Object.freeze({ min: 0, max: MAX_AGENTS }),
  fieldSeed: Object.freeze({ min: 0, max: 0xffffffff }),
  ccRandInit: Object.freeze({ min: 0, max: 100_000_000 }),
});

/** The longest streamSeed `checkSettings` accepts, in UTF-16 code units. */
export const MAX_STREAM_SEED_LENGTH = 256;

/** Settings a simulation gets for what it is not told. */
export const DEFAULT_SETTINGS: Readonly<ScenarioSettings> = Object.freeze({
  scenario: 'wander',
  agents: 300,
  fieldSeed: 0x1234,
  ccRandInit: 0,
  streamSeed: 'retrosim',
  capacity: 4096,
  params: Object.freeze({}) as Record<string, ParamValue>,
});

/** What a scenario's `place` and `setup` see: the simulation being built. */
export interface ScenarioHost {
  readonly world: CollisionWorld;
  readonly ecs: EcsWorld;
  readonly rng: SimRng;
  readonly events: EventBus;
  readonly scheduler: Scheduler;
  readonly settings: Readonly<ScenarioSettings>;
  readonly params: Readonly<Record<string, ParamValue>>;
  /** The player's entity id (0 until `spawnPlayer`): player 0, `players[0]`. */
  readonly player: number;
  /**
   * Every player's entity id, `settings.players` of them (absent means 1), by seat: player 0 first. A seat not
   * spawned yet holds 0.
   */
  readonly players: readonly number[];
  /**
   * Spawns a player (position, velocity, heading, body, controller, motion) at `at`, else player 0 at the
   * world's spawn point and each other player at an open spot drawn from the "players" stream. In a run of
   * one player each call makes that player (as it always did); in a run of several each call takes the next
   * seat, and a call with every seat taken is a ScenarioError. Seats a scenario's `place` leaves empty are
   * spawned after it (see `spawnPlayers`).
   */
  spawnPlayer(at?: Vec3): number;
  /** Spawns every player not spawned yet (see `spawnPlayer`), in seat order; returns every player's id. */
  spawnPlayers(): readonly number[];
  /**
   * Scatters up to `count` wandering agents over open ground, drawing spots from the "placement" stream
   * (a world with little open ground may take fewer). Returns how many were placed.
   */
  spawnWanderers(count: number): number;
  /** Gives entity `e` the body size of a person in this world's units (radius, height, step). */
  setBody(e: number): void;
}

/** A scenario definition (make one with `defineScenario`). */
export interface ScenarioDef {
  /** Lower-case letters, digits and `-`; recorded in replays. */
  readonly name: string;
  /** The scenario's own version (semver recommended); a replay of another version is refused. */
  readonly version: string;
  readonly description: string;
  /** The systems, in creation order (ties in priority run in this order). */
  readonly systems: readonly SystemDef[];
  /** The scenario's own components, after the built-in ones. */
  readonly components?: readonly ComponentDef[];
  /** The parameters it takes, with their defaults and bounds. */
  readonly params?: ParamSpecs;
  /** The world kinds it runs on (any when absent): a replay naming it over another kind is refused up front. */
  readonly worldKinds?: readonly WorldKind[];
  /**
   * Most players a run of it may have (1..MAX_PLAYERS, default 1); a run's `settings.players` is 1..this.
   * Each player is an entity with a Controller and its own input word (`Simulation.step` takes one per player).
   */
  readonly players?: number;
  /**
   * Places the entities, before the systems are made. Default: every player (`spawnPlayers`: player 0 at the
   * world's spawn point), then `settings.agents` wanderers.
   */
  place?(sim: ScenarioHost): void;
  /** Runs after the systems' tasks are created: extra tasks (a field's weather), extra state. */
  setup?(sim: ScenarioHost): void;
  /**
   * Components and systems a run adds for its parameter values, after `components` and `systems` (called
   * once per simulation, with the checked parameters, before anything is built). A run it adds nothing to is
   * the run of the scenario without them, to the bit: so a parameter can switch on new systems and keep every
   * replay and hash of the runs without it (declare it `optional`, see `ParamSpec`, and its default runs record
   * what they always did). Names must not repeat those of `components` and `systems`.
   */
  extras?(params: Readonly<Record<string, ParamValue>>): ScenarioExtras;
}

/** What `ScenarioDef.extras` adds to a run. */
export interface ScenarioExtras {
  /** More components, after the scenario's own. */
  readonly components?: readonly ComponentDef[];
  /** More systems, created after the scenario's own (ties in priority run in that order). */
  readonly systems?: readonly SystemDef[];
}

/** How a replay names the scenario it ran: enough to find it again and to notice a changed one. */
export interface ScenarioIdentity {
  name: string;
  version: string;
  /**
   * "builtin:<name>"; "file:<path>" for a scenario defined in a module file, the path relative to the current
   * folder ('/'-separated; absolute when the file is outside it), the same whether the CLI loaded the file or
   * a program imported it; or "inline" for one whose module cannot be hashed (a browser bundle, TypeScript
   * run from source).
   */
  source: string;
  /**
   * "0x" + 16 hex digits. For a module file, the first 64 bits of the SHA-256 of its module graph (the file,
   * every local module it imports, and the versions of the packages they import); for a built-in or inline
   * scenario, FNV-1a 64 of its declared shape (`scenarioFingerprint`).
   */
  contentHash: string;
  /**
   * For a module file: each local module of its graph, the file itself included, by its path relative to
   * the file's folder ('/'-separated, sorted) and the FNV-1a 64 of its bytes. Verify names the module that
   * changed from these.
   */
  modules?: ScenarioModuleHash[];
  /** For a module file: the packages its graph imports, as "name@version", sorted. */
  packages?: string[];
}

/** One local module of a scenario's module graph (`ScenarioIdentity.modules`). */
export interface ScenarioModuleHash {
  /** Relative to the scenario file's folder, '/'-separated. */
  path: string;
  /** FNV-1a 64 of its bytes, "0x" + 16 hex digits. */
  hash: string;
}

const SCENARIO_NAME = /^[a-z][a-z0-9-]{0,63}$/;
const WORLD_KINDS: readonly WorldKind[] = ['rugrats', 'llama', 'colbin', 'gta', 'piney'];

/**
 * Thrown for a scenario definition that cannot work; the message names the scenario and the part. A step
 * also throws it for a call its systems may not make (Math.random, Date.now, a timer: see `Simulation.step`).
 */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
}

/**
 * Checks and freezes a scenario definition: its name and version, its systems (unique names, integer
 * priorities), its components (unique names), its parameter declarations and world kinds.
 *
 * @example
 * export default defineScenario({
 *   name: 'guards', version: '1.0.0', description: 'guards patrol and raise the alarm',
 *   components: [Guard], params: { guards: { type: 'int', default: 4, min: 1, max: 64 } },
 *   systems: [...DEFAULT_SYSTEMS, patrol, alarm],
 *   place(sim) { sim.spawnPlayer(); ... },
 * });
 */
export function defineScenario(def: ScenarioDef): ScenarioDef {
  if (typeof def !== 'object' || def === null) throw new ScenarioError('a scenario is an object { name, version, description, systems, ... }');
  const name = def.name;
  if (typeof name !== 'string' || !SCENARIO_NAME.test(name)) throw new ScenarioError(`scenario name ${JSON.stringify(name)} must be lower-case letters, digits and -, starting with a letter`);
  if (typeof def.version !== 'string' || def.version.length === 0 || def.version.length > 64) throw new ScenarioError(`scenario ${name}: version must be a string of 1 to 64 characters`);
  if (typeof def.description !== 'string') throw new ScenarioError(`scenario ${name}: description must be a string`);
  if (!Array.isArray(def.systems)) throw new ScenarioError(`scenario ${name}: systems must be a list of system definitions`);
  checkParts(name, def.systems, def.components ?? [], '');
  for (const k of def.worldKinds ?? []) if (!WORLD_KINDS.includes(k)) throw new ScenarioError(`scenario ${name}: unknown world kind ${JSON.stringify(k)} (kinds: ${WORLD_KINDS.join(', ')})`);
  try {
    checkParamSpecs(name, def.params ?? {});
  } catch (e) {
    throw new ScenarioError((e as Error).message);
  }
  if (def.players !== undefined && (typeof def.players !== 'number' || !Number.isInteger(def.players) || def.players < 1 || def.players > MAX_PLAYERS)) {
    throw new ScenarioError(`scenario ${name}: players must be an integer in 1..${MAX_PLAYERS}, got ${String(def.players)}`);
  }
  if (def.place !== undefined && typeof def.place !== 'function') throw new ScenarioError(`scenario ${name}: place must be a function`);
  if (def.setup !== undefined && typeof def.setup !== 'function') throw new ScenarioError(`scenario ${name}: setup must be a function`);
  if (def.extras !== undefined && typeof def.extras !== 'function') throw new ScenarioError(`scenario ${name}: extras must be a function`);
  const frozen = Object.freeze({ ...def, systems: Object.freeze([...def.systems]) });
  const module = callerModule(new Error().stack, import.meta.url);
  if (module !== undefined) definedIn.set(frozen, module);
  return frozen;
}

const definedIn = new WeakMap<ScenarioDef, string>();

/** Checks systems and components (unique names, integer priorities, made right); `what` names where they came from. */
function checkParts(name: string, systems: readonly SystemDef[], components: readonly ComponentDef[], what: string): void {
  const seen = new Set<string>();
  for (const s of systems) {
    if (!s || typeof s.name !== 'string' || typeof s.create !== 'function' || !Number.isSafeInteger(s.priority)) throw new ScenarioError(`scenario ${name}${what}: every system needs a name, an integer priority and create(host)`);
    if (seen.has(s.name)) throw new ScenarioError(`scenario ${name}${what}: two systems are named ${s.name}`);
    seen.add(s.name);
  }
  const comps = new Set<string>();
  for (const c of components) {
    if (!c || typeof c.name !== 'string' || typeof c.schema !== 'object') throw new ScenarioError(`scenario ${name}${what}: components must be made with defineComponent`);
    if (comps.has(c.name)) throw new ScenarioError(`scenario ${name}${what}: two components are named ${c.name}`);
    comps.add(c.name);
  }
}

/**
 * The components and systems of a run of `def` with `params`: its own, then what its `extras` adds for those
 * values. A ScenarioError names a bad addition (not lists, or a name that repeats).
 */
export function scenarioParts(def: ScenarioDef, params: Readonly<Record<string, ParamValue>>): { components: readonly ComponentDef[]; systems: readonly SystemDef[] } {
  const own = { components: def.components ?? [], systems: def.systems };
  if (!def.extras) return own;
  const x = def.extras(params);
  if (typeof x !== 'object' || x === null) throw new ScenarioError(`scenario ${def.name}: extras(params) must return an object { components?, systems? }`);
  for (const k of ['components', 'systems'] as const) {
    if (x[k] !== undefined && !Array.isArray(x[k])) throw new ScenarioError(`scenario ${def.name}: extras(params).${k} must be a list`);
  }
  const parts = { components: [...own.components, ...(x.components ?? [])], systems: [...own.systems, ...(x.systems ?? [])] };
  checkParts(def.name, parts.systems, parts.components, ' with its extras');
  return parts;
}

/**
 * The `file:` URL of the module that defined `def` with `defineScenario` (read from the call's stack), or
 * undefined when it is not a file (a browser bundle) or the engine did not say.
 */
export function scenarioModuleUrl(def: ScenarioDef): string | undefined {
  return definedIn.get(def);
}

/**
 * A content hash of what a scenario declares (name, version, world kinds, components with their fields,
 * parameters with their declarations, systems by name and priority): the identity of a scenario that has
 * no module file, such as a built-in one. It cannot see code, so a changed frame function keeps it; the
 * version is the author's promise for that.
 */
export function scenarioFingerprint(def: ScenarioDef): string {
  const shape = {
    name: def.name,
    version: def.version,
    worldKinds: def.worldKinds ?? null,
    components: (def.components ?? []).map((c) => [c.name, Object.entries(c.schema)]),
    // An optional parameter is left out: the scenario without it is the same shape (ParamSpec.optional).
    params: Object.entries(def.params ?? {}).filter(([, sp]) => sp.optional !== true),
    systems: def.systems.map((s) => [s.name, s.priority]),
  };
  return new Fnv1a64().bytes(new TextEncoder().encode(JSON.stringify(shape))).hex();
}

/** Checks the settings every scenario shares (from a file or the command line); throws an Error naming the field. */
export function checkSettings(s: ScenarioSettings): ScenarioSettings {
  const int = (v: unknown, name: string, min: number, max: number): void => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new Error(`setting ${name} must be an integer in ${min}..${max}, got ${String(v)}`);
  };
  if (typeof s.scenario !== 'string') throw new Error('setting scenario must be a string');
  const R = SETTING_RANGES;
  int(s.capacity, 'capacity', R.capacity.min, R.capacity.max);
  if (s.players !== undefined) int(s.players, 'players', R.players.min, R.players.max);
  // Ids run 1..capacity − 1: every player, the agents and one spare.
  int(s.agents, 'agents', R.agents.min, Math.min(R.agents.max, s.capacity - 1 - (s.players ?? 1)));
  int(s.fieldSeed, 'fieldSeed', R.fieldSeed.min, R.fieldSeed.max);
  int(s.ccRandInit, 'ccRandInit', R.ccRandInit.min, R.ccRandInit.max);
  if (typeof s.streamSeed !== 'string' || s.streamSeed.length > MAX_STREAM_SEED_LENGTH) throw new Error(`setting streamSeed must be a string of at most ${MAX_STREAM_SEED_LENGTH} characters`);
  if (typeof s.params !== 'object' || s.params === null || Array.isArray(s.params)) throw new Error('setting params must be an object');
  return s;
}
