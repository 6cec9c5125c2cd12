/**
 * Range kernels on worker threads: the `SystemThreads` of Node. A pool starts `threads − 1` workers; each
 * loads its own copy of the world from the same bytes and the range kernels (the built-in systems' and those
 * of the kernel modules given). A simulation made with the pool (`createSimulation(world, { threads: pool })`)
 * keeps its component arrays on SharedArrayBuffers; every run of a kernel is split into one contiguous range
 * of the id list per thread (this thread takes the first), the threads woken and joined with Atomics.
 *
 * The split depends on nothing but the count and the number of threads, and a kernel's result for an entity
 * depends only on that entity's components and the world, so every state is the one-thread state: same
 * hashes, same replays. Everything ordered (draws, events, spawns) stays in the systems' frame functions on
 * this thread. A world with run-time state (Llama tile swaps) is sent to the workers before a job whenever
 * its state differs from what they hold.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { sharedStoreOf, type Components } from '../ecs/components.js';
import { detectWorldFile } from '../worlds/load.js';
import type { CollisionWorld } from '../worlds/world.js';
import {
  checkKernel,
  chunkCount,
  CHUNKS_PER_THREAD,
  kernelStores,
  markCount,
  MAX_STAGE_KERNELS,
  rangeFor,
  runChunks,
  runStageChunks,
  type KernelFunction,
  type KernelRunner,
  type ParallelHost,
  type RangeKernel,
  type SystemThreads,
} from '../systems/range-kernel.js';
import { defaultPineyTables } from './assets.js';
import { isSealedUrl, sealScenarioModule } from './scenario-file.js';
import type { WorldSource } from './los-pool.js';
import { C, type ConfigMessage, type PoolWorkerData } from './system-pool-protocol.js';
import { refusalFromThread } from '../sim/determinism-guard.js';
import type { KernelProfiler } from '../ecs/profile-hooks.js';

/** Most threads a pool takes. */
export const MAX_SYSTEM_THREADS = 64;

/** How long a job may go without a worker finishing before the pool gives up on it. */
export const SYSTEM_JOIN_TIMEOUT_MS = 30_000;

/** Runs of fewer ids than this stay on the main thread (waking the workers costs more than they save). */
export const MIN_IDS_PER_THREAD = 256;

/**
 * Work below which `autoThreads` keeps one thread: agents times frames. Measured on the 2-core development
 * machine, a pool's start (about 0.3 s: each worker loads the world) is paid back from about 10 million
 * agent-frames on (20,000 agents for 600 frames: 2.40–2.45 s on 2 threads against 2.55–2.58 s on one; 5,000 agents
 * for 600 frames: 1.29–1.35 s against 1.03–1.08 s).
 */
export const AUTO_THREADS_MIN_AGENT_FRAMES = 10_000_000;
/** Fewest agents for which `autoThreads` splits: below it a frame's kernels are too short to share. */
export const AUTO_THREADS_MIN_AGENTS = 10_000;
/** Most threads `autoThreads` picks (only 2 have been measured; more cores are assumed to help up to 4). */
export const AUTO_THREADS_MAX = 4;

/**
 * The thread count `--threads auto` runs `agents` agents for `frames` frames on: 1 for small work (see
 * AUTO_THREADS_MIN_AGENT_FRAMES and AUTO_THREADS_MIN_AGENTS), else the machine's cores up to AUTO_THREADS_MAX.
 * Every hash and replay is the same on any thread count, so this changes only the speed.
 */
export function autoThreads(agents: number, frames: number, cores: number): number {
  if (!(cores >= 2) || !(agents >= AUTO_THREADS_MIN_AGENTS) || !(agents * frames >= AUTO_THREADS_MIN_AGENT_FRAMES)) return 1;
  return Math.min(Math.floor(cores), AUTO_THREADS_MAX);
}

/** Options of `SystemPool.create`. */
export interface SystemPoolOptions {
  /**
   * Module files (paths; a scenario's module, say) whose `kernels` export lists the range kernels of a
   * scenario's own systems, or the sealed copy a loaded scenario came from (`scenarioSealedUrl`). Each file is
   * hashed and sealed once, as `loadScenarioFile` does, and every worker imports that sealed copy.
   */
  kernelModules?: readonly string[];
  /**
   * Runs of fewer than this many ids per thread stay on the main thread (default MIN_IDS_PER_THREAD). The
   * results are the same either way; tests set 1 to split even a handful of entities.
   */
  minIdsPerThread?: number;
}

// Query lists are plain arrays: loops of their own keep these element reads monomorphic (a shared loop over
// typed and plain lists costs about 1.7 ns an id at 100,000 agents).
function copyArray(ids: Uint32Array, list: readonly number[], n: number): void {
  for (let i = 0; i < n; i++) ids[i] = list[i]!;
}
function sameAsArray(ids: Uint32Array, list: readonly number[], n: number): boolean {
  for (let i = 0; i < n; i++) if (ids[i] !== list[i]) return false;
  return true;
}
function sameAsList(ids: Uint32Array, list: ArrayLike<number>, n: number): boolean {
  for (let i = 0; i < n; i++) if (ids[i] !== list[i]) return false;
  return true;
}

/** The compiled worker next to this module, or (running from TypeScript sources, as tests do) the one in dist/. */
function systemWorkerUrl(): URL {
  const here = new URL('./system-worker.js', import.meta.url);
  const path = fileURLToPath(here);
  if (existsSync(path)) return here;
  const compiled = path.replace(/([\\/])src([\\/]node[\\/]system-worker\.js)$/, '$1dist$1src$2');
  if (compiled !== path && existsSync(compiled)) return pathToFileURL(compiled);
  throw new Error(`the compiled system worker is missing (${path}); build first: npx tsc -p tsconfig.build.json`);
}

interface KernelInfo {
  name: string;
  reads: string[];
  writes: string[];
}

/**
 * Worker threads for the systems' range kernels. Give it to simulations of the world it was made from, then
 * close it.
 *
 * @example
 * ```ts
 * const opened = await openWorld('piney-default');
 * const pool = await SystemPool.create(opened.source, 2);
 * const sim = createSimulation(opened.world, { agents: 100_000, threads: pool });
 * for (let f = 1; f <= 600; f++) sim.step(0);
 * console.log(sim.hashHex()); // the same as on one thread
 * await pool.close();
 * ```
 */
export class SystemPool implements SystemThreads {
  readonly threads: number;
  private readonly workers: Worker[] = [];
  private readonly ports: MessagePort[] = [];
  private readonly control = new Int32Array(new SharedArrayBuffer(C.WORDS * 4));
  private readonly kernels = new Map<string, KernelInfo>();
  private readonly worldName: string;
  private configs = 0;
  private nextBinding = 1;
  private stateOwner = 0;
  private stateKey = '';
  private closed = false;
  /** Kernel runs split across the threads so far (runs kept on the main thread are not counted). */
  jobs = 0;
  /**
   * Told when each kernel run begins, when the main thread has done its own range and waits for the others,
   * and when all are done (for a profile: the join's cost). Unset (the default), it costs one test per run.
   */
  profiler: KernelProfiler | null = null;

  private constructor(threads: number, worldName: string, private readonly minIds: number) {
    this.threads = threads;
    this.worldName = worldName;
  }

  /**
   * Starts `threads − 1` workers (so `threads` threads run kernels), each loading the world from `source` (a
   * Piney field with the shipped tables unless the source gives others) and the kernel modules.
   */
  static async create(source: WorldSource, threads: number, options: SystemPoolOptions = {}): Promise<SystemPool> {
    if (!Number.isInteger(threads) || threads < 1 || threads > MAX_SYSTEM_THREADS) throw new RangeError(`threads must be an integer in 1..${MAX_SYSTEM_THREADS}, got ${threads}`);
    if (!source.options?.pineyTables && detectWorldFile(source.bytes) === 'piney') source = { ...source, options: { ...source.options, pineyTables: defaultPineyTables() } };
    const minIds = options.minIdsPerThread ?? MIN_IDS_PER_THREAD;
    if (!Number.isInteger(minIds) || minIds < 1) throw new RangeError(`minIdsPerThread must be an integer >= 1, got ${minIds}`);
    const pool = new SystemPool(threads, source.name, minIds);
    const url = threads > 1 ? systemWorkerUrl() : null;
    // Each module is sealed once here (its graph hashed, its bytes copied), and every thread imports that copy.
    const kernelModules = threads > 1 ? (options.kernelModules ?? []).map((m) => (isSealedUrl(m) ? m : sealScenarioModule(m).url)) : [];
    const ready: Promise<KernelInfo[]>[] = [];
    for (let t = 1; t < threads; t++) {
      const channel = new MessageChannel();
      const wd: PoolWorkerData = { source, control: pool.control, port: channel.port2, index: t, threads, kernelModules };
      const w = new Worker(url!, { workerData: wd, transferList: [channel.port2 as never] });
      pool.workers.push(w);
      pool.ports.push(channel.port1);
      ready.push(
        new Promise<KernelInfo[]>((resolve, reject) => {
          w.on('message', (m: { type: string; error?: string; kernels?: KernelInfo[] }) => {
            if (m.type === 'ready') resolve(m.kernels!);
            else if (m.type === 'error') reject(new Error(`system worker ${t}: ${m.error}`));
          });
          w.once('error', reject);
          w.once('exit', (code) => reject(new Error(`system worker ${t} exited (code ${code}) before it was ready`)));
        }),
      );
    }
    try {
      const lists = await Promise.all(ready);
      for (const k of lists[0] ?? []) pool.kernels.set(k.name, k);
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  /** Sends a configuration message to every worker (they apply it before their next job). */
  private configure(m: ConfigMessage): void {
    for (const p of this.ports) p.postMessage(m);
    this.configs++;
    Atomics.store(this.control, C.CONFIG, this.configs);
  }

  /**
   * Binds a simulation's world and component stores (on SharedArrayBuffers: a simulation made with the pool
   * has them so). Called by the Simulation; the host it returns runs its systems' kernels on the pool.
   */
  attach(world: CollisionWorld, components: Components): ParallelHost {
    if (this.closed) throw new Error('the system pool is closed');
    if (world.name !== this.worldName) throw new Error(`the system pool was made for the world ${this.worldName}, not for ${world.name}`);
    for (const st of [...components.all, ...components.taskState]) {
      for (const f of st.fieldNames) {
        if (!(st.fields[f]!.buffer instanceof SharedArrayBuffer)) throw new Error(`component ${st.name}.${f} is not on shared memory (make the simulation with { threads } to share its arrays)`);
      }
    }
    const binding = this.nextBinding++;
    const capacity = components.capacity;
    const ids = new Uint32Array(new SharedArrayBuffer(4 * capacity));
    const marks = new Uint32Array(new SharedArrayBuffer(4 * capacity));
    // Marks per chunk.
    const counts = new Int32Array(new SharedArrayBuffer(4 * this.threads * CHUNKS_PER_THREAD));
    if (this.threads > 1) this.configure({ type: 'attach', binding, capacity, stores: [...components.all, ...components.taskState].map(sharedStoreOf), membership: components.membership, ids, marks, counts });
    const pool = this;
    let kernels = 0;
    let detached = false;
    const stateful = world as CollisionWorld & { hashState?(): ArrayLike<number>; saveState?(): unknown };
    const split = (n: number) => pool.threads > 1 && !detached && !pool.closed && n >= pool.minIds * pool.threads;
    // The stage being gathered (KernelRunner.stage): its kernels in the order staged, over ids[0..stagedCount).
    const stagedKernels: RangeKernel[] = [];
    const stagedFns: KernelFunction[] = [];
    const stagedIndices: number[] = [];
    let stagedCount = 0;
    let stagedSet: string | undefined;
    /** Whether `list[0..n)` is the staged id list (already in `ids`). */
    const sameIds = (list: ArrayLike<number>, n: number) => n === stagedCount && (Array.isArray(list) ? sameAsArray(ids, list, n) : sameAsList(ids, list, n));
    const copyIn = (list: ArrayLike<number>, n: number) => {
      if (n > capacity) throw new RangeError(`${n} ids for ${capacity} entity slots`);
      // A typed list (the ascending ids of wander and the controller) is copied in bulk.
      if (list instanceof Uint32Array && list.length >= n) ids.set(list.length === n ? list : list.subarray(0, n));
      else if (Array.isArray(list)) {
        if (list.length === n) ids.set(list);
        else copyArray(ids, list, n);
      }
      else for (let i = 0; i < n; i++) ids[i] = list[i]!;
    };
    const flush = () => {
      const k = stagedKernels.length;
      if (k === 0) return;
      const n = stagedCount;
      const profiler = pool.profiler;
      const name = profiler ? stagedKernels.map((x) => x.name).join(' + ') : '';
      try {
        if (!split(n)) {
          // Kept on this thread (the pool closed or let go since): each kernel over the whole list in turn.
          if (profiler) profiler.kernelStart(name, n, 1);
          runStageChunks(stagedKernels, stagedFns, k, ids, marks, n, 1, 0, () => 1);
          if (profiler) profiler.kernelEnd(name);
          return;
        }
        if (profiler) profiler.kernelStart(name, n, pool.threads);
        if (stateful.hashState && stateful.saveState) pool.syncState(binding, stateful);
        const chunks = chunkCount(n, pool.threads);
        const control = pool.control;
        pool.job(binding, stagedIndices, n, () => {
          runStageChunks(stagedKernels, stagedFns, k, ids, marks, n, chunks, 0, () => Atomics.add(control, C.NEXT, 1));
          if (profiler) profiler.kernelJoin(name);
        });
        if (profiler) profiler.kernelEnd(name);
      } finally {
        stagedKernels.length = 0;
        stagedFns.length = 0;
        stagedIndices.length = 0;
        stagedCount = 0;
        stagedSet = undefined;
      }
    };
    return {
      threads: this.threads,
      runner(kernel: RangeKernel): KernelRunner {
        checkKernel(kernel);
        if (pool.threads > 1) {
          const info = pool.kernels.get(kernel.name);
          if (!info) throw new Error(`range kernel ${kernel.name} is not known to the pool's workers (give its module in SystemPoolOptions.kernelModules)`);
          const same = (a: readonly { name: string }[], b: string[]) => a.length === b.length && a.every((d, i) => d.name === b[i]);
          if (!same(kernel.reads, info.reads) || !same(kernel.writes, info.writes)) throw new Error(`range kernel ${kernel.name} declares other components in the workers' module than here`);
        }
        const fn = kernel.create(world, kernelStores(kernel, capacity, components.byName, components.membership));
        const index = kernels++;
        if (pool.threads > 1) pool.configure({ type: 'kernel', binding, index, name: kernel.name });
        const runner: KernelRunner = {
          run(list: ArrayLike<number>, n: number) {
            // What was staged comes first: this run may read what it writes.
            flush();
            copyIn(list, n);
            const T = pool.threads;
            const profiler = pool.profiler;
            if (!split(n)) {
              if (!profiler) return marks.subarray(0, markCount(kernel, fn(ids, 0, n, marks), n));
              profiler.kernelStart(kernel.name, n, 1);
              const all = marks.subarray(0, markCount(kernel, fn(ids, 0, n, marks), n));
              profiler.kernelEnd(kernel.name);
              return all;
            }
            if (profiler) profiler.kernelStart(kernel.name, n, T);
            if (stateful.hashState && stateful.saveState) pool.syncState(binding, stateful);
            const chunks = chunkCount(n, T);
            const control = pool.control;
            pool.job(binding, index, n, () => {
              // Chunk 0 is this thread's, chunk t worker t's; the rest go to whoever takes them first (see
              // CHUNKS_PER_THREAD). (n ≥ minIds × T ≥ T, so there are at least T chunks.)
              runChunks(kernel, fn, ids, marks, counts, n, chunks, 0, () => Atomics.add(control, C.NEXT, 1));
              if (profiler) profiler.kernelJoin(kernel.name);
            });
            // The chunks' marks, in chunk order (each chunk wrote its own at its start): the order of the ids.
            let k = 0;
            for (let c = 0; c < chunks; c++) {
              const [start] = rangeFor(n, chunks, c);
              const m = counts[c]!;
              if (m > 0 && start !== k) marks.copyWithin(k, start, start + m);
              k += m;
            }
            if (profiler) profiler.kernelEnd(kernel.name);
            return marks.subarray(0, k);
          },
          stage(list: ArrayLike<number>, n: number, sameSet?: string) {
            // A kernel that may read other entities, or a run too small to split, runs now (after what is staged).
            if (kernel.ownEntityOnly !== true || !split(n)) {
              if (runner.run(list, n).length !== 0) throw new Error(`range kernel ${kernel.name} marked ids in a stage (a staged kernel must mark none)`);
              return;
            }
            if (stagedKernels.length > 0) {
              const joins = n === stagedCount && ((sameSet !== undefined && sameSet === stagedSet) || sameIds(list, n));
              if (!joins || stagedKernels.length >= MAX_STAGE_KERNELS) flush();
            }
            if (stagedKernels.length === 0) {
              copyIn(list, n);
              stagedCount = n;
              stagedSet = sameSet;
            }
            stagedKernels.push(kernel);
            stagedFns.push(fn);
            stagedIndices.push(index);
          },
        };
        return runner;
      },
      flush,
      dropStaged() {
        stagedKernels.length = 0;
        stagedFns.length = 0;
        stagedIndices.length = 0;
        stagedCount = 0;
        stagedSet = undefined;
      },
      detach() {
        if (detached) return;
        flush();
        detached = true;
        if (pool.threads > 1 && !pool.closed) pool.configure({ type: 'detach', binding });
      },
    };
  }

  /** Sends the world's run-time state when the workers hold another simulation's or an older one. */
  private syncState(binding: number, world: { hashState?(): ArrayLike<number>; saveState?(): unknown }): void {
    const key = Array.from(world.hashState!()).join(',');
    if (binding === this.stateOwner && key === this.stateKey) return;
    this.configure({ type: 'state', state: world.saveState!() });
    this.stateOwner = binding;
    this.stateKey = key;
  }

  /** Wakes the workers for a job, runs this thread's range, and blocks until every worker is done. */
  private job(binding: number, kernel: number | readonly number[], count: number, mine: () => void): void {
    const c = this.control;
    const T = this.threads;
    Atomics.store(c, C.BINDING, binding);
    if (typeof kernel === 'number') {
      Atomics.store(c, C.KERNEL, kernel);
      Atomics.store(c, C.STAGE, 0);
    } else {
      for (let k = 0; k < kernel.length; k++) Atomics.store(c, C.STAGE_KERNELS + k, kernel[k]!);
      Atomics.store(c, C.KERNEL, kernel[0]!);
      Atomics.store(c, C.STAGE, kernel.length);
    }
    Atomics.store(c, C.COUNT, count);
    Atomics.store(c, C.DONE, 0);
    // Chunks 0..T−1 are the threads' own; the others are taken from T on.
    Atomics.store(c, C.NEXT, T);
    this.jobs++;
    Atomics.add(c, C.GENERATION, 1);
    Atomics.notify(c, C.GENERATION);
    let failure: unknown = null;
    try {
      mine();
    } catch (e) {
      failure = e;
    }
    // This thread blocks (a worker that died cannot say so by a message): give up after
    // SYSTEM_JOIN_TIMEOUT_MS with no progress instead of waiting forever.
    let quiet = 0;
    for (;;) {
      const done = Atomics.load(c, C.DONE);
      if (done >= T - 1) break;
      if (Atomics.wait(c, C.DONE, done, 100) === 'timed-out') {
        if ((quiet += 100) >= SYSTEM_JOIN_TIMEOUT_MS) throw new Error(`system workers did not finish a job within ${SYSTEM_JOIN_TIMEOUT_MS} ms`);
      } else quiet = 0;
    }
    const bad = Atomics.load(c, C.ERROR);
    if (bad !== 0) {
      const m = receiveMessageOnPort(this.ports[bad - 1]!)?.message as { error?: string; refused?: { call: string; kernel: string } } | undefined;
      // A kernel refused by the determinism guard fails the step (a scenario error naming the system); the
      // workers are sound, so the pool goes on serving.
      if (m?.refused) {
        Atomics.store(c, C.ERROR, 0);
        throw failure ?? refusalFromThread(m.refused.call, `in its range kernel ${m.refused.kernel}, on system worker ${bad}`);
      }
      this.closed = true;
      throw failure ?? new Error(`system worker ${bad} failed: ${m?.error ?? 'unknown error'} (the pool is closed; the simulation's state is no longer the one-thread state)`);
    }
    if (failure) throw failure;
  }

  /** Stops the workers. Simulations attached to the pool go on, their kernels on the main thread. Closing twice does nothing. */
  async close(): Promise<void> {
    if (this.workers.length === 0 || Atomics.load(this.control, C.STOP) !== 0) {
      this.closed = true;
      return;
    }
    this.closed = true;
    Atomics.store(this.control, C.STOP, 1);
    Atomics.add(this.control, C.GENERATION, 1);
    Atomics.notify(this.control, C.GENERATION);
    for (const p of this.ports) p.close();
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
