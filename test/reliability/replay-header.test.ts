/**
 * A replay header is outside data: whatever it names must be refused with a FormatError before a simulation
 * is built from it. Found by the replay-seek fuzz target: a header naming a scenario this runtime does not
 * have passed the settings check and made the Simulation constructor throw a plain Error.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readReplay } from '../../src/replay/format.js';
import { checkWorldIdentity, worldIdentity } from '../../src/replay/world-identity.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { checkReplaySettings, replayScenario } from '../../src/replay/rebuild.js';
import { scenarioIdentity } from '../../src/scenarios/identity.js';
import { pineyFieldScenario } from '../../src/scenarios/piney-field.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { Simulation } from '../../src/sim/simulation.js';
import { FormatError } from '../../src/binary/format-error.js';
import { loadRugratsWorld } from '../../src/worlds/rugrats/collision-world.js';

describe('replay header settings', () => {
  const bytes = new Uint8Array(readFileSync(new URL('../../assets/worlds/rugrats/demo.col', import.meta.url)));
  const world = loadRugratsWorld(bytes, 'demo.col');
  const sim = simulationFromSettings(world, defaultSettingsFor(world, { agents: 2, capacity: 8 }));
  const rec = new ReplayRecorder(sim, worldIdentity(world, bytes, 'builtin:rugrats-demo'), 10);
  for (let f = 0; f < 5; f++) rec.step(0);
  const rp = readReplay(rec.finish());

  it('accepts the recorded settings and rebuilds the same initial state from them', () => {
    const s = checkReplaySettings(rp.header);
    expect(s.scenario).toBe('wander');
    expect(simulationFromSettings(world, s).hash()).toEqual(simulationFromSettings(world, defaultSettingsFor(world, { agents: 2, capacity: 8 })).hash());
  });

  it('refuses a scenario this runtime does not have with a FormatError naming the header', () => {
    for (const name of ['wandeR', '', 'piney-', 'wander\u0000']) {
      const header = { ...rp.header, scenario: { ...rp.header.scenario, name, source: `builtin:${name}` }, settings: { ...rp.header.settings, scenario: name } };
      let err: unknown = null;
      try {
        replayScenario(header);
      } catch (e) {
        err = e;
      }
      expect(err, name).toBeInstanceOf(FormatError);
      expect((err as FormatError).format).toContain('HEAD');
      expect((err as FormatError).message).toContain('unknown scenario');
    }
  });

  it('refuses the piney-field scenario over a world that is not a Piney field, and a header lying about the kind', () => {
    // The recorded kind is rugrats: the field scenario (which needs a Piney world) is refused up front.
    const header = { ...rp.header, scenario: scenarioIdentity(pineyFieldScenario), settings: { ...rp.header.settings, scenario: 'piney-field' } };
    let err: unknown = null;
    try {
      replayScenario(header);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).message).toContain('runs on piney worlds');
    // A header that claims a Piney world passes that check, but the world it names is not one.
    const lying = { ...header, world: { ...rp.header.world, kind: 'piney' } };
    expect(replayScenario(lying).name).toBe('piney-field');
    const actual = worldIdentity(world, bytes, 'builtin:rugrats-demo');
    expect(() => checkWorldIdentity(lying.world, actual)).toThrow(FormatError);
    expect(() => checkWorldIdentity(rp.header.world, actual)).not.toThrow();
  });
});
