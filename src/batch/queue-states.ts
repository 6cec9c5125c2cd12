/**
 * Where a batch's jobs are on the BullMQ queue, asked of Redis for many jobs in one pipeline (the batch's
 * sweep, and its check of what an earlier run left on the queue), not a script call per job as BullMQ's
 * getJobState is.
 */
import type { Queue } from 'bullmq';
import type { Redis as RedisClient } from 'ioredis';

/** Where a job is, as far as a batch needs to know: finished (either way), on the queue still, or not there. */
export type QueuedState = 'completed' | 'failed' | 'queued' | 'unknown';

/**
 * The states of jobs by id, in one pipeline: each job's score in the queue's completed and failed sets
 * (BullMQ's sorted sets of finished job ids, `queue.keys`) and whether its hash exists. A job in neither
 * set whose hash exists is waiting, delayed or running: `queued`.
 */
export async function queuedStates(client: RedisClient, queue: Queue, ids: string[]): Promise<QueuedState[]> {
  if (ids.length === 0) return [];
  const pipe = client.pipeline();
  for (const id of ids) {
    pipe.zscore(queue.keys['completed']!, id);
    pipe.zscore(queue.keys['failed']!, id);
    pipe.exists(queue.toKey(id));
  }
  const replies = (await pipe.exec()) ?? [];
  return ids.map((_, i) => {
    const [c, f, e] = [replies[3 * i], replies[3 * i + 1], replies[3 * i + 2]];
    for (const r of [c, f, e]) if (!r || r[0]) throw r?.[0] ?? new Error('Redis gave no answer to a job state check');
    if (c![1] !== null) return 'completed';
    if (f![1] !== null) return 'failed';
    return e![1] === 1 ? 'queued' : 'unknown';
  });
}
