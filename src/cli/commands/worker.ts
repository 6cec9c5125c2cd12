/**
 * `retrosim worker --redis URL`: a batch worker process, taking jobs from a BullMQ queue (see
 * src/batch/redis-worker.ts). Start as many as you like, on any machines with the project installed.
 */
import { availableParallelism } from 'node:os';
import { parseArgs, UsageError } from '../args.js';
import { batchKeyOption, keyUsage } from '../batch-key.js';
import { checkKeyless, checkRedisUrl } from '../redis-url.js';
import { requireQueueClient } from '../queue-client.js';
import type { Command } from '../command.js';

const usage = `usage: retrosim worker --redis URL [options]

Takes jobs of \`retrosim batch FILE --redis URL\` from the queue and runs them, CONCURRENCY at a time, on
worker threads, with one more job taken so that a thread starts its next job at once. Inputs (worlds,
replays) come from Redis: no shared disk is needed. Scenario modules never come from the queue: a worker
runs the built-in scenarios, and a batch's scenario module only when started with --allow-scenario naming
a copy of it (matched by the hash of its module graph: the file, the local modules it imports and the
versions of the packages they import); other jobs naming a module fail. Runs until stopped, through any
Redis outage: the first SIGTERM (or Ctrl-C) finishes the jobs it holds within --grace seconds, gives what
is not done by then back to the queue, and exits 0; a second one releases them at once. While stopping, a Redis that has not answered for --redis-timeout seconds
is not waited for: the worker exits (1 when it held jobs: they go back to the queue when their locks
expire).
\`batch cancel\` stops the jobs it runs (they fail as cancelled); a job running past its batch's
maxSeconds, or using more memory than its maxMemoryMiB, is stopped and fails (its thread replaced).

options:
  --redis URL          the Redis holding the queue (redis://host:port)
  --queue NAME         the queue (default retrosim)
  --concurrency N      jobs at a time (default 1; the number of cores is a good choice for a machine of its own)
  --name NAME          how this worker is listed by batch status (default host:pid)
  --lock-ms N          a job's lock lifetime; a worker that dies loses its jobs to others after about this long
                       plus --stalled-ms (default 30000)
  --stalled-ms N       how often this worker looks for jobs whose worker died (default 30000)
  --max-stalled N      times a job may be handed on after its worker died before it fails (default 3)
  --allow-scenario FILE
                       run the jobs of scenario module FILE (repeatable), loaded from where it is; its
                       module graph is hashed at start (after editing it, start the worker again)
  --grace S            after the first SIGTERM, how long the jobs held may take to finish before they go
                       back to the queue for another worker (default 5)
  --redis-timeout S    when stopping, give up on a Redis that has not answered for this long (default 5)
  --json               events as JSON lines on stdout instead of text on stderr
${keyUsage(23)}
  --insecure           take jobs from a Redis that is not on a loopback address without a key (refused
                       otherwise); a worker without a key says so first

A worker runs only jobs planned by the same runtime (the SHA-256 of its built files and of the packages
they load, shown when it starts): a job of other code is put back on the queue for another worker, and its
batch is told. With a key, it runs only jobs signed for its queue, by a batch run that is still going on,
before their signature expires (docs/batch.md, Security model).
`;

export const command: Command = {
  summary: 'take jobs of a batch from a BullMQ queue on Redis and run them (on any machine)',
  usage,
  async run(argv) {
    const { positionals, options: o } = parseArgs(argv, {
      redis: { type: 'string' },
      queue: { type: 'string' },
      concurrency: { type: 'int', min: 1, max: 256 },
      name: { type: 'string' },
      'lock-ms': { type: 'int', min: 500, max: 3_600_000 },
      'stalled-ms': { type: 'int', min: 100, max: 3_600_000 },
      'max-stalled': { type: 'int', min: 1, max: 100 },
      'redis-timeout': { type: 'int', min: 1, max: 86_400 },
      grace: { type: 'int', min: 0, max: 86_400 },
      json: { type: 'flag' },
      'allow-scenario': { type: 'list' },
      'key-file': { type: 'string' },
      insecure: { type: 'flag' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const url = o['redis'] as string | undefined;
    if (url === undefined) throw new UsageError('worker needs --redis URL');
    checkRedisUrl(url);
    const queue = (o['queue'] as string | undefined) ?? 'retrosim';
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(queue)) throw new UsageError(`--queue ${JSON.stringify(queue)}: 1 to 64 letters, digits, '.', '_' or '-'`);
    const name = o['name'] as string | undefined;
    if (name !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/.test(name)) throw new UsageError(`--name ${JSON.stringify(name)}: 1 to 128 letters, digits, '.', '_', ':', '@' or '-'`);
    const key = await batchKeyOption(o['key-file'] as string | undefined);
    checkKeyless(url, key !== null, o['insecure'] === true);
    await requireQueueClient('worker');
    const { runWorker, defaultWorkerName } = await import('../../batch/redis-worker.js');
    const { allowScenarios } = await import('../../batch/scenario-allow.js');
    let scenarios;
    try {
      scenarios = allowScenarios((o['allow-scenario'] as string[] | undefined) ?? []);
    } catch (e) {
      throw new UsageError(`--allow-scenario: ${(e as Error).message}`);
    }
    const concurrency = (o['concurrency'] as number | undefined) ?? 1;
    if (concurrency > availableParallelism() * 4) process.stderr.write(`worker: --concurrency ${concurrency} is far above this machine's ${availableParallelism()} cores\n`);
    return runWorker({
      url,
      queue,
      concurrency,
      lockMs: (o['lock-ms'] as number | undefined) ?? 30_000,
      stalledMs: (o['stalled-ms'] as number | undefined) ?? 30_000,
      maxStalled: (o['max-stalled'] as number | undefined) ?? 3,
      name: name ?? defaultWorkerName(),
      json: o['json'] === true,
      scenarios,
      redisTimeoutSeconds: (o['redis-timeout'] as number | undefined) ?? 5,
      graceSeconds: (o['grace'] as number | undefined) ?? 5,
      key,
    });
  },
};
