/**
 * Navigation against the peer people would otherwise use: navcat (a navmesh built from the world's triangles,
 * as `world export` writes them) beside our graph (built from the world's own movement), on every shipped
 * world and the same start and goal points (graph nodes drawn with a fixed integer stream, mapped into the
 * export's metres and y-up axes for navcat by nav-axes.ts). Per world: build time (ours with the coarse layer
 * a default search keeps to), the query time (every pair through our findPath, then every pair through
 * navcat's, then every pair through our cheapest search, alternating over rounds, the young generation emptied
 * before each: the median round), the mean
 * ratio of our smoothed path's length to navcat's where both find one, how many of each one's paths the
 * movement system walks (each point in turn, steered as the navigation system steers, within the frames such
 * a walk may take), and how many only one finds (a navcat path counts as found when it ends within 0.5 m of the
 * goal across). The load average is in the note: the machine may be shared.
 */
import { performance } from 'node:perf_hooks';
import { DEFAULT_QUERY_FILTER, findPath as navcatFindPath, type Vec3 as NavcatVec3 } from 'navcat';
import { generateSoloNavMesh } from 'navcat/blocks';
import type { Bench, BenchResult } from './harness.js';
import { loadNote, median } from './harness.js';
import { exportAxes, toExport, toNative } from './nav-axes.js';
import { openBuiltinWorld } from '../src/node/open-world.js';
import { exportScene } from '../src/worlds/export/worlds.js';
import type { CollisionWorld, Vec3 } from '../src/worlds/world.js';
import { buildNavGraph, nodePosition } from '../src/nav/graph.js';
import { findPath, PathSearch } from '../src/nav/path.js';
import { regionsOf } from '../src/nav/regions.js';
import { smoothPath } from '../src/nav/smooth.js';
import { horizontalAxes } from '../src/systems/movement.js';
import { defaultNavBody, newWalker, walkBudget, walkTo, type NavBody } from '../src/nav/walk.js';

/**
 * The shipped worlds, each with navcat's cell size: 0.1 m (a third of the agent's radius) where the world is
 * small enough, 0.3 m on the 480 m Piney field (at 0.1 m its heightfield would be 23 million columns: minutes
 * and gigabytes; at 0.3 m it builds in about half a minute in under 1 GB).
 */
const WORLDS: readonly { id: string; cell: number }[] = [
  { id: 'rugrats-demo', cell: 0.1 },
  { id: 'colbin-demo', cell: 0.1 },
  { id: 'llama-demo', cell: 0.1 },
  { id: 'gta-town', cell: 0.1 },
  { id: 'piney-default', cell: 0.3 },
];
const QUERIES = 100;
/**
 * Rounds of query timing, ours and navcat's alternating: at least 7, and more on a small world until each side
 * has had about 300 ms (a round of 100 queries there takes a few ms, which one busy moment on a shared
 * machine would swing).
 */
const MIN_ROUNDS = 7;
const MAX_ROUNDS = 60;
const TIMED_MS = 300;

/**
 * Empties the young generation before a timed round (with --expose-gc, as `npm run bench` runs): each side
 * then starts with none of the other side's garbage, which would otherwise be collected on its time (a round
 * of 100 queries on a small world takes a few hundred microseconds, a scavenge about as long).
 */
function collectYoung(): void {
  (globalThis as { gc?: (o: { type: 'minor' }) => void }).gc?.({ type: 'minor' });
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
  const [a0, a1] = horizontalAxes(w);
  for (const p of pts) {
    const d = Math.max(Math.abs(p[a0] - walker.pos[a0]), Math.abs(p[a1] - walker.pos[a1]));
    if (!walkTo(walker, p[a0], p[a1], walkBudget(d, body.speed))) return false;
  }
  return true;
}

/** navcat's agent and voxels for a cell size: a person (0.3 m radius, 1 m tall, 0.3 m climb, 45° slopes). */
export function navcatOptions(cellSize: number) {
  const cellHeight = 0.05;
  return {
    cellSize, cellHeight,
    walkableRadiusWorld: 0.3, walkableRadiusVoxels: Math.ceil(0.3 / cellSize),
    walkableClimbWorld: 0.3, walkableClimbVoxels: Math.ceil(0.3 / cellHeight),
    walkableHeightWorld: 1.0, walkableHeightVoxels: Math.ceil(1.0 / cellHeight),
    walkableSlopeAngleDegrees: 45, borderSize: 0, minRegionArea: 8, mergeRegionArea: 20,
    maxSimplificationError: 1.3, maxEdgeLength: 12, maxVerticesPerPoly: 5,
    detailSampleDistance: cellSize * 6, detailSampleMaxError: cellHeight,
  };
}

/** The visible triangles of a world's export (metres, +Y up), as navcat takes them. */
export function exportTriangles(world: CollisionWorld): { positions: Float32Array; indices: Uint32Array; count: number } {
  const parts = exportScene(world).parts.filter((p) => !p.hidden);
  const count = parts.reduce((s, p) => s + p.count, 0);
  const positions = new Float32Array(count * 9);
  let at = 0;
  for (const p of parts) {
    positions.set(p.positions.subarray(0, p.count * 9), at);
    at += p.count * 9;
  }
  return { positions, indices: new Uint32Array(count * 3).map((_, i) => i), count };
}

async function worldFigures({ id, cell }: (typeof WORLDS)[number]): Promise<BenchResult[]> {
  const { world } = await openBuiltinWorld(id);
  const body = defaultNavBody(world);
  const ax = exportAxes(world);
  const [h0, h1] = horizontalAxes(world);
  const load0 = loadNote();
  let t0 = performance.now();
  const g = buildNavGraph(world, body);
  // The coarse layer default searches keep to is part of the build (it is computed once per graph).
  regionsOf(g);
  const ourBuild = performance.now() - t0;
  const { positions, indices, count: n } = exportTriangles(world);
  t0 = performance.now();
  const { navMesh } = generateSoloNavMesh({ positions, indices }, navcatOptions(cell));
  const peerBuild = performance.now() - t0;

  // The same pairs of nodes for both, in native units for ours and in the export's metres and axes for navcat.
  let seed = 12345;
  const draw = (m: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed % m);
  const pairs: [Vec3, Vec3][] = [];
  for (let k = 0; k < QUERIES; k++) pairs.push([nodePosition(g, draw(g.nodeCount)), nodePosition(g, draw(g.nodeCount))]);
  const peerPairs = pairs.map(([a, b]) => [toExport(ax, a), toExport(ax, b)] as [NavcatVec3, NavcatVec3]);
  const search = new PathSearch(g);
  const half: NavcatVec3 = [0.5, 1, 0.5];
  const ours = pairs.map(([a, b]) => findPath(g, a, b, search));
  const theirs = peerPairs.map(([a, b]) => navcatFindPath(navMesh, a, b, half, DEFAULT_QUERY_FILTER));
  // Query time: every pair, ours then navcat's, alternating over rounds; the median round of each.
  const ourRounds: number[] = [];
  const peerRounds: number[] = [];
  const cheapRounds: number[] = [];
  const cheapest = new PathSearch(g, { cheapest: true });
  let spent = 0;
  for (let r = 0; r < MAX_ROUNDS && (r < MIN_ROUNDS || spent < TIMED_MS); r++) {
    collectYoung();
    t0 = performance.now();
    for (const [a, b] of pairs) findPath(g, a, b, search);
    ourRounds.push((performance.now() - t0) / QUERIES);
    collectYoung();
    t0 = performance.now();
    for (const [a, b] of peerPairs) navcatFindPath(navMesh, a, b, half, DEFAULT_QUERY_FILTER);
    peerRounds.push((performance.now() - t0) / QUERIES);
    collectYoung();
    t0 = performance.now();
    for (const [a, b] of pairs) findPath(g, a, b, cheapest);
    cheapRounds.push((performance.now() - t0) / QUERIES);
    spent += Math.min(ourRounds[r]!, peerRounds[r]!) * QUERIES;
  }
  const ourQuery = median(ourRounds);
  const peerQuery = median(peerRounds);

  let both = 0, ratioSum = 0, onlyOurs = 0, onlyTheirs = 0, ourWalked = 0, ourFound = 0, theirWalked = 0, theirFound = 0;
  for (let k = 0; k < QUERIES; k++) {
    const o = ours[k];
    const t = theirs[k]!;
    const goal = pairs[k]![1];
    // A navcat path counts when it ends within 0.5 m of the goal across (not a partial path toward it).
    const last = t.success && t.path.length > 0 ? toNative(ax, t.path[t.path.length - 1]!.position) : null;
    const ok = last !== null && Math.hypot(last[h0] - goal[h0], last[h1] - goal[h1]) <= 0.5 * world.scale;
    let smooth: Vec3[] | null = null;
    if (o) {
      ourFound++;
      smooth = smoothPath(world, body, o.points);
      if (walks(world, body, smooth[0]!, smooth.slice(1))) ourWalked++;
    }
    if (ok) {
      theirFound++;
      const pts = t.path.map((p) => toNative(ax, p.position));
      if (walks(world, body, pairs[k]![0], pts)) theirWalked++;
      if (smooth) {
        both++;
        // navcat's path to the same goal: it may end up to 0.5 m short of it, the rest counted straight (over
        // paths of a few metres, a path that stops short would otherwise look up to a tenth shorter)
        ratioSum += metres(world, smooth) / Math.max(1e-9, metres(world, [pairs[k]![0], ...pts, goal]));
      }
    }
    if (o && !ok) onlyOurs++;
    if (!o && ok) onlyTheirs++;
  }
  const span = (xs: number[]) => `${xs.length} rounds, ${(Math.min(...xs) * 1000).toFixed(0)}–${(Math.max(...xs) * 1000).toFixed(0)} us`;
  const note = `${g.nodeCount} nodes; navcat ${n} triangles, cell ${cell} m; ${QUERIES} queries; load ${load0} at the start, ${loadNote()} at the end`;
  return [
    { name: `${id}: our graph build`, value: ourBuild, unit: 'ms', note },
    { name: `${id}: navcat navmesh build`, value: peerBuild, unit: 'ms' },
    { name: `${id}: our query`, value: ourQuery * 1000, unit: 'us', note: `median of ${span(ourRounds)}` },
    { name: `${id}: navcat query`, value: peerQuery * 1000, unit: 'us', note: `median of ${span(peerRounds)}` },
    { name: `${id}: our cheapest query (whole-graph A*)`, value: median(cheapRounds) * 1000, unit: 'us', note: `median of ${span(cheapRounds)}` },
    { name: `${id}: navcat query / ours`, value: peerQuery / ourQuery, unit: 'ratio', goal: 2, better: 'higher' },
    { name: `${id}: our smoothed length / navcat's (both found)`, value: both ? ratioSum / both : NaN, unit: 'ratio', goal: 1.05, better: 'lower', note: `${both} pairs` },
    { name: `${id}: our paths the movement system walks`, value: ourFound ? ourWalked / ourFound : NaN, unit: 'ratio', goal: 1, better: 'higher', note: `${ourWalked} of ${ourFound}` },
    { name: `${id}: navcat paths the movement system walks`, value: theirFound ? theirWalked / theirFound : NaN, unit: 'ratio', note: `${theirWalked} of ${theirFound}` },
    { name: `${id}: found by one only`, value: onlyOurs + onlyTheirs, unit: 'pairs', note: `ours only ${onlyOurs}, navcat only ${onlyTheirs}` },
  ];
}

export const benches: Bench[] = WORLDS.map((w) => ({ name: `nav peer ${w.id}`, run: () => worldFigures(w) }));
