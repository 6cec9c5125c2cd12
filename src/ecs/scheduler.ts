/**
 * The frame scheduler, modelled on the game's task kernel (docs/formats/piney-ambient.md): every
 * frame, the ready tasks run in ascending integer priority, ties in creation order. The field's tasks use the
 * game's priorities (entry 64, effects 80, skills 82, field display 96, particles 98).
 *
 * Frames are numbered from 1: `step()` advances `frame` and then runs the tasks with `ctx.frame = frame`, so
 * after n steps `frame === n` (frame 0 is the state before any step).
 *
 * Changes during a frame follow the game's task list, which is walked in order while tasks run
 * (see MID_FRAME_RULE): a task added during a frame runs in the same frame when its place in the order is
 * after the running task (higher priority number, or the same priority, since it is newer), and from the next
 * frame otherwise; a removed task that has not run yet in this frame does not run; a task woken during a frame
 * runs in that frame if its place is still ahead.
 */
import type { Emitter } from 'mitt';
import type { CcRand } from '../rng/ccrand.js';
import type { FieldRand } from '../rng/fieldrand.js';
import type { RandomStreams } from '../rng/streams.js';
import type { SimEvents } from './events.js';
import type { Hash64 } from './state-hash.js';
import { Saved, withPath } from '../binary/saved-value.js';
import type { TaskProfiler } from './profile-hooks.js';

/** A simulation's random numbers: the two game RNGs and the named streams. Draw through these only, so draws are counted. */
export interface SimRng {
  /** The Piney field's fieldrand. */
  fieldrand: FieldRand;
  /** The game's ccRand. */
  ccrand: CcRand;
  /** Named seeded streams (one per system or purpose). */
  streams: RandomStreams;
}

/** What every task (and so every system) is given each frame, plus the fields of the object the scheduler was built on. */
export interface FrameContext {
  /** The frame being run (1 on the first step). */
  frame: number;
  rng: SimRng;
  /** The simulation's event bus (events never feed back into state). */
  events: Emitter<SimEvents>;
  scheduler: Scheduler;
}

/** A task in the scheduler: its identity and priority, and how it sleeps, wakes and leaves. */
export interface TaskHandle {
  readonly id: number;
  readonly name: string;
  readonly priority: number;
  /** Skips the next `frames` frames (0 does nothing): called in frame f, the task runs again in f + frames + 1. */
  sleep(frames: number): void;
  /** Skips every frame until `wake()`. */
  sleepUntilWoken(): void;
  /** Ends a sleep: the task runs in the next frame, or in this one if its place is still ahead. */
  wake(): void;
  /** Removes the task from the scheduler. */
  remove(): void;
  /** Whether the task will skip the next frame it could run in. */
  readonly asleep: boolean;
}

/** A task with state: `run` each frame, and the hooks that put its state in the hash and in snapshots. */
export interface TaskBody {
  /** Runs the task's frame. */
  run(ctx: FrameContext, self: TaskHandle): void;
  /** Numbers that describe the task's state, folded into the state hash. */
  hashState?(): ArrayLike<number>;
  /** The task's state as plain data, for snapshots. */
  save?(): unknown;
  /**
   * Puts back what `save` gave (it may come from a file: check it, and throw a FormatError naming the field
   * for anything that cannot be used). `frame` is the frame being restored; the entity world and the RNGs
   * are already restored when it is called.
   */
  restore?(s: unknown, frame: number): void;
  /**
   * Optional, beside `save` and `restore`: the typed arrays that hold the task's whole state, such that copying
   * their contents back is exactly `restore(save())`. A rollback (`Simulation.saveInto`/`restoreFrom`) then
   * copies them into reused buffers instead of calling `save` and `restore` every frame. The arrays must stay
   * the same objects for the task's life.
   */
  readonly stateArrays?: readonly TaskStateArray[];
  /**
   * True when the task's run only stages range kernels (`KernelRunner.stage`) and reads or writes no
   * component itself: the scheduler then leaves what earlier tasks staged unrun before it, so their kernels
   * and its own run as one stage. Absent or false, whatever is staged runs before the task.
   */
  readonly stages?: boolean;
}

/**
 * Where staged kernels are run from (`Scheduler.stage`; a simulation with threads sets it): `flush` runs what
 * is staged, `drop` forgets it (when running it failed in a frame that threw).
 */
export interface StageHooks {
  /** Runs every staged kernel now (nothing staged: returns at once). */
  flush(): void;
  /** Forgets what is staged without running it. */
  drop(): void;
}

/** The typed arrays a task's `stateArrays` may hold. */
export type TaskStateArray = Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;

/**
 * @internal A scheduler's state in reused buffers (Scheduler.saveInto / restoreFrom, for rollback): the frame,
 * the next id, the current draw counts, the tasks (by reference, in run order) with their sleeps, and each
 * task's state: copies of its `stateArrays`, or else what its `save` returned.
 */
export interface SchedulerCopy {
  frame: number;
  nextId: number;
  draws: Float64Array;
  count: number;
  tasks: TaskHandle[];
  sleep: Float64Array;
  /** Per slot: the task whose `stateArrays` copies `arrays[k]` holds (so they are reused). */
  arrayOwners: (TaskHandle | null)[];
  arrays: (TaskStateArray[] | null)[];
  saved: unknown[];
}

/** @internal An empty SchedulerCopy. */
export function newSchedulerCopy(): SchedulerCopy {
  return { frame: 0, nextId: 1, draws: new Float64Array(2), count: 0, tasks: [], sleep: new Float64Array(16), arrayOwners: [], arrays: [], saved: [] };
}

/** A task without state of its own: a function run each frame. */
export type TaskFunction = (ctx: FrameContext, self: TaskHandle) => void;

/**
 * The one place the mid-frame convention is stated: the task list is walked in order while it runs, so a
 * change takes effect for the part of the list not yet walked ("walk"), as the game's linked task list does.
 */
export const MID_FRAME_RULE = 'walk' as const;

/**
 * Frames of draw counts kept for `drawCounts(frame)`: at least the last DRAW_HISTORY_FRAMES / 2 frames are
 * always there (the replay recorder and verifier read only the current one); older ones are forgotten.
 */
export const DRAW_HISTORY_FRAMES = 1 << 14;

/** Most tasks a saved scheduler state may hold. */
export const MAX_SAVED_TASKS = 4096;

/** `sleepUntil` of a task asleep until woken. */
const UNTIL_WOKEN = Number.POSITIVE_INFINITY;

class Task implements TaskHandle {
  /** The first frame in which the task may run again (0: any). */
  sleepUntil = 0;
  removed = false;
  constructor(
    private readonly scheduler: Scheduler,
    readonly id: number,
    readonly name: string,
    readonly priority: number,
    readonly body: TaskBody,
  ) {}
  sleep(frames: number): void {
    if (!Number.isInteger(frames) || frames < 0) throw new RangeError(`task ${this.name}: sleep needs a non-negative integer, got ${frames}`);
    if (frames > 0) this.sleepUntil = this.scheduler.frame + frames + 1;
  }
  sleepUntilWoken(): void {
    this.sleepUntil = UNTIL_WOKEN;
  }
  wake(): void {
    this.sleepUntil = 0;
  }
  remove(): void {
    this.scheduler.removeTask(this);
  }
  get asleep(): boolean {
    return this.sleepUntil > this.scheduler.frame + (this.scheduler.running ? 0 : 1);
  }
}

/** A saved task: enough to match it to a re-created task and put its state back. */
export interface TaskState {
  id: number;
  name: string;
  priority: number;
  /** First frame it may run again; 0 awake, -1 asleep until woken. */
  sleepUntil: number;
  body: unknown;
}

/** A scheduler as plain data (Scheduler.save, Scheduler.restore). */
export interface SchedulerState {
  frame: number;
  /** The id the next task will get. */
  nextId: number;
  tasks: TaskState[];
  /** Cumulative draw counts at the end of each frame from `historyStart` on: [fieldrand, ccrand] pairs (a save holds only the last). */
  historyStart: number;
  history: Float64Array;
}

/** Makes the body of a task that was created during the run (not at set-up) when a snapshot is restored. */
export type TaskFactory = (saved: TaskState) => TaskBody;

/**
 * The frame scheduler: each frame (`step`) the ready tasks run once, in ascending integer priority, ties in
 * creation order, each given the FrameContext. It counts the game RNGs' draws per frame and saves and restores
 * every task's state. A simulation makes its own (`sim.scheduler`).
 */
export class Scheduler {
  /** Frames run so far; during a step, the frame being run. */
  frame = 0;
  private isRunning = false;
  private runningTask: Task | null = null;
  private readonly tasks: Task[] = [];
  private cursor = -1;
  private nextId = 1;
  private readonly ctx: FrameContext;
  private readonly factories = new Map<string, TaskFactory>();
  /** Cumulative [fieldrand count, ccRand draws] at the end of frames historyStart.. (index 2·(f − start)). */
  private history = new Float64Array(2 * 1024);
  private historyStart = 0;
  private historyLength = 0;

  /**
   * @param context an object the frame context is built on: its own fields (e.g. the simulation's world and
   *   entity world) reach every task; `frame`, `rng`, `events` and `scheduler` are set on it here
   */
  constructor(
    readonly rng: SimRng,
    readonly events: Emitter<SimEvents>,
    context: object = {},
  ) {
    this.ctx = Object.assign(context, { frame: 0, rng, events, scheduler: this });
    this.recordDraws();
  }

  /**
   * Called after each task runs, in run order (for diagnosis: the synctest hashes the state after every
   * task to find the one that is not deterministic). Unset, it costs one test per task.
   */
  afterTask: ((task: TaskHandle) => void) | null = null;

  /**
   * Told before and after each task runs (for a profile of the frame: bench/profile.bench.ts). It must only
   * read the state. Unset (the default), it costs one test per task and reads no clock.
   */
  profiler: TaskProfiler | null = null;

  /**
   * Runs staged range kernels (see `TaskBody.stages`): before each task that does not stage, before
   * `afterTask`, and at the end of every frame. Unset (a simulation without threads), it costs one test per task.
   */
  stage: StageHooks | null = null;

  /** True while `step()` runs tasks. */
  get running(): boolean {
    return this.isRunning;
  }

  /** The task whose `run` (or `afterTask`) is running now, or null outside a step (names a task in errors). */
  get current(): TaskHandle | null {
    return this.runningTask;
  }

  /**
   * Adds a task that runs every frame from now on, in `priority` order (lower first; ties in creation order).
   * Added while a frame runs, it runs in that frame when its place is after the running task.
   *
   * @example
   * ```ts
   * scheduler.addTask('tick', 64, (ctx) => { if (ctx.frame % 60 === 0) ctx.events.emit('signal', { frame: ctx.frame, name: 'second', entity: 0 }); });
   * ```
   */
  addTask(name: string, priority: number, body: TaskBody | TaskFunction): TaskHandle {
    if (!Number.isSafeInteger(priority)) throw new RangeError(`task ${name}: priority must be an integer, got ${priority}`);
    const b: TaskBody = typeof body === 'function' ? { run: body } : body;
    const t = new Task(this, this.nextId++, name, priority, b);
    // After every task of lower or equal priority: ties keep creation order.
    let i = this.tasks.length;
    while (i > 0 && this.tasks[i - 1]!.priority > priority) i--;
    this.tasks.splice(i, 0, t);
    if (this.running && i <= this.cursor) this.cursor++;
    return t;
  }

  /** Registers how to re-create tasks named `name` on restore when they were created during the run. */
  registerTaskFactory(name: string, factory: TaskFactory): void {
    this.factories.set(name, factory);
  }

  /** Removes a task; removed during a frame before it ran, it does not run in that frame. */
  removeTask(t: TaskHandle): void {
    const i = this.tasks.indexOf(t as Task);
    if (i < 0) return;
    this.tasks.splice(i, 1);
    (t as Task).removed = true;
    if (this.running && i <= this.cursor) this.cursor--;
  }

  /** Tasks in run order (a copy). */
  list(): TaskHandle[] {
    return this.tasks.slice();
  }

  /** Runs one frame: each ready task once, in ascending priority, ties in creation order. */
  step(): void {
    if (this.running) throw new Error('Scheduler.step called from inside a task');
    const frame = ++this.frame;
    const ctx = this.ctx;
    ctx.frame = frame;
    this.isRunning = true;
    const stage = this.stage;
    try {
      const tasks = this.tasks;
      for (this.cursor = 0; this.cursor < tasks.length; this.cursor++) {
        const t = tasks[this.cursor]!;
        if (t.sleepUntil <= frame) {
          // What earlier tasks staged runs before any task that does not join the stage.
          if (stage !== null && t.body.stages !== true) stage.flush();
          this.runningTask = t;
          const profiler = this.profiler;
          if (profiler) profiler.taskStart(t);
          t.body.run(ctx, t);
          if (profiler) profiler.taskEnd(t);
          if (this.afterTask) {
            if (stage !== null) stage.flush();
            this.afterTask(t);
          }
        }
      }
      if (stage !== null) stage.flush();
    } catch (e) {
      // What was staged before the task that threw runs, as it would have on one thread (where nothing is
      // staged); if that fails too, it is dropped, so the next frame does not run it.
      if (stage !== null) {
        try {
          stage.flush();
        } catch {
          stage.drop();
        }
      }
      throw e;
    } finally {
      this.isRunning = false;
      this.runningTask = null;
      this.cursor = -1;
    }
    this.recordDraws();
  }

  private recordDraws(): void {
    if (2 * this.historyLength + 2 > this.history.length) {
      if (this.historyLength >= DRAW_HISTORY_FRAMES) {
        // Full: forget the older half, so a run of millions of frames keeps a bounded record.
        const drop = this.historyLength >> 1;
        this.history.copyWithin(0, 2 * drop, 2 * this.historyLength);
        this.historyStart += drop;
        this.historyLength -= drop;
      } else {
        const next = new Float64Array(this.history.length * 2);
        next.set(this.history);
        this.history = next;
      }
    }
    const k = 2 * this.historyLength;
    this.history[k] = this.rng.fieldrand.count;
    this.history[k + 1] = this.rng.ccrand.draws;
    this.historyLength++;
  }

  /**
   * Cumulative draw counts of the game RNGs at the end of `frame` (default: the last frame run): the
   * fieldrand count (the game's randcnt, since its last seeding) and ccRand draws since its init.
   */
  drawCounts(frame = this.frame): { fieldrand: number; ccrand: number } {
    const i = frame - this.historyStart;
    if (!Number.isInteger(frame) || i < 0 || i >= this.historyLength) {
      throw new RangeError(`no draw counts for frame ${frame} (recorded: ${this.historyStart}..${this.historyStart + this.historyLength - 1})`);
    }
    return { fieldrand: this.history[2 * i]!, ccrand: this.history[2 * i + 1]! };
  }

  /** Draws made during `frame` alone (frame ≥ 1). */
  frameDraws(frame: number): { fieldrand: number; ccrand: number } {
    const a = this.drawCounts(frame - 1);
    const b = this.drawCounts(frame);
    return { fieldrand: b.fieldrand - a.fieldrand, ccrand: b.ccrand - a.ccrand };
  }

  /** @internal Folds the scheduler (frame, next task id) and every task's state into `h`, tasks in run order. */
  hashInto(h: Hash64): void {
    h.u32(this.frame);
    h.number(this.nextId);
    h.u32(this.tasks.length);
    for (const t of this.tasks) {
      h.u32(t.id);
      h.string(t.name);
      h.i32(t.priority);
      h.number(t.sleepUntil === UNTIL_WOKEN ? -1 : t.sleepUntil);
      const s = t.body.hashState?.();
      if (s) {
        h.u32(s.length);
        for (let i = 0; i < s.length; i++) h.number(s[i]!);
      }
    }
  }

  /** The scheduler and every task's state as plain data, for `restore`. */
  save(): SchedulerState {
    return {
      frame: this.frame,
      nextId: this.nextId,
      tasks: this.tasks.map((t) => ({
        id: t.id,
        name: t.name,
        priority: t.priority,
        sleepUntil: t.sleepUntil === UNTIL_WOKEN ? -1 : t.sleepUntil,
        body: t.body.save?.() ?? null,
      })),
      // Only the current counts: earlier frames' counts are a record, not state.
      historyStart: this.frame,
      history: this.history.slice(2 * (this.historyLength - 1), 2 * this.historyLength),
    };
  }

  /**
   * @internal Copies the scheduler into `c`'s reused buffers (for rollback; `save` is the plain-data
   * snapshot): tasks with `stateArrays` are copied into arrays made the first time; the others' `save()` is
   * kept as it is (so they allocate what their save does).
   */
  saveInto(c: SchedulerCopy): void {
    if (this.running) throw new Error('Scheduler.saveInto called from inside a task');
    const tasks = this.tasks;
    const n = tasks.length;
    if (c.sleep.length < n) c.sleep = new Float64Array(2 * n);
    c.frame = this.frame;
    c.nextId = this.nextId;
    const k = 2 * (this.historyLength - 1);
    c.draws[0] = this.history[k]!;
    c.draws[1] = this.history[k + 1]!;
    for (let i = 0; i < n; i++) {
      const t = tasks[i]!;
      c.tasks[i] = t;
      c.sleep[i] = t.sleepUntil;
      const arrays = t.body.stateArrays;
      if (arrays) {
        let copies = c.arrays[i];
        if (c.arrayOwners[i] !== t || !copies) {
          copies = c.arrays[i] = arrays.map((a) => a.slice());
          c.arrayOwners[i] = t;
        } else for (let j = 0; j < arrays.length; j++) copies[j]!.set(arrays[j]! as never);
        c.saved[i] = null;
      } else c.saved[i] = t.body.save ? t.body.save() : null;
    }
    // Forget what later slots held, so no stale task or state is kept alive.
    for (let i = n; i < c.count; i++) {
      c.tasks[i] = undefined as never;
      c.saved[i] = null;
    }
    c.tasks.length = n;
    c.count = n;
  }

  /**
   * @internal Puts back what `saveInto` copied (unchecked: it comes from this process, and from this
   * scheduler: the tasks are its own, by reference). A task removed since comes back with its state; one
   * added since is removed.
   */
  restoreFrom(c: SchedulerCopy): void {
    if (this.running) throw new Error('Scheduler.restoreFrom called from inside a task');
    const n = c.count;
    const frame = c.frame;
    for (let i = 0; i < n; i++) {
      const t = c.tasks[i] as Task;
      const arrays = t.body.stateArrays;
      if (arrays) {
        const copies = c.arrays[i]!;
        for (let j = 0; j < arrays.length; j++) arrays[j]!.set(copies[j]! as never);
      } else if (t.body.restore) t.body.restore(c.saved[i] ?? null, frame);
    }
    let same = this.tasks.length === n;
    for (let i = 0; same && i < n; i++) same = this.tasks[i] === c.tasks[i];
    if (!same) {
      for (const t of this.tasks) t.removed = true;
      this.tasks.length = 0;
      for (let i = 0; i < n; i++) this.tasks.push(c.tasks[i] as Task);
    }
    for (let i = 0; i < n; i++) {
      const t = this.tasks[i]!;
      t.sleepUntil = c.sleep[i]!;
      t.removed = false;
    }
    this.frame = frame;
    this.nextId = c.nextId;
    this.historyStart = frame;
    this.historyLength = 1;
    this.history[0] = c.draws[0]!;
    this.history[1] = c.draws[1]!;
  }

  /**
   * Puts back a saved state. Tasks are matched by id and name with the tasks that exist now (those made at
   * set-up, in the same order, get the same ids); a saved task with no match is re-created by its name's
   * factory, and a present task missing from the save is removed. Everything is checked first (it may come
   * from a file): the frame, the next id, at most MAX_SAVED_TASKS tasks with distinct ids in run order, and
   * the draw counts of the saved frame. A bad value is a FormatError naming the
   * field under `path` ("scheduler.tasks[3] (line-of-sight, id 8).body: state.n"), and the scheduler is unchanged
   * unless a task body's own restore fails part-way (the simulation puts its whole state back then).
   */
  restore(s: SchedulerState, path = 'scheduler'): void {
    if (this.running) throw new Error('Scheduler.restore called from inside a task');
    const v = new Saved(s, path).object(['frame', 'nextId', 'tasks', 'historyStart', 'history']);
    const frame = v.get('frame').count();
    const nextId = v.get('nextId').int(1, Number.MAX_SAFE_INTEGER);
    const history = v.get('history').typed(Float64Array, 2);
    v.get('historyStart').equals(frame, `the saved frame ${frame}`);
    // The draw counts of the saved frame are a record (drawCounts), not state: only their range matters.
    v.get('history').elementsIn(history, 0, Number.MAX_SAFE_INTEGER);
    const byId = new Map(this.tasks.map((t) => [t.id, t]));
    const saved = v.get('tasks').array(0, MAX_SAVED_TASKS);
    const next: Task[] = [];
    const ids = new Set<number>();
    for (let i = 0; i < saved.length; i++) {
      const sv = saved[i]!.object(['id', 'name', 'priority', 'sleepUntil', 'body']);
      const st = s.tasks[i]!;
      const name = sv.get('name').string(256);
      const at = new Saved(st, `${saved[i]!.path} (${name})`, sv.format);
      const id = at.get('id').int(1, nextId - 1);
      if (ids.has(id)) at.get('id').fail(`a second task with id ${id}`);
      ids.add(id);
      const priority = at.get('priority').int(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      at.get('sleepUntil').int(-1, Number.MAX_SAFE_INTEGER);
      let t = byId.get(id);
      if (t && (t.name !== name || t.priority !== priority)) at.fail(`task ${id} is ${name}@${priority} in the save, ${t.name}@${t.priority} in this simulation`);
      if (!t) {
        const make = this.factories.get(name);
        if (!make) return at.fail(`task ${name} (id ${id}) does not exist in this simulation and has no factory to re-create it`);
        t = withPath(`${at.path}.body`, () => new Task(this, id, name, priority, make(st)));
      }
      next.push(t);
    }
    for (let i = 1; i < next.length; i++) {
      const a = next[i - 1]!;
      const b = next[i]!;
      if (a.priority > b.priority || (a.priority === b.priority && a.id > b.id)) saved[i]!.fail('the saved tasks are not in run order (ascending priority, then id)');
    }
    for (let i = 0; i < next.length; i++) {
      const st = s.tasks[i]!;
      const t = next[i]!;
      if (t.body.restore) withPath(`${saved[i]!.path} (${t.name}, id ${t.id}).body`, () => t.body.restore!(st.body, frame));
      else if (st.body !== null && st.body !== undefined) saved[i]!.get('body').fail(`task ${t.name} keeps no state, the save gives it some`);
    }
    for (let i = 0; i < next.length; i++) {
      const t = next[i]!;
      const st = s.tasks[i]!;
      t.sleepUntil = st.sleepUntil === -1 ? UNTIL_WOKEN : st.sleepUntil;
      t.removed = false;
    }
    for (const t of this.tasks) if (!next.includes(t)) t.removed = true;
    this.tasks.length = 0;
    this.tasks.push(...next);
    this.frame = frame;
    this.nextId = nextId;
    this.historyStart = frame;
    this.historyLength = 1;
    this.history = new Float64Array(2048);
    this.history.set(history);
  }
}
