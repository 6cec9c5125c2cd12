/**
 * The same line-of-sight batches split across worker_threads. Every thread (this one and `threads − 1`
 * workers) loads its own copy of the world from the same bytes, and takes one contiguous slice of the batch;
 * the slices are fixed by (count, threads) alone, and each segment's answer depends only on the world and the
 * segment, so the answers are identical to `losBatch` on one thread, whatever the timing.
 *
 * Segments and answers travel through SharedArrayBuffers, and the threads are woken and joined with
 * Atomics (no message per batch), so a batch costs two wake-ups, not copies.
 *
 * A world with run-time state (Llama tile swaps) must have the same state in every thread: call
 * `setWorldState(world.saveState())` after it changes.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { detectWorldFile, loadWorldBytes, type LoadWorldOptions } from '../worlds/load.js';
import type { CollisionWorld } from '../worlds/world.js';
import { losBatch, SEGMENT_STRIDE, type LosOutput } from '../systems/los/los-batch.js';
import { PairRowsCaster, pairRowSlice } from '../systems/los/pair-rows.js';
import { defaultPineyTables } from './assets.js';

/** What every thread loads its world from. */
export interface WorldSource {
  bytes: Uint8Array;
  name: string;
  options?: LoadWorldOptions;
}

/** Control words (Int32Array over a SharedArrayBuffer). */
export const CTRL_GENERATION = 0;
export const CTRL_COUNT = 1;
export const CTRL_DONE = 2;
export const CTRL_STOP = 3;
export const CTRL_ERROR = 4;
/** What a wake-up asks: JOB_BATCH (cast the shared segments) or JOB_MATRIX (walk and cast slices of rows). */
export const CTRL_JOB = 5;
/** For JOB_MATRIX: room for answers per thread. */
export const CTRL_CAPACITY = 6;
export const CTRL_WORDS = 8;
export const JOB_BATCH = 0;
export const JOB_MATRIX = 1;

/** How long a batch may go without any worker finishing before the pool gives up on it. */
export const JOIN_TIMEOUT_MS = 30_000;

/** Most threads a pool takes. */
export const MAX_LOS_THREADS = 64;

/** Slice [start, end) of `count` segments for thread `t` of `threads`: contiguous, sizes differing by at most one. */
export function sliceFor(count: number, threads: number, t: number): [number, number] {
  const base = Math.floor(count / threads);
  const extra = count % threads;
  const start = t * base + Math.min(t, extra);
  return [start, start + base + (t < extra ? 1 : 0)];
}

/**
 * Buffers of the matrix job, shared with the workers (replaced, and re-sent, when more agents or answers
 * come): the agents' feet, the eye height and range, each thread's answers (thread t's from t × capacity)
 * and each thread's pair count.
 */
interface MatrixShared {
  agents: number;
  capacity: number;
  feet: Float64Array;
  params: Float64Array;
  visible: Uint8Array;
  fraction: Float64Array;
  counts: Int32Array;
}

/** The answers of the last matrix: `count` pairs, in pair order (the order of `pairSegments`). */
export interface MatrixAnswers {
  count: number;
  visible: Uint8Array;
  fraction: Float64Array;
}

/** Buffers shared with the workers (replaced, and re-sent, when a bigger batch comes). */
interface Shared {
  capacity: number;
  segments: Float64Array;
  visible: Uint8Array;
  fraction: Float64Array;
}

/**
 * The compiled worker next to this module; when running from TypeScript source (tests), the compiled one
 * in dist/ (worker files must be JS: `npm test` builds first).
 */
export function workerUrl(): URL {
  const here = new URL('./los-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const path = fileURLToPath(here);
  const compiled = path.replace(/([\\/])src([\\/]node[\\/]los-worker\.js)$/, '$1dist$1src$2');
  if (compiled !== path && existsSync(compiled)) return pathToFileURL(compiled);
  throw new Error(`the compiled LOS worker is missing (${path}); build first: npx tsc -p tsconfig.build.json`);
}

/**
 * Line of sight on worker threads: the same answers as `losBatch`, the batch split into one contiguous slice per
 * thread. Each thread loads its own copy of the world from the same bytes. Close it when done.
 *
 * A pool takes one call at a time: await each asynchronous call (`run`, `matrix`, `reserve`,
 * `setWorldState`) before the next; a call made while one is under way is refused with an error (it would
 * cast into buffers the workers do not have yet). After a failure that leaves the workers out of step (a
 * worker exited, or did not finish a batch in time) every call is refused; make a new pool.
 *
 * @example
 * ```ts
 * const pool = await LosPool.create({ bytes, name: 'town.col' }, 4);
 * const out = newLosOutput(count);
 * await pool.run(segments, out);
 * await pool.close();
 * ```
 */
export class LosPool {
  readonly threads: number;
  /** This thread's own copy of the world (it computes slice 0). */
  readonly world: CollisionWorld;
  private readonly workers: Worker[] = [];
  private readonly control = new Int32Array(new SharedArrayBuffer(CTRL_WORDS * 4));
  private shared: Shared = { capacity: 0, segments: new Float64Array(0), visible: new Uint8Array(0), fraction: new Float64Array(0) };
  private matrixShared: MatrixShared | null = null;
  private readonly rows = new PairRowsCaster();
  /** The answers of the last `matrix` (pool-owned, grown as needed). */
  readonly answers: MatrixAnswers = { count: 0, visible: new Uint8Array(0), fraction: new Float64Array(0) };
  private closed = false;
  /**
   * Set while an asynchronous call (new buffers or state on their way to the workers, a matrix) is under way:
   * the pool takes one call at a time, and refuses another meanwhile.
   */
  private busy = false;
  /** Why the pool can no longer be trusted (a worker gone, or a batch not joined), or null. */
  private broken: string | null = null;

  private constructor(world: CollisionWorld, threads: number) {
    this.world = world;
    this.threads = threads;
  }

  /** Starts `threads − 1` workers (so `threads` threads compute), each loading the world from `source`. */
  static async create(source: WorldSource, threads: number): Promise<LosPool> {
    if (!Number.isInteger(threads) || threads < 1 || threads > MAX_LOS_THREADS) throw new RangeError(`threads must be an integer in 1..${MAX_LOS_THREADS}, got ${threads}`);
    // A Piney field is generated with the field tables: the shipped ones unless the source gives its own.
    if (!source.options?.pineyTables && detectWorldFile(source.bytes) === 'piney') source = { ...source, options: { ...source.options, pineyTables: defaultPineyTables() } };
    const pool = new LosPool(loadWorldBytes(source.bytes, source.name, source.options), threads);
    const url = threads > 1 ? workerUrl() : null;
    const ready: Promise<void>[] = [];
    for (let t = 1; t < threads; t++) {
      const w = new Worker(url!, { workerData: { source, control: pool.control, index: t, threads } });
      pool.workers.push(w);
      w.once('exit', (code) => {
        if (!pool.closed) pool.broken ??= `LOS worker ${t} exited (code ${code})`;
      });
      ready.push(
        new Promise<void>((resolve, reject) => {
          const onMessage = (m: { type: string; error?: string }) => {
            if (m.type === 'ready') {
              w.off('error', reject);
              resolve();
            } else if (m.type === 'error') reject(new Error(`LOS worker ${t}: ${m.error}`));
          };
          w.on('message', onMessage);
          w.once('error', reject);
        }),
      );
    }
    try {
      await Promise.all(ready);
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  /**
   * Sends a message to every worker and waits for each to answer `type`. A worker that fails to, or exits
   * first, leaves the workers with different buffers or states: the pool is then broken.
   */
  private async broadcast(message: Record<string, unknown>, answer: string): Promise<void> {
    try {
      await Promise.all(
        this.workers.map(
          (w) =>
            new Promise<void>((resolve, reject) => {
              const settle = (error: Error | null) => {
                w.off('message', on);
                w.off('exit', onExit);
                if (error) reject(error);
                else resolve();
              };
              const on = (m: { type: string; error?: string }) => {
                if (m.type === answer) settle(null);
                else if (m.type === 'error') settle(new Error(`LOS worker: ${m.error}`));
              };
              const onExit = (code: number) => settle(new Error(`LOS worker exited (code ${code}) before answering '${answer}'`));
              w.on('message', on);
              w.on('exit', onExit);
              w.postMessage(message);
            }),
        ),
      );
    } catch (e) {
      if (!this.closed) this.broken ??= (e as Error).message;
      throw e;
    }
  }

  /** Throws when the pool is closed or broken (checked again after every wait for the workers' answers). */
  private usable(): void {
    if (this.closed) throw new Error('the LOS pool is closed');
    if (this.broken !== null) throw new Error(`the LOS pool cannot be used after a failure: ${this.broken}`);
  }

  /** Throws when the pool cannot take a call now: closed, broken, or another call under way. */
  private check(): void {
    this.usable();
    if (this.busy) throw new Error('another call of this LOS pool is under way: await it first (a pool takes one call at a time)');
  }

  /**
   * Makes room for `count` segments in the shared buffers (re-sends them to the workers when they grow).
   * The pool takes no other call until this one is done.
   */
  async reserve(count: number): Promise<void> {
    this.check();
    this.busy = true;
    try {
      await this.grow(count);
    } finally {
      this.busy = false;
    }
  }

  /** `reserve`'s work. The new buffers are the pool's once every worker has them. */
  private async grow(count: number): Promise<void> {
    if (count <= this.shared.capacity) return;
    const capacity = Math.max(count, 2 * this.shared.capacity, 1024);
    const s: Shared = {
      capacity,
      segments: new Float64Array(new SharedArrayBuffer(capacity * SEGMENT_STRIDE * 8)),
      visible: new Uint8Array(new SharedArrayBuffer(capacity)),
      fraction: new Float64Array(new SharedArrayBuffer(capacity * 8)),
    };
    await this.broadcast({ type: 'buffers', segments: s.segments, visible: s.visible, fraction: s.fraction }, 'buffers');
    this.shared = s;
  }

  /** Puts the same run-time state (e.g. Llama tile swaps) into every thread's world. */
  async setWorldState(state: unknown): Promise<void> {
    this.check();
    const w = this.world as CollisionWorld & { restoreState?(s: unknown): void };
    if (!w.restoreState) return;
    this.busy = true;
    try {
      w.restoreState(state);
      await this.broadcast({ type: 'state', state }, 'state');
    } finally {
      this.busy = false;
    }
  }

  /** The shared segment buffer, for callers that write segments in place (then call `runShared`). */
  get segmentBuffer(): Float64Array {
    return this.shared.segments;
  }

  /** Casts `count` segments (from `segments`) across the threads; answers into `out` (as `losBatch` would). */
  async run(segments: Float64Array, out: LosOutput, count = Math.floor(segments.length / SEGMENT_STRIDE)): Promise<void> {
    this.check();
    this.busy = true;
    try {
      await this.grow(count);
      this.usable();
      this.shared.segments.set(segments.subarray(0, count * SEGMENT_STRIDE));
      this.cast(count, out);
    } finally {
      this.busy = false;
    }
  }

  /**
   * Casts the first `count` segments already in `segmentBuffer` (reserve first), blocking this thread until
   * every slice is done. Synchronous, so a system can use it inside a frame.
   */
  runShared(count: number, out: LosOutput): void {
    this.check();
    this.cast(count, out);
  }

  /** `runShared`'s work. */
  private cast(count: number, out: LosOutput): void {
    const s = this.shared;
    if (count > s.capacity) throw new RangeError(`${count} segments but room for ${s.capacity}: reserve first`);
    if (out.visible.length < count || out.fraction.length < count) throw new RangeError(`output arrays hold fewer than ${count} answers`);
    const T = this.threads;
    this.wake(JOB_BATCH, count, 0);
    let failed = false;
    let failure: unknown;
    try {
      const [a, b] = sliceFor(count, T, 0);
      const mine: LosOutput = { visible: s.visible, fraction: s.fraction };
      losBatch(this.world, s.segments, mine, a, b);
    } catch (e) {
      failed = true;
      failure = e;
    }
    this.join();
    if (failed) throw failure;
    out.visible.set(s.visible.subarray(0, count));
    out.fraction.set(s.fraction.subarray(0, count));
  }

  /** Starts the workers on a job. */
  private wake(job: number, count: number, capacity: number): void {
    if (this.threads === 1) return;
    const c = this.control;
    Atomics.store(c, CTRL_JOB, job);
    Atomics.store(c, CTRL_COUNT, count);
    Atomics.store(c, CTRL_CAPACITY, capacity);
    Atomics.store(c, CTRL_ERROR, 0);
    Atomics.store(c, CTRL_DONE, 0);
    Atomics.add(c, CTRL_GENERATION, 1);
    Atomics.notify(c, CTRL_GENERATION);
  }

  /**
   * Waits for every worker to finish the job (call it after every `wake`, whatever this thread's own slice
   * did: a worker still casting when the next job comes would be counted done for it). This thread blocks
   * (so a worker that died cannot tell it by a message): it gives up after JOIN_TIMEOUT_MS with no progress
   * instead of waiting forever, and the pool is then broken, as its workers may still be casting.
   */
  private join(): void {
    const T = this.threads;
    if (T === 1) return;
    const c = this.control;
    let quiet = 0;
    for (;;) {
      const done = Atomics.load(c, CTRL_DONE);
      if (done >= T - 1) break;
      if (Atomics.wait(c, CTRL_DONE, done, 100) === 'timed-out' && (quiet += 100) >= JOIN_TIMEOUT_MS) {
        this.broken ??= `LOS workers did not finish a batch within ${JOIN_TIMEOUT_MS} ms`;
        throw new Error(`LOS workers did not finish a batch within ${JOIN_TIMEOUT_MS} ms`);
      } else if (Atomics.load(c, CTRL_DONE) !== done) quiet = 0;
    }
    if (Atomics.load(c, CTRL_ERROR) !== 0) throw new Error('a LOS worker failed during a batch');
  }

  /** Makes room in the matrix buffers for `agents` agents and `capacity` answers per thread. */
  private async reserveMatrix(agents: number, capacity: number): Promise<MatrixShared> {
    const m = this.matrixShared;
    if (m && agents <= m.agents && capacity <= m.capacity) return m;
    const a = Math.max(agents, m ? m.agents : 0, 64);
    const cap = Math.max(capacity, m ? m.capacity : 0, 1024);
    const T = this.threads;
    const next: MatrixShared = {
      agents: a,
      capacity: cap,
      feet: new Float64Array(new SharedArrayBuffer(a * 3 * 8)),
      params: new Float64Array(new SharedArrayBuffer(2 * 8)),
      visible: new Uint8Array(new SharedArrayBuffer(T * cap)),
      fraction: new Float64Array(new SharedArrayBuffer(T * cap * 8)),
      counts: new Int32Array(new SharedArrayBuffer(T * 4)),
    };
    await this.broadcast({ type: 'matrix', feet: next.feet, params: next.params, visible: next.visible, fraction: next.fraction, counts: next.counts }, 'matrix');
    this.matrixShared = next;
    return next;
  }

  /**
   * Line of sight between every pair of the first `n` agents within `range` (eyes `eyeHeight` above the feet,
   * as `pairSegments` makes them), walked and cast on every thread at once: each takes a slice of rows
   * (`pairRowSlice`). The answers, in pair order, exactly those of `pairSegments` and then `losBatch` on one
   * thread, are in `answers` (count, visible, fraction) until the next call.
   */
  async matrix(feet: ArrayLike<number>, n: number, eyeHeight: number, range: number): Promise<MatrixAnswers> {
    this.check();
    if (!Number.isInteger(n) || n < 0 || feet.length < 3 * n) throw new RangeError(`need 3 numbers per agent for ${n} agents, got ${feet.length}`);
    this.busy = true;
    try {
      return await this.castMatrix(feet, n, eyeHeight, range);
    } finally {
      this.busy = false;
    }
  }

  /** `matrix`'s work. */
  private async castMatrix(feet: ArrayLike<number>, n: number, eyeHeight: number, range: number): Promise<MatrixAnswers> {
    const T = this.threads;
    let m = await this.reserveMatrix(n, this.matrixShared?.capacity ?? 1024);
    for (;;) {
      this.usable();
      for (let i = 0; i < 3 * n; i++) m.feet[i] = feet[i]!;
      m.params[0] = eyeHeight;
      m.params[1] = range;
      this.wake(JOB_MATRIX, n, m.capacity);
      let failed = false;
      let failure: unknown;
      try {
        const [a, b] = pairRowSlice(n, T, 0);
        m.counts[0] = this.rows.run(this.world, m.feet, n, eyeHeight, range, a, b, m.visible, m.fraction, m.capacity);
      } catch (e) {
        failed = true;
        failure = e;
      }
      this.join();
      if (failed) throw failure;
      let most = 0;
      for (let t = 0; t < T; t++) if (m.counts[t]! > most) most = m.counts[t]!;
      if (most <= m.capacity) break;
      // A slice had more pairs than room: make room (a quarter more) and cast again.
      m = await this.reserveMatrix(n, Math.ceil(most * 1.25));
    }
    let total = 0;
    for (let t = 0; t < T; t++) total += m.counts[t]!;
    const ans = this.answers;
    if (ans.visible.length < total) {
      ans.visible = new Uint8Array(Math.max(total, 2 * ans.visible.length));
      ans.fraction = new Float64Array(ans.visible.length);
    }
    let at = 0;
    for (let t = 0; t < T; t++) {
      const k = m.counts[t]!;
      const from = t * m.capacity;
      ans.visible.set(m.visible.subarray(from, from + k), at);
      ans.fraction.set(m.fraction.subarray(from, from + k), at);
      at += k;
    }
    ans.count = total;
    return ans;
  }

  /** Stops the workers; the pool cannot be used afterwards. Closing twice does nothing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    Atomics.store(this.control, CTRL_STOP, 1);
    Atomics.add(this.control, CTRL_GENERATION, 1);
    Atomics.notify(this.control, CTRL_GENERATION);
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
