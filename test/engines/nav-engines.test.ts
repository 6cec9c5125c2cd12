/**
 * Navigation graphs are bit-identical on every engine and thread: nav-graph-hashes.mjs builds the graph of
 * each shipped world through the compiled runtime and finds paths on it (default and cheapest), in Node's main
 * thread, in a Node worker thread and in Bun (JavaScriptCore); the graphs' file hashes and the paths must be
 * equal. And a run of
 * agents walking to goals (nav-scenario.mjs) has the same hash on every frame in Node and in Bun.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ROOT, findBun, runBun, type BunBinary } from './bun.js';
import * as R from '../../src/core.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
// @ts-expect-error: a plain JavaScript module shared with the Bun run
import { runNav } from './nav-scenario.mjs';

const SCRIPT = join(ROOT, 'test', 'engines', 'nav-graph-hashes.mjs');
type Hashes = Record<string, { graph: string; nodes: number; edges: number; path: string | null; paths: string }>;

let bun: BunBinary;
let home: string;

beforeAll(() => {
  bun = findBun();
  if (!existsSync(join(ROOT, 'dist', 'src', 'core.js'))) throw new Error('dist/ is not built: run `node scripts/build.mjs` (npm test builds first)');
  home = mkdtempSync(join(tmpdir(), 'retrosim-bun-nav-'));
});

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

function inWorker(): Promise<Hashes> {
  return new Promise((resolve, reject) => {
    const w = new Worker(SCRIPT);
    w.once('message', (m: Hashes) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

test('the graphs of the five world kinds and a path on each: the same in Node, a Node worker thread and Bun', async () => {
  const { hashes } = (await import(SCRIPT)) as { hashes: () => Hashes };
  const node = hashes();
  expect(Object.keys(node)).toEqual(['rugrats-hand', 'llama-demo', 'colbin-demo', 'gta-town', 'piney-default']);
  for (const h of Object.values(node)) {
    expect(h.nodes).toBeGreaterThan(100);
    expect(h.edges).toBeGreaterThan(h.nodes);
  }
  expect(Object.values(node).filter((h) => h.path !== null).length).toBeGreaterThanOrEqual(4);
  // Paths found, and on some world a default path that is not the cheapest (the coarse layer was used).
  expect(Object.values(node).every((h) => h.paths.split(' ').length === 16)).toBe(true);
  expect(Object.values(node).some((h) => h.paths.split(' ').some((q, k, all) => k % 2 === 0 && q !== 'none' && q !== all[k + 1]))).toBe(true);
  const worker = await inWorker();
  expect(worker).toEqual(node);
  const r = await runBun(bun, [SCRIPT], { cwd: ROOT, home });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout.trim()) as Hashes).toEqual(node);
}, 600_000);

for (const id of ['colbin-demo', 'rugrats-demo']) {
  test(`${id}: agents walking to goals have the same hash on every frame in Node and in Bun`, async () => {
    const node = runNav(R, (await openBuiltinWorld(id)).world, 600) as { hashes: string[]; counts: { arrived: number; replans: number } };
    expect(node.counts.arrived).toBeGreaterThan(0);
    const r = await runBun(bun, [join(ROOT, 'test', 'engines', 'nav-run.mjs'), id, '600'], { cwd: ROOT, home });
    expect(r.code, r.stderr).toBe(0);
    const inBun = JSON.parse(r.stdout.trim()) as typeof node;
    expect(inBun.hashes.length).toBe(601);
    expect(inBun).toEqual(node);
  }, 300_000);
}
