/**
 * GTA collision files: parsing speed (goal ≥ 200 MB/s) and segments against the 4,050-face benchmark model
 * (goal ≥ 1,000,000 segments/s), through the face groups and through the project's own tree; and the
 * placements' broad phase against walking every placement (the reference path), on 100,000 placements at one
 * spot, on a 316 × 316 grid of them, and on the eight placements of the town.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { consume, cpuOpsPerSecond, lcg, opsPerSecond, type Bench, type BenchResult } from './harness.js';
import { parseColFile } from '../src/worlds/gta/parse.js';
import { ColScene, type GtaPlacement } from '../src/worlds/gta/query.js';
import { GtaWorld } from '../src/worlds/gta/collision-world.js';
import { newGroundResult, newMoveResult, type Vec3 } from '../src/worlds/world.js';
import { gtaAssetsDir } from '../src/node/assets.js';

function asset(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(gtaAssetsDir(), name)));
}

/** Segments of up to ~14 m around and through the rippled grid, from a fixed LCG (the same set every run). */
function segments(count: number): Float64Array {
  const s = new Float64Array(count * 6);
  let x = 12345;
  const next = (): number => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 4294967296;
  };
  for (let i = 0; i < count; i++) {
    const fx = next() * 90 - 45, fy = next() * 90 - 45, fz = next() * 8 - 3;
    s.set([fx, fy, fz, fx + next() * 16 - 8, fy + next() * 16 - 8, fz + next() * 8 - 5], i * 6);
  }
  return s;
}

export const benches: Bench[] = [
  {
    name: 'gta col parse',
    run() {
      const files = [asset('bench-4k.col'), asset('town.col')];
      const results = files.map((bytes, k) => {
        const rate = opsPerSecond((n) => {
          let acc = 0;
          for (let i = 0; i < n; i++) acc += parseColFile(bytes).models.length;
          consume(acc);
        }, bytes.length / 1e6);
        return { name: `gta col parse (${k === 0 ? 'bench-4k.col, COL3 4,050 faces' : 'town.col, 5 mixed models'})`, value: rate, unit: 'MB/s', goal: 200, better: 'higher' as const, note: `${bytes.length} bytes` };
      });
      return results;
    },
  },
  {
    name: 'gta col segments',
    run() {
      const model = parseColFile(asset('bench-4k.col')).models[0]!;
      const grouped = new ColScene([model]);
      const plain = new ColScene([{ ...model, faceGroups: null }]);
      const N = 4096;
      const seg = segments(N);
      let hits = 0;
      for (let i = 0; i < N; i++) if (grouped.segmentFraction(seg[i * 6]!, seg[i * 6 + 1]!, seg[i * 6 + 2]!, seg[i * 6 + 3]!, seg[i * 6 + 4]!, seg[i * 6 + 5]!) >= 0) hits++;
      const run = (scene: ColScene): number =>
        opsPerSecond((n) => {
          let acc = 0;
          for (let k = 0; k < n; k++) {
            const i = (k & (N - 1)) * 6;
            acc += scene.segmentFraction(seg[i]!, seg[i + 1]!, seg[i + 2]!, seg[i + 3]!, seg[i + 4]!, seg[i + 5]!);
          }
          consume(acc);
        });
      const note = `${model.mesh.faceCount} faces, ${model.faceGroups?.length ?? 0} groups; ${((hits * 100) / N).toFixed(0)}% of segments hit`;
      return [
        { name: 'gta col segments, 4k faces (face groups)', value: run(grouped), unit: 'segments/s', goal: 1_000_000, better: 'higher', note },
        { name: 'gta col segments, 4k faces (own tree, no groups)', value: run(plain), unit: 'segments/s', note },
      ];
    },
  },
];

/** Ground queries and body moves per second through the broad phase and through the linear walk, on `placements`. */
function broadVsLinear(label: string, placements: GtaPlacement[], points: Vec3[], note: string): BenchResult[] {
  const file = parseColFile(asset('town.col'));
  const fast = new GtaWorld('fast', file, placements, { broadPhase: true });
  const slow = new GtaWorld('slow', file, placements, { broadPhase: false });
  const g = newGroundResult();
  const grounds = (w: GtaWorld) => (n: number): void => {
    let acc = 0;
    for (let k = 0; k < n; k++) acc += w.ground(points[k % points.length]!, g).hasFloor ? 1 : 0;
    consume(acc);
  };
  const body = { radius: 0.35, height: 1.8, stepHeight: 0.4 };
  const m = newMoveResult();
  const moves = (w: GtaWorld) => (n: number): void => {
    let acc = 0;
    for (let k = 0; k < n; k++) {
      const p = points[k % points.length]!;
      acc += w.move(body, p, [0.1, 0.05, -0.05], m).contacts.length;
    }
    consume(acc);
  };
  const out: BenchResult[] = [];
  for (const [what, run, linearN] of [['ground queries', grounds, 2], ['body moves', moves, 1]] as const) {
    const b = cpuOpsPerSecond(run(fast));
    // The linear walk is slow on the big scenes: a fixed small count, one warm-up, three samples.
    const l = cpuOpsPerSecond(run(slow), placements.length > 1000 ? linearN : undefined, 3);
    out.push({ name: `gta placements, ${label}: ${what} (broad phase)`, value: b, unit: `${what.split(' ').pop()}/s`, note: `CPU time; ${note}` });
    out.push({ name: `gta placements, ${label}: ${what} (every placement)`, value: l, unit: `${what.split(' ').pop()}/s`, note: `CPU time; broad phase ${(b / l).toFixed(1)}× faster` });
  }
  return out;
}

benches.push({
  name: 'gta placements broad phase',
  run() {
    const rnd = lcg(99);
    const spot: Vec3 = [4, -6, 0];
    const atSpot: GtaPlacement[] = Array.from({ length: 100_000 }, () => ({ model: 'town_house', position: spot }));
    const near = Array.from({ length: 256 }, (): Vec3 => [spot[0] + rnd() * 16 - 8, spot[1] + rnd() * 16 - 8, rnd() * 10]);
    const grid: GtaPlacement[] = [];
    for (let i = 0; i < 316; i++) for (let j = 0; j < 316; j++) grid.push({ model: j % 3 === 0 ? 'town_tower' : 'town_house', position: [i * 24, j * 24, 0], rotation: [0, 0, (i + j) % 2 ? 0.7071067811865476 : 0, (i + j) % 2 ? 0.7071067811865476 : 1] });
    const across = Array.from({ length: 256 }, (): Vec3 => [rnd() * 316 * 24, rnd() * 316 * 24, rnd() * 10]);
    const town = JSON.parse(new TextDecoder().decode(asset('town.placements.json'))) as { placements: GtaPlacement[] };
    const inTown = Array.from({ length: 256 }, (): Vec3 => [rnd() * 100 - 50, rnd() * 100 - 50, rnd() * 10]);
    return [
      ...broadVsLinear('100,000 at one spot', atSpot, near, '100,000 copies of one house at one spot, points around it'),
      ...broadVsLinear('316 × 316 grid', grid, across, `${grid.length} houses and towers 24 m apart, half turned, points anywhere over them`),
      ...broadVsLinear('the town', town.placements, inTown, `the town's ${town.placements.length} placements (below BROAD_PHASE_MIN_PLACEMENTS a scene walks them by default)`),
    ];
  },
});
