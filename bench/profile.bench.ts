/**
 * Where the frame goes: a profile of the default scenario's frame with 100,000 agents on the default world,
 * on one thread and on two, per system and per stage in ns per agent (wall, and CPU time of the whole process;
 * the median over windows of 4 frames, one line-of-sight look each), with each row's share of the frame. On
 * two threads, each range-kernel run is split into the main thread's own range and the join (the main thread
 * waiting for the worker). Profiled frames alternate with unprofiled ones in blocks of 4, so the profiler's
 * own cost shows. frame-profiler.ts says how the clocks are read without touching the simulation.
 *
 * Run alone: `npm run bench -- profile`, or `node dist/bench/profile.bench.js [agents] [frames]`.
 */
import { fileURLToPath } from 'node:url';
import type { Bench, BenchResult } from './harness.js';
import { consume, loadNote } from './harness.js';
import { DEFAULT_WORLD } from '../src/worlds/builtin.js';
import { createSimulation } from '../src/scenarios/builtin.js';
import { openBuiltinWorld } from '../src/node/open-world.js';
import { SystemPool } from '../src/node/system-pool.js';
import { demoButtons } from '../src/sim/demo-input.js';
import { LOS_RATE } from '../src/systems/los-system.js';
import { FrameProfiler, formatProfile, type Profile } from './frame-profiler.js';

const AGENTS = 100_000;
/** Frames run before profiling (agents pick behaviours on the first; V8 settles). */
const WARM_FRAMES = 20;
/** Profiled frames (as many unprofiled ones are interleaved, LOS_RATE at a time). */
const PROFILED_FRAMES = 48;

/** Profiles `frames` frames of `agents` agents on the default world on `threads` threads. */
export async function profileDefault(agents: number, threads: number, frames = PROFILED_FRAMES): Promise<Profile> {
  const opened = await openBuiltinWorld(DEFAULT_WORLD);
  const pool = threads > 1 ? await SystemPool.create(opened.source, threads) : null;
  try {
    const sim = createSimulation(opened.world, { agents, ...(pool ? { threads: pool } : {}) });
    let f = 0;
    for (; f < WARM_FRAMES; f++) sim.step(demoButtons(f + 1));
    const profiler = new FrameProfiler(sim, pool);
    // Blocks of LOS_RATE frames starting on a frame after a look, so each block holds exactly one look.
    while (f % LOS_RATE !== 0) sim.step(demoButtons(++f));
    for (let block = 0; block < Math.ceil(frames / LOS_RATE) * 2; block++) {
      for (let i = 0; i < LOS_RATE; i++) {
        const buttons = demoButtons(++f);
        if (block % 2 === 0) profiler.frame(() => sim.step(buttons));
        else profiler.unprofiledFrame(() => sim.step(buttons));
      }
    }
    consume(profiler.sink);
    return profiler.profile(sim.agentsPlaced, LOS_RATE);
  } finally {
    await pool?.close();
  }
}

function results(p: Profile, load: string): BenchResult[] {
  const what = `profile ${p.agents / 1000}k agents, ${p.threads} thread${p.threads > 1 ? 's' : ''}`;
  return p.rows.map((r) => ({
    name: `${what}: ${r.label.trim()}`,
    value: r.wallNs,
    unit: 'ns/agent',
    note: `${r.cpuNs === null ? '' : `CPU ${r.cpuNs.toFixed(1)} ns/agent, `}${r.kind === 'outside' ? 'outside the frame' : `${(100 * r.share).toFixed(1)} % of the frame`}; median of ${p.frames / p.window} windows of ${p.window} frames; load ${load} at the start`,
  }));
}

async function runProfiles(agents: number, frames: number, print: (s: string) => void): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const threads of [1, 2]) {
    const load = loadNote();
    const p = await profileDefault(agents, threads, frames);
    print(`\nload average ${load} at the start\n${formatProfile(p)}\n`);
    out.push(...results(p, load));
  }
  return out;
}

export const benches: Bench[] = [
  {
    name: 'frame profile',
    async run() {
      // The table goes to stderr under --json, so stdout stays one JSON document.
      const print = (s: string) => (process.argv.includes('--json') ? process.stderr : process.stdout).write(s + '\n');
      return runProfiles(AGENTS, PROFILED_FRAMES, print);
    },
  },
];

// Run directly: node dist/bench/profile.bench.js [agents] [frames]
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const agents = Number(process.argv[2] ?? AGENTS);
  const frames = Number(process.argv[3] ?? PROFILED_FRAMES);
  if (!Number.isInteger(agents) || agents < 1 || !Number.isInteger(frames) || frames < LOS_RATE) {
    process.stderr.write(`usage: profile.bench.js [agents >= 1] [frames >= ${LOS_RATE}]\n`);
    process.exit(2);
  }
  await runProfiles(agents, frames, (s) => process.stdout.write(s + '\n'));
}
