/**
 * What the batch on a queue and its workers agree on (redis-queue.ts, redis-worker.ts, queue-admin.ts): the
 * names of the Redis keys beside BullMQ's, a job's BullMQ id, and a worker's answer for a job with what its
 * signature covers.
 */
import { DEFAULT_LIMITS } from '../limits.js';

/** Where a batch's inputs, kept replays, cancel counter, replay holders and refusal notes are in Redis. */
/** How long inputs and kept replays stay in Redis unless refreshed, seconds. */
export const BLOB_TTL_SECONDS = 7 * 24 * 3600;

export const blobKey = (queue: string, sha256: string) => `retrosim:${queue}:blob:${sha256}`;
export const replayKey = (queue: string, jobKey: string) => `retrosim:${queue}:replay:${jobKey}`;
export const cancelKey = (queue: string) => `retrosim:${queue}:cancel`;
/** The set of batch runs that still need a replay to verify (see redis-queue.ts). */
export const holdersKey = (queue: string, sha256: string) => `retrosim:${queue}:holders:${sha256}`;

/**
 * The longest return value the batch reads from a finished job, characters: a result body at its limit
 * (limits.batch.resultBytes) escaped in JSON, with room for the rest of a worker's answer.
 */
export const MAX_RETURN_CHARS = 8 * DEFAULT_LIMITS.batch.resultBytes + 64 * 1024;

/** A field of a job's BullMQ hash: how many times workers of other code took the job and put it back unrun. */
export const HANDED_BACK_FIELD = 'retrosimHandedBack';

/** A stream of jobs refused by workers of other code (fields job, worker, reason), for coordinators to tell. */
export const refusalsKey = (queue: string) => `retrosim:${queue}:refusals`;

/** A job's BullMQ id: its key with a letter in front (BullMQ refuses ids that read as integers). */
export const jobId = (key: string) => `j${key}`;

/** What a worker returns for a job (the queue stores it as the job's return value). */
export interface WorkerReturn {
  body: string;
  seconds: number;
  framesPerSecond: number;
  /** A kept replay, put in Redis under `replayKey`. */
  replay: { sha256: string; bytes: number } | null;
  worker: string;
  /** With a key: the MAC of `resultMacInput` of this return value. */
  mac?: string;
}

/**
 * What a worker's result MAC covers: the job's key (so a result cannot be moved to another job), the runtime
 * hash it was planned with, and every field of the return value the coordinator uses.
 */
export function resultMacInput(key: string, runtimeHash: string, r: Omit<WorkerReturn, 'mac'>): Record<string, unknown> {
  return { key, runtimeHash, body: r.body, replay: r.replay, worker: r.worker, seconds: r.seconds, framesPerSecond: r.framesPerSecond };
}
