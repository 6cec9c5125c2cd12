/**
 * Determinism across Node, Chromium and Firefox (V8 twice, then SpiderMonkey, whose Math and number printing
 * are its own): for the default scenario and each of the five demo worlds, a replay is recorded in Node, then
 * re-simulated from its settings and inputs in Node and in the page in both browsers (through the simulation
 * code the sandbox bundles: the session's replay player), and every frame's state hash is compared: each
 * browser = Node re-simulation = the hash recorded in the file.
 *
 * The other direction (a replay recorded in the page, verified in Node) is in sandbox.test.ts.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hex64, readReplay } from '../../src/replay/format.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { openBuiltinWorld, openWorldFile } from '../../src/node/open-world.js';
import { parseFileSource, type OpenedWorld } from '../../src/replay/world-identity.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { Simulation } from '../../src/sim/simulation.js';
import { BUTTON_MASK } from '../../src/systems/input.js';
import { openSandbox, openSandboxInFirefox, startFirefox, startHarness, type FirefoxHarness, type Harness } from './harness.js';

const read = (p: string) => new Uint8Array(readFileSync(p));

/** The worlds, by the source the sandbox's catalog records for them (src/render/sandbox/world-catalog.ts). */
const CASES = [
  // The default scenario: the default Piney field with its weather and ambient tasks, 300 agents.
  { label: 'default scenario (piney-default)', source: 'builtin:piney-default', agents: undefined, frames: 600 },
  { label: 'rugrats demo', source: 'builtin:rugrats-demo', agents: 60, frames: 300 },
  { label: 'llama demo', source: 'file:assets/worlds/llama/demo.trak;map:assets/worlds/llama/demo.map', agents: 40, frames: 300 },
  { label: 'colbin demo', source: 'file:assets/worlds/colbin/demo.colbin', agents: 60, frames: 300 },
  { label: 'gta town', source: 'file:assets/worlds/gta/town.col', agents: 40, frames: 300 },
] as const;

async function openSource(source: string): Promise<OpenedWorld> {
  if (source.startsWith('builtin:')) return openBuiltinWorld(source.slice('builtin:'.length), read);
  const { path, mapPath } = parseFileSource(source);
  return openWorldFile(path, read, mapPath);
}

/** Records `frames` frames of the stand-in player's buttons in Node; returns the replay file. */
async function recordInNode(source: string, agents: number | undefined, frames: number): Promise<Uint8Array> {
  const opened = await openSource(source);
  expect(opened.identity.source).toBe(source);
  const settings = defaultSettingsFor(opened.world, agents === undefined ? {} : { agents });
  const sim = simulationFromSettings(opened.world, settings);
  const rec = new ReplayRecorder(sim, opened.identity, 100);
  for (let f = 1; f <= frames; f++) rec.step(demoButtons(f));
  return rec.finish();
}

/** Node's re-simulation of a replay: the hash after every frame, from a fresh world and the recorded settings. */
async function resimulateInNode(bytes: Uint8Array): Promise<string[]> {
  const rp = readReplay(bytes, BUTTON_MASK);
  const opened = await openSource(rp.header.world.source);
  const sim = simulationFromSettings(opened.world, rp.header.settings);
  const out: string[] = [];
  for (let f = 0; f < rp.frames.count; f++) {
    sim.step(rp.frames.inputs[f]!);
    out.push(sim.hashHex());
  }
  return out;
}

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
    }
  });
});
