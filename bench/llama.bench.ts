/**
 * Llama world speed: ground queries (goal ≥ 5 million/s) and body moves (goal ≥ 1 million/s) on the demo
 * level, at positions drawn once from a fixed LCG (no clock or randomness in what is measured).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { consume, opsPerSecond, type Bench } from './harness.js';
import { loadLlamaWorld } from '../src/worlds/llama/collision-world.js';
import { newGroundResult, newMoveResult, type Vec3 } from '../src/worlds/world.js';

function demoWorld() {
  const dir = join(process.cwd(), 'assets', 'worlds', 'llama');
  return loadLlamaWorld(new Uint8Array(readFileSync(join(dir, 'demo.trak'))), new Uint8Array(readFileSync(join(dir, 'demo.map'))), 'demo');
}

/** Positions spread over the grid, from a fixed LCG. */
function positions(n: number, w: number, h: number): Float64Array {
  const out = new Float64Array(n * 3);
  let s = 12345;
  const next = (): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
  for (let i = 0; i < n; i++) {
    out[i * 3] = next() * w;
    out[i * 3 + 1] = next() * 2;
    out[i * 3 + 2] = next() * h;
  }
  return out;
}

export const benches: Bench[] = [
  {
    name: 'llama ground',
    run() {
      const world = demoWorld();
      const n = 4096;
      const p = positions(n, 6, 5);
      const pos: Vec3 = [0, 0, 0];
      const out = newGroundResult();
      const rate = opsPerSecond((iters) => {
        let acc = 0;
        for (let i = 0; i < iters; i++) {
          const k = (i & (n - 1)) * 3;
          pos[0] = p[k]!;
          pos[1] = p[k + 1]!;
          pos[2] = p[k + 2]!;
          world.ground(pos, out);
          acc += out.id;
        }
        consume(acc);
      });
      return [{ name: 'llama ground queries', value: rate, unit: 'ops/s', goal: 5_000_000, better: 'higher', note: 'demo level, 6×5 cells' }];
    },
  },
  {
    name: 'llama move',
    run() {
      const world = demoWorld();
      const n = 4096;
      const p = positions(n, 6, 5);
      const from: Vec3 = [0, 0, 0];
      const delta: Vec3 = [0.05, -0.02, 0.03];
      const body = { radius: 0.2, height: 0.75 };
      const out = newMoveResult();
      const rate = opsPerSecond((iters) => {
        let acc = 0;
        for (let i = 0; i < iters; i++) {
          const k = (i & (n - 1)) * 3;
          from[0] = p[k]!;
          from[1] = p[k + 1]! - 0.5;
          from[2] = p[k + 2]!;
          world.move(body, from, delta, out);
          acc += out.contacts.length;
        }
        consume(acc);
      });
      return [{ name: 'llama body moves', value: rate, unit: 'ops/s', goal: 1_000_000, better: 'higher', note: 'radius 0.2, height 0.75, demo level' }];
    },
  },
  {
    name: 'llama segment',
    run() {
      const world = demoWorld();
      const n = 4096;
      const p = positions(n * 2, 6, 5);
      const rate = opsPerSecond((iters) => {
        let acc = 0;
        for (let i = 0; i < iters; i++) {
          const k = (i & (n - 1)) * 6;
          acc += world.segmentFraction(p[k]!, p[k + 1]!, p[k + 2]!, p[k + 3]!, p[k + 4]!, p[k + 5]!);
        }
        consume(acc * 1000);
      });
      return [{ name: 'llama segmentFraction', value: rate, unit: 'ops/s', note: 'random segments across the demo level' }];
    },
  },
];
