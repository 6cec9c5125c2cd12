/**
 * A job is data, never code: against a real redis-server and real `retrosim worker` processes, a job
 * planted straight into the queue never makes a worker run code it carries (the old blob form, an unknown
 * module graph), fails with a message saying why, and the worker goes on with the next job; a worker runs a
 * batch's scenario module only when started with `--allow-scenario` naming its own copy (matched by the
 * module graph's hash, a scenario split over two modules here) and then gives the local run's result
 * bytes; without it, those jobs fail with the message. An allowed file edited after it was allowed (a
 * helper module of its graph) is refused, and a worker will not start on a file whose graph cannot be hashed.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobPayload } from '../../src/batch/payload.js';
import { planSpec } from '../../src/batch/plan.js';
import { blobKey } from '../../src/batch/queue-keys.js';
import { runJob, sha256Hex } from '../../src/batch/runner.js';
import { checkBatchFile } from '../../src/batch/schema.js';
import { WorkerEnv } from '../../src/batch/worker-env.js';
import { moduleGraph } from '../../src/node/module-graph.js';
import { cli, killAll, repoRoot, runCliAsync, startRedis, waitFor, writeBatch, type Proc, type RedisServer } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-scenario-trust-'));
let redis: RedisServer;
let client: Redis;

/** The guards example split over two modules: the entry re-exports the scenario of the example's file. */
function writeGuards(dir: string): string {
  mkdirSync(join(dir, 'lib'), { recursive: true });
  cpSync(join(repoRoot, 'examples/guards/guards.mjs'), join(dir, 'lib', 'guards.mjs'));
  writeFileSync(join(dir, 'guards-main.mjs'), `// The guards example, from a module of its own.\nexport { default } from './lib/guards.mjs';\n`);
  return join(dir, 'guards-main.mjs');
}

const BATCH = {
  batch: 1,
  name: 'trust',
  retries: 0,
  defaults: { frames: 120, measure: ['draws', 'events'] },
  sweep: [
    { world: 'level.col', scenario: 'guards-main.mjs', agents: 0, params: { guards: [2, 3] }, keepReplay: true },
    { world: 'level.col', agents: 4, seed: 'a' },
  ],
};
const MODULE_JOBS = 2;

/** A folder with the level, the two-module scenario and the batch file; returns the batch file. */
function batchFolder(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  cpSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(dir, 'level.col'));
  writeGuards(dir);
  return writeBatch(dir, 'trust', BATCH);
}

const json = (s: string) => JSON.parse(s.trim().split('\n').pop()!) as Record<string, any>;
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);
const NOT_ALLOWED = /scenario guards-main\.mjs \(module graph [0-9a-f]{12}…\) is not on this worker's allow-list: start the worker with --allow-scenario FILE/;

function worker(queue: string, name: string, extra: string[] = []): Proc {
  return cli(['worker', '--redis', redis.url, '--queue', queue, '--name', name, ...extra]);
}

async function stop(p: Proc): Promise<number> {
  p.child.kill('SIGTERM');
  return p.exited;
}

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url, { maxRetriesPerRequest: null });
}, 120_000);

/** The local run of the batch: its results file's bytes and its kept replays' bytes by path. */
async function localRun(): Promise<{ reference: Buffer; referenceReplays: Map<string, Buffer> }> {
  const file = batchFolder('local');
  const out = join(tmp, 'local', 'out', 'trust.jsonl');
  const r = await runCliAsync(['batch', file, '--workers', '2', '--out', out, '--json']);
  expect(r.code, r.stderr).toBe(0);
  expect(json(r.stdout)).toMatchObject({ done: MODULE_JOBS + 1, failed: 0 });
  const reference = readFileSync(out);
  const referenceReplays = new Map<string, Buffer>();
  for (const l of reference.toString('utf8').trim().split('\n')) {
    const rep = (JSON.parse(l) as { result: { replay?: { file: string } } }).result.replay;
    if (rep) referenceReplays.set(rep.file, readFileSync(join(tmp, 'local', 'out', rep.file)));
  }
  expect(referenceReplays.size).toBe(MODULE_JOBS);
  return { reference, referenceReplays };
}

afterAll(async () => {
  client?.disconnect();
  await killAll();
  await redis?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 120_000);

describe('a job is data, never code', { timeout: 300_000 }, () => {
  it('a planted job naming a module by its bytes, or by a graph the worker was not given, runs nothing; the worker goes on', async () => {
    const queue = 'planted';
    const marker = join(tmp, 'planted', 'MARKER');
    mkdirSync(join(tmp, 'planted'), { recursive: true });
    // A legitimate job to take the shape from (a built-in scenario on a built-in world).
    const plan = await planSpec(checkBatchFile({ batch: 1, jobs: [{ world: 'rugrats-demo', agents: 2, frames: 30 }] }, join(tmp, 'planted', 'b.json'), 'b'), join(tmp, 'planted', 'b.json'));
    const legit = plan.jobs[0]!.payload as JobPayload;
    for (const part of legit.world.parts) await client.set(blobKey(queue, part.blob.sha256), Buffer.from(plan.blobs.get(part.blob.sha256)));
    // Code whose top level leaves a mark, put in Redis as the old coordinator put a scenario module.
    const evil = new TextEncoder().encode(`import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { name: 'evil', version: '1', description: 'runs on import', systems: [] };\n`);
    const evilSha = sha256Hex(evil);
    await client.set(blobKey(queue, evilSha), Buffer.from(evil));
    const evilDir = join(tmp, 'planted', 'evil');
    mkdirSync(evilDir, { recursive: true });
    writeFileSync(join(evilDir, 'guards-main.mjs'), evil);
    const evilGraph = moduleGraph(join(evilDir, 'guards-main.mjs')).hash;
    const key = (c: string) => c.repeat(64);
    const asBlob = { ...legit, key: key('a'), scenario: { source: 'guards-main.mjs', blob: { sha256: evilSha, bytes: evil.length } } };
    const asGraph = { ...legit, key: key('b'), scenario: { source: 'guards-main.mjs', graph: evilGraph } };

    const q = new Queue(queue, { connection: { host: '127.0.0.1', port: redis.port } });
    try {
      const w = worker(queue, 'planted-w');
      await waitFor('the worker ready', () => /taking jobs from queue planted/.test(w.stderr()), 120_000);
      expect(w.stderr()).toMatch(/scenario modules: none \(built-in scenarios only\)/);
      await q.add('run', asBlob, { jobId: 'blob', attempts: 1 });
      await q.add('run', asGraph, { jobId: 'graph', attempts: 1 });
      const failedReason = async (id: string) => {
        const j = await q.getJob(id);
        return j?.finishedOn ? (j.failedReason ?? '(completed)') : undefined;
      };
      const blobReason = await waitFor('the blob job to end', () => failedReason('blob'), 120_000);
      const graphReason = await waitFor('the graph job to end', () => failedReason('graph'), 120_000);
      expect(existsSync(marker), 'the planted code ran').toBe(false);
      expect(blobReason).toMatch(/scenario\.blob: a scenario module is named by its module graph \(scenario\.graph\), never sent as bytes/);
      expect(graphReason).toMatch(NOT_ALLOWED);
      // Still up: a legitimate job after them runs.
      await q.add('run', legit, { jobId: 'legit', attempts: 1 });
      expect(await waitFor('the legitimate job to end', () => failedReason('legit'), 120_000)).toBe('(completed)');
      const done = await q.getJob('legit');
      expect(JSON.parse((done!.returnvalue as { body: string }).body)).toMatchObject({ frames: 30, agents: 2 });
      expect(existsSync(marker)).toBe(false);
      expect(w.child.exitCode).toBe(null);
      expect(await stop(w)).toBe(0);
      expect(w.stderr()).toMatch(/job graph failed: scenario guards-main\.mjs \(module graph/);
      noStack(w.stderr());
    } finally {
      await q.close();
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('a worker started with --allow-scenario gives the local result bytes; one without it fails those jobs with the message', async () => {
    const { reference, referenceReplays } = await localRun();
    // The worker owner's own copy, in a folder of its own.
    const owned = writeGuards(join(tmp, 'owner'));
    const file = batchFolder('allowed');
    const out = join(tmp, 'allowed', 'out', 'trust.jsonl');
    const batch = cli(['batch', file, '--redis', redis.url, '--queue', 'allowed', '--out', out, '--json']);
    const w = worker('allowed', 'allowed-w', ['--allow-scenario', owned]);
    expect(await batch.exited).toBe(0);
    noStack(batch.stderr());
    expect(json(batch.stdout())).toMatchObject({ mode: 'redis', done: MODULE_JOBS + 1, failed: 0 });
    expect(readFileSync(out)).toEqual(reference);
    for (const [rel, bytes] of referenceReplays) expect(readFileSync(join(tmp, 'allowed', 'out', rel))).toEqual(bytes);
    expect(w.stderr()).toMatch(/scenario modules: .*guards-main\.mjs \(module graph [0-9a-f]{12}…\)/);
    expect(await stop(w)).toBe(0);

    const file2 = batchFolder('refused');
    const out2 = join(tmp, 'refused', 'out', 'trust.jsonl');
    const batch2 = cli(['batch', file2, '--redis', redis.url, '--queue', 'refused', '--out', out2, '--json']);
    const w2 = worker('refused', 'refused-w');
    expect(await batch2.exited).toBe(1);
    noStack(batch2.stderr());
    expect(json(batch2.stdout())).toMatchObject({ mode: 'redis', done: 1, failed: MODULE_JOBS });
    const results = readFileSync(out2, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    const failed = results.filter((l) => l['status'] === 'failed');
    expect(failed).toHaveLength(MODULE_JOBS);
    for (const l of failed) expect(l['error']).toMatch(NOT_ALLOWED);
    expect(w2.child.exitCode).toBe(null);
    expect(await stop(w2)).toBe(0);
    noStack(w2.stderr());
  });

  it('an allowed file is hashed again before its first use: one edited since it was allowed is refused', async () => {
    // Two modules that need no 'retrosim' (this test loads them in the test process, not through the CLI).
    const dir = join(tmp, 'edited');
    mkdirSync(join(dir, 'lib'), { recursive: true });
    writeFileSync(join(dir, 'lib', 'plain.mjs'), `export default { name: 'plain', version: '1.0.0', description: 'no systems of its own', systems: [] };\n`);
    writeFileSync(join(dir, 'plain-main.mjs'), `export { default } from './lib/plain.mjs';\n`);
    const file = join(dir, 'b.json');
    const plan = await planSpec(checkBatchFile({ batch: 1, jobs: [{ world: 'rugrats-demo', scenario: 'plain-main.mjs', agents: 1, frames: 10 }] }, file, 'b'), file);
    const payload = plan.jobs[0]!.payload as JobPayload;
    const env = new WorkerEnv();
    for (const part of payload.world.parts) env.blobs.set(part.blob.sha256, plan.blobs.get(part.blob.sha256));
    for (const [graph, path] of plan.blobs.modules()) env.allow(graph, path);
    // The helper module, not the entry: the graph covers it.
    const fresh = new WorkerEnv();
    for (const part of payload.world.parts) fresh.blobs.set(part.blob.sha256, plan.blobs.get(part.blob.sha256));
    for (const [graph, path] of plan.blobs.modules()) fresh.allow(graph, path);
    expect(JSON.stringify((await runJob(payload, fresh)).body['scenario'])).toMatch(/"source":"file:plain-main\.mjs"/);
    writeFileSync(join(dir, 'lib', 'plain.mjs'), `${readFileSync(join(dir, 'lib', 'plain.mjs'), 'utf8')}// edited\n`);
    await expect(runJob(payload, env)).rejects.toThrow(/plain-main\.mjs: its module graph changed since it was allowed \(now [0-9a-f]{12}…, allowed [0-9a-f]{12}…\): start the worker again/);
  });

  it('a worker refuses to start on an --allow-scenario file whose graph cannot be hashed, naming the importer', async () => {
    const dir = join(tmp, 'broken-graph');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'main.mjs'), `import './missing.mjs';\n`);
    const r = await runCliAsync(['worker', '--redis', redis.url, '--allow-scenario', join(dir, 'main.mjs')], 120_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--allow-scenario: .*main\.mjs imports "\.\/missing\.mjs" \(line 1\): .*missing\.mjs does not exist/);
    noStack(r.stderr);
  });
});
