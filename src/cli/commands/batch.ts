/**
 * `retrosim batch FILE`: runs a batch file's jobs, on local worker threads (the default) or on a BullMQ
 * queue over Redis (`--redis URL`, with `retrosim worker` processes anywhere); `batch report` tables and
 * charts a results file; `batch status` and `batch cancel` look at and empty a queue. The Redis modules
 * (and bullmq, ioredis) are loaded only on the Redis paths.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs, UsageError, type ParsedArgs } from '../args.js';
import { batchKeyOption, keyUsage } from '../batch-key.js';
import { checkKeyless, checkRedisUrl } from '../redis-url.js';
import type { Command } from '../command.js';
import { print, printJson } from '../io.js';
import type { BatchSummary } from '../../batch/coordinator.js';
import type { Executor } from '../../batch/executor.js';
import { requireQueueClient } from '../queue-client.js';
import type { RedisOptions } from '../../batch/redis-queue.js';
import type { CancelResult, QueueStatus } from '../../batch/queue-admin.js';

const usage = `usage: retrosim batch FILE [options]
       retrosim batch report RESULTS.jsonl [--x FIELD] [--y MEASURE] [--series FIELD] [--png FILE] [--json]
       retrosim batch status --redis URL [--queue NAME] [--json]
       retrosim batch cancel --redis URL [--queue NAME] [--json]

Runs the jobs of a batch file (JSON; see docs/batch.md): sweeps of worlds, scenarios, agent counts, seeds
and settings, and replay checks. Results: one JSON line per job in job order (--out, default
out/batch/<name>.jsonl), a CSV and a timing file beside it, a summary table. Jobs whose results are already
in the results file (same inputs, same runtime) are not run again.

options:
  --workers N        local worker threads (default: the number of cores)
  --redis URL        run on a BullMQ queue on this Redis (redis://host:port) instead; start workers with
                     retrosim worker --redis URL, on this machine or others (a scenario module's jobs run
                     only on workers started with --allow-scenario naming their own copy of it)
  --queue NAME       the queue's name (default retrosim)
  --redis-timeout S  give up when Redis has not answered for this long, gone or frozen (default 120
                     seconds; 15 for status and cancel)
  --out FILE         the results file (default out/batch/<name>.jsonl)
  --allow-dir DIR    a folder the batch file's paths may reach besides its own (repeatable); paths that
                     lead elsewhere (.., an absolute path, a symlink pointing out) are refused
  --force            run every job, even those with earlier results
  --json             print the summary as one JSON line
  with --redis:
${keyUsage(21)}
  --insecure         run on a Redis that is not on a loopback address without a key (refused
                     otherwise); a batch without a key says so on its first line and in its summary

report: prints the summary table of a results file and draws a PNG chart of one measure (--y, e.g.
los.pairsPerFrame) against one job field (--x, e.g. agents), one line per value of --series (e.g. world);
by default the first numeric field that varies and the first line-of-sight measure. --png FILE (default:
the results file with .png).

status: jobs queued, active, done and failed on the queue, and the workers connected to it.
cancel: removes the queue's waiting jobs and tells the batches waiting on them to stop; the workers stop
the jobs already running (within a second or so; they fail as cancelled and are not run again).

A signal (SIGTERM, Ctrl-C) stops a batch within seconds, whether Redis answers or not: finished results
stay in the journal beside the results file (the next run takes them up), no results file is written,
exit status 130; a second signal exits at once.

Exit status: 0 when every job is done (and every replay verified), 1 when a job failed or a replay
diverged, 2 for wrong arguments.
`;

const DEFAULT_QUEUE = 'retrosim';

export const command: Command = {
  summary: 'run a batch file of sweeps and replay checks (local threads, or a BullMQ queue on Redis)',
  usage,
  async run(argv) {
    const { positionals, options: o } = parseArgs(argv, {
      workers: { type: 'int', min: 1, max: 256 },
      redis: { type: 'string' },
      queue: { type: 'string' },
      'redis-timeout': { type: 'int', min: 1, max: 86_400 },
      out: { type: 'string' },
      force: { type: 'flag' },
      json: { type: 'flag' },
      x: { type: 'string' },
      y: { type: 'string' },
      series: { type: 'string' },
      png: { type: 'string' },
      'allow-dir': { type: 'list' },
      'key-file': { type: 'string' },
      insecure: { type: 'flag' },
    });
    const [first, ...rest] = positionals;
    if (first === undefined) throw new UsageError('batch needs a FILE (or report, status, cancel)');
    if (first === 'report') return report(rest, o);
    if (first === 'status' || first === 'cancel') {
      if (rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
      return queueCommand(first, o);
    }
    if (rest.length) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    for (const k of ['x', 'y', 'series', 'png']) if (o[k] !== undefined) throw new UsageError(`--${k} is an option of batch report`);
    return runFile(first, o);
  },
};

function queueName(o: ParsedArgs['options']): string {
  const q = (o['queue'] as string | undefined) ?? DEFAULT_QUEUE;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(q)) throw new UsageError(`--queue ${JSON.stringify(q)}: 1 to 64 letters, digits, '.', '_' or '-'`);
  return q;
}

function redisUrl(o: ParsedArgs['options']): string {
  return checkRedisUrl(o['redis'] as string);
}

/** After a batch on Redis failed, how long a connection left open may keep the process from exiting, ms (its error is out by then). */
const GAVE_UP_EXIT_MS = 300;

async function runFile(file: string, o: ParsedArgs['options']): Promise<number> {
  if (o['workers'] !== undefined && o['redis'] !== undefined) throw new UsageError('--workers is for the local threads; with --redis, the workers are retrosim worker processes');
  if (o['key-file'] !== undefined && o['redis'] === undefined) throw new UsageError('--key-file is for a batch on a queue (--redis): local threads need no key');
  if (o['insecure'] !== undefined && o['redis'] === undefined) throw new UsageError('--insecure is for a batch on a queue (--redis)');
  const key = o['redis'] !== undefined ? await batchKeyOption(o['key-file'] as string | undefined) : null;
  if (o['redis'] !== undefined) checkKeyless(redisUrl(o), key !== null, o['insecure'] === true);
  // Local threads need no key: a key in the environment goes before any scenario module is loaded.
  else delete process.env['RETROSIM_BATCH_KEY'];
  const { planBatch } = await import('../../batch/plan.js');
  const { runBatch } = await import('../../batch/coordinator.js');
  const allowDirs = (o['allow-dir'] as string[] | undefined) ?? [];
  for (const d of allowDirs) if (!isDirectory(d)) throw new UsageError(`--allow-dir ${JSON.stringify(d)}: not a folder`);
  const plan = await planBatch(file, undefined, { allowDirs });
  const out = (o['out'] as string | undefined) ?? join('out', 'batch', `${plan.name}.jsonl`);
  if (!out.endsWith('.jsonl')) throw new UsageError(`--out ${JSON.stringify(out)}: the results file ends in .jsonl`);
  let exec: Executor;
  const onRedis = o['redis'] !== undefined;
  if (onRedis) {
    await requireQueueClient('batch --redis');
    if (key === null) {
      const { safeUrl } = await import('../../batch/redis-connection.js');
      process.stderr.write(`batch ${plan.name}: no key: its jobs and results on queue ${queueName(o)} at ${safeUrl(redisUrl(o))} are not signed; anyone who can reach that Redis can add jobs the workers run and answer jobs with false results (give --key-file FILE to sign them)\n`);
    }
    const { RedisExecutor } = await import('../../batch/redis-queue.js');
    exec = new RedisExecutor({ url: redisUrl(o), queue: queueName(o), timeoutSeconds: (o['redis-timeout'] as number | undefined) ?? 120, key });
  } else {
    const { LocalExecutor } = await import('../../batch/local-executor.js');
    exec = new LocalExecutor((o['workers'] as number | undefined) ?? Math.max(1, availableParallelism()));
  }
  const ac = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (ac.signal.aborted) process.exit(sig === 'SIGINT' ? 130 : 143);
    process.stderr.write(`\nbatch: ${sig}: stopping (finished results are kept; run the batch again to go on)\n`);
    ac.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let s: BatchSummary | undefined;
  try {
    s = await runBatch(plan, exec, { out, force: o['force'] === true, progress: { write: (t) => process.stderr.write(t), tty: process.stderr.isTTY === true }, signal: ac.signal });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await exec.close();
    // A batch that gave up on Redis reports it and exits, whatever connection is left open.
    if (onRedis && s === undefined) (await import('../../batch/redis-liveness.js')).exitWhenHeld(GAVE_UP_EXIT_MS);
  }
  if (o['json']) printJson(s);
  else {
    const where = s.mode === 'local' ? `${s.workers} local thread${s.workers === 1 ? '' : 's'}` : `Redis (${s.workers} worker${s.workers === 1 ? '' : 's'} seen)`;
    print(`batch ${s.name}: ${s.jobs} jobs (${s.ran} run, ${s.cached} from earlier results) on ${where} in ${s.seconds} s (${s.jobsPerSecond} jobs/s): ${s.done} done, ${s.failed} failed, ${s.retried} retried${s.refused ? `, ${s.refused} results refused` : ''}${s.refusedByWorkers ? `, ${s.refusedByWorkers} refusals by workers` : ''}${s.diverged ? `, ${s.diverged} replays diverged` : ''}${s.key === false ? '; no key: jobs and results were not signed' : ''}`);
    if (s.interrupted) print(`interrupted: the results so far are kept; run the batch again to go on`);
    else {
      print(`results  ${s.out.results}  (CSV ${s.out.csv}, timing ${s.out.timing})`);
      const { readBoundedText } = await import('../../node/bounded-read.js');
      const { summarize, formatTable } = await import('../../batch/table.js');
      const lines = readBoundedText(s.out.results, Number.MAX_SAFE_INTEGER).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      const t = formatTable(summarize(lines));
      if (t) print(`\n${t}`);
    }
  }
  if (onRedis) (await import('../../batch/redis-liveness.js')).exitWhenHeld();
  if (s.interrupted) return ac.signal.aborted ? 130 : 1;
  return s.failed || s.diverged ? 1 : 0;
}

function isDirectory(d: string): boolean {
  try {
    return statSync(d).isDirectory();
  } catch {
    return false;
  }
}

async function report(args: string[], o: ParsedArgs['options']): Promise<number> {
  if (args.length !== 1) throw new UsageError('batch report needs one RESULTS.jsonl file');
  for (const k of ['redis', 'queue', 'workers', 'force', 'out', 'redis-timeout', 'allow-dir', 'key-file', 'insecure']) if (o[k] !== undefined) throw new UsageError(`--${k} is not an option of batch report`);
  const { reportResults } = await import('../../batch/report.js');
  const r = reportResults(args[0]!, {
    x: o['x'] as string | undefined,
    y: o['y'] as string | undefined,
    series: o['series'] as string | undefined,
    png: o['png'] as string | undefined,
  });
  if (o['json']) printJson({ file: args[0], jobs: r.jobs, table: r.table, chart: r.chart });
  else {
    print(r.text);
    if (r.chart) print(`\nchart    ${r.chart.png}: ${r.chart.y} against ${r.chart.x}${r.chart.series ? `, one line per ${r.chart.series}` : ''} (${r.chart.points} points)`);
    else if (r.noChart) print(`\nno chart: ${r.noChart}`);
  }
  return 0;
}

async function queueCommand(which: 'status' | 'cancel', o: ParsedArgs['options']): Promise<number> {
  if (o['redis'] === undefined) throw new UsageError(`batch ${which} needs --redis URL`);
  await requireQueueClient(`batch ${which}`);
  const { queueStatus, cancelQueue } = await import('../../batch/queue-admin.js');
  const { exitWhenHeld } = await import('../../batch/redis-liveness.js');
  const opts = { url: redisUrl(o), queue: queueName(o), timeoutSeconds: (o['redis-timeout'] as number | undefined) ?? 15 };
  try {
    return await queueCommandOn(which, opts, o, queueStatus, cancelQueue);
  } finally {
    // Answered or not, nothing left open keeps the command from ending.
    exitWhenHeld();
  }
}

async function queueCommandOn(
  which: 'status' | 'cancel',
  opts: RedisOptions,
  o: ParsedArgs['options'],
  queueStatus: (o: RedisOptions) => Promise<QueueStatus>,
  cancelQueue: (o: RedisOptions) => Promise<CancelResult>,
): Promise<number> {
  if (which === 'status') {
    const s = await queueStatus(opts);
    if (o['json']) printJson(s);
    else {
      print(`queue ${s.queue} on ${s.redis}: ${s.queued} queued, ${s.active} active, ${s.done} done, ${s.failed} failed`);
      print(`workers  ${s.workers.length ? s.workers.map((w) => w.name).join(', ') : 'none connected'}`);
    }
    return 0;
  }
  const c = await cancelQueue(opts);
  if (o['json']) printJson(c);
  else print(`queue ${c.queue}: ${c.removed} waiting job${c.removed === 1 ? '' : 's'} removed; ${c.active} running stop (workers notice within a second or so); batches waiting on the queue stop`);
  return 0;
}
