/**
 * The replays of the cross-engine determinism tests, shared by the browser test (Chromium and Firefox,
 * test/browser/determinism.test.ts) and the Bun test (bun.test.ts): the default scenario and the demo
 * worlds, recorded in Node with the stand-in player's buttons, and Node's own re-simulation of them.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { readReplay } from '../../src/replay/format.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { builtinIdOfContent, openBuiltinWorld, openWorldFile } from '../../src/node/open-world.js';
import { parseFileSource, type OpenedWorld } from '../../src/replay/world-identity.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { BUTTON_MASK } from '../../src/systems/input.js';

const read = (p: string) => new Uint8Array(readFileSync(p));

/** The worlds, by the source the sandbox's catalog records for them (src/render/sandbox/world-catalog.ts). */
export const CASES = [
  // The default scenario: the default Piney field with its weather and ambient tasks, 300 agents.
  { label: 'default scenario (piney-default)', source: 'builtin:piney-default', agents: undefined, frames: 600 },
  { label: 'rugrats demo', source: 'builtin:rugrats-demo', agents: 60, frames: 300 },
  { label: 'llama demo', source: 'builtin:llama-demo', agents: 40, frames: 300 },
  { label: 'colbin demo', source: 'builtin:colbin-demo', agents: 60, frames: 300 },
  { label: 'gta town', source: 'builtin:gta-town', agents: 40, frames: 300 },
] as const;

/** Opens a world by the source a replay records (paths relative to the repository root, the tests' folder). */
export async function openSource(source: string): Promise<OpenedWorld> {
  if (source.startsWith('builtin:')) return openBuiltinWorld(source.slice('builtin:'.length), read);
  const { path, mapPath } = parseFileSource(source);
  return openWorldFile(path, read, mapPath);
}

/** Records `frames` frames of the stand-in player's buttons in Node; returns the replay file. */
export async function recordInNode(source: string, agents: number | undefined, frames: number): Promise<Uint8Array> {
  const opened = await openSource(source);
  // A shipped world's bytes are recorded as that world, from whatever path they were opened.
  expect([source, `builtin:${builtinIdOfContent(opened.identity)}`]).toContain(opened.identity.source);
  const settings = defaultSettingsFor(opened.world, agents === undefined ? {} : { agents });
  const sim = simulationFromSettings(opened.world, settings);
  const rec = new ReplayRecorder(sim, opened.identity, 100);
  for (let f = 1; f <= frames; f++) rec.step(demoButtons(f));
  return rec.finish();
}

/** Node's re-simulation of a replay: the hash after every frame, from a fresh world and the recorded settings. */
export async function resimulateInNode(bytes: Uint8Array): Promise<string[]> {
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
