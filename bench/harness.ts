/**
 * The benchmark harness. Benchmarks measure wall-clock speed, so they (and only they) may read the clock.
 * Each bench file under bench/ exports `benches: Bench[]`; `npm run bench` runs them all (or those whose
 * name contains the filter given after `--`) and prints a table with the goal each must reach.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

export interface BenchResult {
  /** What was measured, e.g. "rugrats query". */
  name: string;
  /** The figure, in `unit`. */
  value: number;
  /** e.g. "ops/s", "segments/s", "ms", "MB/s", "frames/s", "ratio". */
  unit: string;
  /** The goal for this figure, if any, and whether higher or lower is better. */
  goal?: number;
  better?: 'higher' | 'lower';
  /** Free text: sizes, counts, peers. */
  note?: string;
}

export interface Bench {
  name: string;
  run(): Promise<BenchResult[]> | BenchResult[];
}

/**
 * Calls `fn(iterations)` with growing iteration counts until one call takes at least `minMs`, then runs
 * `samples` more calls of that size and returns the median operations per second (`opsPerCall` operations
 * per iteration).
 */
export function opsPerSecond(fn: (iterations: number) => void, opsPerIteration = 1, minMs = 200, samples = 5): number {
  let n = 1;
  for (;;) {
    const t0 = performance.now();
    fn(n);
    const dt = performance.now() - t0;
    if (dt >= minMs / 4 || n >= 1 << 30) break;
    n *= dt < 1 ? 16 : 2;
  }
  const rates: number[] = [];
  for (let s = 0; s < samples; s++) {
    const t0 = performance.now();
    fn(n);
    const dt = performance.now() - t0;
    rates.push((n * opsPerIteration) / (dt / 1000));
  }
  rates.sort((a, b) => a - b);
  return rates[rates.length >> 1]!;
}

/** Median wall time in milliseconds of `samples` calls of `fn` (after one warm-up call). */
/** The median of `values` (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export function medianMs(fn: () => void, samples = 15): number {
  fn();
  const t: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return t[t.length >> 1]!;
}

/** Keeps a value alive so the optimiser cannot drop the work that made it. */
export let sink = 0;
export function consume(v: number): void {
  sink = (sink + (v | 0)) | 0;
}

/** A small deterministic LCG giving numbers in [0, 1), for benchmark inputs only. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/**
 * Operations per second of this process's CPU time (user + system): the median of `samples` calls of
 * `fn(n)`. The machine is shared, so wall-clock rates swing with the load; CPU time shows what one free core
 * would do. With `n` given, one warm-up call comes first; without, n doubles from 1 until a call takes 50 ms
 * of CPU time (those calls warm up).
 */
export function cpuOpsPerSecond(fn: (iterations: number) => void, n?: number, samples = 5): number {
  if (n === undefined) {
    n = 1;
    for (;;) {
      const c0 = process.cpuUsage();
      fn(n);
      const c = process.cpuUsage(c0);
      if (c.user + c.system >= 50_000 || n >= 1 << 30) break;
      n *= 2;
    }
  } else {
    fn(n);
  }
  const rates: number[] = [];
  for (let i = 0; i < samples; i++) {
    const c0 = process.cpuUsage();
    fn(n);
    const c = process.cpuUsage(c0);
    rates.push(n / ((c.user + c.system) / 1e6));
  }
  rates.sort((a, b) => a - b);
  return rates[rates.length >> 1]!;
}

/** The 1-, 5- and 15-minute load averages ("1.2 / 0.8 / 0.5"), for the notes: the machine is shared. */
export function loadNote(): string {
  return loadavg().map((v) => v.toFixed(1)).join(' / ');
}
