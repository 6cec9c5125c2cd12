/**
 * `batch status` and `batch cancel` (loaded only with `--redis`): a queue's counts and connected workers, and
 * emptying a queue's waiting jobs while telling the batches and workers on it to stop (the cancel counter,
 * `cancelKey`, that redis-queue.ts and redis-worker.ts watch).
 */
import type { Queue } from 'bullmq';
import type { Redis as RedisClient } from 'ioredis';
import { closeClient, ConnectionReporter, redisClient, safeUrl, whenReady } from './redis-connection.js';
import { closeWithin } from './redis-liveness.js';
import { cancelKey } from './queue-keys.js';
import type { RedisOptions } from './redis-queue.js';

/** What `batch status` prints. */
export interface QueueStatus {
  redis: string;
  queue: string;
  queued: number;
  active: number;
  done: number;
  failed: number;
  /** Worker processes connected to the queue now. */
  workers: { name: string; address: string }[];
}

/**
 * The queue for `batch status` and `batch cancel`: `answer` bounds each step by the timeout (a Redis that
 * stops answering gives a one-line error, not a wait), and `close` does not wait on Redis.
 */
async function openQueue(o: RedisOptions): Promise<{ queue: Queue; client: RedisClient; answer: <T>(p: Promise<T>) => Promise<T>; close: () => Promise<void> }> {
  const { Queue } = await import('bullmq');
  const reporter = new ConnectionReporter(o.url, (l) => process.stderr.write(`${l}\n`));
  const client = await redisClient(o.url, 'status', reporter);
  try {
    await whenReady(client, o.url, o.timeoutSeconds, reporter);
  } catch (e) {
    client.disconnect();
    throw e;
  }
  const queue = new Queue(o.queue, { connection: client });
  queue.on('error', (e) => reporter.error(e));
  const answer = async <T>(p: Promise<T>): Promise<T> => {
    let t: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      t = setTimeout(() => reject(new Error(`Redis at ${safeUrl(o.url)} has not answered for ${o.timeoutSeconds} s (${reporter.reason() || 'no answer'})`)), o.timeoutSeconds * 1000);
    });
    try {
      return await Promise.race([p, late]);
    } finally {
      clearTimeout(t);
    }
  };
  return {
    queue,
    client,
    answer,
    close: async () => {
      await closeWithin(queue);
      await closeClient(client);
    },
  };
}

export async function queueStatus(o: RedisOptions): Promise<QueueStatus> {
  const { queue, answer, close } = await openQueue(o);
  try {
    const c = await answer(queue.getJobCounts('waiting', 'delayed', 'prioritized', 'waiting-children', 'active', 'completed', 'failed'));
    const workers = (await answer(queue.getWorkers())).map((w) => {
      const raw = String(w['rawname'] ?? w['name'] ?? '');
      const i = raw.indexOf(':w:');
      return { name: i >= 0 ? raw.slice(i + 3) : raw, address: String(w['addr'] ?? '') };
    });
    return {
      redis: safeUrl(o.url),
      queue: o.queue,
      queued: (c['waiting'] ?? 0) + (c['delayed'] ?? 0) + (c['prioritized'] ?? 0) + (c['waiting-children'] ?? 0),
      active: c['active'] ?? 0,
      done: c['completed'] ?? 0,
      failed: c['failed'] ?? 0,
      workers: workers.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    };
  } finally {
    await close();
  }
}

/** What `batch cancel` did. */
export interface CancelResult {
  queue: string;
  removed: number;
  active: number;
}

export async function cancelQueue(o: RedisOptions): Promise<CancelResult> {
  const { queue, client, answer, close } = await openQueue(o);
  try {
    const before = await answer(queue.getJobCounts('waiting', 'delayed', 'prioritized'));
    await answer(queue.drain(true));
    await answer(client.incr(cancelKey(o.queue)));
    const active = (await answer(queue.getJobCounts('active')))['active'] ?? 0;
    return { queue: o.queue, removed: (before['waiting'] ?? 0) + (before['delayed'] ?? 0) + (before['prioritized'] ?? 0), active };
  } finally {
    await close();
  }
}
