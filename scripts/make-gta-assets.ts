/**
 * Makes the synthetic GTA collision assets with the project's own writer (no game data):
 *
 *   assets/worlds/gta/town.col               several models of mixed versions (COLL, COL2, COL3 with face groups
 *                                            and a shadow mesh), the default GTA world of the simulation
 *   assets/worlds/gta/town.placements.json   where the town's models stand (position + rotation quaternion)
 *   assets/worlds/gta/bench-4k.col           one COL3 model of 4,050 faces in face groups, for the benchmark
 *
 * Run: npx tsc -p tsconfig.build.json && node dist/scripts/make-gta-assets.js
 * Everything here is a pure function of the code, so a rerun gives the same bytes (a test checks this).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Vec3 } from '../src/worlds/world.js';
import { MeshBuilder, computeBounds, solidSurface, withFaceGroups } from '../src/worlds/gta/build.js';
import { canonicalFlags, convertModel, emptyModel, type ColModel, type ColVersion } from '../src/worlds/gta/model.js';
import { writeColFile } from '../src/worlds/gta/write.js';
import type { GtaPlacement } from '../src/worlds/gta/query.js';

/** Surface ids used by the town (San Andreas surfinfo numbering: 0 default, 1 tarmac, 4 concrete, 9 grass, 14 wood). */
const MAT = { default: 0, tarmac: 1, concrete: 4, grass: 9, wood: 14 } as const;

function finish(m: ColModel, version: ColVersion, groups: boolean): ColModel {
  m.bounds = computeBounds(m);
  let out = convertModel(m, version);
  if (groups && version >= 2) out = withFaceGroups(out);
  out.flags = canonicalFlags(out);
  return out;
}

/** 160 m square of ground in 10 m cells, flat but for a low hill in one corner; tarmac along the middle road. */
function ground(): ColModel {
  const m = emptyModel(3, 'town_ground');
  const b = new MeshBuilder();
  const N = 16, cell = 10, half = (N * cell) / 2;
  const hill = (x: number, y: number): number => {
    const d2 = (x - 45) * (x - 45) + (y - 45) * (y - 45);
    return d2 < 900 ? 3 - d2 / 300 : 0;
  };
  const idx: number[] = [];
  for (let j = 0; j <= N; j++) for (let i = 0; i <= N; i++) {
    const x = i * cell - half, y = j * cell - half;
    idx.push(b.vertex(x, y, hill(x, y)));
  }
  for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    const a = idx[j * (N + 1) + i]!, c = idx[j * (N + 1) + i + 1]!, d = idx[(j + 1) * (N + 1) + i + 1]!, e = idx[(j + 1) * (N + 1) + i]!;
    b.quad(a, c, d, e, j === N / 2 || j === N / 2 - 1 ? MAT.tarmac : MAT.grass);
  }
  m.mesh = b.build();
  return finish(m, 3, true);
}

/** A house: walls as a mesh box 8 × 6 × 4 with a pitched roof, and a porch step as a box. */
function house(): ColModel {
  const m = emptyModel(3, 'town_house');
  const b = new MeshBuilder();
  b.box([-4, -3, 0], [4, 3, 4], MAT.concrete);
  const r = [b.vertex(-4, -3, 4), b.vertex(4, -3, 4), b.vertex(4, 3, 4), b.vertex(-4, 3, 4), b.vertex(-4, 0, 6), b.vertex(4, 0, 6)];
  b.quad(r[0]!, r[1]!, r[5]!, r[4]!, MAT.wood).quad(r[3]!, r[4]!, r[5]!, r[2]!, MAT.wood);
  b.triangle(r[0]!, r[4]!, r[3]!, MAT.wood).triangle(r[1]!, r[2]!, r[5]!, MAT.wood);
  m.mesh = b.build();
  m.boxes.push({ min: [-1, -4, 0], max: [1, -3, 0.25], surface: solidSurface(MAT.concrete) });
  return finish(m, 3, true);
}

/** A tower of stacked boxes (COL2: boxes only). */
function tower(): ColModel {
  const m = emptyModel(2, 'town_tower');
  m.boxes.push({ min: [-3, -3, 0], max: [3, 3, 10], surface: solidSurface(MAT.concrete) });
  m.boxes.push({ min: [-2, -2, 10], max: [2, 2, 16], surface: solidSurface(MAT.concrete) });
  m.spheres.push({ center: [0, 0, 17], radius: 1.5, surface: solidSurface(MAT.default) });
  return finish(m, 2, false);
}

/** A tree: a trunk box and a round canopy (COLL, as GTA III would have it). */
function tree(): ColModel {
  const m = emptyModel(1, 'town_tree');
  m.boxes.push({ min: [-0.25, -0.25, 0], max: [0.25, 0.25, 3], surface: solidSurface(MAT.wood) });
  m.spheres.push({ center: [0, 0, 4.5], radius: 2, surface: solidSurface(MAT.grass) });
  return finish(m, 1, false);
}

/** A ramp up to a deck 2 m high, with a shadow mesh of the deck (COL3). */
function ramp(): ColModel {
  const m = emptyModel(3, 'town_ramp');
  const b = new MeshBuilder();
  const p = [b.vertex(-10, -3, 0), b.vertex(0, -3, 2), b.vertex(0, 3, 2), b.vertex(-10, 3, 0)];
  b.quad(p[0]!, p[1]!, p[2]!, p[3]!, MAT.tarmac);
  b.box([0, -3, 1.5], [12, 3, 2], MAT.concrete);
  m.mesh = b.build();
  m.boxes.push({ min: [10, -3, 0], max: [12, 3, 1.5], surface: solidSurface(MAT.concrete) });
  m.shadow = new MeshBuilder().box([0, -3, 1.5], [12, 3, 2]).build();
  return finish(m, 3, true);
}

const Q90: [number, number, number, number] = [0, 0, Math.SQRT1_2, Math.SQRT1_2];
const Q180: [number, number, number, number] = [0, 0, 1, 0];
const Q45: [number, number, number, number] = [0, 0, 0.3826834323650898, 0.9238795325112867];

export const TOWN_PLACEMENTS: GtaPlacement[] = [
  { model: 'town_ground', position: [0, 0, 0] },
  { model: 'town_house', position: [-30, 25, 0] },
  { model: 'town_house', position: [-10, 25, 0], rotation: Q180 },
  { model: 'town_house', position: [15, 30, 0], rotation: Q90 },
  { model: 'town_house', position: [-40, -30, 0], rotation: Q45 },
  { model: 'town_tower', position: [30, -35, 0] },
  { model: 'town_ramp', position: [-5, -25, 0] },
  { model: 'town_tree', position: [0, 12, 0] },
  { model: 'town_tree', position: [8, 14, 0] },
  { model: 'town_tree', position: [-55, 0, 0] },
  { model: 'town_tree', position: [55, 10, 0] },
];

/** The 4,050-face benchmark model: a 45 × 45 grid of 2 m cells with a deterministic ripple, in face groups. */
function bench4k(): ColModel {
  const m = emptyModel(3, 'bench_4k');
  const b = new MeshBuilder();
  const N = 45, cell = 2, half = (N * cell) / 2;
  const idx: number[] = [];
  for (let j = 0; j <= N; j++) for (let i = 0; i <= N; i++) {
    idx.push(b.vertex(i * cell - half, j * cell - half, (((i * 7 + j * 13) % 17) - 8) / 8));
  }
  for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    b.quad(idx[j * (N + 1) + i]!, idx[j * (N + 1) + i + 1]!, idx[(j + 1) * (N + 1) + i + 1]!, idx[(j + 1) * (N + 1) + i]!, (i + j) % 3);
  }
  m.mesh = b.build();
  return finish(m, 3, true);
}

/** Every asset, by file name under assets/worlds/gta/. */
export function makeGtaAssets(): Record<string, Uint8Array> {
  const placements = TOWN_PLACEMENTS.map((p) => ({ ...p, position: [...p.position] as Vec3 }));
  return {
    'town.col': writeColFile([ground(), house(), tower(), tree(), ramp()]),
    'town.placements.json': new TextEncoder().encode(JSON.stringify({ placements }, null, 2) + '\n'),
    'bench-4k.col': writeColFile([bench4k()]),
  };
}

/** The repository root, found upward from this file (it runs from scripts/ or dist/scripts/). */
export function repoRootFrom(url: string): string {
  let dir = dirname(fileURLToPath(url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above ' + fileURLToPath(url));
    dir = up;
  }
  return dir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = join(repoRootFrom(import.meta.url), 'assets', 'worlds', 'gta');
  mkdirSync(out, { recursive: true });
  for (const [name, bytes] of Object.entries(makeGtaAssets())) {
    writeFileSync(join(out, name), bytes);
    process.stdout.write(`${name}: ${bytes.length} bytes\n`);
  }
}
