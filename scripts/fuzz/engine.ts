/**
 * The fuzz engine: feeds mutated copies of a format's corpus to its parser and classifies every case.
 * A case passes when the parser returns a value (and, if the target has queries, they return without
 * throwing for any position, NaN and infinities included) or throws a FormatError. Anything else — another
 * exception, a case that runs past the time limit, or memory beyond the stated bound — is a failure.
 *
 * Hangs cannot be interrupted inside one thread, so `runFuzzInWorker` runs the cases in a worker thread and
 * a watchdog in the caller terminates it when one case takes longer than the limit, reporting that case.
 */
import { FormatError } from '../../src/binary/format-error.js';
import { FuzzRng, mutate, type MutationKind } from './mutate.js';
import { mutateJson, type JsonMutationKind } from './mutate-json.js';

export type CaseKind = MutationKind | JsonMutationKind | 'corpus' | `structure-${string}`;

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
  /** The corpus is JSON: half the mutated cases change one value of the parsed tree instead of bytes. */
  json?: boolean;
  /**
   * A structure-aware mutator of the target's own (e.g. a replay keyframe's decoded snapshot changed field by
   * field and encoded again): used for `structuredShare` of the mutated cases (default 3 in 4), the rest are
   * byte mutations. Returns null when it cannot mutate the base (a byte mutation is used instead).
   */
  mutateStructure?(base: Uint8Array, rng: FuzzRng): { bytes: Uint8Array; kind: `structure-${string}` } | null;
  /** Share of mutated cases given to `mutateStructure`, in quarters (1..4; default 3). */
  structuredQuarters?: number;
}

export interface FuzzFailure {
  format: string;
  seed: number;
  caseIndex: number;
  mutation: CaseKind;
  error: string;
}

export interface FuzzReport {
  format: string;
  /** Index of the first case run (0 for a whole run; a slice of a longer run starts later). */
  first: number;
  cases: number;
  parsed: number;
  formatErrors: number;
  failures: FuzzFailure[];
  byMutation: Record<string, number>;
  /** Largest growth of ArrayBuffer memory seen during one parse, and that case's input length. */
  maxAllocated: { bytes: number; inputLength: number };
  /** The slowest case (wall time, milliseconds, on whatever else the machine was doing). */
  slowest: { ms: number; caseIndex: number };
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

/**
 * The stated allocation bound unless a target states its own: ArrayBuffer memory may grow by 256 bytes per
 * input byte plus 4 MiB during one case. Parsers check every count against the bytes left before allocating,
 * so what they allocate is a small multiple of the input (the largest ratio seen is under 100, Rugrats' index);
 * a count taken on trust (2^31 elements) would be gigabytes.
 */
const DEFAULT_BOUND = { perInputByte: 256, fixedBytes: 4 * 1024 * 1024 };

/** Runs one case; returns null on pass or an error description on failure, and whether it parsed. */
export function runCase(target: FuzzTarget, bytes: Uint8Array): { parsed: boolean; formatError: boolean; failure: string | null; allocated: number } {
  const bound = target.allocationBound ?? DEFAULT_BOUND;
  const before = process.memoryUsage().arrayBuffers;
  let parsed: unknown;
  try {
    parsed = target.parse(bytes);
  } catch (e) {
    // Measured on the way out too: a parser that allocates hugely and then fails is just as bad.
    const grown = process.memoryUsage().arrayBuffers - before;
    const allowed = bound.fixedBytes + bound.perInputByte * bytes.length;
    if (grown > allowed) return { parsed: false, formatError: false, failure: `parse allocated ${grown} bytes of buffers before failing, over the bound ${allowed}`, allocated: grown };
    if (e instanceof FormatError) return { parsed: false, formatError: true, failure: null, allocated: grown };
    return { parsed: false, formatError: false, failure: `parse threw ${describe(e)}`, allocated: grown };
  }
  const grown = process.memoryUsage().arrayBuffers - before;
  const allowed = bound.fixedBytes + bound.perInputByte * bytes.length;
  if (grown > allowed) {
    return { parsed: true, formatError: false, failure: `parse allocated ${grown} bytes of buffers, over the bound ${allowed}`, allocated: grown };
  }
  if (target.query) {
    try {
      target.query(parsed, HOSTILE_POSITIONS);
    } catch (e) {
      return { parsed: true, formatError: false, failure: `query threw ${describe(e)}`, allocated: grown };
    }
  }
  return { parsed: true, formatError: false, failure: null, allocated: grown };
}

function describe(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`.slice(0, 300);
  return String(e).slice(0, 300);
}

/**
 * Runs `cases` cases from index `first` on: case i is the i-th corpus file as is while i is below the corpus
 * size, then a mutation seeded by (seed, i). Since a case depends on nothing else, a long run can be made in
 * slices (`first` = 0, N, 2N, ...) that together are exactly the one run. `onCase` is called before each case
 * with its index (the worker's heartbeat).
 */
export function fuzzTarget(target: FuzzTarget, cases: number, seed: number, onCase?: (i: number) => void, first = 0): FuzzReport {
  const corpus = target.corpus();
  if (corpus.length === 0) throw new Error(`fuzz target ${target.name} has an empty corpus`);
  const report: FuzzReport = { format: target.name, first, cases: 0, parsed: 0, formatErrors: 0, failures: [], byMutation: {}, maxAllocated: { bytes: 0, inputLength: 0 }, slowest: { ms: 0, caseIndex: -1 } };
  for (let i = first; i < first + cases; i++) {
    onCase?.(i);
    const t0 = performance.now();
    const { bytes, kind } = makeCase(target, corpus, seed, i);
    const r = runCase(target, bytes);
    const ms = performance.now() - t0;
    if (ms > report.slowest.ms) report.slowest = { ms: Math.round(ms * 10) / 10, caseIndex: i };
    report.cases++;
    if (r.allocated > report.maxAllocated.bytes) report.maxAllocated = { bytes: r.allocated, inputLength: bytes.length };
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

/**
 * The bytes of case `i`: the corpus files first, as they are; then mutations seeded by (seed, i) alone, so any
 * case can be rebuilt on its own. A JSON target's case is, one time in two, a structure-aware mutation
 * (possibly followed by a byte mutation); otherwise 1–3 stacked byte mutations, so that damage compounds.
 */
export function makeCase(target: FuzzTarget, corpus: readonly Uint8Array[], seed: number, i: number): { bytes: Uint8Array; kind: CaseKind } {
  if (i < corpus.length) return { bytes: corpus[i]!, kind: 'corpus' };
  const rng = new FuzzRng((seed * 1000003 + i) >>> 0);
  const base = corpus[rng.int(corpus.length)]!;
  const other = corpus[rng.int(corpus.length)]!;
  if (target.mutateStructure && rng.int(4) < (target.structuredQuarters ?? 3)) {
    const m = target.mutateStructure(base, rng);
    if (m) return m;
  }
  if (target.json && rng.int(2) === 0) {
    const j = mutateJson(base, rng);
    if (j) {
      let bytes = j.bytes;
      if (rng.int(4) === 0) bytes = mutate(bytes, other, rng).bytes;
      return { bytes, kind: j.kind };
    }
  }
  const m = mutate(base, other, rng);
  let bytes = m.bytes;
  const extra = rng.int(3);
  for (let k = 0; k < extra; k++) bytes = mutate(bytes, other, rng).bytes;
  return { bytes, kind: m.kind };
}

/** Rebuilds the bytes of one case, to reproduce a reported failure. */
export function caseBytes(target: FuzzTarget, seed: number, caseIndex: number): Uint8Array {
  return makeCase(target, target.corpus(), seed, caseIndex).bytes;
}
