/**
 * The simulation assembly: a collision world, the entity world (built-in components plus the scenario's), the
 * game RNGs, the scheduler with one task per system (plus whatever the scenario adds), the event bus, the
 * state hash and snapshots.
 *
 * One frame: `step(buttons)` stores the buttons (one word per player), then runs the scheduler's frame.
 * Nothing else enters the simulation from outside, so (world, scenario, settings, inputs) fix every state.
 */
import { navigatorFor } from '../nav/navigator.js';
import { EcsWorld, type EcsWorldState } from '../ecs/ecs-world.js';
import type { ComponentDef, ComponentOf, Components, FieldSchema } from '../ecs/components.js';
import { createEventBus, type EventBus } from '../ecs/events.js';
import { CcRand, type CcRandState } from '../rng/ccrand.js';
import { FieldRand, type FieldRandState } from '../rng/fieldrand.js';
import { RandomStreams, type RandomStreamsState } from '../rng/streams.js';
import { Scheduler, type SchedulerState, type SimRng, type TaskBody, type TaskHandle } from '../ecs/scheduler.js';
import { Hash64, hashHex } from '../ecs/state-hash.js';
import type { ParamValue, StateArray, SystemBody, SystemContext, SystemDef, SystemHost } from '../systems/system.js';
import { walkSpeed } from '../systems/movement.js';
import type { CollisionWorld, Vec3 } from '../worlds/world.js';
import { localParallelHost, type ParallelHost, type SystemThreads } from '../systems/range-kernel.js';
import { recordedParams, resolveParams } from './params.js';
import { checkSettings, scenarioParts, ScenarioError, SETTING_RANGES, type ScenarioDef, type ScenarioHost, type ScenarioSettings } from './scenario.js';
import { Saved, withPath } from '../binary/saved-value.js';
import { enterGuard, leaveGuard, pauseGuardForListeners, type GuardSubject } from './determinism-guard.js';
import { RollbackState } from './rollback.js';
import { isRuntimeCode, markRuntimeCode } from '../systems/runtime-code.js';

/** A world may keep run-time state (e.g. Llama tile swaps); these optional methods let it join hashes and snapshots. */
interface StatefulWorld {
  hashState?(): ArrayLike<number>;
  saveState?(): unknown;
  restoreState?(s: unknown): void;
}

/** The parts of the state hash, in order. Replays store each part's low word per frame to name what diverged. */
export interface StateHash {
  hi: number;
  lo: number;
  /** Per section: [hi, lo] pairs, sections in `Simulation.sectionNames()` order. */
  sections: Uint32Array;
}

/**
 * Everything a simulation's state is, as plain data (encodable by the value codec, restorable by `restore`).
 * A simulation of one player has exactly the keys below but `players` and `inputs`; one of several has those
 * two as well (every player's id and this frame's input words, by seat: `player` and `input` are seat 0's).
 */
export interface SimSnapshot {
  format: 'retrosim-snapshot';
  version: 1;
  frame: number;
  player: number;
  input: number;
  /** Every player's entity id by seat (only with 2 or more players). */
  players?: number[];
  /** Every player's input word of the last frame, by seat (only with 2 or more players). */
  inputs?: Uint32Array;
  ecs: EcsWorldState;
  rng: { fieldrand: FieldRandState; ccrand: CcRandState; streams: RandomStreamsState };
  scheduler: SchedulerState;
  world: unknown;
}

/** Every body's size in metres (a child-to-adult figure; worlds convert by their `scale`). */
export const BODY_METRES = { radius: 0.3, height: 1.0, step: 0.3 } as const;
/** How far an agent sees, in metres. */
export const SIGHT_RANGE_METRES = 10;

/** Tries per agent to find an open spot before giving up on that agent (each try draws two numbers). */
export const PLACEMENT_TRIES = 64;
/** True when `agents` is a count the settings accept with this capacity and players (checkSettings' rule). */
function fitsAgents(agents: number, capacity: number, players: number): boolean {
  return agents >= SETTING_RANGES.agents.min && agents <= Math.min(SETTING_RANGES.agents.max, capacity - 1 - players);
}

/** The stream the scenario places agents with. */
export const PLACEMENT_STREAM = 'placement';

/**
 * The stream the players after player 0 are placed with (their own, so that a run of one player, which never
 * draws from it, places its agents exactly as before).
 */
export const PLAYERS_STREAM = 'players';

/** Options of the Simulation constructor. */
export interface SimulationOptions {
  /** The event bus; a fresh one by default (re-simulations use their own, so nothing is emitted twice). */
  events?: EventBus;
  /**
   * Threads for the systems' range kernels (in Node, a `SystemPool`). With more than one, the component arrays
   * live on SharedArrayBuffers and each kernel run is split into one range per thread; every state, hash,
   * draw and event is the same as on one thread. Without it, kernels run on the main thread.
   */
  threads?: SystemThreads;
}

/**
 * A running simulation. Make one with `createSimulation` (which fills settings and finds built-in
 * scenarios by name), or directly from a scenario definition and full settings.
 */
export class Simulation implements SystemHost, ScenarioHost {
  readonly ecs: EcsWorld;
  readonly rng: SimRng;
  readonly events: EventBus;
  readonly scheduler: Scheduler;
  /**
   * The settings it runs with (a replay records them). `agents` is the number asked for when the scenario
   * read it while being built (the default placement does), else the wandering agents it placed itself.
   */
  readonly settings: Readonly<ScenarioSettings>;
  readonly scenario: ScenarioDef;
  readonly params: Readonly<Record<string, ParamValue>>;
  /** Where the systems' range kernels run (see `SimulationOptions.threads`). */
  readonly parallel: ParallelHost;
  /** Wandering agents actually placed (a world with little open ground may take fewer than asked). */
  agentsPlaced = 0;
  /** Player 0's entity id (`players[0]`; 0 when the scenario has no player). */
  player = 0;
  /** Player 0's buttons of the last frame (`inputs[0]`). */
  input = 0;
  /** Every player's entity id, by seat (`settings.players` of them, absent meaning 1); a seat not spawned yet holds 0. */
  readonly players: readonly number[];
  /** Every player's buttons of the last frame, by seat (one word each, as `step` got them). */
  readonly inputs: Uint32Array;
  /** Seats spawned so far (`spawnPlayer`). */
  private seated = 0;
  private readonly hasher: SimulationHasher;
  private readonly ctx: SystemContext & { input: number; player: number };
  /**
   * Names the system or task running, for the determinism guard's refusals; `runtimeCodeOnly` while every
   * task is the runtime's own (the guard's further checks are then skipped: see determinism-guard.ts).
   */
  private readonly running: GuardSubject & { runtimeCodeOnly: boolean };

  constructor(
    readonly world: CollisionWorld,
    scenario: ScenarioDef,
    settings: ScenarioSettings,
    options: SimulationOptions = {},
  ) {
    if (settings.scenario !== scenario.name) throw new ScenarioError(`the settings name scenario ${JSON.stringify(settings.scenario)}, the definition given is ${scenario.name}`);
    checkSettings({ ...settings });
    const seats = settings.players ?? 1;
    if (seats > (scenario.players ?? 1)) throw new ScenarioError(`scenario ${scenario.name} has at most ${scenario.players ?? 1} player${(scenario.players ?? 1) === 1 ? '' : 's'} (its \`players\`), the settings ask for ${seats}`);
    // One player is the absence of the key: settings, headers and summaries stay those of a run without players.
    if (settings.players === 1) {
      settings = { ...settings };
      delete settings.players;
    }
    this.players = new Array<number>(seats).fill(0);
    this.inputs = new Uint32Array(seats);
    if (scenario.worldKinds && !scenario.worldKinds.includes(world.kind)) {
      throw new ScenarioError(`scenario ${scenario.name} runs on ${scenario.worldKinds.join(', ')} worlds, not on ${world.kind}`);
    }
    this.params = Object.freeze(resolveParams(scenario.name, scenario.params ?? {}, settings.params));
    // While the scenario is built, a read of settings.agents is noted: a scenario that never reads it places
    // its own entities, and the settings then say what it placed (see the end of the constructor).
    let agentsRead = false;
    const building = { ...settings, params: this.params as Record<string, ParamValue> };
    Object.defineProperty(building, 'agents', { enumerable: true, get: () => ((agentsRead = true), settings.agents) });
    this.settings = Object.freeze(building);
    this.scenario = scenario;
    // Listeners are the program's, not the simulation's: they run with the determinism guard paused.
    this.events = pauseGuardForListeners(options.events ?? createEventBus());
    const threads = options.threads && options.threads.threads > 1 ? options.threads : null;
    // What the parameters add (scenario.extras), under the guard as the rest of the scenario's building is.
    enterGuard({ describe: () => `scenario ${scenario.name}'s extras(), building the simulation` });
    let parts: ReturnType<typeof scenarioParts>;
    try {
      parts = scenarioParts(scenario, this.params);
    } finally {
      leaveGuard();
    }
    this.ecs = new EcsWorld(settings.capacity, parts.components, { shared: threads !== null });
    this.parallel = threads ? threads.attach(world, this.ecs.components) : localParallelHost(world, this.ecs.components);
    const fieldrand = new FieldRand();
    fieldrand.setSeed(settings.fieldSeed);
    const ccrand = new CcRand();
    ccrand.init(settings.ccRandInit);
    this.rng = { fieldrand, ccrand, streams: new RandomStreams(settings.streamSeed) };
    this.ctx = { world, ecs: this.ecs, input: 0, player: 0, inputs: this.inputs, players: this.players, params: this.params, nav: navigatorFor(this.ecs, world) } as unknown as SystemContext & { input: number; player: number };
    this.scheduler = new Scheduler(this.rng, this.events, this.ctx);
    const parallel = this.parallel;
    // Kernels staged by consecutive tasks run together on the threads (range-kernel.ts: stages).
    if (parallel.flush) this.scheduler.stage = { flush: () => parallel.flush!(), drop: () => parallel.dropStaged?.() };
    const systemTasks = new WeakSet<TaskHandle>();
    const running = {
      describe: () => {
        const t = this.scheduler.current;
        return `${t === null ? 'a step' : `${systemTasks.has(t) ? 'system' : 'task'} ${t.name}`} (scenario ${scenario.name}, frame ${this.scheduler.frame})`;
      },
      runtimeCodeOnly: true,
    };
    this.running = running;
    // A task the runtime did not make (a system of the scenario's own, a task its setup or the program adds, a
    // task factory's) turns the guard's further checks on for every step from then on.
    const scheduler = this.scheduler;
    const addTask = scheduler.addTask.bind(scheduler);
    scheduler.addTask = (name, priority, body) => {
      if (!isRuntimeCode(body)) running.runtimeCodeOnly = false;
      return addTask(name, priority, body);
    };
    const registerTaskFactory = scheduler.registerTaskFactory.bind(scheduler);
    scheduler.registerTaskFactory = (name, factory) => {
      running.runtimeCodeOnly = false;
      registerTaskFactory(name, factory);
    };
    // The scenario's own code that builds the state (place, each system's create, setup) is guarded as a step
    // is: what it places must be what a replay rebuilds.
    let phase = 'place()';
    enterGuard({ describe: () => `scenario ${scenario.name}'s ${phase}, building the simulation` });
    try {
      if (scenario.place) scenario.place(this);
      else {
        this.spawnPlayers();
        this.spawnWanderers(settings.agents);
        agentsRead = true;
      }
      // Every seat of a run of several players is an entity with a Controller, whatever `place` did.
      if (seats > 1) this.spawnPlayers();
      this.ctx.player = this.player;
      for (const sys of parts.systems) {
        phase = `system ${sys.name}'s create()`;
        const body = systemTask(sys, sys.create(this));
        if (isRuntimeCode(sys)) markRuntimeCode(body);
        systemTasks.add(this.scheduler.addTask(sys.name, sys.priority, body));
      }
      phase = 'setup()';
      scenario.setup?.(this);
    } finally {
      leaveGuard();
    }
    this.hasher = new SimulationHasher(this);
    // The settings a replay records and a summary shows: the agents asked for when the scenario read that
    // number while it was built, else the wandering agents it placed itself (so never a count it ignored). No
    // state depends on the number it did not read, and it reads the same from then on whichever was given,
    // so a replay recorded with either verifies.
    const used = agentsRead || !fitsAgents(this.agentsPlaced, settings.capacity, seats) ? settings.agents : this.agentsPlaced;
    // An optional parameter at its default is the scenario as it was before it: recorded as before, without it.
    (this as { settings: Readonly<ScenarioSettings> }).settings = Object.freeze({ ...settings, agents: used, params: recordedParams(scenario.params ?? {}, this.params) });
  }

  get frame(): number {
    return this.scheduler.frame;
  }

  /** The component stores (built-in ones by name; all of them in `all`). */
  get components(): Components {
    return this.ecs.components;
  }

  /** A component's stores in this simulation, typed by its schema (see `EcsWorld.store`). */
  store<F extends FieldSchema>(def: ComponentDef<F>): ComponentOf<F> {
    return this.ecs.store(def);
  }

  /**
   * Runs one frame with the given buttons (see `Buttons`): a number is player 0's (the others' are 0), a list
   * holds one word per player, by seat (its length must be `players.length`, else a RangeError). While its
   * systems and tasks run, randomness, clocks and timers are refused (see determinism-guard.ts): a call fails
   * the step with a ScenarioError naming the system.
   */
  step(buttons: number | ArrayLike<number>): void {
    const inputs = this.inputs;
    if (typeof buttons === 'number') {
      inputs[0] = buttons >>> 0;
      for (let k = 1; k < inputs.length; k++) inputs[k] = 0;
    } else {
      if (buttons === null || typeof buttons !== 'object' || buttons.length !== inputs.length) {
        throw new RangeError(`step needs ${inputs.length} input word${inputs.length === 1 ? '' : 's'} (one per player) or a number, got ${buttons === null || typeof buttons !== 'object' ? String(buttons) : `${String(buttons.length)} words`}`);
      }
      for (let k = 0; k < inputs.length; k++) inputs[k] = buttons[k]! >>> 0;
    }
    this.input = inputs[0]!;
    this.ctx.input = this.input;
    this.ctx.player = this.player;
    enterGuard(this.running);
    try {
      this.scheduler.step();
    } finally {
      leaveGuard();
    }
  }

  /** Gives entity `e` the body of a person in this world's units. */
  setBody(e: number): void {
    const { BodySize } = this.ecs.components;
    const s = this.world.scale > 0 && Number.isFinite(this.world.scale) ? this.world.scale : 1;
    const r = (v: number) => (this.world.integer ? Math.max(1, Math.round(v * s)) : v * s);
    BodySize.radius[e] = r(BODY_METRES.radius);
    BodySize.height[e] = r(BODY_METRES.height);
    BodySize.step[e] = r(BODY_METRES.step);
  }

  private place(e: number, p: Vec3): void {
    const { Position, Motion } = this.ecs.components;
    Position.x[e] = p[0];
    Position.y[e] = p[1];
    Position.z[e] = p[2];
    Motion.contact[e] = -1;
  }

  /**
   * Spawns a player at `at`, else player 0 at the world's spawn point and another at an open spot (see
   * `ScenarioHost.spawnPlayer`): one player is made again by each call, several take the next seat each.
   */
  spawnPlayer(at?: Vec3): number {
    const seats = this.players.length;
    // One player: each call makes the player, as it always did. Several: each call takes the next seat.
    const seat = seats === 1 ? 0 : this.seated;
    if (seat >= seats) throw new ScenarioError(`scenario ${this.scenario.name}: spawnPlayer called with all ${seats} players spawned`);
    const c = this.ecs.components;
    const e = this.ecs.spawn([c.Position, c.Velocity, c.Heading, c.BodySize, c.Controller, c.Motion]);
    this.place(e, at ?? (seat === 0 ? this.world.spawnPoint() : this.openSpotForPlayer()));
    this.setBody(e);
    (this.players as number[])[seat] = e;
    this.seated = Math.max(this.seated, seat + 1);
    if (seat === 0) {
      this.player = e;
      this.ctx.player = e;
    }
    return e;
  }

  /**
   * Spawns every player not spawned yet, in seat order (player 0 at the world's spawn point, the others at open
   * spots from the "players" stream); returns every player's id. With one player, the player if none yet.
   */
  spawnPlayers(): readonly number[] {
    while (this.seated < this.players.length) this.spawnPlayer();
    return this.players;
  }

  /** A player's spot after player 0: open ground from the players' own stream, else the world's spawn point. */
  private openSpotForPlayer(): Vec3 {
    const stream = this.rng.streams.get(PLAYERS_STREAM);
    for (let t = 0; t < PLACEMENT_TRIES; t++) {
      const spot = this.world.sampleOpen(stream.next(), stream.next());
      if (spot) return spot;
    }
    return this.world.spawnPoint();
  }

  spawnWanderers(count: number): number {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`spawnWanderers needs a count >= 0, got ${count}`);
    const c = this.ecs.components;
    const stream = this.rng.streams.get(PLACEMENT_STREAM);
    const speed = walkSpeed(this.world);
    let placed = 0;
    for (let i = 0; i < count; i++) {
      let spot: Vec3 | null = null;
      for (let t = 0; t < PLACEMENT_TRIES && !spot; t++) spot = this.world.sampleOpen(stream.next(), stream.next());
      if (!spot) continue;
      const e = this.ecs.spawn([c.Position, c.Velocity, c.Heading, c.BodySize, c.Agent, c.Motion, c.Sight]);
      this.place(e, spot);
      this.setBody(e);
      c.Agent.speed[e] = speed;
      c.Agent.timer[e] = 0; // picks its first heading on the first frame
      c.Sight.range[e] = this.world.integer ? Math.round(SIGHT_RANGE_METRES * this.world.scale) : SIGHT_RANGE_METRES * this.world.scale;
      placed++;
    }
    this.agentsPlaced += placed;
    return placed;
  }

  /**
   * Lets go of the threads given in `SimulationOptions.threads` (a pool can then be closed, or serve other
   * simulations without holding this one's arrays): the kernels run on the main thread from now on, and every
   * state stays what it would have been.
   */
  releaseThreads(): void {
    this.parallel.detach?.();
  }

  /** The 64-bit state hash of the current state, with its sections. */
  hash(): StateHash {
    return this.hasher.compute();
  }

  /** The state hash as "0x" + 16 hex digits. */
  hashHex(): string {
    const h = this.hasher.compute();
    return hashHex(h.hi, h.lo);
  }

  /** The state hash's sections: "entities", one per component, "rng", "tasks", "world". */
  sectionNames(): readonly string[] {
    return this.hasher.sectionNames;
  }

  /** A snapshot of the whole state (plain data; `restore` puts it back). */
  save(): SimSnapshot {
    const w = this.world as CollisionWorld & StatefulWorld;
    return {
      format: 'retrosim-snapshot',
      version: 1,
      frame: this.scheduler.frame,
      player: this.player,
      input: this.input,
      // Only a run of several players has these keys: a one-player snapshot is the same bytes as ever.
      ...(this.players.length > 1 ? { players: [...this.players], inputs: this.inputs.slice() } : {}),
      ecs: this.ecs.save(),
      rng: { fieldrand: this.rng.fieldrand.save(), ccrand: this.rng.ccrand.save(), streams: this.rng.streams.save() },
      scheduler: this.scheduler.save(),
      world: w.saveState ? w.saveState() : null,
    };
  }

  /**
   * Puts back a snapshot of a simulation built from the same world, settings and scenario. A snapshot may come
   * from a file: every value is checked against its type, its range and this simulation (capacity, ids,
   * tasks, each system's state, ...) before it is used, and a bad one is a FormatError (format "snapshot")
   * naming the field, e.g. `scheduler.tasks[7] (line-of-sight, id 8).body: state.n: expected an integer in
   * 0..32, got 40`.
   * A failed restore puts the state from before the call back, so the simulation is unchanged.
   */
  restore(s: SimSnapshot): void {
    const before = this.save();
    try {
      this.restoreParts(s);
    } catch (e) {
      this.restoreParts(before);
      throw e;
    }
  }

  /**
   * Copies the whole state into `target`'s reused typed arrays (a new RollbackState when none is given) and
   * returns it: for rollback, which saves every frame. Nothing is allocated once `target` has room, except
   * what a task without `stateArrays` returns from its `save` (the built-in systems have them; the Piney
   * ambient tasks and the recording system fall back to their save, the recording's is a number) and a world's
   * `saveState` (Llama: its swap states). The same `sim.hash()` holds after `restoreFrom` of it.
   */
  saveInto(target: RollbackState = new RollbackState()): RollbackState {
    if (this.scheduler.running) throw new Error('saveInto called from inside a step');
    // A state another simulation filled holds its structure numbers: forget them, so all is copied.
    if (target.owner !== this) target.ecs.structure = -1;
    target.owner = this;
    target.fieldrand.seed = this.rng.fieldrand.seed;
    target.fieldrand.count = this.rng.fieldrand.count;
    this.rng.ccrand.saveInto(target.ccrand);
    this.rng.streams.saveInto(target.streams);
    this.ecs.saveInto(target.ecs);
    this.scheduler.saveInto(target.scheduler);
    const w = this.world as CollisionWorld & StatefulWorld;
    target.world = w.saveState ? w.saveState() : null;
    // Who plays and their buttons: the one place a rollback copies them. The players' entities are fixed
    // when the simulation is built, so only their words change.
    target.who.player = this.player;
    target.who.input = this.input;
    target.who.inputs.set(this.inputs);
    return target;
  }

  /**
   * Puts back a state `saveInto` made from this simulation, writing into the existing arrays (shared ones,
   * with `threads`, stay shared). It checks only that the state is this simulation's: such states never come
   * from outside (use `save`/`restore` for those). Stepping on from it gives the same states and hashes as
   * stepping on from the frame it was saved at.
   */
  restoreFrom(state: RollbackState): void {
    if (!(state instanceof RollbackState) || state.owner !== this) {
      throw new Error(state instanceof RollbackState && state.owner === null ? 'restoreFrom: the RollbackState is empty (fill it with saveInto first)' : 'restoreFrom: the RollbackState was saved by another simulation (use save()/restore() between simulations)');
    }
    if (this.scheduler.running) throw new Error('restoreFrom called from inside a step');
    this.rng.fieldrand.seed = state.fieldrand.seed;
    this.rng.fieldrand.count = state.fieldrand.count;
    this.rng.ccrand.restoreFrom(state.ccrand);
    this.rng.streams.restoreFrom(state.streams);
    // The entities before the tasks (task states are sized by them), as `restore` does.
    this.ecs.restoreFrom(state.ecs);
    this.scheduler.restoreFrom(state.scheduler);
    // Who plays and their buttons: the one place a rollback puts them back.
    this.player = state.who.player;
    this.input = state.who.input;
    this.inputs.set(state.who.inputs.subarray(0, this.inputs.length));
    this.ctx.player = this.player;
    this.ctx.input = this.input;
    const w = this.world as CollisionWorld & StatefulWorld;
    if (w.restoreState) w.restoreState(state.world);
  }

  private restoreParts(s: SimSnapshot): void {
    const seats = this.players.length;
    const v = new Saved(s, 'snapshot').object(seats > 1 ? ['format', 'version', 'frame', 'player', 'input', 'players', 'inputs', 'ecs', 'rng', 'scheduler', 'world'] : ['format', 'version', 'frame', 'player', 'input', 'ecs', 'rng', 'scheduler', 'world']);
    v.get('format').equals('retrosim-snapshot', '"retrosim-snapshot"');
    v.get('version').equals(1, 'version 1');
    const frame = v.get('frame').count();
    const sched = v.get('scheduler');
    if (!isObject(s.scheduler) || s.scheduler.frame !== frame) sched.get('frame').fail(`the scheduler's frame differs from the snapshot's frame ${frame}`);
    const player = v.get('player').int(0, this.ecs.capacity - 1);
    const input = v.get('input').u32();
    let players: number[] | null = null;
    let inputs: Uint32Array | null = null;
    if (seats > 1) {
      // Every seat a distinct entity id, seat 0 the snapshot's player; one input word per seat, seat 0's its input.
      const pv = v.get('players');
      players = pv.array(seats, seats).map((e) => e.int(1, this.ecs.capacity - 1));
      if (players[0] !== player) pv.get(0).fail(`player 0's id ${players[0]} differs from the snapshot's player ${player}`);
      for (let k = 1; k < seats; k++) if (players.indexOf(players[k]!) !== k) pv.get(k).fail(`entity ${players[k]} is also player ${players.indexOf(players[k]!)}`);
      const iv = v.get('inputs');
      inputs = iv.typed(Uint32Array, seats);
      if (inputs[0] !== input) iv.get(0).fail(`player 0's input ${inputs[0]} differs from the snapshot's input ${input}`);
    }
    const rng = v.get('rng').object(['fieldrand', 'ccrand', 'streams']);
    // The RNGs, then the entities (task states are sized by them), then the scheduler and its tasks, then
    // the world.
    this.rng.fieldrand.restore(s.rng.fieldrand, `${rng.path}.fieldrand`);
    this.rng.ccrand.restore(s.rng.ccrand, `${rng.path}.ccrand`);
    this.rng.streams.restore(s.rng.streams, `${rng.path}.streams`);
    this.ecs.restore(s.ecs, 'ecs');
    this.scheduler.restore(s.scheduler, 'scheduler');
    this.player = player;
    this.input = input;
    if (players && inputs) {
      for (let k = 0; k < seats; k++) (this.players as number[])[k] = players[k]!;
      this.inputs.set(inputs);
    } else {
      (this.players as number[])[0] = player;
      this.inputs[0] = input;
    }
    this.ctx.player = this.player;
    this.ctx.input = this.input;
    const w = this.world as CollisionWorld & StatefulWorld;
    if (w.restoreState) withPath('world', () => w.restoreState!(s.world));
    else v.get('world').equals(null, `null (a ${this.world.kind} world keeps no run-time state)`);
  }
}

/**
 * A system's body as a scheduler task. Declared `state` arrays become the task's hash, save and restore: the
 * hash reads every element, a save copies the arrays, a restore checks names, types and lengths before
 * copying in (so a hostile snapshot cannot resize them).
 */
function systemTask(sys: SystemDef, made: SystemBody | ((ctx: SystemContext, self: TaskHandle) => void)): TaskBody {
  const body: SystemBody = typeof made === 'function' ? { run: made } : made;
  if (!body || typeof body.run !== 'function') throw new ScenarioError(`system ${sys.name}: create() must return a frame function or an object with run(ctx)`);
  const state = body.state;
  if (!state) return body as unknown as TaskBody;
  if (body.save || body.restore || body.hashState || body.stateArrays) throw new ScenarioError(`system ${sys.name}: declare its state either as \`state\` arrays or with save/restore/hashState, not both`);
  const names = Object.keys(state);
  const arrays = names.map((n) => state[n]!);
  for (let i = 0; i < arrays.length; i++) {
    if (!ArrayBuffer.isView(arrays[i]) || arrays[i] instanceof DataView) throw new ScenarioError(`system ${sys.name}: state ${names[i]} must be a typed array`);
  }
  const total = arrays.reduce((n, a) => n + a.length, 0);
  const hashBuf = new Float64Array(total);
  return {
    run: body.run as unknown as TaskBody['run'],
    stages: body.stages === true,
    hashState() {
      let k = 0;
      for (const a of arrays) for (let i = 0; i < a.length; i++) hashBuf[k++] = a[i]!;
      return hashBuf;
    },
    save: () => Object.fromEntries(names.map((n, i) => [n, arrays[i]!.slice()])),
    stateArrays: arrays,
    restore(saved: unknown) {
      const v = new Saved(saved, 'state').object(names);
      for (let i = 0; i < names.length; i++) {
        const a = arrays[i]!;
        v.get(names[i]!).typed(a.constructor as never, a.length);
      }
      const st = saved as Record<string, StateArray>;
      for (let i = 0; i < names.length; i++) arrays[i]!.set(st[names[i]!]!);
    },
  };
}

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null;
}
/**
 * Computes the state hash in sections: "entities" (the entity index with its recycle order, each live id's
 * components, every defined query's order), one section per component (fields of live ids, ascending id),
 * "rng" (fieldrand, ccRand, streams), "tasks" (the scheduler and each task's hashState), and "world" (the
 * world's run-time state, if it has any). The total hashes the sections' 64-bit values in that order.
 */
export class SimulationHasher {
  readonly sectionNames: readonly string[];
  private readonly h = new Hash64();
  private readonly part = new Uint32Array(2);
  private readonly ids = { ids: new Uint32Array(64) };
  constructor(private readonly sim: Simulation) {
    this.sectionNames = ['entities', ...sim.ecs.components.all.map((c) => c.name), 'rng', 'tasks', 'world'];
  }

  compute(): StateHash {
    const sim = this.sim;
    const ecs = sim.ecs;
    const sections = new Uint32Array(2 * this.sectionNames.length);
    let k = 0;
    const h = this.h;
    const end = () => {
      h.digest(this.part);
      sections[k++] = this.part[0]!;
      sections[k++] = this.part[1]!;
    };
    // entities
    h.reset();
    const n = ecs.aliveIdsAscending(this.ids);
    const ids = this.ids.ids;
    h.u32(ecs.capacity).u32(ecs.maxId).u32(ecs.aliveCount).u32(sim.player);
    // The other players' ids (none in a run of one player, whose hash is then the same as ever).
    for (let k = 1; k < sim.players.length; k++) h.u32(sim.players[k]!);
    h.keyed(ecs.membership, ids, n);
    ecs.hashIndexInto(h);
    end();
    // components
    for (const c of ecs.components.all) {
      h.reset();
      for (const f of c.fieldNames) h.gather(c.fields[f]!, ids, n);
      end();
    }
    // rng
    h.reset();
    h.u32(sim.rng.fieldrand.seed).u32(sim.rng.fieldrand.count);
    sim.rng.ccrand.forEachStateWord((w) => h.u32(w));
    sim.rng.streams.forEachStateWord((w) => h.u32(w));
    end();
    // tasks
    h.reset();
    sim.scheduler.hashInto(h);
    end();
    // world
    h.reset();
    const ws = (sim.world as CollisionWorld & StatefulWorld).hashState?.();
    if (ws) for (let i = 0; i < ws.length; i++) h.number(ws[i]!);
    end();
    // total
    h.reset();
    for (let i = 0; i < sections.length; i++) h.u32(sections[i]!);
    h.digest(this.part);
    return { hi: this.part[0]!, lo: this.part[1]!, sections };
  }
}
