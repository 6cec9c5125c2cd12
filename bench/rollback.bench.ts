/**
 * Rollback on the default scenario (wander on the default world, the Piney field with its weather) with 300
 * agents: one rollback = restoreFrom the confirmed frame + re-simulating 8 frames with a saveInto after each
 * (a rollback session saves every frame); goal ≤ 8 ms, so it fits a 60 Hz frame. Also saveInto and restoreFrom
 * alone, and the heap allocated per 1000 frames of step + saveInto (between forced GCs, so it needs
 * --expose-gc, which `npm run bench` passes) against step alone. The plain-data snapshots (save()/restore(),
 * the checked path for files) are measured in the same process, alternating with the reused buffers.
 *
 * Times are this process's CPU time (user + system), as the harness's CPU rates: the machine is shared, and
 * wall time on a loaded machine measures the other processes too; the wall-clock medians are in the notes.
 */
import { performance } from 'node:perf_hooks';
import { loadNote, median, type Bench, type BenchResult } from './harness.js';
import { createSimulation } from '../src/scenarios/builtin.js';
import { openBuiltinWorld } from '../src/node/open-world.js';
import { DEFAULT_WORLD } from '../src/worlds/builtin.js';
import { demoButtons } from '../src/sim/demo-input.js';
import type { Simulation, SimSnapshot } from '../src/sim/simulation.js';
import { RollbackState } from '../src/sim/rollback.js';

const AGENTS = 300;
const WINDOW = 8;
const ROLLBACKS = 150;
const GOAL_MS = 8;

const gc = (globalThis as { gc?: () => void }).gc;

/** This process's CPU time in milliseconds. */
function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

/** A rollback session's ring of states: one per frame of the window and the confirmed one. */
class Ring {
  readonly states = Array.from({ length: WINDOW + 1 }, () => new RollbackState());
  at(frame: number): RollbackState {
    return this.states[frame % this.states.length]!;
  }
}

/** Bytes the heap grew by over `frames` frames of `frame(f)`, as the sum of chunks run between forced GCs. */
function allocated(frames: number, frame: (f: number) => void, start: number): { perThousand: number; retained: number } {
  if (!gc) return { perThousand: NaN, retained: NaN };
  gc();
  const before = process.memoryUsage().heapUsed;
  let sum = 0;
  const chunk = 100;
  for (let c = 0; c < frames; c += chunk) {
    gc();
    const h0 = process.memoryUsage().heapUsed;
    for (let f = c; f < c + chunk; f++) frame(start + f);
    sum += process.memoryUsage().heapUsed - h0;
  }
  gc();
  return { perThousand: (sum * 1000) / frames, retained: ((process.memoryUsage().heapUsed - before) * 1000) / frames };
}

export const benches: Bench[] = [
  {
    name: 'rollback (default scenario, 300 agents)',
    async run(): Promise<BenchResult[]> {
      const opened = await openBuiltinWorld(DEFAULT_WORLD);
      const sim: Simulation = createSimulation(opened.world, { agents: AGENTS });
      const input = (f: number, alt: number) => demoButtons(f, alt);
      for (let f = 1; f <= 120; f++) sim.step(input(f, 0));

      // One rollback each way, from the confirmed frame `base` (saved), re-simulating WINDOW frames.
      const ring = new Ring();
      const snaps: SimSnapshot[] = [];
      const wall = { fast: [] as number[], plain: [] as number[] };
      const fast = (base: number, alt: number): number => {
        const w0 = performance.now();
        const t0 = cpuMs();
        sim.restoreFrom(ring.at(base));
        for (let k = 1; k <= WINDOW; k++) {
          sim.step(input(base + k, alt));
          sim.saveInto(ring.at(base + k));
        }
        const t = cpuMs() - t0;
        wall.fast.push(performance.now() - w0);
        return t;
      };
      const plain = (base: number, alt: number): number => {
        const w0 = performance.now();
        const t0 = cpuMs();
        sim.restore(snaps[base % (WINDOW + 1)]!);
        for (let k = 1; k <= WINDOW; k++) {
          sim.step(input(base + k, alt));
          snaps[(base + k) % (WINDOW + 1)] = sim.save();
        }
        const t = cpuMs() - t0;
        wall.plain.push(performance.now() - w0);
        return t;
      };
      // The confirmed frame advances by one per rollback, as in a session; the two ways alternate.
      const fastMs: number[] = [];
      const plainMs: number[] = [];
      const stepMs: number[] = [];
      let base = sim.frame;
      sim.saveInto(ring.at(base));
      snaps[base % (WINDOW + 1)] = sim.save();
      for (let i = 0; i < ROLLBACKS + 10; i++) {
        const a = i % 2 === 0 ? fast(base, 1 + (i % 5)) : 0;
        const b = plain(base, 1 + (i % 5));
        const c = i % 2 === 1 ? fast(base, 1 + (i % 5)) : 0;
        // Back to the confirmed frame, then confirm one more with the real input.
        sim.restoreFrom(ring.at(base));
        const t0 = cpuMs();
        sim.step(input(base + 1, 0));
        const st = cpuMs() - t0;
        base++;
        sim.saveInto(ring.at(base));
        snaps[base % (WINDOW + 1)] = sim.save();
        if (i >= 10) {
          fastMs.push(a + c);
          plainMs.push(b);
          stepMs.push(st);
        }
      }

      // saveInto and restoreFrom alone, and the plain-data save and restore, alternating (batches of 20 calls:
      // CPU time is counted in coarse steps).
      const one = new RollbackState();
      sim.saveInto(one);
      const snap = sim.save();
      const us = { saveInto: [] as number[], restoreFrom: [] as number[], save: [] as number[], restore: [] as number[] };
      const BATCH = 20;
      const time = (into: number[], fn: () => void) => {
        const t0 = cpuMs();
        for (let j = 0; j < BATCH; j++) fn();
        into.push(((cpuMs() - t0) * 1000) / BATCH);
      };
      for (let i = 0; i < 40; i++) {
        time(us.saveInto, () => sim.saveInto(one));
        time(us.restoreFrom, () => sim.restoreFrom(one));
        time(us.save, () => sim.save());
        time(us.restore, () => sim.restore(snap));
      }

      // Heap: step alone, step + saveInto into a ring, step + save() into a ring.
      const start = sim.frame + 1;
      const heapStep = allocated(1000, (f) => sim.step(input(f, 0)), start);
      const heapInto = allocated(1000, (f) => {
        sim.step(input(f, 0));
        sim.saveInto(ring.at(f));
      }, start + 1000);
      const heapPlain = allocated(1000, (f) => {
        sim.step(input(f, 0));
        snaps[f % (WINDOW + 1)] = sim.save();
      }, start + 2000);

      const load = `load ${loadNote()}`;
      const kb = (b: number) => `${(b / 1024).toFixed(0)} KiB`;
      return [
        {
          name: `rollback ${WINDOW} frames, saveInto (CPU median)`,
          value: median(fastMs),
          unit: 'ms',
          goal: GOAL_MS,
          better: 'lower',
          note: `restoreFrom + ${WINDOW} × (step + saveInto); p90 ${percentile(fastMs, 0.9).toFixed(2)} ms over ${fastMs.length}; one step alone ${median(stepMs).toFixed(2)} ms; wall median ${median(wall.fast).toFixed(2)} ms, p90 ${percentile(wall.fast, 0.9).toFixed(2)} ms; ${load}`,
        },
        {
          name: `rollback ${WINDOW} frames, save()/restore() (CPU median)`,
          value: median(plainMs),
          unit: 'ms',
          note: `restore + ${WINDOW} × (step + save), alternating with the above; p90 ${percentile(plainMs, 0.9).toFixed(2)} ms; wall median ${median(wall.plain).toFixed(2)} ms, p90 ${percentile(wall.plain, 0.9).toFixed(2)} ms`,
        },
        { name: 'saveInto (CPU median)', value: median(us.saveInto), unit: 'µs', note: `p90 ${percentile(us.saveInto, 0.9).toFixed(0)} µs; save() ${median(us.save).toFixed(0)} µs (p90 ${percentile(us.save, 0.9).toFixed(0)})` },
        { name: 'restoreFrom (CPU median)', value: median(us.restoreFrom), unit: 'µs', note: `p90 ${percentile(us.restoreFrom, 0.9).toFixed(0)} µs; restore() ${median(us.restore).toFixed(0)} µs (p90 ${percentile(us.restore, 0.9).toFixed(0)})` },
        {
          name: 'heap allocated per 1000 frames, step + saveInto',
          value: heapInto.perThousand / 1024,
          unit: 'KiB',
          note: gc
            ? `step alone ${kb(heapStep.perThousand)}; step + save() ${kb(heapPlain.perThousand)}; retained after GC: ${kb(heapStep.retained)} / ${kb(heapInto.retained)} / ${kb(heapPlain.retained)}`
            : 'needs node --expose-gc',
        },
      ];
    },
  },
];
