/**
 * The fuzz engine: feeds mutated copies of a format's corpus to its parser and classifies every case.
 * A case passes when the parser returns a value (and, if the target has queries, they return without
 * throwing for any position, NaN and infinities included) or throws a FormatError. Anything else — another
 * exception, a case that runs past the time limit, or memory beyond the stated bound — is a failure.
 *
 * Hangs cannot be interrupted inside one thread, so `runFuzzInWorker` runs the cases in a worker thread and
 * a watchdog in the caller terminates it when one case takes longer than the limit, reporting that case.
 */
import { FormatError } from '../../src/worlds/binary/format-error.js';
import { FuzzRng, mutate, type MutationKind } from './mutate.js';

export interface FuzzTarget {
  /** Format name, e.g. "rugrats-col". */
  name: string;
  /** Valid files to mutate (synthetic files, and real fixtures where present). */
  corpus(): Uint8Array[];
  /** The parser under test. Must return or throw FormatError. */
  parse(bytes: Uint8Array): unknown;
  /** Optional: exercises queries on a parsed value; must not throw for hostile positions. */
  query?(parsed: unknown, positions: readonly (readonly [number, number, number])[]): void;
  /** Bytes the parser may allocate per input byte, plus a fixed allowance (the stated bound). */
  allocationBound?: { perInputByte: number; fixedBytes: number };
}

export interface FuzzFailure {
  format: string;
  seed: number;
  caseIndex: number;
  mutation: MutationKind | 'corpus';
  error: string;
}

export interface FuzzReport {
  format: string;
  cases: number;
  parsed: number;
  formatErrors: number;
  failures: FuzzFailure[];
  byMutation: Record<string, number>;
}

/** Positions every world query must survive. */
export const HOSTILE_POSITIONS: readonly (readonly [number, number, number])[] = [
  [0, 0, 0],
  [NaN, 0, 0],
  [0, NaN, 0],
  [0, 0, NaN],
  [Infinity, 0, -Infinity],
  [-Infinity, Infinity, 0],
  [1e308, -1e308, 1e308],
  [2 ** 31, -(2 ** 31), 2 ** 32],
  [-1, -1, -1],
  [123456.789, -98765.4321, 5555.5],
  [Number.MAX_SAFE_INTEGER, 0, Number.MIN_SAFE_INTEGER],
  [5e-324, -5e-324, 0],
];

const DEFAULT_BOUND = { perInputByte: 64, fixedBytes: 64 * 1024 * 1024 };

/** Runs one case; returns null on pass or an error description on failure, and whether it parsed. */
export function runCase(target: FuzzTarget, bytes: Uint8Array): { parsed: boolean; formatError: boolean; failure: string | null } {
  const bound = target.allocationBound ?? DEFAULT_BOUND;
  const before = process.memoryUsage().arrayBuffers;
  let parsed: unknown;
  try {
    parsed = target.parse(bytes);
  } catch (e) {
    if (e instanceof FormatError) return { parsed: false, formatError: true, failure: null };
    return { parsed: false, formatError: false, failure: `parse threw ${describe(e)}` };
  }
  const grown = process.memoryUsage().arrayBuffers - before;
  const allowed = bound.fixedBytes + bound.perInputByte * bytes.length;
  if (grown > allowed) {
    return { parsed: true, formatError: false, failure: `parse allocated ${grown} bytes of buffers, over the bound ${allowed}` };
  }
  if (target.query) {
    try {
      target.query(parsed, HOSTILE_POSITIONS);
    } catch (e) {
      return { parsed: true, formatError: false, failure: `query threw ${describe(e)}` };
    }
  }
  return { parsed: true, formatError: false, failure: null };
}

function describe(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`.slice(0, 300);
  return String(e).slice(0, 300);
}

/**
 * Runs `cases` cases: first each corpus file as is, then mutations. `onCase` is called before each case
 * with its index (the worker's heartbeat).
 */
export function fuzzTarget(target: FuzzTarget, cases: number, seed: number, onCase?: (i: number) => void): FuzzReport {
  const corpus = target.corpus();
  if (corpus.length === 0) throw new Error(`fuzz target ${target.name} has an empty corpus`);
  const report: FuzzReport = { format: target.name, cases: 0, parsed: 0, formatErrors: 0, failures: [], byMutation: {} };
  for (let i = 0; i < cases; i++) {
    onCase?.(i);
    let bytes: Uint8Array;
    let kind: MutationKind | 'corpus';
    if (i < corpus.length) {
      bytes = corpus[i]!;
      kind = 'corpus';
    } else {
      const rng = new FuzzRng((seed * 1000003 + i) >>> 0);
      const base = corpus[rng.int(corpus.length)]!;
      const other = corpus[rng.int(corpus.length)]!;
      // Stack 1–3 mutations so that damage compounds.
      const m = mutate(base, other, rng);
      bytes = m.bytes;
      kind = m.kind;
      const extra = rng.int(3);
      for (let k = 0; k < extra; k++) bytes = mutate(bytes, other, rng).bytes;
    }
    const r = runCase(target, bytes);
    report.cases++;
    report.byMutation[kind] = (report.byMutation[kind] ?? 0) + 1;
    if (r.parsed) report.parsed++;
    if (r.formatError) report.formatErrors++;
    if (r.failure) {
      report.failures.push({ format: target.name, seed, caseIndex: i, mutation: kind, error: r.failure });
      if (i < corpus.length) report.failures[report.failures.length - 1]!.error += ' (an unmutated corpus file!)';
    }
  }
  return report;
}

/** Rebuilds the bytes of one case, to reproduce a reported failure. */
export function caseBytes(target: FuzzTarget, seed: number, caseIndex: number): Uint8Array {
  const corpus = target.corpus();
  if (caseIndex < corpus.length) return corpus[caseIndex]!;
  const rng = new FuzzRng((seed * 1000003 + caseIndex) >>> 0);
  const base = corpus[rng.int(corpus.length)]!;
  const other = corpus[rng.int(corpus.length)]!;
  let bytes = mutate(base, other, rng).bytes;
  const extra = rng.int(3);
  for (let k = 0; k < extra; k++) bytes = mutate(bytes, other, rng).bytes;
  return bytes;
}
