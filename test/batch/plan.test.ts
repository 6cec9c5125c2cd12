/**
 * Planning a batch: job keys change with every input a result depends on and with nothing else, inputs
 * are named by their bytes, replay globs expand in a fixed order, and a replay that cannot be verified is
 * a failed job rather than the end of the batch.
 */
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandReplayPattern } from '../../src/batch/glob.js';
import { canonicalJson, planSpec } from '../../src/batch/plan.js';
import type { RunPayload } from '../../src/batch/payload.js';
import { BatchFileError, checkBatchFile } from '../../src/batch/schema.js';
import { sha256Hex } from '../../src/batch/runner.js';
import { repoRoot } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-plan-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const rugrats = readFileSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'));
writeFileSync(join(tmp, 'a.col'), rugrats);
writeFileSync(join(tmp, 'same.col'), rugrats);
const changed = Buffer.from(rugrats);
changed[changed.length - 1] ^= 1;
writeFileSync(join(tmp, 'changed.col'), changed);

async function keyOf(job: Record<string, unknown>): Promise<string> {
  const file = join(tmp, 'b.json');
  const p = await planSpec(checkBatchFile({ batch: 1, jobs: [job] }, file, 'b'), file);
  return p.jobs[0]!.key;
}

describe('batch plan', () => {
  const base = { world: 'a.col', agents: 5, seed: 'x', frames: 100 };

  it('the same job has the same key; each input the result depends on changes it', async () => {
    const k = await keyOf(base);
    expect(await keyOf({ ...base })).toBe(k);
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    const variants: Record<string, unknown>[] = [
      { ...base, agents: 6 },
      { ...base, seed: 'y' },
      { ...base, frames: 101 },
      { ...base, fieldSeed: 9 },
      { ...base, ccRandInit: 1 },
      { ...base, capacity: 64 },
      { ...base, input: 'idle' },
      { ...base, measure: ['los'] },
      { ...base, keepReplay: true },
      { ...base, scenario: 'wander' }, // the default scenario named: the same job, see below
      { ...base, world: 'changed.col' },
      // Same bytes under another name: results record the source as written, so the key covers it.
      { ...base, world: 'same.col' },
    ];
    const keys = await Promise.all(variants.map(keyOf));
    // Naming the world's default scenario is the same job (the plan names it either way).
    expect(keys[9]).toBe(k);
    keys.splice(9, 1);
    expect(new Set([k, ...keys]).size).toBe(variants.length);
  });

  it('the line-of-sight interval changes the key only of a job that measures line of sight', async () => {
    expect(await keyOf({ ...base, losEvery: 30 })).toBe(await keyOf(base));
    const los = { ...base, measure: ['los'] };
    expect(await keyOf({ ...los, losEvery: 30 })).not.toBe(await keyOf(los));
  });

  it('inputs are named by the SHA-256 of their bytes; a Llama TRAK brings its MAP, GTA its placements', async () => {
    const file = join(repoRoot, 'b.json');
    const p = await planSpec(checkBatchFile({ batch: 1, jobs: [{ world: 'assets/worlds/llama/demo.trak' }, { world: 'assets/worlds/gta/town.col' }, { world: 'piney-default' }] }, file, 'b'), file);
    const [llama, gta, piney] = p.jobs.map((j) => (j.payload as RunPayload).world);
    expect(llama!.parts.map((x) => x.role)).toEqual(['main', 'map']);
    expect(llama!.parts[1]!.blob.sha256).toBe(sha256Hex(new Uint8Array(readFileSync(join(repoRoot, 'assets/worlds/llama/demo.map')))));
    expect(gta!.parts.map((x) => x.role)).toEqual(['main', 'placements']);
    expect(piney).toMatchObject({ source: 'builtin:piney-default', name: 'default.field.json' });
    expect((p.jobs[2]!.payload as RunPayload).scenario).toEqual({ builtin: 'piney-field' });
    for (const w of [llama!, gta!, piney!]) for (const part of w.parts) expect(sha256Hex(p.blobs.get(part.blob.sha256))).toBe(part.blob.sha256);
  });

  it('canonical JSON sorts keys at every level (property)', () => {
    let ran = 0;
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.string(), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer()))), (o) => {
        ran++;
        const reversed = Object.fromEntries(Object.entries(o).reverse().map(([k, v]) => [k, typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse()) : v]));
        expect(canonicalJson(reversed)).toBe(canonicalJson(o));
        expect(JSON.parse(canonicalJson(o))).toEqual(o);
      }),
      { numRuns: 100 },
    );
    expect(ran).toBe(100);
  });

  it('errors up front name the field: a missing world file, an unknown scenario, a bad parameter, a world the scenario refuses', async () => {
    const plan = async (job: Record<string, unknown>) => {
      const file = join(repoRoot, 'b.json');
      try {
        await planSpec(checkBatchFile({ batch: 1, jobs: [{ world: 'rugrats-demo' }, job] }, file, 'b'), file);
      } catch (e) {
        expect(e).toBeInstanceOf(BatchFileError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(await plan({ world: 'nowhere.col' })).toMatch(/jobs\[1\]\.world cannot read .*nowhere\.col \(ENOENT\)/);
    expect(await plan({ world: 'rugrats-demo', scenario: 'wandr' })).toContain('jobs[1].scenario "wandr" is not a built-in scenario');
    expect(await plan({ world: 'rugrats-demo', params: { speed: 2 } })).toContain('jobs[1].params');
    expect(await plan({ world: 'rugrats-demo', scenario: 'piney-field' })).toContain('jobs[1].scenario piney-field runs on piney worlds, not on rugrats-demo');
  });
});

describe('replay globs', () => {
  const root = join(tmp, 'g');
  for (const f of ['a.replay', 'b.replay', 'c.txt', 'sub/d.replay', 'sub/deep/e.replay', 'sub/x1.replay', 'sub/x22.replay']) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), f);
  }
  const ex = (p: string) => expandReplayPattern(p, root, 1000);

  it('a folder is its .replay files; * and ? stay within a segment; ** spans folders; results sorted', () => {
    expect(ex('.')).toEqual(['./a.replay', './b.replay']);
    expect(ex('sub')).toEqual(['sub/d.replay', 'sub/x1.replay', 'sub/x22.replay']);
    expect(ex('*.replay')).toEqual(['a.replay', 'b.replay']);
    expect(ex('sub/x?.replay')).toEqual(['sub/x1.replay']);
    expect(ex('**/*.replay')).toEqual(['a.replay', 'b.replay', 'sub/d.replay', 'sub/deep/e.replay', 'sub/x1.replay', 'sub/x22.replay']);
    expect(ex('sub/**')).toEqual(['sub/d.replay', 'sub/deep/e.replay', 'sub/x1.replay', 'sub/x22.replay']);
    expect(ex('a.replay')).toEqual(['a.replay']);
    expect(ex('nothing/*.replay')).toEqual([]);
    expect(() => ex('missing.replay')).toThrow(/cannot read missing.replay \(ENOENT\)/);
    expect(() => expandReplayPattern('**/*.replay', root, 5)).toThrow(/visits more than 5 folder entries \(limits.batch.globEntries\)/);
  });

  it('a wildcard never enters a symlinked folder (a loop is not walked); a folder named literally may be one; a symlinked file matches', () => {
    const links = join(tmp, 'g-links');
    for (const f of ['a.replay', 'sub/d.replay', 'sub/deep/e.replay']) {
      mkdirSync(join(links, f, '..'), { recursive: true });
      writeFileSync(join(links, f), f);
    }
    symlinkSync('.', join(links, 'loop'));
    symlinkSync('..', join(links, 'sub', 'up'));
    symlinkSync('sub', join(links, 'linked'));
    symlinkSync('sub/d.replay', join(links, 'ln.replay'));
    // 9 entries in all (5 at the top, 3 in sub, 1 in sub/deep; a ** lists a folder twice): following the
    // links, the loops have no end and the walk went on to any entry limit.
    const walk = (p: string) => expandReplayPattern(p, links, 100);
    expect(walk('**/*.replay')).toEqual(['a.replay', 'ln.replay', 'sub/d.replay', 'sub/deep/e.replay']);
    expect(walk('**')).toEqual(['a.replay', 'ln.replay', 'sub/d.replay', 'sub/deep/e.replay']);
    expect(walk('*/*.replay')).toEqual(['sub/d.replay']);
    expect(walk('*/**/*.replay')).toEqual(['sub/d.replay', 'sub/deep/e.replay']);
    // Named literally, a symlinked folder is listed (a batch still confines where it leads: files.test.ts).
    expect(walk('linked')).toEqual(['linked/d.replay']);
    expect(walk('linked/*.replay')).toEqual(['linked/d.replay']);
    expect(walk('sub/up/*.replay')).toEqual(['sub/up/a.replay', 'sub/up/ln.replay']);
  });

  it('a corrupt replay becomes a failed job with the reader\'s message; the others are planned', async () => {
    const dir = join(tmp, 'v');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'junk.replay'), 'not a replay at all');
    const file = join(dir, 'b.json');
    const p = await planSpec(checkBatchFile({ batch: 1, jobs: [{ world: 'rugrats-demo', frames: 5 }], verify: { replays: '*.replay' } }, file, 'b'), file);
    expect(p.jobs).toHaveLength(2);
    expect(p.jobs[1]).toMatchObject({ kind: 'verify', payload: null, job: { replay: 'junk.replay' } });
    expect(p.jobs[1]!.error).toMatch(/^replay/);
  });
});
