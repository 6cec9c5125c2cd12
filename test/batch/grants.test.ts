/**
 * A keyed job's signature binds its queue, its batch run and an expiry, against a real redis-server and
 * real worker processes: the jobs of a keyed batch carry their grant and the run keeps a signed record while
 * it goes on and removes it when it ends; a signed job taken from that batch and copied onto another queue
 * is refused there, and put back on its own queue after the batch ended it is refused too (also when the
 * run's record, copied while it ran, is planted again once its time is over); a job whose signature
 * expired, or that was signed the old way (binding nothing), is refused. Each refusal fails the job with
 * its reason, is said in the worker's log, and runs nothing. Jobs an interrupted keyed run left on the
 * queue are signed again by the next run and done by keyed workers, without counting attempts.
 * Nothing here waits on time alone: every wait is for a condition, with generous timeouts.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchKey } from '../../src/batch/auth.js';
import { planBatch } from '../../src/batch/plan.js';
import { cli, killAll, repoRoot, runCliAsync, startRedis, waitFor, writeBatch, type Proc, type RedisServer } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-batch-grants-'));
let redis: RedisServer;
let client: Redis;
const outputs: Proc[] = [];

const KEY = `grant-${'7c2e91'.repeat(6)}`;
const keyFile = join(tmp, 'a.key');
writeFileSync(keyFile, KEY, { mode: 0o600 });

const BATCH = { batch: 1, name: 'g', retries: 0, defaults: { frames: 60, measure: ['draws'] }, sweep: { world: 'level.col', agents: [2, 3] } };
const JOBS = 2;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function batchCopy(name: string): { file: string; out: string } {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  cpSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(dir, 'level.col'));
  return { file: writeBatch(dir, 'g', BATCH), out: join(dir, 'out', 'g.jsonl') };
}

const json = (s: string) => JSON.parse(s.trim().split('\n').pop()!) as Record<string, any>;
const events = (s: string) => s.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);

function run(args: string[]): Proc {
  const p = cli(args);
  outputs.push(p);
  return p;
}

const worker = (queue: string, name: string) => run(['worker', '--redis', redis.url, '--queue', queue, '--name', name, '--json', '--key-file', keyFile]);
const batch = (queue: string, file: string, out: string) => run(['batch', file, '--redis', redis.url, '--queue', queue, '--out', out, '--json', '--key-file', keyFile]);

async function ended(p: Proc): Promise<number> {
  const code = await p.exited;
  await waitFor('the output read to its end', () => p.child.stdout!.readableEnded && p.child.stderr!.readableEnded);
  return code;
}

async function stop(p: Proc): Promise<Record<string, any>> {
  p.child.kill('SIGTERM');
  expect(await ended(p)).toBe(0);
  return events(p.stdout()).find((e) => e['event'] === 'stopped')!;
}

/** The jobs waiting on a queue: id -> data as stored. */
async function waitingJobs(queue: string, count: number): Promise<Map<string, Record<string, any>>> {
  const ids = await waitFor(`${count} jobs waiting on ${queue}`, async () => {
    const l = await client.lrange(`bull:${queue}:wait`, 0, -1);
    return l.length === count ? l : undefined;
  });
  const out = new Map<string, Record<string, any>>();
  for (const id of ids) out.set(id, JSON.parse((await client.hget(`bull:${queue}:${id}`, 'data'))!) as Record<string, any>);
  return out;
}

/** Adds `data` as job `id` on `queue` and waits for it to finish (failed, or run); its failure and return value. */
async function planted(queue: string, id: string, data: unknown): Promise<{ reason: string; returned: unknown }> {
  const q = new Queue(queue, { connection: client });
  try {
    await q.add('run', data, { jobId: id });
    const job = await waitFor(`job ${id} finished`, async () => {
      const j = await q.getJob(id);
      return j?.failedReason || j?.finishedOn ? j : undefined;
    });
    return { reason: job.failedReason ?? '', returned: job.returnvalue };
  } finally {
    await q.close();
  }
}

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url, { maxRetriesPerRequest: null });
}, 120_000);

afterAll(async () => {
  client?.disconnect();
  await killAll();
  await redis?.stop();
  for (const p of outputs) expect(p.stdout() + p.stderr()).not.toContain(KEY);
  rmSync(tmp, { recursive: true, force: true });
}, 120_000);

describe('batch keys: a signature binds the queue, the batch run and an expiry', { timeout: 600_000 }, () => {
  it('a signed job copied onto another queue, or put back after its batch ended (its run record planted again too), is refused with the reason and never runs', async () => {
    const { file, out } = batchCopy('first');
    const b = batch('first', file, out);
    const jobs = await waitingJobs('first', JOBS);
    const run = [...jobs.values()][0]!['grant']?.['run'] as string;
    // The run's record, copied while the run goes on.
    const record = await client.get(`retrosim:first:run:${run}`);
    const w = worker('first', 'w1');
    expect(await ended(b)).toBe(0);
    expect(json(b.stdout())).toMatchObject({ done: JOBS, failed: 0 });
    const [copied, again, later] = [...jobs.values()].map((d) => structuredClone(d)) as Record<string, any>[];

    // Onto another queue, served by a worker with the same key.
    const w2 = worker('second', 'w2');
    const onOther = await planted('second', 'jcopied', copied);
    expect(onOther.reason).toBe('refused by worker w2: the job was signed for queue first, not for this queue (second); not run');
    expect(onOther.returned).toBeFalsy();

    // What the jobs carried, and the run's record: there while the run went on, gone once it ended.
    for (const data of jobs.values()) {
      expect(Object.keys(data['grant']).sort()).toEqual(['expires', 'queue', 'run']);
      expect(data['grant']).toMatchObject({ queue: 'first', run });
      expect(data['grant']['expires']).toBeGreaterThan(Date.now());
      expect(data['mac']).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(run).toMatch(UUID);
    expect(JSON.parse(record!)).toMatchObject({ queue: 'first', run, until: expect.any(Number), mac: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await client.exists(`retrosim:first:run:${run}`)).toBe(0);

    // Back on its own queue, after its batch ended.
    const replayed = await planted('first', 'jagain', again ?? copied);
    expect(replayed.reason).toBe(`refused by worker w1: its batch run ${run} has ended (its run record is gone from the queue); not run`);
    expect(replayed.returned).toBeFalsy();

    // With the run's record planted again once the time it signed is over (on the Redis server's clock).
    const until = (JSON.parse(record!) as { until: number }).until;
    await waitFor('the Redis clock past the record', async () => {
      const [s, us] = (await client.time()).map(Number);
      return s! * 1000 + Math.floor(us! / 1000) > until;
    }, 120_000, 250);
    await client.set(`retrosim:first:run:${run}`, record!);
    const late = await planted('first', 'jlate', later ?? copied);
    expect(late.reason).toMatch(new RegExp(`^refused by worker w1: its batch run ${run} has ended \\(its run record lapsed at \\d{4}-\\d\\d-\\d\\dT[^)]+, Redis time\\); not run$`));

    const s1 = await stop(w);
    const s2 = await stop(w2);
    expect(s1).toMatchObject({ done: JOBS, refused: 2 });
    expect(s2).toMatchObject({ done: 0, refused: 1 });
    const told = [...events(w.stdout()), ...events(w2.stdout())].filter((e) => e['event'] === 'refused').map((e) => [e['job'], e['reason']]);
    expect(told.sort()).toEqual([['jagain', 'run-ended'], ['jcopied', 'queue'], ['jlate', 'run-ended']]);
  });

  it('a job whose signature has expired, or signed the old way (its payload alone), is refused', async () => {
    const { file } = batchCopy('expiry');
    const plan = await planBatch(file);
    const payload = plan.jobs[0]!.payload!;
    const key = new BatchKey(Buffer.from(KEY));
    const w = worker('expiry', 'w3');
    const grant = { queue: 'expiry', run: '0f1e2d3c-4b5a-4968-8776-655443322110', expires: Date.now() - 1000 };
    const expired = await planted('expiry', 'jexpired', { ...payload, grant, mac: key.sign('job', { ...payload, grant }) });
    expect(expired.reason).toMatch(/^refused by worker w3: the job's signature expired at \d{4}-\d\d-\d\dT\S+ \(this worker's clock: \d{4}-\d\d-\d\dT\S+\); not run$/);
    const old = await planted('expiry', 'jold', { ...payload, mac: key.sign('job', payload) });
    expect(old.reason).toBe("refused by worker w3: the job's signature binds no queue, batch run and expiry (signed by an older retrosim batch: run the batch with this version); not run");
    expect(await stop(w)).toMatchObject({ done: 0, refused: 2 });
    expect(events(w.stdout()).filter((e) => e['event'] === 'refused').map((e) => e['reason']).sort()).toEqual(['expired', 'unbound']);
  });

  it("jobs an interrupted keyed run left on the queue are signed again by the next run and done, no attempt counted", async () => {
    const { file, out } = batchCopy('resumed');
    const first = batch('resumed', file, out);
    const before = await waitingJobs('resumed', JOBS);
    const oldRun = [...before.values()][0]!['grant']['run'] as string;
    first.child.kill('SIGKILL');
    await first.exited;
    // The next run of the file (retries 0: a counted refusal would fail a job) and a keyed worker.
    const second = batch('resumed', file, out);
    const after = await waitFor('the jobs signed for the next run', async () => {
      const m = await waitingJobs('resumed', JOBS);
      const r = new Set([...m.values()].map((d) => d['grant']['run'] as string));
      return r.size === 1 && !r.has(oldRun) ? m : undefined;
    });
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    const w = worker('resumed', 'w4');
    expect(await ended(second)).toBe(0);
    expect(json(second.stdout())).toMatchObject({ done: JOBS, failed: 0, retried: 0, refusedByWorkers: 0 });
    expect(await stop(w)).toMatchObject({ done: JOBS, refused: 0 });
    const local = join(tmp, 'resumed-local.jsonl');
    const r = await runCliAsync(['batch', file, '--workers', '1', '--out', local, '--json']);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(local, 'utf8'));
  });
});
