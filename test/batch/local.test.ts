/**
 * `retrosim batch` on its embedded default (local worker threads), as a user runs it: results the same
 * byte for byte on 1 and 2 threads, re-runs that run only new jobs, failures recorded after their retries,
 * kept replays that verify, the CSV and the report's chart, an interrupted batch picked up again, clear
 * errors, and no queue library loaded.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { PALETTE } from '../../src/batch/chart.js';
import { sha256Hex } from '../../src/batch/runner.js';
import { cli, killAll, repoRoot, runCliAsync, waitFor, writeBatch } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-batch-local-'));
afterAll(async () => {
  await killAll();
  rmSync(tmp, { recursive: true, force: true });
});

const rugrats = join(repoRoot, 'assets/worlds/rugrats/demo.col');
mkdirSync(join(tmp, 'in'), { recursive: true });
copyFileSync(rugrats, join(tmp, 'in', 'level.col'));
writeFileSync(join(tmp, 'in', 'broken.col'), readFileSync(rugrats).subarray(0, 80));
copyFileSync(join(repoRoot, 'examples/guards/guards.mjs'), join(tmp, 'in', 'guards.mjs'));

/** A small mixed batch: two worlds (one a file beside the batch), a scenario module, seeds, a broken world. */
const mixed = (seeds: number) => ({
  batch: 1,
  name: 'mixed',
  defaults: { frames: 150, measure: ['draws', 'los', 'events'] },
  sweep: [
    { world: ['level.col', 'piney-default'], agents: [6, 12], seed: { from: 1, count: seeds } },
    { world: 'level.col', scenario: 'guards.mjs', agents: 0, params: { guards: [2, 5] }, keepReplay: true },
  ],
  jobs: [{ world: 'broken.col', frames: 30 }],
});

const json = (s: string) => JSON.parse(s.trim().split('\n').pop()!) as Record<string, any>;
const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);

// A loaded machine (builds and tests beside these) can make a batch several times slower: generous timeouts.
describe('retrosim batch (local threads)', { timeout: 600_000 }, () => {
  const file = writeBatch(join(tmp, 'in'), 'mixed', mixed(2));
  const one = join(tmp, 'w1', 'mixed.jsonl');
  const two = join(tmp, 'w2', 'mixed.jsonl');

  it('1 and 2 threads write the same result lines, byte for byte; a broken world fails after its retry and the batch goes on', async () => {
    const [a, b] = await Promise.all([runCliAsync(['batch', file, '--workers', '1', '--out', one, '--json']), runCliAsync(['batch', file, '--workers', '2', '--out', two, '--json'])]);
    expect(a.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(a.code).toBe(1); // one job failed
    expect(b.code).toBe(1);
    const s = json(a.stdout);
    expect(s).toMatchObject({ mode: 'local', workers: 1, jobs: 11, ran: 11, cached: 0, done: 10, failed: 1, retried: 1, interrupted: false });
    expect(json(b.stdout)).toMatchObject({ workers: 2, done: 10, failed: 1, retried: 1 });
    expect(readFileSync(two)).toEqual(readFileSync(one));
    const ls = lines(one);
    expect(ls.map((l) => l['index'])).toEqual([...Array(11).keys()]);
    const failed = ls.filter((l) => l['status'] === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ index: 10, job: { world: 'file:broken.col' } });
    expect(failed[0]!['error']).toMatch(/^world: not a world file this runtime recognises/);
    // Two attempts (one retry), recorded in the timing file, not in the results.
    const timing = lines(one.replace('.jsonl', '.timing.jsonl'));
    expect(timing[10]).toMatchObject({ index: 10, attempts: 2, cached: false });
    expect(readFileSync(one, 'utf8')).not.toMatch(/attempts|seconds|perSecond/);
  });

  it('the results are what retrosim run gives for the same world, settings and frames', async () => {
    const l = lines(one).find((x) => x['job']['world'] === 'builtin:piney-default' && x['job']['agents'] === 12 && x['job']['seed'] === '2')!;
    const r = await runCliAsync(['run', '--agents', '12', '--seed', '2', '--frames', '150', '--no-replay', '--json']);
    expect(r.code).toBe(0);
    const run = json(r.stdout);
    expect(l['result']['finalHash']).toBe(run['finalHash']);
    expect(l['result']['draws']).toEqual(run['draws']);
    expect(l['result']['settings']).toEqual(run['settings']);
  });

  it('kept replays are written by key and verify with retrosim replay verify', async () => {
    const kept = lines(one).filter((l) => l['job']['keepReplay'] === true);
    expect(kept).toHaveLength(2);
    for (const l of kept) {
      const r = l['result']['replay'] as { file: string; sha256: string; bytes: number };
      expect(r.file).toBe(`replays/${l['key']}.replay`);
      const path = join(tmp, 'w1', r.file);
      expect(sha256Hex(new Uint8Array(readFileSync(path)))).toBe(r.sha256);
      const v = await runCliAsync(['replay', 'verify', path, '--world', join(tmp, 'in', 'level.col'), '--scenario', join(tmp, 'in', 'guards.mjs'), '--json']);
      expect(v.stderr).toBe('');
      expect(json(v.stdout)).toMatchObject({ ok: true, frames: 150, finalHash: l['result']['finalHash'] });
    }
  });

  it('a CSV for spreadsheets: one row per job, the job fields and the results as columns', () => {
    const csv = readFileSync(one.replace('.jsonl', '.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(12);
    const head = csv[0]!.split(',');
    for (const c of ['index', 'key', 'status', 'world', 'agents', 'seed', 'result.finalHash', 'result.los.pairsPerFrame', 'result.draws.fieldrand', 'error']) expect(head).toContain(c);
    const row = csv[1]!.split(',');
    expect(row[head.indexOf('result.finalHash')]).toBe(lines(one)[0]!['result']['finalHash']);
  });

  it('a re-run after adding seeds runs only the new jobs; --force runs them all; the lines match a fresh run', async () => {
    const grown = writeBatch(join(tmp, 'in'), 'grown', { ...mixed(3), name: 'mixed' });
    const out = join(tmp, 'w1', 'mixed.jsonl');
    const r = await runCliAsync(['batch', grown, '--workers', '2', '--out', out, '--json']);
    // 4 new jobs (a third seed on four settings), and the failed job again: failures are never reused.
    expect(json(r.stdout)).toMatchObject({ jobs: 15, cached: 10, ran: 5, done: 14, failed: 1 });
    const fresh = join(tmp, 'fresh', 'mixed.jsonl');
    const f = await runCliAsync(['batch', grown, '--workers', '2', '--out', fresh, '--json']);
    expect(json(f.stdout)).toMatchObject({ cached: 0, ran: 15 });
    expect(readFileSync(out)).toEqual(readFileSync(fresh));
    const forced = await runCliAsync(['batch', grown, '--workers', '2', '--out', out, '--force', '--json']);
    expect(json(forced.stdout)).toMatchObject({ cached: 0, ran: 15 });
    expect(readFileSync(out)).toEqual(readFileSync(fresh));
    // A kept replay that was deleted makes its job run again.
    const kept = lines(out).find((l) => l['job']['keepReplay'] === true)!;
    rmSync(join(tmp, 'w1', kept['result']['replay']['file']));
    const again = await runCliAsync(['batch', grown, '--workers', '2', '--out', out, '--json']);
    expect(json(again.stdout)).toMatchObject({ cached: 13, ran: 2 });
    expect(existsSync(join(tmp, 'w1', kept['result']['replay']['file']))).toBe(true);
  });

  it('an interrupted batch keeps what it finished and the next run picks up from there', async () => {
    const big = writeBatch(join(tmp, 'in'), 'long', { batch: 1, defaults: { frames: 400 }, sweep: { world: 'level.col', agents: 8, seed: { from: 1, count: 40 } } });
    const out = join(tmp, 'int', 'long.jsonl');
    const p = cli(['batch', big, '--workers', '1', '--out', out, '--json']);
    const journal = join(tmp, 'int', 'long.journal.jsonl');
    await waitFor('a finished job in the journal', () => existsSync(journal) && readFileSync(journal, 'utf8').includes('\n'));
    p.child.kill('SIGINT');
    expect(await p.exited).toBe(130);
    expect(p.stderr()).toContain('SIGINT: stopping');
    expect(existsSync(out)).toBe(false);
    const kept = readFileSync(journal, 'utf8').trim().split('\n').length;
    const r = await runCliAsync(['batch', big, '--workers', '2', '--out', out, '--json']);
    const s = json(r.stdout);
    expect(s['cached']).toBeGreaterThanOrEqual(kept);
    expect(s['cached'] + s['ran']).toBe(40);
    expect(existsSync(journal)).toBe(false);
    const fresh = join(tmp, 'int2', 'long.jsonl');
    await runCliAsync(['batch', big, '--workers', '2', '--out', fresh, '--json']);
    expect(readFileSync(out)).toEqual(readFileSync(fresh));
  });

  it('batch report prints the table and draws the chart: one line per world, in the palette\'s colours', async () => {
    const png = join(tmp, 'chart.png');
    const r = await runCliAsync(['batch', 'report', two, '--png', png, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rep = json(r.stdout);
    expect(rep['chart']).toMatchObject({ png, x: 'agents', y: 'los.pairsPerFrame', series: 'world', points: 10 });
    expect(rep['table']['columns'].slice(0, 3)).toEqual(['world', 'scenario', 'agents']);
    const img = PNG.sync.read(readFileSync(png));
    expect([img.width, img.height]).toEqual([900, 540]);
    const count = (c: readonly number[]) => {
      let n = 0;
      for (let i = 0; i < img.data.length; i += 4) if (img.data[i] === c[0] && img.data[i + 1] === c[1] && img.data[i + 2] === c[2]) n++;
      return n;
    };
    expect(count(PALETTE[0]!)).toBeGreaterThan(50);
    expect(count(PALETTE[1]!)).toBeGreaterThan(50);
    expect(count(PALETTE[2]!)).toBe(0); // two worlds, two lines
    const text = await runCliAsync(['batch', 'report', two, '--png', png]);
    expect(text.stdout).toMatch(/world\s+scenario\s+agents/);
    expect(text.stdout).toContain('params.guards');
    const bad = await runCliAsync(['batch', 'report', two, '--y', 'nothing.here']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^retrosim: --y nothing.here: no result has that numeric measure/);
  });

  it('errors are one line: usage (exit 2), a bad batch file naming the field (exit 1)', async () => {
    const bad = writeBatch(join(tmp, 'in'), 'bad', { batch: 1, sweep: { world: 'level.col', agents: [1, -2] } });
    const cases: [string[], number, RegExp][] = [
      [['batch'], 2, /batch needs a FILE/],
      [['batch', file, '--workers', '0'], 2, /--workers must be at least 1/],
      [['batch', file, '--workers', '2', '--redis', 'redis://127.0.0.1:1'], 2, /--workers is for the local threads/],
      [['batch', file, '--out', join(tmp, 'x.txt')], 2, /ends in \.jsonl/],
      [['batch', bad], 1, /bad\.json: sweep\.agents\[1\] must be an integer in 0\.\.100000, got -2/],
      [['batch', join(tmp, 'none.json')], 1, /none\.json: cannot read \(ENOENT\)/],
      [['batch', 'status'], 2, /batch status needs --redis URL/],
      [['batch', file, '--redis', 'http://x'], 2, /expected redis:\/\/host:port/],
      [['worker'], 2, /worker needs --redis URL/],
    ];
    writeFileSync(join(tmp, 'notjson.json'), '{"batch": 1,');
    cases.push([['batch', join(tmp, 'notjson.json')], 1, /notjson\.json: not JSON/]);
    for (const [args, code, msg] of cases) {
      const r = await runCliAsync(args);
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.stderr, args.join(' ')).toMatch(msg);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('the local path never loads bullmq or ioredis (the Redis path does: the guard is real)', async () => {
    const guard = join(tmp, 'guard.mjs');
    writeFileSync(
      guard,
      `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(\`export async function resolve(s, c, next) { if (/^(bullmq|ioredis)(\\\\/|$)/.test(s)) throw new Error('GUARD: ' + s + ' was loaded'); return next(s, c); }\`));\n`,
    );
    const { spawnSync } = await import('node:child_process');
    const node = (args: string[]) => spawnSync(process.execPath, ['--import', guard, 'bin/retrosim.js', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
    const small = writeBatch(join(tmp, 'in'), 'small', { batch: 1, jobs: [{ world: 'level.col', frames: 20, agents: 2 }] });
    const local = node(['batch', small, '--out', join(tmp, 'g', 'small.jsonl'), '--json']);
    expect(local.stderr).not.toContain('GUARD');
    expect(local.status).toBe(0);
    for (const other of [['run', '--frames', '10', '--no-replay', '--json'], ['batch', 'report', join(tmp, 'g', 'small.jsonl'), '--png', join(tmp, 'g', 's.png')]]) {
      const r = node(other);
      expect(r.stderr).not.toContain('GUARD');
      expect(r.status).toBe(0);
    }
    const redis = node(['batch', 'status', '--redis', 'redis://127.0.0.1:1', '--redis-timeout', '1']);
    expect(redis.stderr).toContain('GUARD: bullmq was loaded');
  });
});
