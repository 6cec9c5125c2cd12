/**
 * Range kernels: the per-entity part of a system, written so it can run over ranges of entities on several
 * threads and still give exactly the one-thread answer.
 *
 * A kernel declares the components it reads and writes and is made once per thread from that thread's copy
 * of the world and the declared stores (`create`). Its function is called with a list of entity ids and a
 * range [start, end) of it. The rule that makes any split give the same state: an entity's results depend
 * only on its own components (those declared) and the world, and a kernel writes only that entity's elements
 * of the components it declares as written. A kernel is given no frame context: it draws no random numbers,
 * raises no events, creates or removes no entities. Whatever a system does in an order (draws from a shared
 * stream, events, spawns) stays in its frame function on the main thread, in ascending entity id.
 *
 * A simulation runs kernels on the main thread alone (`localParallelHost`) unless it is given
 * `SystemThreads` (in Node: `SystemPool` from src/node/system-pool.ts), which puts the component arrays on
 * SharedArrayBuffers and splits each run into chunks shared by the threads.
 *
 * Stages: consecutive tasks whose kernels read only their own entity (`ownEntityOnly`) may stage their runs
 * (`KernelRunner.stage`) instead of running them; the pool then runs them together, each chunk of ids through
 * every kernel in turn, with one dispatch and one join instead of one per task. The scheduler runs what is
 * staged before any task that does not stage, so no task ever sees a staged kernel's work undone.
 */
import type { ComponentDef, ComponentOf, Components, ComponentStore, FieldSchema } from '../ecs/components.js';
import type { CollisionWorld } from '../worlds/world.js';

/**
 * A kernel's frame work over `ids[start..end)`. It may mark entities for ordered work on the main thread (a
 * draw from a shared stream, an event): it writes their ids to `marks[start]`, `marks[start + 1]`, ... in the
 * order it visits them and returns how many it marked (nothing marked: return 0 or nothing). The runner
 * merges the ranges' marks in range order, so they come back in the order of the id list.
 */
export type KernelFunction = (ids: Uint32Array, start: number, end: number, marks: Uint32Array) => number | void;

/** The stores a kernel declared, in the thread it runs on. */
export interface KernelStores {
  /** Entity slots (ids 1..capacity − 1). */
  readonly capacity: number;
  /** A declared component's stores; throws for a component the kernel did not declare. */
  store<F extends FieldSchema>(def: ComponentDef<F>): ComponentOf<F>;
  /**
   * Whether entity `id` is alive and has component `def` (one the kernel declares). Any entity may be asked,
   * not only the one being run: membership does not change while kernels run.
   */
  has(id: number, def: ComponentDef): boolean;
}

/** The per-entity part of a system, runnable over ranges of entities on any thread (see the module comment). */
export interface RangeKernel {
  /**
   * Names the kernel in every thread: a worker finds it by name among the built-in kernels and those of the
   * modules its pool was given (lower-case letters, digits, `-` and `:`).
   */
  readonly name: string;
  /** Components it reads (only these and `writes` are visible to it). */
  readonly reads: readonly ComponentDef[];
  /** Components it writes: only the element of the entity being run. */
  readonly writes: readonly ComponentDef[];
  /**
   * True when an entity's run reads only that entity's elements (no other entity's, no `has` of another id)
   * and marks nothing. Such kernels, staged by consecutive tasks over the same ids (`KernelRunner.stage`),
   * run as one stage: each chunk of ids goes through all of them in turn, on one dispatch with one join,
   * and every entity still sees them in task order. Absent or false, a staged run is an ordinary run.
   */
  readonly ownEntityOnly?: boolean;
  /** Makes the kernel's function for one thread, from that thread's world and the declared stores. */
  create(world: CollisionWorld, stores: KernelStores): KernelFunction;
}

/** Runs one kernel of one simulation. */
export interface KernelRunner {
  /**
   * Runs the kernel over `ids[0..n)` and returns when every range is done, with the entities the ranges
   * marked, merged in the order of `ids` (a view valid until the next run): the same list on any number of
   * threads. Give the ids in ascending order and the marks are ascending too, ready for ordered draws.
   */
  run(ids: ArrayLike<number>, n: number): Uint32Array;
  /**
   * Stages a run of the kernel over `ids[0..n)`: it runs before the next task that does not stage, before
   * `Scheduler.afterTask`, or at the end of the frame, whichever comes first, in one stage with the other
   * kernels staged until then over the same ids (when every one of them is `ownEntityOnly`). The state after
   * the stage is the state of running each kernel in turn. A staged kernel must mark nothing (it throws if it
   * does). Only a task whose body says `stages: true` may stage and then leave components alone; a host
   * without threads runs the kernel at once. Absent on a hand-made runner: call `run`.
   *
   * `sameSet`, when given, names the set of entities the list holds (an `EcsQuery.key`): a run staged with
   * the same name and count joins the stage without comparing the lists id by id (it runs over the first
   * list's order, which changes nothing for a kernel that reads only its own entity).
   */
  stage?(ids: ArrayLike<number>, n: number, sameSet?: string): void;
}

/** What a simulation gives its systems for kernels (`SystemHost.parallel`). */
export interface ParallelHost {
  /** Threads a run is split across (1: the main thread alone). */
  readonly threads: number;
  /** A runner of `kernel` for this simulation (call it when the system is created, not per frame). */
  runner(kernel: RangeKernel): KernelRunner;
  /** Lets go of the threads: runners made before run on the main thread from now on, with the same results. */
  detach?(): void;
  /** Runs what was staged (`KernelRunner.stage`) and not run yet; nothing staged, returns at once. */
  flush?(): void;
  /** Forgets what was staged without running it (a frame that threw part-way). */
  dropStaged?(): void;
}

/**
 * Threads to run kernels on, given to a simulation (`SimulationOptions.threads`). The simulation then puts
 * its component arrays on SharedArrayBuffers and attaches them; in Node, `SystemPool` is one.
 */
export interface SystemThreads {
  /** Threads in all, the main thread included. */
  readonly threads: number;
  /** Binds a simulation's world and (shared) component stores; the host its systems use. */
  attach(world: CollisionWorld, components: Components): ParallelHost;
}

const KERNEL_NAME = /^[a-z][a-z0-9:-]{0,63}$/;

/** Checks a kernel's declaration (name, components); throws a TypeError naming what is wrong. */
export function checkKernel(kernel: RangeKernel): void {
  if (typeof kernel !== 'object' || kernel === null) throw new TypeError('a range kernel is an object { name, reads, writes, create }');
  if (typeof kernel.name !== 'string' || !KERNEL_NAME.test(kernel.name)) throw new TypeError(`range kernel name ${JSON.stringify(kernel.name)} must be lower-case letters, digits, - and :, starting with a letter`);
  for (const list of [kernel.reads, kernel.writes]) {
    if (!Array.isArray(list)) throw new TypeError(`range kernel ${kernel.name}: reads and writes must be lists of components`);
    for (const d of list) if (typeof d !== 'object' || d === null || typeof d.name !== 'string') throw new TypeError(`range kernel ${kernel.name}: reads and writes must be lists of components`);
  }
  if (typeof kernel.create !== 'function') throw new TypeError(`range kernel ${kernel.name}: create(world, stores) must be a function`);
}

/**
 * The stores `kernel` declared, out of a lookup by component name (a simulation's stores, or the shared ones a
 * worker was sent). Throws when the simulation lacks one.
 */
export function kernelStores(kernel: RangeKernel, capacity: number, byName: ReadonlyMap<string, ComponentStore>, membership: Uint32Array): KernelStores {
  const declared = new Map<string, ComponentStore>();
  for (const d of [...kernel.reads, ...kernel.writes]) {
    const st = byName.get(d.name);
    if (!st) throw new Error(`range kernel ${kernel.name}: component ${d.name} is not part of this simulation`);
    declared.set(d.name, st);
  }
  return {
    capacity,
    store<F extends FieldSchema>(def: ComponentDef<F>): ComponentOf<F> {
      const st = declared.get(def.name);
      if (!st) throw new Error(`range kernel ${kernel.name}: component ${def.name} is not among the ones it declares (reads, writes)`);
      return st as ComponentOf<F>;
    },
    has(id: number, def: ComponentDef): boolean {
      const st = declared.get(def.name);
      if (!st || st.bit < 0) throw new Error(`range kernel ${kernel.name}: ${def.name} is not a component it declares (reads, writes)`);
      // Dead ids have no bits (EcsWorld keeps membership so).
      return id > 0 && id < capacity && (membership[id]! & (1 << st.bit)) !== 0;
    },
  };
}

/** Copies `n` ids into `buffer` (grown to fit); returns the buffer to use. */
export function copyIds(buffer: Uint32Array, ids: ArrayLike<number>, n: number, grow: (n: number) => Uint32Array): Uint32Array {
  const out = buffer.length >= n ? buffer : grow(n);
  // A typed list (the ascending ids of wander and the controller) is copied in bulk.
  if (ids instanceof Uint32Array && ids.length >= n) out.set(ids.length === n ? ids : ids.subarray(0, n));
  else for (let i = 0; i < n; i++) out[i] = ids[i]!;
  return out;
}

/** Kernels on the main thread alone: what a simulation without `SystemThreads` gives its systems. */
export function localParallelHost(world: CollisionWorld, components: Components): ParallelHost {
  return {
    threads: 1,
    runner(kernel: RangeKernel): KernelRunner {
      checkKernel(kernel);
      const fn = kernel.create(world, kernelStores(kernel, components.capacity, components.byName, components.membership));
      let buffer: Uint32Array = new Uint32Array(64);
      let marks: Uint32Array = new Uint32Array(64);
      return {
        run(ids: ArrayLike<number>, n: number) {
          buffer = copyIds(buffer, ids, n, (k) => new Uint32Array(Math.max(k, 2 * buffer.length)));
          if (marks.length < buffer.length) marks = new Uint32Array(buffer.length);
          return marks.subarray(0, markCount(kernel, fn(buffer, 0, n, marks), n));
        },
        // One thread: nothing to share a dispatch with, so a staged run runs at once.
        stage(ids: ArrayLike<number>, n: number, _sameSet?: string) {
          if (this.run(ids, n).length !== 0) throw new Error(`range kernel ${kernel.name} marked ids in a stage (a staged kernel must mark none)`);
        },
      };
    },
  };
}

/** A kernel function's answer checked: how many ids it marked in a range of `size` (0 for none given). */
export function markCount(kernel: RangeKernel, k: number | void, size: number): number {
  if (k === undefined) return 0;
  if (!Number.isInteger(k) || k < 0 || k > size) throw new RangeError(`range kernel ${kernel.name} marked ${String(k)} ids in a range of ${size}`);
  return k;
}

/**
 * Chunks per thread a run on several threads is cut into: thread t runs chunk t, then each thread takes the
 * next chunk not yet taken until none is left, so a thread that finishes early, or starts late (a worker sharing
 * its core), leaves less for the others to wait on. Which thread runs a chunk changes nothing: an entity's
 * result depends on it alone.
 */
export const CHUNKS_PER_THREAD = 8;

/** How many chunks a run of `count` ids on `threads` threads is cut into (at least 1; `rangeFor(count, chunks, c)` is chunk c). */
export function chunkCount(count: number, threads: number): number {
  return Math.max(1, Math.min(count, threads * CHUNKS_PER_THREAD));
}

/**
 * One thread's part of a run cut into `chunks` chunks of `count` ids: chunk `first`, then each chunk `take()`
 * hands out, until it hands out one past the last; each chunk's mark count goes to `counts[c]`.
 */
export function runChunks(kernel: RangeKernel, fn: KernelFunction, ids: Uint32Array, marks: Uint32Array, counts: Int32Array, count: number, chunks: number, first: number, take: () => number): void {
  for (let c = first; c < chunks; c = take()) {
    const [start, end] = rangeFor(count, chunks, c);
    counts[c] = markCount(kernel, fn(ids, start, end, marks), end - start);
  }
}

/** Most kernels one stage holds (a job names them in the pool's control words). */
export const MAX_STAGE_KERNELS = 8;

/**
 * `runChunks` for a stage of kernels: each chunk taken goes through every kernel in turn (the order they were
 * staged in). A staged kernel marks nothing; one that does fails the run.
 */
export function runStageChunks(kernels: readonly RangeKernel[], fns: readonly KernelFunction[], stageLength: number, ids: Uint32Array, marks: Uint32Array, count: number, chunks: number, first: number, take: () => number): void {
  for (let c = first; c < chunks; c = take()) {
    const [start, end] = rangeFor(count, chunks, c);
    for (let k = 0; k < stageLength; k++) {
      if (markCount(kernels[k]!, fns[k]!(ids, start, end, marks), end - start) !== 0) throw new Error(`range kernel ${kernels[k]!.name} marked ids in a stage (a staged kernel must mark none)`);
    }
  }
}

/** Range [start, end) of `count` ids for thread `t` of `threads`: contiguous, sizes differing by at most one. */
export function rangeFor(count: number, threads: number, t: number): [number, number] {
  const base = Math.floor(count / threads);
  const extra = count % threads;
  const start = t * base + Math.min(t, extra);
  return [start, start + base + (t < extra ? 1 : 0)];
}
