/**
 * `retrosim los`: line of sight over a running simulation. Agents are scattered and wander (the "wander"
 * scenario); every frame, every pair of agents within range looks eye to eye: the visibility matrix, walked
 * and cast on one thread or on several (each takes a slice of the pairs). Prints the segments cast per second
 * and the time of a matrix (finding the pairs and casting them are timed, not the simulation) and a checksum
 * of every answer, which is the same for any number of threads.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs, parseWasmMode, UsageError, type OptionSpec } from '../args.js';
import type { Command } from '../command.js';
import { print, printJson } from '../io.js';
import { Hash64, hashHex } from '../../ecs/state-hash.js';
import { defaultSettingsFor, simulationFromSettings } from '../../scenarios/builtin.js';
import { Simulation } from '../../sim/simulation.js';
import { eyeHeight } from '../../systems/los-system.js';
import { losBatch, newLosOutput, pairSegments, SEGMENT_STRIDE } from '../../systems/los/los-batch.js';
import { LosPool, MAX_LOS_THREADS } from '../../node/los-pool.js';
import { openWorld } from './world.js';

const usage = `usage:
  retrosim los --world W [--agents N] [--frames F] [--threads T] [--range METRES] [--seed S] [--map FILE] [--wasm off|on|auto] [--json]

W is a built-in world (piney-default, rugrats-demo, llama-demo, gta-town, ...: see docs/worlds.md; a file of
that name in the current folder wins) or any world file. Scatters N agents (default 200) over the world and lets them wander for F frames (default 60). Every frame
each pair of agents within --range metres (default 20) looks eye to eye (eyes at 0.9 of the body height),
through the world's segmentFraction: the visibility matrix, on --threads threads (default 1; each thread
finds and casts the pairs of a slice of the agents). Only the matrices are timed: finding the pairs and
casting them.
--wasm: whether the world's segment walk runs in WebAssembly where it has a kernel (the Piney field, GTA
scenes that walk their placements in order, Rugrats levels), and so the pair walk over the agents on such a
world: off, on (an error when this engine cannot compile it) or auto (the default: where it was measured
faster: the Piney cast on V8 and SpiderMonkey, the other kernels on V8, SpiderMonkey and JavaScriptCore).
The answers and the checksum are the same either way. "wasm" in the JSON says whether the segment walk ran
in WebAssembly.
--json prints one line:
  {"world","kind","agents","frames","threads","range","segments","visible","seconds","segmentsPerSecond",
   "matrixMs","checksum","wasm"}
matrixMs: the time of one frame's matrix, in milliseconds (seconds / frames).
checksum: 64-bit hash (hex) of every answer (visible flag and hit fraction, in pair order), the same for any
thread count.
wasm: true when the segments were cast by the WebAssembly kernel.`;

/** Most segments cast in one batch. */
export const BATCH = 1 << 16;

const SPEC: Record<string, OptionSpec> = {
  json: { type: 'flag' },
  world: { type: 'string' },
  map: { type: 'string' },
  trak: { type: 'string' },
  agents: { type: 'int', min: 1, max: 20_000 },
  frames: { type: 'int', min: 1, max: 1_000_000 },
  threads: { type: 'int', min: 1, max: MAX_LOS_THREADS },
  range: { type: 'number', min: 0, max: 1e6 },
  seed: { type: 'string' },
  wasm: { type: 'string' },
};

export const command: Command = {
  summary: 'line of sight between wandering agents in batches (1..n threads): segments per second, checksum',
  usage,
  async run(argv) {
    const { positionals, options: o } = parseArgs(argv, SPEC);
    if (positionals.length > 0) throw new UsageError(`los takes no positional arguments (got ${JSON.stringify(positionals[0])})`);
    if (typeof o['world'] !== 'string') throw new UsageError('los needs --world ID|FILE');
    const agents = (o['agents'] as number | undefined) ?? 200;
    const frames = (o['frames'] as number | undefined) ?? 60;
    const threads = (o['threads'] as number | undefined) ?? 1;
    const rangeMetres = (o['range'] as number | undefined) ?? 20;
    const wasmMode = parseWasmMode(o['wasm'] as string | undefined);
    const opened = openWorld(o['world'], o);
    const world = opened.world;
    const wasm = world.setWasm?.(wasmMode) ?? false;
    const settings = defaultSettingsFor(world, {
      scenario: 'wander',
      agents,
      capacity: Math.max(64, agents + 8),
      ...(typeof o['seed'] === 'string' ? { streamSeed: o['seed'] } : {}),
    });
    const sim = simulationFromSettings(world, settings);
    const n = sim.agentsPlaced;
    const c = sim.ecs.components;
    // Pairs are cast in batches of at most BATCH, so memory stays bounded for any number of agents.
    const batch = Math.max(1, Math.min(BATCH, (n * (n - 1)) / 2));
    const segments = new Float64Array(batch * SEGMENT_STRIDE);
    const pairs = new Uint32Array(batch * 2);
    const out = newLosOutput(batch);
    const cursor = { i: 0, j: 1 };
    const feet = new Float64Array(3 * n);
    const ids = new Uint32Array(n);
    const range = rangeMetres * (world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1);
    const pool = threads > 1 ? await LosPool.create({ bytes: opened.bytes, name: world.name, options: { ...opened.options, wasm: wasmMode } }, threads) : null;
    const h = new Hash64();
    let total = 0;
    let visible = 0;
    let seconds = 0;
    try {
      for (let f = 1; f <= frames; f++) {
        sim.step(0);
        // Agents by ascending id (the player, id 1, is not one of them).
        let k = 0;
        for (let e = 1; e <= sim.ecs.maxId && k < n; e++) if (sim.ecs.has(e, c.Agent)) ids[k++] = e;
        for (let i = 0; i < n; i++) {
          const e = ids[i]!;
          feet[3 * i] = c.Position.x[e]!;
          feet[3 * i + 1] = c.Position.y[e]!;
          feet[3 * i + 2] = c.Position.z[e]!;
        }
        const eye = n > 0 ? eyeHeight(world, c.BodySize.height[ids[0]!]!) : 0;
        if (pool) {
          const t0 = performance.now();
          const ans = await pool.matrix(feet, n, eye, range);
          seconds += (performance.now() - t0) / 1000;
          total += ans.count;
          for (let i = 0; i < ans.count; i++) {
            visible += ans.visible[i]!;
            h.u32(ans.visible[i]!).number(ans.fraction[i]!);
          }
        } else {
          cursor.i = 0;
          cursor.j = 1;
          while (cursor.i < n - 1) {
            const t0 = performance.now();
            const count = pairSegments(world, feet, n, eye, range, segments, pairs, cursor, batch);
            losBatch(world, segments, out, 0, count);
            seconds += (performance.now() - t0) / 1000;
            total += count;
            for (let i = 0; i < count; i++) {
              visible += out.visible[i]!;
              h.u32(out.visible[i]!).number(out.fraction[i]!);
            }
          }
        }
      }
    } finally {
      await pool?.close();
    }
    const d = new Uint32Array(2);
    h.digest(d);
    const result = {
      world: world.name,
      kind: world.kind,
      agents: n,
      frames,
      threads,
      range: rangeMetres,
      segments: total,
      visible,
      seconds,
      segmentsPerSecond: seconds > 0 ? total / seconds : 0,
      matrixMs: (seconds / frames) * 1000,
      checksum: hashHex(d[0]!, d[1]!),
      wasm,
    };
    if (o['json'] === true) printJson(result);
    else {
      print(`${result.kind} world ${result.world}: ${n} agents, ${frames} frames, ${threads} thread(s), ${wasm ? 'WebAssembly' : 'JavaScript'} walk`);
      print(`${total} segments (${visible} clear) in ${seconds.toFixed(3)} s: ${Math.round(result.segmentsPerSecond)} segments/s, ${result.matrixMs.toFixed(1)} ms a frame`);
      print(`checksum ${result.checksum}`);
    }
    return 0;
  },
};
