/**
 * `retrosim batch --redis` and `retrosim worker` against a real redis-server (started here on a free
 * loopback port, no persistence) and real worker processes: the same result bytes as the local threads
 * with 1, 2 or 3 workers and with a worker killed mid-job, inputs that travel by content alone, status and
 * cancel, a graceful SIGTERM, and a Redis that goes away and comes back. Nothing here waits on time
 * alone: every wait is for a condition (a job active, a line written), with generous timeouts.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queuedStates } from '../../src/batch/queue-states.js';
import { WORKER_PREFETCH } from '../../src/batch/redis-worker.js';
import { cli, freePort, killAll, repoRoot, runCliAsync, startRedis, waitFor, writeBatch, type Proc, type RedisServer } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-batch-redis-'));
let redis: RedisServer;
let client: Redis;

const inputs = join(tmp, 'inputs');
mkdirSync(inputs, { recursive: true });
cpSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(inputs, 'level.col'));
writeFileSync(join(inputs, 'broken.col'), readFileSync(join(repoRoot, 'assets/worlds/rugrats/demo.col')).subarray(0, 80));
cpSync(join(repoRoot, 'examples/guards/guards.mjs'), join(inputs, 'guards.mjs'));

/** The batch the configurations are compared on: builtin and file worlds, a module, a kept replay, a broken world. */
const BATCH = {
  batch: 1,
  name: 'cmp',
  defaults: { frames: 300, measure: ['draws', 'los', 'events'] },
  sweep: [
    { world: ['level.col', 'piney-default'], agents: [5, 10], seed: { from: 1, count: 2 } },
    { world: 'level.col', scenario: 'guards.mjs', agents: 0, params: { guards: 3 }, keepReplay: true },
  ],
  jobs: [{ world: 'broken.col', frames: 20 }],
};
const RUNNABLE = 9; // jobs a worker runs: all but the broken world's, which fails on every worker alike

/** A folder holding the inputs and a batch file; returns the batch file's path. */
function inputsCopy(name: string, batch: unknown = BATCH): string {
  const dir = join(tmp, name);
  cpSync(inputs, dir, { recursive: true });
  return writeBatch(dir, 'cmp', batch);
}

const json = (s: string) => JSON.parse(s.trim().split('\n').pop()!) as Record<string, any>;
const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);

/** A worker, allowed to run the batch's scenario module (the worker owner's own copy of it). */
function worker(queue: string, name: string, extra: string[] = []): Proc {
  return cli(['worker', '--redis', redis.url, '--queue', queue, '--name', name, '--allow-scenario', join(inputs, 'guards.mjs'), ...extra]);
}

/**
 * The ids of the jobs a lone worker holds once it holds all it takes (its one thread's job and
 * WORKER_PREFETCH more), sorted; undefined before.
 */
async function held(queue: string): Promise<string[] | undefined> {
  const ids = await client.lrange(`bull:${queue}:active`, 0, -1);
  return ids.length === 1 + WORKER_PREFETCH ? ids.sort() : undefined;
}

/** The jobs a worker's shutdown line counts (running plus taken next), or -1 when the line is not there. */
function countsIn(text: string, line: RegExp): number {
  const m = line.exec(text);
  return m ? Number(m[1]) + Number(m[2] ?? 0) : -1;
}

async function stop(p: Proc): Promise<number> {
  p.child.kill('SIGTERM');
  return p.exited;
}

let reference: string;

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url, { maxRetriesPerRequest: null });
  client.on('error', () => undefined); // the connection-loss test stops the server under it
  const file = inputsCopy('local');
  reference = join(tmp, 'local', 'out', 'cmp.jsonl');
  const r = await runCliAsync(['batch', file, '--workers', '2', '--out', reference, '--json']);
  expect(json(r.stdout)).toMatchObject({ done: RUNNABLE, failed: 1 });
}, 600_000);

afterAll(async () => {
  client?.disconnect();
  await killAll();
  await redis?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 120_000);

// A loaded machine can make these several times slower: generous timeouts (every wait is on a condition).
describe('retrosim batch --redis with worker processes', { timeout: 600_000 }, () => {
  for (const n of [1, 2, 3]) {
    it(`${n} worker process${n > 1 ? 'es' : ''}: the local results byte for byte, the inputs gone from disk before any worker starts`, async () => {
      const queue = `cmp${n}`;
      const file = inputsCopy(`r${n}`);
      const out = join(tmp, `r${n}`, 'out', 'cmp.jsonl');
      const batch = cli(['batch', file, '--redis', redis.url, '--queue', queue, '--out', out, '--json']);
      await waitFor('the jobs on the queue', async () => (await client.llen(`bull:${queue}:wait`)) === RUNNABLE + 1);
      // Workers get everything from Redis: remove the inputs (and start them elsewhere).
      for (const f of ['level.col', 'broken.col', 'guards.mjs']) rmSync(join(tmp, `r${n}`, f));
      const ws = Array.from({ length: n }, (_, i) => worker(queue, `w${n}-${i}`));
      expect(await batch.exited).toBe(1); // the broken world
      noStack(batch.stderr());
      const s = json(batch.stdout());
      expect(s).toMatchObject({ mode: 'redis', jobs: RUNNABLE + 1, ran: RUNNABLE + 1, done: RUNNABLE, failed: 1, interrupted: false });
      expect(s['retried']).toBeGreaterThanOrEqual(1); // the broken world's retry
      expect(readFileSync(out)).toEqual(readFileSync(reference));
      const keptReplay = lines(out).find((l) => l['job']['keepReplay'])!['result']['replay'];
      expect(readFileSync(join(tmp, `r${n}`, 'out', keptReplay.file))).toEqual(readFileSync(join(tmp, 'local', 'out', keptReplay.file)));
      const timing = lines(join(tmp, `r${n}`, 'out', 'cmp.timing.jsonl'));
      expect(timing.find((t) => t['index'] === RUNNABLE)).toMatchObject({ attempts: 2 });
      for (const t of timing.slice(0, RUNNABLE)) expect(t['worker']).toMatch(new RegExp(`^w${n}-\\d$`));
      for (const w of ws) {
        expect(await stop(w)).toBe(0);
        expect(w.stderr()).toMatch(/stopped after \d+ jobs? done/);
        noStack(w.stderr());
      }
      // The queue is left empty: results collected, jobs removed.
      expect(await client.llen(`bull:${queue}:wait`)).toBe(0);
      expect(await client.zcard(`bull:${queue}:completed`)).toBe(0);
    });
  }

  it('a worker killed (SIGKILL) in the middle of a job: another takes the job over, recorded once, the retry counted', async () => {
    const queue = 'kill';
    const long = { batch: 1, name: 'cmp', defaults: { frames: 1500 }, sweep: { world: 'level.col', agents: 30, seed: { from: 1, count: 6 } } };
    const ref = inputsCopy('kill-local', long);
    const refOut = join(tmp, 'kill-local', 'out', 'cmp.jsonl');
    expect((await runCliAsync(['batch', ref, '--workers', '2', '--out', refOut])).code).toBe(0);

    const file = inputsCopy('kill', long);
    const out = join(tmp, 'kill', 'out', 'cmp.jsonl');
    // A short lock, so the dead worker's job is free soon; the survivor looks for stalled jobs often.
    const a = worker(queue, 'doomed', ['--lock-ms', '2000', '--stalled-ms', '500']);
    const batch = cli(['batch', file, '--redis', redis.url, '--queue', queue, '--out', out, '--json']);
    // The doomed worker's jobs: the one its thread runs and the one taken next.
    const active = await waitFor('jobs taken by the doomed worker', async () => held(queue));
    a.child.kill('SIGKILL');
    expect(await a.exited).toBe(137);
    // Still active on the queue after the kill: it died with the jobs in hand.
    const stranded = await client.lrange(`bull:${queue}:active`, 0, -1);
    expect(stranded.sort()).toEqual(active);
    const b = worker(queue, 'survivor', ['--stalled-ms', '500']);
    expect(await batch.exited).toBe(0);
    noStack(batch.stderr());
    const s = json(batch.stdout());
    expect(s).toMatchObject({ jobs: 6, done: 6, failed: 0 });
    expect(s['retried']).toBeGreaterThanOrEqual(1);
    expect(batch.stderr()).toMatch(/stalled .*handed to another worker/);
    expect(readFileSync(out)).toEqual(readFileSync(refOut));
    const ls = lines(out);
    expect(new Set(ls.map((l) => l['key'])).size).toBe(6); // nothing duplicated
    const timing = lines(join(tmp, 'kill', 'out', 'cmp.timing.jsonl'));
    for (const id of stranded) {
      const taken = timing.find((t) => `j${t['key']}` === id)!;
      expect(taken).toMatchObject({ worker: 'survivor' });
      expect(taken['attempts']).toBeGreaterThanOrEqual(2);
    }
    expect(await stop(b)).toBe(0);
  });

  it('SIGTERM: a worker finishes the jobs it has (running and taken next) within its grace, takes no more and exits 0', async () => {
    const queue = 'term';
    const long = { batch: 1, name: 'cmp', defaults: { frames: 1200 }, sweep: { world: 'level.col', agents: 20, seed: { from: 1, count: 4 } } };
    const file = inputsCopy('term', long);
    const out = join(tmp, 'term', 'out', 'cmp.jsonl');
    const c = worker(queue, 'leaving', ['--grace', '3600']);
    const batch = cli(['batch', file, '--redis', redis.url, '--queue', queue, '--out', out, '--json']);
    const ids = await waitFor('jobs taken', async () => held(queue));
    c.child.kill('SIGTERM');
    expect(await c.exited).toBe(0);
    expect(countsIn(c.stderr(), /SIGTERM: finishing (\d+) running jobs?(?: and (\d+) taken next)?, taking no more/)).toBe(ids.length);
    const d = worker(queue, 'staying');
    expect(await batch.exited).toBe(0);
    const timing = lines(join(tmp, 'term', 'out', 'cmp.timing.jsonl'));
    for (const id of ids) expect(timing.find((t) => `j${t['key']}` === id)).toMatchObject({ worker: 'leaving', attempts: 1 });
    expect(timing.filter((t) => t['worker'] === 'staying').length).toBeGreaterThanOrEqual(1);
    expect(json(batch.stdout())).toMatchObject({ done: 4, retried: 0 });
    expect(await stop(d)).toBe(0);
  });

  it('batch status lists the queued jobs and the workers; batch cancel empties the queue, stops the jobs running and stops the batch', async () => {
    const queue = 'ops';
    // Jobs far longer than anything below can take, however loaded the machine (hours each): the worker still
    // holds its first ones when the cancel comes, and only the cancel stops them.
    const file = inputsCopy('ops', { batch: 1, name: 'cmp', defaults: { frames: 50_000_000 }, sweep: { world: 'level.col', agents: 20, seed: { from: 1, count: 8 } } });
    const batch = cli(['batch', file, '--redis', redis.url, '--queue', queue, '--out', join(tmp, 'ops', 'out', 'cmp.jsonl'), '--json']);
    await waitFor('the jobs on the queue', async () => (await client.llen(`bull:${queue}:wait`)) === 8);
    const st = await runCliAsync(['batch', 'status', '--redis', redis.url, '--queue', queue, '--json']);
    expect(st.code).toBe(0);
    expect(json(st.stdout)).toMatchObject({ queue, queued: 8, active: 0, done: 0, failed: 0, workers: [] });
    const w = worker(queue, 'ops-worker');
    const taken = await waitFor('the worker on its jobs', async () => held(queue));
    const seen = json((await runCliAsync(['batch', 'status', '--redis', redis.url, '--queue', queue, '--json'])).stdout);
    expect(seen).toMatchObject({ queued: 8 - taken.length, active: taken.length });
    expect(seen['workers'].map((x: { name: string }) => x.name)).toEqual(['ops-worker']);
    const text = await runCliAsync(['batch', 'status', '--redis', redis.url, '--queue', queue]);
    expect(text.stdout).toMatch(new RegExp(`^queue ops on redis://127\\.0\\.0\\.1:\\d+: ${8 - taken.length} queued, ${taken.length} active, 0 done, 0 failed\nworkers  ops-worker\n$`));
    const c = await runCliAsync(['batch', 'cancel', '--redis', redis.url, '--queue', queue, '--json']);
    expect(c.code).toBe(0);
    expect(json(c.stdout)).toMatchObject({ queue, removed: 8 - taken.length, active: taken.length });
    expect(await batch.exited).toBe(1);
    expect(batch.stderr().trim().split('\n').pop()).toMatch(/^retrosim: the queue ops was cancelled \(retrosim batch cancel\); the results so far are kept$/);
    noStack(batch.stderr());
    expect(await client.llen(`bull:${queue}:wait`)).toBe(0);
    // The jobs it held are stopped too (they would take hours), not put back: the worker is free again.
    await waitFor('the running jobs stopped', async () => (await client.llen(`bull:${queue}:active`)) === 0);
    expect(await client.llen(`bull:${queue}:wait`)).toBe(0);
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    noStack(w.stderr());
  });

  it('Redis going away mid-batch: the loss is reported (no stack trace), retried, and the batch finishes with the same results', async () => {
    const queue = 'loss';
    const file = inputsCopy('loss');
    const out = join(tmp, 'loss', 'out', 'cmp.jsonl');
    const w = worker(queue, 'patient');
    const batch = cli(['batch', file, '--redis', redis.url, '--queue', queue, '--out', out, '--json']);
    const journal = join(tmp, 'loss', 'out', 'cmp.journal.jsonl');
    await waitFor('a result journalled', () => {
      try {
        return readFileSync(journal, 'utf8').includes('\n');
      } catch {
        return false;
      }
    });
    const port = redis.port;
    await redis.stop();
    await waitFor('the worker to report the loss', () => /connection lost/.test(w.stderr()));
    await waitFor('the batch to report the loss', () => /connection lost/.test(batch.stderr()));
    redis = await startRedis(port); // the same port, empty: nothing persisted
    expect(await batch.exited).toBe(1); // the broken world, as always
    const s = json(batch.stdout());
    expect(s).toMatchObject({ done: RUNNABLE, failed: 1, interrupted: false });
    expect(readFileSync(out)).toEqual(readFileSync(reference));
    expect(batch.stderr()).toMatch(/connected again after/);
    await waitFor('the worker to reconnect', () => /connected again after/.test(w.stderr()));
    noStack(batch.stderr());
    noStack(w.stderr());
    expect(await stop(w)).toBe(0);
  });

  it("the batch's one-pipeline state check answers as BullMQ's getJobState does: completed, failed, running, waiting, delayed, gone", async () => {
    const { Queue, Worker } = await import('bullmq');
    const qc = new Redis(redis.url, { maxRetriesPerRequest: null });
    const wc = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue('states', { connection: qc });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const w = new Worker(
      'states',
      async (job) => {
        if (job.id === 'jfail') throw new Error('fails');
        if (job.id === 'jhold') {
          started();
          await held;
        }
        return 1;
      },
      { connection: wc, concurrency: 1, autorun: false },
    );
    try {
      for (const id of ['jdone', 'jfail', 'jhold', 'jwait']) await queue.add('x', {}, { jobId: id });
      await queue.add('x', {}, { jobId: 'jlater', delay: 3_600_000 });
      void w.run();
      await running; // one at a time, in order: jdone and jfail are finished, jhold runs, jwait waits
      const ids = ['jdone', 'jfail', 'jhold', 'jwait', 'jlater', 'jgone'];
      expect(await Promise.all(ids.map((id) => queue.getJobState(id)))).toEqual(['completed', 'failed', 'active', 'waiting', 'delayed', 'unknown']);
      expect(await queuedStates(qc, queue, ids)).toEqual(['completed', 'failed', 'queued', 'queued', 'queued', 'unknown']);
      expect(await queuedStates(qc, queue, [])).toEqual([]);
    } finally {
      release();
      await w.close();
      await queue.obliterate({ force: true });
      await queue.close();
      qc.disconnect();
      wc.disconnect();
    }
  });

  it('a Redis that is not there: one line after the timeout, exit 1', async () => {
    const port = await freePort();
    const r = await runCliAsync(['batch', inputsCopy('none'), '--redis', `redis://127.0.0.1:${port}`, '--redis-timeout', '2']);
    expect(r.code).toBe(1);
    noStack(r.stderr);
    const last = r.stderr.trim().split('\n');
    // (Its first line says it has no key; the connection is the next.)
    expect(last[0]).toMatch(/^batch cmp: no key: /);
    expect(last[1]).toMatch(/^redis redis:\/\/127\.0\.0\.1:\d+: connection lost \(ECONNREFUSED\); retrying with backoff$/);
    expect(last[last.length - 1]).toMatch(/^retrosim: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\) within 2 s$/);
  });
});
