/**
 * Rugrats collision speed: the point query and the segment test on the demo level, with outputs written into
 * preallocated Int32Arrays (no allocation per call). Inputs are precomputed, deterministic point and segment
 * lists; segments are about ten cells long.
 */
import { readFileSync } from 'node:fs';
import type { Bench } from './harness.js';
import { consume, cpuOpsPerSecond, lcg, opsPerSecond } from './harness.js';
import { buildColIndex, loadColIndex } from '../src/worlds/rugrats/col-index.js';
import { buildLevel, type CellDescription, type LevelDescription } from '../src/worlds/rugrats/level-builder.js';
import { queryCol } from '../src/worlds/rugrats/query.js';
import { SEGMENT_OUT_LENGTH, segmentCol } from '../src/worlds/rugrats/segment.js';
import { RugratsWorld } from '../src/worlds/rugrats/collision-world.js';

const N = 4096;


/** The benchmark's open field: 48 × 48 cells, deterministic features. */
function openField(): LevelDescription {
  const rnd = lcg(99);
  const cells: CellDescription[] = [];
  for (let x = 0; x < 48; x++) {
    for (let z = 0; z < 48; z++) {
      const r = rnd();
      if (r < 0.015) cells.push({ x, z, rooms: [{ floor: 24, ceiling: 40 }] });
      else if (r < 0.1) cells.push({ x, z, rooms: [{ floor: 0, ceiling: 40, floorRise: [256, 128] }] });
      else if (r < 0.12) cells.push({ x, z, rooms: [{ floor: 0, ceiling: 8 }, { floor: 12, ceiling: 40 }] });
      else if (r < 0.15) cells.push({ x, z, halved: { diagonal: r < 0.135 ? 'x=z' : 'x+z', low: [{ floor: 0, ceiling: 40 }], high: [{ floor: 4, ceiling: 40 }] } });
      else cells.push({ x, z, rooms: [{ floor: 0, ceiling: 40 }] });
    }
  }
  return { min: [0, -8192, 0], max: [48 * 1024 - 1, 0, 48 * 1024 - 1], cells };
}

function load() {
  const bytes = new Uint8Array(readFileSync(new URL('../../assets/worlds/rugrats/demo.col', import.meta.url)));
  return { bytes, ix: loadColIndex(bytes) };
}

export const benches: Bench[] = [
  {
    name: 'rugrats query',
    run() {
      const { ix } = load();
      const rnd = lcg(1);
      const pts = new Int32Array(N * 3);
      for (let i = 0; i < N; i++) {
        pts[i * 3] = Math.floor(rnd() * 12288);
        pts[i * 3 + 1] = -Math.floor(rnd() * 6000);
        pts[i * 3 + 2] = Math.floor(rnd() * 10240);
      }
      const out = new Int32Array(4);
      const loop = (n: number) => {
        let acc = 0;
        for (let k = 0; k < n; k++) {
          const i = (k & (N - 1)) * 3;
          acc += queryCol(ix, pts[i]!, pts[i + 1]!, pts[i + 2]!, out) + out[2]!;
        }
        consume(acc);
      };
      const rate = opsPerSecond(loop);
      const cpu = cpuOpsPerSecond(loop, 4_000_000);
      return [
        { name: 'rugrats query (demo level)', value: rate, unit: 'queries/s', goal: 10_000_000, better: 'higher', note: 'random points, 1 core, wall clock' },
        { name: 'rugrats query (per CPU second)', value: cpu, unit: 'queries/s', goal: 10_000_000, better: 'higher', note: 'same loop, CPU time' },
      ];
    },
  },
  {
    name: 'rugrats segment',
    run() {
      const { bytes, ix } = load();
      // An open 48 × 48 level with scattered raised blocks, ramps, low ceilings and halved cells, so that most
      // ten-cell segments walk their full length (the demo level is small and walled: most stop early).
      const field = buildColIndex(buildLevel(openField()));
      const rnd = lcg(2);
      const segs = new Int32Array(N * 6);
      const q = new Int32Array(4);
      for (let i = 0; i < N; ) {
        const fx = 4096 + Math.floor(rnd() * 40960);
        const fz = 4096 + Math.floor(rnd() * 40960);
        const fy = -Math.floor(1600 + rnd() * 1500);
        if (queryCol(field, fx, fy, fz, q) !== 0) continue;
        const angle = rnd() * 2 * Math.PI; // bench input only
        const tx = fx + Math.round(Math.cos(angle) * 10 * 1024);
        const tz = fz + Math.round(Math.sin(angle) * 10 * 1024);
        const ty = fy + Math.floor((rnd() - 0.5) * 600);
        segs.set([fx, fy, fz, tx, ty, tz], i * 6);
        i++;
      }
      const out = new Int32Array(SEGMENT_OUT_LENGTH);
      let through = 0;
      for (let i = 0; i < N; i++) if (segmentCol(field, segs[i * 6]!, segs[i * 6 + 1]!, segs[i * 6 + 2]!, segs[i * 6 + 3]!, segs[i * 6 + 4]!, segs[i * 6 + 5]!, out) === 0) through++;
      const loop = (n: number) => {
        let acc = 0;
        for (let k = 0; k < n; k++) {
          const i = (k & (N - 1)) * 6;
          acc += segmentCol(field, segs[i]!, segs[i + 1]!, segs[i + 2]!, segs[i + 3]!, segs[i + 4]!, segs[i + 5]!, out) + out[8]!;
        }
        consume(acc);
      };
      const rate = opsPerSecond(loop);
      const cpu = cpuOpsPerSecond(loop, 500_000);
      const world = new RugratsWorld(field, 'open field');
      const fracRate = opsPerSecond((n) => {
        let acc = 0;
        for (let k = 0; k < n; k++) {
          const i = (k & (N - 1)) * 6;
          acc += world.segmentFraction(segs[i]!, segs[i + 1]!, segs[i + 2]!, segs[i + 3]!, segs[i + 4]!, segs[i + 5]!);
        }
        consume(acc * 1000);
      });
      // Line of sight in the small walled demo level: random headings, most stopped by a wall within a few cells.
      const demoSegs = new Int32Array(N * 6);
      for (let i = 0; i < N; ) {
        const fx = 1024 + Math.floor(rnd() * 10240);
        const fz = 1024 + Math.floor(rnd() * 8192);
        const fy = -Math.floor(100 + rnd() * 4000);
        if (queryCol(ix, fx, fy, fz, q) !== 0) continue;
        demoSegs.set([fx, fy, fz, Math.floor(rnd() * 12288), -Math.floor(rnd() * 5000), Math.floor(rnd() * 10240)], i * 6);
        i++;
      }
      const demoRate = opsPerSecond((n) => {
        let acc = 0;
        for (let k = 0; k < n; k++) {
          const i = (k & (N - 1)) * 6;
          acc += segmentCol(ix, demoSegs[i]!, demoSegs[i + 1]!, demoSegs[i + 2]!, demoSegs[i + 3]!, demoSegs[i + 4]!, demoSegs[i + 5]!, out);
        }
        consume(acc);
      });
      void bytes;
      return [
        { name: 'rugrats segment (10 cells, random headings)', value: rate, unit: 'segments/s', goal: 1_000_000, better: 'higher', note: `${Math.round((100 * through) / N)}% get through; 48×48 open level` },
        { name: 'rugrats segment (per CPU second)', value: cpu, unit: 'segments/s', goal: 1_000_000, better: 'higher', note: 'same loop, CPU time' },
        { name: 'rugrats segmentFraction (same segments)', value: fracRate, unit: 'segments/s', goal: 1_000_000, better: 'higher' },
        { name: 'rugrats segment (demo level, any length)', value: demoRate, unit: 'segments/s', note: 'walled 12×10 level, most stop early' },
      ];
    },
  },
];
