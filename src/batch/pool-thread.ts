/**
 * A batch worker thread (see pool.ts): keeps the inputs it is sent and the scenario modules it is allowed,
 * runs one job at a time with the runner, and answers with the result body as JSON text (checked against
 * limits.batch.resultBytes), the kept replay's bytes, and the timing. The job's memory limit is checked by
 * the runner between frames (through the env) and here once more when the job ends; a job over it is
 * answered with `memory` set, and the pool replaces this thread.
 *
 * Nothing of one job reaches the next: each job's scenario module is a fresh instance (worker-env.ts); what
 * a job added to or changed on the global object is put back after it (thread-leftovers.ts); a job that
 * leaves a timer or an immediate pending fails, and the thread asks to be replaced. A thread that has made
 * MAX_MODULE_INSTANCES module instances asks to be replaced too, so that the modules it can no longer free
 * (an engine keeps every module it loaded) do not grow without bound.
 */
import { parentPort } from 'node:worker_threads';
import { DEFAULT_LIMITS } from '../index.js';
import { checkThreadMemory, MemoryLimitError } from './memory-limit.js';
import type { JobPayload } from './payload.js';
import { runJob } from './runner.js';
import { DEFAULT_MAX_MEMORY_MIB } from './schema.js';
import { WorkerEnv } from './worker-env.js';
import type { ThreadAnswer, ThreadRequest } from './pool.js';
import { globalsNow, pendingTimers, restoreGlobals } from './thread-leftovers.js';

/** Scenario module instances a thread makes before it asks to be replaced. */
export const MAX_MODULE_INSTANCES = 64;

const port = parentPort!;
const env = new WorkerEnv();

port.on('message', (m: ThreadRequest) => {
  void handle(m);
});

async function handle(m: ThreadRequest): Promise<void> {
  for (const [sha, bytes] of m.blobs) env.blobs.set(sha, bytes);
  for (const [graph, path] of m.scenarios ?? []) env.allow(graph, path);
  let answer: ThreadAnswer;
  const globals = globalsNow();
  const timers = pendingTimers();
  const memoryMiB = m.payload.maxMemoryMiB ?? DEFAULT_MAX_MEMORY_MIB;
  env.memoryLimitMiB = memoryMiB;
  try {
    const out = await runJob(m.payload as JobPayload, env);
    const body = JSON.stringify(out.body);
    checkThreadMemory(memoryMiB);
    const limits = DEFAULT_LIMITS.batch;
    const size = Buffer.byteLength(body);
    if (size > limits.resultBytes) throw new Error(`the result is ${size} bytes, over the limit of ${limits.resultBytes} bytes (limits.batch.resultBytes)`);
    if (out.replay && out.replay.length > limits.replayBytes) throw new Error(`the replay is ${out.replay.length} bytes, over the limit of ${limits.replayBytes} bytes (limits.batch.replayBytes)`);
    answer = { id: m.id, ok: true, body, replay: out.replay, seconds: out.seconds, framesPerSecond: out.framesPerSecond };
  } catch (e) {
    answer = e instanceof MemoryLimitError ? { id: m.id, ok: false, error: errorText(e), memory: true } : { id: m.id, ok: false, error: errorText(e) };
  } finally {
    for (const sha of m.forget) env.blobs.delete(sha);
    env.dropCopies();
  }
  restoreGlobals(globals);
  const left = pendingTimers() - timers;
  if (left > 0) {
    answer = { id: m.id, ok: false, error: `the job left ${left} timer${left === 1 ? '' : 's'} pending (setTimeout, setInterval or setImmediate at a module's top level?): a scenario keeps its state in the simulation, so that no job reaches the next; this thread is replaced`, retire: 'a timer left pending' };
  } else if (env.instances >= MAX_MODULE_INSTANCES) answer.retire = `${env.instances} scenario module instances`;
  port.postMessage(answer, answer.ok && answer.replay ? [answer.replay.buffer as ArrayBuffer] : []);
}

/** One line saying what failed: the error's message (a FormatError names the file and offset). */
function errorText(e: unknown): string {
  if (e instanceof Error) return (e.message || e.name).split('\n')[0]!.slice(0, 2000);
  return String(e).slice(0, 2000);
}
