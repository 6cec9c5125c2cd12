/**
 * GTA collision files: parsing speed (goal ≥ 200 MB/s) and segments against the 4,050-face benchmark model
 * (goal ≥ 1,000,000 segments/s), through the face groups and through the project's own tree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { consume, opsPerSecond, type Bench } from './harness.js';
import { parseColFile } from '../src/worlds/gta/parse.js';
import { ColScene } from '../src/worlds/gta/query.js';
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
