/**
 * Line of sight: losBatch segments per second on the demo worlds, on one thread and on two (LosPool), over
 * the segments that matter to AI — every pair of scattered agents within 20 m, eye to eye; the visibility
 * matrix of 10,000 wandering agents (`retrosim los --agents 10000`: finding the pairs and casting them) per
 * frame on one thread and on two; and the whole simulation with 10,000 agents moving with collision on the
 * default world (the Piney field with its weather), every system on, in frames per second.
 */
import { readFileSync } from 'node:fs';
import type { Bench, BenchResult } from './harness.js';
import { consume, lcg, loadNote, opsPerSecond } from './harness.js';
import { BUILTIN_WORLDS, DEFAULT_WORLD } from '../src/worlds/builtin.js';
import { defaultSettingsFor, simulationFromSettings } from '../src/scenarios/builtin.js';
import { defaultPineyTables, packageRoot } from '../src/node/assets.js';
import { Simulation } from '../src/sim/simulation.js';
import { losBatch, newLosOutput, pairSegments, pairSegmentsReference, SEGMENT_STRIDE } from '../src/systems/los/los-batch.js';
import { eyeHeight } from '../src/systems/los-system.js';
import { benchWasmMode, disagreements, LOS_WORLDS, openBenchWorld } from './bench-worlds.js';
import { LosPool } from '../src/node/los-pool.js';
import { loadWorldBytes } from '../src/worlds/load.js';
import type { CollisionWorld } from '../src/worlds/world.js';
import { performance } from 'node:perf_hooks';

export { LOS_WORLDS, openBenchWorld } from './bench-worlds.js';

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

/** Our segments per second on one thread and on `threads` threads for a world's agent-pair segments. */
export async function ourRates(rel: string, agents: number, threads = 2): Promise<{ count: number; one: number; many: number; visible: number; bad: number }> {
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
  const bad = disagreements(world, seg, out.fraction, out.visible);
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
    return { count: n, one, many, visible, bad };
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
        results.push({ name: `los ${kind} disagreements with the reference`, value: r.bad, unit: 'segments', goal: 0, better: 'lower', note: 'fast path against the rule-exact reference path, every segment, bit for bit' });
      }
      return results;
    },
  },
  {
    name: 'los matrix 10k',
    async run() {
      const results: BenchResult[] = [];
      for (const [kind, goal] of [['piney', 25], ['gta', 100]] as const) results.push(...(await matrixFigures(kind, goal)));
      return results;
    },
  },
  {
    name: 'los 10k agents',
    run() {
      const root = packageRoot();
      const bytes = new Uint8Array(readFileSync(`${root}/${BUILTIN_WORLDS[DEFAULT_WORLD]}`));
      const world = loadWorldBytes(bytes, 'default.field.json', { pineyTables: defaultPineyTables(), wasm: benchWasmMode() });
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

/** Frames per configuration in the matrix bench (after two warm-up frames each). */
export const MATRIX_FRAMES = 5;

/** One frame's visibility matrix of 10,000 wandering agents on a demo world, as `retrosim los` computes it. */
export interface MatrixScene {
  opened: ReturnType<typeof openBenchWorld>;
  world: CollisionWorld;
  /** Agents placed. */
  agents: number;
  /** Their feet (x, y, z each), as of the last `step`. */
  feet: Float64Array;
  /** Eye height above the feet, world units. */
  eye: number;
  /** 20 m in world units. */
  range: number;
  /** Steps the simulation one frame and reads the agents' feet. */
  step(): void;
  /** The matrix on this thread (pairSegments in batches, losBatch), its answers into `one`; returns the pairs. */
  single(): number;
  /** The last `single`'s answers. */
  one: ReturnType<typeof newLosOutput>;
}

/** Builds the 10,000-agent scene of the matrix bench on a demo world (not stepped yet). */
export function matrixScene(kind: 'piney' | 'gta'): MatrixScene {
  const opened = openBenchWorld(LOS_WORLDS[kind]);
  const world = opened.world;
  const sim = simulationFromSettings(world, defaultSettingsFor(world, { scenario: 'wander', agents: 10_000, capacity: 10_008 }));
  const n = sim.agentsPlaced;
  const c = sim.ecs.components;
  const feet = new Float64Array(3 * n);
  const ids = new Uint32Array(n);
  const range = 20 * world.scale;
  const batch = 1 << 16;
  const segments = new Float64Array(batch * SEGMENT_STRIDE);
  const pairs = new Uint32Array(batch * 2);
  const out = newLosOutput(batch);
  const scene: MatrixScene = {
    opened,
    world,
    agents: n,
    feet,
    eye: 0,
    range,
    one: newLosOutput(0),
    step() {
      sim.step(0);
      let k = 0;
      for (let e = 1; e <= sim.ecs.maxId && k < n; e++) if (sim.ecs.has(e, c.Agent)) ids[k++] = e;
      for (let i = 0; i < n; i++) {
        feet[3 * i] = c.Position.x[ids[i]!]!;
        feet[3 * i + 1] = c.Position.y[ids[i]!]!;
        feet[3 * i + 2] = c.Position.z[ids[i]!]!;
      }
      scene.eye = eyeHeight(world, c.BodySize.height[ids[0]!]!);
    },
    single() {
      const one = scene.one;
      const cursor = { i: 0, j: 1 };
      let total = 0;
      while (cursor.i < n - 1) {
        const k = pairSegments(world, feet, n, scene.eye, range, segments, pairs, cursor, batch);
        losBatch(world, segments, out, 0, k);
        if (one.visible.length < total + k) {
          const v = new Uint8Array(2 * (total + k)), f = new Float64Array(2 * (total + k));
          v.set(one.visible.subarray(0, total));
          f.set(one.fraction.subarray(0, total));
          one.visible = v;
          one.fraction = f;
        }
        one.visible.set(out.visible.subarray(0, k), total);
        one.fraction.set(out.fraction.subarray(0, k), total);
        total += k;
      }
      return total;
    },
  };
  return scene;
}

/**
 * The visibility matrix of `retrosim los --agents 10000` on a demo world, per frame: the wandering agents'
 * pairs within 20 m found and cast on one thread (the command's own loop: pairSegments in batches, losBatch)
 * and on two (LosPool.matrix), frames taken in turn so a change of load hits both alike. The simulation steps
 * between frames untimed. Wall and CPU milliseconds (CPU of every thread of the process). The two-thread
 * answers are checked equal to one thread's, and one frame's pairs and answers against the reference paths
 * (the double loop over every pair, the rule-exact segment test).
 */
export async function matrixFigures(kind: 'piney' | 'gta', goalMs: number): Promise<BenchResult[]> {
  const loadBefore = loadNote();
  const scene = matrixScene(kind);
  const { opened, world, feet, step, single, one } = scene;
  const n = scene.agents;
  const range = scene.range;
  const timed = async (fn: () => number | Promise<number>): Promise<{ wall: number; cpu: number; count: number }> => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const count = await fn();
    const cu = process.cpuUsage(c0);
    return { wall: performance.now() - t0, cpu: (cu.user + cu.system) / 1000, count };
  };
  const pool = await LosPool.create({ bytes: opened.bytes, name: world.name, options: opened.options }, 2);
  try {
    const w1: number[] = [], c1: number[] = [], w2: number[] = [], c2: number[] = [];
    let count = 0;
    for (let f = 0; f < MATRIX_FRAMES + 2; f++) {
      step();
      const a = await timed(single);
      const b = await timed(async () => (await pool.matrix(feet, n, scene.eye, range)).count);
      if (b.count !== a.count) throw new Error(`${kind}: two threads found ${b.count} pairs, one ${a.count}`);
      const ans = pool.answers;
      for (let i = 0; i < a.count; i++) {
        if (ans.visible[i] !== one.visible[i] || !Object.is(ans.fraction[i], one.fraction[i])) throw new Error(`${kind}: two threads disagree with one at pair ${i}`);
      }
      count = a.count;
      if (f < 2) continue;
      w1.push(a.wall);
      c1.push(a.cpu);
      w2.push(b.wall);
      c2.push(b.cpu);
    }
    // The last frame against the reference paths: the pairs by the double loop, the answers by the reference test.
    const all = new Float64Array(count * SEGMENT_STRIDE);
    const refPairs = new Uint32Array(count * 2);
    const k = pairSegmentsReference(world, feet, n, scene.eye, range, all, refPairs, { i: 0, j: 1 }, count);
    let bad = Math.abs(k - count);
    const grid = new Float64Array(count * SEGMENT_STRIDE);
    pairSegments(world, feet, n, scene.eye, range, grid, new Uint32Array(count * 2), { i: 0, j: 1 }, count);
    for (let i = 0; i < k * SEGMENT_STRIDE; i += SEGMENT_STRIDE) if (!Object.is(all[i], grid[i]) || !Object.is(all[i + 3], grid[i + 3]) || !Object.is(all[i + 5], grid[i + 5])) bad++;
    bad += disagreements(world, all.subarray(0, k * SEGMENT_STRIDE), one.fraction.subarray(0, k), one.visible.subarray(0, k));
    const med = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1]!;
    const note = `${n} agents, ${count} pairs within 20 m a frame`;
    return [
      { name: `los matrix 10k ${kind} 1 thread`, value: med(w1), unit: 'ms', note: `${note}; wall clock; CPU time ${med(c1).toFixed(1)} ms` },
      { name: `los matrix 10k ${kind} 1 thread (CPU time)`, value: med(c1), unit: 'ms', note: 'CPU milliseconds of the frame' },
      { name: `los matrix 10k ${kind} 2 threads`, value: med(w2), unit: 'ms', goal: goalMs, better: 'lower', note: `${world.setWasm?.(benchWasmMode()) ? 'WebAssembly' : 'JavaScript'} walk; wall clock; CPU time of both threads ${med(c2).toFixed(1)} ms; answers identical to 1 thread (checked); load average ${loadBefore} before, ${loadNote()} after` },
      { name: `los matrix 10k ${kind} 2 threads (CPU time, both threads)`, value: med(c2), unit: 'ms', note: 'CPU milliseconds of the frame, the main thread and the worker together' },
      { name: `los matrix 10k ${kind} disagreements with the reference`, value: bad, unit: 'segments', goal: 0, better: 'lower', note: 'one frame: the pairs against the double loop over every pair, the answers against the rule-exact segment test' },
    ];
  } finally {
    await pool.close();
  }
}
