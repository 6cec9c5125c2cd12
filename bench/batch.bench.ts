/**
 * Batch throughput: a sweep of 200 short jobs of the default scenario (the Piney field with its weather
 * and 300 agents, 600 frames each, one seed per job) on the local threads (1 and 2) and on a BullMQ queue
 * over Redis with 1 and 2 `retrosim worker` processes (a redis-server started here on a free loopback
 * port, no persistence); the 2 ÷ 1 ratios, the cost of the queue per job, and the time from enqueueing a
 * tiny job (60 frames) to its result.
 *
 * Each configuration runs fresh (new threads or worker processes), is warmed up on WARM_JOBS_PER_WORKER
 * jobs a worker (code compiled, world loaded), then runs the whole sweep with --force (nothing taken from
 * earlier results).
 * The four configurations run in ROUNDS rounds, in alternating order (forward, then backward, ...), and each
 * figure is the median of its runs: on this shared 2-core machine one run of a configuration can be 15 %
 * faster or slower than the next (what else runs beside it, and V8's compiler), and the ratios set one run
 * against another. The notes give every run and every round's own ratio. CPU time is reported beside the
 * wall time: this process's (which includes its threads) and, for the queue, the worker processes' and
 * redis-server's too; the queue's cost per job is given both ways.
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
import { median, type Bench, type BenchResult } from './harness.js';

/** Jobs in the sweep (RETROSIM_BATCH_BENCH_JOBS sets another count, for a quick look; the figures use 200). */
export const SWEEP_JOBS = Number(process.env['RETROSIM_BATCH_BENCH_JOBS'] ?? 200);
/** Rounds over the four configurations (RETROSIM_BATCH_BENCH_ROUNDS sets another count; the figures use 3). */
export const ROUNDS = Math.max(1, Math.floor(Number(process.env['RETROSIM_BATCH_BENCH_ROUNDS'] ?? 3)) || 3);
/**
 * Jobs each thread or worker process runs before the sweep is timed. V8 goes on compiling the simulation's
 * code for about the first 40 jobs of a thread (about 200 ms of compiler time a job for the first ten, 12 ms
 * a job for the next thirty, under 1 ms after that, measured with --trace-opt), on its helper threads: with
 * one job thread they take the idle core, with two they take the job threads' own. The sweep's figures are
 * for workers past that; the cold start is given beside them.
 */
export const WARM_JOBS_PER_WORKER = 40;
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
  try {
    await waitFor('redis-server', () => /Ready to accept connections/.test(log) || child.exitCode !== null);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
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

/** One configuration: local threads or Redis worker processes, 1 or 2 of them. */
interface Config {
  mode: 'local' | 'redis';
  n: number;
}
const CONFIGS: Config[] = [
  { mode: 'local', n: 1 },
  { mode: 'local', n: 2 },
  { mode: 'redis', n: 1 },
  { mode: 'redis', n: 2 },
];
const configName = (c: Config) => `${c.mode}${c.n}`;

async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'retrosim-batch-bench-'));
  const out: BenchResult[] = [];
  let redis: { url: string; child: ChildProcess } | null = null;
  const children: ChildProcess[] = [];
  try {
    if (existsSync(REDIS_SERVER)) {
      redis = await startRedis();
      children.push(redis.child);
    }
    const sweep = await planBatch(writeBatchFile(dir, 'sweep', 600, SWEEP_JOBS));
    // Warm-up sweeps: WARM_JOBS_PER_WORKER jobs for each thread or worker process, other seeds than the sweep's.
    const warm = await Promise.all([1, 2].map((n) => planBatch(writeBatchFile(dir, `warm${n}`, 600, WARM_JOBS_PER_WORKER * n, 100_001))));
    const configs = CONFIGS.filter((c) => c.mode === 'local' || redis);
    const timed = new Map<string, Timed[]>(configs.map((c) => [configName(c), []]));
    const cold = new Map<string, number[]>(configs.map((c) => [configName(c), []]));
    let reference: Buffer | null = null;
    let runs = 0;

    /** One configuration, fresh (new threads or worker processes, warmed up), through the whole sweep. */
    const measure = async (c: Config): Promise<void> => {
      const name = configName(c);
      const file = join(dir, `${name}-${runs++}.jsonl`);
      let exec: Executor;
      let cpu: () => number = () => 0;
      let workers: ChildProcess[] = [];
      if (c.mode === 'local') exec = new LocalExecutor(c.n);
      else {
        const queue = `bench-${name}-${runs}`;
        const ws = Array.from({ length: c.n }, (_, i) => startWorker(redis!.url, queue, `bench-${name}-${i}`));
        workers = ws.map((w) => w.child);
        children.push(...workers);
        await Promise.all(ws.map((w) => w.ready));
        cpu = () => ws.reduce((s, w) => s + processCpu(w.child.pid!), processCpu(redis!.child.pid!));
        exec = new RedisExecutor({ url: redis!.url, queue, timeoutSeconds: 60 });
      }
      try {
        const w = await timeRun(warm[c.n - 1]!, exec, join(dir, `warm-${name}-${runs}.jsonl`), cpu);
        cold.get(name)!.push((WARM_JOBS_PER_WORKER * c.n) / w.seconds);
        timed.get(name)!.push(await timeRun(sweep, exec, file, cpu));
      } finally {
        await exec.close();
        await stopAll(workers);
      }
      const bytes = readFileSync(file);
      reference ??= bytes;
      if (!bytes.equals(reference)) throw new Error(`batch bench: ${name} gave other results than the first run`);
    };

    // Rounds in alternating order (forward, backward, ...), so that a load that rises or falls during the
    // bench weighs on every configuration alike; each figure is the median of its runs.
    for (let r = 0; r < ROUNDS; r++) for (const c of r % 2 ? [...configs].reverse() : configs) await measure(c);

    const jobsPerSecond = (name: string) => median(timed.get(name)!.map((t) => SWEEP_JOBS / t.seconds));
    const cpuPerJobMs = (name: string) => median(timed.get(name)!.map((t) => (t.cpuSeconds / SWEEP_JOBS) * 1000));
    const runsOf = (name: string) => timed.get(name)!.map((t) => round(SWEEP_JOBS / t.seconds)).join(', ');
    const ratioNote = (one: string, two: string) =>
      `ratio of the medians; per round ${timed
        .get(one)!
        .map((t, i) => round(t.seconds / timed.get(two)![i]!.seconds))
        .join(', ')}`;
    for (const mode of ['local', 'redis'] as const) {
      if (mode === 'redis' && !redis) {
        out.push({ name: 'batch: redis', value: 0, unit: 'skipped', note: `${REDIS_SERVER} is not installed` });
        break;
      }
      for (const n of [1, 2]) {
        const name = `${mode}${n}`;
        const what = mode === 'local' ? `local, ${n} thread${n > 1 ? 's' : ''}` : `redis, ${n} worker process${n > 1 ? 'es' : ''}`;
        const cpuOf = mode === 'local' ? 'this process and its threads' : 'workers, coordinator and redis-server';
        out.push({
          name: `batch: ${what}`,
          value: jobsPerSecond(name),
          unit: 'jobs/s',
          note: `median of ${ROUNDS} runs (${runsOf(name)}) of ${SWEEP_JOBS} jobs of 600 frames, default scenario; CPU time (${cpuOf}) ${round(1000 / cpuPerJobMs(name))} jobs/s; from a cold start (the warm-up's ${WARM_JOBS_PER_WORKER * n} jobs) ${round(median(cold.get(name)!))} jobs/s`,
        });
      }
      const ratio = jobsPerSecond(`${mode}2`) / jobsPerSecond(`${mode}1`);
      out.push({ name: mode === 'local' ? 'batch: local, 2 threads ÷ 1' : 'batch: redis, 2 worker processes ÷ 1', value: ratio, unit: 'ratio', goal: 1.7, better: 'higher', note: ratioNote(`${mode}1`, `${mode}2`) });
    }
    if (!redis) return out;
    {
      const perJobLocal = 1000 / jobsPerSecond('local1');
      const perJobRedis = 1000 / jobsPerSecond('redis1');
      out.push({
        name: 'batch: redis cost per job over local (1 worker)',
        value: ((perJobRedis - perJobLocal) / perJobLocal) * 100,
        unit: '%',
        goal: 10,
        better: 'lower',
        note: `${round(perJobRedis - perJobLocal)} ms per job (${round(perJobLocal)} ms local, ${round(perJobRedis)} ms on the queue; medians)`,
      });
      const cpuLocal = cpuPerJobMs('local1');
      const cpuRedis = cpuPerJobMs('redis1');
      out.push({
        name: 'batch: redis cost per job over local, CPU time',
        value: ((cpuRedis - cpuLocal) / cpuLocal) * 100,
        unit: '%',
        note: `${round(cpuRedis - cpuLocal)} ms of CPU per job (${round(cpuLocal)} ms local, ${round(cpuRedis)} ms with the queue: workers, coordinator and redis-server; medians)`,
      });
    }
    {
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
    }
    return out;
  } finally {
    await stopAll(children.filter((c) => c !== redis?.child));
    redis?.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

export const benches: Bench[] = [{ name: 'batch sweep: local threads and Redis workers', run }];
