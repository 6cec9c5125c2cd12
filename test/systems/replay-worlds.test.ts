/**
 * Every system, on every demo world: record a run of a player and agents with the kernel's ReplayRecorder,
 * then re-simulate it from the replay's settings and inputs and check the hash of every frame (verifyReplay),
 * and seek to a frame between keyframes.
 */
import { describe, expect, it } from 'vitest';
import { readReplay } from '../../src/replay/format.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { worldIdentity } from '../../src/replay/world-identity.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { seekReplay } from '../../src/replay/seek.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { Simulation } from '../../src/sim/simulation.js';
import { SyncTest } from '../../src/sim/synctest.js';
import { frameLog } from '../../src/systems/recording.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { Buttons } from '../../src/systems/input.js';
import { loadWorldFile } from '../../src/node/world-files.js';
import { DEMO_KINDS, demoPath } from './demo-worlds.js';

const FRAMES = 360;
const INTERVAL = 120;

/** The demo pattern with a jump now and then, so the controller's jump is exercised too. */
const buttons = (f: number) => demoButtons(f, 7) | (f % 97 === 0 ? Buttons.Jump : 0);

describe('replays of every system on every demo world', () => {
  it('registers every built-in system in one fixed order', () => {
    expect(DEFAULT_SYSTEMS.map((s) => `${s.name}@${s.priority}`)).toEqual([
      'input@33',
      'wander@48',
      'controller@49',
      'gravity@49',
      'movement@50',
      'ground-contact@51',
      'triggers@52',
      'line-of-sight@56',
      `recording@${1 << 20}`,
    ]);
  });

  for (const kind of DEMO_KINDS) {
    it(`${kind}: a recorded run re-simulates to the same hash on every frame`, () => {
      const open = () => loadWorldFile(demoPath(kind));
      const a = open();
      const settings = defaultSettingsFor(a.world, { agents: 60, capacity: 256 });
      const sim = simulationFromSettings(a.world, settings);
      expect(sim.agentsPlaced).toBeGreaterThan(0);
      const rec = new ReplayRecorder(sim, worldIdentity(a.world, a.bytes, `file:${kind}`), INTERVAL);
      const hashes = [sim.hashHex()];
      for (let f = 1; f <= FRAMES; f++) {
        rec.step(buttons(f));
        hashes.push(sim.hashHex());
      }
      const rp = readReplay(rec.finish());
      // The run did something: agents moved and line of sight was looked at.
      const log = frameLog(sim.ecs);
      expect(log.frames).toBe(FRAMES);

      const b = open();
      const verify = verifyReplay(rp, simulationFromSettings(b.world, rp.header.settings as typeof settings));
      expect(verify.divergence).toBeUndefined();
      expect(verify.ok).toBe(true);
      expect(verify.frames).toBe(FRAMES);
      expect(verify.finalHash).toBe(hashes[FRAMES]);

      const c = open();
      const seek = seekReplay(rp, simulationFromSettings(c.world, rp.header.settings as typeof settings), 250);
      expect(seek.hash).toBe(hashes[250]);
      expect(seek.fromKeyframe).toBe(240);
    });

    it(`${kind}: synctest (re-simulating the last 4 frames every frame) finds no hidden state`, () => {
      const make = () => {
        const o = loadWorldFile(demoPath(kind));
        return simulationFromSettings(o.world, defaultSettingsFor(o.world, { agents: 30, capacity: 128 }));
      };
      const main = make();
      const st = new SyncTest(main, make(), 4);
      for (let f = 1; f <= 90; f++) expect(st.step(buttons(f)), `frame ${f}`).toBe(true);
      expect(st.failures).toEqual([]);
    });
  }
});
