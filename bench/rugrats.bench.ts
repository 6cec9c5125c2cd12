/**
 * Rugrats collision speed: the point query and the segment test on the demo level, with outputs written into
 * preallocated Int32Arrays (no allocation per call). Inputs are precomputed, deterministic point and segment
 * lists; segments are about ten cells long.
 */
import { readFileSync } from 'node:fs';
import type { Bench } from './harness.js';
import { consume, opsPerSecond } from './harness.js';
import { loadColIndex } from '../src/worlds/rugrats/col-index.js';
import { queryCol } from '../src/worlds/rugrats/query.js';
import { SEGMENT_OUT_LENGTH, segmentCol } from '../src/worlds/rugrats/segment.js';
import { loadRugratsWorld } from '../src/worlds/rugrats/collision-world.js';

const N = 4096;

/** A small deterministic LCG for the inputs (benchmarks only). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
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
      const rate = opsPerSecond((n) => {
        let acc = 0;
        for (let k = 0; k < n; k++) {
          const i = (k & (N - 1)) * 3;
          acc += queryCol(ix, pts[i]!, pts[i + 1]!, pts[i + 2]!, out) + out[2]!;
        }
        consume(acc);
      });
      return [{ name: 'rugrats query (demo level)', value: rate, unit: 'queries/s', goal: 10_000_000, better: 'higher', note: 'random points, 1 core' }];
    },
  },
  {
    name: 'rugrats segment',
    run() {
      const { bytes, ix } = load();
      const rnd = lcg(2);
      // Segments of about ten cells: from an open point, 10 × 1024 long across the level at a random heading
      // (the walk stops early where it meets something, as line of sight does).
      const segs = new Int32Array(N * 6);
      const q = new Int32Array(4);
      let cells = 0;
      for (let i = 0; i < N; ) {
        const fx = 1024 + Math.floor(rnd() * 10240);
        const fz = 1024 + Math.floor(rnd() * 8192);
        const fy = -Math.floor(100 + rnd() * 4000);
        if (queryCol(ix, fx, fy, fz, q) !== 0) continue;
        const dirX = rnd() * 2 - 1;
        const dirZ = rnd() * 2 - 1;
        const len = Math.max(Math.abs(dirX), Math.abs(dirZ));
        const tx = fx + Math.round((dirX / len) * 7 * 1024);
        const tz = fz + Math.round((dirZ / len) * 7 * 1024);
        const ty = fy + Math.floor((rnd() - 0.5) * 2000);
        segs.set([fx, fy, fz, tx, ty, tz], i * 6);
        cells += Math.abs((tx >> 10) - (fx >> 10)) + Math.abs((tz >> 10) - (fz >> 10)) + 1;
        i++;
      }
      const out = new Int32Array(SEGMENT_OUT_LENGTH);
      const rate = opsPerSecond((n) => {
        let acc = 0;
        for (let k = 0; k < n; k++) {
          const i = (k & (N - 1)) * 6;
          acc += segmentCol(ix, segs[i]!, segs[i + 1]!, segs[i + 2]!, segs[i + 3]!, segs[i + 4]!, segs[i + 5]!, out) + out[8]!;
        }
        consume(acc);
      });
      // The same segments through the CollisionWorld's allocation-free segmentFraction.
      const world = loadRugratsWorld(bytes, 'demo');
      const fracRate = opsPerSecond((n) => {
        let acc = 0;
        for (let k = 0; k < n; k++) {
          const i = (k & (N - 1)) * 6;
          acc += world.segmentFraction(segs[i]!, segs[i + 1]!, segs[i + 2]!, segs[i + 3]!, segs[i + 4]!, segs[i + 5]!);
        }
        consume(acc * 1000);
      });
      // A clear run of exactly ten cells along a row of open floor, for the pure stepping cost.
      const clear = opsPerSecond((n) => {
        let acc = 0;
        for (let k = 0; k < n; k++) acc += segmentCol(ix, 1100 + (k & 63), -1000, 5500, 11200, -1100, 5900, out);
        consume(acc);
      });
      return [
        { name: 'rugrats segment (≈10 cells, random headings)', value: rate, unit: 'segments/s', goal: 1_000_000, better: 'higher', note: `${(cells / N).toFixed(1)} cells crossed on average if unstopped` },
        { name: 'rugrats segmentFraction (same segments)', value: fracRate, unit: 'segments/s', goal: 1_000_000, better: 'higher' },
        { name: 'rugrats segment (10 clear cells)', value: clear, unit: 'segments/s', goal: 1_000_000, better: 'higher' },
      ];
    },
  },
];
