/** Builds sessions over a FakeNet and drives them tick by tick, with seeded bots as the players' hands. */
import { NetplaySession, type NetplaySessionOptions, type DesyncReport } from '../../src/netplay/session.js';
import type { NetplayConfig } from '../../src/netplay/protocol.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';
import { scenarioIdentity } from '../../src/scenarios/identity.js';
import { wanderScenario } from '../../src/scenarios/wander.js';
import type { Simulation } from '../../src/sim/simulation.js';
import { FlatWorld } from '../sim/flat-world.js';
import { testSettings, TEST_WORLD_ID } from '../sim/helpers.js';
import { FakeNet, mulberry32, type FakeNetOptions } from './fake-relay.js';

export function testConfig(players: number, over: Partial<NetplayConfig> = {}): NetplayConfig {
  return {
    world: TEST_WORLD_ID,
    scenario: scenarioIdentity(wanderScenario),
    settings: { ...testSettings({ agents: 12, capacity: 32 }), players },
    keyframeInterval: 60,
    checkInterval: 10,
    inputDelay: 2,
    ...over,
  };
}

/** The simulation a config describes, on a flat test world. */
export function build(config: NetplayConfig): Simulation {
  return simulationFromSettings(new FlatWorld(), config.settings);
}

export function bot(seed: number): () => number {
  const r = mulberry32(seed);
  let b = 0;
  return () => {
    if (r() < 0.15) b = Math.floor(r() * 64);
    return b;
  };
}

export interface Client {
  session: NetplaySession;
  hashes: Map<number, string>;
  desyncs: DesyncReport[];
  hand: (() => number) | null;
}

export class Match {
  readonly net: FakeNet;
  readonly clients: Client[] = [];

  constructor(net: FakeNetOptions) {
    this.net = new FakeNet(net);
  }

  add(role: 'player' | 'spectator', over: Partial<NetplaySessionOptions> = {}, hand: (() => number) | null = null): Client {
    const transport = this.net.connect();
    const first = role === 'player' && this.clients.every((c) => c.hand === null);
    const session = new NetplaySession({
      transport,
      build,
      role,
      room: 'test',
      now: () => this.net.tick * (1000 / 60),
      ...(first ? { config: testConfig(playersOf(this.net)) } : {}),
      ...over,
    });
    const c: Client = { session, hashes: new Map(), desyncs: [], hand };
    session.on('confirmed', ({ frame, hash }) => c.hashes.set(frame, hash));
    session.on('desync', (r) => c.desyncs.push(r));
    this.clients.push(c);
    return c;
  }

  /** One tick: the network delivers, then every client sets its input and ticks. */
  step(): void {
    this.net.step();
    for (const c of this.clients) {
      if (c.hand) c.session.setLocalInput(c.hand());
      c.session.tick();
    }
  }

  /** Ticks until `done` holds (or `maxTicks` pass); returns the ticks taken. */
  runUntil(done: () => boolean, maxTicks: number): number {
    let t = 0;
    while (!done() && t < maxTicks) {
      this.step();
      t++;
    }
    return t;
  }
}

function playersOf(net: FakeNet): number {
  return net.log.length;
}
