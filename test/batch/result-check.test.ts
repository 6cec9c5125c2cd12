/**
 * The coordinator's check of a worker's answer (result-check.ts), in this process: every result the runner
 * makes passes unchanged (real run and verify jobs, and any value of the runner's shape), and any change
 * of its text that makes it something the runner would not write (a line break, a key twice, a field more
 * or less, another type, another order, other spacing or notation, too deep, too large, cut short) is
 * refused with a ResultError, never another exception. Values that keep the shape but differ (another
 * hash) pass here: those are for the key to stop.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobStore } from '../../src/batch/blobs.js';
import { payloadBlobs, type RunPayload, type VerifyPayload } from '../../src/batch/payload.js';
import { planSpec } from '../../src/batch/plan.js';
import { checkKeptReplay, checkResultBody, checkWorkerReturn, MAX_RESULT_DEPTH, ResultError, scanJson } from '../../src/batch/result-check.js';
import { replayFileFor, runJob, sha256Hex } from '../../src/batch/runner.js';
import { checkBatchFile } from '../../src/batch/schema.js';
import { crc32 } from '../../src/binary/crc32.js';
import { WorkerEnv } from '../../src/batch/worker-env.js';
import { DEFAULT_LIMITS, RUNTIME_VERSION } from '../../src/index.js';
import { repoRoot } from './helpers.js';

const file = join(repoRoot, 'b.json');
const planned = await planSpec(
  checkBatchFile({ batch: 1, jobs: [{ world: 'rugrats-demo', agents: 6, seed: 'rc', frames: 90, measure: ['draws', 'events', 'los'], keepReplay: true }] }, file, 'b'),
  file,
);
const runPayload = planned.jobs[0]!.payload as RunPayload;

async function run(p: RunPayload | VerifyPayload, blobs: BlobStore) {
  const env = new WorkerEnv();
  for (const ref of payloadBlobs(p)) env.blobs.set(ref.sha256, blobs.get(ref.sha256));
  return runJob(p, env);
}

const runOut = await run(runPayload, planned.blobs);
const runBody = JSON.stringify(runOut.body);
const replay = runOut.replay!;

function verifyPayload(bytes: Uint8Array, blobs: BlobStore): VerifyPayload {
  return { kind: 'verify', key: 'a'.repeat(64), runtime: RUNTIME_VERSION, runtimeHash: runPayload.runtimeHash, file: 'kept.replay', replay: blobs.add(bytes), world: runPayload.world, scenario: null };
}
const vBlobs = new BlobStore();
vBlobs.add(planned.blobs.get(runPayload.world.parts[0]!.blob.sha256));
const vPayload = verifyPayload(replay, vBlobs);
const verifyBody = JSON.stringify((await run(vPayload, vBlobs)).body);
// Frame 60's input word, in the first FRAM chunk (after HEAD and KEYF), changed and the CRC fixed: it diverges there.
const tampered = replay.slice();
const dv = new DataView(tampered.buffer);
let chunk = 12;
for (let i = 0; i < 2; i++) chunk += 12 + dv.getUint32(chunk + 4, true);
const len = dv.getUint32(chunk + 4, true);
const sections = (len - 8) / runPayload.frames / 4 - 5;
const word = chunk + 8 + 8 + 59 * (20 + 4 * sections);
dv.setUint32(word, dv.getUint32(word, true) === 0 ? 1 : 0, true);
dv.setUint32(chunk + 8 + len, crc32(tampered, chunk, chunk + 8 + len), true);
const dBlobs = new BlobStore();
dBlobs.add(planned.blobs.get(runPayload.world.parts[0]!.blob.sha256));
const dPayload = verifyPayload(tampered, dBlobs);
const divergedBody = JSON.stringify((await run(dPayload, dBlobs)).body);

const refused = (p: RunPayload | VerifyPayload, body: string) => {
  try {
    checkResultBody(p, body);
  } catch (e) {
    if (e instanceof ResultError) return e.message;
    throw e;
  }
  return null;
};

const HEX = '0123456789abcdef';
const hex = (n: number) => fc.string({ unit: fc.constantFrom(...HEX), minLength: n, maxLength: n });
const u32 = fc.nat({ max: 0xffffffff });
const text = fc.string({ unit: 'binary', maxLength: 12 });
const record = (v: fc.Arbitrary<unknown>) => fc.dictionary(fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }), v, { maxKeys: 4 });

/** Any value of the runner's shape for the run payload (draws, events, los and a kept replay). */
const runValue = fc
  .record({
    world: fc.record({ kind: text, name: text, source: fc.constant(runPayload.world.source), contentHash: hex(16).map((h) => `0x${h}`), byteLength: fc.nat() }),
    scenario: fc.record({ name: text, version: text, source: text, contentHash: hex(16).map((h) => `0x${h}`) }),
    settings: fc.record({ scenario: text, agents: fc.nat(), fieldSeed: u32, ccRandInit: fc.nat(), streamSeed: text, capacity: fc.nat(), params: record(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), text, fc.boolean())) }),
    agents: fc.nat(),
    frames: fc.constant(runPayload.frames),
    finalHash: hex(16).map((h) => `0x${h}`),
    draws: fc.record({ fieldrand: fc.nat(), ccrand: fc.nat(), streams: record(fc.nat()) }),
    events: fc.record({ death: fc.nat(), exit: fc.nat(), signal: fc.nat(), sound: fc.nat(), flash: fc.nat(), signals: record(fc.nat()) }),
    los: fc.record({ samples: fc.nat(), every: fc.nat(), agents: fc.nat(), pairs: fc.nat(), pairsPerFrame: fc.double({ noNaN: true, noDefaultInfinity: true }), perAgent: fc.double({ noNaN: true, noDefaultInfinity: true }), perAgentMax: fc.nat(), cast: fc.nat(), looks: fc.nat(), seesTarget: fc.double({ noNaN: true, noDefaultInfinity: true }) }),
    replay: fc.record({ file: fc.constant(replayFileFor(runPayload.key)), bytes: fc.nat(), sha256: hex(64) }),
  })
  .map((v) => v as Record<string, unknown>);

/** The objects of a run result whose fields are fixed (not the params, streams and signals records). */
const FIXED = [[], ['world'], ['scenario'], ['settings'], ['draws'], ['events'], ['los'], ['replay']];
const at = (v: Record<string, unknown>, path: string[]) => path.reduce((o, k) => o[k] as Record<string, unknown>, v);
const clone = (v: Record<string, unknown>) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
/** Every leaf (a non-object value) by its path. */
function leaves(v: unknown, path: string[] = [], out: string[][] = []): string[][] {
  if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) leaves(x, [...path, k], out);
  else out.push(path);
  return out;
}
/** The text of `v` with the value at `path` written as `raw` (any text). */
function withRaw(v: Record<string, unknown>, path: string[], raw: string): string {
  const mark = '\u0000mark\u0000';
  const c = clone(v);
  at(c, path.slice(0, -1))[path[path.length - 1]!] = mark;
  return JSON.stringify(c).replace(JSON.stringify(mark), raw);
}

/** Positions (UTF-16 indices) outside strings around structural characters, and of letters inside strings. */
function positions(t: string): { structural: number[]; letters: number[] } {
  const structural: number[] = [];
  const letters: number[] = [];
  for (let i = 0, inString = false; i < t.length; i++) {
    const ch = t[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      else if (/[a-z]/.test(ch)) letters.push(i);
    } else if (ch === '"') inString = true;
    else if ('{}[],:'.includes(ch)) structural.push(i, i + 1);
  }
  return { structural, letters };
}

/** Changes of a result's text that the runner never makes; each must be refused. */
const mutation = (v: Record<string, unknown>): fc.Arbitrary<[string, string]> => {
  const t = JSON.stringify(v);
  const { structural, letters } = positions(t);
  const ls = leaves(v);
  const objs = FIXED.filter((p) => p.length === 0 || v[p[0]!] !== undefined);
  return fc.oneof(
    fc.tuple(fc.constantFrom(...structural), fc.constantFrom(' ', '\t', '\n', '\r')).map(([i, w]) => [`whitespace ${JSON.stringify(w)} at ${i}`, t.slice(0, i) + w + t.slice(i)] as [string, string]),
    fc.nat({ max: t.length }).map((i) => [`a line break at ${i}`, t.slice(0, i) + '\n' + t.slice(i)] as [string, string]),
    fc.nat({ max: t.length - 1 }).map((i) => [`cut at ${i}`, t.slice(0, i)] as [string, string]),
    fc.constantFrom(...objs).map((p) => {
      const o = at(v, p);
      const k = Object.keys(o)[0]!;
      const raw = `{${JSON.stringify(k)}:${JSON.stringify(o[k])},${JSON.stringify(o).slice(1)}`;
      return [`${k} twice in ${p.join('.') || 'the result'}`, p.length ? withRaw(v, p, raw) : raw] as [string, string];
    }),
    fc.tuple(fc.constantFrom(...objs), fc.constantFrom('extra', 'mac', '__proto__', 'x')).map(([p, k]) => {
      const c = clone(v);
      Object.defineProperty(at(c, p), k, { value: 1, enumerable: true, configurable: true, writable: true });
      return [`a field ${k} in ${p.join('.') || 'the result'}`, JSON.stringify(c)] as [string, string];
    }),
    fc.constantFrom(...objs.flatMap((p) => Object.keys(at(v, p)).map((k) => [...p, k]))).map((p) => {
      const c = clone(v);
      delete at(c, p.slice(0, -1))[p[p.length - 1]!];
      return [`without ${p.join('.')}`, JSON.stringify(c)] as [string, string];
    }),
    fc.constantFrom(...ls.filter((p) => !['params'].includes(p[1]!))).map((p) => {
      const old = at(v, p.slice(0, -1))[p[p.length - 1]!];
      const raw = typeof old === 'string' ? '7' : typeof old === 'number' ? JSON.stringify(String(old)) : '"x"';
      return [`${p.join('.')} of another type`, withRaw(v, p, raw)] as [string, string];
    }),
    fc.constantFrom(...ls.filter((p) => Number.isInteger(at(v, p.slice(0, -1))[p[p.length - 1]!]))).chain((p) =>
      fc.constantFrom('.0', 'e0', 'E+0').map((suffix) => [`${p.join('.')} written with ${suffix}`, withRaw(v, p, `${at(v, p.slice(0, -1))[p[p.length - 1]!]}${suffix}`)] as [string, string]),
    ),
    fc.nat({ max: Object.keys(v).length - 2 }).map((i) => {
      const ks = Object.keys(v);
      [ks[i], ks[i + 1]] = [ks[i + 1]!, ks[i]!];
      return [`${ks[i]} and ${ks[i + 1]} swapped`, JSON.stringify(Object.fromEntries(ks.map((k) => [k, v[k]])))] as [string, string];
    }),
    fc.constantFrom(...letters).map((i) => [`\\u escape at ${i}`, t.slice(0, i) + `\\u00${t.charCodeAt(i).toString(16)}` + t.slice(i + 1)] as [string, string]),
    fc.constant(['over the size limit', withRaw(v, ['world', 'name'], JSON.stringify('n'.repeat(DEFAULT_LIMITS.batch.resultBytes)))] as [string, string]),
  );
};

describe('checking a worker result on the coordinator', () => {
  it('what the runner makes passes as it is: a run job with every measure and a kept replay, a verified replay, a diverged one', () => {
    expect(checkResultBody(runPayload, runBody).body).toBe(runBody);
    expect(checkResultBody(vPayload, verifyBody).body).toBe(verifyBody);
    expect(JSON.parse(divergedBody).ok).toBe(false);
    expect(checkResultBody(dPayload, divergedBody).body).toBe(divergedBody);
    expect(() => checkKeptReplay(JSON.parse(runBody), replay, { sha256: sha256Hex(replay), bytes: replay.length })).not.toThrow();
  });

  it('any value of the runner shape passes, its text the one the coordinator writes', () => {
    fc.assert(
      fc.property(runValue, (v) => {
        const t = JSON.stringify(v);
        expect(checkResultBody(runPayload, t)).toEqual({ value: JSON.parse(t), body: t });
      }),
      { numRuns: 300 },
    );
  });

  it('any change of the text the runner would not make is refused (a ResultError naming what)', () => {
    const cases = fc.oneof(fc.constant(runOut.body as Record<string, unknown>), runValue).chain((v) => mutation(v));
    fc.assert(
      fc.property(cases, ([what, t]) => {
        expect(refused(runPayload, t), what).not.toBeNull();
      }),
      { numRuns: 600 },
    );
    const v = JSON.parse(verifyBody) as Record<string, unknown>;
    fc.assert(
      fc.property(
        fc.constantFrom(...leaves(v)).map((p) => withRaw(v, p, '[]')),
        fc.constantFrom(...positions(verifyBody).structural),
        (t, i) => {
          expect(refused(vPayload, t)).not.toBeNull();
          expect(refused(vPayload, verifyBody.slice(0, i) + ' ' + verifyBody.slice(i))).not.toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refusals say what is wrong', () => {
    expect(refused(runPayload, runBody.replace('{"world":{', '{"world":{"kind":"x",'))).toMatch(/the key "kind" twice in one object/);
    expect(refused(runPayload, runBody.replace('{"world":{"kind"', '{"world":{"\\u006bind":"x","kind"'))).toMatch(/the key "kind" twice/);
    expect(refused(runPayload, runBody.replace('"agents":', '"agents":\n'))).toBe('the result holds a line break');
    expect(refused(runPayload, runBody.replace(/}$/, ',"extra":1}'))).toMatch(/should not have|order/);
    expect(refused(runPayload, runBody.replace(`"frames":${runPayload.frames}`, `"frames":${runPayload.frames + 1}`))).toMatch(/frames must be the job's 90/);
    expect(refused(runPayload, runBody.replace(replayFileFor(runPayload.key), replayFileFor('b'.repeat(64))))).toMatch(/replay\.file must be/);
    expect(refused({ ...runPayload, measure: ['draws'] }, runBody)).toMatch(/should not have|order/);
    expect(refused(runPayload, runBody.replace('"agents":', ' "agents":'))).toMatch(/not in the form the runner writes/);
    expect(refused(runPayload, 'x'.repeat(DEFAULT_LIMITS.batch.resultBytes + 1))).toMatch(/over the limit of 262144 bytes \(limits.batch.resultBytes\)/);
    expect(refused(runPayload, '['.repeat(100_000) + ']'.repeat(100_000))).toMatch(new RegExp(`nested deeper than ${MAX_RESULT_DEPTH} levels`));
    expect(refused(runPayload, runBody.replace(/"params":\{[^}]*\}/, `"params":{"p":${'['.repeat(20)}${']'.repeat(20)}}`))).toMatch(/nested deeper/);
    expect(refused(vPayload, verifyBody.replace('"ok":true', '"ok":false'))).toMatch(/divergence must be null exactly when ok/);
    expect(refused(vPayload, verifyBody.replace('"kept.replay"', '"other.replay"'))).toMatch(/not the job's replay/);
  });

  it('the strict scan: keys compared as decoded, at every depth, and deep text never overflows the stack', () => {
    expect(scanJson('{"a":{"b":[{"c":1,"c":2}]}}', 16)).toMatch(/"c" twice/);
    expect(scanJson('{"a":1,"b":{"a":1}}', 16)).toBeNull();
    expect(scanJson('{"a\\"":1,"a\\u0022":1}', 16)).toMatch(/twice/);
    expect(scanJson('{"k":"}","k2":"{"}', 16)).toBeNull();
    expect(scanJson('[{"a":1},{"a":1}]', 16)).toBeNull();
    expect(scanJson('{"a":[1,"a",2],"a":0}', 16)).toMatch(/"a" twice/);
    expect(scanJson('{"a":"x', 16)).toMatch(/unterminated/);
    expect(scanJson('[[[', 16)).toMatch(/unclosed/);
    expect(scanJson('{]', 16)).toMatch(/unbalanced/);
    expect(scanJson('['.repeat(1_000_000), 16)).toMatch(/deeper than 16/);
    expect(scanJson('['.repeat(16) + ']'.repeat(16), 16)).toBeNull();
  });

  it("a queue worker's return value is checked by type, and a kept replay against its result", () => {
    const good = { body: runBody, seconds: 0.5, framesPerSecond: 180, replay: { sha256: sha256Hex(replay), bytes: replay.length }, worker: 'w-1' };
    expect(checkWorkerReturn(good)).toEqual({ ...good, mac: null });
    expect(checkWorkerReturn({ ...good, mac: 'c'.repeat(64) }).mac).toBe('c'.repeat(64));
    const bad = (v: unknown) => expect(() => checkWorkerReturn(v)).toThrow(ResultError);
    bad(null);
    bad('text');
    bad({ ...good, body: 5 });
    bad({ ...good, seconds: -1 });
    bad({ ...good, seconds: '1' });
    bad({ ...good, framesPerSecond: null });
    bad({ ...good, worker: 'a\nb' });
    bad({ ...good, worker: 'x'.repeat(200) });
    bad({ ...good, replay: { sha256: 'z', bytes: 1 } });
    bad({ ...good, replay: { sha256: 'c'.repeat(64), bytes: DEFAULT_LIMITS.batch.replayBytes + 1 } });
    bad({ ...good, mac: 'short' });
    bad({ ...good, extra: 1 });
    const { worker: _w, ...noWorker } = good;
    bad(noWorker);
    const result = JSON.parse(runBody) as Record<string, unknown>;
    const other = replay.slice();
    other[0] ^= 1;
    expect(() => checkKeptReplay(result, other, good.replay)).toThrow(/does not have the bytes its result names/);
    expect(() => checkKeptReplay(result, replay.subarray(1), good.replay)).toThrow(ResultError);
    expect(() => checkKeptReplay(result, null, good.replay)).toThrow(/missing/);
    expect(() => checkKeptReplay(result, replay, { ...good.replay, bytes: 1 })).toThrow(/not the one its result names/);
    expect(() => checkKeptReplay(result, replay, null)).toThrow(/not the one its result names/);
    expect(() => checkKeptReplay(JSON.parse(verifyBody), replay, null)).toThrow(/keeps none/);
  });
});
