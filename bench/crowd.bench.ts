/**
 * Crowd scale, batched against one at a time, in one process and alternating (this machine is shared, so two
 * runs minutes apart do not compare): the default scenario with 100,000 agents on the default field.
 *
 * - movement alone: the movement system's range over every body, batched (`moveMany`: steps, then the batch's
 *   heights in one staged query) and one `move` at a time, each from the same saved state;
 * - the height query alone: 100,000 agents' positions, `surfacesAt` against a `surfaceAt` loop;
 * - the whole frame: two simulations side by side, one on the world as it is and one on the same world with
 *   `moveMany` hidden, stepped in turn, ten frames each, with the 60 frames/s goal.
 *
 * Each figure is the median over rounds; the note gives every round's value and the load.
 */
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import type { Bench, BenchResult } from './harness.js';
import { consume } from './harness.js';
import { DEFAULT_WORLD } from '../src/worlds/builtin.js';
import { createSimulation } from '../src/scenarios/builtin.js';
import { openBuiltinWorld } from '../src/node/open-world.js';
import { demoButtons } from '../src/sim/demo-input.js';
import { moveBodyEach, moveBodyRange, newMoveScratch } from '../src/systems/movement.js';
import type { PineyWorld } from '../src/worlds/piney/collision-world.js';
import type { CollisionWorld } from '../src/worlds/world.js';

const AGENTS = 100_000;
const ROUNDS = 7;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const list = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');

/** The same world with `moveMany` hidden: the movement system then moves one body at a time. */
function withoutMoveMany(world: CollisionWorld): CollisionWorld {
  const plain = Object.create(world) as CollisionWorld & { moveMany?: unknown };
  plain.moveMany = undefined;
  return plain;
}

export const benches: Bench[] = [
  {
    name: 'crowd: batched against one at a time',
    async run() {
      const opened = await openBuiltinWorld(DEFAULT_WORLD);
      const world = opened.world as PineyWorld;
      const load = loadavg()[0]!.toFixed(1);
      const results: BenchResult[] = [];

      // Movement alone, from one saved state.
      const sim = createSimulation(world, { agents: AGENTS });
      for (let f = 1; f <= 20; f++) sim.step(demoButtons(f));
      const c = sim.ecs.components;
      const stores = { Position: c.Position, Velocity: c.Velocity, BodySize: c.BodySize, Motion: c.Motion };
      const q = sim.ecs.defineQuery('bench-movement', [c.Position, c.Velocity, c.BodySize, c.Motion]);
      const ents = Int32Array.from(sim.ecs.entities(q));
      const saved = [c.Position.x, c.Position.y, c.Position.z, c.Motion.grounded, c.Motion.hitWall, c.Motion.contact, c.Motion.blocked].map((a) => a.slice());
      const restore = () => {
        [c.Position.x, c.Position.y, c.Position.z, c.Motion.grounded, c.Motion.hitWall, c.Motion.contact, c.Motion.blocked].forEach((a, k) => (a as Float64Array).set(saved[k] as Float64Array));
      };
      const scratch = newMoveScratch();
      const batched: number[] = [];
      const each: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        for (const [fn, into] of [[moveBodyRange, batched], [moveBodyEach, each]] as const) {
          restore();
          const t0 = performance.now();
          fn(ents, 0, ents.length, world, stores, scratch);
          into.push(((performance.now() - t0) * 1e6) / ents.length);
        }
      }
      restore();
      results.push({ name: 'movement, 100k agents, batched', value: median(batched), unit: 'ns/agent', better: 'lower', note: `rounds ${list(batched)}; load ${load}` });
      results.push({ name: 'movement, 100k agents, one at a time', value: median(each), unit: 'ns/agent', better: 'lower', note: `rounds ${list(each)}` });
      results.push({ name: 'movement, one at a time ÷ batched', value: median(each) / median(batched), unit: 'ratio', note: 'the same state moved both ways, alternating' });

      // The height query alone, at the agents' positions.
      const n = ents.length;
      const xs = new Float64Array(n);
      const ys = new Float64Array(n);
      const zs = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        xs[i] = c.Position.x[ents[i]!]!;
        ys[i] = c.Position.y[ents[i]!]!;
      }
      const cache = world.heightCache;
      const many: number[] = [];
      const one: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        let t0 = performance.now();
        cache.surfacesAt(xs, ys, zs, n);
        many.push(((performance.now() - t0) * 1e6) / n);
        t0 = performance.now();
        let sum = 0;
        for (let i = 0; i < n; i++) sum += cache.surfaceAt(xs[i]!, ys[i]!);
        one.push(((performance.now() - t0) * 1e6) / n);
        consume(sum + zs[n >> 1]!);
      }
      results.push({ name: 'height query, 100k points, batched (surfacesAt)', value: median(many), unit: 'ns/query', better: 'lower', note: `rounds ${list(many)}` });
      results.push({ name: 'height query, 100k points, one at a time', value: median(one), unit: 'ns/query', better: 'lower', note: `rounds ${list(one)}` });

      // The whole frame, two simulations stepped in turn.
      const simA = createSimulation(world, { agents: AGENTS });
      const simB = createSimulation(withoutMoveMany(world), { agents: AGENTS });
      let frame = 0;
      for (let f = 1; f <= 20; f++) {
        simA.step(demoButtons(f));
        simB.step(demoButtons(f));
      }
      frame = 20;
      const fa: number[] = [];
      const fb: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        for (const [s, into] of [[simA, fa], [simB, fb]] as const) {
          const t0 = performance.now();
          for (let f = 1; f <= 10; f++) s.step(demoButtons(frame + f));
          into.push(10_000 / (performance.now() - t0));
        }
        frame += 10;
      }
      const same = simA.hash().hi === simB.hash().hi && simA.hash().lo === simB.hash().lo;
      if (!same) throw new Error('the batched and the one-at-a-time simulations ended on different hashes');
      results.push({ name: 'frame, 100k agents, 1 thread, batched', value: median(fa), unit: 'frames/s', goal: 60, better: 'higher', note: `rounds ${list(fa)}; the same hash as one at a time; load ${loadavg()[0]!.toFixed(1)} at the end` });
      results.push({ name: 'frame, 100k agents, 1 thread, one at a time', value: median(fb), unit: 'frames/s', note: `rounds ${list(fb)}` });
      return results;
    },
  },
];
