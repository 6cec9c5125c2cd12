/**
 * Determinism across Node and Chromium: for the default scenario and each of the five demo worlds, a replay
 * is recorded in Node, then re-simulated from its settings and inputs both in Node and in the page (through
 * the simulation code the sandbox bundles: the session's replay player), and every frame's state hash is
 * compared: page = Node re-simulation = the hash recorded in the file.
 *
 * The other direction (a replay recorded in the page, verified in Node) is in sandbox.test.ts.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hex64, readReplay } from '../../src/replay/format.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { openBuiltinWorld, openWorldFile } from '../../src/node/open-world.js';
import { parseFileSource, type OpenedWorld } from '../../src/replay/world-identity.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { Simulation } from '../../src/sim/simulation.js';
import { BUTTON_MASK } from '../../src/systems/input.js';
import { openSandbox, startHarness, type Harness } from './harness.js';

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

/** The page's re-simulation: loads the replay into the sandbox session and plays it, hash by hash. */
async function resimulateInPage(page: Page, bytes: Uint8Array): Promise<{ hashes: string[]; matches: (boolean | null)[]; initial: string }> {
  await page.evaluate((b) => window.retrosim.loadReplay(b), Array.from(bytes));
  return page.evaluate(() => {
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
  });
}

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await startHarness();
  page = await openSandbox(h, { world: 'piney-default', agents: '10' });
  await page.evaluate(() => window.retrosim.pause());
});

afterAll(async () => {
  await h?.close();
});

describe('the same replay hashes the same on every frame in Node and in Chromium', () => {
  test.each(CASES)('$label', async ({ source, agents, frames }) => {
    const bytes = await recordInNode(source, agents, frames);
    const rp = readReplay(bytes, BUTTON_MASK);
    expect(rp.frames.count).toBe(frames);
    const recorded = Array.from({ length: frames }, (_, i) => hex64(rp.frames.hashHi[i]!, rp.frames.hashLo[i]!));
    // The run is not trivial: the state changes over the frames.
    expect(new Set(recorded).size).toBeGreaterThan(frames / 2);

    const node = await resimulateInNode(bytes);
    const inPage = await resimulateInPage(page, bytes);
    expect(inPage.initial).toBe(hex64(rp.keyframes[0]!.hashHi, rp.keyframes[0]!.hashLo));
    expect(inPage.hashes.length).toBe(frames);
    // Frame by frame, so a failure names the first frame that differs.
    for (let f = 0; f < frames; f++) {
      expect(node[f], `Node, frame ${f + 1}`).toBe(recorded[f]);
      expect(inPage.hashes[f], `Chromium, frame ${f + 1}`).toBe(recorded[f]);
    }
    expect(inPage.matches.every((m) => m === true)).toBe(true);
    const st = await page.evaluate(() => window.retrosim.state());
    expect(st['source']).toBe(source);
    expect(st['desyncFrame']).toBe(-1);
  });
});
