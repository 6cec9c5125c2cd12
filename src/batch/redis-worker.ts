/**
 * `retrosim worker`: takes jobs from a batch queue on Redis and runs them on its own worker threads
 * (pool.ts), `concurrency` at a time, with WORKER_PREFETCH more taken and waiting for a thread. The
 * process's own thread only talks to Redis, so BullMQ keeps the jobs' locks alive however long a job
 * computes; if the process dies (killed, the machine lost), its locks expire and another worker's
 * stalled-job check hands its jobs on, the waiting ones with the running ones.
 *
 * Inputs are fetched from Redis by SHA-256 the first time a job needs them (measured first: a value that is
 * not the size the job names, or over limits.batch.blobBytes, is refused unread), checked against that hash,
 * and kept (up to WORKER_BLOB_CACHE_BYTES, least recently used first out). Scenario modules are not
 * inputs: a worker runs built-in scenarios, and modules only from its allow-list (scenario-allow.ts); a
 * job naming another module graph fails with a message saying so, and the worker goes on.
 *
 * Shutdown: the first SIGTERM or SIGINT stops taking jobs and finishes the ones it has (running, then the
 * taken ones waiting for a thread) within `graceSeconds`, releasing what is not done by then back to the
 * queue (another worker takes it), then exits 0; a second one releases them all at once. Either way, once Redis has not answered for `redisTimeoutSeconds`
 * (gone or frozen: a result could not be delivered anyway) the worker stops waiting for it and exits, 1
 * when it held jobs (they go back to the queue when their locks expire), else 0.
 * A lost connection is reported once, retried with backoff for as long as it takes, and reported again
 * when it is back: while it runs, a worker outlives any outage.
 *
 * Cancel: the worker reads the queue's cancel counter (`batch cancel` raises it) every PROBE_MS, which
 * is also how it knows Redis still answers. When the counter rises, the jobs it holds are stopped (their
 * threads terminated) and fail as cancelled, without retries; a cancelled job is never released back to
 * the queue, not even by a second signal.
 *
 * Trust: with a key (auth.ts) a worker runs only jobs signed with it, for its own queue, before their
 * expiry, of a batch run whose signed record says it is live (job-grant.ts); others fail, refused with the
 * reason, never run. It signs its results. It runs only jobs planned for its own code (src/node/runtime-hash.ts): a
 * job of another hash is put back on the queue for RUNTIME_REFUSAL_DELAY_MS, for a worker of that code to
 * take, said once per job and reported to the coordinator (`refusalsKey`; with a key, signed for the
 * queue and the job's run). Without a key it says so first, before it connects: it runs any job that
 * anyone who can reach the Redis adds. The key stays on this thread: the job threads never get it, nor the
 * key's environment variables (key-env.ts `threadEnv`).
 */
import { hostname } from 'node:os';
import type { Job } from 'bullmq';
import type { Redis as RedisClient } from 'ioredis';
import type { BatchKey } from './auth.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { checkPayload, payloadBlobs, PayloadError, type BlobRef } from './payload.js';
import { JobAbortedError, JobMemoryLimitError, JobTimeLimitError, ThreadPool } from './pool.js';
import { closeClient, ConnectionReporter, redisClient, safeUrl } from './redis-connection.js';
import { AnswerWatch, exitWhenHeld } from './redis-liveness.js';
import { BLOB_TTL_SECONDS, blobKey, cancelKey, HANDED_BACK_FIELD, refusalsKey, replayKey, resultMacInput, type WorkerReturn } from './queue-keys.js';
import { sha256Hex } from './runner.js';
import { notAllowedMessage, payloadModule, type AllowedScenario } from './scenario-allow.js';
import { runtimeHash } from '../node/runtime-hash.js';
import { checkJobGrant, checkRun, type JobGrant, type JobRefusal } from './job-grant.js';

/** How long a job of other code is put back for before a worker may take it again, ms. */
export const RUNTIME_REFUSAL_DELAY_MS = 1000;
/** Refusals kept in a queue's refusal stream for coordinators to read. */
export const REFUSALS_KEPT = 10_000;

/**
 * Jobs a worker takes beyond the ones its threads run. BullMQ fetches a worker's next job when the last
 * one is reported done, a round trip to Redis and a script (2–8 ms a job on the benchmark machine, the
 * more the busier it is) during which a thread would wait; with the next job already taken (its inputs
 * fetched), a thread that finishes starts the next at once. The taken job's lock is renewed like a running
 * one's, so it is handed on if the worker dies; a queue shows it as active.
 */
export const WORKER_PREFETCH = 1;

/** Inputs a worker keeps in memory between jobs, bytes. */
export const WORKER_BLOB_CACHE_BYTES = 512 * 1024 * 1024;

export interface WorkerOptions {
  url: string;
  queue: string;
  concurrency: number;
  /** How long a job's lock lasts without renewal (BullMQ renews it at half this), ms. */
  lockMs: number;
  /** How often this worker looks for stalled jobs (locks that expired), ms. */
  stalledMs: number;
  /** Times a job may stall and be handed on before it fails. */
  maxStalled: number;
  name: string;
  /** One line per event on stdout as JSON, instead of text on stderr. */
  json: boolean;
  /** The scenario modules this worker runs (`--allow-scenario`), hashed at start. */
  scenarios?: readonly AllowedScenario[];
  /** When stopping, how long to wait for a Redis that does not answer before exiting without it, seconds. */
  redisTimeoutSeconds: number;
  /** After the first signal, how long the jobs held may take to finish before they go back to the queue, seconds. */
  graceSeconds: number;
  /** The batch key: run only jobs signed with it, sign results with it. */
  key?: BatchKey | null;
}

/** The failure of a job stopped by `batch cancel`. */
export const CANCELLED_REASON = 'cancelled (retrosim batch cancel)';

/** The cancel counter's value as a number (absent, after a restart without persistence: 0). */
function cancelCount(v: string | null): number {
  const n = Number(v ?? 0);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

export function defaultWorkerName(): string {
  return `${hostname()}:${process.pid}`;
}

/** Runs until stopped by a signal; resolves with the exit code. */
export async function runWorker(o: WorkerOptions): Promise<number> {
  const say = (event: string, text: string, extra: Record<string, unknown> = {}) => {
    if (o.json) process.stdout.write(JSON.stringify({ event, worker: o.name, ...extra, message: text }) + '\n');
    else process.stderr.write(`worker ${o.name}: ${text}\n`);
  };
  const key = o.key ?? null;
  if (!key) say('insecure', `no key: this worker runs any job that anyone who can reach ${safeUrl(o.url)} puts on queue ${o.queue} (give it the batch's --key-file to run only signed jobs)`, { key: false });
  const { Worker, WaitingError, UnrecoverableError, DelayedError } = await import('bullmq');
  const hash = runtimeHash();
  const reporter = new ConnectionReporter(o.url, (l) => say('connection', l));
  const store = await redisClient(o.url, 'worker-store', reporter);
  const conn = await redisClient(o.url, 'worker', reporter);
  const probe = await redisClient(o.url, 'worker-watch', reporter);
  const pool = new ThreadPool(o.concurrency);
  for (const s of o.scenarios ?? []) pool.scenarios.set(s.graph, s.path);
  const cache = new BlobCache(store, o.queue, WORKER_BLOB_CACHE_BYTES);
  /**
   * The jobs this worker has taken, by id; `started` once a thread runs it; `since`, the cancel counter
   * when it was taken (null before the first read); `cancelled` once a cancel stopped it.
   */
  const running = new Map<string, { ac: AbortController; started: boolean; since: number | null; cancelled: boolean }>();
  let done = 0;
  let failed = 0;
  /** The cancel counter as last read (null before the first answer). */
  let cancels: number | null = null;
  const watch = new AnswerWatch(
    probe,
    (c) => c.get(cancelKey(o.queue)),
    (v) => {
      const n = cancelCount(v);
      // Only a rise is a cancel: a Redis restarted without persistence starts again from nothing.
      if (cancels !== null && n > cancels) {
        const held = [...running.values()].filter((r) => !r.cancelled && (r.since === null || r.since < n));
        for (const r of held) {
          r.cancelled = true;
          r.ac.abort();
        }
        if (held.length) say('cancelled', `the queue was cancelled: stopping ${held.length} job${held.length === 1 ? '' : 's'} held`, { jobs: held.length });
      }
      cancels = n;
    },
  );
  /** Whether a job was cancelled: stopped by the watch, or the counter rose since it was taken. */
  const wasCancelled = async (r: { since: number | null; cancelled: boolean }): Promise<boolean> => {
    if (r.cancelled) return true;
    if (r.since === null) return false;
    return cancelCount(await store.get(cancelKey(o.queue))) > r.since;
  };
  /** Jobs refused: not signed with this worker's key, or planned for other code (each job counted once). */
  let refused = 0;
  const refusedOnce = new Set<string>();

  const processor = async (job: Job, token?: string): Promise<WorkerReturn> => {
    const data: unknown = job.data;
    const id = shownId(job.id);
    if (stopAt !== null && (job.processedOn ?? 0) > stopAt) {
      // BullMQ can still take a job after the signal (its blocking wait had been woken for it): a stopping
      // worker takes no more, so it goes straight back to the queue for another worker. A job taken before
      // the signal (processedOn is this process's clock when it was taken) is one of those it finishes.
      say('handed-back', `job ${id} arrived after the stop: back to the queue for another worker`, { job: job.id });
      await job.moveToWait(token);
      throw new WaitingError();
    }
    const fields = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
    let grant: JobGrant | null = null;
    if (key) {
      const checked = checkJobGrant(key, fields, o.queue, Date.now());
      const refusal: JobRefusal | null = 'reason' in checked ? checked : await checkRun(store, key, checked);
      if (refusal) {
        refused++;
        const why = `refused by worker ${o.name}: ${refusal.text}; not run`;
        say('refused', `job ${id} ${why}`, { job: job.id, reason: refusal.reason });
        throw new UnrecoverableError(why);
      }
      grant = checked as JobGrant;
    }
    if (typeof fields['runtimeHash'] === 'string' && fields['runtimeHash'] !== hash) {
      // Another worker's job: back on the queue (not failed), out of this worker's way for a while.
      const theirs = /^[0-9a-f]{64}$/.test(fields['runtimeHash']) ? fields['runtimeHash'] : '(not a hash)';
      if (!refusedOnce.has(job.id!)) {
        if (refusedOnce.size >= 100_000) refusedOnce.clear(); // bounded: at worst a job is told of twice
        refusedOnce.add(job.id!);
        refused++;
        const text = `runtime differs (its hash ${hash}, the batch's ${theirs})`;
        say('refused', `job ${id} refused: ${text}; put back for a worker of the batch's code`, { job: job.id, reason: 'runtime', runtimeHash: hash, batchRuntimeHash: theirs });
        const k = refusalsKey(o.queue);
        await store
          .multi()
          .xadd(k, 'MAXLEN', '~', String(REFUSALS_KEPT), '*', 'job', job.id!, 'worker', o.name, 'reason', text, ...(key && grant ? ['mac', key.sign('refusal', { queue: o.queue, run: grant.run, job: job.id!, worker: o.name, reason: text })] : []))
          .expire(k, BLOB_TTL_SECONDS)
          .exec()
          .catch(() => undefined);
      }
      // BullMQ counts the taking as an attempt: the batch takes these hand-backs off its count.
      await store.hincrby(`${job.queueQualifiedName}:${job.id}`, HANDED_BACK_FIELD, 1).catch(() => undefined);
      await job.moveToDelayed(Date.now() + RUNTIME_REFUSAL_DELAY_MS, token);
      throw new DelayedError();
    }
    let payload;
    try {
      payload = checkPayload(job.data);
    } catch (e) {
      throw new UnrecoverableError(e instanceof PayloadError ? e.message : String(e));
    }
    // Another worker may hold the module: a plain error, so the job's retries may reach it.
    const named = payloadModule(payload);
    if (named && !pool.scenarios.has(named.graph)) throw new Error(notAllowedMessage(named.source, named.graph));
    // Running from the moment it is taken (fetching its inputs included), so that a signal then counts it.
    const ac = new AbortController();
    const mine = { ac, started: false, since: cancels, cancelled: false };
    running.set(job.id!, mine);
    try {
      const blobs = new Map<string, Uint8Array>();
      for (const ref of payloadBlobs(payload)) blobs.set(ref.sha256, await cache.get(ref));
      if (ac.signal.aborted) throw new JobAbortedError();
      const a = await pool.run(payload, (sha) => blobs.get(sha)!, ac.signal, () => (mine.started = true));
      if (!a.ok) throw new Error(a.error);
      let replay: WorkerReturn['replay'] = null;
      if (a.replay) {
        await store.set(replayKey(o.queue, payload.key), Buffer.from(a.replay.buffer, a.replay.byteOffset, a.replay.byteLength), 'EX', BLOB_TTL_SECONDS);
        replay = { sha256: sha256Hex(a.replay), bytes: a.replay.length };
      }
      const ret: WorkerReturn = { body: a.body, seconds: a.seconds, framesPerSecond: a.framesPerSecond, replay, worker: o.name };
      if (key) ret.mac = key.sign('result', resultMacInput(payload.key, payload.runtimeHash, ret));
      return ret;
    } catch (e) {
      if (e instanceof JobAbortedError) {
        if (await wasCancelled(mine)) throw new UnrecoverableError(CANCELLED_REASON);
        // Released on shutdown: back to the queue for another worker, not counted as a failure.
        await job.moveToWait(token);
        throw new WaitingError();
      }
      // A job over its time or memory limit would only be so again: failed without retries.
      if (e instanceof JobTimeLimitError || e instanceof JobMemoryLimitError) throw new UnrecoverableError(e.message);
      throw e;
    } finally {
      running.delete(job.id!);
    }
  };

  const worker = new Worker(o.queue, processor, {
    connection: conn,
    concurrency: o.concurrency + WORKER_PREFETCH,
    lockDuration: o.lockMs,
    stalledInterval: o.stalledMs,
    maxStalledCount: o.maxStalled,
    name: o.name,
    autorun: false,
  });
  worker.on('error', (e) => reporter.error(e));
  worker.on('completed', () => void done++);
  worker.on('failed', (job, e) => {
    if (e && ((e as Error).name === 'WaitingError' || (e as Error).name === 'DelayedError')) return;
    if (e && (e as Error).message.startsWith('refused by worker')) return; // counted as refused
    failed++;
    // The message may quote the job's own text (a planted runtime name, a scenario): one safe line too.
    if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) say('failed', `job ${shownId(job.id)} failed: ${shownText((e as Error)?.message ?? 'failed')}`, { job: job.id });
  });

  let stopping = 0;
  /** This process's clock at the first signal: jobs BullMQ takes later are handed back. */
  let stopAt: number | null = null;
  /** Set when the worker stopped waiting for a Redis that did not answer. */
  let gaveUp = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const stopped = new Promise<void>((resolve) => {
    const held = () => {
      const list = [...running.values()];
      const started = list.filter((r) => r.started).length;
      const taken = list.length - started;
      return { started, taken, what: `${started} running job${started === 1 ? '' : 's'}${taken ? ` and ${taken} taken next` : ''}` };
    };
    /** Gives the jobs held back to the queue at once (a cancelled one is failed instead) and closes. */
    const release = (why: string) => {
      clearTimeout(graceTimer);
      const h = held();
      say('stopping', `${why}: releasing ${h.what} back to the queue`, { running: h.started, taken: h.taken });
      for (const r of running.values()) r.ac.abort();
      void worker.close(true).then(resolve, resolve);
    };
    const onSignal = (sig: NodeJS.Signals) => {
      stopping++;
      if (stopping > 1) return release(sig);
      stopAt = Date.now();
      // Finishing (or releasing) needs Redis: wait for it only while it answers.
      void watch
        .silence(o.redisTimeoutSeconds, () => new Error('silent'))
        .catch(() => {
          gaveUp = true;
          resolve();
        });
      const h = held();
      say('stopping', `${sig}: finishing ${h.what}, taking no more; what is not done in ${o.graceSeconds} s goes back to the queue (again to release it at once)`, { running: h.started, taken: h.taken, graceSeconds: o.graceSeconds });
      // One signal stops the worker within its grace: a long job is not waited for, another worker runs it.
      graceTimer = setTimeout(() => release(`${o.graceSeconds} s of grace over`), o.graceSeconds * 1000);
      void worker.close().then(() => {
        clearTimeout(graceTimer);
        resolve();
      }, resolve);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });

  const allowed = (o.scenarios ?? []).map((s) => `${s.file} (module graph ${s.graph.slice(0, 12)}…)`);
  say('ready', `taking jobs from queue ${o.queue} on ${safeUrl(o.url)}, ${o.concurrency} at a time; runtime ${hash}; ${key ? 'jobs must be signed with its key' : 'no key: jobs are not checked'}; scenario modules: ${allowed.length ? allowed.join(', ') : 'none (built-in scenarios only)'}`, {
    queue: o.queue,
    concurrency: o.concurrency,
    runtimeHash: hash,
    key: key !== null,
    scenarios: (o.scenarios ?? []).map((s) => ({ file: s.file, graph: s.graph })),
  });
  void worker.run().catch((e: Error) => say('error', e.message.split('\n')[0]!));
  await stopped;
  clearTimeout(graceTimer);
  watch.stop();
  const held = running.size;
  if (gaveUp) {
    say('error', `Redis at ${safeUrl(o.url)} has not answered for ${o.redisTimeoutSeconds} s: stopping without it; ${held ? `the ${held} job${held === 1 ? '' : 's'} held go back to the queue when ${held === 1 ? 'its lock expires' : 'their locks expire'}` : 'no job held'}`, { held });
    for (const r of running.values()) r.ac.abort();
    void worker.disconnect().catch(() => undefined);
  }
  await pool.close();
  await Promise.all([closeClient(store), closeClient(conn), closeClient(probe)]);
  say('stopped', `stopped after ${done} job${done === 1 ? '' : 's'} done, ${failed} failed attempt${failed === 1 ? '' : 's'}, ${refused} refused`, { done, failed, refused });
  // A connection BullMQ made for itself may wait on a frozen Redis for ever: it does not hold the exit.
  exitWhenHeld();
  // Jobs left to their locks' expiry: not a clean stop.
  return gaveUp && held > 0 ? 1 : 0;
}

/** Whoever added a job chose its id: printed only as a safe line of text. */
function shownId(id: string | undefined): string {
  return String(id).replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}

/** Text from a job or a failure for a one-line message: control characters replaced, at most 1,000 characters. */
function shownText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '?').slice(0, 1000);
}

/** Inputs fetched from Redis by SHA-256, checked, and kept up to a byte budget (least recently used out). */
class BlobCache {
  private readonly map = new Map<string, Uint8Array>();
  private bytes = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly queue: string,
    private readonly budget: number,
  ) {}

  async get(ref: BlobRef): Promise<Uint8Array> {
    const { sha256 } = ref;
    const hit = this.map.get(sha256);
    if (hit) {
      this.map.delete(sha256);
      this.map.set(sha256, hit);
      return hit;
    }
    // Measured before it is read: a value planted under an input's key is not taken into memory whole.
    const size = await this.redis.strlen(blobKey(this.queue, sha256));
    const max = DEFAULT_LIMITS.batch.blobBytes;
    if (size > max) throw new Error(`input ${sha256} in Redis has ${size} bytes, over the limit of ${max} bytes (limits.batch.blobBytes)`);
    if (size > 0 && size !== ref.bytes) throw new Error(`input ${sha256} in Redis has ${size} bytes, not the ${ref.bytes} its job names`);
    const b = await this.redis.getBuffer(blobKey(this.queue, sha256));
    if (!b) throw new Error(`input ${sha256} is not in Redis (expired, or lost in a restart): run the batch again`);
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    if (sha256Hex(bytes) !== sha256) throw new Error(`input ${sha256} in Redis does not have that hash`);
    this.map.set(sha256, bytes);
    this.bytes += bytes.length;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.budget || k === sha256) break;
      this.map.delete(k);
      this.bytes -= v.length;
    }
    return bytes;
  }
}
