/**
 * Comparing a recorded snapshot with a re-simulated one, value by value, for a divergence report: every
 * difference is a line naming where it is (the component field and entity, the task, the RNG) with the
 * recorded and the replayed value. The walk is bounded by the two trees (both already bounded by the
 * decoder's budget) and stops listing after a few lines; it only counts the rest.
 */
/** The differences found, the first `max` of them as lines. */
export interface SnapshotDifferences {
  lines: string[];
  total: number;
}

function show(v: unknown): string {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (typeof v === 'boolean' || v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name} of ${(v as unknown as ArrayLike<number>).length}`;
  return 'an object';
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

/**
 * Lists where `recorded` and `replayed` differ (the first `max` as lines, all of them counted). Paths read
 * like the snapshot: `rng.ccrand.draws`, `scheduler.tasks[7] (line-of-sight).body.n`, and component fields as
 * `Position.x of entity 3`.
 */
export function diffSnapshots(recorded: unknown, replayed: unknown, max = 20): SnapshotDifferences {
  const lines: string[] = [];
  let total = 0;
  const note = (line: string) => {
    if (lines.length < max) lines.push(line);
    total++;
  };
  const walk = (a: unknown, b: unknown, path: string, entity: ((i: number) => string) | null): void => {
    if (Object.is(a, b)) return;
    if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b) && a.constructor === b.constructor) {
      const x = a as unknown as ArrayLike<number>;
      const y = b as unknown as ArrayLike<number>;
      if (x.length !== y.length) note(`${path}: recorded ${show(a)}, replayed ${show(b)}`);
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) if (!Object.is(x[i], y[i])) note(`${entity ? entity(i) : `${path}[${i}]`}: recorded ${show(x[i])}, replayed ${show(y[i])}`);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) note(`${path}: recorded ${show(a)}, replayed ${show(b)}`);
      const n = Math.min(a.length, b.length);
      for (let i = 0; i < n; i++) walk(a[i], b[i], `${path}[${i}]${labelOf(path, a[i], b[i])}`, null);
      return;
    }
    if (isPlain(a) && isPlain(b)) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      // A component field's values read as "Position.x of entity 3".
      const field = typeof a['component'] === 'string' && typeof a['field'] === 'string' && a['component'] === b['component'] && a['field'] === b['field'] ? `${a['component']}.${a['field']}` : null;
      for (const k of keys) {
        const p = path ? `${path}.${k}` : k;
        if (!Object.hasOwn(a, k)) note(`${p}: not in the recording`);
        else if (!Object.hasOwn(b, k)) note(`${p}: not in the re-simulation`);
        else walk(a[k], b[k], p, field && k === 'values' ? (i) => `${field} of entity ${i}` : null);
      }
      return;
    }
    note(`${path || '(the snapshot)'}: recorded ${show(a)}, replayed ${show(b)}`);
  };
  walk(recorded, replayed, '', null);
  return { lines, total };
}

/** " (name)" for an element that names itself (a task, a stream, a component field), else "". */
function labelOf(path: string, a: unknown, b: unknown): string {
  const name = (v: unknown) => (isPlain(v) ? (typeof v['name'] === 'string' ? v['name'] : typeof v['component'] === 'string' && typeof v['field'] === 'string' ? `${v['component']}.${v['field']}` : null) : null);
  const n = name(a) ?? name(b);
  return n !== null && (path.endsWith('tasks') || path.endsWith('streams') || path.endsWith('fields') || path.endsWith('queries')) ? ` (${n.slice(0, 64)})` : '';
}
