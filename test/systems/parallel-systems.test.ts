/**
 * Range kernels on worker threads: every frame's state hash (and every section, draw count and event) of a
 * run on 2 and 4 threads equals the one-thread run's, on the five demo worlds and the default scenario;
 * replays recorded with one thread count verify and seek with another; a scenario's own kernel from a module
 * runs on the workers; the kernel contract is enforced. The pools split even a handful of entities
 * (minIdsPerThread 1), and each test checks that the workers really ran jobs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { readReplay } from '../../src/replay/format.js';
import { defaultSettingsFor, simulationFromSettings, createSimulation } from '../../src/scenarios/builtin.js';
import { worldIdentity } from '../../src/replay/world-identity.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { seekReplay } from '../../src/replay/seek.js';
import { verifyReplay } from '../../src/replay/verify.js';
import type { Simulation } from '../../src/sim/simulation.js';
import { frameLog } from '../../src/systems/recording.js';
import { Buttons } from '../../src/systems/input.js';
import { loadWorldFile } from '../../src/node/world-files.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { SystemPool } from '../../src/node/system-pool.js';
import type { WorldSource } from '../../src/node/los-pool.js';
import { DEFAULT_WORLD } from '../../src/worlds/builtin.js';
import { defineScenario, type ScenarioSettings } from '../../src/sim/scenario.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { defineSystem } from '../../src/systems/system.js';
import type { LlamaWorld } from '../../src/worlds/llama/collision-world.js';
import type { CollisionWorld } from '../../src/worlds/world.js';
import { DEMO_KINDS, demoPath } from './demo-worlds.js';
// @ts-expect-error a plain JS module (the workers import it by path)
import { Spin, spinKernel, sneakyKernel, rangeKernel, markKernel } from './fixtures/spin-kernel.mjs';
import { kernelStores, localParallelHost, type RangeKernel } from '../../src/systems/range-kernel.js';
import { Agent as AgentDef, ControllerState, Position as PositionDef, Velocity as VelocityDef } from '../../src/ecs/components.js';

const FRAMES = 240;
const buttons = (f: number) => demoButtons(f, 3) | (f % 61 === 0 ? Buttons.Jump : 0);
const SPIN_MODULE = fileURLToPath(new URL('./fixtures/spin-kernel.mjs', import.meta.url));

/** Everything observable of a run, frame by frame: the hash with its sections, the draw counts, the events. */
function trace(sim: Simulation, frames: number, each?: (f: number) => void): string[] {
  const out: string[] = [];
  for (let f = 1; f <= frames; f++) {
    each?.(f);
    sim.step(buttons(f));
    const h = sim.hash();
    const d = sim.scheduler.drawCounts();
    out.push(`${sim.hashHex()} ${Array.from(h.sections).join(',')} ${d.fieldrand}/${d.ccrand}`);
  }
  out.push(JSON.stringify(frameLog(sim.ecs).events), JSON.stringify(sim.rng.streams.save().streams.map((s) => [s.name, s.draws])));
  return out;
}

function sourceOf(kind: (typeof DEMO_KINDS)[number]): { open: () => { world: CollisionWorld; bytes: Uint8Array }; source: WorldSource } {
  const open = () => loadWorldFile(demoPath(kind));
  const o = open();
  return { open, source: { bytes: o.bytes, name: o.world.name, options: o.options } };
}

/** The built-in dispatches a frame makes: wander, controller, and one stage of gravity, movement and ground contact. */
const KERNELS_PER_FRAME = 3;

describe('range kernels on worker threads give the one-thread state', () => {
  for (const kind of DEMO_KINDS) {
    it(`${kind}: every frame's hash, sections, draws and events on 2 and 4 threads equal one thread's`, async () => {
      const { open, source } = sourceOf(kind);
      const pools = [await SystemPool.create(source, 2, { minIdsPerThread: 1 }), await SystemPool.create(source, 4, { minIdsPerThread: 1 })];
      try {
        const run = (threads?: SystemPool) => {
          const w = open().world;
          const settings = defaultSettingsFor(w, { agents: 60, capacity: 256 });
          const sim = simulationFromSettings(w, settings, undefined, undefined, threads);
          // A Llama world's tile swaps change mid-run, so the workers' copies must follow the main world.
          const swaps = kind === 'llama' ? (w as LlamaWorld) : null;
          if (kind === 'llama') expect(swaps!.swapCount).toBeGreaterThan(0);
          return trace(sim, FRAMES, (f) => {
            if (swaps && swaps.swapCount > 0 && f % 50 === 0) swaps.setSwap((f / 50) % swaps.swapCount, (f / 50) % 2 === 1);
          });
        };
        const one = run();
        for (const pool of pools) {
          const before = pool.jobs;
          expect(run(pool)).toEqual(one);
          // the built-in kernels, every frame
          expect(pool.jobs - before).toBe(KERNELS_PER_FRAME * FRAMES);
        }
      } finally {
        for (const p of pools) await p.close();
      }
    });
  }

  it('the default scenario (the Piney field with its weather, 300 agents) on 1, 2 and 4 threads', async () => {
    const opened = await openBuiltinWorld(DEFAULT_WORLD);
    const pools = [await SystemPool.create(opened.source, 2, { minIdsPerThread: 1 }), await SystemPool.create(opened.source, 4, { minIdsPerThread: 1 })];
    try {
      const run = (threads?: SystemPool) => trace(createSimulation(opened.world, threads ? { threads } : {}), 300);
      const one = run();
      for (const pool of pools) {
        expect(run(pool)).toEqual(one);
        expect(pool.jobs).toBe(KERNELS_PER_FRAME * 300);
      }
    } finally {
      for (const p of pools) await p.close();
    }
  });

  it("the controller on threads: chasers walk at targets in the other thread's range, and not at one despawned or without a Position", async () => {
    const opened = await openBuiltinWorld(DEFAULT_WORLD);
    const pool = await SystemPool.create(opened.source, 2, { minIdsPerThread: 1 });
    try {
      const run = (threads?: SystemPool) => {
        const sim = createSimulation(opened.world, threads ? { threads } : {});
        const st = sim.ecs.store(ControllerState);
        const { Sight, Position } = sim.ecs.components;
        const seen = { across: 0, despawned: 0, unplaced: 0 };
        const half = (sim.ecs.maxId + 1) >> 1;
        const trail = trace(sim, 240, (f) => {
          // The scenario's agents watch the player, who is rarely in sight: give each chaser another agent to
          // see, spread over the ids (the same on any thread count: this runs between frames).
          const max = sim.ecs.maxId;
          const chasers: number[] = [];
          for (let e = 1; e <= max; e++) {
            if (st.behaviour[e] !== 3) continue;
            Sight.target[e] = ((e * 7919 + f) % max) + 1;
            Sight.visible[e] = 1;
            chasers.push(e);
          }
          for (const e of chasers) if (e < half !== Sight.target[e]! < half) seen.across++;
          // Take targets away from under chasers that see them: one despawned, one left without a Position.
          const target = (k: number) => Sight.target[chasers[k]!]!;
          if (f === 100 && chasers.length > 1 && sim.ecs.isAlive(target(0))) {
            sim.ecs.despawn(target(0));
            seen.despawned++;
          }
          if (f === 150 && chasers.length > 1 && sim.ecs.has(target(1), Position)) {
            sim.ecs.remove(target(1), Position);
            seen.unplaced++;
          }
        });
        return { trail, seen };
      };
      const one = run();
      expect(one.seen.across).toBeGreaterThan(0);
      expect(one.seen.despawned + one.seen.unplaced).toBe(2);
      const before = pool.jobs;
      expect(run(pool)).toEqual(one);
      expect(pool.jobs - before).toBeGreaterThanOrEqual(KERNELS_PER_FRAME * 200);
    } finally {
      await pool.close();
    }
  });

  it("a kernel's has(id, component): alive with the component, never for dead ids, ids out of range or the task state", () => {
    const sim = createSimulation(loadWorldFile(demoPath('rugrats')).world, { agents: 3 });
    const c = sim.ecs.components;
    const probe: RangeKernel = { name: 'test:probe', reads: [PositionDef, AgentDef, ControllerState], writes: [], create: () => () => 0 };
    const stores = kernelStores(probe, c.capacity, c.byName, c.membership);
    const agent = sim.ecs.entities(sim.ecs.defineQuery('probe-agents', [c.Agent]))[0]!;
    expect(stores.has(agent, PositionDef)).toBe(true);
    expect(stores.has(agent, AgentDef)).toBe(true);
    sim.ecs.remove(agent, c.Agent);
    expect(stores.has(agent, AgentDef)).toBe(false);
    expect(stores.has(agent, PositionDef)).toBe(true);
    sim.ecs.despawn(agent);
    expect(stores.has(agent, PositionDef)).toBe(false);
    for (const id of [0, -1, c.capacity, c.capacity + 5]) expect(stores.has(id, PositionDef)).toBe(false);
    expect(() => stores.has(1, ControllerState)).toThrow(/not a component it declares/);
    expect(() => stores.has(1, VelocityDef)).toThrow(/not a component it declares/);
  });

  it('for any seed, agent count and split threshold, 2 and 3 threads give the one-thread hashes (rugrats)', async () => {
    const { open, source } = sourceOf('rugrats');
    const world = open().world;
    const pools = [await SystemPool.create(source, 2, { minIdsPerThread: 1 }), await SystemPool.create(source, 3, { minIdsPerThread: 7 })];
    let ran = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 120 }), async (seed, agents) => {
          const settings = defaultSettingsFor(world, { agents, capacity: 256, streamSeed: seed });
          const one = trace(simulationFromSettings(world, settings), 40);
          for (const pool of pools) expect(trace(simulationFromSettings(world, settings, undefined, undefined, pool), 40)).toEqual(one);
          ran++;
        }),
        { numRuns: 12 },
      );
    } finally {
      for (const p of pools) await p.close();
    }
    expect(ran).toBe(12);
    expect(pools[0]!.jobs).toBeGreaterThan(0);
  });
});

describe('replays across thread counts', () => {
  let pools: SystemPool[] = [];
  let opened: Awaited<ReturnType<typeof openBuiltinWorld>>;
  beforeAll(async () => {
    opened = await openBuiltinWorld(DEFAULT_WORLD);
    pools = [await SystemPool.create(opened.source, 2, { minIdsPerThread: 1 }), await SystemPool.create(opened.source, 4, { minIdsPerThread: 1 })];
  });
  afterAll(async () => {
    for (const p of pools) await p.close();
  });

  const record = (threads?: SystemPool) => {
    const sim = createSimulation(opened.world, { agents: 120, ...(threads ? { threads } : {}) });
    const rec = new ReplayRecorder(sim, opened.identity, 100);
    for (let f = 1; f <= 250; f++) rec.step(buttons(f));
    return { bytes: rec.finish(), hash: sim.hashHex() };
  };

  it('recorded on 2 threads, verifies on 1 and 4; recorded on 1, verifies on 2; the files are the same bytes', () => {
    const two = record(pools[0]);
    const one = record();
    expect(Buffer.from(two.bytes).equals(Buffer.from(one.bytes))).toBe(true);
    for (const threads of [undefined, pools[1]]) {
      const v = verifyReplay(readReplay(two.bytes), { world: opened, ...(threads ? { threads } : {}) });
      expect(v.ok).toBe(true);
      expect(v.finalHash).toBe(two.hash);
      expect(v.keyframes).toBeGreaterThan(0);
    }
    const jobs = pools[0]!.jobs;
    const v = verifyReplay(readReplay(one.bytes), { world: opened, threads: pools[0]! });
    expect(v.ok).toBe(true);
    // The frame after each keyframe is traced task by task (the hash after every task), so its stage of
    // gravity, movement and ground contact goes out as three dispatches instead of one.
    expect(pools[0]!.jobs - jobs).toBe(KERNELS_PER_FRAME * 250 + 2 * v.keyframes);
  });

  it('seeks on 4 threads to a frame between keyframes of a one-thread replay', () => {
    const one = record();
    const r = seekReplay(readReplay(one.bytes), { world: opened, threads: pools[1]! }, 173);
    expect(r.verified).toBe(true);
  });
});

describe('the kernel contract', () => {
  const spinSystemOf = (kernel: RangeKernel) => defineSystem({
    name: 'spin',
    priority: 53,
    create(host) {
      const ecs = host.ecs;
      const spin = ecs.store(Spin);
      const agents = ecs.defineQuery('agents', [ecs.components.Agent]);
      for (const e of ecs.entities(agents)) {
        ecs.add(e, spin);
        spin.rate[e] = (e % 5) + 1;
      }
      const q = ecs.defineQuery('spin', [spin]);
      const runner = host.parallel!.runner(kernel);
      return () => {
        const ents = ecs.entities(q);
        runner.run(ents, ents.length);
      };
    },
  });
  const spinScenario = defineScenario({ name: 'spin', version: '1', description: 'agents that spin', systems: [...DEFAULT_SYSTEMS, spinSystemOf(spinKernel)], components: [Spin] });
  const rangeScenario = defineScenario({ name: 'spin', version: '1', description: 'agents that spin by range', systems: [...DEFAULT_SYSTEMS, spinSystemOf(rangeKernel)], components: [Spin] });

  it("a scenario's own kernel from a module runs on the workers with the one-thread result", async () => {
    const { open, source } = sourceOf('colbin');
    const pool = await SystemPool.create(source, 2, { minIdsPerThread: 1, kernelModules: [SPIN_MODULE] });
    try {
      const run = (threads?: SystemPool, scenario = spinScenario) => {
        const w = open().world;
        const settings: ScenarioSettings = { ...defaultSettingsFor(w, { agents: 50, capacity: 128 }), scenario: 'spin' };
        const sim = simulationFromSettings(w, settings, scenario, undefined, threads);
        const t = trace(sim, 90);
        const spin = sim.store(Spin);
        let sum = 0;
        for (let e = 1; e <= sim.ecs.maxId; e++) sum += spin.angle[e]!;
        return { t, sum };
      };
      const one = run();
      expect(one.sum).toBeGreaterThan(0);
      const before = pool.jobs;
      expect(run(pool)).toEqual(one);
      // the built-in kernels and spin, every frame
      expect(pool.jobs - before).toBe((KERNELS_PER_FRAME + 1) * 90);
      // The comparison notices a kernel that breaks the rule: its state depends on the thread count.
      expect(run(pool, rangeScenario).t).not.toEqual(run(undefined, rangeScenario).t);
    } finally {
      await pool.close();
    }
  });

  it('marks come back merged in the order of the ids given, the same on 1, 2 and 3 threads', async () => {
    const { open, source } = sourceOf('colbin');
    const pools = [await SystemPool.create(source, 2, { minIdsPerThread: 1, kernelModules: [SPIN_MODULE] }), await SystemPool.create(source, 3, { minIdsPerThread: 1, kernelModules: [SPIN_MODULE] })];
    let ran = 0;
    try {
      const sims = [undefined, ...pools].map((threads) => {
        const w = open().world;
        const settings: ScenarioSettings = { ...defaultSettingsFor(w, { agents: 100, capacity: 128 }), scenario: 'spin' };
        return simulationFromSettings(w, settings, spinScenario, undefined, threads);
      });
      const runners = sims.map((sim) => sim.parallel.runner(markKernel));
      const maxId = sims[0]!.ecs.maxId;
      fc.assert(
        fc.property(fc.uniqueArray(fc.integer({ min: 2, max: maxId }), { maxLength: 120 }), fc.boolean(), (ids, sorted) => {
          if (sorted) ids.sort((a, b) => a - b);
          const rate = sims[0]!.store(Spin).rate;
          const want = ids.filter((e) => rate[e]! & 1);
          fc.pre(want.length > 0);
          ran++;
          for (const r of runners) expect(Array.from(r.run(ids, ids.length))).toEqual(want);
        }),
        { numRuns: 60 },
      );
    } finally {
      for (const p of pools) await p.close();
    }
    expect(ran).toBeGreaterThan(30);
    expect(pools[1]!.jobs).toBeGreaterThan(0);
  });

  it('refuses a kernel the workers do not have, one that reads undeclared components, and a simulation of another world', async () => {
    const { open, source } = sourceOf('rugrats');
    const pool = await SystemPool.create(source, 2);
    try {
      const sim = simulationFromSettings(open().world, defaultSettingsFor(open().world, { agents: 4, capacity: 16 }), undefined, undefined, pool);
      expect(() => sim.parallel.runner(spinKernel)).toThrow(/not known to the pool's workers/);
      expect(() => sim.parallel.runner({ ...sneakyKernel, name: 'retrosim:movement' })).toThrow(/declares other components in the workers' module/);
      expect(() => localParallelHost(sim.world, sim.components).runner(spinKernel)).toThrow(/component Spin is not part of this simulation/);
      const other = loadWorldFile(demoPath('gta')).world;
      expect(() => simulationFromSettings(other, defaultSettingsFor(other, { agents: 4, capacity: 16 }), undefined, undefined, pool)).toThrow(/made for the world demo.col, not for town.col/);
    } finally {
      await pool.close();
    }
    const { source: cs } = sourceOf('colbin');
    const withModule = await SystemPool.create(cs, 2, { kernelModules: [SPIN_MODULE] });
    try {
      const w = loadWorldFile(demoPath('colbin')).world;
      const settings: ScenarioSettings = { ...defaultSettingsFor(w, { agents: 4, capacity: 16 }), scenario: 'spin' };
      const sim = simulationFromSettings(w, settings, spinScenario, undefined, withModule);
      expect(() => sim.parallel.runner(sneakyKernel)).toThrow(/Position is not among the ones it declares/);
    } finally {
      await withModule.close();
    }
  });

  it('a simulation that lets go of its threads, or whose pool is closed, goes on with the same states', async () => {
    const { open, source } = sourceOf('rugrats');
    const pool = await SystemPool.create(source, 2, { minIdsPerThread: 1 });
    const settings = defaultSettingsFor(open().world, { agents: 40, capacity: 128 });
    const one = trace(simulationFromSettings(open().world, settings), 60);
    const a = simulationFromSettings(open().world, settings, undefined, undefined, pool);
    const b = simulationFromSettings(open().world, settings, undefined, undefined, pool);
    const ta: string[] = [];
    const tb: string[] = [];
    for (let f = 1; f <= 60; f++) {
      if (f === 20) a.releaseThreads();
      if (f === 40) await pool.close();
      a.step(buttons(f));
      b.step(buttons(f));
      ta.push(a.hashHex());
      tb.push(b.hashHex());
    }
    const hashes = one.slice(0, 60).map((l) => l.split(' ')[0]);
    expect(ta).toEqual(hashes);
    expect(tb).toEqual(hashes);
    expect(pool.jobs).toBe(KERNELS_PER_FRAME * (19 + 39));
  });
});
