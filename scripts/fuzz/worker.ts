/**
 * Worker side of the fuzz runner: runs one target's cases and beats a heartbeat (the current case index)
 * in shared memory, so the parent can see a case that hangs and terminate the worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { fuzzTarget } from './engine.js';
import { loadTarget } from './targets.js';

interface Job {
  target: string;
  cases: number;
  seed: number;
  first: number;
  heartbeat: SharedArrayBuffer;
}

const job = workerData as Job;
const beat = new Int32Array(job.heartbeat);
const target = await loadTarget(job.target);
const report = fuzzTarget(target, job.cases, job.seed, (i) => {
  Atomics.store(beat, 0, i);
  Atomics.add(beat, 1, 1);
}, job.first);
parentPort!.postMessage(report);
