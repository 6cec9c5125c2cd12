/**
 * The WebAssembly kernels against the JavaScript walks, in one process, alternating: the visibility matrix of
 * 10,000 wandering agents on the default Piney field (`retrosim los --agents 10000`, one thread: finding the
 * pairs and casting them), and the cast alone over one frame's pairs (`segmentFractions` of the whole frame's
 * segments). Each round times JavaScript then WebAssembly or the other way round (the order alternates), on the
 * same frame; the figures are medians of the rounds, CPU time beside the wall clock. Every answer is checked
 * equal between the two, bit for bit. The matrix's pairs follow the world's mode too, so its "WebAssembly" figure
 * is the pair walk's kernel and the cast's together.
 *
 * And the GTA town's segment walk: the line-of-sight segments of agent pairs within 20 m (the `los batch`
 * bench's set, 400 agents), `segmentFractions` of them all per round, JavaScript and WebAssembly alternating.
 *
 * 'los wasm rugrats': the Rugrats walk's kernel against its JavaScript walk the same way, on the segments of
 * line of sight between agents within 20 m on the demo level, eye to eye (`agentPairSegments`, the peers
 * bench's scene of 450 agents): `segmentFractions` of the whole set each round, the order alternating.
 *
 * 'los wasm pairs': the pair walk alone, kernel against JavaScript, on one frame of the 10,000-agent matrix on
 * the Piney field and on the GTA town.
 */
import { performance } from 'node:perf_hooks';
import type { Bench, BenchResult } from './harness.js';
import { loadNote } from './harness.js';
import { LOS_WORLDS, openBenchWorld } from './bench-worlds.js';
import { defaultSettingsFor, simulationFromSettings } from '../src/scenarios/builtin.js';
import { losBatch, newLosOutput, pairSegments, SEGMENT_STRIDE } from '../src/systems/los/los-batch.js';
import { eyeHeight } from '../src/systems/los-system.js';
import { jsEngine } from '../src/worlds/wasm-mode.js';
import { agentPairSegments, matrixScene } from './los.bench.js';
import { AgentPairGrid } from '../src/systems/los/agent-pairs.js';
import { pairWalkWasmError, pairWalkWasmModule } from '../src/systems/los/pair-walk-wasm.js';

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

/**
 * A world's segment walk, kernel against JavaScript, on its agent-pair segments (`agents` scattered, pairs
 * within 20 m): `passes` passes over the set a round, the order alternating, every answer compared bit for bit.
 */
function walkComparison(label: 'rugrats' | 'gta', agents: number, passes: number): BenchResult[] {
  const loadBefore = loadNote();
  const world = openBenchWorld(LOS_WORLDS[label]).world;
  if (!world.setWasm || !world.segmentFractions) throw new Error(`the ${label} world has no WebAssembly kernel`);
  const segments = agentPairSegments(world, agents);
  const count = segments.length / SEGMENT_STRIDE;
  const answers = { js: new Float64Array(count), wasm: new Float64Array(count) };
  const fig = { js: { w: [] as number[], c: [] as number[] }, wasm: { w: [] as number[], c: [] as number[] } };
  for (let round = 0; round < WASM_ROUNDS + 2; round++) {
    for (const mode of round % 2 === 0 ? (['js', 'wasm'] as const) : (['wasm', 'js'] as const)) {
      if (world.setWasm(mode === 'js' ? 'off' : 'on') !== (mode === 'wasm')) throw new Error(`the ${label} world did not take the WebAssembly walk`);
      const t = timed(() => {
        for (let p = 0; p < passes; p++) world.segmentFractions!(segments, 0, count, answers[mode]);
      });
      if (round < 2) continue;
      fig[mode].w.push(t.wall);
      fig[mode].c.push(t.cpu);
    }
    const wj = new Uint32Array(answers.js.buffer), ww = new Uint32Array(answers.wasm.buffer);
    for (let i = 0; i < wj.length; i++) if (wj[i] !== ww[i]) throw new Error(`WebAssembly and JavaScript disagree at ${label} segment ${i >> 1} of round ${round}`);
  }
  let hits = 0;
  for (let i = 0; i < count; i++) if (answers.js[i]! >= 0) hits++;
  world.setWasm('auto');
  const perSeg = (ms: number): number => (ms * 1e6) / (passes * count);
  const note = `${count} agent-pair segments within 20 m (${hits} stopped), ${WASM_ROUNDS} rounds of ${passes} passes alternating, medians; engine ${jsEngine()}; load average ${loadBefore} before, ${loadNote()} after`;
  return [
    { name: `los wasm ${label}: the walk, JavaScript`, value: perSeg(med(fig.js.c)), unit: 'ns/segment', note: `CPU time; wall ${perSeg(med(fig.js.w)).toFixed(1)}; ${note}` },
    { name: `los wasm ${label}: the walk, WebAssembly`, value: perSeg(med(fig.wasm.c)), unit: 'ns/segment', note: `CPU time; wall ${perSeg(med(fig.wasm.w)).toFixed(1)}; every answer the same bits (checked)` },
    { name: `los wasm ${label}: the walk, WebAssembly ÷ JavaScript (CPU)`, value: med(fig.wasm.c) / med(fig.js.c), unit: '×', note: 'below 1: the kernel is faster on this engine' },
  ];
}

/**
 * The pair walk, kernel against JavaScript, on one frame of the 10,000-agent matrix on a world (`matrixScene`):
 * the whole frame's pairs walked in batches as `retrosim los` does, each round in both walks, the order
 * alternating; every pair and segment compared.
 */
function pairComparison(kind: 'piney' | 'gta'): BenchResult[] {
  const loadBefore = loadNote();
  const scene = matrixScene(kind);
  for (let f = 0; f < 3; f++) scene.step();
  const module = pairWalkWasmModule();
  if (module === null) throw new Error(`the pair-walk kernel does not compile here: ${pairWalkWasmError()}`);
  const batch = 1 << 16;
  const bufs = { js: { seg: new Float64Array(batch * 6), pairs: new Uint32Array(batch * 2), grid: new AgentPairGrid() }, wasm: { seg: new Float64Array(batch * 6), pairs: new Uint32Array(batch * 2), grid: new AgentPairGrid() } };
  const n = scene.agents;
  let total = 0;
  const frame = (mode: 'js' | 'wasm'): number => {
    const b = bufs[mode];
    const cursor = { i: 0, j: 1 };
    let count = 0;
    while (cursor.i < n - 1) count += b.grid.walk(scene.world, scene.feet, n, scene.eye, scene.range, b.seg, b.pairs, cursor, batch, n - 1, mode === 'wasm' ? module : null);
    return count;
  };
  const fig = { js: { w: [] as number[], c: [] as number[] }, wasm: { w: [] as number[], c: [] as number[] } };
  for (let round = 0; round < WASM_ROUNDS + 2; round++) {
    const counts = { js: 0, wasm: 0 };
    for (const mode of round % 2 === 0 ? (['js', 'wasm'] as const) : (['wasm', 'js'] as const)) {
      const t = timed(() => {
        counts[mode] = frame(mode);
      });
      if (round < 2) continue;
      fig[mode].w.push(t.wall);
      fig[mode].c.push(t.cpu);
    }
    // The last batch of each walk, compared (every batch is compared by the tests; this guards the bench).
    const last = counts.js % batch || batch;
    if (counts.js !== counts.wasm) throw new Error(`pair walks disagree: ${counts.js} pairs in JavaScript, ${counts.wasm} in WebAssembly`);
    for (let i = 0; i < 2 * last; i++) if (bufs.js.pairs[i] !== bufs.wasm.pairs[i]) throw new Error(`pair walks disagree at pair ${i >> 1} of the last batch`);
    for (let i = 0; i < 6 * last; i++) if (!Object.is(bufs.js.seg[i], bufs.wasm.seg[i])) throw new Error(`pair walks disagree at segment ${(i / 6) | 0} of the last batch`);
    total = counts.js;
  }
  const note = `${n} agents, ${total} pairs a frame, ${WASM_ROUNDS} rounds alternating, medians; engine ${jsEngine()}; load average ${loadBefore} before, ${loadNote()} after`;
  return [
    { name: `los wasm pairs ${kind}: a frame, JavaScript`, value: med(fig.js.c), unit: 'ms', note: `CPU time; wall ${med(fig.js.w).toFixed(2)}; ${note}` },
    { name: `los wasm pairs ${kind}: a frame, WebAssembly`, value: med(fig.wasm.c), unit: 'ms', note: `CPU time; wall ${med(fig.wasm.w).toFixed(2)}` },
    { name: `los wasm pairs ${kind}: WebAssembly ÷ JavaScript (CPU)`, value: med(fig.wasm.c) / med(fig.js.c), unit: '×', note: 'below 1: the kernel is faster on this engine' },
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
  { name: 'los wasm gta', run: () => walkComparison('gta', 400, 20) },
  { name: 'los wasm rugrats', run: () => walkComparison('rugrats', RUGRATS_WASM_AGENTS, 5) },
  { name: 'los wasm pairs', run: () => [...pairComparison('piney'), ...pairComparison('gta')] },
];
