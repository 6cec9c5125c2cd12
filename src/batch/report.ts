/**
 * `retrosim batch report`: a results file's summary table, and a PNG chart of one measure against one
 * job field, a line per value of another field.
 *
 * Defaults, so that a plain `batch report FILE` draws something useful: x is the first numeric job field
 * that varies (agents before the others; never a seed), y the first of the line-of-sight, event and draw
 * measures present, the series the first other non-numeric field that varies (the world, say).
 */
import { DEFAULT_LIMITS } from '../index.js';
import { checkJsonDepth } from '../binary/json-depth.js';
import { FormatError } from '../binary/format-error.js';
import { BoundedReadError, readBoundedText } from '../node/bounded-read.js';
import { drawChart, type ChartSeries } from './chart.js';
import { writeAtomic } from './results.js';
import { flat, formatTable, summarize, varyingFields, type ResultLine, type SummaryTable } from './table.js';

export interface ReportOptions {
  x?: string | undefined;
  y?: string | undefined;
  series?: string | undefined;
  png?: string | undefined;
}

export interface Report {
  jobs: number;
  table: SummaryTable;
  text: string;
  chart: { png: string; x: string; y: string; series: string | null; points: number } | null;
  /** Why there is no chart, when there is none. */
  noChart?: string;
}

/** A results file that cannot be reported on: the message names it and the line. */
export class ReportError extends Error {
  override readonly name = 'ReportError';
}

const Y_PREFERRED = ['los.pairsPerFrame', 'los.perAgent', 'los.seesTarget', 'events.death', 'events.exit', 'events.signal', 'draws.fieldrand', 'agents'];

export function readResults(file: string): ResultLine[] {
  let text: string;
  try {
    text = readBoundedText(file, DEFAULT_LIMITS.fileBytes);
  } catch (e) {
    if (!(e instanceof BoundedReadError)) throw e;
    if (e.code === 'EFBIG') throw new ReportError(`${file}: ${e.size} bytes is over the limit of ${DEFAULT_LIMITS.fileBytes} bytes (limits.fileBytes)`);
    throw new ReportError(`${file}: ${e.code === 'ENOTREG' ? 'not a file' : `cannot read (${e.code})`}`);
  }
  const lines: ResultLine[] = [];
  text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    try {
      // Before the parse: the table and chart walk each line's values recursively.
      checkJsonDepth(l, DEFAULT_LIMITS.jsonDepth, `batch results line ${i + 1}`);
    } catch (e) {
      if (e instanceof FormatError) e.file = file;
      throw e;
    }
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch {
      throw new ReportError(`${file}: line ${i + 1} is not JSON`);
    }
    if (typeof v !== 'object' || v === null || !('kind' in v) || !('status' in v)) throw new ReportError(`${file}: line ${i + 1} is not a batch result (no kind, status)`);
    lines.push(v as ResultLine);
  });
  if (!lines.length) throw new ReportError(`${file}: no results`);
  return lines;
}

export function reportResults(file: string, o: ReportOptions = {}): Report {
  const lines = readResults(file);
  const table = summarize(lines);
  const text = formatTable(table);
  const runs = lines.filter((l) => l.kind === 'run' && l.status === 'done');
  const base: Report = { jobs: lines.length, table, text, chart: null };
  if (!runs.length) return { ...base, noChart: 'no run job has a result' };
  const jobs = runs.map((l) => flat(l.job));
  const results = runs.map((l) => flat(l.result));
  const varying = varyingFields(jobs).filter((k) => k !== 'seed');
  const numeric = (k: string) => jobs.every((j) => typeof j[k] === 'number');
  const x = o.x ?? [...varying.filter((k) => k === 'agents'), ...varying.filter((k) => k !== 'agents')].find(numeric);
  if (x === undefined) return { ...base, noChart: 'no numeric job field varies (give --x FIELD)' };
  if (!jobs.some((j) => j[x] !== undefined)) throw new ReportError(`--x ${x}: no job has that field (fields: ${Object.keys(jobs[0]!).join(', ')})`);
  if (!numeric(x)) throw new ReportError(`--x ${x}: not a number in every job`);
  const yPath = o.y?.replace(/^result\./, '');
  const y = yPath ?? Y_PREFERRED.find((k) => results.some((r) => typeof r[k] === 'number'));
  if (y === undefined) return { ...base, noChart: 'no numeric measure in the results (give --y MEASURE)' };
  if (!results.some((r) => typeof r[y] === 'number')) {
    const measures = Object.keys(results[0]!).filter((k) => typeof results[0]![k] === 'number');
    throw new ReportError(`--y ${o.y}: no result has that numeric measure (measures: ${measures.join(', ')})`);
  }
  const seriesField = o.series ?? varying.find((k) => k !== x && !numeric(k)) ?? null;
  if (o.series !== undefined && !jobs.some((j) => j[o.series!] !== undefined)) throw new ReportError(`--series ${o.series}: no job has that field`);
  const bySeries = new Map<string, ChartSeries>();
  let points = 0;
  runs.forEach((_, i) => {
    const xv = jobs[i]![x];
    const yv = results[i]![y];
    if (typeof xv !== 'number' || typeof yv !== 'number') return;
    const name = seriesField ? String(jobs[i]![seriesField] ?? '') : y;
    let s = bySeries.get(name);
    if (!s) bySeries.set(name, (s = { name, points: [] }));
    s.points.push([xv, yv]);
    points++;
  });
  const png = o.png ?? file.replace(/\.jsonl$/i, '') + '.png';
  const bytes = drawChart({ title: `${y} against ${x}`, xLabel: x, yLabel: y, series: [...bySeries.values()] });
  writeAtomic(png, bytes);
  return { ...base, chart: { png, x, y, series: seriesField, points } };
}
