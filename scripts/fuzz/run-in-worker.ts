/**
 * Runs a fuzz target in a worker thread with a watchdog: a case that takes longer than `caseTimeoutMs` of
 * CPU time is a hang; the worker is terminated and the case reported. A worker that runs out of its memory
 * limit is reported too.
 *
 * The watchdog counts this process's CPU time, not the clock: on a loaded machine a case gets a fraction of a
 * core and its wall time stretches, but a hang is a case that keeps computing. (The fuzz worker is the only
 * thread here doing work, so the process's CPU time is the case's, plus a little.) A case that makes no
 * progress for WALL_BACKSTOP_FACTOR times the limit by the clock is a hang too, whatever its CPU time.
 */
import { Worker } from 'node:worker_threads';
import type { FuzzReport } from './engine.js';

export interface WorkerFuzzOptions {
  target: string;
  cases: number;
  seed: number;
  /** Index of the first case (default 0): a slice of a longer run. */
  first?: number;
  caseTimeoutMs?: number;
  /** Heap limit of the worker, in MB. */
  maxHeapMb?: number;
  /** Called about every half second with the cases done. */
  onProgress?: (done: number) => void;
}

/**
 * Time the worker may take to load its target (imports, corpus, recorded replays) before its first case: the
 * per-case limit starts with the first case, so a slow start on a busy machine is not taken for a hang.
 */
export const STARTUP_TIMEOUT_MS = 120_000;

/** A case stuck this many times its CPU-time limit by the clock is a hang even when it is not computing. */
export const WALL_BACKSTOP_FACTOR = 60;

/** This process's CPU time (user + system, all threads), in milliseconds. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

export function runFuzzInWorker(o: WorkerFuzzOptions): Promise<FuzzReport> {
  const heartbeat = new SharedArrayBuffer(8);
  const beat = new Int32Array(heartbeat);
  const timeout = o.caseTimeoutMs ?? 2000;
  const worker = new Worker(new URL('./worker.js', import.meta.url), {
    workerData: { target: o.target, cases: o.cases, seed: o.seed, first: o.first ?? 0, heartbeat },
    resourceLimits: { maxOldGenerationSizeMb: o.maxHeapMb ?? 512 },
  });
  return new Promise((resolve, reject) => {
    let lastCount = -1;
    let lastChange = Date.now();
    let lastChangeCpu = cpuMs();
    let settled = false;
    const finish = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      f();
    };
    const hang = (why: string): FuzzReport => ({
      format: o.target,
      first: o.first ?? 0,
      cases: Atomics.load(beat, 1),
      parsed: 0,
      formatErrors: 0,
      byMutation: {},
      maxAllocated: { bytes: 0, inputLength: 0 },
      slowest: { ms: 0, caseIndex: -1 },
      failures: [{ format: o.target, seed: o.seed, caseIndex: Atomics.load(beat, 0), mutation: 'corpus', error: why }],
    });
    const timer = setInterval(() => {
      const count = Atomics.load(beat, 1);
      if (count !== lastCount) {
        lastCount = count;
        lastChange = Date.now();
        lastChangeCpu = cpuMs();
        o.onProgress?.(count);
        return;
      }
      const limit = count === 0 ? STARTUP_TIMEOUT_MS : timeout;
      const cpu = cpuMs() - lastChangeCpu, wall = Date.now() - lastChange;
      if (cpu > limit || wall > limit * WALL_BACKSTOP_FACTOR) {
        const r = hang(`case ran longer than ${timeout} ms of CPU time (hang)`);
        void worker.terminate();
        finish(() => resolve(r));
      }
    }, 50);
    worker.on('message', (r: FuzzReport) => finish(() => resolve(r)));
    worker.on('error', (e) => finish(() => (String(e).includes('ERR_WORKER_OUT_OF_MEMORY') || (e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? resolve(hang(`worker ran out of memory: ${e.message}`)) : reject(e))));
    worker.on('exit', (code) => finish(() => (code === 0 ? reject(new Error('fuzz worker exited without a report')) : resolve(hang(`worker exited with code ${code}`)))));
  });
}
