/**
 * The LOS pool protocol. The worker's side driven by hand from this thread as LosPool drives it, with the
 * interleavings that a loaded machine produces now and then forced through the protocol itself (no sleeps
 * decide anything): a notify that lands after the worker has already seen and served its generation. And
 * LosPool's side: one call at a time (a call while new buffers are on their way to the workers is refused),
 * a failed slice (this thread's or a worker's) fails its own batch only, and a worker gone breaks the pool.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { losBatch, newLosOutput, SEGMENT_STRIDE } from '../../../src/systems/los/los-batch.js';
import { CTRL_COUNT, CTRL_DONE, CTRL_GENERATION, CTRL_JOB, CTRL_STOP, CTRL_WORDS, JOB_BATCH, LosPool, sliceFor, workerUrl } from '../../../src/node/los-pool.js';
import { demoSource, openDemo, randomSegments } from '../demo-worlds.js';

/** A net for a hang, not a speed check. */
const NET_MS = 120_000;

/** Posts `message` and resolves on the worker's answer `type` (rejects on its error). */
function ask(w: Worker, message: Record<string, unknown>, type: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const on = (m: { type: string; error?: string }) => {
      if (m.type === type || m.type === 'error') {
        w.off('message', on);
        if (m.type === type) resolve();
        else reject(new Error(m.error));
      }
    };
    w.on('message', on);
    w.postMessage(message);
  });
}

/** Blocks until control word `at` holds `value` (the word is only ever counted up towards it). */
function waitUntil(c: Int32Array, at: number, value: number): void {
  for (let waited = 0; Atomics.load(c, at) !== value; waited += 10) {
    if (waited > NET_MS) throw new Error(`control word ${at} is ${Atomics.load(c, at)}, never ${value}`);
    Atomics.wait(c, at, Atomics.load(c, at), 10);
  }
}

const started: Worker[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((w) => w.terminate()));
});

describe('LOS worker protocol', () => {
  it('counts itself done once per generation, even when the notify comes after it has served the generation', async () => {
    const kind = 'rugrats';
    const world = openDemo(kind);
    const control = new Int32Array(new SharedArrayBuffer(CTRL_WORDS * 4));
    const w = new Worker(workerUrl(), { workerData: { source: demoSource(kind), control, index: 1, threads: 2 } });
    started.push(w);
    await new Promise<void>((resolve, reject) => {
      w.on('message', (m: { type: string; error?: string }) => (m.type === 'ready' ? resolve() : m.type === 'error' ? reject(new Error(m.error)) : undefined));
      w.once('error', reject);
    });
    const count = 64;
    const segments = new Float64Array(new SharedArrayBuffer(count * SEGMENT_STRIDE * 8));
    segments.set(randomSegments(world, count, 7));
    const visible = new Uint8Array(new SharedArrayBuffer(count));
    const fraction = new Float64Array(new SharedArrayBuffer(count * 8));
    await ask(w, { type: 'buffers', segments, visible, fraction }, 'buffers');

    // A batch, its generation bumped as LosPool bumps it, but the notify held back (the main thread
    // descheduled between the two): the worker finds the generation at the end of its current wait slice.
    Atomics.store(control, CTRL_JOB, JOB_BATCH);
    Atomics.store(control, CTRL_COUNT, count);
    Atomics.store(control, CTRL_DONE, 0);
    Atomics.add(control, CTRL_GENERATION, 1);
    waitUntil(control, CTRL_DONE, 1);

    // Now the late notify: it lands on the worker waiting for the next generation (notify tells how many
    // it woke, so this keeps trying until the worker is in its wait and has been woken by it).
    let woken = 0;
    for (let tries = 0; woken === 0; tries++) {
      if (tries > NET_MS) throw new Error('the worker never waited on the generation word');
      woken = Atomics.notify(control, CTRL_GENERATION);
      if (woken === 0) Atomics.wait(control, CTRL_WORDS - 1, 0, 1);
    }
    expect(woken).toBe(1);
    // The worker reads its port only between waits, so once it answers this, whatever the wake-up made it
    // do is done.
    await ask(w, { type: 'buffers', segments, visible, fraction }, 'buffers');
    expect(Atomics.load(control, CTRL_DONE)).toBe(1);
    expect(Atomics.load(control, CTRL_GENERATION)).toBe(1);

    // Its slice holds the answers of one thread.
    const [a, b] = sliceFor(count, 2, 1);
    const serial = newLosOutput(count);
    losBatch(world, segments, serial, a, b);
    expect(Array.from(visible.subarray(a, b))).toEqual(Array.from(serial.visible.subarray(a, b)));
    expect(Array.from(fraction.subarray(a, b))).toEqual(Array.from(serial.fraction.subarray(a, b)));

    // The next generation is served once too.
    Atomics.store(control, CTRL_DONE, 0);
    Atomics.add(control, CTRL_GENERATION, 1);
    Atomics.notify(control, CTRL_GENERATION);
    waitUntil(control, CTRL_DONE, 1);
    await ask(w, { type: 'buffers', segments, visible, fraction }, 'buffers');
    expect(Atomics.load(control, CTRL_DONE)).toBe(1);

    Atomics.store(control, CTRL_STOP, 1);
    Atomics.add(control, CTRL_GENERATION, 1);
    Atomics.notify(control, CTRL_GENERATION);
  });
});

/** The parts of a pool these tests reach into, to make a worker fail (no world fails a segment). */
interface PoolInsides {
  control: Int32Array;
  workers: Worker[];
  shared: { segments: Float64Array; visible: Uint8Array; fraction: Float64Array };
}
const insides = (pool: LosPool) => pool as unknown as PoolInsides;

describe('LosPool: one call at a time, and failures', () => {
  const kind = 'rugrats';
  const world = openDemo(kind);
  const count = 6000;
  const seg = randomSegments(world, count, 21);
  const serial = newLosOutput(count);
  losBatch(world, seg, serial);
  const agree = (out: { visible: Uint8Array; fraction: Float64Array | Float32Array }, k = count) => {
    expect(Array.from(out.visible.subarray(0, k))).toEqual(Array.from(serial.visible.subarray(0, k)));
    expect(Array.from(out.fraction.subarray(0, k))).toEqual(Array.from(serial.fraction.subarray(0, k)));
  };

  it('refuses a call while another is under way (new buffers on their way to the workers)', async () => {
    const pool = await LosPool.create(demoSource(kind), 3);
    try {
      const out = newLosOutput(count);
      const first = pool.run(seg, out); // grows the buffers: the workers get them while this call waits
      expect(() => pool.runShared(10, newLosOutput(10))).toThrow(/under way/);
      await expect(pool.run(seg, newLosOutput(count))).rejects.toThrow(/under way/);
      await expect(pool.reserve(10)).rejects.toThrow(/under way/);
      await expect(pool.matrix(new Float64Array(6), 2, 922, 1000)).rejects.toThrow(/under way/);
      await first;
      agree(out);
      // Done: calls are taken again, and the buffers are the ones the workers have.
      pool.segmentBuffer.set(seg);
      const again = newLosOutput(count);
      pool.runShared(count, again);
      agree(again);
    } finally {
      await pool.close();
    }
  });

  it("joins the workers when this thread's slice fails, so the next batch is counted right", async () => {
    const pool = await LosPool.create(demoSource(kind), 3);
    try {
      await pool.run(seg, newLosOutput(count));
      // The world's walk fails, one segment at a time and in batches (a Rugrats world has both).
      const w = pool.world as { segmentFraction: (...a: number[]) => number; segmentFractions?: (...a: unknown[]) => void };
      const own = w.segmentFraction;
      const ownMany = w.segmentFractions;
      w.segmentFraction = w.segmentFractions = () => {
        throw new Error('a slice that fails');
      };
      expect(() => pool.runShared(count, newLosOutput(count))).toThrow('a slice that fails');
      // Both workers are done with that batch before the call returns.
      expect(Atomics.load(insides(pool).control, CTRL_DONE)).toBe(2);
      w.segmentFraction = own;
      w.segmentFractions = ownMany;
      const out = newLosOutput(count);
      pool.runShared(count, out);
      agree(out);
    } finally {
      await pool.close();
    }
  });

  it("fails only the batch in which a worker's slice failed", async () => {
    const pool = await LosPool.create(demoSource(kind), 2);
    try {
      await pool.run(seg, newLosOutput(count));
      const { workers, shared } = insides(pool);
      // The worker given buffers too small for its slice: its cast throws.
      await ask(workers[0]!, { type: 'buffers', segments: new Float64Array(new SharedArrayBuffer(8)), visible: new Uint8Array(new SharedArrayBuffer(1)), fraction: new Float64Array(new SharedArrayBuffer(8)) }, 'buffers');
      expect(() => pool.runShared(count, newLosOutput(count))).toThrow(/worker failed/);
      await ask(workers[0]!, { type: 'buffers', segments: shared.segments, visible: shared.visible, fraction: shared.fraction }, 'buffers');
      const out = newLosOutput(count);
      pool.runShared(count, out);
      agree(out);
    } finally {
      await pool.close();
    }
  });

  it('refuses every call once a worker has exited, and a call waiting on a closed pool ends', async () => {
    const pool = await LosPool.create(demoSource(kind), 2);
    try {
      await insides(pool).workers[0]!.terminate();
      expect(() => pool.runShared(0, newLosOutput(0))).toThrow(/exited/);
      await expect(pool.matrix(new Float64Array(6), 2, 922, 1000)).rejects.toThrow(/exited/);
    } finally {
      await pool.close();
    }
    const other = await LosPool.create(demoSource(kind), 2);
    const pending = other.run(seg, newLosOutput(count)); // its buffers on their way to the worker
    await other.close();
    await expect(pending).rejects.toThrow(/closed|exited/);
  });
});
