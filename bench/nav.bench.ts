/**
 * Navigation against the peer people would otherwise use: navcat (a navmesh built from the world's triangles,
 * as `world export` writes them) beside our graph (built from the world's own movement), on the same worlds
 * and the same start and goal points (graph nodes drawn with a fixed integer stream). Per world: build time,
 * the mean query time (our findPath; navcat's findPath), the mean ratio of our smoothed path's length to
 * navcat's where both find one, how many of each one's paths the movement system walks (each point in turn,
 * steered as the navigation system steers, within the frames such a walk may take), and how many only one
 * finds (a navcat path counts as found when it ends within 0.5 m of the goal across). The load average is in the note: the machine may be shared.
 */
import { performance } from 'node:perf_hooks';
import { DEFAULT_QUERY_FILTER, findPath as navcatFindPath, type Vec3 as NavcatVec3 } from 'navcat';
import { generateSoloNavMesh } from 'navcat/blocks';
import type { Bench, BenchResult } from './harness.js';
import { loadNote } from './harness.js';
import { openBuiltinWorld } from '../src/node/open-world.js';
import { exportScene } from '../src/worlds/export/worlds.js';
import type { CollisionWorld, Vec3 } from '../src/worlds/world.js';
import { buildNavGraph, nodePosition } from '../src/nav/graph.js';
import { findPath, PathSearch } from '../src/nav/path.js';
import { smoothPath } from '../src/nav/smooth.js';
import { defaultNavBody, newWalker, walkBudget, walkTo, type NavBody } from '../src/nav/walk.js';

/** The worlds whose export axes are (x, −y, −z) over the scale: native to export and back. */
const WORLDS = ['rugrats-demo', 'colbin-demo'] as const;
const QUERIES = 100;

function toExport(w: CollisionWorld, p: Vec3): NavcatVec3 {
  const s = 1 / w.scale;
  return [p[0] * s, -p[1] * s + 0, -p[2] * s + 0];
}
function toNative(w: CollisionWorld, p: readonly number[]): Vec3 {
  const r = (v: number) => (w.integer ? Math.round(v) : v);
  return [r(p[0]! * w.scale), r(-p[1]! * w.scale), r(-p[2]! * w.scale)];
}

/** Metres along a polyline of native points. */
function metres(w: CollisionWorld, pts: readonly Vec3[]): number {
  let s = 0;
  for (let k = 1; k < pts.length; k++) s += Math.hypot(pts[k]![0] - pts[k - 1]![0], pts[k]![1] - pts[k - 1]![1], pts[k]![2] - pts[k - 1]![2]);
  return s / w.scale;
}

/** Whether the body, from `start`, walks to every point of `pts` in turn (arriving on each to the bit, horizontally). */
function walks(w: CollisionWorld, body: NavBody, start: Vec3, pts: readonly Vec3[]): boolean {
  const walker = newWalker(w, body, start);
  const [a0, a1] = [0, 2] as const;
  for (const p of pts) {
    const d = Math.max(Math.abs(p[a0] - walker.pos[a0]), Math.abs(p[a1] - walker.pos[a1]));
    if (!walkTo(walker, p[a0], p[a1], walkBudget(d, body.speed))) return false;
  }
  return true;
}

async function worldFigures(id: (typeof WORLDS)[number]): Promise<BenchResult[]> {
  const { world } = await openBuiltinWorld(id);
  const body = defaultNavBody(world);
  let t0 = performance.now();
  const g = buildNavGraph(world, body);
  const ourBuild = performance.now() - t0;
  // navcat: the visible triangles of the export, a person's agent (0.3 m radius, 1 m tall, 0.3 m climb).
  const scene = exportScene(world);
  const tris = scene.parts.filter((p) => !p.hidden);
  const n = tris.reduce((s, p) => s + p.count, 0);
  const positions = new Float32Array(n * 9);
  let at = 0;
  for (const p of tris) {
    positions.set(p.positions.subarray(0, p.count * 9), at);
    at += p.count * 9;
  }
  const indices = new Uint32Array(n * 3).map((_, i) => i);
  const cellSize = 0.1, cellHeight = 0.05;
  const options = {
    cellSize, cellHeight,
    walkableRadiusWorld: 0.3, walkableRadiusVoxels: Math.ceil(0.3 / cellSize),
    walkableClimbWorld: 0.3, walkableClimbVoxels: Math.ceil(0.3 / cellHeight),
    walkableHeightWorld: 1.0, walkableHeightVoxels: Math.ceil(1.0 / cellHeight),
    walkableSlopeAngleDegrees: 45, borderSize: 0, minRegionArea: 8, mergeRegionArea: 20,
    maxSimplificationError: 1.3, maxEdgeLength: 12, maxVerticesPerPoly: 5,
    detailSampleDistance: cellSize * 6, detailSampleMaxError: cellHeight,
  };
  t0 = performance.now();
  const { navMesh } = generateSoloNavMesh({ positions, indices }, options);
  const peerBuild = performance.now() - t0;

  // The same pairs of nodes for both.
  let seed = 12345;
  const draw = (m: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed % m);
  const pairs: [Vec3, Vec3][] = [];
  for (let k = 0; k < QUERIES; k++) pairs.push([nodePosition(g, draw(g.nodeCount)), nodePosition(g, draw(g.nodeCount))]);
  const search = new PathSearch(g);
  const ours = pairs.map(([a, b]) => findPath(g, a, b, search));
  t0 = performance.now();
  for (let r = 0; r < 5; r++) for (const [a, b] of pairs) findPath(g, a, b, search);
  const ourQuery = (performance.now() - t0) / (5 * QUERIES);
  const half: NavcatVec3 = [0.5, 1, 0.5];
  const theirs = pairs.map(([a, b]) => navcatFindPath(navMesh, toExport(world, a), toExport(world, b), half, DEFAULT_QUERY_FILTER));
  t0 = performance.now();
  for (let r = 0; r < 5; r++) for (const [a, b] of pairs) navcatFindPath(navMesh, toExport(world, a), toExport(world, b), half, DEFAULT_QUERY_FILTER);
  const peerQuery = (performance.now() - t0) / (5 * QUERIES);

  let both = 0, ratioSum = 0, onlyOurs = 0, onlyTheirs = 0, ourWalked = 0, ourFound = 0, theirWalked = 0, theirFound = 0;
  for (let k = 0; k < QUERIES; k++) {
    const o = ours[k];
    const t = theirs[k]!;
    // A navcat path counts when it ends within 0.5 m of the goal across (not a partial path toward it).
    const last = t.success && t.path.length > 0 ? toNative(world, t.path[t.path.length - 1]!.position) : null;
    const ok = last !== null && Math.hypot(last[0] - pairs[k]![1][0], last[2] - pairs[k]![1][2]) <= 0.5 * world.scale;
    let smooth: Vec3[] | null = null;
    if (o) {
      ourFound++;
      smooth = smoothPath(world, body, o.points);
      if (walks(world, body, smooth[0]!, smooth.slice(1))) ourWalked++;
    }
    if (ok) {
      theirFound++;
      const pts = t.path.map((p) => toNative(world, p.position));
      if (walks(world, body, pairs[k]![0], pts)) theirWalked++;
      if (smooth) {
        both++;
        ratioSum += metres(world, smooth) / Math.max(1e-9, metres(world, [pairs[k]![0], ...pts]));
      }
    }
    if (o && !ok) onlyOurs++;
    if (!o && ok) onlyTheirs++;
  }
  const note = `${g.nodeCount} nodes; navcat ${n} triangles, cell ${cellSize} m; ${QUERIES} queries; ${loadNote()}`;
  return [
    { name: `${id}: our graph build`, value: ourBuild, unit: 'ms', note },
    { name: `${id}: navcat navmesh build`, value: peerBuild, unit: 'ms' },
    { name: `${id}: our query`, value: ourQuery * 1000, unit: 'us' },
    { name: `${id}: navcat query`, value: peerQuery * 1000, unit: 'us' },
    { name: `${id}: navcat query / ours`, value: peerQuery / ourQuery, unit: 'ratio', goal: 2, better: 'higher' },
    { name: `${id}: our smoothed length / navcat's (both found)`, value: both ? ratioSum / both : NaN, unit: 'ratio', goal: 1.05, better: 'lower', note: `${both} pairs` },
    { name: `${id}: our paths the movement system walks`, value: ourFound ? ourWalked / ourFound : NaN, unit: 'ratio', goal: 1, better: 'higher', note: `${ourWalked} of ${ourFound}` },
    { name: `${id}: navcat paths the movement system walks`, value: theirFound ? theirWalked / theirFound : NaN, unit: 'ratio', note: `${theirWalked} of ${theirFound}` },
    { name: `${id}: found by one only`, value: onlyOurs + onlyTheirs, unit: 'pairs', note: `ours only ${onlyOurs}, navcat only ${onlyTheirs}` },
  ];
}

export const benches: Bench[] = WORLDS.map((id) => ({ name: `nav peer ${id}`, run: () => worldFigures(id) }));
