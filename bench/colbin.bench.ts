/**
 * COLBIN benchmarks: floor queries on a 2,048-triangle terrain (goal ≥ 5 M/s), the engine's OBB push-out per
 * wall test (goal ≥ 2 M/s), segmentFraction on the demo level (goal ≥ 1 M/s for ~4 m segments), plus segment
 * and move throughput for reference. The machine may be shared, so the segment figures also come in CPU time.
 */
import { readFileSync } from 'node:fs';
import { consume, cpuOpsPerSecond, lcg, opsPerSecond, type Bench } from './harness.js';
import { agentPairSegments } from './los.bench.js';
import { loadColbinWorld } from '../src/worlds/colbin/collision-world.js';
import { buildColbin } from '../src/worlds/colbin/level-builder.js';
import { terrainDescription } from '../src/worlds/colbin/demo-level.js';
import { ColbinWorld } from '../src/worlds/colbin/collision-world.js';
import { BOX_WORDS, normalizeBoxAxes, prepareWallForAxisAlignedMover, PREPARED_WALL_WORDS, satPushOut, satPushOutAxisAligned, SAT_OUT_WORDS } from '../src/worlds/colbin/obb.js';
import { newGroundResult, type Vec3 } from '../src/worlds/world.js';

function terrain(): ColbinWorld {
  return new ColbinWorld(buildColbin(terrainDescription(32, 64)), 'terrain 32×32');
}

export const benches: Bench[] = [
  {
    name: 'colbin ground',
    run() {
      const w = terrain();
      const r = lcg(1);
      const n = 4096;
      const pts: Vec3[] = [];
      for (let i = 0; i < n; i++) pts.push([(r() - 0.5) * 32 * 128, -200, (r() - 0.5) * 32 * 128]);
      const out = newGroundResult();
      const v = opsPerSecond((it) => {
        let s = 0;
        for (let i = 0; i < it; i++) s += w.ground(pts[i & (n - 1)]!, out).id;
        consume(s);
      });
      return [{ name: 'colbin ground query', value: v, unit: 'queries/s', goal: 5_000_000, better: 'higher', note: `${w.file.floorCount} triangles` }];
    },
  },
  {
    name: 'colbin push-out',
    run() {
      // Body against rotated walls it overlaps: every test runs all 15 axes (the worst case).
      const walls = new Int32Array(4 * BOX_WORDS);
      const axesN = new Int32Array(4 * 9);
      const rots = [
        [4096, 0, 0, 0, 4096, 0, 0, 0, 4096],
        [2457, 0, 3276, 0, 4096, 0, -3276, 0, 2457],
        [2896, 0, 2896, 0, 4096, 0, -2896, 0, 2896],
        [2730, -1365, 2730, 2730, 2730, -1365, -1365, 2730, 2730],
      ];
      for (let k = 0; k < 4; k++) {
        walls.set([40 * k, -60, 30], k * BOX_WORDS);
        walls.set(rots[k]!, k * BOX_WORDS + 3);
        walls.set([96, 128, 32], k * BOX_WORDS + 12);
        normalizeBoxAxes(walls, k * BOX_WORDS, axesN, k * 9);
      }
      const body = new Int32Array(BOX_WORDS);
      body.set([0, -64, 0, 4096, 0, 0, 0, 4096, 0, 0, 0, 4096, 32, 64, 32]);
      const bodyN = new Int32Array(9);
      normalizeBoxAxes(body, 0, bodyN, 0);
      const out = new Int32Array(SAT_OUT_WORDS);
      let hits = 0;
      for (let k = 0; k < 4; k++) if (satPushOut(body, 0, bodyN, 0, walls, k * BOX_WORDS, axesN, k * 9, out)) hits++;
      const v = opsPerSecond((it) => {
        let s = 0;
        for (let i = 0; i < it; i++) {
          const k = i & 3;
          if (satPushOut(body, 0, bodyN, 0, walls, k * BOX_WORDS, axesN, k * 9, out)) s += out[0]!;
        }
        consume(s);
      });
      // The world's path: an axis-aligned body against walls whose 15 axes were prepared at load.
      const prepared = new Int32Array(4 * PREPARED_WALL_WORDS);
      for (let k = 0; k < 4; k++) prepareWallForAxisAlignedMover(walls, k * BOX_WORDS, axesN, k * 9, prepared, k * PREPARED_WALL_WORDS);
      const vp = opsPerSecond((it) => {
        let s = 0;
        for (let i = 0; i < it; i++) {
          const k = i & 3;
          if (satPushOutAxisAligned(0, -64, 0, 32, 64, 32, prepared, k * PREPARED_WALL_WORDS, out)) s += out[0]!;
        }
        consume(s);
      });
      const w = terrain();
      const r = lcg(2);
      const moves: Vec3[] = [];
      for (let i = 0; i < 1024; i++) moves.push([(r() - 0.5) * 30 * 128, 0, (r() - 0.5) * 30 * 128]);
      const delta: Vec3 = [17, 0, -9];
      const bodyDesc = { radius: 32, height: 128 };
      const mv = opsPerSecond((it) => {
        let s = 0;
        for (let i = 0; i < it; i++) s += w.move(bodyDesc, moves[i & 1023]!, delta).position[0];
        consume(s);
      });
      return [
        { name: 'colbin OBB push-out (world path, prepared walls)', value: vp, unit: 'wall tests/s', goal: 2_000_000, better: 'higher', note: `${hits}/4 pairs colliding; 15 candidate axes, zero and repeated ones skipped` },
        { name: 'colbin OBB push-out (general OBB vs OBB)', value: v, unit: 'wall tests/s', better: 'higher', note: 'crosses and normalisation per test' },
        { name: 'colbin move (terrain, 64 walls)', value: mv, unit: 'moves/s', better: 'higher' },
      ];
    },
  },
  {
    name: 'colbin segment',
    run() {
      const w = terrain();
      const r = lcg(3);
      const n = 1024;
      const seg = new Float64Array(n * 6);
      for (let i = 0; i < n; i++) {
        const x = (r() - 0.5) * 30 * 128, z = (r() - 0.5) * 30 * 128;
        seg.set([x, -100, z, x + (r() - 0.5) * 512, -100 + r() * 200, z + (r() - 0.5) * 512], i * 6);
      }
      const v = opsPerSecond((it) => {
        let s = 0;
        for (let i = 0; i < it; i++) {
          const o = (i & (n - 1)) * 6;
          s += w.segmentFraction(seg[o]!, seg[o + 1]!, seg[o + 2]!, seg[o + 3]!, seg[o + 4]!, seg[o + 5]!);
        }
        consume(s * 1000);
      });
      return [{ name: 'colbin segmentFraction (4 m segments)', value: v, unit: 'segments/s', better: 'higher' }];
    },
  },
  {
    name: 'colbin demo segment',
    run() {
      const bytes = new Uint8Array(readFileSync(new URL('../../assets/worlds/colbin/demo.colbin', import.meta.url)));
      const w = loadColbinWorld(bytes, 'demo.colbin');
      // ~4 m segments from standing spots at eye height (0.9 m), in every direction, ending within ±¼ m of it.
      const r = lcg(4);
      const n = 4096;
      const seg = new Float64Array(n * 6);
      const eye = 115 * w.upSign;
      let k = 0;
      while (k < n) {
        const p = w.sampleOpen(r(), r());
        if (!p) continue;
        // A direction of length 3.75 to 4 m (480 to 512 raw), integer, by rejection: no trigonometry.
        const dx = Math.floor(r() * 1025) - 512, dz = Math.floor(r() * 1025) - 512;
        if (dx * dx + dz * dz < 480 * 480 || dx * dx + dz * dz > 512 * 512) continue;
        seg.set([p[0], p[1] + eye, p[2], p[0] + dx, p[1] + eye + Math.floor(r() * 65) - 32, p[2] + dz], k * 6);
        k++;
      }
      let blocked = 0;
      for (let i = 0; i < n; i++) if (w.segmentFraction(seg[i * 6]!, seg[i * 6 + 1]!, seg[i * 6 + 2]!, seg[i * 6 + 3]!, seg[i * 6 + 4]!, seg[i * 6 + 5]!) >= 0) blocked++;
      const run = (s: Float64Array, count: number) => (it: number) => {
        let acc = 0;
        for (let i = 0; i < it; i++) {
          const o = (i % count) * 6;
          acc += w.segmentFraction(s[o]!, s[o + 1]!, s[o + 2]!, s[o + 3]!, s[o + 4]!, s[o + 5]!);
        }
        consume(acc * 1000);
      };
      const four = run(seg, n);
      const wall = opsPerSecond(four);
      const cpu = cpuOpsPerSecond(four);
      // The line-of-sight benchmark's segments: every pair of 400 agents within 20 m, eye to eye.
      const pairs = agentPairSegments(w, 400);
      const pn = pairs.length / 6;
      const all = run(pairs, pn);
      const pairWall = opsPerSecond(all);
      const pairCpu = cpuOpsPerSecond(all);
      const note = `${w.file.floorCount} floor triangles, ${w.file.wallCount} walls`;
      return [
        { name: 'colbin segmentFraction, demo, 4 m', value: wall, unit: 'segments/s', goal: 1_000_000, better: 'higher', note: `${note}; ${blocked}/${n} blocked; wall clock` },
        { name: 'colbin segmentFraction, demo, 4 m (CPU time)', value: cpu, unit: 'segments/s', goal: 1_000_000, better: 'higher', note: 'per second of this process\'s CPU time' },
        { name: 'colbin segmentFraction, demo, agent pairs', value: pairWall, unit: 'segments/s', better: 'higher', note: `${pn} pairs of 400 agents within 20 m; wall clock` },
        { name: 'colbin segmentFraction, demo, agent pairs (CPU time)', value: pairCpu, unit: 'segments/s', better: 'higher', note: 'per second of this process\'s CPU time' },
      ];
    },
  },
];

