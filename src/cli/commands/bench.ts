import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, parseWasmMode, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { print } from '../io.js';

const usage = `usage: retrosim bench [FILTER] [--list] [--wasm off|on|auto] [--json]

Runs the benchmarks (bench/*.bench.ts, compiled with the package) whose name or file contains FILTER, or all of
them, and prints each figure with its goal. --list names them without running. Results also go to
out/bench.json. --wasm: whether the worlds the benches open run their WebAssembly kernels (the Piney field's
segment cast, the Rugrats walk): off, on, or auto (the default: where they were measured faster); the "los wasm" bench compares
both in one process whatever it says. The figures in docs/benchmarks.md come from this command on a quiet machine.`;

export const command: Command = {
  summary: 'run the benchmarks (all, or those matching a filter) and print figures with their goals',
  usage,
  async run(argv) {
    const { positionals, options } = parseArgs(argv, { list: { type: 'flag' }, json: { type: 'flag' }, wasm: { type: 'string' } });
    const wasm = parseWasmMode(options['wasm'] as string | undefined);
    if (positionals.length > 1) throw new UsageError(`bench takes at most one filter, got ${positionals.length}`);
    // bench/ is compiled beside src/ (dist/bench) in a clone; the installed package does not carry it.
    const url = new URL('../../../bench/run.js', import.meta.url);
    if (!existsSync(fileURLToPath(url))) {
      throw new UsageError('the benchmarks are not part of the installed package: run them from a clone of the repository (npm ci, then npm run bench)');
    }
    const runner = (await import(url.href)) as typeof import('../../../bench/run.js');
    if (options.list) {
      const names = await runner.listBenches();
      if (options.json) print(JSON.stringify({ benches: names }));
      else for (const n of names) print(n);
      return 0;
    }
    const run = await runner.runBenches(positionals[0], Boolean(options.json), wasm);
    if (run.results.length === 0) throw new UsageError(`no benchmark matches ${JSON.stringify(positionals[0])}`);
    return 0;
  },
};
