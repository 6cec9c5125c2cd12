/**
 * The runtime's own code never calls what the determinism guard refuses beyond randomness, clocks and timers
 * (the engine's maths, Date, process's clocks, the locale): the built-in scenarios' steps skip those checks
 * (runtime-code.ts), so this holds them to it. With every check on in every step, the default scenario (the
 * Piney field with its weather and ambient tasks) and the demo worlds of the cross-engine tests run, on one
 * thread and on two, and a replay verifies, with no refusal and the same hash on every frame as without.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { everyCheckEverywhere } from '../../src/sim/determinism-guard.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { SystemPool } from '../../src/node/system-pool.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import type { Simulation } from '../../src/sim/simulation.js';
import { CASES, openSource } from '../engines/determinism-cases.js';

const ORIGINAL_EXP = Math.exp;
const ORIGINAL_DATE = globalThis.Date;

afterEach(() => everyCheckEverywhere(false));

/** Every frame's hash over `frames` steps; with `checking`, also that the engine's maths was refused while the tasks ran. */
function run(sim: Simulation, frames: number, checking: boolean): string[] {
  let tasksSeen = 0;
  sim.scheduler.profiler = {
    taskStart: () => {
      tasksSeen++;
      // The profiler is the program's code, told before each task: what the task will find in place.
      expect(Math.exp !== ORIGINAL_EXP, 'Math.exp replaced while the task runs').toBe(checking);
      expect(globalThis.Date !== ORIGINAL_DATE, 'Date replaced while the task runs').toBe(checking);
    },
    taskEnd: () => {},
  };
  const hashes: string[] = [];
  for (let f = 1; f <= frames; f++) {
    sim.step(demoButtons(f));
    hashes.push(sim.hashHex());
  }
  sim.scheduler.profiler = null;
  expect(tasksSeen).toBeGreaterThanOrEqual(frames);
  return hashes;
}

describe("the built-in scenarios with every check on: no refusal, the same hashes (the runtime's code calls none of them)", () => {
  for (const c of CASES) {
    it(`${c.label}: ${c.frames} frames`, async () => {
      const opened = await openSource(c.source);
      const settings = defaultSettingsFor(opened.world, c.agents === undefined ? {} : { agents: c.agents });
      const plain = run(simulationFromSettings(opened.world, settings), c.frames, false);
      everyCheckEverywhere(true);
      const checked = run(simulationFromSettings(opened.world, settings), c.frames, true);
      everyCheckEverywhere(false);
      expect(new Set(plain).size).toBeGreaterThan(c.frames / 2);
      expect(checked).toEqual(plain);
    });
  }

  it('on two threads (the range kernels on system workers, which always check everything): the same hashes', async () => {
    const opened = await openBuiltinWorld('rugrats-demo');
    const settings = defaultSettingsFor(opened.world, { agents: 300, capacity: 512 });
    const plain = run(simulationFromSettings(opened.world, settings), 120, false);
    const pool = await SystemPool.create(opened.source, 2, { minIdsPerThread: 1 });
    try {
      everyCheckEverywhere(true);
      const sim = simulationFromSettings(opened.world, settings, undefined, undefined, pool);
      const jobs = pool.jobs;
      expect(run(sim, 120, true)).toEqual(plain);
      expect(pool.jobs).toBeGreaterThan(jobs);
      sim.releaseThreads();
    } finally {
      everyCheckEverywhere(false);
      await pool.close();
    }
  });

  it('a replay of the default scenario verifies with every check on', async () => {
    const opened = await openSource('builtin:piney-default');
    const settings = defaultSettingsFor(opened.world);
    const rec = new ReplayRecorder(simulationFromSettings(opened.world, settings), opened.identity, 100);
    for (let f = 1; f <= 300; f++) rec.step(demoButtons(f));
    const bytes = rec.finish();
    everyCheckEverywhere(true);
    const r = verifyReplay(bytes, simulationFromSettings(opened.world, settings));
    expect(r.ok).toBe(true);
    expect(r.frames).toBe(300);
  });
});
