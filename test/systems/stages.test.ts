/**
 * Staged kernels: on several threads gravity, movement and ground contact stage their kernels and the pool
 * runs them as one dispatch, each chunk of bodies through the three in turn. These tests hold the rule that
 * makes that safe: every state (each frame's hash, and the hash after every task) is the one-thread state;
 * a task that does not stage sees the staged work done; a frame that throws leaves the state a thread count
 * does not change; a staged kernel that marks ids is refused.
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import type { Simulation } from '../../src/sim/simulation.js';
import { loadWorldFile } from '../../src/node/world-files.js';
import { SystemPool } from '../../src/node/system-pool.js';
import { defineScenario, type ScenarioDef as Scenario } from '../../src/sim/scenario.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { defineSystem, type SystemDef } from '../../src/systems/system.js';
import { gravitySystem } from '../../src/systems/gravity.js';
import type { KernelProfiler } from '../../src/ecs/profile-hooks.js';
import type { RangeKernel } from '../../src/systems/range-kernel.js';
import { demoPath } from './demo-worlds.js';
// @ts-expect-error a plain JS module (the workers import it by path)
import { Spin, ownSpinKernel, ownMarkKernel } from './fixtures/spin-kernel.mjs';

const SPIN_MODULE = fileURLToPath(new URL('./fixtures/spin-kernel.mjs', import.meta.url));
const BODY_STAGE = 'retrosim:gravity + retrosim:movement + retrosim:ground-contact';
const open = () => loadWorldFile(demoPath('colbin'));

function sourceOf() {
  const o = open();
  return { bytes: o.bytes, name: o.world.name, options: o.options };
}

/** Records the kernel runs a pool makes: name and thread count. */
function recorder(): KernelProfiler & { runs: string[] } {
  const runs: string[] = [];
  return { runs, kernelStart: (name, _ids, threads) => void runs.push(`${name} /${threads}`), kernelJoin() {}, kernelEnd() {} };
}

function simOf(scenario: Scenario | undefined, threads?: SystemPool): Simulation {
  const w = open().world;
  const settings = { ...defaultSettingsFor(w, { agents: 60, capacity: 256 }), ...(scenario ? { scenario: scenario.name } : {}) };
  return simulationFromSettings(w, settings, scenario, undefined, threads);
}

/** Each frame's hash, and the hash after every task (read through `afterTask`, as the synctest does). */
function trail(sim: Simulation, frames: number, perTask: boolean): string[] {
  const out: string[] = [];
  if (perTask) sim.scheduler.afterTask = (t) => void out.push(`${t.name} ${sim.hashHex()}`);
  for (let f = 1; f <= frames; f++) {
    sim.step(demoButtons(f, 3));
    out.push(`frame ${f} ${sim.hashHex()}`);
  }
  sim.scheduler.afterTask = null;
  return out;
}

/** The default systems with `extra` right after gravity (same priority, later in the list: it runs next). */
function afterGravity(name: string, extra: SystemDef): Scenario {
  const systems = [...DEFAULT_SYSTEMS];
  systems.splice(systems.indexOf(gravitySystem) + 1, 0, extra);
  return defineScenario({ name, version: '1', description: 'the default systems and one more after gravity', systems, components: [Spin] });
}

describe('staged kernels', () => {
  it('gravity, movement and ground contact go out as one dispatch a frame, with the one-thread state after every frame and every task', async () => {
    const pool = await SystemPool.create(sourceOf(), 2, { minIdsPerThread: 1 });
    try {
      const one = trail(simOf(undefined), 120, false);
      const sim = simOf(undefined, pool);
      const rec = recorder();
      pool.profiler = rec;
      expect(trail(sim, 120, false)).toEqual(one);
      pool.profiler = null;
      expect(rec.runs.filter((r) => r === `${BODY_STAGE} /2`)).toHaveLength(120);
      expect(rec.runs.some((r) => /^retrosim:(gravity|movement|ground-contact) \/\d+$/.test(r))).toBe(false);
      // With afterTask set the stage runs before each observation: every task's hash is the one-thread one.
      expect(trail(simOf(undefined, pool), 60, true)).toEqual(trail(simOf(undefined), 60, true));
    } finally {
      await pool.close();
    }
  });

  it('a system between gravity and movement that does not stage sees gravity done, and splits the stage', async () => {
    // Sums the downward speeds into its state (hashed): run before gravity's kernel, it would sum last frame's.
    const probe = defineSystem({
      name: 'fall-probe',
      priority: gravitySystem.priority,
      create(host) {
        const v = host.ecs.components.Velocity;
        const up = [v.x, v.y, v.z][host.world.up.axis]!;
        const seen = new Float64Array(1);
        return {
          state: { seen },
          run() {
            let s = 0;
            for (let e = 1; e <= host.ecs.maxId; e++) s += up[e]!;
            seen[0] = s;
          },
        };
      },
    });
    const scenario = afterGravity('fall-probe', probe);
    const pool = await SystemPool.create(sourceOf(), 2, { minIdsPerThread: 1 });
    try {
      const oneSim = simOf(scenario);
      const one = trail(oneSim, 90, false);
      const sim = simOf(scenario, pool);
      const rec = recorder();
      pool.profiler = rec;
      expect(trail(sim, 90, false)).toEqual(one);
      pool.profiler = null;
      expect(rec.runs.filter((r) => r === 'retrosim:gravity /2')).toHaveLength(90);
      expect(rec.runs.filter((r) => r === 'retrosim:movement + retrosim:ground-contact /2')).toHaveLength(90);
    } finally {
      await pool.close();
    }
  });

  it('a frame that throws after gravity staged its kernel leaves the one-thread state, and the next frames agree', async () => {
    const thrower = defineSystem({
      name: 'thrower',
      priority: gravitySystem.priority,
      create(host) {
        return {
          run(ctx) {
            if (ctx.frame === 7) throw new Error('thrown on purpose');
          },
          // Joins the stage, so gravity's kernel is still staged when it throws.
          stages: host.parallel !== undefined && host.parallel.threads > 1,
        };
      },
    });
    const scenario = afterGravity('thrower', thrower);
    const run = (sim: Simulation) => {
      const out: string[] = [];
      for (let f = 1; f <= 20; f++) {
        try {
          sim.step(demoButtons(f, 3));
        } catch (e) {
          out.push(`threw ${(e as Error).message}`);
        }
        out.push(sim.hashHex());
      }
      return out;
    };
    const pool = await SystemPool.create(sourceOf(), 2, { minIdsPerThread: 1 });
    try {
      const one = run(simOf(scenario));
      expect(one.filter((l) => l.startsWith('threw'))).toHaveLength(1);
      expect(run(simOf(scenario, pool))).toEqual(one);
    } finally {
      await pool.close();
    }
  });

  /** A system that stages `kernel` over the agents, which it gives Spin. */
  const stagingSpin = (kernel: RangeKernel) =>
    defineSystem({
      name: 'spin',
      priority: 53,
      create(host) {
        const ecs = host.ecs;
        const spin = ecs.store(Spin);
        for (const e of ecs.entities(ecs.defineQuery('agents', [ecs.components.Agent]))) {
          ecs.add(e, spin);
          spin.rate[e] = (e % 5) + 1;
        }
        const q = ecs.defineQuery('spin', [spin]);
        const runner = host.parallel!.runner(kernel);
        return { run: () => runner.stage!(ecs.entities(q), ecs.entities(q).length, q.key), stages: true };
      },
    });

  it("a scenario's own staged kernel over other ids runs in a stage of its own, with the one-thread state", async () => {
    const scenario = defineScenario({ name: 'spin', version: '1', description: 'staged spin', systems: [...DEFAULT_SYSTEMS, stagingSpin(ownSpinKernel)], components: [Spin] });
    const pool = await SystemPool.create(sourceOf(), 2, { minIdsPerThread: 1, kernelModules: [SPIN_MODULE] });
    try {
      const spinSum = (sim: Simulation) => {
        const s = sim.store(Spin);
        let sum = 0;
        for (let e = 1; e <= sim.ecs.maxId; e++) sum += s.angle[e]!;
        return sum;
      };
      const oneSim = simOf(scenario);
      const one = trail(oneSim, 60, false);
      expect(spinSum(oneSim)).toBeGreaterThan(0);
      const sim = simOf(scenario, pool);
      const rec = recorder();
      pool.profiler = rec;
      expect(trail(sim, 60, false)).toEqual(one);
      expect(spinSum(sim)).toBe(spinSum(oneSim));
      expect(rec.runs.filter((r) => r === 'test:own-spin /2')).toHaveLength(60);
    } finally {
      await pool.close();
    }
  });

  it('a staged kernel that marks ids is refused, naming it, on one thread and on two', async () => {
    const scenario = defineScenario({ name: 'spin', version: '1', description: 'staged marks', systems: [...DEFAULT_SYSTEMS, stagingSpin(ownMarkKernel)], components: [Spin] });
    const pool = await SystemPool.create(sourceOf(), 2, { minIdsPerThread: 1, kernelModules: [SPIN_MODULE] });
    try {
      expect(() => simOf(scenario).step(0)).toThrow(/range kernel test:own-mark marked ids in a stage/);
      expect(() => simOf(scenario, pool).step(0)).toThrow(/range kernel test:own-mark marked ids in a stage/);
    } finally {
      await pool.close();
    }
  });
});
