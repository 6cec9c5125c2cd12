/**
 * The frame profiler (bench/frame-profiler.ts) and the hooks it uses (`Scheduler.profiler`,
 * `SystemPool.profiler`): a profiled run of the default scenario has every frame's state hash of an unprofiled
 * run, on one thread and on two, and its table has a row for every system of the default scenario, the field's
 * ambient tasks, the movement's stages and, on two threads, each kernel's join.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../../src/scenarios/builtin.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { SystemPool } from '../../src/node/system-pool.js';
import { DEFAULT_WORLD } from '../../src/worlds/builtin.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { Buttons } from '../../src/systems/input.js';
import { AMBIENT_KEY, FrameProfiler, formatProfile } from '../../bench/frame-profiler.js';

const AGENTS = 600;
const FRAMES = 64;
const buttons = (f: number) => demoButtons(f) | (f % 29 === 0 ? Buttons.Jump : 0);

describe('frame profiler', () => {
  it('leaves every hash unchanged and covers every system, on 1 and 2 threads', async () => {
    const opened = await openBuiltinWorld(DEFAULT_WORLD);
    const plain = createSimulation(opened.world, { agents: AGENTS });
    const expected: string[] = [];
    for (let f = 1; f <= FRAMES; f++) {
      plain.step(buttons(f));
      expected.push(plain.hashHex());
    }
    const pool = await SystemPool.create(opened.source, 2, { minIdsPerThread: 1 });
    try {
      for (const threads of [null, pool]) {
        const sim = createSimulation(opened.world, { agents: AGENTS, ...(threads ? { threads } : {}) });
        const profiler = new FrameProfiler(sim, threads);
        for (let f = 1; f <= FRAMES; f++) {
          // Profiled and unprofiled frames in turn, in blocks of 4 (as the bench runs them).
          if ((f >> 2) % 2 === 0) profiler.frame(() => sim.step(buttons(f)));
          else profiler.unprofiledFrame(() => sim.step(buttons(f)));
          expect(sim.hashHex(), `frame ${f} on ${threads ? 2 : 1} thread(s)`).toBe(expected[f - 1]);
        }
        // The hooks are detached between profiled frames.
        expect(sim.scheduler.profiler).toBeNull();
        const p = profiler.profile(sim.agentsPlaced);
        const labels = p.rows.map((r) => r.label.trim());
        for (const s of DEFAULT_SYSTEMS) expect(labels).toContain(`system ${s.name}`);
        expect(labels).toContain(AMBIENT_KEY);
        expect(labels.some((l) => l.startsWith('height queries'))).toBe(true);
        expect(labels.some((l) => l.startsWith('world.move'))).toBe(true);
        for (const r of p.rows) expect(Number.isFinite(r.wallNs), r.label).toBe(true);
        // Every system ran and was timed (a row of zeros would mean its hooks never fired).
        const movement = p.rows.find((r) => r.label === 'system movement')!;
        expect(movement.wallNs).toBeGreaterThan(0);
        if (threads) {
          // Gravity, movement and ground contact as one stage, run between tasks, with its own join.
          expect(labels).toContain('stage retrosim:gravity + retrosim:movement + retrosim:ground-contact (staged by those systems, run between tasks)');
          expect(labels).toContain('kernel retrosim:gravity + retrosim:movement + retrosim:ground-contact: join (main thread waits)');
          expect(labels).toContain('kernel retrosim:wander: join (main thread waits)');
        }
        expect(formatProfile(p).split('\n')).toHaveLength(p.rows.length + 2);
      }
      expect(pool.profiler).toBeNull();
      expect(pool.jobs).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  }, 120_000);
});
