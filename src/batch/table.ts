/**
 * The summary table of a batch's results: run jobs grouped by the job fields that vary across the batch
 * (all but the seed, so each row is one setting over its seeds), with each group's job count, failures
 * and the mean of each numeric measure; replay checks counted in one line. Shared by `retrosim batch`
 * and `retrosim batch report`.
 */

/** A results line as read back (see results.ts). */
export type ResultLine = Record<string, unknown> & { kind?: unknown; status?: unknown; job?: unknown; result?: unknown };

export interface SummaryTable {
  columns: string[];
  rows: string[][];
  /** Groups left out of `rows` (beyond the row limit). */
  more: number;
  /** One line about the replay checks, or null when there are none. */
  verify: string | null;
}

/** Measures shown (when present), as result paths with their column names. */
const SHOWN: [string, string][] = [
  ['agents', 'placed'],
  ['los.pairsPerFrame', 'pairs/frame'],
  ['los.perAgent', 'seen/agent'],
  ['los.seesTarget', 'see player'],
  ['events.death', 'deaths'],
  ['events.exit', 'exits'],
  ['events.signal', 'signals'],
  ['draws.fieldrand', 'fieldrand'],
];

/** Fields of a flattened object by dotted path. */
export function flat(v: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) flat(x, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) out[prefix] = Array.isArray(v) ? v.join(' ') : v;
  return out;
}

/** The job fields whose values differ across `jobs` (flattened), in first-seen order. */
export function varyingFields(jobs: Record<string, unknown>[]): string[] {
  const values = new Map<string, Set<string>>();
  const order: string[] = [];
  for (const j of jobs) {
    for (const [k, v] of Object.entries(j)) {
      if (!values.has(k)) (values.set(k, new Set()), order.push(k));
      values.get(k)!.add(JSON.stringify(v));
    }
  }
  // A field some jobs lack varies too (its absence is a value).
  return order.filter((k) => values.get(k)!.size > 1 || jobs.some((j) => !(k in j)));
}

export function summarize(lines: ResultLine[], maxRows = 40): SummaryTable {
  const runs = lines.filter((l) => l.kind === 'run');
  const jobs = runs.map((l) => flat(l.job));
  const by = varyingFields(jobs).filter((k) => k !== 'seed');
  const groups = new Map<string, { values: string[]; lines: ResultLine[] }>();
  runs.forEach((l, i) => {
    const values = by.map((k) => (jobs[i]![k] === undefined ? '' : String(jobs[i]![k])));
    const id = JSON.stringify(values);
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { values, lines: [] }));
    g.lines.push(l);
  });
  const results = runs.map((l) => (l.status === 'done' ? flat(l.result) : {}));
  // A measure shown when some result has it and it is not zero everywhere (a column of zeros says little).
  const shown = SHOWN.filter(([path]) => results.some((r) => typeof r[path] === 'number' && r[path] !== 0));
  const single = [...groups.values()].every((g) => g.lines.length === 1);
  const columns = [...by, 'jobs', 'failed', ...shown.map(([, name]) => name), ...(single ? ['final hash'] : [])];
  const rows: string[][] = [];
  for (const g of groups.values()) {
    const done = g.lines.filter((l) => l.status === 'done').map((l) => flat(l.result));
    const row = [...g.values, String(g.lines.length), String(g.lines.length - done.length)];
    for (const [path] of shown) {
      const xs = done.map((r) => r[path]).filter((x): x is number => typeof x === 'number');
      row.push(xs.length ? formatNumber(xs.reduce((a, b) => a + b, 0) / xs.length) : '');
    }
    if (single) row.push(done[0] ? String(done[0]['finalHash'] ?? '') : '');
    rows.push(row);
  }
  const verifies = lines.filter((l) => l.kind === 'verify');
  let verify: string | null = null;
  if (verifies.length) {
    const ok = verifies.filter((l) => l.status === 'done' && (l.result as { ok?: unknown })?.ok === true).length;
    const failed = verifies.filter((l) => l.status !== 'done').length;
    verify = `replays verified: ${verifies.length}: ${ok} ok, ${verifies.length - ok - failed} diverged, ${failed} could not be checked`;
  }
  return { columns, rows: rows.slice(0, maxRows), more: Math.max(0, rows.length - maxRows), verify };
}

/** The table as aligned text. */
export function formatTable(t: SummaryTable): string {
  const out: string[] = [];
  if (t.rows.length) {
    const width = t.columns.map((c, i) => Math.max(c.length, ...t.rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (isNumeric(c) ? c.padStart(width[i]!) : c.padEnd(width[i]!))).join('  ').trimEnd();
    out.push(line(t.columns), width.map((w) => '-'.repeat(w)).join('  '));
    for (const r of t.rows) out.push(line(r));
    if (t.more) out.push(`... ${t.more} more rows (all of them in the CSV)`);
  }
  if (t.verify) out.push(t.verify);
  return out.join('\n');
}

/** A mean for a table: integers as they are, others to four significant digits. */
export function formatNumber(v: number): string {
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  const trim = (s: string) => (s.includes('.') && !s.includes('e') ? s.replace(/\.?0+$/, '') : s);
  return a >= 1000 ? v.toFixed(0) : trim(a >= 1 ? v.toPrecision(4) : v.toPrecision(3));
}

function isNumeric(s: string): boolean {
  return /^-?\d+(\.\d+)?(e[-+]?\d+)?$/.test(s);
}
