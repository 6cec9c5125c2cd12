/**
 * Runs a fuzz target in a worker thread with a watchdog: a case that takes longer than `caseTimeoutMs` is a
 * hang; the worker is terminated and the case reported. A worker that runs out of its memory limit is
 * reported too.
 */
import { Worker } from 'node:worker_threads';
import type { FuzzReport } from './engine.js';

export interface WorkerFuzzOptions {
  target: string;
  cases: number;
  seed: number;
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

export function runFuzzInWorker(o: WorkerFuzzOptions): Promise<FuzzReport> {
  const heartbeat = new SharedArrayBuffer(8);
  const beat = new Int32Array(heartbeat);
  const timeout = o.caseTimeoutMs ?? 2000;
  const worker = new Worker(new URL('./worker.js', import.meta.url), {
    workerData: { target: o.target, cases: o.cases, seed: o.seed, heartbeat },
    resourceLimits: { maxOldGenerationSizeMb: o.maxHeapMb ?? 512 },
  });
  return new Promise((resolve, reject) => {
    let lastCount = -1;
    let lastChange = Date.now();
    let settled = false;
    const finish = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      f();
    };
    const hang = (why: string): FuzzReport => ({
      format: o.target,
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
        o.onProgress?.(count);
      } else if (Date.now() - lastChange > (count === 0 ? STARTUP_TIMEOUT_MS : timeout)) {
        const r = hang(`case ran longer than ${timeout} ms (hang)`);
        void worker.terminate();
        finish(() => resolve(r));
      }
    }, 50);
    worker.on('message', (r: FuzzReport) => finish(() => resolve(r)));
    worker.on('error', (e) => finish(() => (String(e).includes('ERR_WORKER_OUT_OF_MEMORY') || (e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? resolve(hang(`worker ran out of memory: ${e.message}`)) : reject(e))));
    worker.on('exit', (code) => finish(() => (code === 0 ? reject(new Error('fuzz worker exited without a report')) : resolve(hang(`worker exited with code ${code}`)))));
  });
}
