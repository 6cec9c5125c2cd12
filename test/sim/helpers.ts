import { DEFAULT_SETTINGS, type ScenarioSettings } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import type { WorldIdentity } from '../../src/replay/format.js';
import { FlatWorld, type FlatWorldOptions } from './flat-world.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';

export function testSettings(over: Partial<ScenarioSettings> = {}): ScenarioSettings {
  return { ...DEFAULT_SETTINGS, agents: 40, capacity: 256, ...over };
}

export function makeSim(over: Partial<ScenarioSettings> = {}, world: FlatWorldOptions = {}): Simulation {
  return simulationFromSettings(new FlatWorld(world), testSettings(over));
}

/** A deterministic button pattern standing in for a player (outside data, as a keyboard would be). */
export function buttonsFor(frame: number): number {
  const phase = Math.floor(frame / 37) % 6;
  return [1, 1 | 4, 1, 1 | 8, 2, 0][phase]!;
}

export const TEST_WORLD_ID: WorldIdentity = { kind: 'rugrats', name: 'flat test world', source: 'builtin:flat', contentHash: '0x0000000000000001', byteLength: 0 };
