/**
 * The programs in examples/, run as a user runs them (Node on the built package, importing 'retrosim'), with
 * their output checked against the runtime's own answers.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROCESS_TIMEOUT_MS, repoRoot, runCli } from '../cli/run-cli.js';
import { readReplay } from '../../src/replay/format.js';
import { hashHex } from '../../src/ecs/state-hash.js';
import { loadWorld } from '../../src/node/world-files.js';
import { newSegmentResult } from '../../src/worlds/world.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-examples-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function node(args: string[]): { code: number; lines: Record<string, any>[]; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS });
  const lines = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);
  return { code: r.status ?? -1, lines, stderr: r.stderr };
}

const recordedHash = (file: string, frame: number): string => {
  const rp = readReplay(new Uint8Array(readFileSync(file)));
  return hashHex(rp.frames.hashHi[frame - 1]!, rp.frames.hashLo[frame - 1]!);
};

describe('examples/guards: a scenario of your own', () => {
  it('run-guards.mjs records, verifies and seeks the guards through the API, and they raise alarms', () => {
    const out = join(tmp, 'api.replay');
    const r = node(['examples/guards/run-guards.mjs', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [run, verify, seek] = r.lines as [Record<string, any>, Record<string, any>, Record<string, any>];
    expect(run.frames).toBe(1200);
    expect(run.alarms).toBeGreaterThan(0);
    expect(run.perGuard).toBe(run.alarms); // the component's counters and the events agree
    // Guards that lost sight of the player walked to where they last saw it, and some got there.
    expect(run.searches).toBeGreaterThan(0);
    expect(run.reached).toBeGreaterThan(0);
    expect(run.reached).toBeLessThanOrEqual(run.searches);
    expect(verify).toEqual({ verified: true, verifiedFrames: 1200, verifiedHash: run.finalHash });
    expect(seek.seekHash).toBe(recordedHash(out, 777));
    expect(seek.recordedHash).toBe(seek.seekHash);
    expect(seek.fromKeyframe).toBe(600);
  });

  it('the CLI runs the module (--scenario, --set), verifies and seeks its replay', () => {
    const out = join(tmp, 'cli.replay');
    const run = runCli(['run', '--scenario', 'examples/guards/guards.mjs', '--world', 'assets/worlds/rugrats/demo.col', '--set', 'guards=6', '--set', 'range=15', '--agents', '0', '--frames', '700', '--keyframes', '200', '--out', out, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const s = JSON.parse(run.stdout) as Record<string, any>;
    expect(s.scenario).toMatchObject({ name: 'guards', version: '1.0.0', source: 'file:examples/guards/guards.mjs' });
    expect(s.settings.params).toEqual({ guards: 6, range: 15, legFrames: 180, search: true });
    expect(s.signals.alarm).toBeGreaterThan(0);
    expect(s.events.signal).toBe(s.signals.alarm);
    const info = JSON.parse(runCli(['replay', 'info', out, '--json']).stdout) as Record<string, any>;
    expect(info.scenario.contentHash).toBe(s.scenario.contentHash);
    const v = runCli(['replay', 'verify', out, '--scenario', 'examples/guards/guards.mjs', '--json']);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ ok: true, frames: 700, finalHash: s.finalHash });
    const k = JSON.parse(runCli(['replay', 'seek', out, '--frame', '450', '--scenario', 'examples/guards/guards.mjs', '--json']).stdout) as { hash: string };
    expect(k.hash).toBe(recordedHash(out, 450));
  });

  it('the search (on by default) replays to the bit on one thread and on two; with search=false the run is the patrol-only one, frame by frame', () => {
    const on = join(tmp, 'search.replay');
    const run = runCli(['run', '--scenario', 'examples/guards/guards.mjs', '--world', 'rugrats-demo', '--set', 'guards=6', '--agents', '4', '--frames', '900', '--keyframes', '300', '--out', on, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const s = JSON.parse(run.stdout) as Record<string, any>;
    expect(s.settings.params).toEqual({ guards: 6, range: 12, legFrames: 180, search: true });
    for (const threads of ['1', '2']) {
      const v = runCli(['replay', 'verify', on, '--scenario', 'examples/guards/guards.mjs', '--threads', threads, '--json']);
      expect(v.stderr).toBe('');
      expect(JSON.parse(v.stdout)).toMatchObject({ ok: true, frames: 900, finalHash: s.finalHash });
    }
    // The guide's guards are the patrol-only example (its own files, unchanged): the same hash on every frame.
    const off = join(tmp, 'patrol-only.replay');
    const guide = join(tmp, 'guide-guards.replay');
    const args = ['--world', 'rugrats-demo', '--set', 'guards=6', '--agents', '0', '--frames', '600', '--json'];
    expect(runCli(['run', '--scenario', 'examples/guards/guards.mjs', '--set', 'search=false', ...args, '--out', off]).code).toBe(0);
    expect(runCli(['run', '--scenario', 'examples/guide/guards.mjs', ...args, '--out', guide]).code).toBe(0);
    const a = readReplay(new Uint8Array(readFileSync(off)));
    const b = readReplay(new Uint8Array(readFileSync(guide)));
    expect(a.frames.hashHi.length).toBe(600);
    expect(Buffer.from(a.frames.hashHi.buffer).equals(Buffer.from(b.frames.hashHi.buffer))).toBe(true);
    expect(Buffer.from(a.frames.hashLo.buffer).equals(Buffer.from(b.frames.hashLo.buffer))).toBe(true);
    // And the search changes the run: the same settings with it on give other hashes.
    const searching = JSON.parse(runCli(['run', '--scenario', 'examples/guards/guards.mjs', ...args, '--no-replay']).stdout) as { finalHash: string };
    expect(searching.finalHash).not.toBe(recordedHash(off, 600));
  });

  it('runs on a Llama level too, and is refused on a world kind it does not declare', () => {
    const ok = runCli(['run', '--scenario', 'examples/guards/guards.mjs', '--world', 'assets/worlds/llama/demo.trak', '--agents', '0', '--frames', '120', '--no-replay', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).world.kind).toBe('llama');
    const bad = runCli(['run', '--scenario', 'examples/guards/guards.mjs', '--frames', '5', '--no-replay']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('runs on rugrats, llama worlds, not on piney');
  });

  it('a replay of a module changed by one byte is refused up front, naming the module, both hashes and what changed', () => {
    const mod = join(tmp, 'guards.mjs');
    copyFileSync(join(repoRoot, 'examples/guards/guards.mjs'), mod);
    const out = join(tmp, 'changed.replay');
    const run = runCli(['run', '--scenario', mod, '--world', 'assets/worlds/rugrats/demo.col', '--agents', '0', '--frames', '60', '--out', out, '--json']);
    expect(run.code).toBe(0);
    const recorded = (JSON.parse(run.stdout) as Record<string, any>).scenario.contentHash as string;
    expect(runCli(['replay', 'verify', out, '--scenario', mod]).code).toBe(0);
    const bytes = readFileSync(mod);
    const i = bytes.indexOf('guards patrol');
    bytes[i] = 'G'.charCodeAt(0); // one byte of a string
    writeFileSync(mod, bytes);
    for (const sub of [['verify', out], ['seek', out, '--frame', '30']]) {
      const r = runCli(['replay', ...sub, '--scenario', mod]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('is not the module the replay was recorded with');
      expect(r.stderr).toContain(`with module graph ${recorded}`);
      expect(r.stderr).toMatch(/this file's graph is 0x[0-9a-f]{16}/);
      expect(r.stderr).not.toContain(`this file's graph is ${recorded}`);
      expect(r.stderr).toContain('guards.mjs changed');
      expect(r.stderr).toContain('nothing of it was run');
    }
    // The module it was recorded with, given with --scenario from anywhere (identity is by content), verifies.
    expect(runCli(['replay', 'verify', out, '--scenario', 'examples/guards/guards.mjs']).code).toBe(0);
    copyFileSync(join(repoRoot, 'examples/guards/guards.mjs'), mod);
    expect(runCli(['replay', 'verify', out, '--scenario', mod]).code).toBe(0);
  });
});

describe('examples/gta-queries', () => {
  it('prints the ground and line of sight the world itself answers', async () => {
    const r = node(['examples/gta-queries/gta-queries.mjs']);
    expect(r.code).toBe(0);
    const world = await loadWorld(join(repoRoot, 'assets/worlds/gta/town.col'));
    const grounds = r.lines.filter((l) => l['ground']);
    const segs = r.lines.filter((l) => l['segment']);
    expect(grounds.length).toBe(4);
    expect(segs.length).toBe(4);
    for (const g of grounds) {
      const a = world.ground(g['ground']);
      expect(g).toEqual({ ground: g['ground'], hasFloor: a.hasFloor, floor: a.hasFloor ? a.floor : null, material: a.material, face: a.id });
    }
    expect(grounds.some((g) => g['hasFloor'])).toBe(true);
    expect(grounds.some((g) => !g['hasFloor'])).toBe(true);
    for (const s of segs) {
      const [fx, fy, fz, tx, ty, tz] = s['segment'] as number[];
      const a = world.segment([fx!, fy!, fz!], [tx!, ty!, tz!], newSegmentResult());
      expect(s['visible']).toBe(!a.hit);
      expect(s['fraction']).toBe(a.fraction);
    }
    expect(segs.some((s) => s['visible'])).toBe(true);
    expect(segs.some((s) => !s['visible'])).toBe(true);
  });
});

describe('examples/typed', () => {
  it('compiles with strict TypeScript against the declarations and runs: its replay verifies, its synctest passes', () => {
    // Into a folder of this run's own (inside the repository, so that 'retrosim' resolves to it), never into
    // examples/typed/out where another run of the suite could be writing while this one runs the program.
    mkdirSync(join(repoRoot, 'out'), { recursive: true });
    const outDir = mkdtempSync(join(repoRoot, 'out', 'typed-'));
    try {
      const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'examples/typed', '--outDir', outDir], { cwd: repoRoot, encoding: 'utf8' });
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
      checkTypedRun(node([join(outDir, 'main.js')]));
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

/** The typed example's output: its replay verified, its synctest passed, a body stood on the ground. */
function checkTypedRun(r: { code: number; lines: Record<string, any>[]; stderr: string }): void {
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const out = r.lines[0]!;
  expect(out).toMatchObject({ world: 'llama', frames: 300, verified: true, synctestFailures: 0 });
  expect(out['verifiedHash']).toBe(out['hash']);
  expect(out['longestStanding']).toBeGreaterThan(0);
}

describe('examples/batch', () => {
  it('the line-of-sight sweep runs from a clone with no Redis, and its report draws the chart', () => {
    const out = join(tmp, 'batch', 'los-sweep.jsonl');
    // 24 jobs of 600 frames: a minute or more on a loaded machine, so a longer leash than runCli's.
    const b = spawnSync(process.execPath, ['bin/retrosim.js', 'batch', 'examples/batch/los-sweep.json', '--allow-dir', 'assets/worlds/gta', '--out', out, '--json'], { cwd: repoRoot, encoding: 'utf8', timeout: 600_000 });
    const r = { code: b.status ?? -1, stdout: b.stdout, stderr: b.stderr };
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as Record<string, any>;
    expect(s).toMatchObject({ name: 'los-sweep', mode: 'local', jobs: 24, done: 24, failed: 0 });
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(new Set(lines.map((l) => l.job.world))).toEqual(new Set(['builtin:rugrats-demo', 'builtin:piney-default', 'file:../../assets/worlds/gta/town.col']));
    // More agents, more pairs in sight: on every world, the mean at 80 agents is above the mean at 10.
    const mean = (world: string, agents: number) => {
      const xs = lines.filter((l) => l.job.world === world && l.job.agents === agents).map((l) => l.result.los.pairsPerFrame as number);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    for (const w of ['builtin:rugrats-demo', 'builtin:piney-default', 'file:../../assets/worlds/gta/town.col']) expect(mean(w, 80)).toBeGreaterThan(mean(w, 10));
    const rep = runCli(['batch', 'report', out, '--json']);
    expect(rep.code).toBe(0);
    expect(JSON.parse(rep.stdout).chart).toMatchObject({ x: 'agents', y: 'los.pairsPerFrame', series: 'world', points: 24 });
  }, 600_000);
});

describe('examples/netplay: two bots and a referee through a relay in the program', () => {
  it('two-bots.mjs ends every client on frame 300 with one hash, identical replays that verify, and no desync', () => {
    const r = node(['examples/netplay/two-bots.mjs']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [out] = r.lines as [Record<string, any>];
    expect(out).toMatchObject({ frames: 300, sameHash: true, desyncs: 0, replaysIdentical: true, verified: true });
    expect(out.finalHash).toMatch(/^0x[0-9a-f]{16}$/);
  });
});
