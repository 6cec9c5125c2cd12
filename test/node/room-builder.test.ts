/**
 * The Node client's room builder: each simulation of a room gets a world of its own (a world may hold run-time
 * state, such as Llama's tile swaps, which the predicted and the confirmed simulation must not share), and a room
 * on a world this client cannot have is refused in one line.
 */
import { describe, expect, it } from 'vitest';
import { RoomBuilder } from '../../src/node/netplay-client.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { createSimulation } from '../../src/scenarios/builtin.js';
import { scenarioIdentity } from '../../src/scenarios/identity.js';
import type { NetplayConfig } from '../../src/netplay/protocol.js';

async function configFor(id: string): Promise<NetplayConfig> {
  const opened = await openBuiltinWorld(id);
  const sim = createSimulation(opened.world, { players: 2, agents: 5 });
  return { world: opened.identity, scenario: scenarioIdentity(sim.scenario), settings: { ...sim.settings, players: 2 }, keyframeInterval: 600, checkInterval: 10, inputDelay: 2 };
}

describe('RoomBuilder', () => {
  it('gives the predicted and the confirmed simulation worlds of their own, with the same state', async () => {
    const config = await configFor('rugrats-demo');
    const b = new RoomBuilder();
    await b.prepare(config);
    const predicted = b.build(config);
    const confirmed = b.build(config);
    expect(predicted.world).not.toBe(confirmed.world);
    expect(predicted.hashHex()).toBe(confirmed.hashHex());
    expect(() => b.build(config)).toThrow(/no world of the room is open/);
  });

  it('refuses a room on a world file it was not given, naming the world', async () => {
    const config = await configFor('rugrats-demo');
    const b = new RoomBuilder();
    await expect(b.prepare({ ...config, world: { ...config.world, source: 'file:level.col' } })).rejects.toThrow(/the room plays the world file:level\.col .*give --world FILE with the same bytes/);
  });
});
