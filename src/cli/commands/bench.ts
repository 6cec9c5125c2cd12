import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, parseWasmMode, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { print } from '../io.js';

const usage = `usage: retrosim bench [FILTER] [--list] [--wasm off|on|auto] [--json]
       retrosim bench --goals [GOAL] [--runs N] [--wasm off|on|auto] [--json]

Runs the benchmarks (bench/*.bench.ts, compiled with the package) whose name or file contains FILTER, or all of
them, and prints each figure with its goal. --list names them without running. Results also go to
out/bench.json. --wasm: whether the worlds the benches open run their WebAssembly kernels (the Piney field's
segment cast, the GTA scene's and the Rugrats walks, the pair walk): off, on, or auto (the default: where they were measured faster); the "los wasm" bench compares
both in one process whatever it says. The figures in docs/benchmarks.md come from this command on a quiet machine.

--goals runs the line-of-sight goals (the 10,000-agent matrix on the Piney field and the GTA town, ours against
the faster peer on the Rugrats level and the GTA town) N times (--runs, default 3, at most 20), or
only those whose id contains GOAL (matrix-piney, matrix-gta, peers-rugrats, peers-gta), and prints each
goal's figure in every run with met / not met; for a goal not met in every run, the CPU profile of its work
(the functions the time goes to). Results also go to out/goals.json.`;

export const command: Command = {
  summary: 'run the benchmarks (all, or those matching a filter) and print figures with their goals',
  usage,
  async run(argv) {
    const { positionals, options } = parseArgs(argv, { list: { type: 'flag' }, json: { type: 'flag' }, wasm: { type: 'string' }, goals: { type: 'flag' }, runs: { type: 'int' } });
    const wasm = parseWasmMode(options['wasm'] as string | undefined);
    if (positionals.length > 1) throw new UsageError(`bench takes at most one filter, got ${positionals.length}`);
    // bench/ is compiled beside src/ (dist/bench) in a clone; the installed package does not carry it.
    const url = new URL('../../../bench/run.js', import.meta.url);
    if (!existsSync(fileURLToPath(url))) {
      throw new UsageError('the benchmarks are not part of the installed package: run them from a clone of the repository (npm ci, then npm run bench)');
    }
    const runner = (await import(url.href)) as typeof import('../../../bench/run.js');
    if (options.goals) {
      if (options.list) throw new UsageError('--goals and --list do not go together');
      const goals = (await import(new URL('../../../bench/goals.js', import.meta.url).href)) as typeof import('../../../bench/goals.js');
      runner.setBenchWasmMode(wasm);
      const runs = (options.runs as number | undefined) ?? goals.DEFAULT_GOAL_RUNS;
      try {
        goals.chooseGoals(positionals[0]);
        goals.checkGoalRuns(runs, '--runs');
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      await goals.runGoals(positionals[0], runs, Boolean(options.json));
      return 0;
    }
    if (options.runs !== undefined) throw new UsageError('--runs goes with --goals');
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
