/**
 * Line of sight: losBatch segments per second on the demo worlds, on one thread and on two (LosPool), over
 * the segments that matter to AI — every pair of scattered agents within 20 m, eye to eye; and the whole
 * simulation with 10,000 agents moving with collision on the default world (the Piney field with its weather),
 * every system on, in frames per second.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Bench, BenchResult } from './harness.js';
import { consume, lcg, opsPerSecond } from './harness.js';
import { BUILTIN_WORLDS, DEFAULT_WORLD } from '../src/worlds/builtin.js';
import { defaultSettingsFor, simulationFromSettings } from '../src/scenarios/builtin.js';
import { defaultPineyTables, packageRoot } from '../src/node/assets.js';
import { Simulation } from '../src/sim/simulation.js';
import { losBatch, newLosOutput, pairSegments, SEGMENT_STRIDE } from '../src/systems/los/los-batch.js';
import { LosPool } from '../src/node/los-pool.js';
import { loadWorldBytes } from '../src/worlds/load.js';
import { loadWorldFile } from '../src/node/world-files.js';
import type { CollisionWorld } from '../src/worlds/world.js';
import { performance } from 'node:perf_hooks';

export const LOS_WORLDS = {
  rugrats: 'assets/worlds/rugrats/demo.col',
  gta: 'assets/worlds/gta/town.col',
  llama: 'assets/worlds/llama/demo.trak',
  colbin: 'assets/worlds/colbin/demo.colbin',
  piney: 'assets/worlds/piney/default.field.json',
} as const;

/**
 * The benchmark segments of a world: `agents` standing spots from sampleOpen (seeded), every pair within
 * `rangeMetres`, eye to eye at 0.9 m. Returns the flat segment array.
 */
export function agentPairSegments(world: CollisionWorld, agents: number, rangeMetres = 20, seed = 1): Float64Array {
  const r = lcg(seed);
  const feet: number[] = [];
  for (let tries = 0; feet.length < 3 * agents && tries < agents * 200; tries++) {
    const p = world.sampleOpen(r(), r());
    if (p) feet.push(p[0], p[1], p[2]);
  }
  const n = feet.length / 3;
  const maxPairs = (n * (n - 1)) / 2;
  const seg = new Float64Array(maxPairs * SEGMENT_STRIDE);
  const pairs = new Uint32Array(maxPairs * 2);
  const eye = world.integer ? Math.round(0.9 * world.scale) : 0.9 * world.scale;
  const k = pairSegments(world, feet, n, eye, rangeMetres * world.scale, seg, pairs);
  return seg.slice(0, k * SEGMENT_STRIDE);
}

export function openBenchWorld(rel: string) {
  return loadWorldFile(fileURLToPath(new URL(`../../${rel}`, import.meta.url)));
}

/** Our segments per second on one thread and on `threads` threads for a world's agent-pair segments. */
export async function ourRates(rel: string, agents: number, threads = 2): Promise<{ count: number; one: number; many: number; visible: number }> {
  const opened = openBenchWorld(rel);
  const world = opened.world;
  const seg = agentPairSegments(world, agents);
  const n = seg.length / SEGMENT_STRIDE;
  const out = newLosOutput(n);
  const one = opsPerSecond((it) => {
    for (let i = 0; i < it; i++) losBatch(world, seg, out);
    consume(out.visible[0]!);
  }, n);
  let visible = 0;
  for (let i = 0; i < n; i++) visible += out.visible[i]!;
  const pool = await LosPool.create({ bytes: opened.bytes, name: world.name, options: opened.options }, threads);
  try {
    await pool.reserve(n);
    pool.segmentBuffer.set(seg);
    const par = newLosOutput(n);
    const many = opsPerSecond((it) => {
      for (let i = 0; i < it; i++) pool.runShared(n, par);
      consume(par.visible[0]!);
    }, n);
    for (let i = 0; i < n; i++) if (par.fraction[i] !== out.fraction[i]) throw new Error(`${rel}: ${threads} threads disagree with one at segment ${i}`);
    return { count: n, one, many, visible };
  } finally {
    await pool.close();
  }
}

export const benches: Bench[] = [
  {
    name: 'los batch',
    async run() {
      const results: BenchResult[] = [];
      for (const [kind, rel] of Object.entries(LOS_WORLDS)) {
        const agents = kind === 'llama' ? 60 : 400;
        const r = await ourRates(rel, agents);
        results.push({ name: `los ${kind} 1 thread`, value: r.one, unit: 'segments/s', note: `${r.count} agent-pair segments within 20 m, ${r.visible} clear` });
        results.push({ name: `los ${kind} 2 threads`, value: r.many, unit: 'segments/s', note: `answers identical to 1 thread (checked)` });
      }
      return results;
    },
  },
  {
    name: 'los 10k agents',
    run() {
      const root = packageRoot();
      const bytes = new Uint8Array(readFileSync(`${root}/${BUILTIN_WORLDS[DEFAULT_WORLD]}`));
      const world = loadWorldBytes(bytes, 'default.field.json', { pineyTables: defaultPineyTables() });
      const sim = simulationFromSettings(world, defaultSettingsFor(world, { agents: 10_000, capacity: 10_016 }));
      for (let f = 0; f < 20; f++) sim.step(0);
      const frames = 200;
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      for (let f = 0; f < frames; f++) sim.step(0);
      const cpu = process.cpuUsage(c0);
      const fps = frames / ((performance.now() - t0) / 1000);
      // The machine is shared: CPU time shows what one free core would do.
      const cpuFps = frames / ((cpu.user + cpu.system) / 1e6);
      consume(sim.ecs.components.Position.x[2]!);
      return [
        { name: 'simulation 10k agents, default world', value: fps, unit: 'frames/s', goal: 200, better: 'higher', note: `${sim.agentsPlaced} agents placed, every system and the field's weather tasks; wall clock` },
        { name: 'simulation 10k agents, default world (CPU time)', value: cpuFps, unit: 'frames/s', goal: 200, better: 'higher', note: 'frames per second of this process\'s CPU time' },
      ];
    },
  },
];
