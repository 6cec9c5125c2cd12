// Opens a GTA collision file and asks it questions: the ground under a few points, and line of sight
// between pairs of points in one batch.
//
//   node examples/gta-queries/gta-queries.mjs [FILE.col]      (default: the shipped demo town)
import { join } from 'node:path';
import { SEGMENT_STRIDE, loadWorld, losBatch, newLosOutput, packageRoot } from 'retrosim';

const file = process.argv[2] ?? join(packageRoot(), 'assets/worlds/gta/town.col');
// A sibling <stem>.placements.json, when there is one, places the file's models (the town has one).
const world = await loadWorld(file);
console.log(JSON.stringify({ kind: world.kind, name: world.name, up: world.up, bounds: world.bounds }));

// Ground: the floor height under each point (GTA worlds are z-up, in metres), and what it belongs to.
const probes = [
  [0, 0, 50],
  [20, -35, 50],
  [-60, 60, 50],
  [500, 500, 50],
];
for (const p of probes) {
  const g = world.ground(p);
  console.log(JSON.stringify({ ground: p, hasFloor: g.hasFloor, floor: g.hasFloor ? g.floor : null, material: g.material, face: g.id }));
}

// Line of sight: segments as six numbers each (from x, y, z, to x, y, z), answered in one call.
const pairs = [
  [-70, -70, 1.6, 70, 70, 1.6],
  [-70, 0, 1.6, 70, 0, 1.6],
  [0, -70, 30, 0, 70, 30],
  [5, 5, 1.6, 6, 6, 1.6],
];
const segments = new Float64Array(pairs.length * SEGMENT_STRIDE);
pairs.forEach((s, i) => segments.set(s, i * SEGMENT_STRIDE));
const out = newLosOutput(pairs.length);
losBatch(world, segments, out);
pairs.forEach((s, i) => console.log(JSON.stringify({ segment: s, visible: out.visible[i] === 1, fraction: out.fraction[i] })));
