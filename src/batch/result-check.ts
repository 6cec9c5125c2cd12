/**
 * A worker's answer is outside data: anyone who can write to the queue can complete a job with any return
 * value. The coordinator checks each one before it is used, on the queue path and the local path alike:
 *
 * - the result body: at most limits.batch.resultBytes, no line break, no object key twice at any depth
 *   (JSON.parse would keep the last one silently: `scanJson` looks first), at most MAX_RESULT_DEPTH deep,
 *   JSON, the schema of what the runner makes for that job (its fields, their types, its frames, measures
 *   and kept replay matching the job), and exactly the canonical text of the checked value. The text the
 *   coordinator writes is the one it serialises itself from that value (`CheckedResult.body`).
 * - the rest of a queue worker's return value (timing, worker name, kept replay reference), by type;
 * - a kept replay's bytes, against the SHA-256 and byte count the result gives and limits.batch.replayBytes.
 *
 * Values that fit the schema but are wrong (another hash, another count) cannot be seen here: a key (auth.ts)
 * keeps parties without it from answering at all.
 */
import { DEFAULT_LIMITS, type Limits } from '../index.js';
import type { JobPayload, RunPayload, VerifyPayload } from './payload.js';
import { replayFileFor, sha256Hex } from './runner.js';

/** Deepest nesting of arrays and objects a result may have (the runner's deepest is 5). */
export const MAX_RESULT_DEPTH = 16;

/** A worker's answer that is refused: the message says what is wrong with it. */
export class ResultError extends Error {
  override readonly name = 'ResultError';
}

/** A result body checked against its job: the value, and its text as the coordinator writes it. */
export interface CheckedResult {
  value: Record<string, unknown>;
  body: string;
}

/**
 * Looks through JSON text without building it: a repeated object key (compared as decoded, so "a" and
 * "\u0061" are the same key) or nesting deeper than `maxDepth` is reported, as is text that is plainly not
 * JSON (an unterminated string, an unbalanced bracket). Null when none of these is found; the text still
 * has to parse. Iterative: deep text cannot overflow the stack.
 */
export function scanJson(text: string, maxDepth: number): string | null {
  const stack: (Set<string> | null)[] = [];
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      if (i >= text.length) return 'an unterminated string';
      const top = stack[stack.length - 1];
      if (keyNext && top) {
        let key: unknown;
        try {
          key = JSON.parse(text.slice(start, i + 1));
        } catch {
          return `a malformed key at character ${start}`;
        }
        if (top.has(key as string)) return `the key ${JSON.stringify(key).slice(0, 80)} twice in one object`;
        top.add(key as string);
        keyNext = false;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (stack.length >= maxDepth) return `nested deeper than ${maxDepth} levels`;
      stack.push(c === 0x7b ? new Set() : null);
      keyNext = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      const top = stack.pop();
      if (top === undefined || (top === null) !== (c === 0x5d)) return `an unbalanced ${String.fromCharCode(c)} at character ${i}`;
      keyNext = false;
    } else if (c === 0x2c) {
      keyNext = stack[stack.length - 1] instanceof Set;
    } else if (c === 0x3a) {
      keyNext = false;
    }
  }
  return stack.length ? 'an unclosed object or array' : null;
}

/** Checks a result body for its job; see the module comment. Throws ResultError saying what is wrong. */
export function checkResultBody(p: JobPayload, body: unknown, limits: Readonly<Limits> = DEFAULT_LIMITS): CheckedResult {
  if (typeof body !== 'string') throw new ResultError('the result is not text');
  const max = limits.batch.resultBytes;
  // Characters bound bytes from below: a huge text is refused before it is measured or scanned.
  if (body.length > max || Buffer.byteLength(body) > max) throw new ResultError(`the result is over the limit of ${max} bytes (limits.batch.resultBytes)`);
  if (/[\n\r]/.test(body)) throw new ResultError('the result holds a line break');
  const scan = scanJson(body, MAX_RESULT_DEPTH);
  if (scan) throw new ResultError(`the result has ${scan}`);
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch (e) {
    throw new ResultError(`the result is not JSON (${(e as Error).message.slice(0, 200)})`);
  }
  const value = p.kind === 'run' ? runResult(p, v) : verifyResult(p, v);
  const text = JSON.stringify(value);
  if (text !== body) throw new ResultError('the result is not in the form the runner writes (spacing, key order, number or string notation)');
  return { value, body: text };
}

/** A queue worker's return value with its fields checked by type (the body is checked by checkResultBody). */
export interface CheckedReturn {
  body: string;
  seconds: number;
  framesPerSecond: number;
  replay: { sha256: string; bytes: number } | null;
  worker: string;
  mac: string | null;
}

const WORKER_NAME = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;
const SHA = /^[0-9a-f]{64}$/;
const MAC = /^[0-9a-f]{64}$/;
const HASH64 = /^0x[0-9a-f]{16}$/;

/** Checks a queue worker's return value by type; see the module comment. */
export function checkWorkerReturn(v: unknown, limits: Readonly<Limits> = DEFAULT_LIMITS): CheckedReturn {
  const bad = (what: string): never => {
    throw new ResultError(`the worker's return value: ${what}`);
  };
  const o = exact(v, 'it', ['body', 'seconds', 'framesPerSecond', 'replay', 'worker'], ['mac'], bad);
  if (typeof o['body'] !== 'string') bad('body must be text');
  for (const k of ['seconds', 'framesPerSecond'] as const) {
    const x = o[k];
    if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) bad(`${k} must be a number of at least 0`);
  }
  if (typeof o['worker'] !== 'string' || !WORKER_NAME.test(o['worker'])) bad('worker must be a worker name (1 to 128 letters, digits, ".", "_", ":", "@" or "-")');
  let replay: CheckedReturn['replay'] = null;
  if (o['replay'] !== null) {
    const r = exact(o['replay'], 'replay', ['sha256', 'bytes'], [], bad);
    if (typeof r['sha256'] !== 'string' || !SHA.test(r['sha256'])) bad('replay.sha256 must be 64 hex digits');
    const n = r['bytes'];
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n > limits.batch.replayBytes) bad(`replay.bytes must be an integer in 0..${limits.batch.replayBytes} (limits.batch.replayBytes)`);
    replay = { sha256: r['sha256'] as string, bytes: n as number };
  }
  const mac = o['mac'];
  if (mac !== undefined && (typeof mac !== 'string' || !MAC.test(mac))) bad('mac must be 64 hex digits');
  return { body: o['body'] as string, seconds: o['seconds'] as number, framesPerSecond: o['framesPerSecond'] as number, replay, worker: o['worker'] as string, mac: (mac as string | undefined) ?? null };
}

/**
 * Checks a kept replay against the checked result of its job (`result.replay`) and, on the queue path, the
 * reference the worker returned. Throws ResultError.
 */
export function checkKeptReplay(result: Record<string, unknown>, bytes: Uint8Array | null, ref?: { sha256: string; bytes: number } | null, limits: Readonly<Limits> = DEFAULT_LIMITS): void {
  const r = result['replay'] as { bytes: number; sha256: string } | undefined;
  if (!r || result['ok'] !== undefined) {
    // No replay kept (a verify job's "replay" is its input).
    if (bytes || ref) throw new ResultError('a kept replay for a job that keeps none');
    return;
  }
  if (ref !== undefined && (ref === null || ref.sha256 !== r.sha256 || ref.bytes !== r.bytes)) throw new ResultError('the kept replay named by the worker is not the one its result names');
  if (!bytes) throw new ResultError('the kept replay is missing');
  if (bytes.length > limits.batch.replayBytes) throw new ResultError(`the kept replay is over the limit of ${limits.batch.replayBytes} bytes (limits.batch.replayBytes)`);
  if (bytes.length !== r.bytes || sha256Hex(bytes) !== r.sha256) throw new ResultError('the kept replay does not have the bytes its result names');
}

type Bad = (what: string) => never;

function runResult(p: RunPayload, v: unknown): Record<string, unknown> {
  const bad: Bad = (what) => {
    throw new ResultError(`the result of a run job: ${what}`);
  };
  const m = new Set(p.measure);
  const keys = ['world', 'scenario', 'settings', 'agents', 'frames', 'finalHash'];
  if (m.has('draws')) keys.push('draws');
  if (m.has('events')) keys.push('events');
  if (m.has('los')) keys.push('los');
  if (p.keepReplay) keys.push('replay');
  const o = ordered(v, 'the result', keys, bad);
  const world = worldIdentity(o['world'], 'world', bad);
  if (world['source'] !== p.world.source) bad(`world.source is not the job's world (${p.world.source.slice(0, 200)})`);
  scenarioIdentity(o['scenario'], 'scenario', bad);
  settings(o['settings'], 'settings', bad);
  uint(o['agents'], 'agents', bad);
  if (o['frames'] !== p.frames) bad(`frames must be the job's ${p.frames}`);
  hash64(o['finalHash'], 'finalHash', bad);
  if (m.has('draws')) {
    const d = exact(o['draws'], 'draws', ['fieldrand', 'ccrand', 'streams'], [], bad);
    uint(d['fieldrand'], 'draws.fieldrand', bad);
    uint(d['ccrand'], 'draws.ccrand', bad);
    record(d['streams'], 'draws.streams', (x, w) => uint(x, w, bad), bad);
  }
  if (m.has('events')) {
    const e = exact(o['events'], 'events', ['death', 'exit', 'signal', 'sound', 'flash', 'signals'], [], bad);
    for (const k of ['death', 'exit', 'signal', 'sound', 'flash']) uint(e[k], `events.${k}`, bad);
    record(e['signals'], 'events.signals', (x, w) => uint(x, w, bad), bad);
  }
  if (m.has('los')) {
    const l = exact(o['los'], 'los', ['samples', 'every', 'agents', 'pairs', 'pairsPerFrame', 'perAgent', 'perAgentMax', 'cast', 'looks', 'seesTarget'], [], bad);
    for (const k of ['samples', 'every', 'agents', 'pairs', 'perAgentMax', 'cast', 'looks']) uint(l[k], `los.${k}`, bad);
    for (const k of ['pairsPerFrame', 'perAgent', 'seesTarget']) num(l[k], `los.${k}`, bad);
  }
  if (p.keepReplay) {
    const r = exact(o['replay'], 'replay', ['file', 'bytes', 'sha256'], [], bad);
    if (r['file'] !== replayFileFor(p.key)) bad(`replay.file must be ${replayFileFor(p.key)}`);
    uint(r['bytes'], 'replay.bytes', bad);
    if (typeof r['sha256'] !== 'string' || !SHA.test(r['sha256'])) bad('replay.sha256 must be 64 hex digits');
  }
  return o;
}

function verifyResult(p: VerifyPayload, v: unknown): Record<string, unknown> {
  const bad: Bad = (what) => {
    throw new ResultError(`the result of a verify job: ${what}`);
  };
  const o = ordered(v, 'the result', ['replay', 'world', 'scenario', 'settings', 'ok', 'frames', 'recordedFrames', 'finalHash', 'divergence', 'warnings'], bad);
  const r = ordered(o['replay'], 'replay', ['file', 'bytes', 'sha256'], bad);
  if (r['file'] !== p.file || r['bytes'] !== p.replay.bytes || r['sha256'] !== p.replay.sha256) bad("replay is not the job's replay");
  worldIdentity(o['world'], 'world', bad);
  scenarioIdentity(o['scenario'], 'scenario', bad);
  settings(o['settings'], 'settings', bad);
  if (typeof o['ok'] !== 'boolean') bad('ok must be true or false');
  uint(o['frames'], 'frames', bad);
  uint(o['recordedFrames'], 'recordedFrames', bad);
  hash64(o['finalHash'], 'finalHash', bad);
  if ((o['divergence'] === null) !== o['ok']) bad('divergence must be null exactly when ok');
  if (o['divergence'] !== null) {
    const d = exact(o['divergence'], 'divergence', ['frame', 'expected', 'actual', 'fields', 'sections', 'rng', 'lastGoodKeyframe', 'detail'], [], bad);
    uint(d['frame'], 'divergence.frame', bad);
    str(d['expected'], 'divergence.expected', bad);
    str(d['actual'], 'divergence.actual', bad);
    strings(d['fields'], 'divergence.fields', bad);
    strings(d['sections'], 'divergence.sections', bad);
    if (!Array.isArray(d['rng'])) bad('divergence.rng must be a list');
    (d['rng'] as unknown[]).forEach((x, i) => {
      const g = exact(x, `divergence.rng[${i}]`, ['name', 'recorded', 'replayed'], [], bad);
      str(g['name'], `divergence.rng[${i}].name`, bad);
      uint(g['recorded'], `divergence.rng[${i}].recorded`, bad);
      uint(g['replayed'], `divergence.rng[${i}].replayed`, bad);
    });
    const k = d['lastGoodKeyframe'];
    if (typeof k !== 'number' || !Number.isSafeInteger(k) || k < -1) bad('divergence.lastGoodKeyframe must be an integer of at least -1');
    if (d['detail'] !== null) {
      const t = exact(d['detail'], 'divergence.detail', ['frame', 'differences', 'total'], [], bad);
      uint(t['frame'], 'divergence.detail.frame', bad);
      strings(t['differences'], 'divergence.detail.differences', bad);
      uint(t['total'], 'divergence.detail.total', bad);
    }
  }
  strings(o['warnings'], 'warnings', bad);
  return o;
}

function worldIdentity(v: unknown, what: string, bad: Bad): Record<string, unknown> {
  const w = exact(v, what, ['kind', 'name', 'source', 'contentHash', 'byteLength'], [], bad);
  for (const k of ['kind', 'name', 'source']) str(w[k], `${what}.${k}`, bad);
  hash64(w['contentHash'], `${what}.contentHash`, bad);
  uint(w['byteLength'], `${what}.byteLength`, bad);
  return w;
}

function scenarioIdentity(v: unknown, what: string, bad: Bad): void {
  const s = exact(v, what, ['name', 'version', 'source', 'contentHash'], [], bad);
  for (const k of ['name', 'version', 'source']) str(s[k], `${what}.${k}`, bad);
  hash64(s['contentHash'], `${what}.contentHash`, bad);
}

function settings(v: unknown, what: string, bad: Bad): void {
  // A replay of several players (format 4) records how many; one of one player does not.
  const s = exact(v, what, ['scenario', 'agents', 'fieldSeed', 'ccRandInit', 'streamSeed', 'capacity', 'params'], ['players'], bad);
  str(s['scenario'], `${what}.scenario`, bad);
  if (Object.hasOwn(s, 'players') && !(Number.isInteger(s['players']) && (s['players'] as number) >= 2 && (s['players'] as number) <= 4)) bad(`${what}.players must be 2..4 when given`);
  str(s['streamSeed'], `${what}.streamSeed`, bad);
  for (const k of ['agents', 'fieldSeed', 'ccRandInit', 'capacity']) uint(s[k], `${what}.${k}`, bad);
  record(
    s['params'],
    `${what}.params`,
    (x, w) => {
      if (typeof x === 'number' ? !Number.isFinite(x) : typeof x !== 'string' && typeof x !== 'boolean') bad(`${w} must be a number, string or boolean`);
    },
    bad,
  );
}

function object(v: unknown, what: string, bad: Bad): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(`${what} must be an object`);
  return v as Record<string, unknown>;
}

/** An object with exactly the `required` keys and any of the `optional` ones, in any order. */
function exact(v: unknown, what: string, required: string[], optional: string[], bad: Bad): Record<string, unknown> {
  const o = object(v, what, bad);
  for (const k of Object.keys(o)) if (!required.includes(k) && !optional.includes(k)) bad(`${what} has a field ${JSON.stringify(k).slice(0, 80)} it should not have`);
  for (const k of required) if (!Object.hasOwn(o, k)) bad(`${what} lacks ${k}`);
  return o;
}

/** An object with exactly `keys`, in that order (as the runner writes them). */
function ordered(v: unknown, what: string, keys: string[], bad: Bad): Record<string, unknown> {
  const o = exact(v, what, keys, [], bad);
  if (Object.keys(o).join(',') !== keys.join(',')) bad(`${what}'s fields must come in the order ${keys.join(', ')}`);
  return o;
}

function record(v: unknown, what: string, each: (x: unknown, what: string) => void, bad: Bad): void {
  for (const [k, x] of Object.entries(object(v, what, bad))) each(x, `${what}.${k}`);
}

function uint(v: unknown, what: string, bad: Bad): void {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) bad(`${what} must be an integer of at least 0`);
}

function num(v: unknown, what: string, bad: Bad): void {
  if (typeof v !== 'number' || !Number.isFinite(v)) bad(`${what} must be a number`);
}

function str(v: unknown, what: string, bad: Bad): void {
  if (typeof v !== 'string') bad(`${what} must be a string`);
}

function strings(v: unknown, what: string, bad: Bad): void {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) bad(`${what} must be a list of strings`);
}

function hash64(v: unknown, what: string, bad: Bad): void {
  if (typeof v !== 'string' || !HASH64.test(v)) bad(`${what} must be "0x" and 16 hex digits`);
}
