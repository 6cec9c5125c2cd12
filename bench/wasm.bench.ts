/**
 * The WebAssembly kernels against the JavaScript walks, in one process, alternating: the visibility matrix of
 * 10,000 wandering agents on the default Piney field (`retrosim los --agents 10000`, one thread: finding the
 * pairs and casting them), and the cast alone over one frame's pairs (`segmentFractions` of the whole frame's
 * segments). Each round times JavaScript then WebAssembly or the other way round (the order alternates), on the
 * same frame; the figures are medians of the rounds, CPU time beside the wall clock. Every answer is checked
 * equal between the two, bit for bit.
 *
 * And the GTA town's segment walk: the line-of-sight segments of agent pairs within 20 m (the `los batch`
 * bench's set, 400 agents), `segmentFractions` of them all per round, JavaScript and WebAssembly alternating.
 *
 * 'los wasm rugrats': the Rugrats walk's kernel against its JavaScript walk the same way, on the segments of
 * line of sight between agents within 20 m on the demo level, eye to eye (`agentPairSegments`, the peers
 * bench's scene of 450 agents): `segmentFractions` of the whole set each round, the order alternating.
 */
import { performance } from 'node:perf_hooks';
import type { Bench, BenchResult } from './harness.js';
import { loadNote } from './harness.js';
import { LOS_WORLDS, openBenchWorld } from './bench-worlds.js';
import { defaultSettingsFor, simulationFromSettings } from '../src/scenarios/builtin.js';
import { losBatch, newLosOutput, pairSegments, SEGMENT_STRIDE } from '../src/systems/los/los-batch.js';
import { eyeHeight } from '../src/systems/los-system.js';
import { jsEngine } from '../src/worlds/wasm-mode.js';
import { agentPairSegments } from './los.bench.js';

/** Rounds (frames) of the comparison, after two of warm-up. */
export const WASM_ROUNDS = 9;

const med = (v: number[]): number => [...v].sort((x, y) => x - y)[v.length >> 1]!;

/** Agents of the Rugrats comparison: the peers bench's scene on the demo level (about 100,000 pairs). */
export const RUGRATS_WASM_AGENTS = 450;

function timed(fn: () => void): { wall: number; cpu: number } {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  fn();
  const cu = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (cu.user + cu.system) / 1000 };
}

/** The Rugrats walk: kernel against JavaScript on the demo level's agent-pair segments (see the module comment). */
function rugratsWalk(): BenchResult[] {
  const loadBefore = loadNote();
  const world = openBenchWorld(LOS_WORLDS.rugrats).world;
  if (!world.setWasm || !world.segmentFractions) throw new Error('the Rugrats world has no WebAssembly kernel');
  const segments = agentPairSegments(world, RUGRATS_WASM_AGENTS);
  const count = segments.length / SEGMENT_STRIDE;
  const answers = { js: new Float64Array(count), wasm: new Float64Array(count) };
  const fig = { js: { w: [] as number[], c: [] as number[] }, wasm: { w: [] as number[], c: [] as number[] } };
  // Rounds of several passes each, so a round is long enough to time.
  const passes = 5;
  for (let round = 0; round < WASM_ROUNDS + 2; round++) {
    for (const mode of round % 2 === 0 ? (['js', 'wasm'] as const) : (['wasm', 'js'] as const)) {
      world.setWasm(mode === 'js' ? 'off' : 'on');
      const t = timed(() => {
        for (let p = 0; p < passes; p++) world.segmentFractions!(segments, 0, count, answers[mode]);
      });
      if (round < 2) continue;
      fig[mode].w.push(t.wall);
      fig[mode].c.push(t.cpu);
    }
    const wj = new Uint32Array(answers.js.buffer), ww = new Uint32Array(answers.wasm.buffer);
    for (let i = 0; i < wj.length; i++) if (wj[i] !== ww[i]) throw new Error(`WebAssembly and JavaScript disagree at segment ${i >> 1} of round ${round}`);
  }
  let hits = 0;
  for (let i = 0; i < count; i++) if (answers.js[i]! >= 0) hits++;
  world.setWasm('auto');
  const perSeg = (ms: number): number => (ms * 1e6) / (passes * count);
  const note = `${count} segments (${hits} stopped), ${WASM_ROUNDS} rounds of ${passes} passes alternating, medians; engine ${jsEngine()}; load average ${loadBefore} before, ${loadNote()} after`;
  return [
    { name: 'los wasm rugrats: the walk, JavaScript', value: perSeg(med(fig.js.c)), unit: 'ns/segment', note: `CPU time; wall ${perSeg(med(fig.js.w)).toFixed(1)}; ${note}` },
    { name: 'los wasm rugrats: the walk, WebAssembly', value: perSeg(med(fig.wasm.c)), unit: 'ns/segment', note: `CPU time; wall ${perSeg(med(fig.wasm.w)).toFixed(1)}; every answer the same bits (checked)` },
    { name: 'los wasm rugrats: the walk, WebAssembly ÷ JavaScript (CPU)', value: med(fig.wasm.c) / med(fig.js.c), unit: '×', note: 'below 1: the kernel is faster on this engine' },
  ];
}

export const benches: Bench[] = [
  {
    name: 'los wasm',
    run(): BenchResult[] {
      const loadBefore = loadNote();
      const world = openBenchWorld(LOS_WORLDS.piney).world;
      if (!world.setWasm) throw new Error('the Piney field has no WebAssembly kernel');
      const sim = simulationFromSettings(world, defaultSettingsFor(world, { scenario: 'wander', agents: 10_000, capacity: 10_008 }));
      const n = sim.agentsPlaced;
      const c = sim.ecs.components;
      const feet = new Float64Array(3 * n);
      const range = 20 * world.scale;
      const batch = 1 << 16;
      const segments = new Float64Array(batch * SEGMENT_STRIDE);
      const pairs = new Uint32Array(batch * 2);
      const out = newLosOutput(batch);
      let eye = 0;
      let frame = new Float64Array(0);
      let frameCount = 0;
      const step = (): void => {
        sim.step(0);
        let k = 0;
        for (let e = 1; e <= sim.ecs.maxId && k < n; e++) {
          if (!sim.ecs.has(e, c.Agent)) continue;
          feet[3 * k] = c.Position.x[e]!;
          feet[3 * k + 1] = c.Position.y[e]!;
          feet[3 * k + 2] = c.Position.z[e]!;
          if (k === 0) eye = eyeHeight(world, c.BodySize.height[e]!);
          k++;
        }
      };
      /** The matrix as the command casts it; the frame's segments kept in `frame`. */
      const matrix = (keep: boolean): number => {
        const cursor = { i: 0, j: 1 };
        let total = 0;
        while (cursor.i < n - 1) {
          const k = pairSegments(world, feet, n, eye, range, segments, pairs, cursor, batch);
          losBatch(world, segments, out, 0, k);
          if (keep) {
            if (frame.length < (total + k) * SEGMENT_STRIDE) {
              const grown = new Float64Array(2 * (total + k) * SEGMENT_STRIDE);
              grown.set(frame);
              frame = grown;
            }
            frame.set(segments.subarray(0, k * SEGMENT_STRIDE), total * SEGMENT_STRIDE);
          }
          total += k;
        }
        if (keep) frameCount = total;
        return total;
      };
      const fig = { js: { mw: [] as number[], mc: [] as number[], cw: [] as number[], cc: [] as number[] }, wasm: { mw: [] as number[], mc: [] as number[], cw: [] as number[], cc: [] as number[] } };
      const a = new Float64Array(0);
      let answers: Record<'js' | 'wasm', Float64Array> = { js: a, wasm: a };
      for (let round = 0; round < WASM_ROUNDS + 2; round++) {
        step();
        matrix(true);
        for (const mode of round % 2 === 0 ? (['js', 'wasm'] as const) : (['wasm', 'js'] as const)) {
          world.setWasm(mode === 'js' ? 'off' : 'on');
          const m = timed(() => matrix(false));
          if (answers[mode].length < frameCount) answers = { ...answers, [mode]: new Float64Array(frameCount) };
          const ans = answers[mode];
          const cast = timed(() => world.segmentFractions!(frame, 0, frameCount, ans));
          if (round < 2) continue;
          fig[mode].mw.push(m.wall);
          fig[mode].mc.push(m.cpu);
          fig[mode].cw.push(cast.wall);
          fig[mode].cc.push(cast.cpu);
        }
        const wj = new Uint32Array(answers.js.buffer, 0, 2 * frameCount), ww = new Uint32Array(answers.wasm.buffer, 0, 2 * frameCount);
        for (let i = 0; i < 2 * frameCount; i++) if (wj[i] !== ww[i]) throw new Error(`WebAssembly and JavaScript disagree at segment ${i >> 1} of round ${round}`);
      }
      world.setWasm('auto');
      const perSeg = (ms: number): number => (ms * 1e6) / frameCount;
      const note = `${n} agents, about ${frameCount} pairs a frame, ${WASM_ROUNDS} rounds alternating, medians; engine ${jsEngine()}; load average ${loadBefore} before, ${loadNote()} after`;
      return [
        { name: 'los wasm: matrix 10k piney 1 thread, JavaScript', value: med(fig.js.mw), unit: 'ms', note: `wall; CPU ${med(fig.js.mc).toFixed(1)} ms; ${note}` },
        { name: 'los wasm: matrix 10k piney 1 thread, WebAssembly', value: med(fig.wasm.mw), unit: 'ms', note: `wall; CPU ${med(fig.wasm.mc).toFixed(1)} ms` },
        { name: 'los wasm: the cast alone, JavaScript', value: perSeg(med(fig.js.cc)), unit: 'ns/segment', note: `CPU time; wall ${perSeg(med(fig.js.cw)).toFixed(1)}` },
        { name: 'los wasm: the cast alone, WebAssembly', value: perSeg(med(fig.wasm.cc)), unit: 'ns/segment', note: `CPU time; wall ${perSeg(med(fig.wasm.cw)).toFixed(1)}; every answer the same bits (checked)` },
        { name: 'los wasm: the cast, WebAssembly ÷ JavaScript (CPU)', value: med(fig.wasm.cc) / med(fig.js.cc), unit: '×', note: 'below 1: the kernel is faster on this engine' },
      ];
    },
  },
  {
    name: 'los wasm gta',
    run(): BenchResult[] {
      const loadBefore = loadNote();
      const world = openBenchWorld(LOS_WORLDS.gta).world;
      if (!world.setWasm || !world.segmentFractions) throw new Error('the GTA town has no WebAssembly kernel');
      const seg = agentPairSegments(world, 400);
      const n = seg.length / SEGMENT_STRIDE;
      const answers = { js: new Float64Array(n), wasm: new Float64Array(n) };
      const cpu = { js: [] as number[], wasm: [] as number[] };
      const wall = { js: [] as number[], wasm: [] as number[] };
      // Each round answers the whole set a few times (one pass is short), in both orders by turns.
      const passes = 20;
      for (let round = 0; round < WASM_ROUNDS + 2; round++) {
        for (const mode of round % 2 === 0 ? (['js', 'wasm'] as const) : (['wasm', 'js'] as const)) {
          if (world.setWasm(mode === 'js' ? 'off' : 'on') !== (mode === 'wasm')) throw new Error('the GTA town did not take the WebAssembly walk');
          const t0 = performance.now();
          const c0 = process.cpuUsage();
          for (let p = 0; p < passes; p++) world.segmentFractions(seg, 0, n, answers[mode]);
          const cu = process.cpuUsage(c0);
          if (round < 2) continue;
          wall[mode].push(performance.now() - t0);
          cpu[mode].push((cu.user + cu.system) / 1000);
        }
        const wj = new Uint32Array(answers.js.buffer), ww = new Uint32Array(answers.wasm.buffer);
        for (let i = 0; i < 2 * n; i++) if (wj[i] !== ww[i]) throw new Error(`WebAssembly and JavaScript disagree at GTA segment ${i >> 1} of round ${round}`);
      }
      world.setWasm('auto');
      const perSeg = (ms: number): number => (ms * 1e6) / (n * passes);
      let visible = 0;
      for (let i = 0; i < n; i++) if (answers.js[i]! < 0) visible++;
      const note = `${n} agent-pair segments within 20 m on the town (${visible} clear), ${passes} passes a round, ${WASM_ROUNDS} rounds alternating, medians; engine ${jsEngine()}; load average ${loadBefore} before, ${loadNote()} after`;
      return [
        { name: 'los wasm gta: the walk, JavaScript', value: perSeg(med(cpu.js)), unit: 'ns/segment', note: `CPU time; wall ${perSeg(med(wall.js)).toFixed(1)}; ${note}` },
        { name: 'los wasm gta: the walk, WebAssembly', value: perSeg(med(cpu.wasm)), unit: 'ns/segment', note: `CPU time; wall ${perSeg(med(wall.wasm)).toFixed(1)}; every answer the same bits (checked)` },
        { name: 'los wasm gta: the walk, WebAssembly ÷ JavaScript (CPU)', value: med(cpu.wasm) / med(cpu.js), unit: '×', note: 'below 1: the kernel is faster on this engine' },
      ];
    },
  },
  { name: 'los wasm rugrats', run: rugratsWalk },
];
