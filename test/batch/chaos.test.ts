/**
 * A 1,000-job batch on a BullMQ queue through everything that goes wrong at once: two worker processes, one
 * of them killed (SIGKILL) in the middle of its jobs and replaced, Redis killed and restarted once (empty:
 * nothing persisted, so the queue and its inputs are lost and submitted again), and a third worker of other
 * code (the built runtime with one file changed so that its hashes differ, still calling itself the same
 * version) joining the queue, all of them holding the batch's key. The results file must be the local run's,
 * byte for byte, with no result refused and the worker of other code's refusals counted.
 *
 * Every step waits on a condition (results journalled, a worker's line), never on time alone; the figures
 * (jobs, retries, refusals, who ran what, seconds) are printed for docs/batch.md.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliOf, copyRuntime, killAll, repoRoot, runCliAsync, startRedis, waitFor, writeBatch, type Proc, type RedisServer } from './helpers.js';

const JOBS = 1000;
const tmp = mkdtempSync(join(tmpdir(), 'retrosim-batch-chaos-'));
/** The batch's shared key: every worker, the one of other code too, has it (that one is refused for its code). */
const keyFile = join(tmp, 'batch.key');
let redis: RedisServer;

const BATCH = {
  batch: 1,
  name: 'chaos',
  defaults: { frames: 40, measure: ['hash', 'draws', 'events'] },
  sweep: { world: ['rugrats-demo', 'level.col'], agents: [3, 6], seed: { from: 1, count: JOBS / 4 } },
};

const json = (s: string) => JSON.parse(s.trim().split('\n').pop()!) as Record<string, any>;
const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);

/** Results journalled so far (finished jobs). */
function journalled(journal: string): number {
  try {
    return readFileSync(journal, 'utf8').split('\n').length - 1;
  } catch {
    return 0;
  }
}

/**
 * A copy of the built runtime whose code differs from this one's while it still says the same version: the
 * runner's final hash is changed, so a job it ran would give another result under the same key.
 */
function otherRuntime(): string {
  return copyRuntime(join(tmp, 'other-runtime'), (root) => {
    const runner = join(root, 'dist/src/batch/runner.js');
    const text = readFileSync(runner, 'utf8');
    const patched = text.replace('finalHash: sim.hashHex(),', "finalHash: sim.hashHex().replace(/^0x/, '0x0'),");
    if (patched === text) throw new Error('the runner no longer has the line this test patches');
    writeFileSync(runner, patched);
  });
}

function worker(queue: string, name: string, extra: string[] = []): Proc {
  return cli(['worker', '--redis', redis.url, '--queue', queue, '--name', name, '--lock-ms', '2000', '--stalled-ms', '500', '--key-file', keyFile, ...extra]);
}

/** A worker process of the runtime copied to `root`. */
function workerFrom(root: string, queue: string, name: string): Proc {
  return cliOf(root, ['worker', '--redis', redis.url, '--queue', queue, '--name', name, '--stalled-ms', '500', '--key-file', keyFile]);
}

beforeAll(async () => {
  redis = await startRedis();
  cpSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(tmp, 'level.col'));
  writeBatch(tmp, 'chaos', BATCH);
  writeFileSync(keyFile, 'chaos-test-key-0123456789abcdef\n', { mode: 0o600 });
}, 600_000);

afterAll(async () => {
  await killAll();
  await redis?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 120_000);

describe('a 1,000-job batch through a killed worker, a Redis restart and a worker of other code', { timeout: 900_000 }, () => {
  it('gives the local run its result bytes', async () => {
    const file = join(tmp, 'chaos.json');
    const reference = join(tmp, 'local', 'chaos.jsonl');
    const local = await runCliAsync(['batch', file, '--workers', '2', '--out', reference, '--json']);
    expect(local.code).toBe(0);
    expect(json(local.stdout)).toMatchObject({ jobs: JOBS, done: JOBS });

    const queue = 'chaos';
    const out = join(tmp, 'queue', 'chaos.jsonl');
    const journal = join(tmp, 'queue', 'chaos.journal.jsonl');
    const t0 = performance.now();
    const batch = cli(['batch', file, '--redis', redis.url, '--queue', queue, '--out', out, '--redis-timeout', '120', '--key-file', keyFile, '--json']);
    const a = worker(queue, 'a');
    const b = worker(queue, 'b');

    await waitFor('a tenth of the results', () => journalled(journal) >= JOBS / 10);
    a.child.kill('SIGKILL');
    expect(await a.exited).toBe(137);
    const a2 = worker(queue, 'a2');

    await waitFor('four tenths of the results', () => journalled(journal) >= (4 * JOBS) / 10);
    const port = redis.port;
    await redis.stop();
    await waitFor('the batch to see Redis gone', () => /connection lost/.test(batch.stderr()));
    // The two workers held still while the worker of other code joins, so that it surely takes jobs.
    for (const p of [a2, b]) p.child.kill('SIGSTOP');
    redis = await startRedis(port); // empty: the queue and its inputs are gone
    const odd = workerFrom(otherRuntime(), queue, 'odd');
    await waitFor('the worker of other code to refuse a job', () => /refused: runtime differs/.test(odd.stderr()));
    for (const p of [a2, b]) p.child.kill('SIGCONT');

    expect(await batch.exited).toBe(0);
    const seconds = (performance.now() - t0) / 1000;
    noStack(batch.stderr());
    const s = json(batch.stdout());
    expect(s).toMatchObject({ mode: 'redis', jobs: JOBS, done: JOBS, failed: 0, refused: 0, interrupted: false });
    expect(s['refusedByWorkers']).toBeGreaterThanOrEqual(1);
    expect(readFileSync(out)).toEqual(readFileSync(reference));

    const timing = lines(join(tmp, 'queue', 'chaos.timing.jsonl'));
    const byWorker: Record<string, number> = {};
    for (const t of timing) byWorker[t['worker']] = (byWorker[t['worker']] ?? 0) + 1;
    expect(byWorker['odd']).toBeUndefined();
    for (const p of [a2, b, odd]) p.child.kill('SIGTERM');
    for (const p of [a2, b]) expect(await p.exited).toBe(0);
    await odd.exited;
    console.log(`chaos figures: ${JSON.stringify({ jobs: JOBS, seconds: Math.round(seconds * 10) / 10, localSeconds: json(local.stdout)['seconds'], retried: s['retried'], refusedByWorkers: s['refusedByWorkers'], byWorker, odd: odd.stderr().trim().split('\n').slice(-1)[0] })}`);
    expect(existsSync(journal)).toBe(false);
  });
});
