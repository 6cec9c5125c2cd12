/**
 * Runs every benchmark under bench/ (compiled to dist/bench) and prints a table; `--json` prints JSON;
 * a filter word after the options keeps only benches whose name contains it. Results also go to
 * out/bench.json for docs/benchmarks.md.
 */
import { readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import type { Bench, BenchResult } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const json = args.includes('--json');
const filter = args.filter((a) => !a.startsWith('--'))[0];

const files = readdirSync(here).filter((f) => f.endsWith('.bench.js')).sort();
const all: { bench: string; results: BenchResult[] }[] = [];
for (const f of files) {
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { benches: Bench[] };
  for (const b of mod.benches) {
    if (filter && !b.name.includes(filter) && !f.includes(filter)) continue;
    process.stderr.write(`bench: ${b.name} ...\n`);
    const results = await b.run();
    all.push({ bench: b.name, results });
    if (!json) {
      for (const r of results) {
        const goal = r.goal === undefined ? '' : ` (goal ${r.better === 'lower' ? '≤' : '≥'} ${fmt(r.goal)}: ${pass(r) ? 'met' : 'NOT met'})`;
        process.stdout.write(`${r.name.padEnd(48)} ${fmt(r.value).padStart(14)} ${r.unit}${goal}${r.note ? `  [${r.note}]` : ''}\n`);
      }
    }
  }
}
const machine = { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, node: process.version };
mkdirSync('out', { recursive: true });
writeFileSync('out/bench.json', JSON.stringify({ machine, results: all }, null, 2));
if (json) process.stdout.write(JSON.stringify({ machine, results: all }) + '\n');

function pass(r: BenchResult): boolean {
  if (r.goal === undefined) return true;
  return r.better === 'lower' ? r.value <= r.goal : r.value >= r.goal;
}
function fmt(v: number): string {
  return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(4);
}
