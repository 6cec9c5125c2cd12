/**
 * A batch's result files, beside each other:
 *
 * - `<name>.jsonl`: one line per job in job order, whatever order they finished in. Every field of these
 *   lines depends only on the job's inputs: the same batch file gives the same bytes on any number of
 *   threads or workers. `{"index", "key", "kind", "job", "status", "result" | "error"}`.
 * - `<name>.timing.jsonl`: per job, what does vary between runs (seconds, frames per second, attempts,
 *   which worker, whether the result came from an earlier run). Never compared.
 * - `<name>.csv`: the results and the timing flattened into columns, for spreadsheets.
 * - `replays/<key>.replay`: the replays jobs keep (named by key, so shared by every batch in the folder).
 * - `<name>.journal.jsonl`: while a batch runs, each outcome as it arrives; an interrupted batch picks up
 *   from it. Removed when the batch finishes.
 *
 * An earlier `<name>.jsonl` (and journal) is the cache: a job whose key is there with a result is not run
 * again (unless forced). Failed jobs are always run again.
 *
 * Every file here is written without following a symlink planted at its path (a new file renamed over it;
 * the journal opened with O_NOFOLLOW), and read under a byte limit and a JSON nesting limit.
 */
import { closeSync, existsSync, lstatSync, mkdirSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_LIMITS } from '../limits.js';
import { checkJsonDepth } from '../binary/json-depth.js';
import { FormatError } from '../binary/format-error.js';
import { readBounded, readBoundedText } from '../node/bounded-read.js';
import { openAppendNoFollow, replaceFile } from '../node/replace-file.js';
import type { Outcome } from './executor.js';
import type { PlannedJob } from './plan.js';
import { sha256Hex } from './runner.js';

export interface ResultPaths {
  results: string;
  timing: string;
  csv: string;
  journal: string;
  /** The folder kept replays' `file` fields are relative to. */
  dir: string;
}

/** The files of a results path (`out/batch/sweep.jsonl` → `.timing.jsonl`, `.csv`, `.journal.jsonl`). */
export function resultPaths(results: string): ResultPaths {
  const stem = results.replace(/\.jsonl$/i, '');
  return { results, timing: `${stem}.timing.jsonl`, csv: `${stem}.csv`, journal: `${stem}.journal.jsonl`, dir: dirname(results) };
}

/** A result kept from an earlier run: its JSON text. */
export interface CachedResult {
  body: string;
}

/** One results line. `body` is the result's JSON text, put in verbatim. */
export function resultLine(job: PlannedJob, o: Pick<Outcome, 'status' | 'body' | 'error'>): string {
  const head = `{"index":${job.index},"key":${JSON.stringify(job.key)},"kind":${JSON.stringify(job.kind)},"job":${JSON.stringify(job.job)}`;
  return o.status === 'done' ? `${head},"status":"done","result":${o.body}}` : `${head},"status":"failed","error":${JSON.stringify(o.error ?? 'failed')}}`;
}

/**
 * Results of earlier runs by key: the results file's done lines, then the journal's (an interrupted run).
 * A result that keeps a replay counts only while that replay file is still there with the same bytes.
 * A file over limits.fileBytes is not used; a line nested deeper than limits.jsonDepth is a FormatError
 * naming the file and line (nothing this runtime writes nests that deep).
 */
export function readCache(p: ResultPaths): Map<string, CachedResult> {
  const out = new Map<string, CachedResult>();
  for (const file of [p.results, p.journal]) {
    if (!existsSync(file)) continue;
    let text: string;
    try {
      text = readBoundedText(file, DEFAULT_LIMITS.fileBytes);
    } catch {
      continue;
    }
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (!line.startsWith('{')) continue;
      try {
        checkJsonDepth(line, DEFAULT_LIMITS.jsonDepth, `batch results line ${i + 1}`);
      } catch (e) {
        if (e instanceof FormatError) e.file = file;
        throw e;
      }
      let v: { key?: unknown; status?: unknown; result?: unknown };
      try {
        v = JSON.parse(line) as typeof v;
      } catch {
        continue; // a line cut short by an interruption
      }
      if (typeof v.key !== 'string' || v.status !== 'done' || typeof v.result !== 'object' || v.result === null) continue;
      if (!replayStillThere(p, v.result as Record<string, unknown>)) continue;
      out.set(v.key, { body: JSON.stringify(v.result) });
    }
  }
  return out;
}

function replayStillThere(p: ResultPaths, result: Record<string, unknown>): boolean {
  const r = result['replay'] as { file?: unknown; sha256?: unknown } | undefined;
  if (!r || typeof r !== 'object' || result['ok'] !== undefined) return true; // no kept replay (a verify job's "replay" is its input)
  if (typeof r.file !== 'string' || typeof r.sha256 !== 'string') return false;
  try {
    return sha256Hex(readBounded(join(p.dir, r.file), DEFAULT_LIMITS.batch.replayBytes)) === r.sha256;
  } catch {
    return false;
  }
}

/**
 * Appends each outcome as it arrives, so an interrupted batch loses nothing it finished. A symlink at the
 * journal's path is refused (when the journal is made, and on each append), never written through.
 */
export class Journal {
  constructor(private readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    let link = false;
    try {
      link = lstatSync(path).isSymbolicLink();
    } catch {
      // not there yet: made on the first append
    }
    if (link) throw new Error(`${path}: the batch journal is a symbolic link; refusing to write through it (remove it)`);
  }

  append(key: string, o: Outcome): void {
    const line = o.status === 'done' ? `{"key":${JSON.stringify(key)},"status":"done","result":${o.body}}` : `{"key":${JSON.stringify(key)},"status":"failed","error":${JSON.stringify(o.error ?? '')}}`;
    let fd: number;
    try {
      fd = openAppendNoFollow(this.path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new Error(code === 'ELOOP' ? `${this.path}: the batch journal is a symbolic link; refusing to write through it (remove it)` : `${this.path}: cannot write the batch journal (${code ?? 'error'})`);
    }
    try {
      const b = Buffer.from(line + '\n', 'utf8');
      let at = 0;
      while (at < b.length) at += writeSync(fd, b, at, b.length - at);
    } finally {
      closeSync(fd);
    }
  }

  remove(): void {
    rmSync(this.path, { force: true });
  }
}

/**
 * Writes a file whole or not at all: a new temporary file, made exclusively, renamed over it (so a symlink
 * planted at `path` is replaced, never followed).
 */
export function writeAtomic(path: string, text: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  replaceFile(path, text);
}

/**
 * Writes a kept replay at `rel` (`replays/<key>.replay`) under the output folder `dir`. The `replays`
 * folder is made by the batch: one that is a symlink (planted to send the files elsewhere) or not a folder
 * is refused, never written through.
 */
export function writeKeptReplay(dir: string, rel: string, bytes: Uint8Array): void {
  const folder = join(dir, dirname(rel));
  mkdirSync(folder, { recursive: true });
  const st = lstatSync(folder);
  if (!st.isDirectory()) throw new Error(`${folder}: ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; refusing to write kept replays through it (remove it)`);
  replaceFile(join(dir, rel), bytes);
}

/** One timing line (not compared between runs). */
export interface TimingRow {
  index: number;
  key: string;
  cached: boolean;
  attempts: number;
  seconds: number | null;
  framesPerSecond: number | null;
  worker: string | null;
}

/**
 * The CSV of results lines (parsed) with their timing: one row per job; the job's fields as columns by
 * their names (`agents`, `params.guards`), the result's under `result.` (`result.los.pairsPerFrame`).
 */
export function csvOf(lines: Record<string, unknown>[], timing: TimingRow[], withTiming: boolean): string {
  const rows = lines.map((l, i) => {
    const flat: Record<string, unknown> = {};
    flatten(flat, '', { index: l['index'], key: l['key'], kind: l['kind'], status: l['status'] });
    flatten(flat, '', l['job']);
    if (l['result'] !== undefined) flatten(flat, 'result', l['result']);
    if (l['error'] !== undefined) flat['error'] = l['error'];
    if (withTiming && timing[i]) {
      flat['seconds'] = timing[i]!.seconds;
      flat['framesPerSecond'] = timing[i]!.framesPerSecond;
    }
    return flat;
  });
  const cols: string[] = [];
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) if (!seen.has(k)) (seen.add(k), cols.push(k));
  const cell = (v: unknown): string => {
    if (v === undefined || v === null) return '';
    let s = Array.isArray(v) ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(' ') : typeof v === 'object' ? JSON.stringify(v) : String(v);
    // A cell a spreadsheet would take for a formula is kept as text.
    if (/^[=+@\t\r]/.test(s)) s = `'${s}`;
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [cols.map(cell).join(','), ...rows.map((r) => cols.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}

function flatten(out: Record<string, unknown>, prefix: string, v: unknown): void {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) flatten(out, prefix ? `${prefix}.${k}` : k, x);
  } else if (prefix) out[prefix] = v;
}
