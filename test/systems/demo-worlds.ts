/** The five demo worlds shipped in assets/, opened through loadWorld by path (test helper). */
import { fileURLToPath } from 'node:url';
import { loadWorldFile } from '../../src/node/world-files.js';
import type { CollisionWorld } from '../../src/worlds/world.js';
import type { WorldSource } from '../../src/node/los-pool.js';

export const DEMO_WORLD_FILES = {
  rugrats: 'rugrats/demo.col',
  llama: 'llama/demo.trak',
  colbin: 'colbin/demo.colbin',
  gta: 'gta/town.col',
  piney: 'piney/default.field.json',
} as const;

export type DemoKind = keyof typeof DEMO_WORLD_FILES;
export const DEMO_KINDS = Object.keys(DEMO_WORLD_FILES) as DemoKind[];

export function demoPath(kind: DemoKind): string {
  return fileURLToPath(new URL(`../../assets/worlds/${DEMO_WORLD_FILES[kind]}`, import.meta.url));
}

export function openDemo(kind: DemoKind): CollisionWorld {
  return loadWorldFile(demoPath(kind)).world;
}

/** The bytes and options that rebuild the same world in another thread. */
export function demoSource(kind: DemoKind): WorldSource {
  const opened = loadWorldFile(demoPath(kind));
  return { bytes: opened.bytes, name: opened.world.name, options: opened.options };
}

/** A small deterministic generator for test data (not simulation state). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** `count` segments with both ends inside the world's bounds (integers in integer worlds). */
export function randomSegments(world: CollisionWorld, count: number, seed: number): Float64Array {
  const r = lcg(seed);
  const { min, max } = world.bounds;
  const seg = new Float64Array(count * 6);
  for (let i = 0; i < count * 6; i++) {
    const a = i % 3;
    const v = min[a] + r() * (max[a] - min[a]);
    seg[i] = world.integer ? Math.round(v) : v;
  }
  return seg;
}
