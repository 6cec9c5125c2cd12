/**
 * Runs every benchmark under bench/ (compiled to dist/bench) and prints a table; `--json` prints JSON; a
 * filter word keeps only benches whose name or file contains it. Results also go to out/bench.json, from
 * which docs/benchmarks.md is written. `npm run bench` and `retrosim bench` both come here.
 */
import { readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import type { Bench, BenchResult } from './harness.js';
import { setBenchWasm } from './bench-worlds.js';
import type { WasmMode } from '../src/worlds/wasm-mode.js';

const here = dirname(fileURLToPath(import.meta.url));

export interface BenchRun {
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; date: string; loadAverage: number[]; wasm: WasmMode };
  results: { bench: string; file: string; results: BenchResult[] }[];
}

/** Lists the bench names (file: bench) without running them. */
export async function listBenches(): Promise<string[]> {
  const names: string[] = [];
  for (const f of benchFiles()) {
    const mod = (await import(pathToFileURL(join(here, f)).href)) as { benches: Bench[] };
    for (const b of mod.benches) names.push(`${f.replace(/\.bench\.js$/, '')}: ${b.name}`);
  }
  return names;
}

function benchFiles(): string[] {
  return readdirSync(here).filter((f) => f.endsWith('.bench.js')).sort();
}

/** Sets the WebAssembly mode of the worlds the benches open (as runBenches does), for the goals run. */
export function setBenchWasmMode(wasm: WasmMode): void {
  setBenchWasm(wasm);
}

export async function runBenches(filter: string | undefined, json: boolean, wasm: WasmMode = 'auto'): Promise<BenchRun> {
  setBenchWasm(wasm);
  // The load average when the run starts: the machine may be shared, and the figures say so.
  const load = loadavg().map((v) => Math.round(v * 100) / 100);
  const all: BenchRun['results'] = [];
  for (const f of benchFiles()) {
    const mod = (await import(pathToFileURL(join(here, f)).href)) as { benches: Bench[] };
    for (const b of mod.benches) {
      if (filter && !b.name.includes(filter) && !f.includes(filter)) continue;
      process.stderr.write(`bench: ${b.name} ...\n`);
      const results = await b.run();
      all.push({ bench: b.name, file: f, results });
      if (!json) for (const r of results) process.stdout.write(formatResult(r) + '\n');
    }
  }
  const machine = {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString().slice(0, 10),
    loadAverage: load,
    wasm,
  };
  const run = { machine, results: all };
  mkdirSync('out', { recursive: true });
  writeFileSync('out/bench.json', JSON.stringify(run, null, 2));
  if (json) process.stdout.write(JSON.stringify(run) + '\n');
  return run;
}

export function formatResult(r: BenchResult): string {
  const goal = r.goal === undefined ? '' : ` (goal ${r.better === 'lower' ? '≤' : '≥'} ${fmt(r.goal)}: ${meetsGoal(r) ? 'met' : 'NOT met'})`;
  return `${r.name.padEnd(48)} ${fmt(r.value).padStart(14)} ${r.unit}${goal}${r.note ? `  [${r.note}]` : ''}`;
}

export function meetsGoal(r: BenchResult): boolean {
  if (r.goal === undefined) return true;
  return r.better === 'lower' ? r.value <= r.goal : r.value >= r.goal;
}

function fmt(v: number): string {
  return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(4);
}

// Run directly (npm run bench -- [filter] [--json] [--wasm=off|on|auto] [--goals [--runs=N]]).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const wasm = args.find((a) => a.startsWith('--wasm='))?.slice('--wasm='.length) ?? 'auto';
  if (wasm !== 'off' && wasm !== 'on' && wasm !== 'auto') throw new Error(`--wasm= must be off, on or auto (got ${JSON.stringify(wasm)})`);
  const filter = args.filter((a) => !a.startsWith('--'))[0];
  if (args.includes('--goals')) {
    setBenchWasmMode(wasm);
    const goals = await import('./goals.js');
    const runs = Number(args.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? goals.DEFAULT_GOAL_RUNS);
    await goals.runGoals(filter, runs, args.includes('--json'));
  } else await runBenches(filter, args.includes('--json'), wasm);
}
