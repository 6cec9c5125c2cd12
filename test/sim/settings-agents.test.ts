/**
 * settings.agents says what the scenario used: the number asked for when the scenario read it while it was
 * built (the default placement does), else the wandering agents it placed itself. The run summary and the
 * replay header agree; no state hash depends on it; a replay recorded before (the header giving the number
 * asked for, which such a scenario never read) still verifies and seeks.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, defineScenario, DEFAULT_SYSTEMS, demoButtons, openWorld, readReplay, ReplayRecorder, seekReplay, verifyReplay, type Simulation } from '../../src/index.js';

const own = defineScenario({
  name: 'tag-ten',
  version: '1',
  description: 'a player and ten runners placed by the scenario itself',
  systems: [...DEFAULT_SYSTEMS],
  place(sim) {
    sim.spawnPlayer();
    sim.spawnWanderers(10);
  },
});
const reads = defineScenario({
  name: 'tag-asked',
  version: '1',
  description: 'a player and the runners asked for',
  systems: [...DEFAULT_SYSTEMS],
  place(sim) {
    sim.spawnPlayer();
    sim.spawnWanderers(Math.min(sim.settings.agents, 7));
  },
});

async function record(sim: Simulation, frames: number, settings?: Simulation['settings']): Promise<Uint8Array> {
  const { identity } = await openWorld('rugrats-demo');
  // A replay as the old recorder wrote it: the header's settings are the ones given (agents as asked).
  if (settings) Object.defineProperty(sim, 'settings', { value: settings });
  const rec = new ReplayRecorder(sim, identity, 10);
  for (let f = 1; f <= frames; f++) rec.step(demoButtons(f));
  return rec.finish();
}

describe('settings.agents', () => {
  it('a scenario that never reads it: the agents it placed, in the settings and the header', async () => {
    const { world } = await openWorld('rugrats-demo');
    const sim = createSimulation(world, { scenario: own });
    expect(sim.agentsPlaced).toBe(10);
    expect(sim.settings.agents).toBe(10);
    const bytes = await record(sim, 30);
    expect(readReplay(bytes).header.settings.agents).toBe(10);
    expect(verifyReplay(bytes, { world: await openWorld('rugrats-demo'), scenario: own }).ok).toBe(true);
  });

  it('a scenario that reads it: the number asked for, even when it placed fewer', async () => {
    const { world } = await openWorld('rugrats-demo');
    const sim = createSimulation(world, { scenario: reads, agents: 20 });
    expect(sim.agentsPlaced).toBe(7);
    expect(sim.settings.agents).toBe(20);
    const bytes = await record(sim, 5);
    expect(readReplay(bytes).header.settings.agents).toBe(20);
    // The default placement reads it too.
    expect(createSimulation(world, { scenario: 'wander', agents: 3 }).settings.agents).toBe(3);
  });

  it('no state depends on it: any number asked for gives the same hashes', async () => {
    const { world } = await openWorld('rugrats-demo');
    const a = createSimulation(world, { scenario: own, agents: 300, capacity: 512 });
    const b = createSimulation((await openWorld('rugrats-demo')).world, { scenario: own, agents: 0, capacity: 512 });
    for (let f = 1; f <= 40; f++) {
      a.step(demoButtons(f));
      b.step(demoButtons(f));
      expect(a.hashHex()).toBe(b.hashHex());
    }
  });

  it('a replay whose header gives the number asked for (as recorded before) still verifies and seeks', async () => {
    const { world } = await openWorld('rugrats-demo');
    const sim = createSimulation(world, { scenario: own, agents: 300 });
    const old = await record(sim, 30, Object.freeze({ ...sim.settings, agents: 300 }));
    expect(readReplay(old).header.settings.agents).toBe(300);
    const fresh = await record(createSimulation((await openWorld('rugrats-demo')).world, { scenario: own, agents: 300 }), 30);
    expect(readReplay(fresh).header.settings.agents).toBe(10);
    expect([readReplay(old).final.hashHi, readReplay(old).final.hashLo]).toEqual([readReplay(fresh).final.hashHi, readReplay(fresh).final.hashLo]);
    const v = verifyReplay(old, { world: await openWorld('rugrats-demo'), scenario: own });
    expect(v.ok).toBe(true);
    const s = seekReplay(old, { world: await openWorld('rugrats-demo'), scenario: own }, 25);
    expect(s.verified).toBe(true);
  });
});
