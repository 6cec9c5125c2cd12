/**
 * Running a planned batch: earlier results reused by key, the rest handed to an executor (local threads
 * or a queue), each outcome journalled as it arrives, and at the end the results written in job order
 * with the timing, the CSV and the kept replays.
 *
 * Jobs with the same key (the same inputs listed twice) run once; each gets its line.
 */
import { join } from 'node:path';
import { RUNTIME_VERSION } from '../index.js';
import type { Executor, Outcome } from './executor.js';
import type { BatchPlan, PlannedJob } from './plan.js';
import { Progress } from './progress.js';
import { csvOf, Journal, readCache, resultLine, resultPaths, writeAtomic, writeKeptReplay, type ResultPaths, type TimingRow } from './results.js';
import { checkResultBody, ResultError } from './result-check.js';
import type { JobPayload } from './payload.js';

export interface BatchRunOptions {
  /** The results file (`.jsonl`); the others go beside it. */
  out: string;
  /** Run every job, even those with results from an earlier run. */
  force: boolean;
  /** Where progress goes (stderr), or null for none. */
  progress: { write(s: string): void; tty: boolean } | null;
  signal: AbortSignal;
}

/** What a batch did (the `--json` summary). */
export interface BatchSummary {
  name: string;
  runtime: string;
  mode: string;
  workers: number;
  /** Jobs in the batch, and how many distinct keys they have. */
  jobs: number;
  distinct: number;
  /** Taken from earlier results. */
  cached: number;
  /** Run now (distinct keys). */
  ran: number;
  done: number;
  failed: number;
  /** Attempts beyond the first: retries after failures and stalled jobs handed on. */
  retried: number;
  /** Workers' results refused by the coordinator (not signed with the batch's key, not the result schema...). */
  refused: number;
  /** Refusals by workers: jobs not signed with their key, or of other code (once per job and worker). */
  refusedByWorkers: number;
  /** Verify jobs whose replay diverged. */
  diverged: number;
  /** On a queue: whether its jobs and results were signed with a key (absent for local threads). */
  key?: boolean;
  seconds: number;
  /** Jobs run now per second of wall time. */
  jobsPerSecond: number;
  interrupted: boolean;
  out: { results: string; csv: string; timing: string };
}

export async function runBatch(plan: BatchPlan, exec: Executor, o: BatchRunOptions): Promise<BatchSummary> {
  const paths = resultPaths(o.out);
  const cache = o.force ? new Map<string, { body: string }>() : readCache(paths);
  const outcomes = new Map<string, Outcome & { cached?: boolean }>();
  for (const j of plan.jobs) {
    if (j.payload === null) outcomes.set(j.key, { status: 'failed', error: j.error ?? 'failed', attempts: 0 });
    else if (!outcomes.has(j.key)) {
      const c = cache.get(j.key);
      // An earlier results file or journal is outside data too (a shared output folder): checked like a worker's answer, else run again.
      if (c && cachedBodyFits(j.payload, c.body)) outcomes.set(j.key, { status: 'done', body: c.body, attempts: 0, cached: true });
    }
  }
  const cached = [...outcomes.values()].filter((x) => x.cached).length;
  const todo: PlannedJob[] = [];
  const queued = new Set<string>();
  for (const j of plan.jobs) {
    if (outcomes.has(j.key) || queued.has(j.key)) continue;
    queued.add(j.key);
    todo.push(j);
  }
  const counts = { done: 0, failed: 0, retried: 0, cached };
  const refusals = { coordinator: 0, worker: 0 };
  const bar = o.progress ? new Progress(todo.length, (s) => o.progress!.write(s), o.progress.tty) : null;
  const journal = new Journal(paths.journal);
  const t0 = performance.now();
  let interrupted = false;
  try {
    if (todo.length) {
      await exec.run(todo, plan.blobs, plan.retries, {
        outcome(job, out) {
          if (outcomes.has(job.key)) return; // delivered twice (at-least-once): the first stands
          if (out.status === 'done' && out.replay) writeKeptReplay(paths.dir, replayFile(out.body!), out.replay);
          outcomes.set(job.key, out);
          journal.append(job.key, out);
          if (out.status === 'done') counts.done++;
          else counts.failed++;
          counts.retried += Math.max(0, out.attempts - 1);
          bar?.update(counts);
        },
        retry() {
          bar?.update(counts);
        },
        note(line) {
          if (bar) bar.note(line);
          else o.progress?.write(`${line}\n`);
        },
        refused(job, by, reason) {
          refusals[by]++;
          const line = `job ${job.index}: ${reason}`;
          if (bar) bar.note(line);
          else o.progress?.write(`${line}\n`);
        },
      }, o.signal);
    }
  } finally {
    interrupted = o.signal.aborted || todo.some((j) => !outcomes.has(j.key));
    bar?.update(counts, true);
  }
  const seconds = (performance.now() - t0) / 1000;
  if (!interrupted) writeAll(plan, paths, outcomes);
  const lines = plan.jobs.map((j) => outcomes.get(j.key));
  const diverged = plan.jobs.filter((j, i) => j.kind === 'verify' && lines[i]?.status === 'done' && !(JSON.parse(lines[i]!.body!) as { ok: boolean }).ok).length;
  if (!interrupted) journal.remove();
  const ran = todo.filter((j) => outcomes.has(j.key)).length;
  return {
    name: plan.name,
    runtime: RUNTIME_VERSION,
    mode: exec.mode,
    workers: exec.workers(),
    jobs: plan.jobs.length,
    distinct: new Set(plan.jobs.map((j) => j.key)).size,
    cached,
    ran,
    done: plan.jobs.filter((j, i) => lines[i]?.status === 'done').length,
    failed: plan.jobs.filter((j, i) => lines[i]?.status === 'failed').length,
    retried: counts.retried,
    refused: refusals.coordinator,
    refusedByWorkers: refusals.worker,
    diverged,
    ...(exec.signed !== undefined ? { key: exec.signed } : {}),
    seconds: Math.round(seconds * 1000) / 1000,
    jobsPerSecond: seconds > 0 ? Math.round((ran / seconds) * 100) / 100 : 0,
    interrupted,
    out: { results: paths.results, csv: paths.csv, timing: paths.timing },
  };
}

function cachedBodyFits(p: JobPayload, body: string): boolean {
  try {
    checkResultBody(p, body);
    return true;
  } catch (e) {
    if (e instanceof ResultError) return false;
    throw e;
  }
}

function replayFile(body: string): string {
  const r = (JSON.parse(body) as { replay?: { file?: string } }).replay;
  if (!r?.file || !/^replays\/[0-9a-f]{64}\.replay$/.test(r.file)) throw new Error('a kept replay without its file name in the result');
  return r.file;
}

function writeAll(plan: BatchPlan, paths: ResultPaths, outcomes: Map<string, Outcome & { cached?: boolean }>): void {
  const lines: string[] = [];
  const timing: TimingRow[] = [];
  for (const j of plan.jobs) {
    const out = outcomes.get(j.key)!;
    lines.push(resultLine(j, out));
    timing.push({
      index: j.index,
      key: j.key,
      cached: out.cached === true,
      attempts: out.attempts,
      seconds: out.seconds === undefined ? null : Math.round(out.seconds * 1e6) / 1e6,
      framesPerSecond: out.framesPerSecond === undefined ? null : Math.round(out.framesPerSecond * 10) / 10,
      worker: out.worker ?? null,
    });
  }
  writeAtomic(paths.results, lines.join('\n') + '\n');
  writeAtomic(paths.timing, timing.map((t) => JSON.stringify(t)).join('\n') + '\n');
  const fps = plan.jobs.some((j) => j.payload?.kind === 'run' && j.payload.measure.includes('fps'));
  writeAtomic(paths.csv, csvOf(lines.map((l) => JSON.parse(l) as Record<string, unknown>), timing, fps));
}
