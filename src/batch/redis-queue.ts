/**
 * The queue path (loaded only with `--redis`): a batch's jobs on a BullMQ queue, run by `retrosim worker`
 * processes wherever they are, and `batch status` / `batch cancel`.
 *
 * - Inputs travel by content: each world file, partner file and replay is put in Redis once under its
 *   SHA-256 (`retrosim:<queue>:blob:<sha256>`, with an expiry), and a job's data names them. A scenario
 *   module never travels: a job names it by its module graph's hash, and a worker runs it only from a file
 *   of its own (`retrosim worker --allow-scenario FILE`).
 *   A replay to verify is deleted once verified, but only by the last batch holding it: each batch running
 *   on the queue adds its run id to the replay's holders (`retrosim:<queue>:holders:<sha256>`, with the
 *   same expiry) before it puts the replay, and removes it when done with it, deleting the replay only when
 *   no holder is left (one script, so no other batch comes in between). Batches sharing a queue and an
 *   input never delete what another still needs.
 * - A job's BullMQ id is its key, so the same job submitted twice is one job; a completed job found on
 *   the queue is collected without running again.
 * - At most MAX_OUTSTANDING jobs are on the queue at a time; more are added as results come back, so
 *   Redis holds a bounded number of jobs and inputs however large the batch.
 * - Results are collected on the queue's events and by a periodic sweep (which also notices jobs lost by
 *   a Redis restart and submits them again, and a `batch cancel`), then removed from the queue. The sweep
 *   and the check of what an earlier run left on the queue ask Redis about all their jobs in one pipeline
 *   (each job: in the queue's completed set, in its failed set, its hash there at all), not a script call
 *   per job (BullMQ's getJobState walks the waiting list for each), so they cost the coordinator and Redis
 *   next to nothing beside the workers.
 * - Delivery is at least once (a stalled job may run twice); the first result of a key is the one kept,
 *   and every attempt started beyond the first is counted as a retry.
 * - A result is checked before it is taken (result-check.ts; with a key, its signature first: auth.ts). A
 *   refused one is counted and its job submitted again for another worker (a retry), up to the batch's
 *   retries; past them the job fails with the reason. So is a job a worker refused as not signed with its
 *   key, or as expired. Jobs a worker of other code put back (`refusalsKey`) are noted once per job and
 *   worker; with a key, only notes signed with it for this queue and run (anyone who can reach the Redis
 *   can add one).
 * - With a key, each job is signed with its grant (job-grant.ts): this queue, this run's id and an expiry.
 *   The run keeps its signed run record in Redis while it goes on and deletes it when it ends; it signs
 *   again, in place, its jobs still on the queue when their signature is GRANT_RENEW_MS old, and the jobs
 *   of its file an earlier run left on the queue (else the workers would refuse them as of a run that has
 *   ended). A job refused by a worker as of another run (signed by a run that ended, or by another batch
 *   sharing the job) is submitted again for this run without counting an attempt.
 */
import { randomUUID } from 'node:crypto';
import type { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis as RedisClient } from 'ioredis';
import { DEFAULT_LIMITS } from '../index.js';
import type { BatchKey } from './auth.js';
import type { BlobStore } from './blobs.js';
import type { Executor, ExecutorEvents, Outcome } from './executor.js';
import { GRANT_RENEW_MS, GRANT_TTL_MS, RUN_LEASE_MS, RUN_REFRESH_MS, redisTimeMs, runRecord, runRecordKey, signedJobData, type JobGrant } from './job-grant.js';
import { payloadBlobs, type JobPayload } from './payload.js';
import type { PlannedJob } from './plan.js';
import { closeClient, ConnectionReporter, isConnectionError, redisClient, safeUrl, whenReady } from './redis-connection.js';
import { AnswerWatch, closeWithin, PROBE_MS } from './redis-liveness.js';
import { checkKeptReplay, checkResultBody, checkWorkerReturn, ResultError } from './result-check.js';
import { queuedStates } from './queue-states.js';
import { BLOB_TTL_SECONDS, blobKey, cancelKey, HANDED_BACK_FIELD, holdersKey, jobId, MAX_RETURN_CHARS, refusalsKey, replayKey, resultMacInput } from './queue-keys.js';

/** Jobs on the queue at once, per batch. */
export const MAX_OUTSTANDING = 2000;
/** Finished jobs left behind (by a batch that stopped) are removed by BullMQ after this long, seconds. */
export const FINISHED_JOB_AGE_SECONDS = 7 * 24 * 3600;
/** Milliseconds between sweeps of the jobs a batch waits for. */
export const SWEEP_MS = 1000;
/** After a signal, how long a batch spends taking its waiting jobs off the queue at most, ms. */
export const STOP_CLEANUP_MS = 3000;

/** The batch was stopped by its signal (not an error: the results so far stand). */
class Interrupted extends Error {}

/**
 * A job whose answer was refused goes back on the queue this much later, ms: the worker that gave it (fast
 * to answer wrongly) does not take it again at once, and others have time to.
 */
export const REFUSED_RESUBMIT_DELAY_MS = 1000;


/** Sets a job's data (KEYS[1] its hash, ARGV[1] the data) when the job is still there. */
const RESIGN_SCRIPT = `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'data', ARGV[1]) return 1 end
return 0`;

/** Removes a holder (ARGV[1]) from a replay's holders (KEYS[1]), and the replay (KEYS[2]) when none is left. */
const RELEASE_SCRIPT = `redis.call('SREM', KEYS[1], ARGV[1])
if redis.call('SCARD', KEYS[1]) == 0 then redis.call('DEL', KEYS[2]) end
return 1`;

/**
 * With a key: how many times a job refused by a worker as of a batch run that has ended is submitted again
 * without counting an attempt (see RedisExecutor's collect).
 */
export const MAX_UNCOUNTED_REFUSALS = 3;


export interface RedisOptions {
  url: string;
  queue: string;
  /** Give up when Redis stays unreachable this long. */
  timeoutSeconds: number;
  /** Run jobs again even when a finished result of theirs is still on the queue. */
  force?: boolean;
  /** The batch key: sign jobs with it, take only results signed with it. */
  key?: BatchKey | null;
}

/** Whether an input of a job is its replay to verify (deleted from Redis once no batch needs it). */
function isOnce(p: JobPayload, sha256: string): boolean {
  return p.kind === 'verify' && p.replay.sha256 === sha256;
}

async function bull(): Promise<typeof import('bullmq')> {
  return import('bullmq');
}

export class RedisExecutor implements Executor {
  readonly mode = 'redis';
  private readonly seen = new Set<string>();
  /** Milliseconds from each job's enqueueing to its collected result, in the order results came (for the benchmark). */
  readonly latenciesMs: number[] = [];
  private readonly clients: RedisClient[] = [];
  private queue: Queue | null = null;
  private events: QueueEvents | null = null;
  private watch: AnswerWatch | null = null;
  /**
   * The id of the run going on (a new one for each `run`): its name among the holders of the inputs it puts
   * in Redis, and with a key, the run its jobs' signatures bind (job-grant.ts).
   */
  private runId = randomUUID();

  constructor(private readonly o: RedisOptions) {}

  /** Whether the jobs and results are signed (the batch has a key). */
  get signed(): boolean {
    return this.o.key != null;
  }

  workers(): number {
    return this.seen.size;
  }

  async run(jobs: PlannedJob[], blobs: BlobStore, retries: number, ev: ExecutorEvents, signal: AbortSignal): Promise<void> {
    // Each run has its own connections, closed when it ends (an executor may run several batches).
    try {
      await this.runOnce(jobs, blobs, retries, ev, signal);
    } finally {
      await this.close();
    }
  }

  private async runOnce(jobs: PlannedJob[], blobs: BlobStore, retries: number, ev: ExecutorEvents, signal: AbortSignal): Promise<void> {
    this.runId = randomUUID();
    const { Queue, QueueEvents } = await bull();
    const reporter = new ConnectionReporter(this.o.url, (l) => ev.note(l));
    const main = await redisClient(this.o.url, 'batch', reporter);
    const evc = await redisClient(this.o.url, 'batch-events', reporter);
    const probe = await redisClient(this.o.url, 'batch-watch', reporter);
    this.clients.push(main, evc, probe);
    const interrupted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(new Interrupted());
      else signal.addEventListener('abort', () => reject(new Interrupted()), { once: true });
    });
    interrupted.catch(() => undefined);
    try {
      await Promise.race([whenReady(main, this.o.url, this.o.timeoutSeconds, reporter), interrupted]);
    } catch (e) {
      if (e instanceof Interrupted) return;
      throw e;
    }
    // Every wait below ends when Redis has not answered for the timeout (gone, or frozen: then commands
    // get no answer and no error either), and on a signal.
    const watch = (this.watch = new AnswerWatch(probe));
    const gaveUp = watch.silence(this.o.timeoutSeconds, () =>
      reporter.lostFor() > 0
        ? new Error(`Redis at ${safeUrl(this.o.url)} unreachable for ${this.o.timeoutSeconds} s (${reporter.reason()}); the results so far are kept, run the batch again to go on`)
        : new Error(`Redis at ${safeUrl(this.o.url)} has not answered for ${this.o.timeoutSeconds} s; the results so far are kept, run the batch again to go on`),
    );
    const guard = <T>(p: Promise<T>): Promise<T> => Promise.race([p, gaveUp, interrupted]);
    const queue = (this.queue = new Queue(this.o.queue, { connection: main }));
    queue.on('error', (e) => reporter.error(e));
    const qe = (this.events = new QueueEvents(this.o.queue, { connection: evc }));
    qe.on('error', (e) => reporter.error(e));
    const q = this.o.queue;
    let cancelledAt: string | null;
    let refusalsFrom: string;
    const key = this.o.key ?? null;
    const run = this.runId;
    let live = true;
    /** Writes this run's record (with a key): live for RUN_LEASE_MS from now on the Redis server's clock. */
    const writeRunRecord = async (): Promise<void> => {
      if (!key) return;
      const now = redisTimeMs(await main.time());
      // Checked after the wait: once the run has ended, no write is sent (one sent before comes before the delete).
      if (live) await main.set(runRecordKey(q, run), runRecord(key, q, run, now + RUN_LEASE_MS), 'PX', RUN_LEASE_MS);
    };
    try {
      await guard(qe.waitUntilReady());
      cancelledAt = await guard(main.get(cancelKey(q)));
      refusalsFrom = (await guard(main.xrevrange(refusalsKey(q), '+', '-', 'COUNT', 1)))[0]?.[0] ?? '0-0';
      await guard(writeRunRecord());
    } catch (e) {
      if (e instanceof Interrupted) return;
      throw e;
    }
    // Written again on a timer of its own, so a long step of the loop below (inputs put in Redis) does not let it lapse.
    const refresher = key ? setInterval(() => void writeRunRecord().catch(() => undefined), RUN_REFRESH_MS) : undefined;
    try {
      await this.runJobs(jobs, blobs, retries, ev, signal, { main, queue, qe, guard, gaveUp, cancelledAt, refusalsFrom, writeRunRecord });
    } finally {
      live = false;
      clearInterval(refresher);
      // The run has ended: its jobs still on the queue are refused by keyed workers from now on.
      if (key) await Promise.race([main.del(runRecordKey(q, run)).catch(() => undefined), gaveUp.catch(() => undefined), new Promise((r) => setTimeout(r, STOP_CLEANUP_MS).unref())]);
    }
  }

  private async runJobs(
    jobs: PlannedJob[],
    blobs: BlobStore,
    retries: number,
    ev: ExecutorEvents,
    signal: AbortSignal,
    c: {
      main: RedisClient;
      queue: Queue;
      qe: QueueEvents;
      /** Races a wait against Redis's silence and the signal. */
      guard: <T>(p: Promise<T>) => Promise<T>;
      gaveUp: Promise<never>;
      cancelledAt: string | null;
      refusalsFrom: string;
      writeRunRecord: () => Promise<void>;
    },
  ): Promise<void> {
    const { main, queue, qe, guard, gaveUp, writeRunRecord } = c;
    let refusalsFrom = c.refusalsFrom;
    const cancelledAt = c.cancelledAt;
    const q = this.o.queue;
    const limits = DEFAULT_LIMITS.batch;
    const refusals = refusalsKey(q);
    const run = this.runId;

    const byId = new Map<string, PlannedJob>();
    const pending = new Set<string>();
    /** How many pending jobs use each input (an input used once is deleted with its job's result). */
    const uses = new Map<string, number>();
    const collecting = new Set<string>();
    const enqueuedAt = new Map<string, number>();
    /** Attempts of earlier submissions of a job whose answers were refused. */
    const prior = new Map<string, number>();
    const key = this.o.key ?? null;
    /** Refusals of a job not counted as its attempts (see collect), at most MAX_UNCOUNTED_REFUSALS. */
    const uncounted = new Map<string, number>();
    /** With a key: when each job on the queue was last signed (Date.now()). */
    const signedAt = new Map<string, number>();
    const grant = (): JobGrant => ({ queue: q, run, expires: Date.now() + GRANT_TTL_MS });
    const jobData = (j: PlannedJob): unknown => {
      if (!key) return j.payload;
      signedAt.set(jobId(j.key), Date.now());
      return signedJobData(key, j.payload!, grant());
    };
    /** Signs a job on the queue again, in place, for this run with a new expiry (nothing when it is gone). */
    const resign = async (j: PlannedJob): Promise<void> => {
      await main.eval(RESIGN_SCRIPT, 1, queue.toKey(jobId(j.key)), JSON.stringify(jobData(j)));
    };
    const told = new Set<string>();
    let next = 0;
    let failure: Error | null = null;
    let wake: (() => void) | null = null;
    const poke = () => {
      const w = wake;
      wake = null;
      w?.();
    };

    /** Puts a job's inputs in Redis (or refreshes their expiry); `done` are those already put by this submit. */
    const putBlobs = async (p: JobPayload, done: Set<string>): Promise<void> => {
      for (const ref of payloadBlobs(p)) {
        if (done.has(ref.sha256)) continue;
        done.add(ref.sha256);
        if (ref.bytes > limits.blobBytes) throw new Error(`an input of ${ref.bytes} bytes is over the limit of ${limits.blobBytes} bytes for Redis (limits.batch.blobBytes)`);
        const k = blobKey(q, ref.sha256);
        // Held before it is put: a batch releasing it now either sees this holder or deletes it before the SET below.
        if (isOnce(p, ref.sha256)) await main.multi().sadd(holdersKey(q, ref.sha256), this.runId).expire(holdersKey(q, ref.sha256), BLOB_TTL_SECONDS).exec();
        const set = await main.set(k, Buffer.from(blobs.get(ref.sha256)), 'EX', BLOB_TTL_SECONDS, 'NX');
        if (set === null) await main.expire(k, BLOB_TTL_SECONDS);
      }
    };

    const submit = async (list: PlannedJob[], again = false, delayMs = 0): Promise<void> => {
      if (!again) {
        for (const j of list) {
          const id = jobId(j.key);
          byId.set(id, j);
          pending.add(id);
          for (const r of payloadBlobs(j.payload!)) uses.set(r.sha256, (uses.get(r.sha256) ?? 0) + 1);
        }
      }
      const states = await queuedStates(main, queue, list.map((j) => jobId(j.key)));
      const add: PlannedJob[] = [];
      const found: string[] = [];
      // Each input once per submit (a sweep's jobs share their world), again in a later one (Redis may have restarted).
      const put = new Set<string>();
      for (let i = 0; i < list.length; i++) {
        const j = list[i]!;
        const id = jobId(j.key);
        const st = states[i];
        // A job left on the queue by an earlier run: a success stands (unless forced), a failure runs again.
        if (st === 'failed' || (st === 'completed' && this.o.force === true && !again)) await queue.remove(id);
        else if (st !== 'unknown') {
          if (st === 'completed') found.push(id);
          // Left by an earlier run (or shared with another batch): signed for this run, so keyed workers take it.
          else if (key) await resign(j);
          continue;
        }
        const size = Buffer.byteLength(JSON.stringify(j.payload));
        if (size > limits.payloadBytes) throw new Error(`job ${j.index}: its description is ${size} bytes, over the limit of ${limits.payloadBytes} bytes (limits.batch.payloadBytes)`);
        await putBlobs(j.payload!, put);
        add.push(j);
      }
      if (add.length) {
        const t = performance.now();
        for (const j of add) enqueuedAt.set(jobId(j.key), t);
        await queue.addBulk(
          add.map((j) => ({
            name: j.kind,
            data: jobData(j),
            opts: {
              jobId: jobId(j.key),
              ...(delayMs > 0 ? { delay: delayMs } : {}),
              attempts: retries + 1,
              backoff: { type: 'fixed', delay: 0 },
              removeOnComplete: { age: FINISHED_JOB_AGE_SECONDS },
              removeOnFail: { age: FINISHED_JOB_AGE_SECONDS },
            },
          })),
        );
      }
      for (const id of found) void collect(id);
    };

    const finish = async (id: string, job: Job, o: Outcome): Promise<void> => {
      const planned = byId.get(id)!;
      if (!pending.delete(id)) return;
      const t = enqueuedAt.get(id);
      if (t !== undefined) this.latenciesMs.push(performance.now() - t);
      signedAt.delete(id);
      ev.outcome(planned, o);
      await job.remove().catch(() => undefined);
      for (const r of payloadBlobs(planned.payload!)) {
        const n = (uses.get(r.sha256) ?? 1) - 1;
        if (n > 0) uses.set(r.sha256, n);
        else {
          uses.delete(r.sha256);
          // Replays to verify are used by one job: free them now, unless another batch holds them too.
          // Worlds and modules stay for later batches.
          if (isOnce(planned.payload!, r.sha256)) await main.eval(RELEASE_SCRIPT, 2, holdersKey(q, r.sha256), blobKey(q, r.sha256), this.runId);
        }
      }
    };

    /**
     * A worker's answer refused (by this coordinator, or a worker refused the job): the job is submitted again
     * for another worker while the batch's retries last, else it fails with the reason.
     */
    const refuse = async (id: string, job: Job, attempts: number, reason: string, by: 'coordinator' | 'worker' = 'coordinator'): Promise<void> => {
      const planned = byId.get(id)!;
      ev.refused?.(planned, by, reason);
      await main.del(replayKey(q, planned.key));
      if (attempts > retries) {
        await finish(id, job, { status: 'failed', error: reason, attempts });
        return;
      }
      prior.set(id, attempts);
      ev.retry(planned, reason);
      await job.remove();
      await submit([planned], true, REFUSED_RESUBMIT_DELAY_MS);
    };

    /** Jobs of this batch that workers of other code put back: told once per job and worker. */
    const readRefusals = async (): Promise<void> => {
      // From the last entry read, inclusive (an exclusive start needs Redis 6.2): that one is skipped.
      const entries = await main.xrange(refusals, refusalsFrom, '+', 'COUNT', 1000);
      for (const [entryId, f] of entries) {
        if (entryId === refusalsFrom) continue;
        refusalsFrom = entryId;
        const field = (name: string) => {
          const i = f.findIndex((x, k) => k % 2 === 0 && x === name);
          return i >= 0 ? (f[i + 1] ?? '') : '';
        };
        const id = field('job');
        const planned = byId.get(id);
        // With a key, a note not signed by a worker holding it, for a job of this queue and run, is anyone's text: not told, not counted.
        if (key && !key.verify('refusal', { queue: q, run, job: id, worker: field('worker'), reason: field('reason') }, field('mac'))) continue;
        const who = printable(field('worker'));
        if (!planned || !pending.has(id) || told.has(`${id} ${who}`)) continue;
        told.add(`${id} ${who}`);
        ev.refused?.(planned, 'worker', `refused by worker ${who}: ${printable(field('reason'))}`);
      }
    };

    const collect = async (id: string): Promise<void> => {
      if (!pending.has(id) || collecting.has(id)) return;
      collecting.add(id);
      try {
        // Measured before it is read: anyone who can reach the Redis can complete a job with any return value.
        const answered = await main.hstrlen(queue.toKey(id), 'returnvalue');
        let oversize: string | null = null;
        if (answered > MAX_RETURN_CHARS) {
          oversize = `its answer is ${answered} characters, over the limit of ${MAX_RETURN_CHARS}`;
          await main.hset(queue.toKey(id), 'returnvalue', 'null');
        }
        const job = await queue.getJob(id);
        if (!job) {
          // Gone without a result: cancelled, or lost by Redis (a restart without persistence): then submit it again.
          if (await cancelled()) return;
          ev.note(`job ${byId.get(id)!.index} is no longer on the queue; submitting it again`);
          await submit([byId.get(id)!], true);
          return;
        }
        const state = await job.getState();
        // Takings by workers of other code, which put the job back unrun, are not attempts.
        const handedBack = Number((await main.hget(queue.toKey(id), HANDED_BACK_FIELD)) ?? 0) || 0;
        const attempts = (prior.get(id) ?? 0) + Math.max(1, (job.attemptsStarted ?? job.attemptsMade ?? 1) - handedBack);
        const planned = byId.get(id)!;
        if (state === 'completed') {
          let who = typeof job.processedBy === 'string' ? job.processedBy : '?';
          let out: Outcome;
          try {
            if (oversize) throw new ResultError(oversize);
            const rv = checkWorkerReturn(job.returnvalue);
            who = rv.worker;
            if (key && !key.verify('result', resultMacInput(planned.key, planned.payload!.runtimeHash, rv), rv.mac)) {
              throw new ResultError(rv.mac === null ? 'it is not signed (the batch has a key: give its workers the same key)' : "its signature does not match the batch's key");
            }
            const checked = checkResultBody(planned.payload!, rv.body);
            let replay: Uint8Array | null = null;
            if (rv.replay) {
              const rk = replayKey(q, planned.key);
              const size = await main.strlen(rk);
              if (size > limits.replayBytes) throw new ResultError(`the kept replay in Redis is over the limit of ${limits.replayBytes} bytes (limits.batch.replayBytes)`);
              const b = await main.getBuffer(rk);
              if (b) replay = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
            }
            checkKeptReplay(checked.value, replay, rv.replay);
            out = { status: 'done', body: checked.body, replay, attempts, seconds: rv.seconds, framesPerSecond: rv.framesPerSecond, worker: rv.worker };
          } catch (e) {
            if (!(e instanceof ResultError)) throw e;
            await refuse(id, job, attempts, `the result from worker ${printable(who)} was refused: ${e.message}`);
            return;
          }
          this.seen.add(who);
          if (out.replay) await main.del(replayKey(q, planned.key));
          await finish(id, job, out);
        } else if (state === 'failed') {
          if (job.processedBy) this.seen.add(job.processedBy);
          // Whoever can write to the queue can fail a job with any text: the results file keeps a bounded one.
          const reason = failureText(job.failedReason || 'failed');
          // A worker that would not run it (not signed with its key): another worker may.
          if (reason.startsWith('refused by worker ')) {
            // Signed for another run that has ended (an earlier one, or another batch sharing the job), or this
            // run's record lapsed (Redis silent past RUN_LEASE_MS): not an attempt of this run. Signed and
            // submitted again, a few times at most.
            const theirs = (job.data as { grant?: { run?: unknown } } | null)?.grant?.run;
            const n = uncounted.get(id) ?? 0;
            if (key && (theirs !== run || reason.includes(`its batch run ${run} has ended`)) && n < MAX_UNCOUNTED_REFUSALS) {
              uncounted.set(id, n + 1);
              ev.note(`job ${planned.index}: ${printable(reason)}; submitting it again, signed for this run`);
              if (theirs === run) await writeRunRecord();
              await job.remove();
              await submit([planned], true);
              return;
            }
            await refuse(id, job, attempts, printable(reason), 'worker');
            return;
          }
          await finish(id, job, { status: 'failed', error: reason, attempts, ...(job.processedBy ? { worker: printable(job.processedBy) } : {}) });
        }
      } catch (e) {
        if (!failure && !isConnectionError(e)) failure = e as Error;
      } finally {
        collecting.delete(id);
        poke();
      }
    };

    qe.on('completed', ({ jobId: id }) => void collect(id));
    qe.on('failed', ({ jobId: id }) => void collect(id));
    qe.on('stalled', ({ jobId: id }) => {
      const j = byId.get(id);
      if (j && pending.has(id)) {
        ev.note(`job ${j.index} stalled (its worker stopped or lost its lock): handed to another worker`);
        ev.retry(j, 'stalled');
      }
    });

    const cancelled = async (): Promise<boolean> => {
      if ((await main.get(cancelKey(q))) === cancelledAt) return false;
      failure ??= new Error(`the queue ${q} was cancelled (retrosim batch cancel); the results so far are kept`);
      return true;
    };

    /** With a key: the jobs on the queue signed GRANT_RENEW_MS ago or more are signed again. */
    const renew = async (): Promise<void> => {
      const due = Date.now() - GRANT_RENEW_MS;
      for (const [id, at] of signedAt) if (at <= due && pending.has(id) && !collecting.has(id)) await resign(byId.get(id)!);
    };

    const sweep = async (): Promise<void> => {
      if (await cancelled()) return;
      await readRefusals();
      if (key) await renew();
      const ids = [...pending];
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const states = await queuedStates(main, queue, chunk);
        await Promise.all(chunk.map((id, k) => (states[k] !== 'queued' ? collect(id) : undefined)));
      }
    };

    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          wake = null;
          signal.removeEventListener('abort', done);
          resolve();
        };
        const t = setTimeout(done, ms);
        wake = done;
        signal.addEventListener('abort', done, { once: true });
      });

    let lastSweep = 0;
    try {
      while (!failure && !signal.aborted) {
        if (next < jobs.length && pending.size < MAX_OUTSTANDING) {
          const room = Math.min(jobs.length - next, MAX_OUTSTANDING - pending.size, 500);
          const list = jobs.slice(next, next + room);
          next += room;
          await guard(submit(list));
          continue;
        }
        if (pending.size === 0) break;
        const now = performance.now();
        if (now - lastSweep >= SWEEP_MS) {
          lastSweep = now;
          await guard(sweep());
          continue;
        }
        await guard(pause(SWEEP_MS - (now - lastSweep)));
      }
    } catch (e) {
      if (!(e instanceof Interrupted)) throw e;
    }
    if (signal.aborted) {
      // Ours and not started: take them off the queue (a later run submits them again), for as long as a
      // signal's stop may take: a Redis that is gone or frozen gets no longer.
      await Promise.race([
        gaveUp.catch(() => undefined),
        new Promise((r) => setTimeout(r, STOP_CLEANUP_MS).unref()),
        Promise.all(
          [...pending].map(async (id) => {
            const job = await queue.getJob(id).catch(() => undefined);
            if (job && (await job.getState().catch(() => '')) === 'waiting') await job.remove().catch(() => undefined);
          }),
        ),
      ]);
      return;
    }
    if (failure) throw failure;
  }
  /** Closes the run's connections, waiting for Redis at most CLOSE_MS for each (then they are dropped). */
  async close(): Promise<void> {
    const events = this.events, queue = this.queue, clients = this.clients.splice(0);
    this.events = null;
    this.queue = null;
    // A Redis that has stopped answering will not answer a polite close either: drop the connections.
    const silent = (this.watch?.silentFor() ?? 0) * 1000 > PROBE_MS * 2;
    this.watch?.stop();
    this.watch = null;
    if (silent) {
      for (const c of [events, queue]) void c?.disconnect().catch(() => undefined);
      for (const c of clients) c.disconnect();
      return;
    }
    await Promise.all([events && closeWithin(events), queue && closeWithin(queue)]);
    await Promise.all(clients.map(closeClient));
  }
}

/** Text from Redis fit for one line of a note: no control characters, at most 300 characters. */
/** The longest failure reason of a queue job kept in the results file, characters. */
export const MAX_FAILURE_CHARS = 2000;

function failureText(s: string): string {
  return s.length > MAX_FAILURE_CHARS ? `${s.slice(0, MAX_FAILURE_CHARS)}... (cut at ${MAX_FAILURE_CHARS} characters)` : s;
}

function printable(s: string): string {
  const t = s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
  return t.length > 300 ? `${t.slice(0, 300)}...` : t;
}
