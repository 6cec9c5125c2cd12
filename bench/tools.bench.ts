/**
 * The file tools: writing GTA collision files (goal ≥ 200 MB/s, as parsing), converting them between versions,
 * writing back with the layout kept, and exporting the largest shipped world (the default Piney field: 14,084
 * triangles) to GLB and OBJ, in triangles per second. Each figure also in CPU time (the machine is shared), with
 * the load average when the bench started.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { consume, cpuOpsPerSecond, opsPerSecond, type Bench, type BenchResult } from './harness.js';
import { parseColFile } from '../src/worlds/gta/parse.js';
import { writeColFile } from '../src/worlds/gta/write.js';
import { colLayoutOf, writeColFileKeepingLayout } from '../src/worlds/gta/layout.js';
import { convertColModel } from '../src/worlds/gta/convert.js';
import { exportScene } from '../src/worlds/export/worlds.js';
import { writeGlb } from '../src/worlds/export/gltf.js';
import { writeObj } from '../src/worlds/export/obj.js';
import { gtaAssetsDir } from '../src/node/assets.js';
import { loadWorldFile } from '../src/node/world-files.js';

const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

function pair(name: string, unit: string, fn: (n: number) => void, perIteration: number, note: string, goal?: number): BenchResult[] {
  const wall = opsPerSecond(fn, perIteration);
  const cpu = cpuOpsPerSecond(fn) * perIteration;
  const g = goal === undefined ? {} : { goal, better: 'higher' as const };
  return [
    { name, value: wall, unit, ...g, note: `${note}; load average ${load()}` },
    { name: `${name} (CPU time)`, value: cpu, unit, ...g, note },
  ];
}

export const benches: Bench[] = [
  {
    name: 'gta col write',
    run() {
      const bytes = new Uint8Array(readFileSync(join(gtaAssetsDir(), 'bench-4k.col')));
      const file = parseColFile(bytes);
      const layout = colLayoutOf(bytes, file);
      const mb = bytes.length / 1e6;
      return [
        ...pair('gta col write (bench-4k.col, COL3 4,050 faces)', 'MB/s', (n) => {
          let acc = 0;
          for (let i = 0; i < n; i++) acc += writeColFile(file.models).length;
          consume(acc);
        }, mb, `${bytes.length} bytes`, 200),
        ...pair('gta col write keeping the layout (bench-4k.col)', 'MB/s', (n) => {
          let acc = 0;
          for (let i = 0; i < n; i++) acc += writeColFileKeepingLayout(file.models, layout).bytes.length;
          consume(acc);
        }, mb, `${bytes.length} bytes`),
      ];
    },
  },
  {
    name: 'gta col convert',
    run() {
      const bytes = new Uint8Array(readFileSync(join(gtaAssetsDir(), 'bench-4k.col')));
      const model = parseColFile(bytes).models[0]!;
      const coll = convertColModel(model, 1, { lossy: true }).model;
      const faces = model.mesh.faceCount;
      return [
        ...pair('gta col convert COL3 → COL2 (face groups kept)', 'faces/s', (n) => {
          let acc = 0;
          for (let i = 0; i < n; i++) acc += convertColModel(model, 2).model.mesh.faceCount;
          consume(acc);
        }, faces, `${faces} faces`),
        ...pair('gta col convert COLL → COL3 (face groups built)', 'faces/s', (n) => {
          let acc = 0;
          for (let i = 0; i < n; i++) acc += convertColModel(coll, 3).model.faceGroups!.length;
          consume(acc);
        }, faces, `${faces} faces`),
      ];
    },
  },
  {
    name: 'world export',
    run() {
      const world = loadWorldFile(join(gtaAssetsDir(), '../piney/default.field.json')).world;
      const scene = exportScene(world);
      const tris = scene.parts.reduce((a, p) => a + p.count, 0);
      const note = `the default Piney field, ${tris} triangles`;
      return [
        ...pair('world export: geometry (default Piney field)', 'triangles/s', (n) => {
          let acc = 0;
          for (let i = 0; i < n; i++) acc += exportScene(world).parts.length;
          consume(acc);
        }, tris, note),
        ...pair('world export: GLB from the geometry', 'triangles/s', (n) => {
          let acc = 0;
          for (let i = 0; i < n; i++) acc += writeGlb(scene).length;
          consume(acc);
        }, tris, note),
        ...pair('world export: OBJ from the geometry', 'triangles/s', (n) => {
          let acc = 0;
          for (let i = 0; i < n; i++) acc += writeObj(scene, 'x.mtl').obj.length;
          consume(acc);
        }, tris, note),
      ];
    },
  },
];
