/**
 * A batch and its files, through the CLI:
 *  - a batch file reaches only its own folder: `..`, an absolute path and a symlink that points out, in
 *    every field that names a file (world, map, scenario, replays) and in the world a replay recorded, are
 *    refused naming the field, and allowed with --allow-dir;
 *  - a batch file or a results file nested 100,000 deep is a format error (exit 1), not a stack trace;
 *  - results, CSV, timing, kept replays and a command's --out are written without following a symlink
 *    planted at their path or at the temporary name the old writer used; a journal that is a symlink is
 *    refused. The files the symlinks point at stay untouched.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, repoRoot, runCliAsync, writeBatch } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-files-'));
const inside = join(tmp, 'batch');
const outside = join(tmp, 'secret');
afterAll(async () => {
  await killAll();
  rmSync(tmp, { recursive: true, force: true });
});

const asset = (p: string) => join(repoRoot, 'assets/worlds', p);

beforeAll(async () => {
  mkdirSync(inside, { recursive: true });
  mkdirSync(outside, { recursive: true });
  copyFileSync(asset('rugrats/demo.col'), join(inside, 'level.col'));
  copyFileSync(asset('llama/demo.trak'), join(inside, 'track.trak'));
  copyFileSync(asset('llama/demo.map'), join(inside, 'track.map'));
  copyFileSync(join(repoRoot, 'examples/guards/guards.mjs'), join(inside, 'guards.mjs'));
  // Not a shipped world's bytes (those are found by their content, wherever a replay says they were).
  copyFileSync(asset('colbin/demo-v1.colbin'), join(outside, 'secret.col'));
  copyFileSync(asset('llama/demo.map'), join(outside, 'secret.map'));
  copyFileSync(join(repoRoot, 'examples/guards/guards.mjs'), join(outside, 'secret.mjs'));
  symlinkSync('../secret/secret.col', join(inside, 'link.col'));
  symlinkSync(join(outside, 'secret.map'), join(inside, 'link.map'));
  symlinkSync('../secret/secret.mjs', join(inside, 'link.mjs'));
  symlinkSync('../secret/secret.replay', join(inside, 'link.replay'));
  symlinkSync(outside, join(inside, 'linkdir'));
  // Replays that recorded a world outside: by absolute path, and by a path relative to the current folder
  // (the CLI's, the repository), which verify used to look up there.
  const rec = async (world: string, out: string) => {
    const r = await runCliAsync(['run', '--world', world, '--frames', '5', '--agents', '2', '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
  };
  await rec(join(outside, 'secret.col'), join(outside, 'secret.replay'));
  copyFileSync(join(outside, 'secret.replay'), join(inside, 'rec-abs.replay'));
  await rec(relative(repoRoot, join(outside, 'secret.col')), join(inside, 'rec-rel.replay'));
}, 300_000);

/** Runs `retrosim batch FILE --json` with a results file of its own; the exit code, the JSON error, the results path. */
async function batch(file: string, extra: string[] = []): Promise<{ code: number; error: { kind: string; message: string } | null; results: string; stderr: string }> {
  const results = join(tmp, 'out', `${file.replace(/^.*[\\/]/, '').replace(/\.json$/, '')}-${extra.length}.jsonl`);
  const r = await runCliAsync(['batch', file, '--json', '--workers', '1', '--out', results, ...extra]);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  let error = null;
  try {
    error = (JSON.parse(last) as { error?: { kind: string; message: string } }).error ?? null;
  } catch {
    // not JSON: the assertions say what came out
  }
  return { code: r.code, error, results, stderr: r.stderr };
}

/** Runs many CLI calls a few at a time. */
async function inTurns<T, R>(items: T[], f: (t: T) => Promise<R>, atOnce = 3): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: atOnce }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!);
    }
  }));
  return out;
}

const job = { frames: 5, agents: 2 };
/** Each way out, per field: the batch entry, and the field its refusal names. */
const OUTS: { name: string; batch: Record<string, unknown>; where: string }[] = [];
for (const [form, world, map, scenario, replays] of [
  ['..', '../secret/secret.col', '../secret/secret.map', '../secret/secret.mjs', '../secret/secret.replay'],
  ['absolute', join(outside, 'secret.col'), join(outside, 'secret.map'), join(outside, 'secret.mjs'), join(outside, 'secret.replay')],
  ['symlink', 'link.col', 'link.map', 'link.mjs', 'link.replay'],
] as const) {
  OUTS.push({ name: `world ${form}`, batch: { batch: 1, jobs: [{ world, ...job }] }, where: 'jobs[0].world' });
  OUTS.push({ name: `map ${form}`, batch: { batch: 1, jobs: [{ world: 'track.trak', map, ...job }] }, where: 'jobs[0].map' });
  OUTS.push({ name: `scenario ${form}`, batch: { batch: 1, jobs: [{ world: 'level.col', scenario, frames: 5, agents: 0, params: { guards: 2 } }] }, where: 'jobs[0].scenario' });
  OUTS.push({ name: `replays ${form}`, batch: { batch: 1, verify: { replays } }, where: 'verify.replays' });
}
OUTS.push({ name: 'replays folder symlink', batch: { batch: 1, verify: { replays: 'linkdir' } }, where: 'verify.replays' });
OUTS.push({ name: 'replays glob over a folder symlink', batch: { batch: 1, verify: { replays: 'linkdir/*.replay' } }, where: 'verify.replays' });
OUTS.push({ name: 'verify world override', batch: { batch: 1, verify: { replays: 'rec-abs.replay', world: 'link.col' } }, where: 'verify.world' });
OUTS.push({ name: 'recorded world, absolute', batch: { batch: 1, verify: { replays: 'rec-abs.replay' } }, where: 'verify.replays (rec-abs.replay): its recorded world' });
OUTS.push({ name: 'recorded world, relative to the current folder', batch: { batch: 1, verify: { replays: 'rec-rel.replay' } }, where: 'verify.replays (rec-rel.replay): its recorded world' });

describe('a batch file reaches only its own folder', () => {
  it('each way out (.., an absolute path, a symlink; in world, map, scenario, replays and a replay\'s recorded world) is refused naming the field, and nothing is written', async () => {
    const files = OUTS.map((o, i) => writeBatch(inside, `out-${i}`, o.batch));
    const rs = await inTurns(files, (f) => batch(f));
    rs.forEach((r, i) => {
      const o = OUTS[i]!;
      expect(r.code, `${o.name}: ${r.stderr}`).toBe(1);
      expect(r.error?.kind, o.name).toBe('input');
      expect(r.error?.message, o.name).toContain(`${o.where} `);
      expect(r.error?.message, o.name).toMatch(/is outside the batch file's folder.*--allow-dir/);
      expect(r.stderr, o.name).not.toMatch(/\n\s+at /); // no stack trace
      expect(existsSync(r.results), o.name).toBe(false);
    });
  }, 600_000);

  it('--allow-dir lets every one of them through, and the jobs run', async () => {
    const runs = OUTS.filter((o) => o.batch['jobs']).map((o) => (o.batch['jobs'] as unknown[])[0]);
    const verify = OUTS.filter((o) => o.batch['verify']).map((o) => o.batch['verify']);
    const file = writeBatch(inside, 'allowed', { batch: 1, jobs: runs, verify });
    const refused = await batch(file);
    expect(refused.code).toBe(1);
    const r = await batch(file, ['--allow-dir', outside]);
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(r.results, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { status: string; kind: string; result?: { ok?: boolean } });
    expect(lines.length).toBe(runs.length + verify.length); // the folder symlink and its glob match the one replay each
    for (const l of lines) expect(l.status).toBe('done');
    for (const l of lines.filter((x) => x.kind === 'verify')) expect(l.result?.ok).toBe(true);
  }, 600_000);

  it('built-in worlds still come from the package, and an --allow-dir that is not a folder is a usage error', async () => {
    const ok = await batch(writeBatch(inside, 'builtin', { batch: 1, jobs: [{ world: 'rugrats-demo', ...job }] }));
    expect(ok.code, ok.stderr).toBe(0);
    const bad = await batch(writeBatch(inside, 'builtin2', { batch: 1, jobs: [{ world: 'rugrats-demo', ...job }] }), ['--allow-dir', join(tmp, 'nowhere')]);
    expect(bad.code).toBe(2);
    expect(bad.error?.message).toContain('--allow-dir');
  }, 300_000);
});

describe('deep nesting', () => {
  const D = 100_000;
  it('a batch file nested 100,000 deep is a format error (exit 1), without a stack trace', async () => {
    const file = join(inside, 'deep.json');
    writeFileSync(file, `{"batch":1,"jobs":[{"world":"rugrats-demo","frames":5,"params":{"x":${'['.repeat(D)}${']'.repeat(D)}}}]}`);
    const r = await batch(file);
    expect(r.code, r.stderr).toBe(1);
    expect(r.error?.kind).toBe('format');
    expect(r.error?.message).toMatch(/nested deeper than 64 levels.*limits\.jsonDepth/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 300_000);

  it('a results file nested 100,000 deep: batch report, and a batch that would take it for its cache, give a format error', async () => {
    const deep = `${'{"a":'.repeat(D)}1${'}'.repeat(D)}`;
    const results = join(tmp, 'deep-results.jsonl');
    writeFileSync(results, `{"index":0,"key":"${'0'.repeat(64)}","kind":"run","status":"done","job":{"agents":1},"result":${deep}}\n`);
    const rep = await runCliAsync(['batch', 'report', results, '--json']);
    expect(rep.code, rep.stderr).toBe(1);
    expect((JSON.parse(rep.stdout.trim()) as { error: { kind: string; message: string } }).error).toMatchObject({ kind: 'format', message: expect.stringMatching(/line 1: JSON nested deeper than 64 levels/) });
    expect(rep.stderr).not.toMatch(/\n\s+at /);
    const file = writeBatch(inside, 'cached', { batch: 1, jobs: [{ world: 'rugrats-demo', ...job }] });
    const run = await runCliAsync(['batch', file, '--json', '--workers', '1', '--out', results]);
    expect(run.code, run.stderr).toBe(1);
    expect((JSON.parse(run.stdout.trim()) as { error: { kind: string } }).error.kind).toBe('format');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 300_000);
});

describe('earlier results are checked, not trusted', () => {
  it('a results file or journal line that is not a result of its job is not taken from the cache: the job runs again', async () => {
    const file = writeBatch(inside, 'cache', { batch: 1, jobs: [{ world: 'rugrats-demo', ...job }, { world: 'rugrats-demo', ...job, agents: 3 }] });
    const first = await batch(file);
    expect(first.code, first.stderr).toBe(0);
    const honest = readFileSync(first.results, 'utf8');
    const [a, b] = honest.trim().split('\n');
    // An extra field, and a body of another shape; both keep their job's key.
    writeFileSync(first.results, `${a!.replace(/}}$/, ',"bonus":"x"}}')}\n${b!.replace(/"result":\{.*\}}$/, '"result":{"forged":true}}')}\n`);
    const again = await batch(file);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(first.results, 'utf8')).toBe(honest);
  }, 300_000);
});

describe('outputs are not written through a planted symlink', () => {
  /** Runs the CLI from a shell that plants symlinks first and then becomes the CLI (same process id, so the old writer's `<path>.<pid>.tmp` names are known). */
  function plantedRun(links: { at: string; to: string }[], args: string[]): { code: number; stdout: string; stderr: string } {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const plant = links.map((l) => `ln -s ${q(l.to)} ${q(l.at)} && ln -s ${q(l.to)} ${q(l.at)}.$$.tmp`).join(' && ');
    const r = spawnSync('sh', ['-c', `${plant} && exec ${q(process.execPath)} bin/retrosim.js ${args.map(q).join(' ')}`], { cwd: repoRoot, encoding: 'utf8', timeout: 600_000 });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  }
  const VICTIM = 'must stay untouched\n';
  function victims(n: number): string[] {
    const dir = join(tmp, 'victims');
    mkdirSync(dir, { recursive: true });
    return Array.from({ length: n }, (_, i) => {
      const p = join(dir, `v${Date.now()}-${i}`);
      writeFileSync(p, VICTIM);
      return p;
    });
  }

  it('results, CSV, timing and a kept replay replace the symlink at their path (and at the old temporary names); the files they pointed at are untouched', async () => {
    const file = writeBatch(inside, 'keep', { batch: 1, jobs: [{ world: 'rugrats-demo', ...job, keepReplay: true }] });
    // A first run elsewhere names the kept replay (by key, the same for any results path).
    const first = await batch(file);
    expect(first.code, first.stderr).toBe(0);
    const replayRel = (JSON.parse(readFileSync(first.results, 'utf8').trim()) as { result: { replay: { file: string } } }).result.replay.file;
    const out = join(tmp, 'planted');
    mkdirSync(join(out, 'replays'), { recursive: true });
    const targets = [join(out, 'keep.jsonl'), join(out, 'keep.csv'), join(out, 'keep.timing.jsonl'), join(out, replayRel)];
    const vs = victims(targets.length);
    const r = plantedRun(targets.map((at, i) => ({ at, to: vs[i]! })), ['batch', file, '--json', '--workers', '1', '--out', join(out, 'keep.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
    for (const v of vs) expect(readFileSync(v, 'utf8')).toBe(VICTIM);
    for (const t of targets) expect(lstatSync(t).isSymbolicLink(), t).toBe(false);
    expect(readFileSync(targets[0]!, 'utf8')).toMatch(/^\{"index":0,/);
    expect(readFileSync(targets[3]!).subarray(0, 4).toString('latin1')).not.toBe(VICTIM.slice(0, 4));
    // No temporary file is left beside them.
    expect(readdirSync(out).filter((n) => n.endsWith('.tmp') && !lstatSync(join(out, n)).isSymbolicLink())).toEqual([]);
  }, 300_000);

  it('a journal that is a symlink is refused with a clear error, and the file it points at is untouched', async () => {
    const file = writeBatch(inside, 'journal', { batch: 1, jobs: [{ world: 'rugrats-demo', ...job }] });
    const out = join(tmp, 'planted-journal');
    mkdirSync(out, { recursive: true });
    const [v] = victims(1);
    symlinkSync(v!, join(out, 'journal.journal.jsonl'));
    const r = await runCliAsync(['batch', file, '--json', '--workers', '1', '--out', join(out, 'journal.jsonl')]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/journal\.jsonl: the batch journal is a symbolic link; refusing to write through it/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(v!, 'utf8')).toBe(VICTIM);
  }, 300_000);

  it('a replays folder that is a symlink is refused: no kept replay lands where it points', async () => {
    const file = writeBatch(inside, 'keepdir', { batch: 1, jobs: [{ world: 'rugrats-demo', ...job, keepReplay: true }] });
    const out = join(tmp, 'planted-replays');
    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(out, { recursive: true });
    mkdirSync(elsewhere, { recursive: true });
    symlinkSync(elsewhere, join(out, 'replays'));
    const r = await runCliAsync(['batch', file, '--json', '--workers', '1', '--out', join(out, 'keepdir.jsonl')]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(elsewhere)).toEqual([]);
    const line = JSON.parse(readFileSync(join(out, 'keepdir.jsonl'), 'utf8').trim()) as { status: string; error: string };
    expect(line.status).toBe('failed');
    expect(line.error).toMatch(/replays: a symbolic link; refusing to write kept replays through it/);
  }, 300_000);

  it("a command's --out (retrosim run's replay) replaces a symlink planted at it or at the old temporary name", () => {
    const out = join(tmp, 'planted-out');
    mkdirSync(out, { recursive: true });
    const [v] = victims(1);
    const target = join(out, 'run.replay');
    const r = plantedRun([{ at: target, to: v! }], ['run', '--world', 'assets/worlds/rugrats/demo.col', '--frames', '5', '--agents', '2', '--out', target, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(v!, 'utf8')).toBe(VICTIM);
    expect(lstatSync(target).isSymbolicLink()).toBe(false);
    expect(readFileSync(target).length).toBeGreaterThan(VICTIM.length);
  }, 300_000);

  it("ambient's --trace refuses a symlink at its path", async () => {
    const [v] = victims(1);
    const trace = join(tmp, 'planted-trace.jsonl');
    symlinkSync(v!, trace);
    const r = await runCliAsync(['ambient', '--seed', '5', '--type', '2', '--row', '0', '--frames', '5', '--trace', trace, '--json']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain('is a symbolic link; refusing to write through it');
    expect(readFileSync(v!, 'utf8')).toBe(VICTIM);
  }, 300_000);
});
