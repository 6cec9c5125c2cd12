/**
 * Conformance traces: JSON lines, one call of the original per line with what it answered, so anyone who can
 * run the game's 0x8002b240 / 0x8002cd7c can check this port against it.
 *
 *   {"trace":"rugrats-col","version":1,"db":"LEVEL03.COL"}                        optional first line
 *   {"op":"query","pos":[x,y,z],"expect":{"result":0,"ceiling":c,"floor":f,"tile":t}}
 *   {"op":"segment","from":[x,y,z],"to":[x,y,z],
 *    "expect":{"result":1,"depth":d,"point":[x,y,z],"normal":[x,y,z],"tile":t}}
 *
 * Tiles are file offsets of the tile's 8 bytes (the original's pointer minus where the file was loaded), 0 for
 * none. An output the original does not write for that answer is left out of "expect" (e.g. depth after a floor
 * hit); an output in "expect" that the port does not write is a mismatch. Blank lines and lines starting with
 * '#' are skipped; any line may carry a "note".
 */
import { FormatError } from '../../binary/format-error.js';
import { jsonTooDeepAt } from '../../binary/json-depth.js';
import { DEFAULT_LIMITS } from '../../limits.js';
import type { ColIndex } from './col-index.js';
import { queryCol } from './query.js';
import { SEGMENT_OUT_LENGTH, S_DEPTH, S_NORMAL, S_POINT, S_RESULT, S_TILE, S_WRITTEN, WROTE_DEPTH, WROTE_NORMAL, WROTE_POINT, WROTE_TILE, segmentCol } from './segment.js';

/** The format name a FormatError from parseTrace carries. */
export const TRACE_FORMAT = 'rugrats trace';

/** What the original answered to a point query; an output left out was not recorded. */
export interface QueryExpect {
  /** QUERY_OPEN, QUERY_CLOSED or QUERY_OUTSIDE. */
  result: number;
  ceiling?: number;
  floor?: number;
  tile?: number;
}
/** What the original answered to a segment test; an output it did not write for that answer is left out. */
export interface SegmentExpect {
  /** SEG_GETS_THROUGH, SEG_STOPPED or SEG_START_NOT_OPEN. */
  result: number;
  depth?: number;
  point?: [number, number, number];
  normal?: [number, number, number];
  tile?: number;
}
/** One call of the original and its answer, with the 1-based line of the trace it came from. */
export type TraceEntry =
  | { op: 'query'; pos: [number, number, number]; expect: QueryExpect; note?: string; line: number }
  | { op: 'segment'; from: [number, number, number]; to: [number, number, number]; expect: SegmentExpect; note?: string; line: number };

/** The optional first line of a trace: its kind, version and the database it was recorded on. */
export interface TraceHeader {
  trace: 'rugrats-col';
  version: 1;
  db?: string;
}

/** One output where the port's answer differs from the trace's. */
export interface TraceDifference {
  /** The trace line (1-based). */
  line: number;
  op: 'query' | 'segment';
  /** The call's coordinates: the point, or from then to. */
  input: number[];
  /** The output that differs: "result", "ceiling", "floor", "tile", "depth", "point" or "normal". */
  field: string;
  expected: unknown;
  /** The port's value, or "not written" when the port left that output alone. */
  actual: unknown;
}

/** The outcome of verifyTrace: how many entries matched, and the first differences. */
export interface TraceReport {
  entries: number;
  matches: number;
  mismatches: number;
  /** The first few differing fields, in trace order. */
  differences: TraceDifference[];
}

const isIntArray3 = (v: unknown): v is [number, number, number] =>
  Array.isArray(v) && v.length === 3 && v.every((n) => Number.isSafeInteger(n));

/**
 * Parses a conformance trace: JSON lines, an optional header line, then one call of the original per line,
 * `{"op":"query","pos":[x,y,z],"expect":{...}}` or `{"op":"segment","from":[...],"to":[...],"expect":{...}}`.
 * Blank lines and lines starting with '#' are skipped. Throws a FormatError (format TRACE_FORMAT) at the byte
 * offset of a bad line.
 */
export function parseTrace(text: string): { header?: TraceHeader; entries: TraceEntry[] } {
  const entries: TraceEntry[] = [];
  let header: TraceHeader | undefined;
  let offset = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const at = offset;
    offset += Buffer.byteLength(raw, 'utf8') + 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (jsonTooDeepAt(line, DEFAULT_LIMITS.jsonDepth) >= 0) throw new FormatError(TRACE_FORMAT, at, `line ${i + 1} nests JSON deeper than ${DEFAULT_LIMITS.jsonDepth} levels (limits.jsonDepth)`);
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new FormatError(TRACE_FORMAT, at, `line ${i + 1} is not JSON`);
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new FormatError(TRACE_FORMAT, at, `line ${i + 1} is not an object`);
    const bad = (what: string): never => {
      throw new FormatError(TRACE_FORMAT, at, `line ${i + 1}: ${what}`);
    };
    if ('trace' in v) {
      if (v.trace !== 'rugrats-col' || v.version !== 1) bad('unknown trace kind or version (want rugrats-col, 1)');
      header = { trace: 'rugrats-col', version: 1, ...(typeof v.db === 'string' ? { db: v.db } : {}) };
      continue;
    }
    const e = v.expect as Record<string, unknown> | undefined;
    if (!e || typeof e !== 'object') bad('missing "expect"');
    const result = e!.result;
    if (result !== 0 && result !== 1 && result !== 2) bad('"expect.result" must be 0, 1 or 2');
    const optInt = (k: string): number | undefined => {
      const x = e![k];
      if (x === undefined) return undefined;
      if (!Number.isSafeInteger(x)) bad(`"expect.${k}" must be an integer`);
      return x as number;
    };
    const optVec = (k: string): [number, number, number] | undefined => {
      const x = e![k];
      if (x === undefined) return undefined;
      if (!isIntArray3(x)) bad(`"expect.${k}" must be three integers`);
      return x as [number, number, number];
    };
    const note = typeof v.note === 'string' ? v.note : undefined;
    if (v.op === 'query') {
      if (!isIntArray3(v.pos)) bad('"pos" must be three integers');
      const ex: QueryExpect = { result: result as number };
      for (const k of ['ceiling', 'floor', 'tile'] as const) {
        const x = optInt(k);
        if (x !== undefined) ex[k] = x;
      }
      entries.push({ op: 'query', pos: v.pos as [number, number, number], expect: ex, ...(note ? { note } : {}), line: i + 1 });
    } else if (v.op === 'segment') {
      if (!isIntArray3(v.from) || !isIntArray3(v.to)) bad('"from" and "to" must be three integers each');
      const ex: SegmentExpect = { result: result as number };
      const depth = optInt('depth');
      if (depth !== undefined) ex.depth = depth;
      const tile = optInt('tile');
      if (tile !== undefined) ex.tile = tile;
      const point = optVec('point');
      if (point) ex.point = point;
      const normal = optVec('normal');
      if (normal) ex.normal = normal;
      entries.push({ op: 'segment', from: v.from as [number, number, number], to: v.to as [number, number, number], expect: ex, ...(note ? { note } : {}), line: i + 1 });
    } else bad('"op" must be "query" or "segment"');
  }
  return header ? { header, entries } : { entries };
}

/**
 * Runs every entry of a trace through the port's queryCol and segmentCol on `ix` and compares the answers.
 * `maxDifferences` bounds the differences kept in the report; every entry is still counted.
 */
export function verifyTrace(ix: ColIndex, entries: readonly TraceEntry[], maxDifferences = 5): TraceReport {
  const q = new Int32Array(4);
  const s = new Int32Array(SEGMENT_OUT_LENGTH);
  const report: TraceReport = { entries: entries.length, matches: 0, mismatches: 0, differences: [] };
  for (const e of entries) {
    const diffs: TraceDifference[] = [];
    if (e.op === 'query') {
      queryCol(ix, e.pos[0], e.pos[1], e.pos[2], q);
      const input = [...e.pos];
      const cmp = (field: string, expected: number | undefined, actual: number) => {
        if (expected !== undefined && expected !== actual) diffs.push({ line: e.line, op: 'query', input, field, expected, actual });
      };
      cmp('result', e.expect.result, q[0]!);
      cmp('ceiling', e.expect.ceiling, q[1]!);
      cmp('floor', e.expect.floor, q[2]!);
      cmp('tile', e.expect.tile, q[3]!);
    } else {
      s.fill(0);
      segmentCol(ix, e.from[0], e.from[1], e.from[2], e.to[0], e.to[1], e.to[2], s);
      const w = s[S_WRITTEN]!;
      const input = [...e.from, ...e.to];
      const cmp = (field: string, expected: unknown, actual: unknown, written: boolean) => {
        if (expected === undefined) return;
        const got = written ? actual : 'not written';
        if (JSON.stringify(expected) !== JSON.stringify(got)) diffs.push({ line: e.line, op: 'segment', input, field, expected, actual: got });
      };
      cmp('result', e.expect.result, s[S_RESULT], true);
      cmp('depth', e.expect.depth, s[S_DEPTH], (w & WROTE_DEPTH) !== 0);
      cmp('point', e.expect.point, [s[S_POINT], s[S_POINT + 1], s[S_POINT + 2]], (w & WROTE_POINT) !== 0);
      cmp('normal', e.expect.normal, [s[S_NORMAL], s[S_NORMAL + 1], s[S_NORMAL + 2]], (w & WROTE_NORMAL) !== 0);
      cmp('tile', e.expect.tile, s[S_TILE], (w & WROTE_TILE) !== 0);
    }
    if (diffs.length === 0) report.matches++;
    else {
      report.mismatches++;
      for (const d of diffs) if (report.differences.length < maxDifferences) report.differences.push(d);
    }
  }
  return report;
}

/** One trace line for an entry (used by the asset script and by tools that record traces). */
export function traceLine(e: Record<string, unknown>): string {
  return JSON.stringify(e);
}
