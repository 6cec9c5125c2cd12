/**
 * `npm run fuzz -- [--cases N] [--first K] [--format NAME] [--seed S] [--timeout MS] [--case K] [--out FILE]`
 *
 * Fuzzes every parser (or one) with N cases each (default 10,000; cases K to K+N-1 with --first K, a slice
 * of a longer run), each target in a worker thread with a
 * per-case time limit; prints a table, writes out/fuzz-report.json (or --out FILE), and exits 1 when any
 * case failed.
 * `--case K` with `--format` and `--seed` re-runs one case in this process to debug it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { TARGETS, loadTarget } from './fuzz/targets.js';
import { runFuzzInWorker } from './fuzz/run-in-worker.js';
import { caseBytes, runCase, type FuzzReport } from './fuzz/engine.js';
import { parseArgs, UsageError } from '../src/cli/args.js';

async function main(): Promise<number> {
  const { options } = parseArgs(process.argv.slice(2), {
    cases: { type: 'int', min: 1, max: 1e9 },
    first: { type: 'int', min: 0, max: 1e9 },
    format: { type: 'string' },
    seed: { type: 'int', min: 0, max: 0xffffffff },
    timeout: { type: 'int', min: 10, max: 600000 },
    case: { type: 'int', min: 0, max: 1e9 },
    out: { type: 'string' },
  });
  const cases = (options.cases as number | undefined) ?? 10_000;
  const seed = (options.seed as number | undefined) ?? 1;
  const names = options.format ? [options.format as string] : Object.keys(TARGETS);
  for (const n of names) if (!TARGETS[n]) throw new UsageError(`unknown format ${n}; known: ${Object.keys(TARGETS).join(', ')}`);

  if (options.case !== undefined) {
    const t = await loadTarget(names[0]!);
    const bytes = caseBytes(t, seed, options.case as number);
    const r = runCase(t, bytes);
    process.stdout.write(JSON.stringify({ format: t.name, seed, case: options.case, length: bytes.length, ...r }) + '\n');
    return r.failure ? 1 : 0;
  }

  const reports: FuzzReport[] = [];
  for (const name of names) {
    const t0 = Date.now();
    const report = await runFuzzInWorker({
      target: name,
      cases,
      seed,
      first: (options.first as number | undefined) ?? 0,
      caseTimeoutMs: (options.timeout as number | undefined) ?? 2000,
      onProgress: (done) => {
        if (process.stderr.isTTY) process.stderr.write(`\r${name}: ${done}/${cases}`);
      },
    });
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    reports.push(report);
    const secs = (Date.now() - t0) / 1000;
    process.stdout.write(
      `${name.padEnd(16)} ${String(report.cases).padStart(9)} cases${report.first ? ` from #${report.first}` : ''}  ${String(report.parsed).padStart(8)} parsed  ${String(report.formatErrors).padStart(8)} FormatError  ${String(report.failures.length).padStart(4)} failures  ${secs.toFixed(1)} s  max alloc ${report.maxAllocated.bytes} B (input ${report.maxAllocated.inputLength} B)  slowest case ${report.slowest.ms} ms (#${report.slowest.caseIndex})\n`,
    );
    for (const f of report.failures.slice(0, 5)) process.stdout.write(`  case ${f.caseIndex} (seed ${f.seed}, ${f.mutation}): ${f.error}\n`);
  }
  const out = (options.out as string | undefined) ?? 'out/fuzz-report.json';
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(reports, null, 2));
  return reports.some((r) => r.failures.length > 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`fuzz: ${e instanceof Error ? e.message : e}\n`);
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);
