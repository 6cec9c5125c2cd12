/**
 * The demo worlds the line-of-sight benches cast in, and the rule-exact reference paths their fast paths are
 * checked against, segment by segment.
 */
import { fileURLToPath } from 'node:url';
import { SEGMENT_STRIDE } from '../src/systems/los/los-batch.js';
import { loadWorldFile } from '../src/node/world-files.js';
import type { CollisionWorld } from '../src/worlds/world.js';
import type { WasmMode } from '../src/worlds/wasm-mode.js';

/** The `WasmMode` the benches open their worlds with (`retrosim bench --wasm`; auto by default). */
let benchWasm: WasmMode = 'auto';

/** Sets the `WasmMode` of the worlds the benches open from now on. */
export function setBenchWasm(mode: WasmMode): void {
  benchWasm = mode;
}

/** The `WasmMode` the benches open their worlds with. */
export function benchWasmMode(): WasmMode {
  return benchWasm;
}

export const LOS_WORLDS = {
  rugrats: 'assets/worlds/rugrats/demo.col',
  gta: 'assets/worlds/gta/town.col',
  llama: 'assets/worlds/llama/demo.trak',
  colbin: 'assets/worlds/colbin/demo.colbin',
  piney: 'assets/worlds/piney/default.field.json',
} as const;

export function openBenchWorld(rel: string) {
  return loadWorldFile(fileURLToPath(new URL(`../../${rel}`, import.meta.url)), { wasm: benchWasm });
}

/**
 * The same world answering through its rule-exact reference path: Rugrats' vectorwalk (segmentCol), Piney's
 * cast testing every cell, GTA's placements one by one with each tree walked as built. Worlds without a fast path answer as they are.
 */
export function referenceFraction(world: CollisionWorld): (fx: number, fy: number, fz: number, tx: number, ty: number, tz: number) => number {
  const w = world as CollisionWorld & { segmentFractionReference?: CollisionWorld['segmentFraction'] };
  if (w.segmentFractionReference) return w.segmentFractionReference.bind(w);
  return world.segmentFraction.bind(world);
}

/** How many segments of the batch the reference path answers differently (bit for bit) from `fraction`. */
export function disagreements(world: CollisionWorld, seg: Float64Array, fraction: Float32Array | Float64Array, visible: Uint8Array): number {
  const ref = referenceFraction(world);
  let bad = 0;
  for (let i = 0, o = 0; i < visible.length; i++, o += SEGMENT_STRIDE) {
    const f = ref(seg[o]!, seg[o + 1]!, seg[o + 2]!, seg[o + 3]!, seg[o + 4]!, seg[o + 5]!);
    const v = f < 0 ? 1 : 0;
    const x = f < 0 ? 1 : f >= 0 && f <= 1 ? f : f > 1 ? 1 : 0;
    if (v !== visible[i] || !Object.is(x, fraction[i])) bad++;
  }
  return bad;
}

