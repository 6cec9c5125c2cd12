/**
 * Determinism across Node, Chromium and Firefox (V8 twice, then SpiderMonkey, whose Math and number printing
 * are its own): for the default scenario and each of the five demo worlds, a replay is recorded in Node, then
 * re-simulated from its settings and inputs in Node and in the page in both browsers (through the simulation
 * code the sandbox bundles: the session's replay player), and every frame's state hash is compared: each
 * browser = Node re-simulation = the hash recorded in the file.
 *
 * The other direction (a replay recorded in the page, verified in Node) is in sandbox.test.ts. The same
 * replays (test/engines/determinism-cases.ts) are re-simulated in Bun, JavaScriptCore, by test/engines/bun.test.ts.
 *
 * And the deterministic maths: test/engines/det-math-bits.mjs, bundled with the runtime's numeric modules,
 * runs in Node and in both pages, and every det* function's digest over the same 20,000-odd arguments is
 * the same in all three (Node against Bun: test/engines/det-math-engines.test.ts).
 *
 * And the Piney field's line of sight in WebAssembly: the page's world runs the kernel (`auto` takes it in
 * both browsers) and the replays hash the same; test/engines/piney-cast-wasm.mjs, bundled with the runtime's
 * sources, compares the kernel with the JavaScript cast on the same seeded segments in Node and both pages
 * (Node against Bun: test/engines/wasm-kernels-engines.test.ts). The same for the GTA town's walk
 * (gta-walk-page.mjs), the Rugrats line-of-sight walk (rugrats-walk-page.mjs, on the Rugrats levels) and line of
 * sight's pair walk (pair-walk-page.mjs, on seeded crowds): each kernel against its JavaScript walk, in Node and
 * both pages.
 *
 * And paths: nav-paths-page.mjs, bundled with the runtime's sources, finds paths on the Piney field's graph
 * (given as its file) by a default search (the coarse layer) and a cheapest one, in Node and both pages; every
 * path is the same node for node (Node against Bun: test/engines/nav-engines.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hex64, readReplay } from '../../src/replay/format.js';
import { BUTTON_MASK } from '../../src/systems/input.js';
import { wasmAutoChoiceFor } from '../../src/worlds/wasm-mode.js';
import { CASES, recordInNode, resimulateInNode } from '../engines/determinism-cases.js';
import { ROOT } from '../engines/bun.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { buildNavGraph } from '../../src/nav/graph.js';
import { writeNavGraph } from '../../src/nav/graph-file.js';
import { defaultNavBody } from '../../src/nav/walk.js';
import { openSandbox, openSandboxInFirefox, startFirefox, startHarness, type FirefoxHarness, type Harness } from './harness.js';

/** Either browser's page: both drivers evaluate a function with one serialisable argument. */
type AnyPage = Page | FirefoxPage;
const evaluate = <R, A>(page: AnyPage, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> =>
  (page as unknown as { evaluate(f: (arg: A) => R | Promise<R>, a: A): Promise<R> }).evaluate(fn, arg);

/** The page's re-simulation: loads the replay into the sandbox session and plays it, hash by hash. */
async function resimulateInPage(page: AnyPage, bytes: Uint8Array): Promise<{ hashes: string[]; matches: (boolean | null)[]; initial: string }> {
  // As base64: one string crosses the protocol, not an array of numbers.
  await evaluate(page, (b64: string) => window.retrosim.loadReplay(Array.from(atob(b64), (c) => c.charCodeAt(0))), Buffer.from(bytes).toString('base64'));
  return evaluate(page, () => {
    const r = window.retrosim;
    const initial = r.state()['hash'] as string;
    const hashes: string[] = [];
    const matches: (boolean | null)[] = [];
    const n = r.state()['replayLength'] as number;
    for (let i = 0; i < n; i++) {
      const m = r.playReplay(1);
      matches.push(...m);
      hashes.push(r.state()['hash'] as string);
    }
    return { hashes, matches, initial };
  }, undefined);
}

let h: Harness;
let ff: FirefoxHarness;
const pages: { name: string; page: AnyPage }[] = [];

beforeAll(async () => {
  h = await startHarness();
  const chromiumPage = await openSandbox(h, { world: 'piney-default', agents: '10' });
  ff = await startFirefox();
  const firefoxPage = await openSandboxInFirefox(ff, h.url, { world: 'piney-default', agents: '10' });
  pages.push({ name: 'Chromium', page: chromiumPage }, { name: 'Firefox', page: firefoxPage });
  for (const { page } of pages) await evaluate(page, () => window.retrosim.pause(), undefined);
});

afterAll(async () => {
  await ff?.close();
  await h?.close();
});

describe('the same replay hashes the same on every frame in Node, Chromium and Firefox', () => {
  test('the two browsers are two engines: Chromium (V8) and Firefox (SpiderMonkey)', async () => {
    const agents = await Promise.all(pages.map(({ page }) => evaluate(page, () => navigator.userAgent, undefined)));
    expect(agents[0]).toMatch(/Chrome\//);
    expect(agents[1]).toMatch(/Firefox\/\d+/);
    expect(agents[1]).not.toMatch(/Chrome/);
  });

  test.each(CASES)('$label', async ({ source, agents, frames }) => {
    const bytes = await recordInNode(source, agents, frames);
    const rp = readReplay(bytes, BUTTON_MASK);
    expect(rp.frames.count).toBe(frames);
    const recorded = Array.from({ length: frames }, (_, i) => hex64(rp.frames.hashHi[i]!, rp.frames.hashLo[i]!));
    // The run is not trivial: the state changes over the frames.
    expect(new Set(recorded).size).toBeGreaterThan(frames / 2);

    const node = await resimulateInNode(bytes);
    for (let f = 0; f < frames; f++) expect(node[f], `Node, frame ${f + 1}`).toBe(recorded[f]);
    for (const { name, page } of pages) {
      const inPage = await resimulateInPage(page, bytes);
      expect(inPage.initial, `${name}, frame 0`).toBe(hex64(rp.keyframes[0]!.hashHi, rp.keyframes[0]!.hashLo));
      expect(inPage.hashes.length).toBe(frames);
      // Frame by frame, so a failure names the browser and the first frame that differs.
      for (let f = 0; f < frames; f++) expect(inPage.hashes[f], `${name}, frame ${f + 1}`).toBe(recorded[f]);
      expect(inPage.matches.every((m) => m === true), `${name}: the page's own comparison`).toBe(true);
      const st = await evaluate(page, () => window.retrosim.state(), undefined);
      expect(st['source']).toBe(source);
      expect(st['desyncFrame']).toBe(-1);
      // The line of sight ran in WebAssembly where auto takes the world's kernel (each kernel's measured rule),
      // with these same hashes.
      const engine = name === 'Chromium' ? 'v8' : 'spidermonkey';
      const kernel = ({ piney: 'piney-cast', rugrats: 'rugrats-walk', gta: 'gta-walk' } as const)[st['kind'] as 'piney' | 'rugrats' | 'gta'];
      expect(st['wasm'], `${name}: the world's WebAssembly kernel`).toBe(kernel !== undefined && wasmAutoChoiceFor(kernel, true, engine));
    }
  });
});

/** What det-math-bits.mjs's `digests` returns. */
interface Digests {
  det: Record<string, string>;
  engine: Record<string, string>;
  powersOfTwoInexact: number;
}

/** det-math-bits.mjs with the runtime's numeric modules as one script that leaves `detMathBits` (its exports) behind. */
async function detMathBundle(): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: 'error',
    root: ROOT,
    resolve: { alias: { 'retrosim/core': join(ROOT, 'src', 'numeric', 'index.ts') } },
    build: { write: false, minify: false, lib: { entry: join(ROOT, 'test', 'engines', 'det-math-bits.mjs'), formats: ['iife'], name: 'detMathBits' } },
  });
  const result = Array.isArray(out) ? out[0]! : out;
  if (!('output' in result)) throw new Error('vite build gave no output');
  return result.output[0].code;
}

describe('the deterministic maths gives the same bits in Node, Chromium and Firefox', () => {
  test('every det* function, on the same arguments; 2 ** k exact', async () => {
    const code = await detMathBundle();
    const run = (c: string): Digests => {
      const m = new Function(`${c}; return detMathBits;`)() as { digests(det: unknown, math: Math, count: number): Digests; det: unknown };
      return m.digests(m.det, Math, 20000);
    };
    const inNode = run(code);
    expect(Object.keys(inNode.det)).toHaveLength(22);
    expect(inNode.powersOfTwoInexact).toBe(0);
    for (const { name, page } of pages) {
      const inPage = await evaluate(page, (c: string) => {
        const m = new Function(`${c}; return detMathBits;`)() as { digests(det: unknown, math: Math, count: number): Digests; det: unknown };
        return m.digests(m.det, Math, 20000);
      }, code);
      for (const f of Object.keys(inNode.det)) expect(inPage.det[f], `det ${f} in ${name}`).toBe(inNode.det[f]);
      expect(inPage.powersOfTwoInexact, `2 ** k in ${name}`).toBe(0);
    }
  });
});

/** What piney-cast-page.mjs's and rugrats-walk-page.mjs's `run` return. */
interface CastCompared {
  count: number;
  hits: number;
  mismatches: unknown[];
  digest: string;
  wasm: boolean;
  engine: string;
  auto: boolean;
}

/**
 * A page script (`entry` under test/browser/) with the runtime's sources as one script that leaves `global` (its
 * exports) behind; `world` names the world module its comparison imports as `retrosim/worlds/<world>`.
 */
async function kernelPageBundle(entry: string, global: string, world: 'piney' | 'rugrats' | 'gta' | null): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: 'error',
    root: ROOT,
    // The page's world module from the sources (none for a kernel that needs no world), and no Node modules.
    resolve: { alias: { ...(world === null ? {} : { [`retrosim/worlds/${world}`]: join(ROOT, 'src', 'worlds', world, 'collision-world.ts') }), retrosim: join(ROOT, 'test', 'browser', 'no-node.mjs') } },
    build: { write: false, minify: false, lib: { entry: join(ROOT, 'test', 'browser', entry), formats: ['iife'], name: global } },
  });
  const result = Array.isArray(out) ? out[0]! : out;
  if (!('output' in result)) throw new Error('vite build gave no output');
  return result.output[0].code;
}

describe("the Piney field's cast in WebAssembly gives the JavaScript's bits in Chromium and Firefox", () => {
  test('every segment of the same seeded batches, in Node and both pages; auto takes the kernel in both', async () => {
    const code = await kernelPageBundle('piney-cast-page.mjs', 'pineyCast', 'piney');
    const tables = readFileSync(join(ROOT, 'assets', 'piney', 'field-tables.json')).toString('base64');
    const inNode = (new Function(`${code}; return pineyCast;`)() as { run(t: string, n: number, s: number): CastCompared }).run(tables, 5000, 46);
    expect(inNode.mismatches).toEqual([]);
    expect(inNode.wasm).toBe(true);
    expect(inNode.hits).toBeGreaterThan(1000);
    for (const { name, page } of pages) {
      const inPage = await evaluate(page, ([c, t]: [string, string]) => (new Function(`${c}; return pineyCast;`)() as { run(t: string, n: number, s: number): CastCompared }).run(t, 5000, 46), [code, tables] as [string, string]);
      expect(inPage.wasm, `${name}: the kernel ran`).toBe(true);
      expect(inPage.mismatches, `${name}: segments whose answers differ`).toEqual([]);
      expect(inPage.digest, `${name}: the answers' digest against Node's`).toBe(inNode.digest);
      expect(inPage.engine).toBe(name === 'Chromium' ? 'v8' : 'spidermonkey');
      expect(inPage.auto, `${name}: auto`).toBe(true);
    }
  });
});

describe("the Rugrats walk in WebAssembly gives the JavaScript's bits in Chromium and Firefox", () => {
  test('every segment of the same seeded batches, in Node and both pages; auto takes the kernel in both', async () => {
    const code = await kernelPageBundle('rugrats-walk-page.mjs', 'rugratsWalk', 'rugrats');
    const levels = Object.fromEntries(['demo.col', 'hand.col'].map((f) => [f, readFileSync(join(ROOT, 'assets', 'worlds', 'rugrats', f)).toString('base64')]));
    type Run = { run(l: Record<string, string>, n: number, s: number): CastCompared };
    const inNode = (new Function(`${code}; return rugratsWalk;`)() as Run).run(levels, 5000, 47);
    expect(inNode.mismatches).toEqual([]);
    expect(inNode.wasm).toBe(true);
    expect(inNode.hits).toBeGreaterThan(1000);
    expect(inNode.hits).toBeLessThan(9000);
    for (const { name, page } of pages) {
      const inPage = await evaluate(page, ([c, l]: [string, Record<string, string>]) => (new Function(`${c}; return rugratsWalk;`)() as Run).run(l, 5000, 47), [code, levels] as [string, Record<string, string>]);
      expect(inPage.wasm, `${name}: the kernel ran`).toBe(true);
      expect(inPage.mismatches, `${name}: segments whose answers differ`).toEqual([]);
      expect(inPage.digest, `${name}: the answers' digest against Node's`).toBe(inNode.digest);
      expect(inPage.engine).toBe(name === 'Chromium' ? 'v8' : 'spidermonkey');
      expect(inPage.auto, `${name}: auto`).toBe(wasmAutoChoiceFor('rugrats-walk', true, name === 'Chromium' ? 'v8' : 'spidermonkey'));
    }
  });
});

describe("the GTA scene's walk in WebAssembly gives the JavaScript's bits in Chromium and Firefox", () => {
  test('every segment of the same seeded batches over three town scenes, in Node and both pages; auto by the measured rule', async () => {
    const code = await kernelPageBundle('gta-walk-page.mjs', 'gtaWalk', 'gta');
    const col = readFileSync(join(ROOT, 'assets', 'worlds', 'gta', 'town.col')).toString('base64');
    const text = readFileSync(join(ROOT, 'assets', 'worlds', 'gta', 'town.placements.json'), 'utf8');
    type Run = { run(c: string, t: string, n: number, s: number): CastCompared };
    const inNode = (new Function(`${code}; return gtaWalk;`)() as Run).run(col, text, 5000, 47);
    expect(inNode.mismatches).toEqual([]);
    expect(inNode.wasm).toBe(true);
    expect(inNode.hits).toBeGreaterThan(1000);
    expect(inNode.hits).toBeLessThan(14000);
    for (const { name, page } of pages) {
      const inPage = await evaluate(page, ([c, k, t]: [string, string, string]) => (new Function(`${c}; return gtaWalk;`)() as Run).run(k, t, 5000, 47), [code, col, text] as [string, string, string]);
      expect(inPage.wasm, `${name}: the kernel ran`).toBe(true);
      expect(inPage.mismatches, `${name}: segments whose answers differ`).toEqual([]);
      expect(inPage.digest, `${name}: the answers' digest against Node's`).toBe(inNode.digest);
      expect(inPage.engine).toBe(name === 'Chromium' ? 'v8' : 'spidermonkey');
      expect(inPage.auto, `${name}: auto`).toBe(wasmAutoChoiceFor('gta-walk', true, name === 'Chromium' ? 'v8' : 'spidermonkey'));
    }
  });
});

describe("line of sight's pair walk in WebAssembly gives the JavaScript's pairs in Chromium and Firefox", () => {
  test('every pair, segment and cursor of the same seeded crowds, in Node and both pages', async () => {
    const code = await kernelPageBundle('pair-walk-page.mjs', 'pairWalk', null);
    type Walks = { crowds: number; pairs: number; mismatches: unknown[]; digest: string; wasm: boolean; engine: string };
    type Run = { run(crowds: number, seed: number): Walks };
    const inNode = (new Function(`${code}; return pairWalk;`)() as Run).run(16, 53);
    expect(inNode.mismatches).toEqual([]);
    expect(inNode.wasm).toBe(true);
    expect(inNode.pairs).toBeGreaterThan(100_000);
    for (const { name, page } of pages) {
      const inPage = await evaluate(page, ([c]: [string]) => (new Function(`${c}; return pairWalk;`)() as Run).run(16, 53), [code] as [string]);
      expect(inPage.wasm, `${name}: the kernel compiled`).toBe(true);
      expect(inPage.mismatches, `${name}: walks whose pairs differ`).toEqual([]);
      expect(inPage.pairs).toBe(inNode.pairs);
      expect(inPage.digest, `${name}: the pairs' digest against Node's`).toBe(inNode.digest);
      expect(inPage.engine).toBe(name === 'Chromium' ? 'v8' : 'spidermonkey');
    }
  });
});

/** nav-paths-page.mjs with the runtime's sources as one script that leaves `navPaths` (its exports) behind. */
async function navPathsBundle(): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: 'error',
    root: ROOT,
    build: { write: false, minify: false, lib: { entry: join(ROOT, 'test', 'browser', 'nav-paths-page.mjs'), formats: ['iife'], name: 'navPaths' } },
  });
  const result = Array.isArray(out) ? out[0]! : out;
  if (!('output' in result)) throw new Error('vite build gave no output');
  return result.output[0].code;
}

describe('paths on a navigation graph are the same in Node, Chromium and Firefox', () => {
  test("the Piney field's graph: 60 pairs, by the coarse layer and by the cheapest search", async () => {
    const { world } = await openBuiltinWorld('piney-default');
    const graph = Buffer.from(writeNavGraph(buildNavGraph(world, defaultNavBody(world)))).toString('base64');
    const code = await navPathsBundle();
    type Paths = { paths: string[]; dearer: number };
    const inNode = (new Function(`${code}; return navPaths;`)() as { run(g: string, n: number): Paths }).run(graph, 60);
    expect(inNode.paths).toHaveLength(120);
    expect(inNode.paths.filter((p) => p !== 'none').length).toBeGreaterThan(60);
    // Some default paths went by the coarse layer and cost more than the cheapest.
    expect(inNode.dearer).toBeGreaterThan(0);
    for (const { name, page } of pages) {
      const inPage = await evaluate(page, ([c, g]: [string, string]) => (new Function(`${c}; return navPaths;`)() as { run(g: string, n: number): Paths }).run(g, 60), [code, graph] as [string, string]);
      expect(inPage.dearer, name).toBe(inNode.dearer);
      for (let k = 0; k < inNode.paths.length; k++) expect(inPage.paths[k], `${name}: pair ${k >> 1}, ${k % 2 ? 'cheapest' : 'default'}`).toBe(inNode.paths[k]);
    }
  }, 300_000);
});
