/**
 * Determinism in a fourth engine: Bun, whose JavaScriptCore has its own Math, number printing and JIT (the
 * browser test covers V8 in Chromium and SpiderMonkey in Firefox). Bun 1.4.5 is a devDependency, so it is
 * required here: a missing or broken binary fails with what to do (`npm ci`), never a skip.
 *
 * 1. The replays of the browser test (determinism-cases.ts: the default scenario and the demo worlds),
 *    recorded in Node, re-simulated in Bun through the compiled runtime: every frame's hash = Node's.
 * 2. Replays recorded by Node's CLI (the default scenario, Rugrats, the GTA town, and a scenario module of
 *    one's own in a folder with no retrosim installed) verify in Bun: the CLI (`bun bin/retrosim.js replay
 *    verify`) and `verifyReplay` through the public API, with Node's final hash; Bun records the same bytes.
 *
 * Bun runs shut in (bun.ts: runBun): no auto-install, a temporary HOME and caches, no network it needs.
 */
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hex64, readReplay } from '../../src/replay/format.js';
import { BUTTON_MASK } from '../../src/systems/input.js';
import { ROOT, bunCandidates, findBun, pinnedBunVersion, runBun, type BunBinary, type BunRun } from './bun.js';
import { CASES, recordInNode, resimulateInNode } from './determinism-cases.js';

const CLI = join(ROOT, 'bin', 'retrosim.js');

let bun: BunBinary;
let home: string;

/** `bun <args>`, which must exit 0 (else the failure shows its output). */
async function bunOk(args: string[], cwd = ROOT): Promise<BunRun> {
  const r = await runBun(bun, args, { cwd, home });
  expect(r.code, `bun ${args.join(' ')} exited ${r.code}${r.signal ? ` (${r.signal})` : ''}:\n${r.stderr}${r.stdout}`).toBe(0);
  return r;
}

/** `node <args>` in `cwd`, which must exit 0; its stdout. */
function nodeOk(args: string[], cwd = ROOT): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd, timeout: 600_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`node ${args.join(' ')}: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** The JSON lines a process printed. */
const jsonLines = <T>(out: string): T[] => out.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as T);

beforeAll(() => {
  bun = findBun();
  if (!existsSync(join(ROOT, 'dist', 'src', 'index.js'))) throw new Error('dist/ is not built: run `node scripts/build.mjs` (npm test builds first)');
  home = mkdtempSync(join(tmpdir(), 'retrosim-bun-'));
});

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

test('a missing, broken or other-version bun fails, naming each place tried and saying to run npm ci', () => {
  const fake = join(home, 'fake-bun');
  writeFileSync(fake, '#!/bin/sh\necho 0.0.1\n');
  chmodSync(fake, 0o755);
  const broken = join(home, 'broken-bun');
  writeFileSync(broken, 'not a program');
  chmodSync(broken, 0o755);
  const missing = join(home, 'no-such-bun');
  let message = '';
  try {
    findBun(process.platform === 'win32' ? [missing] : [missing, broken, fake]);
  } catch (e) {
    message = (e as Error).message;
  }
  expect(message).toContain('run `npm ci`');
  expect(message).toContain(`${missing}: missing`);
  if (process.platform !== 'win32') {
    expect(message).toContain(`${broken}: does not run`);
    expect(message).toContain(`${fake}: version "0.0.1", package.json pins ${pinnedBunVersion()}`);
  }
  // The places looked in: npm's link, then the platform package's binary (when the postinstall did not run).
  expect(bunCandidates('linux', 'x64')).toEqual([
    join(ROOT, 'node_modules', '.bin', 'bun'),
    join(ROOT, 'node_modules', 'bun', 'bin', 'bun.exe'),
    ...['bun-linux-x64', 'bun-linux-x64-baseline', 'bun-linux-x64-musl', 'bun-linux-x64-musl-baseline'].map((p) => join(ROOT, 'node_modules', '@oven', p, 'bin', 'bun')),
  ]);
});

interface Resimulated {
  file: string;
  source: string;
  engine: { bun: string | null; webkit: string | null; jsc: boolean };
  initial: string;
  hashes: string[];
  firstDivergence: { frame: number; sections: string[] } | null;
}

describe('the same replay hashes the same on every frame in Node and Bun (JavaScriptCore)', () => {
  const recorded = new Map<string, Uint8Array>();
  const inBun = new Map<string, Resimulated>();

  beforeAll(async () => {
    const dir = join(home, 'cases');
    mkdirSync(dir);
    const files: string[] = [];
    for (const [i, c] of CASES.entries()) {
      const bytes = await recordInNode(c.source, c.agents, c.frames);
      recorded.set(c.source, bytes);
      const file = join(dir, `case-${i}.replay`);
      writeFileSync(file, bytes);
      files.push(file);
    }
    // One Bun process for all of them: each replay's world opened afresh, as the browsers do.
    const r = await bunOk([join(ROOT, 'test', 'engines', 'bun-resimulate.mjs'), ...files]);
    for (const line of jsonLines<Resimulated>(r.stdout)) inBun.set(line.source, line);
  });

  test('the engine is JavaScriptCore, in the Bun version package.json pins', () => {
    expect(inBun.size).toBe(CASES.length);
    for (const { engine } of inBun.values()) {
      expect(engine.bun).toBe(pinnedBunVersion());
      expect(engine.jsc, 'bun:jsc, JavaScriptCore’s own module').toBe(true);
      expect(engine.webkit).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  test.each(CASES)('$label', async ({ source, frames }) => {
    const bytes = recorded.get(source)!;
    const rp = readReplay(bytes, BUTTON_MASK);
    expect(rp.frames.count).toBe(frames);
    const want = Array.from({ length: frames }, (_, i) => hex64(rp.frames.hashHi[i]!, rp.frames.hashLo[i]!));
    // The run is not trivial: the state changes over the frames.
    expect(new Set(want).size).toBeGreaterThan(frames / 2);

    const node = await resimulateInNode(bytes);
    for (let f = 0; f < frames; f++) expect(node[f], `Node, frame ${f + 1}`).toBe(want[f]);

    const b = inBun.get(rp.header.world.source)!; // keyed by what the replay records (a shipped world's bytes: its id)
    expect(b, `Bun printed nothing for ${source}`).toBeDefined();
    expect(b.initial, 'Bun, frame 0').toBe(hex64(rp.keyframes[0]!.hashHi, rp.keyframes[0]!.hashLo));
    // Bun runs dist/ (the build), Node here the sources: after a change to src/, rebuild before blaming the engine.
    expect(b.firstDivergence, 'Bun: the first frame that differs and its hash sections (is dist/ built from these sources?)').toBeNull();
    expect(b.hashes.length).toBe(frames);
    // Frame by frame, so a failure names the first frame that differs.
    for (let f = 0; f < frames; f++) expect(b.hashes[f], `Bun, frame ${f + 1}`).toBe(want[f]);
  });
});

interface Summary {
  finalHash: string;
  frames: number;
}
interface Verified {
  ok: boolean;
  frames: number;
  keyframes: number;
  finalHash: string;
  threads?: number;
  divergence: unknown;
  warnings: string[];
}

describe('replays recorded by Node verify in Bun: the CLI and the public API', () => {
  /** Node's recordings: the file, the world it names, its scenario module (if any), and Node's final hash. */
  const runs: { label: string; file: string; world: string; scenario?: string; cwd: string; finalHash: string }[] = [];
  let scenarioDir: string;

  beforeAll(async () => {
    const dir = join(home, 'replays');
    mkdirSync(dir);
    const worlds = [
      { label: 'default scenario', world: 'piney-default' },
      { label: 'rugrats demo', world: 'rugrats-demo' },
      { label: 'gta town', world: 'assets/worlds/gta/town.col' },
    ];
    for (const w of worlds) {
      const file = join(dir, `${w.world.replace(/\W+/g, '-')}.replay`);
      const s = JSON.parse(await nodeOk([CLI, 'run', '--world', w.world, '--frames', '600', '--keyframes', '100', '--out', file, '--json'])) as Summary;
      expect(s.frames).toBe(600);
      runs.push({ ...w, file, cwd: ROOT, finalHash: s.finalHash });
    }
    // A scenario module of one's own, in a folder where no retrosim is installed: its `import 'retrosim'`
    // resolves only through the runtime that loads it (Node: module hooks; Bun: virtual modules).
    scenarioDir = join(home, 'my-scenario');
    mkdirSync(scenarioDir);
    copyFileSync(join(ROOT, 'examples', 'guards', 'guards.mjs'), join(scenarioDir, 'guards.mjs'));
    const args = ['run', '--scenario', 'guards.mjs', '--world', 'rugrats-demo', '--set', 'guards=6', '--frames', '600', '--keyframes', '100', '--json'];
    const s = JSON.parse(await nodeOk([CLI, ...args, '--out', 'node.replay'], scenarioDir)) as Summary;
    runs.push({ label: 'guards scenario module', file: join(scenarioDir, 'node.replay'), world: 'rugrats-demo', scenario: 'guards.mjs', cwd: scenarioDir, finalHash: s.finalHash });
  });

  test('bun bin/retrosim.js replay verify FILE --json: ok, with the final hash Node recorded', async () => {
    expect(runs.length).toBe(4);
    for (const r of runs) {
      const out = await bunOk([CLI, 'replay', 'verify', r.file, ...(r.scenario ? ['--scenario', r.scenario] : []), '--json'], r.cwd);
      const v = jsonLines<Verified>(out.stdout)[0]!;
      expect(v, `${r.label}: ${out.stdout}`).toMatchObject({ ok: true, frames: 600, keyframes: 7, finalHash: r.finalHash, divergence: null, warnings: [] });
    }
    // Two threads for the systems' range kernels (worker threads, in Bun too): the same answer.
    const rugrats = runs[1]!;
    const v2 = jsonLines<Verified>((await bunOk([CLI, 'replay', 'verify', rugrats.file, '--threads', '2', '--json'])).stdout)[0]!;
    expect(v2).toMatchObject({ ok: true, threads: 2, frames: 600, finalHash: rugrats.finalHash });
  });

  test('verifyReplay through the public API, in a script run by Bun: ok, with the final hash Node recorded', async () => {
    // One Bun process per folder the replays were recorded in (paths in them are relative to it).
    for (const cwd of new Set(runs.map((r) => r.cwd))) {
      const here = runs.filter((r) => r.cwd === cwd);
      const jobs = here.map((r) => ({ file: r.file, world: r.world, ...(r.scenario ? { scenario: r.scenario } : {}) }));
      const out = await bunOk([join(ROOT, 'test', 'engines', 'bun-verify.mjs'), JSON.stringify(jobs)], cwd);
      const lines = jsonLines<Verified>(out.stdout);
      expect(lines.length, out.stdout).toBe(here.length);
      for (const [i, r] of here.entries()) {
        expect(lines[i], `${r.label}: ${out.stdout}`).toMatchObject({ ok: true, frames: 600, keyframes: 7, finalHash: r.finalHash, divergence: null, warnings: [], seekVerified: true });
      }
    }
  });

  test('the CLI in Bun records the same replay bytes as in Node (scenario module included)', async () => {
    const guards = runs[3]!;
    const args = ['run', '--scenario', 'guards.mjs', '--world', 'rugrats-demo', '--set', 'guards=6', '--frames', '600', '--keyframes', '100', '--json', '--out', 'bun.replay'];
    const s = jsonLines<Summary>((await bunOk([CLI, ...args], scenarioDir)).stdout)[0]!;
    expect(s.finalHash).toBe(guards.finalHash);
    expect(Buffer.compare(readFileSync(join(scenarioDir, 'bun.replay')), readFileSync(guards.file)), 'the replay recorded in Bun = the one recorded in Node, byte for byte').toBe(0);

    const rugrats = runs[1]!;
    const file = join(home, 'replays', 'rugrats-in-bun.replay');
    await bunOk([CLI, 'run', '--world', 'rugrats-demo', '--frames', '600', '--keyframes', '100', '--out', file, '--json']);
    expect(Buffer.compare(readFileSync(file), readFileSync(rugrats.file))).toBe(0);
  });

  test('the guards example program prints the same in Bun as in Node (record, verify, seek through the API)', async () => {
    const script = join(ROOT, 'examples', 'guards', 'run-guards.mjs');
    const inNode = await nodeOk([script, join(home, 'guards-node.replay')]);
    const inBun = (await bunOk([script, join(home, 'guards-bun.replay')])).stdout;
    expect(jsonLines<{ verified?: boolean }>(inNode)[1]!.verified).toBe(true);
    expect(inBun).toBe(inNode);
  });

  test('Bun installed nothing: its install cache was never made', () => {
    expect(existsSync(join(home, 'install-cache'))).toBe(false);
    expect(existsSync(join(home, '.bun'))).toBe(false);
  });
});
