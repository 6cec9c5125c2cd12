/**
 * How a batch's jobs get run: an Executor takes the jobs that need running and reports each one's outcome
 * as it finishes, in whatever order. Two exist: local threads (local-executor.ts) and a BullMQ queue on
 * Redis (redis-queue.ts, loaded only when `--redis` is given).
 */
import type { BlobStore } from './blobs.js';
import type { PlannedJob } from './plan.js';

/** How one job ended. `body` is the result's JSON text, checked and written by the coordinator (result-check.ts). */
export interface Outcome {
  status: 'done' | 'failed';
  body?: string;
  error?: string;
  /** The kept replay's bytes, when the job keeps one. */
  replay?: Uint8Array | null;
  /** Attempts started (1 when it ran once; a retry or a recovered stalled job adds one). */
  attempts: number;
  seconds?: number;
  framesPerSecond?: number;
  /** Which worker ran it (a thread number, or a worker process's name). */
  worker?: string;
}

/** What an executor tells the coordinator while it works. */
export interface ExecutorEvents {
  /** A job finished, done or failed after its retries. */
  outcome(job: PlannedJob, o: Outcome): void;
  /** An attempt failed and the job will be tried again (or a stalled job was handed to another worker). */
  retry(job: PlannedJob, reason: string): void;
  /** Something to tell the user (a lost connection, a worker seen). */
  note(line: string): void;
  /**
   * An answer refused: a worker's result the coordinator would not take (`by` "coordinator": not signed,
   * not the result schema...), or a job a worker would not run (`by` "worker": not signed with its key, of
   * other code). `reason` is one line saying who and why. A retry or the job's failure is reported beside it.
   */
  refused?(job: PlannedJob, by: 'coordinator' | 'worker', reason: string): void;
}

export interface Executor {
  /** "local" or "redis". */
  readonly mode: string;
  /** Workers it runs on (threads, or worker processes seen). */
  workers(): number;
  /** On a queue: whether jobs and results are signed with a key (undefined for local threads). */
  readonly signed?: boolean;
  /**
   * Runs `jobs` (distinct keys), each up to `retries` + 1 attempts, reporting through `events`. Resolves
   * when every job has an outcome; rejects when it cannot go on (then the outcomes so far stand).
   */
  run(jobs: PlannedJob[], blobs: BlobStore, retries: number, events: ExecutorEvents, signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}
