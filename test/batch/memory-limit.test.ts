/**
 * A batch job's memory limit (`maxMemoryMiB`) covers memory outside the V8 heap: a scenario module that holds
 * ArrayBuffers (a small heap, 128 MiB outside it) fails over a 96 MiB limit with the figure and the limit,
 * between frames (a job that would run for hours stops), without retries, locally and on a `retrosim worker`;
 * its thread is replaced (the module's memory, held at module level, is gone for the next job) and the
 * next jobs run; a job that fills the V8 heap in one frame fails on the heap limit; the same jobs under a
 * larger limit are done; replay checks are bounded too; the limit is not in the key. Real processes, a real
 * redis-server; no timing: every wait is on a process or a condition.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPayload } from '../../src/batch/payload.js';
import { RUNTIME_VERSION } from '../../src/index.js';
import { BatchFileError, checkBatchFile, DEFAULT_MAX_MEMORY_MIB } from '../../src/batch/schema.js';
import { cli, killAll, repoRoot, runCliAsync, startRedis, writeBatch } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-batch-memory-'));
afterAll(async () => {
  await killAll();
  rmSync(tmp, { recursive: true, force: true });
});

/** A scenario that holds `mib` MiB of ArrayBuffers at module level (1 MiB a frame), or `heapMiB` MiB of objects in one frame. */
const HOG = `// Holds memory: ArrayBuffers at module level (the thread keeps them until it ends), or objects on the V8 heap.
const held = [];
export default {
  name: 'hog',
  version: '1.0.0',
  description: 'holds memory',
  params: {
    mib: { type: 'int', default: 0, min: 0, max: 4096, description: 'MiB of ArrayBuffers to hold, 1 MiB a frame' },
    heapMiB: { type: 'int', default: 0, min: 0, max: 4096, description: 'MiB of objects to hold on the V8 heap, in one frame' },
  },
  systems: [
    {
      name: 'hog',
      priority: 90,
      create(host) {
        const { mib, heapMiB } = host.params;
        return () => {
          if (held.length < mib) held.push(new ArrayBuffer(1024 * 1024));
          if (heapMiB > 0 && held.heap === undefined) {
            held.heap = [];
            for (let i = 0; i < heapMiB * 32768; i++) held.heap.push({ i });
          }
        };
      },
    },
  ],
};
`;

const inputs = join(tmp, 'inputs');
mkdirSync(inputs, { recursive: true });
cpSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(inputs, 'level.col'));
writeFileSync(join(inputs, 'hog.mjs'), HOG);

/** Frames no job here runs to the end of (hours each): only a limit stops it. */
const FOREVER = 50_000_000;
const LIMIT = 96;
/** The reason of a job stopped between frames; its first group is the figure measured, in MiB. */
const OVER = /^stopped at (\d+\.\d) MiB of memory \(V8 heap \d+\.\d MiB, outside the heap (\d+\.\d) MiB: ArrayBuffers, typed arrays, Buffers\), over its limit of 96 MiB \(maxMemoryMiB\)$/;
const HEAP = 'stopped when its V8 heap reached its limit of 96 MiB (maxMemoryMiB)';

const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
const json = (s: string) => JSON.parse(s.trim().split('\n').pop()!) as Record<string, any>;
const lastLine = (s: string) => s.trim().split('\n').pop()!;

function batchIn(name: string, batch: unknown): { dir: string; file: string; out: string } {
  const dir = join(tmp, name);
  cpSync(inputs, dir, { recursive: true });
  return { dir, file: writeBatch(dir, 'b', batch), out: join(dir, 'out', 'b.jsonl') };
}

/** The figure in a memory failure, checked against the limit and what the scenario held. */
function expectOver(error: string): void {
  const m = OVER.exec(error);
  expect(m, error).not.toBeNull();
  expect(Number(m![1])).toBeGreaterThan(LIMIT);
  // Most of it was outside the heap (the module's ArrayBuffers): the heap limit alone would not have seen it.
  expect(Number(m![2])).toBeGreaterThan(LIMIT / 2);
}

const hogJobs = [
  { world: 'level.col', scenario: 'hog.mjs', agents: 5, params: { mib: 128 }, frames: FOREVER, maxMemoryMiB: LIMIT },
  { world: 'level.col', scenario: 'hog.mjs', agents: 5, params: { mib: 0 }, frames: 30, maxMemoryMiB: LIMIT },
  { world: 'level.col', scenario: 'hog.mjs', agents: 5, params: { heapMiB: 512 }, frames: 30, maxMemoryMiB: LIMIT },
  { world: 'level.col', agents: 5, frames: 30 },
  { world: 'level.col', scenario: 'hog.mjs', agents: 5, params: { mib: 128 }, frames: 160, maxMemoryMiB: 1024 },
];

describe('a batch job over its memory limit (maxMemoryMiB)', () => {
  it('on local threads: fails with the figure and the limit, between frames, without retries; its thread is replaced and the next jobs run', async () => {
    const b = batchIn('local', { batch: 1, name: 'b', retries: 2, jobs: hogJobs });
    const r = await runCliAsync(['batch', b.file, '--workers', '1', '--out', b.out, '--json']);
    expect(r.code, r.stderr).toBe(1);
    expect(json(r.stdout)).toMatchObject({ jobs: 5, done: 3, failed: 2, retried: 0 });
    const [hog, after, heap, plain, roomy] = lines(b.out);
    expect(hog).toMatchObject({ status: 'failed' });
    expectOver(hog!['error']);
    // On the same thread the module's 128 MiB would still be held: this job ran on a new one.
    expect(after).toMatchObject({ status: 'done' });
    expect(heap).toMatchObject({ status: 'failed', error: HEAP });
    expect(plain).toMatchObject({ status: 'done' });
    // The same module holding the same memory under a larger limit is done.
    expect(roomy).toMatchObject({ status: 'done' });
    // The limit is not part of a job's key: with another limit the done job is taken from the results.
    const again = writeBatch(b.dir, 'b', { batch: 1, name: 'b', jobs: [{ ...hogJobs[1], maxMemoryMiB: 2048 }] });
    const a = await runCliAsync(['batch', again, '--workers', '1', '--out', b.out, '--json']);
    expect(json(a.stdout)).toMatchObject({ jobs: 1, cached: 1, ran: 0 });
  });

  it('replay checks are bounded too: a replay whose scenario holds 128 MiB fails its check over a 96 MiB limit, and verifies under 1024', async () => {
    const b = batchIn('verify', { batch: 1, name: 'rec', jobs: [{ world: 'level.col', scenario: 'hog.mjs', agents: 5, params: { mib: 128 }, frames: 160, keepReplay: true }] });
    const rec = await runCliAsync(['batch', b.file, '--workers', '1', '--out', b.out]);
    expect(rec.code, rec.stderr).toBe(0);
    const check = (maxMemoryMiB: number) => writeBatch(b.dir, `v${maxMemoryMiB}`, { batch: 1, name: `v${maxMemoryMiB}`, verify: { replays: 'out/replays', scenario: 'hog.mjs', maxMemoryMiB } });
    const over = await runCliAsync(['batch', check(LIMIT), '--workers', '1', '--out', join(b.dir, 'out', 'v96.jsonl'), '--json']);
    expect(over.code).toBe(1);
    expect(json(over.stdout)).toMatchObject({ failed: 1, retried: 0 });
    const [failed] = lines(join(b.dir, 'out', 'v96.jsonl'));
    expect(failed).toMatchObject({ kind: 'verify', status: 'failed' });
    expectOver(failed!['error']);
    const ok = await runCliAsync(['batch', check(1024), '--workers', '1', '--out', join(b.dir, 'out', 'v1024.jsonl'), '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(lines(join(b.dir, 'out', 'v1024.jsonl'))[0]).toMatchObject({ status: 'done', result: { ok: true, frames: 160 } });
  });

  it('on a retrosim worker: fails with the figure and the limit, without retries, and the worker goes on with the next jobs', async () => {
    const redis = await startRedis();
    try {
      const b = batchIn('redis', { batch: 1, name: 'b', retries: 2, jobs: hogJobs.slice(0, 4) });
      const w = cli(['worker', '--redis', redis.url, '--queue', 'q', '--name', 'w', '--allow-scenario', join(b.dir, 'hog.mjs')]);
      const r = await runCliAsync(['batch', b.file, '--redis', redis.url, '--queue', 'q', '--out', b.out, '--json']);
      expect(r.code, r.stderr).toBe(1);
      expect(json(r.stdout)).toMatchObject({ jobs: 4, done: 2, failed: 2, retried: 0 });
      const [hog, after, heap, plain] = lines(b.out);
      expectOver(hog!['error']);
      expect(after).toMatchObject({ status: 'done' });
      expect(heap).toMatchObject({ status: 'failed', error: HEAP });
      expect(plain).toMatchObject({ status: 'done' });
      w.child.kill('SIGTERM');
      expect(await w.exited).toBe(0);
    } finally {
      await redis.stop();
    }
  });

  it('the limit is checked in the batch file and in a payload from a queue', async () => {
    const spec = checkBatchFile({ batch: 1, jobs: [{ world: 'rugrats-demo' }, { world: 'rugrats-demo', maxMemoryMiB: 64 }], verify: { replays: 'r', maxMemoryMiB: 512 } }, 'b.json', 'b');
    expect(spec.runs.map((j) => j.maxMemoryMiB)).toEqual([DEFAULT_MAX_MEMORY_MIB, 64]);
    expect(spec.verify[0]!.maxMemoryMiB).toBe(512);
    for (const bad of [8, 65_537, 1.5, '64']) {
      expect(() => checkBatchFile({ batch: 1, jobs: [{ world: 'rugrats-demo', maxMemoryMiB: bad }] }, 'b.json', 'b')).toThrow(BatchFileError);
    }
    expect(() => checkBatchFile({ batch: 1, jobs: [{ world: 'rugrats-demo', maxMemoryMiB: 8 }] }, 'b.json', 'b')).toThrow('b.json: jobs[0].maxMemoryMiB must be an integer in 16..65536, got 8');
    const b = batchIn('cli-bad', { batch: 1, jobs: [{ world: 'level.col', maxMemoryMiB: 0 }] });
    const e = await runCliAsync(['batch', b.file, '--workers', '1']);
    expect(e.code).not.toBe(0);
    expect(lastLine(e.stderr)).toMatch(/jobs\[0\]\.maxMemoryMiB must be an integer in 16\.\.65536, got 0$/);
    // A payload from Redis (outside data) is checked too.
    const payload = { kind: 'verify', key: 'a'.repeat(64), runtime: RUNTIME_VERSION, runtimeHash: 'b'.repeat(64), file: 'x.replay', replay: { sha256: 'c'.repeat(64), bytes: 1 }, world: { source: 'builtin:rugrats-demo', name: 'demo.col', parts: [{ role: 'main', blob: { sha256: 'd'.repeat(64), bytes: 1 } }] }, scenario: null };
    expect(() => checkPayload({ ...payload, maxMemoryMiB: 1e9 })).toThrow(/maxMemoryMiB must be an integer in 16\.\.65536/);
  });
});
