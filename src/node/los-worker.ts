/**
 * A line-of-sight worker (see los-pool.ts): loads its own copy of the world, then sleeps on the shared
 * generation word; each new generation casts its slice of the shared batch and counts itself done once.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadWorldBytes } from '../worlds/load.js';
import type { CollisionWorld } from '../worlds/world.js';
import { losBatch, type LosOutput } from '../systems/los/los-batch.js';
import { PairRowsCaster, pairRowSlice } from '../systems/los/pair-rows.js';
import { CTRL_CAPACITY, CTRL_COUNT, CTRL_DONE, CTRL_ERROR, CTRL_GENERATION, CTRL_JOB, CTRL_STOP, JOB_MATRIX, sliceFor, type WorldSource } from './los-pool.js';

interface Data {
  source: WorldSource;
  control: Int32Array;
  index: number;
  threads: number;
}

const data = workerData as Data;
const port = parentPort!;
let world: CollisionWorld;
try {
  world = loadWorldBytes(data.source.bytes, data.source.name, data.source.options);
} catch (e) {
  port.postMessage({ type: 'error', error: (e as Error).message });
  throw e;
}

let segments: Float64Array = new Float64Array(0);
let out: LosOutput = { visible: new Uint8Array(0), fraction: new Float64Array(0) };
// The matrix job: the shared agents and parameters, this thread's answers (views of its region) and counts.
let feet: Float64Array = new Float64Array(0);
let params: Float64Array = new Float64Array(2);
let allVisible: Uint8Array = new Uint8Array(0);
let allFraction: Float64Array = new Float64Array(0);
let counts: Int32Array = new Int32Array(0);
let regionCapacity = -1;
let myVisible: Uint8Array = new Uint8Array(0);
let myFraction: Float64Array = new Float64Array(0);
const rows = new PairRowsCaster();
const c = data.control;
let seen = Atomics.load(c, CTRL_GENERATION);

port.on('message', (m: { type: string; segments?: Float64Array; visible?: Uint8Array; fraction?: Float64Array; state?: unknown; feet?: Float64Array; params?: Float64Array; counts?: Int32Array }) => {
  try {
    if (m.type === 'matrix') {
      feet = m.feet!;
      params = m.params!;
      allVisible = m.visible!;
      allFraction = m.fraction!;
      counts = m.counts!;
      regionCapacity = -1;
      port.postMessage({ type: 'matrix' });
    } else if (m.type === 'buffers') {
      segments = m.segments!;
      out = { visible: m.visible!, fraction: m.fraction! };
      port.postMessage({ type: 'buffers' });
    } else if (m.type === 'state') {
      (world as CollisionWorld & { restoreState?(s: unknown): void }).restoreState?.(m.state);
      port.postMessage({ type: 'state' });
    }
  } catch (e) {
    port.postMessage({ type: 'error', error: (e as Error).message });
  }
});

/**
 * Serves batches until the main thread needs the message port (a new buffer or state is only sent while
 * no batch runs, and the main thread bumps no generation then), or until stopped. Waiting in slices lets the
 * port's messages through between waits.
 *
 * A job is a new generation, never a wake-up: the main thread bumps the generation and only then notifies,
 * so a worker can see the new generation, serve it, and be waiting again before that notify lands. The
 * notify then wakes it ('ok') with the generation it has already served; served again, it would count
 * itself done twice, and the main thread would take the answers of a worker still casting. So a wake-up
 * whose generation is the one already served is only waited through.
 */
function loop(): void {
  for (;;) {
    const r = Atomics.wait(c, CTRL_GENERATION, seen, 5);
    if (Atomics.load(c, CTRL_STOP) !== 0) {
      port.close();
      return;
    }
    const generation = Atomics.load(c, CTRL_GENERATION);
    if (generation === seen) {
      if (r !== 'timed-out') continue; // a late notify of a generation already served
      // Yield to the event loop so buffer and state messages get through, then carry on waiting.
      setImmediate(loop);
      return;
    }
    seen = generation;
    const count = Atomics.load(c, CTRL_COUNT);
    try {
      if (Atomics.load(c, CTRL_JOB) === JOB_MATRIX) matrixSlice(count, Atomics.load(c, CTRL_CAPACITY));
      else {
        const [a, b] = sliceFor(count, data.threads, data.index);
        losBatch(world, segments, out, a, b);
      }
    } catch {
      Atomics.store(c, CTRL_ERROR, 1);
    }
    Atomics.add(c, CTRL_DONE, 1);
    Atomics.notify(c, CTRL_DONE);
  }
}

/** This thread's slice of the matrix job: its rows walked and cast into its region of the answers. */
function matrixSlice(n: number, capacity: number): void {
  if (capacity !== regionCapacity) {
    const from = data.index * capacity;
    myVisible = allVisible.subarray(from, from + capacity);
    myFraction = allFraction.subarray(from, from + capacity);
    regionCapacity = capacity;
  }
  const [a, b] = pairRowSlice(n, data.threads, data.index);
  counts[data.index] = rows.run(world, feet, n, params[0]!, params[1]!, a, b, myVisible, myFraction, capacity);
}

port.postMessage({ type: 'ready' });
loop();
