/**
 * The embedded default: a batch's jobs on local worker threads (pool.ts), in job order, as many at a time
 * as there are threads. The threads run the batch's own scenario modules (the owner's files, by their
 * module graph's hash) from where they are. A failed attempt is tried again up to the batch's retries, as a
 * queue would, and so is an answer whose result the coordinator refuses (result-check.ts); a job stopped at
 * its time or memory limit is not (it would only take as long, or as much, again).
 */
import type { BlobStore } from './blobs.js';
import type { Executor, ExecutorEvents } from './executor.js';
import type { PlannedJob } from './plan.js';
import { JobAbortedError, JobMemoryLimitError, JobTimeLimitError, ThreadPool } from './pool.js';
import { checkKeptReplay, checkResultBody, ResultError } from './result-check.js';

export class LocalExecutor implements Executor {
  readonly mode = 'local';
  private readonly pool: ThreadPool;

  constructor(readonly threads: number) {
    this.pool = new ThreadPool(threads);
  }

  workers(): number {
    return this.threads;
  }

  async run(jobs: PlannedJob[], blobs: BlobStore, retries: number, events: ExecutorEvents, signal: AbortSignal): Promise<void> {
    for (const [graph, path] of blobs.modules()) this.pool.scenarios.set(graph, path);
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < jobs.length && !signal.aborted) {
        const job = jobs[next++]!;
        let attempts = 0;
        for (;;) {
          attempts++;
          let error: string;
          try {
            const a = await this.pool.run(job.payload!, (sha) => blobs.get(sha), signal);
            if (a.ok) {
              const checked = checkResultBody(job.payload!, a.body);
              checkKeptReplay(checked.value, a.replay);
              events.outcome(job, { status: 'done', body: checked.body, replay: a.replay, attempts, seconds: a.seconds, framesPerSecond: a.framesPerSecond, worker: 'local' });
              break;
            }
            error = a.error;
          } catch (e) {
            if (e instanceof JobAbortedError) return;
            if (e instanceof JobTimeLimitError || e instanceof JobMemoryLimitError) {
              events.outcome(job, { status: 'failed', error: e.message, attempts, worker: 'local' });
              break;
            }
            error = (e as Error).message;
            if (e instanceof ResultError) {
              error = `the result from a local thread was refused: ${error}`;
              events.refused?.(job, 'coordinator', error);
            }
          }
          if (attempts > retries) {
            events.outcome(job, { status: 'failed', error, attempts, worker: 'local' });
            break;
          }
          events.retry(job, error);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.threads, jobs.length) }, lane));
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
