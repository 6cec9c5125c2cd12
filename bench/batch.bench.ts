/**
 * Batch throughput: a sweep of 200 short jobs of the default scenario (the Piney field with its weather
 * and 300 agents, 600 frames each, one seed per job) on the local threads (1 and 2) and on a BullMQ queue
 * over Redis with 1 and 2 `retrosim worker` processes (a redis-server started here on a free loopback
 * port, no persistence); the 2 ÷ 1 ratios, the cost of the queue per job, and the time from enqueueing a
 * tiny job (60 frames) to its result.
 *
 * Every configuration is warmed up first (threads started, code compiled) on a few tiny jobs, then runs
 * the whole sweep with --force (nothing taken from earlier results). CPU time is reported beside the wall
 * time: this process's (which includes its threads) and, for the queue, the worker processes' and
 * redis-server's too; the queue's cost per job is given both ways, since on a shared machine the wall-clock
 * difference of two runs half a minute apart is mostly what else ran beside them.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBatch } from '../src/batch/coordinator.js';
import type { Executor } from '../src/batch/executor.js';
import { LocalExecutor } from '../src/batch/local-executor.js';
import { planBatch, type BatchPlan } from '../src/batch/plan.js';
import { RedisExecutor } from '../src/batch/redis-queue.js';
import { packageRoot } from '../src/node/assets.js';
import type { Bench, BenchResult } from './harness.js';

/** Jobs in the sweep (RETROSIM_BATCH_BENCH_JOBS sets another count, for a quick look; the figures use 200). */
export const SWEEP_JOBS = Number(process.env['RETROSIM_BATCH_BENCH_JOBS'] ?? 200);
const REDIS_SERVER = '/usr/bin/redis-server';

function writeBatchFile(dir: string, name: string, frames: number, seeds: number, from = 1): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ batch: 1, name, defaults: { frames }, sweep: { world: 'piney-default', seed: { from, count: seeds } } }));
  return file;
}

interface Timed {
  seconds: number;
  cpuSeconds: number;
}

/** Runs a plan on an executor with everything forced; wall and CPU seconds (this process plus `extraCpu`). */
async function timeRun(plan: BatchPlan, exec: Executor, out: string, extraCpu: () => number = () => 0): Promise<Timed> {
  const c0 = process.cpuUsage();
  const x0 = extraCpu();
  const t0 = performance.now();
  const s = await runBatch(plan, exec, { out, force: true, progress: null, signal: new AbortController().signal });
  const seconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  if (s.done !== plan.jobs.length) throw new Error(`batch bench: ${s.failed} of ${plan.jobs.length} jobs failed`);
  return { seconds, cpuSeconds: (c.user + c.system) / 1e6 + (extraCpu() - x0) };
}

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds a process has used so far (Linux /proc). */
function processCpu(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / clockTicks;
  } catch {
    return 0;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

async function waitFor(what: string, cond: () => boolean, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`batch bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function startRedis(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let log = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (log += d));
  await waitFor('redis-server', () => /Ready to accept connections/.test(log) || child.exitCode !== null);
  if (child.exitCode !== null) throw new Error(`redis-server did not start: ${log.slice(-300)}`);
  return { url: `redis://127.0.0.1:${port}`, child };
}

function startWorker(url: string, queue: string, name: string): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, [join(packageRoot(), 'bin/retrosim.js'), 'worker', '--redis', url, '--queue', queue, '--name', name], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  return { child, ready: waitFor(`worker ${name}`, () => /taking jobs/.test(err) || child.exitCode !== null) };
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((r) => {
          if (c.exitCode !== null || c.signalCode !== null) return r();
          c.once('exit', () => r());
          c.kill('SIGTERM');
        }),
    ),
  );
}

const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;

async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'retrosim-batch-bench-'));
  const out: BenchResult[] = [];
  try {
    const sweep = await planBatch(writeBatchFile(dir, 'sweep', 600, SWEEP_JOBS));
    const warm = await planBatch(writeBatchFile(dir, 'warm', 60, 4, 100_001));
    const local: Record<number, Timed> = {};
    for (const n of [1, 2]) {
      const exec = new LocalExecutor(n);
      try {
        await timeRun(warm, exec, join(dir, `warm-local${n}.jsonl`));
        local[n] = await timeRun(sweep, exec, join(dir, `local${n}.jsonl`));
      } finally {
        await exec.close();
      }
      out.push({
        name: `batch: local, ${n} thread${n > 1 ? 's' : ''}`,
        value: SWEEP_JOBS / local[n]!.seconds,
        unit: 'jobs/s',
        note: `${SWEEP_JOBS} jobs of 600 frames, default scenario; CPU time ${round(SWEEP_JOBS / local[n]!.cpuSeconds)} jobs/s`,
      });
    }
    out.push({ name: 'batch: local, 2 threads ÷ 1', value: local[1]!.seconds / local[2]!.seconds, unit: 'ratio', goal: 1.7, better: 'higher' });
    const same = readFileSync(join(dir, 'local1.jsonl')).equals(readFileSync(join(dir, 'local2.jsonl')));
    if (!same) throw new Error('batch bench: 1 and 2 threads gave different results');

    if (!existsSync(REDIS_SERVER)) {
      out.push({ name: 'batch: redis', value: 0, unit: 'skipped', note: `${REDIS_SERVER} is not installed` });
      return out;
    }
    const redis = await startRedis();
    const children: ChildProcess[] = [redis.child];
    try {
      const remote: Record<number, Timed> = {};
      for (const n of [1, 2]) {
        const queue = `bench${n}`;
        const ws = Array.from({ length: n }, (_, i) => startWorker(redis.url, queue, `bench-${n}-${i}`));
        children.push(...ws.map((w) => w.child));
        await Promise.all(ws.map((w) => w.ready));
        const cpu = () => ws.reduce((s, w) => s + processCpu(w.child.pid!), processCpu(redis.child.pid!));
        const exec = new RedisExecutor({ url: redis.url, queue, timeoutSeconds: 60 });
        try {
          await timeRun(warm, exec, join(dir, `warm-redis${n}.jsonl`), cpu);
          remote[n] = await timeRun(sweep, exec, join(dir, `redis${n}.jsonl`), cpu);
        } finally {
          await exec.close();
          await stopAll(ws.map((w) => w.child));
        }
        if (!readFileSync(join(dir, `redis${n}.jsonl`)).equals(readFileSync(join(dir, 'local1.jsonl')))) throw new Error(`batch bench: Redis with ${n} workers gave other results than the local threads`);
        out.push({
          name: `batch: redis, ${n} worker process${n > 1 ? 'es' : ''}`,
          value: SWEEP_JOBS / remote[n]!.seconds,
          unit: 'jobs/s',
          note: `CPU time (workers, coordinator and redis-server) ${round(SWEEP_JOBS / remote[n]!.cpuSeconds)} jobs/s`,
        });
      }
      out.push({ name: 'batch: redis, 2 worker processes ÷ 1', value: remote[1]!.seconds / remote[2]!.seconds, unit: 'ratio', goal: 1.7, better: 'higher' });
      const perJobLocal = (local[1]!.seconds / SWEEP_JOBS) * 1000;
      const perJobRedis = (remote[1]!.seconds / SWEEP_JOBS) * 1000;
      out.push({
        name: 'batch: redis cost per job over local (1 worker)',
        value: ((perJobRedis - perJobLocal) / perJobLocal) * 100,
        unit: '%',
        goal: 10,
        better: 'lower',
        note: `${round(perJobRedis - perJobLocal)} ms per job (${round(perJobLocal)} ms local, ${round(perJobRedis)} ms on the queue)`,
      });
      const cpuLocal = (local[1]!.cpuSeconds / SWEEP_JOBS) * 1000;
      const cpuRedis = (remote[1]!.cpuSeconds / SWEEP_JOBS) * 1000;
      out.push({
        name: 'batch: redis cost per job over local, CPU time',
        value: ((cpuRedis - cpuLocal) / cpuLocal) * 100,
        unit: '%',
        note: `${round(cpuRedis - cpuLocal)} ms of CPU per job (${round(cpuLocal)} ms local, ${round(cpuRedis)} ms with the queue: workers, coordinator and redis-server)`,
      });

      // Tiny jobs, one at a time, through a warm worker: enqueue to result.
      const queue = 'bench-tiny';
      const w = startWorker(redis.url, queue, 'bench-tiny');
      children.push(w.child);
      await w.ready;
      const lat: number[] = [];
      try {
        for (let i = 0; i < 45; i++) {
          const tiny = await planBatch(writeBatchFile(dir, `tiny${i}`, 60, 1, 200_000 + i));
          const exec = new RedisExecutor({ url: redis.url, queue, timeoutSeconds: 60 });
          try {
            await timeRun(tiny, exec, join(dir, `tiny${i}.jsonl`));
            if (i >= 5) lat.push(...exec.latenciesMs); // the first few warm the worker up
          } finally {
            await exec.close();
          }
        }
      } finally {
        await stopAll([w.child]);
      }
      lat.sort((a, b) => a - b);
      out.push({ name: 'batch: tiny job (60 frames) through redis, median', value: lat[lat.length >> 1]!, unit: 'ms', note: `enqueue to result, ${lat.length} jobs one at a time; p90 ${round(lat[Math.floor(lat.length * 0.9)]!)} ms` });
    } finally {
      await stopAll(children.filter((c) => c !== redis.child));
      redis.child.kill('SIGKILL');
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const benches: Bench[] = [{ name: 'batch sweep: local threads and Redis workers', run }];
