/**
 * Netplay in real time: an in-process relay (`startRelay`, one-way delay 0, 80 and 150 ms, no jitter, no loss)
 * and two player sessions in this process over real `ws` connections, each with a wander bot, ticking at
 * 60 Hz for 600 frames (10 s) of the default scenario (wander on the Piney field, 300 agents). Per delay:
 * rollbacks per second (per player), the mean and longest rollback in frames re-simulated, waits per second,
 * and the cost of a rollback: the median CPU time of a tick that rolled back minus that of a tick that
 * simulated a frame without one (medians: a tick that also encodes a keyframe or meets a GC is an outlier;
 * both players' ticks run on this one thread, so a tick's process CPU time is its own, plus whatever the
 * runtime's helper threads did meanwhile). A short session runs first, unmeasured, to warm the code up.
 */
import { startRelay } from '../src/node/relay-server.js';
import { connectWsTransport } from '../src/node/ws-transport.js';
import { RoomBuilder, runNetplayClient, type NetplayClientResult } from '../src/node/netplay-client.js';
import { openBuiltinWorld } from '../src/node/open-world.js';
import { makeBot } from '../src/netplay/bots.js';
import { createSimulation } from '../src/scenarios/builtin.js';
import { scenarioIdentity } from '../src/scenarios/identity.js';
import { DEFAULT_WORLD } from '../src/worlds/builtin.js';
import type { NetplayConfig } from '../src/netplay/protocol.js';
import type { Simulation } from '../src/sim/simulation.js';
import { loadNote, median, type Bench, type BenchResult } from './harness.js';

const AGENTS = 300;
const FRAMES = 600;
const DELAYS = [0, 80, 150];

/** A builder that counts the steps of the predicted simulation (the second one a player's session builds). */
class CountingBuilder extends RoomBuilder {
  steps = 0;
  private built = 0;
  override build(config: NetplayConfig): Simulation {
    const sim = super.build(config);
    if (++this.built === 2) {
      const step = sim.step.bind(sim);
      sim.step = (b) => {
        this.steps++;
        step(b);
      };
    }
    return sim;
  }
}

interface Figures {
  delay: number;
  seconds: number;
  rollbacksPerSecond: number;
  meanRollback: number;
  maxRollback: number;
  waitsPerSecond: number;
  rollbackTickMs: number;
  plainTickMs: number;
  rollbackTickMedianMs: number;
  plainTickMedianMs: number;
  hashesAgree: boolean;
}

async function session(delayMs: number, round: number, frames = FRAMES): Promise<Figures> {
  const opened = await openBuiltinWorld(DEFAULT_WORLD);
  const sim = createSimulation(opened.world, { players: 2, agents: AGENTS });
  const config: NetplayConfig = { world: opened.identity, scenario: scenarioIdentity(sim.scenario), settings: { ...sim.settings, players: 2 }, keyframeInterval: 600, checkInterval: 10, inputDelay: 2 };
  const relay = await startRelay({ delayMs, jitterMs: 0, loss: 0, seed: 1 });
  try {
    const builders = [new CountingBuilder(), new CountingBuilder()];
    const room = `bench-${delayMs}-${round}`;
    const rbSamples: number[] = [];
    const plainSamples: number[] = [];
    const onTick = (t: { cpuMs: number; rolledBack: boolean; advanced: boolean }) => {
      if (t.rolledBack) rbSamples.push(t.cpuMs);
      else if (t.advanced) plainSamples.push(t.cpuMs);
    };
    const run = (i: number): Promise<NetplayClientResult> =>
      runNetplayClient({ transport: connectWsTransport(relay.url), room, role: 'player', config, builder: builders[i]!, bot: (p) => makeBot('wander', 11 + round, p), lastFrame: frames, onTick });
    const first = run(0);
    await new Promise((r) => setTimeout(r, 200)); // the first player creates the room
    const results = await Promise.all([first, run(1)]);
    for (const r of results) if (r.error !== null || r.desync !== null || !r.finished) throw new Error(`netplay bench: ${r.error ?? (r.desync ? `desync at ${r.desync.frame}` : 'did not finish')}`);
    const seconds = Math.max(...results.map((r) => r.wallMs)) / 1000;
    const rollbacks = results.reduce((n, r) => n + r.stats.rollbacks, 0);
    const resimulated = results.reduce((n, r, i) => n + builders[i]!.steps - r.stats.frame, 0);
    return {
      delay: delayMs,
      seconds,
      rollbacksPerSecond: rollbacks / 2 / seconds,
      meanRollback: rollbacks ? resimulated / rollbacks : 0,
      maxRollback: Math.max(...results.map((r) => r.stats.maxRollback)),
      waitsPerSecond: results.reduce((n, r) => n + r.stats.waits, 0) / 2 / seconds,
      rollbackTickMs: rbSamples.length ? rbSamples.reduce((a, b) => a + b, 0) / rbSamples.length : NaN,
      plainTickMs: plainSamples.length ? plainSamples.reduce((a, b) => a + b, 0) / plainSamples.length : NaN,
      rollbackTickMedianMs: rbSamples.length ? median(rbSamples) : NaN,
      plainTickMedianMs: plainSamples.length ? median(plainSamples) : NaN,
      hashesAgree: results[0]!.finalHash === results[1]!.finalHash,
    };
  } finally {
    await relay.close();
  }
}

export const benches: Bench[] = [
  {
    name: `netplay (two bots, relay delay ${DELAYS.join('/')} ms, ${AGENTS} agents, ${FRAMES} frames at 60 Hz)`,
    async run() {
      const out: BenchResult[] = [];
      const table: string[] = ['delay ms | rollbacks/s | mean rb frames | longest | waits/s | rollback tick ms mean/median | plain tick ms mean/median | cost ms/rollback (medians)'];
      // a short unmeasured session first: the first rollbacks of a cold process run unoptimized code
      await session(80, 99, 240);
      for (const [round, delay] of DELAYS.entries()) {
        const f = await session(delay, round);
        if (!f.hashesAgree) throw new Error(`netplay bench: the players' final hashes differ at delay ${delay} ms`);
        const cost = f.rollbackTickMedianMs - f.plainTickMedianMs;
        table.push(`${String(delay).padStart(8)} | ${f.rollbacksPerSecond.toFixed(2).padStart(11)} | ${f.meanRollback.toFixed(2).padStart(14)} | ${String(f.maxRollback).padStart(7)} | ${f.waitsPerSecond.toFixed(2).padStart(7)} | ${`${f.rollbackTickMs.toFixed(3)} / ${f.rollbackTickMedianMs.toFixed(3)}`.padStart(28)} | ${`${f.plainTickMs.toFixed(3)} / ${f.plainTickMedianMs.toFixed(3)}`.padStart(25)} | ${cost.toFixed(3).padStart(26)}`);
        out.push({ name: `netplay ${delay} ms: rollbacks per second (per player)`, value: f.rollbacksPerSecond, unit: '/s', note: `mean ${f.meanRollback.toFixed(2)} frames, longest ${f.maxRollback}; waits ${f.waitsPerSecond.toFixed(2)}/s; ${f.seconds.toFixed(1)} s` });
        out.push({ name: `netplay ${delay} ms: rollback cost (CPU, medians)`, value: cost, unit: 'ms', note: `tick with a rollback median ${f.rollbackTickMedianMs.toFixed(3)} ms (mean ${f.rollbackTickMs.toFixed(3)}), without ${f.plainTickMedianMs.toFixed(3)} ms (mean ${f.plainTickMs.toFixed(3)})` });
      }
      process.stderr.write(`${table.join('\n')}\nload ${loadNote()}\n`);
      return out;
    },
  },
];
