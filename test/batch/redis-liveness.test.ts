/**
 * Nothing on the queue path waits forever: a Redis killed or frozen (SIGSTOP) mid-batch ends the batch
 * after --redis-timeout with one line; a signal stops a batch or a worker within seconds whatever state
 * Redis is in, leaving no results file that looks finished; `batch cancel` stops running jobs and a
 * second signal does not put them back; a job's time limit (maxSeconds); two batches sharing a queue and
 * a replay to verify. Real redis-servers (one per test that harms it) and real processes; every wait is
 * on a condition, and the bounds on how long things take are generous (the machine may be loaded).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKER_PREFETCH } from '../../src/batch/redis-worker.js';
import { cli, killAll, repoRoot, runCliAsync, startRedis, waitFor, writeBatch, type Proc, type RedisServer } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-batch-liveness-'));
const inputs = join(tmp, 'inputs');
mkdirSync(inputs, { recursive: true });
cpSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(inputs, 'level.col'));

/** Jobs that never end within a test (hours each, however fast the machine). */
const FOREVER = 50_000_000;
/** How long anything below may take to stop: generous, for a loaded machine. */
const BOUND_MS = 60_000;

const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
const json = (s: string) => JSON.parse(s.trim().split('\n').pop()!) as Record<string, any>;
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);
const lastLine = (s: string) => s.trim().split('\n').pop()!;

/** A folder holding the inputs and a batch file; returns the batch file's path and its results file. */
function batchIn(name: string, batch: unknown): { file: string; out: string; journal: string } {
  const dir = join(tmp, name);
  cpSync(inputs, dir, { recursive: true });
  return { file: writeBatch(dir, 'b', batch), out: join(dir, 'out', 'b.jsonl'), journal: join(dir, 'out', 'b.journal.jsonl') };
}

/** A short job first (so a result is journalled), then jobs that never end. */
const SHORT_THEN_FOREVER = { batch: 1, name: 'b', jobs: [{ world: 'level.col', agents: 5, frames: 30 }, { world: 'level.col', agents: 5, frames: FOREVER }, { world: 'level.col', agents: 6, frames: FOREVER }] };

function journalled(journal: string): number {
  try {
    return readFileSync(journal, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** The exit code, or a failure when the process has not exited within `ms`. */
async function exitsWithin(p: Proc, ms: number, what: string): Promise<number> {
  let t: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (t = setTimeout(() => reject(new Error(`${what} did not exit within ${ms} ms; stderr:\n${p.stderr()}`)), ms)));
  try {
    return await Promise.race([p.exited, late]);
  } finally {
    clearTimeout(t);
  }
}

/** The ids of the jobs active on a queue once there are `n`, sorted; undefined before. */
async function active(client: Redis, queue: string, n: number): Promise<string[] | undefined> {
  const ids = await client.lrange(`bull:${queue}:active`, 0, -1);
  return ids.length === n ? ids.sort() : undefined;
}

type RedisState = 'up' | 'killed' | 'frozen';

/** Runs `body` with a Redis of its own, always left running or gone (never stopped) after. */
async function withRedis(body: (r: RedisServer, client: Redis) => Promise<void>): Promise<void> {
  const r = await startRedis();
  const client = new Redis(r.url, { maxRetriesPerRequest: null });
  client.on('error', () => undefined);
  try {
    await body(r, client);
  } finally {
    client.disconnect();
    r.child.kill('SIGCONT');
    await r.stop();
  }
}

async function harm(r: RedisServer, state: RedisState): Promise<void> {
  if (state === 'killed') await r.stop();
  else if (state === 'frozen') r.child.kill('SIGSTOP');
}

afterAll(async () => {
  await killAll();
  rmSync(tmp, { recursive: true, force: true });
}, 120_000);

describe('nothing on the queue path waits forever', { timeout: 300_000 }, () => {
  for (const state of ['killed', 'frozen'] as const) {
    it(`a Redis ${state} mid-batch: the batch ends after --redis-timeout with one line, the results so far in the journal`, async () => {
      await withRedis(async (r) => {
        const { file, out, journal } = batchIn(`lost-${state}`, SHORT_THEN_FOREVER);
        const w = cli(['worker', '--redis', r.url, '--queue', 'q', '--name', 'w', '--redis-timeout', '2']);
        const batch = cli(['batch', file, '--redis', r.url, '--queue', 'q', '--out', out, '--redis-timeout', '3']);
        await waitFor('the short job journalled', () => journalled(journal) === 1, BOUND_MS * 2);
        const lost = Date.now();
        await harm(r, state);
        const code = await exitsWithin(batch, BOUND_MS, 'the batch');
        const took = Date.now() - lost;
        expect(code).toBe(1);
        // Not before the timeout (less the probe's interval: the silence counts from the last answer).
        expect(took).toBeGreaterThanOrEqual(2000);
        noStack(batch.stderr());
        const why = state === 'killed' ? 'unreachable for 3 s \\(ECONNREFUSED\\)' : 'has not answered for 3 s';
        expect(lastLine(batch.stderr())).toMatch(new RegExp(`^retrosim: Redis at redis://127\\.0\\.0\\.1:\\d+ ${why}; the results so far are kept, run the batch again to go on$`));
        expect(existsSync(out)).toBe(false);
        expect(lines(journal).map((l) => l['status'])).toEqual(['done']);
        // The worker, holding a job it cannot deliver: one SIGTERM, and it stops waiting for Redis.
        w.child.kill('SIGTERM');
        expect(await exitsWithin(w, BOUND_MS, 'the worker')).toBe(1);
        expect(w.stderr()).toMatch(/has not answered for 2 s: stopping without it; the \d+ jobs? held go back to the queue when (its lock expires|their locks expire)/);
        noStack(w.stderr());
      });
    });
  }

  it('a --redis URL the client cannot use (bad host, port over 65535, a database that is not a number, a broken %-escape) is a usage error before any connection, never a crash or a retried SELECT', async () => {
    const { file, out } = batchIn('bad-url', { batch: 1, name: 'b', jobs: [{ world: 'level.col', agents: 2, frames: 5 }] });
    const urls: [string, RegExp][] = [
      ['redis://[::1', /not a URL/],
      ['redis://127.0.0.1:99999', /not a URL/],
      ['redis://127.0.0.1:6379/abc', /the database must be a number/],
      ['redis://:pw%zz@127.0.0.1:6379', /a user name or password with a broken %-escape/],
    ];
    for (const [url, why] of urls) {
      for (const args of [['batch', file, '--redis', url, '--out', out, '--redis-timeout', '2'], ['worker', '--redis', url], ['batch', 'status', '--redis', url, '--redis-timeout', '2']]) {
        const r = await runCliAsync(args, BOUND_MS * 2);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(lastLine(r.stderr)).toMatch(new RegExp(`^retrosim: --redis ".*": ${why.source}`));
        expect(r.stderr).not.toContain('pw%zz');
        noStack(r.stderr);
      }
    }
    expect(existsSync(out)).toBe(false);
  });

  it('batch status and batch cancel on a frozen Redis: one line after --redis-timeout, exit 1', async () => {
    await withRedis(async (r) => {
      r.child.kill('SIGSTOP');
      for (const which of ['status', 'cancel']) {
        const p = cli(['batch', which, '--redis', r.url, '--queue', 'q', '--redis-timeout', '2']);
        expect(await exitsWithin(p, BOUND_MS, `batch ${which}`)).toBe(1);
        noStack(p.stderr());
        expect(lastLine(p.stderr())).toMatch(/^retrosim: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ \(no answer\) within 2 s$/);
      }
    });
  });

  for (const state of ['up', 'killed', 'frozen'] as const) {
    it(`one SIGTERM stops a batch, and one a worker, within seconds with Redis ${state}: exit 130, the journal kept, no results file`, async () => {
      await withRedis(async (r, client) => {
        const { file, out, journal } = batchIn(`term-${state}`, SHORT_THEN_FOREVER);
        const w = cli(['worker', '--redis', r.url, '--queue', 'q', '--name', 'w', '--redis-timeout', '2', '--grace', '1']);
        // The default --redis-timeout (120 s): a signal does not wait for it.
        const batch = cli(['batch', file, '--redis', r.url, '--queue', 'q', '--out', out]);
        await waitFor('the short job journalled', () => journalled(journal) === 1, BOUND_MS * 2);
        await waitFor('the worker on the long jobs', () => active(client, 'q', 1 + WORKER_PREFETCH), BOUND_MS);
        await harm(r, state);
        batch.child.kill('SIGTERM');
        expect(await exitsWithin(batch, 30_000, 'the batch')).toBe(130);
        noStack(batch.stderr());
        expect(batch.stderr()).toMatch(/SIGTERM: stopping \(finished results are kept; run the batch again to go on\)/);
        expect(batch.stdout()).toMatch(/interrupted: the results so far are kept/);
        expect(existsSync(out)).toBe(false);
        expect(lines(journal).map((l) => l['status'])).toEqual(['done']);
        if (state === 'up') {
          // Redis answers: the worker's one SIGTERM gives its (endless) jobs their grace, then releases them.
          w.child.kill('SIGTERM');
          expect(await exitsWithin(w, BOUND_MS, 'the worker')).toBe(0);
          expect(w.stderr()).toMatch(/finishing 1 running job and 1 taken next, taking no more; what is not done in 1 s goes back to the queue/);
          expect(w.stderr()).toMatch(/1 s of grace over: releasing 1 running job and 1 taken next back to the queue/);
          expect(await client.llen('bull:q:wait')).toBe(1 + WORKER_PREFETCH);
        } else {
          w.child.kill('SIGTERM');
          expect(await exitsWithin(w, BOUND_MS, 'the worker')).toBe(1);
          expect(w.stderr()).toMatch(/has not answered for 2 s: stopping without it/);
        }
        noStack(w.stderr());
      });
    });
  }

  it('batch cancel stops the jobs running on a worker (their threads stopped), which then takes the next batch', async () => {
    await withRedis(async (r, client) => {
      const long = batchIn('cancel-long', { batch: 1, name: 'b', sweep: { world: 'level.col', agents: 5, frames: FOREVER, seed: { from: 1, count: 4 } } });
      const w = cli(['worker', '--redis', r.url, '--queue', 'q', '--name', 'w']);
      const batch = cli(['batch', long.file, '--redis', r.url, '--queue', 'q', '--out', long.out]);
      const held = await waitFor('the worker on its jobs', () => active(client, 'q', 1 + WORKER_PREFETCH), BOUND_MS);
      const c = await runCliAsync(['batch', 'cancel', '--redis', r.url, '--queue', 'q', '--json']);
      expect(c.code).toBe(0);
      expect(json(c.stdout)).toMatchObject({ removed: 4 - held.length, active: held.length });
      expect(await exitsWithin(batch, BOUND_MS, 'the batch')).toBe(1);
      await waitFor('the running jobs stopped', async () => (await client.llen('bull:q:active')) === 0, BOUND_MS);
      // Each failed as cancelled: still on the queue's failed set, or collected so by the batch (into its journal)
      // when the worker stopped it before the batch saw the cancel (a loaded machine's order).
      const journal = existsSync(long.journal) ? lines(long.journal) : [];
      for (const id of held) {
        if ((await client.zscore('bull:q:failed', id)) !== null) expect(await client.hget(`bull:q:${id}`, 'failedReason')).toBe('cancelled (retrosim batch cancel)');
        else expect(journal.find((l) => `j${l['key']}` === id)).toMatchObject({ status: 'failed', error: 'cancelled (retrosim batch cancel)' });
      }
      expect(w.stderr()).toMatch(/the queue was cancelled: stopping 2 jobs held/);
      // The worker goes on with the next batch.
      const next = batchIn('cancel-next', { batch: 1, name: 'b', jobs: [{ world: 'level.col', agents: 5, frames: 30 }] });
      const n = await runCliAsync(['batch', next.file, '--redis', r.url, '--queue', 'q', '--out', next.out, '--json'], BOUND_MS * 2);
      expect(n.code).toBe(0);
      expect(json(n.stdout)).toMatchObject({ done: 1, failed: 0 });
      w.child.kill('SIGTERM');
      expect(await exitsWithin(w, BOUND_MS, 'the worker')).toBe(0);
      noStack(w.stderr());
    });
  });

  it('a cancelled job is not put back on the queue by a worker’s second SIGTERM', async () => {
    await withRedis(async (r, client) => {
      const long = batchIn('cancel-term', { batch: 1, name: 'b', sweep: { world: 'level.col', agents: 5, frames: FOREVER, seed: { from: 1, count: 4 } } });
      // A slow probe would not matter: the second signal itself checks for a cancel before releasing.
      const w = cli(['worker', '--redis', r.url, '--queue', 'q', '--name', 'w']);
      const batch = cli(['batch', long.file, '--redis', r.url, '--queue', 'q', '--out', long.out]);
      const held = await waitFor('the worker on its jobs', () => active(client, 'q', 1 + WORKER_PREFETCH), BOUND_MS);
      expect((await runCliAsync(['batch', 'cancel', '--redis', r.url, '--queue', 'q'])).code).toBe(0);
      w.child.kill('SIGTERM');
      w.child.kill('SIGTERM');
      expect(await exitsWithin(w, BOUND_MS, 'the worker')).toBe(0);
      expect(await exitsWithin(batch, BOUND_MS, 'the batch')).toBe(1);
      // Not back on the queue: failed as cancelled (and perhaps collected so by the batch before it stopped).
      expect(await client.llen('bull:q:wait')).toBe(0);
      expect(await client.llen('bull:q:active')).toBe(0);
      for (const id of held) {
        const failed = (await client.zscore('bull:q:failed', id)) !== null;
        if (failed) expect(await client.hget(`bull:q:${id}`, 'failedReason')).toBe('cancelled (retrosim batch cancel)');
        else expect(await client.exists(`bull:q:${id}`)).toBe(0);
      }
      const journal = existsSync(long.journal) ? lines(long.journal) : [];
      for (const l of journal) expect(l).toMatchObject({ status: 'failed', error: 'cancelled (retrosim batch cancel)' });
      noStack(w.stderr());
    });
  });

  it('maxSeconds: a job past its time limit fails with that reason and is not retried (locally and on a worker); the limit is not in the key', async () => {
    const batch = { batch: 1, name: 'b', retries: 2, jobs: [{ world: 'level.col', agents: 5, frames: 30 }, { world: 'level.col', agents: 5, frames: FOREVER, maxSeconds: 1 }] };
    const reason = 'stopped after its time limit of 1 s (maxSeconds)';
    const local = batchIn('limit-local', batch);
    const l = await runCliAsync(['batch', local.file, '--workers', '2', '--out', local.out, '--json'], BOUND_MS * 2);
    expect(l.code).toBe(1);
    expect(json(l.stdout)).toMatchObject({ done: 1, failed: 1, retried: 0 });
    expect(lines(local.out)[1]).toMatchObject({ status: 'failed', error: reason });
    await withRedis(async (r) => {
      const q = batchIn('limit-redis', batch);
      const w = cli(['worker', '--redis', r.url, '--queue', 'q', '--name', 'w']);
      const b = await runCliAsync(['batch', q.file, '--redis', r.url, '--queue', 'q', '--out', q.out, '--json'], BOUND_MS * 2);
      expect(b.code).toBe(1);
      expect(json(b.stdout)).toMatchObject({ done: 1, failed: 1, retried: 0 });
      expect(readFileSync(q.out)).toEqual(readFileSync(local.out));
      w.child.kill('SIGTERM');
      expect(await exitsWithin(w, BOUND_MS, 'the worker')).toBe(0);
    });
    // Another limit, the same jobs: the done one is taken from the results.
    const again = writeBatch(join(tmp, 'limit-local'), 'b', { ...batch, jobs: [{ ...batch.jobs[0], maxSeconds: 100 }] });
    const a = await runCliAsync(['batch', again, '--workers', '1', '--out', local.out, '--json']);
    expect(json(a.stdout)).toMatchObject({ jobs: 1, cached: 1, ran: 0 });
    const bad = writeBatch(join(tmp, 'limit-local'), 'bad', { ...batch, jobs: [{ ...batch.jobs[0], maxSeconds: 0 }] });
    const e = await runCliAsync(['batch', bad, '--workers', '1']);
    expect(e.code).not.toBe(0);
    expect(lastLine(e.stderr)).toMatch(/jobs\[0\]\.maxSeconds must be an integer in 1\.\.604800, got 0$/);
  });

  it('a batch stopped (SIGSTOP) for longer than --redis-timeout while Redis answers goes on when it runs again: its own pause is not Redis\'s silence', async () => {
    await withRedis(async (r, client) => {
      const { file, out } = batchIn('paused-batch', { batch: 1, name: 'b', jobs: [{ world: 'level.col', agents: 5, frames: 30 }] });
      const batch = cli(['batch', file, '--redis', r.url, '--queue', 'q', '--out', out, '--redis-timeout', '2', '--json']);
      await waitFor("the batch's job on the queue", async () => (await client.llen('bull:q:wait')) === 1, BOUND_MS);
      batch.child.kill('SIGSTOP');
      try {
        // Paused past its timeout (counted by Redis's own clock, which runs meanwhile): its probes' answers wait
        // unread in its socket.
        const t0 = Number((await client.time())[0]);
        await waitFor('4 s of Redis time', async () => Number((await client.time())[0]) - t0 >= 4, BOUND_MS);
      } finally {
        batch.child.kill('SIGCONT');
      }
      const w = cli(['worker', '--redis', r.url, '--queue', 'q', '--name', 'w']);
      try {
        expect(await exitsWithin(batch, BOUND_MS * 2, 'the batch')).toBe(0);
        expect(json(batch.stdout())).toMatchObject({ done: 1, failed: 0 });
        expect(batch.stderr()).not.toMatch(/has not answered/);
      } finally {
        w.child.kill('SIGTERM');
        await exitsWithin(w, BOUND_MS, 'the worker');
      }
    });
  });

  it('two batches on one queue verifying the same replay: one finishing does not delete what the other still needs', async () => {
    // A replay whose check takes a moment (so its worker can be paused in the middle).
    const gen = batchIn('share-gen', { batch: 1, name: 'b', jobs: [{ world: 'level.col', agents: 20, frames: 4000, keepReplay: true }] });
    expect((await runCliAsync(['batch', gen.file, '--workers', '1', '--out', gen.out])).code).toBe(0);
    const replay = lines(gen.out)[0]!['result']['replay']['file'] as string;
    // Two batch files verifying the same bytes under other names: two jobs, one input.
    const a = batchIn('share-a', { batch: 1, name: 'b', verify: { replays: 'a' } });
    const b = batchIn('share-b', { batch: 1, name: 'b', verify: { replays: 'b' } });
    cpSync(join(tmp, 'share-gen', 'out', replay), join(tmp, 'share-a', 'a', 'r.replay'));
    cpSync(join(tmp, 'share-gen', 'out', replay), join(tmp, 'share-b', 'b', 'r.replay'));
    await withRedis(async (r, client) => {
      const batchA = cli(['batch', a.file, '--redis', r.url, '--queue', 'q', '--out', a.out, '--json']);
      await waitFor("batch A's job on the queue", async () => (await client.llen('bull:q:wait')) === 1, BOUND_MS);
      // The first worker takes A's job and is told to stop (it takes nothing more), then paused (with a
      // lock that outlasts the pause however loaded the machine).
      const w1 = cli(['worker', '--redis', r.url, '--queue', 'q', '--name', 'w1', '--lock-ms', '3600000', '--grace', '3600']);
      await waitFor("the first worker on A's job", () => active(client, 'q', 1), BOUND_MS);
      w1.child.kill('SIGTERM');
      await waitFor('the first worker to say it is finishing', () => /finishing/.test(w1.stderr()), BOUND_MS);
      w1.child.kill('SIGSTOP');
      try {
        // B puts the same replay while A still needs it.
        const batchB = cli(['batch', b.file, '--redis', r.url, '--queue', 'q', '--out', b.out, '--json']);
        await waitFor("batch B's job on the queue", async () => (await client.llen('bull:q:wait')) === 1, BOUND_MS);
        w1.child.kill('SIGCONT');
        expect(await exitsWithin(batchA, BOUND_MS * 2, 'batch A')).toBe(0);
        expect(await exitsWithin(w1, BOUND_MS, 'the first worker')).toBe(0);
        // A is done with the replay; B is not: a worker that never saw it must still find it.
        const w2 = cli(['worker', '--redis', r.url, '--queue', 'q', '--name', 'w2']);
        expect(await exitsWithin(batchB, BOUND_MS * 2, 'batch B')).toBe(0);
        // The first worker, stopping, ran no more than A's job: B's (if BullMQ woke it for it) went back.
        expect(w1.stderr()).toMatch(/stopped after 1 job done/);
        expect(json(batchB.stdout())).toMatchObject({ done: 1 });
        expect(json(batchB.stdout())).toMatchObject({ done: 1, failed: 0, diverged: 0 });
        expect(lines(b.out)[0]).toMatchObject({ status: 'done', result: { ok: true } });
        // The last holder gone, so is the replay.
        const sha = lines(b.out)[0]!['result']['replay']['sha256'] as string;
        expect(await client.exists(`retrosim:q:blob:${sha}`)).toBe(0);
        // B ran on the second worker, so its signal handler is in place (it says so before taking jobs).
        await waitFor('the second worker ready', () => /taking jobs/.test(w2.stderr()), BOUND_MS);
        w2.child.kill('SIGTERM');
        expect(await exitsWithin(w2, BOUND_MS, 'the second worker')).toBe(0);
        expect(w2.stderr()).toMatch(/stopped after 1 job done/);
      } finally {
        w1.child.kill('SIGCONT');
      }
    });
  });
});
