/**
 * `npm run soak -- [--frames N] [--check-every K] [--agents N] [--max-growth BYTES] [--out FILE] [--progress]`
 *
 * The long soak: two independent runs of the default scenario (the generated Piney field with its weather,
 * a player and the wandering agents, driven by the stand-in player's buttons, exactly as `retrosim run`),
 * each in its own worker thread (its own V8 isolate, so no module state is shared between them). Every K
 * frames each run hashes its state, counts what the simulation holds (`retainedFootprint`: a walk of its
 * objects, the same number in every run) and, after a forced full garbage collection, samples its heap and
 * its ArrayBuffer memory; the main thread compares the two hashes of every checkpoint and stops at the first
 * difference. At the end it fits a least-squares line to each run's samples (after a warm-up) and reports the
 * slope per million frames: memory "grows" when the fitted growth over a million frames is above --max-growth
 * (default 4 MiB), for the footprint and, in this long soak, for the heap and ArrayBuffers too (a library
 * caller of runSoak judges those only with `judgeHeap`, as their short-run slopes move with the machine's
 * load).
 *
 * Prints a JSON summary on stdout (also written to --out, default out/soak.json); progress goes to stderr
 * when it is a terminal. Exit code 0 when every check matched and memory did not grow, 1 otherwise.
 *
 * This one file is both the main program and the worker (it re-enters itself with `workerData`).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { simulationFromSettings } from '../src/scenarios/builtin.js';

/** One checkpoint of one run. */
export interface SoakSample {
  frame: number;
  hash: string;
  /** V8 heap in use after a full collection (this run's isolate). */
  heapUsed: number;
  /** Memory held by ArrayBuffers (typed-array storage outside the heap), as Node reports it to this isolate. */
  arrayBuffers: number;
  /** Resident set size of the whole process (both runs and the main thread). */
  rss: number;
  /** V8 heap reserved by this run's isolate (used or not). */
  heapTotal: number;
  /** What the simulation holds, counted by walking it (see retainedFootprint): the same in every run. */
  footprint: number;
}

export interface SoakOptions {
  frames: number;
  checkEvery: number;
  /** Wandering agents; undefined = the default scenario's count. */
  agents?: number;
  /** Largest accepted fitted growth over a million frames, per run and per measure (bytes). */
  maxGrowthPerMillionFrames?: number;
  /** Fraction of the run (by frames) left out of the slope fit, while code warms up. */
  warmupFraction?: number;
  /**
   * Also judge the V8 heap and ArrayBuffer slopes (default false: only the footprint is judged). Those move
   * with when code gets compiled and when collections run, which a loaded machine shifts; over a long soak
   * (`npm run soak`, which judges them) such a step is too small to count, over a short one it is not.
   */
  judgeHeap?: boolean;
  /** Called on each matched checkpoint (progress). */
  onCheck?: (frame: number, checks: number) => void;
}

export interface MemoryTrend {
  first: number;
  last: number;
  min: number;
  max: number;
  /** Least-squares slope over the samples after the warm-up, in bytes per million frames. */
  slopePerMillionFrames: number;
  samples: number;
}

export interface SoakRunSummary {
  finalHash: string | null;
  seconds: number;
  framesPerSecond: number;
  heapUsed: MemoryTrend;
  arrayBuffers: MemoryTrend;
  /** Heap reserved by the isolate: reported, not judged (V8 sizes it by its own policy). */
  heapTotal: MemoryTrend;
  /** retainedFootprint of the simulation (objects, entries and bytes, not heap bytes). */
  footprint: MemoryTrend;
}

export interface SoakSummary {
  scenario: string;
  world: string;
  agents: number;
  frames: number;
  checkEvery: number;
  /** Checkpoints where both runs reported and their hashes agreed. */
  checks: number;
  mismatch: { frame: number; a: string; b: string } | null;
  finalHash: string | null;
  seconds: number;
  runs: { a: SoakRunSummary; b: SoakRunSummary };
  /** Resident set size of the whole process, from run a's samples: reported, not judged (it counts allocator
   * and V8 reservations, not only live data). */
  rss: MemoryTrend;
  maxGrowthPerMillionFrames: number;
  memoryGrows: boolean;
  /** Measures whose fitted growth is over the bound, e.g. "a.arrayBuffers". */
  growing: string[];
  ok: boolean;
  /** Every checkpoint of each run: frame, heap used, ArrayBuffer bytes, heap reserved, process RSS, footprint. */
  samples: { a: [number, number, number, number, number, number][]; b: [number, number, number, number, number, number][] };
}

const DEFAULT_MAX_GROWTH = 4 * 1024 * 1024;
const DEFAULT_WARMUP = 0.1;

interface WorkerJob {
  role: 'a' | 'b';
  frames: number;
  checkEvery: number;
  agents?: number;
}

type WorkerMessage =
  | { type: 'ready'; agents: number; scenario: string; world: string }
  | ({ type: 'sample' } & SoakSample)
  | { type: 'done'; finalHash: string; seconds: number };

// ---------------------------------------------------------------------------------------------- worker side

async function workerMain(job: WorkerJob): Promise<void> {
  // A full collection before each sample, so that the samples measure what is kept, not what is pending.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const { DEFAULT_WORLD } = await import('../src/worlds/builtin.js');
  const { defaultSettingsFor } = await import('../src/scenarios/builtin.js');
  const { openBuiltinWorld } = await import('../src/node/open-world.js');
  const { demoButtons } = await import('../src/sim/demo-input.js');
  const { Simulation } = await import('../src/sim/simulation.js');
  const read = (p: string) => {
    const b = readFileSync(p);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  };
  const opened = await openBuiltinWorld(DEFAULT_WORLD, read);
  const settings = defaultSettingsFor(opened.world, job.agents === undefined ? {} : { agents: job.agents });
  // As `retrosim run` does: room for every agent plus the player.
  let cap = 2;
  while (cap < settings.agents + 2) cap *= 2;
  settings.capacity = Math.max(settings.capacity, cap);
  const sim = simulationFromSettings(opened.world, settings);
  const post = (m: WorkerMessage) => parentPort!.postMessage(m);
  post({ type: 'ready', agents: sim.agentsPlaced, scenario: settings.scenario, world: opened.identity.source });
  const sample = (frame: number) => {
    const hash = sim.hashHex();
    gc();
    const m = process.memoryUsage();
    const heap = getHeapStatistics();
    const footprint = retainedFootprint(sim);
    post({ type: 'sample', frame, hash, heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size, arrayBuffers: m.arrayBuffers, rss: m.rss, footprint });
  };
  const t0 = Date.now();
  sample(0);
  for (let f = 1; f <= job.frames; f++) {
    sim.step(demoButtons(f));
    if (f % job.checkEvery === 0 || f === job.frames) sample(f);
  }
  post({ type: 'done', finalHash: sim.hashHex(), seconds: (Date.now() - t0) / 1000 });
}

// ------------------------------------------------------------------------------------------------ main side

/**
 * A deterministic measure, roughly in bytes, of what an object graph holds: each object reachable from `root`
 * through its own data properties (array elements included) and Map and Set entries counts once with a slot
 * per property or entry, plus the bytes of every typed array and ArrayBuffer and the length of every string.
 * Getters are not called and prototypes not followed. It depends on neither the garbage collector nor the compiler, so it is the same
 * number in every run of the same simulation: a structure that keeps growing shows, while heap measurements
 * move with when code gets compiled and collections run.
 */
export function retainedFootprint(root: unknown): number {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  let total = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      total += FOOTPRINT.string + v.length;
      continue;
    }
    if ((typeof v !== 'object' && typeof v !== 'function') || v === null || seen.has(v)) continue;
    seen.add(v);
    total += FOOTPRINT.object;
    if (ArrayBuffer.isView(v)) {
      total += v.byteLength;
      continue;
    }
    if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer)) {
      total += v.byteLength;
      continue;
    }
    if (v instanceof Map) {
      total += FOOTPRINT.entry * 2 * v.size;
      for (const [k, x] of v) stack.push(k, x);
    } else if (v instanceof Set) {
      total += FOOTPRINT.entry * v.size;
      for (const x of v) stack.push(x);
    }
    for (const k of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, k);
      if (!d || !('value' in d)) continue;
      total += FOOTPRINT.entry;
      stack.push(d.value);
    }
  }
  return total;
}

/** The weights of retainedFootprint, roughly V8's sizes in bytes: an object's header, a slot, a string's header. */
const FOOTPRINT = { object: 16, entry: 8, string: 16 };

/** Least-squares slope of y over x (0 for fewer than two points). */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i]!;
    my += ys[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) * (xs[i]! - mx);
  }
  return sxx === 0 ? 0 : sxy / sxx;
}

/** The trend of one measure over the samples; the slope leaves out frames before `fromFrame`. */
export function memoryTrend(samples: readonly SoakSample[], pick: (s: SoakSample) => number, fromFrame: number): MemoryTrend {
  const values = samples.map(pick);
  const fit = samples.filter((s) => s.frame >= fromFrame);
  return {
    first: values[0] ?? 0,
    last: values[values.length - 1] ?? 0,
    min: values.length ? Math.min(...values) : 0,
    max: values.length ? Math.max(...values) : 0,
    slopePerMillionFrames: Math.round(1e6 * slope(fit.map((s) => s.frame), fit.map(pick))),
    samples: fit.length,
  };
}

/** Runs the soak (the compiled worker must be beside this module, i.e. run from dist/). */
export function runSoak(o: SoakOptions): Promise<SoakSummary> {
  if (!Number.isInteger(o.frames) || o.frames < 1) throw new RangeError('frames must be a positive integer');
  if (!Number.isInteger(o.checkEvery) || o.checkEvery < 1) throw new RangeError('checkEvery must be a positive integer');
  const maxGrowth = o.maxGrowthPerMillionFrames ?? DEFAULT_MAX_GROWTH;
  const warmupFrame = Math.floor(o.frames * (o.warmupFraction ?? DEFAULT_WARMUP));
  const t0 = Date.now();
  const samples: Record<'a' | 'b', SoakSample[]> = { a: [], b: [] };
  const done: Partial<Record<'a' | 'b', { finalHash: string; seconds: number }>> = {};
  let info: { agents: number; scenario: string; world: string } | null = null;
  let checks = 0;
  let mismatch: SoakSummary['mismatch'] = null;
  const workers: Worker[] = [];

  return new Promise<SoakSummary>((resolve, reject) => {
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      for (const w of workers) void w.terminate();
      const trends = (r: 'a' | 'b'): SoakRunSummary => {
        const d = done[r];
        const frames = samples[r].length ? samples[r][samples[r].length - 1]!.frame : 0;
        return {
          finalHash: d?.finalHash ?? null,
          seconds: d?.seconds ?? (Date.now() - t0) / 1000,
          framesPerSecond: d && d.seconds > 0 ? Math.round(frames / d.seconds) : 0,
          heapUsed: memoryTrend(samples[r], (s) => s.heapUsed, warmupFrame),
          arrayBuffers: memoryTrend(samples[r], (s) => s.arrayBuffers, warmupFrame),
          heapTotal: memoryTrend(samples[r], (s) => s.heapTotal, warmupFrame),
          footprint: memoryTrend(samples[r], (s) => s.footprint, warmupFrame),
        };
      };
      const runs = { a: trends('a'), b: trends('b') };
      const growing: string[] = [];
      for (const r of ['a', 'b'] as const) {
        if (runs[r].footprint.slopePerMillionFrames > maxGrowth) growing.push(`${r}.footprint`);
        if (!o.judgeHeap) continue;
        if (runs[r].heapUsed.slopePerMillionFrames > maxGrowth) growing.push(`${r}.heapUsed`);
        if (runs[r].arrayBuffers.slopePerMillionFrames > maxGrowth) growing.push(`${r}.arrayBuffers`);
      }
      const finalHash = done.a && done.b && done.a.finalHash === done.b.finalHash ? done.a.finalHash : null;
      resolve({
        scenario: info?.scenario ?? '',
        world: info?.world ?? '',
        agents: info?.agents ?? 0,
        frames: o.frames,
        checkEvery: o.checkEvery,
        checks,
        mismatch,
        finalHash,
        seconds: (Date.now() - t0) / 1000,
        runs,
        rss: memoryTrend(samples.a, (s) => s.rss, warmupFrame),
        maxGrowthPerMillionFrames: maxGrowth,
        memoryGrows: growing.length > 0,
        growing,
        samples: {
          a: samples.a.map((s) => [s.frame, s.heapUsed, s.arrayBuffers, s.heapTotal, s.rss, s.footprint]),
          b: samples.b.map((s) => [s.frame, s.heapUsed, s.arrayBuffers, s.heapTotal, s.rss, s.footprint]),
        },
        ok: mismatch === null && finalHash !== null && growing.length === 0,
      });
    };
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      for (const w of workers) void w.terminate();
      reject(e);
    };
    // Compare checkpoint i of both runs once both have reported it.
    const compare = () => {
      while (!mismatch && checks < samples.a.length && checks < samples.b.length) {
        const a = samples.a[checks]!;
        const b = samples.b[checks]!;
        if (a.frame !== b.frame || a.hash !== b.hash) {
          mismatch = { frame: a.frame, a: a.hash, b: b.hash };
          finish();
          return;
        }
        checks++;
        o.onCheck?.(a.frame, checks);
      }
      if (done.a && done.b) finish();
    };
    for (const role of ['a', 'b'] as const) {
      const job: WorkerJob = { role, frames: o.frames, checkEvery: o.checkEvery, ...(o.agents === undefined ? {} : { agents: o.agents }) };
      const w = new Worker(new URL(import.meta.url), { workerData: job });
      workers.push(w);
      w.on('message', (m: WorkerMessage) => {
        if (m.type === 'ready') info = { agents: m.agents, scenario: m.scenario, world: m.world };
        else if (m.type === 'sample') samples[role].push({ frame: m.frame, hash: m.hash, heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers, rss: m.rss, heapTotal: m.heapTotal, footprint: m.footprint });
        else done[role] = { finalHash: m.finalHash, seconds: m.seconds };
        compare();
      });
      w.on('error', fail);
      w.on('exit', (code) => {
        if (!done[role] && !settled) fail(new Error(`soak run ${role} exited with code ${code} before finishing`));
      });
    }
  });
}

async function main(): Promise<number> {
  const { parseArgs, UsageError } = await import('../src/cli/args.js');
  const { options: o, positionals } = parseArgs(process.argv.slice(2), {
    frames: { type: 'int', min: 1, max: 100_000_000 },
    'check-every': { type: 'int', min: 1, max: 100_000_000 },
    agents: { type: 'int', min: 0, max: 100_000 },
    'max-growth': { type: 'int', min: 0, max: 2 ** 40 },
    out: { type: 'string' },
    progress: { type: 'flag' },
  });
  if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const frames = (o['frames'] as number | undefined) ?? 1_000_000;
  const checkEvery = (o['check-every'] as number | undefined) ?? 10_000;
  const tty = process.stderr.isTTY;
  // --progress: a line per checkpoint on stderr even when it is not a terminal (for a run in the background).
  const lines = o['progress'] === true && !tty;
  const t0 = Date.now();
  const summary = await runSoak({
    frames,
    checkEvery,
    ...(o['agents'] === undefined ? {} : { agents: o['agents'] as number }),
    ...(o['max-growth'] === undefined ? {} : { maxGrowthPerMillionFrames: o['max-growth'] as number }),
    judgeHeap: true,
    onCheck: (frame, checks) => {
      if (!tty && !lines) return;
      const s = (Date.now() - t0) / 1000;
      const text = `soak: frame ${frame}/${frames}, ${checks} checks matched, ${s.toFixed(0)} s`;
      process.stderr.write(tty ? `\r\x1b[K${text}` : `${text}\n`);
    },
  });
  if (tty) process.stderr.write('\r\x1b[K');
  const out = (o['out'] as string | undefined) ?? 'out/soak.json';
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(summary) + '\n');
  // On stdout, everything but the sample lists (they are in the file).
  const { samples: _samples, ...brief } = summary;
  process.stdout.write(JSON.stringify(brief, null, 2) + '\n');
  return summary.ok ? 0 : 1;
}

if (!isMainThread && workerData && (workerData as WorkerJob).role) {
  await workerMain(workerData as WorkerJob);
} else if (isMainThread && process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`soak: ${e instanceof Error ? e.message : e}\n`);
      process.exit(e && (e as Error).name === 'UsageError' ? 2 : 1);
    },
  );
}
