/**
 * A pool of worker threads that run batch jobs, one job per thread at a time: the embedded default of
 * `retrosim batch` (no queue needed), and what a `retrosim worker` process runs its queue's jobs on (so
 * its own thread stays free to keep its Redis locks alive).
 *
 * A thread is sent each input once (by SHA-256) and keeps it; a replay to verify, used by one job only,
 * is dropped after its job. A scenario module is not sent: a thread is told the path of the module a job
 * names, from the pool's allow-list (`scenarios`), and loads it from there; a job naming a module graph
 * not on the list fails in the thread with a message saying so. A thread that dies (a crash) fails its job
 * and is replaced; an aborted job's thread is terminated and replaced, and so is the thread of a job that
 * runs past its time limit (`maxSeconds`: wall time on this side, from when the thread gets the job; the
 * thread and the simulation never see a clock, so the limit cannot change a result).
 *
 * Memory (`maxMemoryMiB`): a thread is started with its job's limit as its V8 heap limit (`resourceLimits`;
 * a job with another limit gets a new thread), and the thread checks its heap and the memory outside it
 * (ArrayBuffers...) between frames and at the end (memory-limit.ts). A job over its limit, either way, fails
 * with JobMemoryLimitError and its thread is replaced, so that what it held is freed.
 * A thread that asks to retire after a job (pool-thread.ts: its most scenario module instances made, or a
 * job that left a timer running) is replaced too. Threads start with the process's environment less the batch
 * key's variables (key-env.ts `threadEnv`): they run scenario modules, and never get the key.
 */
import { Worker } from 'node:worker_threads';
import { threadEnv } from './key-env.js';
import { payloadBlobs, type JobPayload } from './payload.js';
import { DEFAULT_MAX_MEMORY_MIB, DEFAULT_MAX_SECONDS } from './schema.js';
import { threadUrl } from './thread-url.js';

/** What the pool sends a thread. */
export interface ThreadRequest {
  id: number;
  payload: JobPayload;
  /** Inputs the thread does not have yet: [sha256, bytes]. */
  blobs: [string, Uint8Array][];
  /** Inputs to drop after this job. */
  forget: string[];
  /** Scenario modules the thread may now run: [module graph hash, absolute path]. */
  scenarios?: [string, string][];
}

/**
 * What a thread answers: the result body as JSON text, or one line saying what failed (`memory` when the
 * job was over its memory limit: the pool replaces the thread). `retire` asks the pool to replace the thread
 * after this job (it has made its most scenario module instances, or a job left something behind in it that
 * could reach the next job).
 */
export type ThreadAnswer =
  | { id: number; ok: true; body: string; replay: Uint8Array | null; seconds: number; framesPerSecond: number; retire?: string }
  | { id: number; ok: false; error: string; memory?: true; retire?: string };

/** Most threads a pool takes. */
export const MAX_POOL_THREADS = 256;

/** A job given up because its caller aborted it (the thread was terminated). */
export class JobAbortedError extends Error {
  override readonly name = 'JobAbortedError';
}

/** A job stopped at its time limit (the thread was terminated); not worth another attempt. */
export class JobTimeLimitError extends Error {
  override readonly name = 'JobTimeLimitError';
  constructor(readonly seconds: number) {
    super(`stopped after its time limit of ${seconds} s (maxSeconds)`);
  }
}

/**
 * A job stopped over its memory limit (`maxMemoryMiB`; its thread was replaced); not worth another attempt.
 * The message gives the figure measured and the limit.
 */
export class JobMemoryLimitError extends Error {
  override readonly name = 'JobMemoryLimitError';
}

interface Slot {
  worker: Worker | null;
  /** The V8 heap limit its thread was started with, MiB (its jobs' `maxMemoryMiB`). */
  memoryMiB: number;
  busy: boolean;
  blobs: Set<string>;
  /** Module graph hashes whose paths the thread has been told. */
  scenarios: Set<string>;
  settle: ((a: ThreadAnswer | Error) => void) | null;
}

export class ThreadPool {
  private readonly slots: Slot[] = [];
  private readonly queue: ((s: Slot) => void)[] = [];
  private nextId = 1;
  private closed = false;
  private readonly url = threadUrl('pool-thread.js');
  /** The scenario modules its threads may run: module graph hash -> absolute path (see the module comment). */
  readonly scenarios = new Map<string, string>();

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1 || size > MAX_POOL_THREADS) throw new RangeError(`a pool has 1..${MAX_POOL_THREADS} threads, not ${size}`);
    for (let i = 0; i < size; i++) this.slots.push({ worker: null, memoryMiB: 0, busy: false, blobs: new Set(), scenarios: new Set(), settle: null });
  }

  /** Jobs running now. */
  get busy(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  private spawn(slot: Slot, memoryMiB: number): Worker {
    // Scenario code runs on the thread: it gets no batch key variable in its environment.
    const w = new Worker(this.url, { env: threadEnv(), resourceLimits: { maxOldGenerationSizeMb: memoryMiB } });
    slot.blobs = new Set();
    slot.scenarios = new Set();
    slot.memoryMiB = memoryMiB;
    w.on('message', (a: ThreadAnswer) => {
      if (slot.worker === w) slot.settle?.(a);
    });
    // Only the slot's current thread settles its job: one terminated and replaced (a time or memory limit, an
    // abort) still sends its 'exit' later, when the slot may be running its next job on a new thread.
    w.on('error', (e) => {
      if (slot.worker !== w) return;
      slot.worker = null;
      if ((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        slot.settle?.(new JobMemoryLimitError(`stopped when its V8 heap reached its limit of ${memoryMiB} MiB (maxMemoryMiB)`));
      } else slot.settle?.(new Error(`the worker thread stopped: ${e.message.split('\n')[0]}`));
    });
    w.on('exit', (code) => {
      if (slot.worker !== w) return;
      slot.worker = null;
      slot.settle?.(new Error(`the worker thread exited (code ${code})`));
    });
    slot.worker = w;
    return w;
  }

  private acquire(): Promise<Slot> {
    if (this.closed) return Promise.reject(new Error('the pool is closed'));
    const free = this.slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private release(slot: Slot): void {
    const next = this.queue.shift();
    if (next) next(slot);
    else slot.busy = false;
  }

  /**
   * Runs one attempt of a job on a free thread (waiting for one). `blob` gives an input's bytes by
   * SHA-256; `started` is called when a thread has been found for it (a job may wait for one). Resolves with
   * the thread's answer; rejects when the thread dies (an Error saying so), when `signal` aborts
   * (JobAbortedError, after terminating the thread), when the job runs past its `maxSeconds`
   * (JobTimeLimitError, likewise) or when it is over its `maxMemoryMiB` (JobMemoryLimitError, the thread
   * replaced).
   */
  async run(payload: JobPayload, blob: (sha256: string) => Uint8Array, signal?: AbortSignal, started?: () => void): Promise<ThreadAnswer> {
    const slot = await this.acquire();
    try {
      if (signal?.aborted) throw new JobAbortedError('aborted before it started');
      started?.();
      const memoryMiB = payload.maxMemoryMiB ?? DEFAULT_MAX_MEMORY_MIB;
      if (slot.worker && slot.memoryMiB !== memoryMiB) {
        // A thread's heap limit is set when it starts: a job with another limit gets a new thread.
        void slot.worker.terminate();
        slot.worker = null;
      }
      const w = slot.worker ?? this.spawn(slot, memoryMiB);
      const once = payload.kind === 'verify' ? payload.replay.sha256 : null;
      const send: [string, Uint8Array][] = [];
      for (const ref of payloadBlobs(payload)) {
        if (slot.blobs.has(ref.sha256) || send.some(([s]) => s === ref.sha256)) continue;
        send.push([ref.sha256, blob(ref.sha256)]);
      }
      const graph = payload.scenario && 'graph' in payload.scenario ? payload.scenario.graph : null;
      const path = graph === null || slot.scenarios.has(graph) ? undefined : this.scenarios.get(graph);
      const scenarios: [string, string][] = path === undefined ? [] : [[graph!, path]];
      const id = this.nextId++;
      const limit = payload.maxSeconds ?? DEFAULT_MAX_SECONDS;
      const answer = await new Promise<ThreadAnswer | Error>((resolve) => {
        const stop = (e: Error) => {
          slot.settle = null;
          slot.worker = null;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          void w.terminate();
          resolve(e);
        };
        const onAbort = () => stop(new JobAbortedError('aborted'));
        const timer = setTimeout(() => stop(new JobTimeLimitError(limit)), limit * 1000);
        slot.settle = (a) => {
          if (!(a instanceof Error) && a.id !== id) return;
          slot.settle = null;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(a);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const req: ThreadRequest = { id, payload, blobs: send, forget: once ? [once] : [], scenarios };
        w.postMessage(req);
        for (const [g] of scenarios) slot.scenarios.add(g);
        for (const [sha] of send) if (sha !== once) slot.blobs.add(sha);
      });
      if (answer instanceof Error) {
        if (slot.worker === w && !(answer instanceof JobAbortedError) && !(answer instanceof JobTimeLimitError)) {
          slot.worker = null;
          void w.terminate();
        }
        throw answer;
      }
      if (!answer.ok && answer.memory) {
        // What the job held (at module level too) goes with its thread.
        if (slot.worker === w) slot.worker = null;
        void w.terminate();
        throw new JobMemoryLimitError(answer.error);
      }
      if (answer.retire !== undefined && slot.worker === w) {
        // A fresh thread for the next job: nothing of this one's modules or leftovers reaches it.
        slot.worker = null;
        void w.terminate();
      }
      return answer;
    } finally {
      this.release(slot);
    }
  }

  /** Stops every thread (a job still running is cut off). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker?.terminate()));
    for (const s of this.slots) s.worker = null;
  }
}
