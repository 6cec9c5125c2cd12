/**
 * Who may take part in a batch on a queue, against a real redis-server and real worker processes: with a
 * key on both sides a batch gives the local bytes; a job not signed with a worker's key is refused and
 * never runs; a worker without the key (or with another) is refused and its jobs go to a right worker;
 * forged results (a line break, a key twice, a field more, too large, not canonical, another type, a kept
 * replay that is not the one named) never reach the results file; a worker of other code (a patched
 * build saying the same version) puts the jobs back, the batch says so, and a right worker finishes them;
 * key files are checked like ssh checks a private key, and no key is ever printed.
 * Nothing here waits on time alone: every wait is for a condition, with generous timeouts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchKey } from '../../src/batch/auth.js';
import { planBatch } from '../../src/batch/plan.js';
import { replayKey, type WorkerReturn } from '../../src/batch/queue-keys.js';
import { cli, copyRuntime, killAll, repoRoot, runCliAsync, startRedis, waitFor, writeBatch, type Proc, type RedisServer } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-batch-trust-'));
let redis: RedisServer;
let client: Redis;
const outputs: Proc[] = [];
const others: ChildProcess[] = [];

const inputs = join(tmp, 'inputs');
mkdirSync(inputs, { recursive: true });
cpSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(inputs, 'level.col'));

/** Seven jobs (the last keeps its replay); retries enough for every refusal below (they do not change the results). */
const BATCH = {
  batch: 1,
  name: 't',
  retries: 10,
  defaults: { frames: 300, measure: ['draws', 'los'] },
  sweep: { world: 'level.col', agents: [4, 8], seed: { from: 1, count: 3 } },
  jobs: [{ world: 'level.col', agents: 3, keepReplay: true }],
};
const JOBS = 7;

const KEY_A = `alpha-${'5f3a9c'.repeat(6)}`;
const KEY_B = `bravo-${'c1e07d'.repeat(6)}`;
const keyA = join(tmp, 'a.key');
const keyB = join(tmp, 'b.key');
writeFileSync(keyA, `${KEY_A}\n`, { mode: 0o600 });
writeFileSync(keyB, KEY_B, { mode: 0o600 });

function batchCopy(name: string): { file: string; out: string } {
  const dir = join(tmp, name);
  cpSync(inputs, dir, { recursive: true });
  return { file: writeBatch(dir, 't', BATCH), out: join(dir, 'out', 't.jsonl') };
}

const json = (s: string) => JSON.parse(s.trim().split('\n').pop()!) as Record<string, any>;
const events = (s: string) => s.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);

function run(args: string[], env: NodeJS.ProcessEnv = {}): Proc {
  const p = cli(args, env);
  outputs.push(p);
  return p;
}

function worker(queue: string, name: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Proc {
  return run(['worker', '--redis', redis.url, '--queue', queue, '--name', name, '--json', ...extra], env);
}

function batch(queue: string, file: string, out: string, extra: string[] = []): Proc {
  return run(['batch', file, '--redis', redis.url, '--queue', queue, '--out', out, '--json', ...extra]);
}

/** The exit code once the process has exited and its output is all read ('exit' can come before the last output). */
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

let reference: string;
let referenceReplay: Buffer;
let referenceLines: Record<string, any>[];

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url, { maxRetriesPerRequest: null });
  const { file, out } = batchCopy('local');
  const r = await runCliAsync(['batch', file, '--workers', '2', '--out', out, '--json']);
  expect(json(r.stdout)).toMatchObject({ done: JOBS, failed: 0 });
  reference = readFileSync(out, 'utf8');
  referenceLines = reference.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
  referenceReplay = readFileSync(join(tmp, 'local', 'out', referenceLines[JOBS - 1]!['result']['replay']['file']));
}, 600_000);

afterAll(async () => {
  for (const c of others) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  client?.disconnect();
  await killAll();
  await redis?.stop();
  // No key was ever printed, by any process (error messages name the file, never the key).
  for (const p of outputs) for (const k of [KEY_A, KEY_B]) expect(p.stdout() + p.stderr()).not.toContain(k);
  rmSync(tmp, { recursive: true, force: true });
}, 120_000);

describe('batch trust: keys, checked results, the runtime of workers', { timeout: 600_000 }, () => {
  it('a key on both sides (a key file, and the environment): the local results byte for byte, every job on the queue signed', async () => {
    const { file, out } = batchCopy('keyed');
    const b = batch('keyed', file, out, ['--key-file', keyA]);
    await waitFor('the jobs on the queue', async () => (await client.llen('bull:keyed:wait')) === JOBS);
    const ids = await client.lrange('bull:keyed:wait', 0, -1);
    const hashes = new Set<unknown>();
    for (const id of ids) {
      const data = JSON.parse((await client.hget(`bull:keyed:${id}`, 'data'))!) as Record<string, unknown>;
      expect(data['mac']).toMatch(/^[0-9a-f]{64}$/);
      expect(data['runtimeHash']).toMatch(/^[0-9a-f]{64}$/);
      hashes.add(data['runtimeHash']);
    }
    expect(hashes.size).toBe(1);
    const w1 = worker('keyed', 'k1', ['--key-file', keyA]);
    const w2 = worker('keyed', 'k2', [], { RETROSIM_BATCH_KEY: KEY_A });
    expect(await ended(b)).toBe(0);
    noStack(b.stderr());
    expect(json(b.stdout())).toMatchObject({ jobs: JOBS, done: JOBS, failed: 0, refused: 0, refusedByWorkers: 0 });
    expect(readFileSync(out, 'utf8')).toBe(reference);
    const ready = events(w1.stdout()).find((e) => e['event'] === 'ready')!;
    expect(ready).toMatchObject({ key: true, runtimeHash: [...hashes][0] });
    expect(w1.stdout()).toContain(`runtime ${[...hashes][0]}`);
    for (const w of [w1, w2]) expect(await stop(w)).toMatchObject({ refused: 0 });
  });

  it('a job not signed with a keyed worker\'s key (unsigned, or signed with another key) is refused with the reason and never runs; the worker stays up', async () => {
    const { file } = batchCopy('planted');
    const plan = await planBatch(file);
    const payload = plan.jobs[0]!.payload!;
    const q = new Queue('planted', { connection: client });
    await q.add('run', payload, { jobId: 'junsigned' });
    await q.add('run', { ...payload, mac: new BatchKey(Buffer.from(KEY_B)).sign('job', payload) }, { jobId: 'jotherkey' });
    const w = worker('planted', 'guard', ['--key-file', keyA]);
    const failed = await waitFor('both jobs failed', async () => {
      const [a, b] = await Promise.all([q.getJob('junsigned'), q.getJob('jotherkey')]);
      return a?.failedReason && b?.failedReason ? [a, b] : undefined;
    });
    expect(failed[0]!.failedReason).toBe('refused by worker guard: the job is not signed (this worker has a key: give the batch the same key); not run');
    expect(failed[1]!.failedReason).toBe("refused by worker guard: the job's signature does not match this worker's key; not run");
    for (const j of failed) expect(j!.returnvalue).toBeFalsy();
    expect(w.child.exitCode).toBeNull();
    const refusals = events(w.stdout()).filter((e) => e['event'] === 'refused');
    expect(refusals.map((e) => [e['job'], e['reason']]).sort()).toEqual([['jotherkey', 'signature'], ['junsigned', 'signature']]);
    expect(await stop(w)).toMatchObject({ done: 0, refused: 2 });
    noStack(w.stderr());
    await q.close();
  });

  it("a planted job's id and text cannot forge or colour a worker's log: each failure is one safe line", async () => {
    const { file } = batchCopy('logs');
    const plan = await planBatch(file);
    const payload = plan.jobs[0]!.payload!;
    const q = new Queue('logs', { connection: client });
    await q.add('run', { kind: 'run' }, { jobId: `jid\nworker x= forged line\u001b[31m${'z'.repeat(5000)}` });
    await q.add('run', { ...payload, runtime: '0.0.1\nworker x: forged line\u001b[2J' }, { jobId: 'jruntime' });
    const w = run(['worker', '--redis', redis.url, '--queue', 'logs', '--name', 'plain']);
    await waitFor('both failures told', () => (w.stderr().match(/ failed: /g) ?? []).length >= 2);
    w.child.kill('SIGTERM');
    expect(await ended(w)).toBe(0);
    const lines = w.stderr().trim().split('\n');
    for (const l of lines) expect(l).toMatch(/^worker plain: /);
    expect(w.stderr()).not.toContain('\u001b');
    expect(w.stderr()).not.toMatch(/^worker x/m);
    for (const l of lines) expect(l.length).toBeLessThan(1500);
    expect(lines.filter((l) => l.includes('the batch was planned by 0.0.1?worker x'))).toHaveLength(1);
    await q.close();
  });

  it('workers without the key or with another: their answers are refused, counted, and the jobs finished by a right worker', async () => {
    const { file, out } = batchCopy('wrongkeys');
    const b = batch('wrongkeys', file, out, ['--key-file', keyA]);
    // Short locks and stalled checks (a worker's check, once run, holds off every other's for its interval).
    const nokey = worker('wrongkeys', 'nokey', ['--lock-ms', '2000', '--stalled-ms', '500']);
    const other = worker('wrongkeys', 'otherkey', ['--lock-ms', '2000', '--stalled-ms', '500', '--key-file', keyB]);
    await waitFor('both refusals told by the batch', () => /result from worker nokey was refused: it is not signed/.test(b.stderr()) && /refused by worker otherkey: the job's signature does not match/.test(b.stderr()));
    nokey.child.kill('SIGKILL');
    other.child.kill('SIGKILL');
    await Promise.all([nokey.exited, other.exited]);
    const right = worker('wrongkeys', 'right', ['--key-file', keyA, '--stalled-ms', '500']);
    expect(await ended(b)).toBe(0);
    noStack(b.stderr());
    const s = json(b.stdout());
    expect(s).toMatchObject({ done: JOBS, failed: 0 });
    expect(s['refused']).toBeGreaterThanOrEqual(1);
    expect(s['refusedByWorkers']).toBeGreaterThanOrEqual(1);
    expect(s['retried']).toBeGreaterThanOrEqual(2);
    expect(readFileSync(out, 'utf8')).toBe(reference);
    const timing = readFileSync(join(tmp, 'wrongkeys', 'out', 't.timing.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    for (const t of timing) expect(t['worker']).toBe('right');
    await stop(right);
  });

  it('an answer far over the limit is measured in Redis, not read: refused, and the job done by an honest worker', async () => {
    const queue = 'huge';
    const { file, out } = batchCopy(queue);
    const b = batch(queue, file, out);
    const answered = new Set<string>();
    const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
    const fake = new Worker(
      queue,
      async (job) => {
        answered.add(job.id!);
        return { body: 'x'.repeat(4_000_000), seconds: 0.1, framesPerSecond: 3000, replay: null, worker: 'hoarder' };
      },
      { connection: conn, concurrency: JOBS, name: 'hoarder' },
    );
    await waitFor('every job answered once', () => answered.size === JOBS);
    await fake.close();
    conn.disconnect();
    const w = worker(queue, 'honest');
    expect(await ended(b)).toBe(0);
    noStack(b.stderr());
    expect(readFileSync(out, 'utf8')).toBe(reference);
    expect(b.stderr()).toMatch(/result from worker hoarder was refused: its answer is \d+ characters, over the limit of \d+/);
    await stop(w);
  });

  it('forged results (a line break, a key twice, a field more, too large, not canonical, another type, another replay) never reach the results file', async () => {
    const queue = 'forged';
    const { file, out } = batchCopy(queue);
    const b = batch(queue, file, out);
    const byKey = new Map(referenceLines.map((l) => [l['key'] as string, l]));
    const honest = (l: Record<string, any>) => JSON.stringify(l['result']);
    const forge: ((l: Record<string, any>) => Partial<WorkerReturn>)[] = [
      (l) => ({ body: honest(l).replace('"scenario":', '\n"scenario":') }),
      (l) => ({ body: `{"agents":${l['result']['agents']},${honest(l).slice(1)}` }),
      (l) => ({ body: honest(l).replace(/}$/, ',"bonus":1}') }),
      (l) => ({ body: honest(l).replace('"name":"level.col"', `"name":"${'x'.repeat(300_000)}"`) }),
      (l) => ({ body: honest(l).replace('"agents":', '"agents": ') }),
      (l) => ({ body: honest(l).replace(/"agents":(\d+),"frames"/, '"agents":"$1","frames"') }),
      (l) => ({ body: honest(l), replay: { sha256: l['result']['replay']['sha256'], bytes: l['result']['replay']['bytes'] } }),
    ];
    const forged = new Set<string>();
    const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
    const fake = new Worker(
      queue,
      async (job) => {
        const l = byKey.get(job.id!.slice(1))!;
        forged.add(job.id!);
        const f = forge[l['index'] as number]!(l);
        // The last job keeps a replay: put other bytes where the worker's replay goes.
        if (f.replay) await client.set(replayKey(queue, l['key']), Buffer.from(referenceReplay.subarray(1)));
        return { body: '', seconds: 0.1, framesPerSecond: 3000, replay: null, worker: 'forger', ...f };
      },
      { connection: conn, concurrency: JOBS, name: 'forger' },
    );
    await waitFor('every job forged once', () => forged.size === JOBS);
    await fake.close();
    conn.disconnect();
    const w = worker(queue, 'honest');
    expect(await ended(b)).toBe(0);
    noStack(b.stderr());
    const s = json(b.stdout());
    expect(s).toMatchObject({ done: JOBS, failed: 0 });
    expect(readFileSync(out, 'utf8')).toBe(reference);
    expect(s['refused']).toBeGreaterThanOrEqual(JOBS);
    expect((b.stderr().match(/result from worker forger was refused/g) ?? []).length).toBeGreaterThanOrEqual(JOBS);
    expect(readFileSync(join(tmp, queue, 'out', referenceLines[JOBS - 1]!['result']['replay']['file']))).toEqual(referenceReplay);
    for (const reason of [/holds a line break/, /the key "agents" twice in one object/, /field "bonus" it should not have/, /over the limit of 262144 bytes/, /not in the form the runner writes/, /agents must be an integer/, /does not have the bytes its result names/]) {
      expect(b.stderr()).toMatch(reason);
    }
    await stop(w);
  });

  it('a job failed from the queue with a huge reason and worker name: the results and timing files keep them bounded', async () => {
    const queue = 'huge-failure';
    const dir = join(tmp, queue);
    cpSync(inputs, dir, { recursive: true });
    const file = writeBatch(dir, 'h', { batch: 1, name: 'h', retries: 0, jobs: [{ world: 'level.col', agents: 2, frames: 5 }] });
    const out = join(dir, 'out', 'h.jsonl');
    const b = batch(queue, file, out);
    const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
    const name = `w${'n'.repeat(100_000)}`;
    const fake = new Worker(
      queue,
      async () => {
        throw new Error(`${'x'.repeat(1_000_000)}\nsecond line`);
      },
      { connection: conn, name },
    );
    expect(await ended(b)).toBe(1);
    await fake.close();
    conn.disconnect();
    noStack(b.stderr());
    const line = readFileSync(out, 'utf8');
    expect(line.length).toBeLessThan(5000);
    expect((JSON.parse(line) as { error: string }).error).toMatch(/^x{2000}\.\.\. \(cut at 2000 characters\)$/);
    const timing = readFileSync(join(dir, 'out', 'h.timing.jsonl'), 'utf8');
    expect(timing.length).toBeLessThan(1000);
  });

  it('an input replaced in Redis by a value over the limit is measured, not read: the job fails saying so', async () => {
    const queue = 'huge-input';
    const dir = join(tmp, queue);
    cpSync(inputs, dir, { recursive: true });
    const file = writeBatch(dir, 'h', { batch: 1, name: 'h', retries: 0, jobs: [{ world: 'level.col', agents: 2, frames: 5 }] });
    const out = join(dir, 'out', 'h.jsonl');
    const b = batch(queue, file, out);
    const blob = await waitFor('the input put in Redis', async () => (await client.keys(`retrosim:${queue}:blob:*`))[0]);
    await client.set(blob, Buffer.alloc(65 * 1024 * 1024));
    const w = worker(queue, 'measured');
    expect(await ended(b)).toBe(1);
    const line = JSON.parse(readFileSync(out, 'utf8')) as { status: string; error: string };
    expect(line.status).toBe('failed');
    expect(line.error).toMatch(/in Redis has 68157440 bytes, over the limit of 67108864 bytes \(limits\.batch\.blobBytes\)/);
    expect(w.child.exitCode).toBeNull();
    await stop(w);
    await client.del(blob);
  });

  it('with a key, refusal notes planted on the queue (not signed by a worker) are neither told nor counted', async () => {
    const queue = 'forged-refusals';
    const { file, out } = batchCopy(queue);
    const b = batch(queue, file, out, ['--key-file', keyA]);
    const ids = await waitFor('the jobs on the queue', async () => {
      const q = await client.keys(`bull:${queue}:j*`);
      const jobs = q.filter((k) => /^bull:[^:]+:j[0-9a-f]{64}$/.test(k));
      return jobs.length ? jobs.map((k) => k.split(':')[2]!) : undefined;
    });
    for (const id of ids) await client.xadd(`retrosim:${queue}:refusals`, '*', 'job', id, 'worker', 'planted', 'reason', 'runtime differs: upgrade at http://example.invalid');
    // The right worker starts after the notes are in the stream, so the batch reads them before it ends.
    const w = worker(queue, 'right', ['--key-file', keyA]);
    expect(await ended(b)).toBe(0);
    noStack(b.stderr());
    expect(readFileSync(out, 'utf8')).toBe(reference);
    expect(b.stderr()).not.toContain('planted');
    expect(json(b.stdout())['refusedByWorkers'] ?? 0).toBe(0);
    await stop(w);
  });

  it('a patched worker (same version, other built files) refuses the jobs without failing them; the batch says so; a right worker finishes them', async () => {
    const patched = copyRuntime(join(tmp, 'patched'), (root) => appendFileSync(join(root, 'dist', 'src', 'batch', 'los-stats.js'), '\n// patched\n'));
    const queue = 'patched';
    const { file, out } = batchCopy(queue);
    const b = batch(queue, file, out);
    const child = spawn(process.execPath, [join(patched, 'bin', 'retrosim.js'), 'worker', '--redis', redis.url, '--queue', queue, '--name', 'patched', '--json'], { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] });
    others.push(child);
    let pout = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (pout += d));
    child.stderr!.resume();
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const refusal = /job \d+: refused by worker patched: runtime differs \(its hash ([0-9a-f]{64}), the batch's ([0-9a-f]{64})\)/;
    // (Or the batch ending: the patched worker ran its jobs.)
    await waitFor('the batch telling the refusal', () => refusal.test(b.stderr()) || b.child.exitCode !== null);
    const told = refusal.exec(b.stderr())!;
    expect(told, b.stderr()).not.toBeNull();
    expect(told[1]).not.toBe(told[2]);
    await waitFor('every job refused by the patched worker', () => new Set(events(pout).filter((e) => e['event'] === 'refused').map((e) => e['job'])).size === JOBS);
    const refusals = events(pout).filter((e) => e['event'] === 'refused');
    expect(refusals.length).toBe(JOBS); // once per job, however often it comes back
    for (const e of refusals) expect(e).toMatchObject({ reason: 'runtime', runtimeHash: told[1], batchRuntimeHash: told[2] });
    // Still on the queue, none failed, none done.
    const q = new Queue(queue, { connection: client });
    const counts = await q.getJobCounts('waiting', 'delayed', 'active', 'completed', 'failed');
    expect(counts['completed']! + counts['failed']!).toBe(0);
    expect(counts['waiting']! + counts['delayed']! + counts['active']!).toBe(JOBS);
    await q.close();
    const w = worker(queue, 'right');
    expect(await ended(b)).toBe(0);
    noStack(b.stderr());
    expect(json(b.stdout())).toMatchObject({ done: JOBS, failed: 0 });
    expect(json(b.stdout())['refusedByWorkers']).toBeGreaterThanOrEqual(1);
    expect(readFileSync(out, 'utf8')).toBe(reference);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(events(pout).find((e) => e['event'] === 'stopped')).toMatchObject({ done: 0, failed: 0, refused: JOBS });
    await stop(w);
  });

  it('key files are checked like private keys: one-line usage errors (exit 2), never the key', async () => {
    const k = (name: string, text: string | Buffer, mode = 0o600) => {
      const p = join(tmp, name);
      writeFileSync(p, text, { mode });
      chmodSync(p, mode);
      return p;
    };
    const link = join(tmp, 'link.key');
    symlinkSync(keyA, link);
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [['--key-file', k('empty.key', '')], {}, /empty; a key has at least 16 bytes/],
      [['--key-file', k('newline.key', '\n\n')], {}, /empty/],
      [['--key-file', k('short.key', 'short-key\n')], {}, /a key of 9 bytes is too short; a key has at least 16 bytes/],
      [['--key-file', k('large.key', 'k'.repeat(5000))], {}, /5000 bytes, over the 4096 bytes a key file may have/],
      [['--key-file', k('open.key', KEY_A, 0o644)], {}, /open to group or others \(mode 0644\); a key file must be private: chmod 600 it/],
      [['--key-file', k('group.key', KEY_A, 0o640)], {}, /open to group or others \(mode 0640\)/],
      [['--key-file', link], {}, /a symbolic link; give the key file itself/],
      [['--key-file', tmp], {}, /not a regular file/],
      [['--key-file', join(tmp, 'missing.key')], {}, /cannot read it \(ENOENT\)/],
      [[], { RETROSIM_BATCH_KEY: 'short' }, /RETROSIM_BATCH_KEY: a key of 5 bytes is too short/],
      [[], { RETROSIM_BATCH_KEY_FILE: join(tmp, 'open.key') }, /RETROSIM_BATCH_KEY_FILE .*open to group or others/],
      [[], { RETROSIM_BATCH_KEY_FILE: keyA, RETROSIM_BATCH_KEY: KEY_A }, /both RETROSIM_BATCH_KEY_FILE and RETROSIM_BATCH_KEY are set: give one/],
    ];
    const { file } = batchCopy('keyfiles');
    const all = cases.flatMap(([args, env, message]) => [
      { argv: ['worker', '--redis', redis.url, ...args], env, message },
      { argv: ['batch', file, '--redis', redis.url, ...args], env, message },
    ]);
    // A few at a time: each is a process that stops at its arguments.
    for (let i = 0; i < all.length; i += 6) {
      await Promise.all(
        all.slice(i, i + 6).map(async ({ argv, env, message }) => {
          const p = run(argv, env);
          expect(await ended(p), `${argv.join(' ')}: ${p.stderr()}`).toBe(2);
          expect(p.stderr()).toMatch(message);
          expect(p.stderr().trim().split('\n')).toHaveLength(1);
          noStack(p.stderr());
        }),
      );
    }
    const local = run(['batch', file, '--key-file', keyA]);
    expect(await ended(local)).toBe(2);
    expect(local.stderr()).toMatch(/--key-file is for a batch on a queue \(--redis\)/);
  });
});
