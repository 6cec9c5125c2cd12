/**
 * A system worker (see system-pool.ts): loads its own copy of the world and the range kernels (the built-in
 * ones and those of the pool's kernel modules), then sleeps on the shared generation word. Each wake-up first
 * takes the configuration messages the main thread sent before it (simulations attached, kernels bound,
 * the world's run-time state), synchronously from its port, then runs its range of the job and counts itself
 * done.
 */
import { receiveMessageOnPort, workerData, parentPort, type MessagePort } from 'node:worker_threads';
import { importSealedUrl } from './scenario-file.js';
import { storeFromShared, type ComponentStore, type SharedStore } from '../ecs/components.js';
import { loadWorldBytes } from '../worlds/load.js';
import type { CollisionWorld } from '../worlds/world.js';
import { BUILTIN_KERNELS } from '../systems/builtin-kernels.js';
import { checkKernel, chunkCount, kernelStores, MAX_STAGE_KERNELS, runChunks, runStageChunks, type KernelFunction, type RangeKernel } from '../systems/range-kernel.js';
import { C, type ConfigMessage, type PoolWorkerData } from './system-pool-protocol.js';
import { enterGuard, leaveGuard, NondeterminismError } from '../sim/determinism-guard.js';

const data = workerData as PoolWorkerData;
const port = data.port as MessagePort;
const control = data.control;

interface Binding {
  capacity: number;
  byName: Map<string, ComponentStore>;
  membership: Uint32Array;
  ids: Uint32Array;
  marks: Uint32Array;
  counts: Int32Array;
  kernels: KernelFunction[];
  names: string[];
}

let world: CollisionWorld;
const registry = new Map<string, RangeKernel>();
const bindings = new Map<number, Binding>();
let applied = 0;

function apply(m: ConfigMessage): void {
  switch (m.type) {
    case 'attach': {
      const byName = new Map<string, ComponentStore>();
      for (const s of m.stores as SharedStore[]) byName.set(s.name, storeFromShared(s, m.capacity));
      if (!(m.membership instanceof Uint32Array) || m.membership.length !== m.capacity) throw new TypeError(`membership: expected a u32 array of ${m.capacity} elements`);
      bindings.set(m.binding, { capacity: m.capacity, byName, membership: m.membership, ids: m.ids, marks: m.marks, counts: m.counts, kernels: [], names: [] });
      break;
    }
    case 'kernel': {
      const b = bindings.get(m.binding)!;
      const k = registry.get(m.name);
      if (!k) throw new Error(`no range kernel ${m.name} in this worker`);
      b.kernels[m.index] = k.create(world, kernelStores(k, b.capacity, b.byName, b.membership));
      b.names[m.index] = k.name;
      break;
    }
    case 'state':
      (world as CollisionWorld & { restoreState?(s: unknown): void }).restoreState?.(m.state);
      break;
    case 'detach':
      bindings.delete(m.binding);
      break;
  }
}

/** Takes every configuration message up to `count` (they were posted before the job that needs them). */
function catchUp(count: number): void {
  while (applied < count) {
    const got = receiveMessageOnPort(port);
    if (got === undefined) {
      Atomics.wait(control, C.STOP, 0, 1);
      if (Atomics.load(control, C.STOP) !== 0) return;
      continue;
    }
    apply(got.message as ConfigMessage);
    applied++;
  }
}

let kernelName = '';
// A stage's kernels and functions (reused from job to job).
const stageKernels: RangeKernel[] = [];
const stageFns: KernelFunction[] = [];
const kernelRunning = { describe: () => `range kernel ${kernelName} on system worker ${data.index}` };
/** The same, for the runtime's own kernels: they call nothing the further checks refuse (tested), so skip them. */
const builtinKernelRunning = { describe: kernelRunning.describe, runtimeCodeOnly: true };
const builtin = new Set<RangeKernel>(BUILTIN_KERNELS);

/** Serves jobs after generation `seen` (read before the worker says it is ready, so no job is missed). */
function serve(seen: number): void {
  for (;;) {
    Atomics.wait(control, C.GENERATION, seen, 1000);
    if (Atomics.load(control, C.STOP) !== 0) break;
    const g = Atomics.load(control, C.GENERATION);
    if (g === seen) continue;
    seen = g;
    try {
      catchUp(Atomics.load(control, C.CONFIG));
      const b = bindings.get(Atomics.load(control, C.BINDING));
      if (!b) throw new Error('a job for a simulation this worker was not given');
      const count = Atomics.load(control, C.COUNT);
      const chunks = chunkCount(count, data.threads);
      const stage = Atomics.load(control, C.STAGE);
      if (stage !== 0) {
        // A stage: every chunk through each of its kernels in turn.
        if (stage < 0 || stage > MAX_STAGE_KERNELS) throw new Error(`a stage of ${stage} kernels (at most ${MAX_STAGE_KERNELS})`);
        for (let k = 0; k < stage; k++) {
          const index = Atomics.load(control, C.STAGE_KERNELS + k);
          const fn = b.kernels[index];
          if (!fn) throw new Error('a job for a kernel this worker was not given');
          stageFns[k] = fn;
          stageKernels[k] = registry.get(b.names[index]!)!;
        }
        kernelName = stageKernels.slice(0, stage).map((k) => k.name).join(' + ');
        let own = true;
        for (let k = 0; k < stage; k++) own &&= builtin.has(stageKernels[k]!);
        enterGuard(own ? builtinKernelRunning : kernelRunning);
        try {
          runStageChunks(stageKernels, stageFns, stage, b.ids, b.marks, count, chunks, data.index, () => Atomics.add(control, C.NEXT, 1));
        } finally {
          leaveGuard();
        }
      } else {
        const index = Atomics.load(control, C.KERNEL);
        const fn = b.kernels[index];
        if (!fn) throw new Error('a job for a kernel this worker was not given');
        const kernel = registry.get(b.names[index]!)!;
        // The kernel runs under the determinism guard, as its system does on the main thread (which names it).
        kernelName = b.names[index]!;
        enterGuard(builtin.has(kernel) ? builtinKernelRunning : kernelRunning);
        try {
          // This worker's own chunk (its index), then chunks not yet taken until none is left (the main thread
          // takes them too).
          runChunks(kernel, fn, b.ids, b.marks, b.counts, count, chunks, data.index, () => Atomics.add(control, C.NEXT, 1));
        } finally {
          leaveGuard();
        }
      }
    } catch (e) {
      const refused = e instanceof NondeterminismError ? { call: e.call, kernel: kernelName } : undefined;
      if (Atomics.compareExchange(control, C.ERROR, 0, data.index) === 0) port.postMessage({ type: 'error', error: (e as Error).message ?? String(e), refused });
    }
    Atomics.add(control, C.DONE, 1);
    Atomics.notify(control, C.DONE);
  }
  port.close();
}

try {
  world = loadWorldBytes(data.source.bytes, data.source.name, data.source.options);
  for (const k of BUILTIN_KERNELS) registry.set(k.name, k);
  for (const path of data.kernelModules) {
    // Always a sealed copy the main thread made and checked (SystemPool.create seals the files it is given).
    const mod = await importSealedUrl(path);
    // A module without kernels (a scenario whose systems have none) adds none.
    if (mod['kernels'] === undefined) continue;
    if (!Array.isArray(mod['kernels'])) throw new Error(`kernel module ${path}: \`kernels\` must be a list of range kernels`);
    for (const k of mod['kernels'] as RangeKernel[]) {
      checkKernel(k);
      if (registry.has(k.name)) throw new Error(`range kernel ${k.name} is defined twice (${path})`);
      registry.set(k.name, k);
    }
  }
} catch (e) {
  parentPort!.postMessage({ type: 'error', error: (e as Error).message });
  throw e;
}
// The generation is read before "ready": the first job cannot come before it, however late this thread runs on.
const generation = Atomics.load(control, C.GENERATION);
parentPort!.postMessage({ type: 'ready', kernels: [...registry.values()].map((k) => ({ name: k.name, reads: k.reads.map((d) => d.name), writes: k.writes.map((d) => d.name) })) });
serve(generation);
