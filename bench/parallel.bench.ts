/**
 * Systems on threads: the whole simulation (every system and the field's weather) with 10,000 and 100,000
 * agents on the default world, on one thread and on two (`SystemPool`: the movement system's moves split
 * across a worker and this thread, identical states); the memory an agent costs; and replay verification of
 * the default scenario, and of a 10,000-agent run, on one thread and on two. Each figure comes with its
 * CPU-time counterpart (frames per second of CPU time of this process and its workers: on two threads that
 * is the total over both), so a busy machine can still be judged.
 */
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import type { Bench, BenchResult } from './harness.js';
import { consume } from './harness.js';
import { DEFAULT_WORLD } from '../src/worlds/builtin.js';
import { createSimulation } from '../src/scenarios/builtin.js';
import { openBuiltinWorld, type OpenedWorldSource } from '../src/node/open-world.js';
import { SystemPool } from '../src/node/system-pool.js';
import { demoButtons } from '../src/sim/demo-input.js';
import { ReplayRecorder } from '../src/replay/recorder.js';
import { readReplay } from '../src/replay/format.js';
import { verifyReplay } from '../src/replay/verify.js';

/** Frames run before timing (agents pick behaviours on the first; V8 settles). */
const WARM_FRAMES = 20;

interface Rate {
  fps: number;
  cpuFps: number;
}

/** Frames per timed sample: the fastest sample is the figure least disturbed by other processes. */
const FRAMES_PER_SAMPLE = 10;

/** Steps a simulation of `agents` agents on `threads` threads; frames per second of wall and of CPU time. */
async function simulationRate(opened: OpenedWorldSource, agents: number, threads: number, frames: number): Promise<Rate & { placed: number; bestFps: number }> {
  const pool = threads > 1 ? await SystemPool.create(opened.source, threads) : null;
  try {
    const sim = createSimulation(opened.world, { agents, ...(pool ? { threads: pool } : {}) });
    for (let f = 1; f <= WARM_FRAMES; f++) sim.step(demoButtons(f));
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let best = Infinity;
    let ts = t0;
    for (let f = WARM_FRAMES + 1; f <= WARM_FRAMES + frames; f++) {
      sim.step(demoButtons(f));
      if ((f - WARM_FRAMES) % FRAMES_PER_SAMPLE === 0) {
        const now = performance.now();
        best = Math.min(best, now - ts);
        ts = now;
      }
    }
    const cpu = process.cpuUsage(c0);
    const seconds = (performance.now() - t0) / 1000;
    consume(sim.ecs.components.Position.x[2]!);
    return { fps: frames / seconds, cpuFps: frames / ((cpu.user + cpu.system) / 1e6), placed: sim.agentsPlaced, bestFps: (FRAMES_PER_SAMPLE / best) * 1000 };
  } finally {
    await pool?.close();
  }
}

/** Bytes of JS heap and array buffers a simulation of `agents` agents holds after a few frames, per agent. */
function bytesPerAgent(opened: OpenedWorldSource, agents: number): { perAgent: number; componentBytes: number; capacity: number } {
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  (globalThis as { gc?: () => void }).gc?.();
  const before = used();
  const sim = createSimulation(opened.world, { agents });
  for (let f = 1; f <= 4; f++) sim.step(demoButtons(f));
  (globalThis as { gc?: () => void }).gc?.();
  const after = used();
  let perSlot = 0;
  for (const c of sim.ecs.components.all) for (const f of c.fieldNames) perSlot += c.fields[f]!.BYTES_PER_ELEMENT;
  consume(sim.hash().lo);
  return { perAgent: (after - before) / sim.agentsPlaced, componentBytes: perSlot, capacity: sim.ecs.capacity };
}

/** Records `frames` frames of `agents` agents, then verifies the replay on 1 and on 2 threads. */
async function verifyRates(opened: OpenedWorldSource, agents: number | undefined, frames: number): Promise<Rate[]> {
  const sim = createSimulation(opened.world, agents === undefined ? {} : { agents });
  const rec = new ReplayRecorder(sim, opened.identity);
  for (let f = 1; f <= frames; f++) rec.step(demoButtons(f));
  const rp = readReplay(rec.finish());
  const out: Rate[] = [];
  for (const threads of [1, 2]) {
    const pool = threads > 1 ? await SystemPool.create(opened.source, threads) : null;
    try {
      const c0 = process.cpuUsage();
      const v = verifyReplay(rp, { world: opened, ...(pool ? { threads: pool } : {}) });
      const cpu = process.cpuUsage(c0);
      if (!v.ok) throw new Error(`the replay did not verify on ${threads} thread(s)`);
      out.push({ fps: v.framesPerSecond, cpuFps: frames / ((cpu.user + cpu.system) / 1e6) });
    } finally {
      await pool?.close();
    }
  }
  return out;
}

export const benches: Bench[] = [
  {
    name: 'systems on threads',
    async run() {
      const opened = await openBuiltinWorld(DEFAULT_WORLD);
      const load = loadavg()[0]!.toFixed(1);
      const results: BenchResult[] = [];
      const sim = async (agents: number, frames: number, goals: [number, number]) => {
        for (const threads of [1, 2]) {
          const r = await simulationRate(opened, agents, threads, frames);
          const what = `simulation ${agents / 1000}k agents, default world, ${threads} thread${threads > 1 ? 's' : ''}`;
          results.push({ name: what, value: r.fps, unit: 'frames/s', goal: goals[threads - 1], better: 'higher', note: `${r.placed} agents placed, every system and the field's weather; wall clock; load average ${load} at the start` });
          results.push({ name: `${what} (CPU time)`, value: r.cpuFps, unit: 'frames/s', note: threads > 1 ? 'frames per second of CPU time of this process and its worker together' : "frames per second of this process's CPU time" });
          results.push({ name: `${what} (fastest ${FRAMES_PER_SAMPLE} frames)`, value: r.bestFps, unit: 'frames/s', note: 'wall clock of the least disturbed sample' });
        }
      };
      await sim(10_000, 200, [337, 337]);
      await sim(100_000, 60, [60, 100]);
      // Without a collection before and after, the heap figure is noise (it can even come out negative).
      if (typeof (globalThis as { gc?: unknown }).gc !== 'function') process.stderr.write('bench: memory per agent needs node --expose-gc (npm run bench passes it); skipped\n');
      else {
        const m = bytesPerAgent(opened, 100_000);
        results.push({ name: 'memory per agent, 100k agents', value: m.perAgent, unit: 'bytes', goal: 800, better: 'lower', note: `JS heap and array buffers held by the simulation, per agent placed; of which component arrays ${m.componentBytes} bytes per entity slot (capacity ${m.capacity})` });
      }
      const def = await verifyRates(opened, undefined, 600);
      const big = await verifyRates(opened, 10_000, 120);
      for (const [label, rates] of [['default scenario (300 agents)', def], ['10k agents', big]] as const) {
        for (let t = 0; t < 2; t++) {
          results.push({ name: `replay verification, ${label}, ${t + 1} thread${t ? 's' : ''}`, value: rates[t]!.fps, unit: 'frames/s', note: 'wall clock' });
          results.push({ name: `replay verification, ${label}, ${t + 1} thread${t ? 's' : ''} (CPU time)`, value: rates[t]!.cpuFps, unit: 'frames/s' });
        }
      }
      return results;
    },
  },
];
