/**
 * Line of sight against the peers people would otherwise use: Rapier (@dimforge/rapier3d-compat, a ray cast
 * against a fixed trimesh collider) and three-mesh-bvh (raycastFirst on a MeshBVH), with the SAME geometry and
 * the SAME segments as losBatch, side by side in one run.
 *
 * Geometry: the Rugrats demo level exported as triangles (every open room's floor and ceiling, sloped where the
 * tile is, per half in halved cells, and the vertical wall faces where a room meets a neighbour's solid or
 * missing cell, or the other half's stack); the GTA town's collision faces, placed. Our side also tests the
 * GTA spheres and boxes, which the peers do not get (more work for us, not less). Segments: every pair of
 * scattered agents within 20 m, eye to eye (bench/los.bench.ts), over 100,000 per scene (PEER_SCENE_AGENTS). A note gives how often each peer's
 * hit/clear answer agrees with ours, which shows the exported geometry is the same level.
 *
 * Our fast paths are checked against the rule-exact reference paths on every segment of the set (the count
 * of disagreements is a result, with the goal 0), and our ratio to the faster peer is a result with the
 * goal (10 on Rugrats, 6 on GTA, on one thread and on two). The load average is printed before and after, as the machine is
 * shared.
 */
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import RAPIER from '@dimforge/rapier3d-compat';
import { BufferAttribute, BufferGeometry, DoubleSide, Ray, Vector3 } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { Bench, BenchResult } from './harness.js';
import { consume, loadNote, median } from './harness.js';
import { disagreements } from './bench-worlds.js';
import { agentPairSegments, openBenchWorld, LOS_WORLDS } from './los.bench.js';
import { LosPool } from '../src/node/los-pool.js';
import { losBatch, newLosOutput, SEGMENT_STRIDE } from '../src/systems/los/los-batch.js';
import type { GtaWorld } from '../src/worlds/gta/collision-world.js';
import type { RugratsWorld } from '../src/worlds/rugrats/collision-world.js';
import { FLAG_LAST, halfOf } from '../src/worlds/rugrats/layout.js';
import { ceilingAt, floorAt } from '../src/worlds/rugrats/query.js';
import type { CollisionWorld } from '../src/worlds/world.js';

export interface TriangleMesh {
  positions: Float32Array;
  indices: Uint32Array;
}

class MeshBuilder {
  pos: number[] = [];
  idx: number[] = [];
  vertex(x: number, y: number, z: number): number {
    this.pos.push(x, y, z);
    return this.pos.length / 3 - 1;
  }
  tri(a: number[], b: number[], c: number[]): void {
    this.idx.push(this.vertex(a[0]!, a[1]!, a[2]!), this.vertex(b[0]!, b[1]!, b[2]!), this.vertex(c[0]!, c[1]!, c[2]!));
  }
  quad(a: number[], b: number[], c: number[], d: number[]): void {
    this.tri(a, b, c);
    this.tri(a, c, d);
  }
  /** A vertical wall along the edge (x0, z0)–(x1, z1) from y = top to y = bottom. */
  wall(x0: number, z0: number, x1: number, z1: number, top: number, bottom: number): void {
    if (!(bottom > top)) return;
    this.quad([x0, top, z0], [x1, top, z1], [x1, bottom, z1], [x0, bottom, z0]);
  }
  done(): TriangleMesh {
    return { positions: Float32Array.from(this.pos), indices: Uint32Array.from(this.idx) };
  }
}

/** Parts of the open interval (a, b) not covered by any of `cover` ([top, bottom] pairs), in y. */
function uncovered(a: number, b: number, cover: number[][]): number[][] {
  const sorted = cover.filter(([t, u]) => u > a && t < b).sort((p, q) => p[0]! - q[0]!);
  const out: number[][] = [];
  let y = a;
  for (const [t, u] of sorted) {
    if (t! > y) out.push([y, Math.min(t!, b)]);
    if (u! > y) y = u!;
    if (y >= b) break;
  }
  if (y < b) out.push([y, b]);
  return out;
}

/** The Rugrats level as triangles (see the module comment). y points down, integer units. */
export function rugratsTriangles(world: RugratsWorld): TriangleMesh {
  const ix = world.index;
  const m = new MeshBuilder();
  const stackTiles = (first: number): number[] => {
    const out: number[] = [];
    for (let t = first; t >= 0 && t < ix.tileFlags.length; t++) {
      out.push(t);
      if (ix.tileFlags[t]! & FLAG_LAST) break;
    }
    return out;
  };
  // Sides: 0 −x, 1 +x, 2 −z, 3 +z. The sides each half of a halved cell touches (the other half does not).
  const HALF_SIDES = [
    [2, 1], // half 0 (z < x): −z, +x
    [0, 2], // half 1 (x + z < 1024): −x, −z
    [0, 3], // half 2: −x, +z
    [1, 3], // half 3: +x, +z
  ];
  /** Open rooms (flat ceiling, flat floor) of a cell along one side: of the half touching it in a halved cell. */
  const roomsOf = (cell: number, side: number): number[][] => {
    if (cell < 0) return [];
    const out: number[][] = [];
    for (const s of [ix.cellStackA[cell]!, ix.cellStackB[cell]!]) {
      if (s < 0) continue;
      if (ix.cellStackB[cell]! >= 0 && !HALF_SIDES[halfOf(ix.tileFlags[s]!)]!.includes(side)) continue;
      for (const t of stackTiles(s)) if (ix.tileFloor[t]! > ix.tileCeiling[t]!) out.push([ix.tileCeiling[t]!, ix.tileFloor[t]!]);
    }
    return out;
  };
  const cellAt = (c: number, zc: number): number => (c < 0 || c >= 512 || zc < 0 || zc > 255 ? -1 : ix.cellGrid[c * 256 + zc]!);
  // Cell-corner offsets of each half's triangle (x, z in 0/1 of the cell).
  const HALF_CORNERS = [
    [[0, 0], [1, 0], [1, 1]], // half 0: z < x
    [[0, 0], [1, 0], [0, 1]], // half 1: x + z < 1024
    [[0, 0], [1, 1], [0, 1]], // half 2
    [[1, 0], [1, 1], [0, 1]], // half 3
  ];
  const surface = (t: number, corners: number[][], x0: number, z0: number) => {
    if (!(ix.tileFloor[t]! > ix.tileCeiling[t]!)) return;
    const at = (f: typeof floorAt, cx: number, cz: number) => {
      const x = x0 + cx * 1024, z = z0 + cz * 1024;
      return [x, f(ix, t, Math.min(x, x0 + 1023), Math.min(z, z0 + 1023)), z];
    };
    const fl = corners.map(([cx, cz]) => at(floorAt, cx!, cz!));
    const ce = corners.map(([cx, cz]) => at(ceilingAt, cx!, cz!));
    if (fl.length === 4) {
      m.quad(fl[0]!, fl[1]!, fl[2]!, fl[3]!);
      m.quad(ce[0]!, ce[1]!, ce[2]!, ce[3]!);
    } else {
      m.tri(fl[0]!, fl[1]!, fl[2]!);
      m.tri(ce[0]!, ce[1]!, ce[2]!);
    }
  };
  for (let c = 0; c < 512; c++) {
    for (let k = ix.colCellStart[c]!; k < ix.colCellStart[c + 1]!; k++) {
      const zc = ix.cellZ[k]!;
      const x0 = ix.minX + c * 1024, z0 = ix.minZ + zc * 1024, x1 = x0 + 1024, z1 = z0 + 1024;
      const a = ix.cellStackA[k]!, b = ix.cellStackB[k]!;
      if (b < 0) {
        for (const t of stackTiles(a)) surface(t, [[0, 0], [1, 0], [1, 1], [0, 1]], x0, z0);
      } else {
        const ha = halfOf(ix.tileFlags[a]!), hb = halfOf(ix.tileFlags[b]!);
        for (const t of stackTiles(a)) surface(t, HALF_CORNERS[ha]!, x0, z0);
        for (const t of stackTiles(b)) surface(t, HALF_CORNERS[hb]!, x0, z0);
        // The diagonal between the halves: where one half is open and the other is not.
        const diag = ha === 1 || ha === 3 ? [x1, z0, x0, z1] : [x0, z0, x1, z1];
        const ra = stackTiles(a).filter((t) => ix.tileFloor[t]! > ix.tileCeiling[t]!).map((t) => [ix.tileCeiling[t]!, ix.tileFloor[t]!]);
        const rb = stackTiles(b).filter((t) => ix.tileFloor[t]! > ix.tileCeiling[t]!).map((t) => [ix.tileCeiling[t]!, ix.tileFloor[t]!]);
        for (const [top, bottom] of ra) for (const [u, v] of uncovered(top!, bottom!, rb)) m.wall(diag[0]!, diag[1]!, diag[2]!, diag[3]!, u!, v!);
        for (const [top, bottom] of rb) for (const [u, v] of uncovered(top!, bottom!, ra)) m.wall(diag[0]!, diag[1]!, diag[2]!, diag[3]!, u!, v!);
      }
      // Side walls: this cell's open rooms along each side against the neighbour's along the opposite side.
      const sides: [number, number, number, number, number, number, number][] = [
        [0, c - 1, zc, x0, z0, x0, z1],
        [1, c + 1, zc, x1, z0, x1, z1],
        [2, c, zc - 1, x0, z0, x1, z0],
        [3, c, zc + 1, x0, z1, x1, z1],
      ];
      for (const [side, nc, nz, ax, az, bx, bz] of sides) {
        const theirs = roomsOf(cellAt(nc, nz), side ^ 1);
        for (const [top, bottom] of roomsOf(k, side)) for (const [u, v] of uncovered(top!, bottom!, theirs)) m.wall(ax, az, bx, bz, u!, v!);
      }
    }
  }
  return m.done();
}

/** The GTA scene's collision faces in world space (each placement's rotation and position applied). */
export function gtaTriangles(world: GtaWorld): TriangleMesh {
  const s = world.scene;
  const m = new MeshBuilder();
  for (let i = 0; i < s.instanceCount; i++) {
    const mesh = s.models[s.instModel[i]!]!.mesh;
    const R = s.instRot, P = s.instPos;
    const v = (k: number) => {
      const lx = mesh.vertices[3 * k]!, ly = mesh.vertices[3 * k + 1]!, lz = mesh.vertices[3 * k + 2]!;
      const out = [0, 0, 0];
      for (let a = 0; a < 3; a++) out[a] = R[i * 9 + a * 3]! * lx + R[i * 9 + a * 3 + 1]! * ly + R[i * 9 + a * 3 + 2]! * lz + P[i * 3 + a]!;
      return out;
    };
    for (let f = 0; f < mesh.faceCount; f++) m.tri(v(mesh.indices[3 * f]!), v(mesh.indices[3 * f + 1]!), v(mesh.indices[3 * f + 2]!));
  }
  return m.done();
}

/** Rapier: a fixed trimesh collider; a ray with direction to − from, so the time of impact is the fraction. */
export async function rapierCaster(mesh: TriangleMesh): Promise<(seg: Float64Array, n: number, hit: Uint8Array) => void> {
  await RAPIER.init();
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  const collider = world.createCollider(RAPIER.ColliderDesc.trimesh(mesh.positions, mesh.indices));
  const ray = new RAPIER.Ray({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 });
  return (seg, n, hit) => {
    const o = ray.origin, d = ray.dir;
    for (let i = 0; i < n; i++) {
      const k = i * SEGMENT_STRIDE;
      o.x = seg[k]!; o.y = seg[k + 1]!; o.z = seg[k + 2]!;
      d.x = seg[k + 3]! - o.x; d.y = seg[k + 4]! - o.y; d.z = seg[k + 5]! - o.z;
      const toi = collider.castRay(ray, 1, true);
      hit[i] = toi >= 0 && toi <= 1 ? 1 : 0;
    }
  };
}

/** three-mesh-bvh: raycastFirst with a unit direction and far = the segment's length. */
export function bvhCaster(mesh: TriangleMesh): (seg: Float64Array, n: number, hit: Uint8Array) => void {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(mesh.positions, 3));
  g.setIndex(new BufferAttribute(mesh.indices, 1));
  const bvh = new MeshBVH(g);
  const ray = new Ray(new Vector3(), new Vector3());
  return (seg, n, hit) => {
    for (let i = 0; i < n; i++) {
      const k = i * SEGMENT_STRIDE;
      const dx = seg[k + 3]! - seg[k]!, dy = seg[k + 4]! - seg[k + 1]!, dz = seg[k + 5]! - seg[k + 2]!;
      const len = Math.sqrt(dx * dx + dy * dy + dz * dz); // benchmark side only, not simulation state
      if (!(len > 0)) {
        hit[i] = 0;
        continue;
      }
      ray.origin.set(seg[k]!, seg[k + 1]!, seg[k + 2]!);
      ray.direction.set(dx / len, dy / len, dz / len);
      hit[i] = bvh.raycastFirst(ray, DoubleSide, 0, len) ? 1 : 0;
    }
  };
}

type Caster = (seg: Float64Array, n: number, hit: Uint8Array) => void;

/**
 * A peer on two threads: this thread casts the first half of the segments, a worker (this same module, run as
 * a worker: it builds its own copy of the peer's structure) the second half. `round(it)` casts the batch `it`
 * times on both and returns the wall time in ms.
 */
async function peerTwoThreads(peer: 'rapier' | 'three-mesh-bvh', mesh: TriangleMesh, seg: Float64Array, cast: Caster): Promise<{ round(it: number): Promise<number>; close(): Promise<number> }> {
  const n = seg.length / SEGMENT_STRIDE;
  const half = n >> 1;
  const shared = new Float64Array(new SharedArrayBuffer(seg.byteLength));
  shared.set(seg);
  const w = new Worker(new URL(import.meta.url), { workerData: { peerBench: true, peer, positions: mesh.positions, indices: mesh.indices, segments: shared } });
  await new Promise((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  });
  const hit = new Uint8Array(n);
  const mine = seg.subarray(0, half * SEGMENT_STRIDE);
  return {
    async round(it: number): Promise<number> {
      const t0 = performance.now();
      const done = new Promise((resolve) => w.once('message', resolve));
      w.postMessage({ start: half, end: n, iterations: it });
      for (let i = 0; i < it; i++) cast(mine, half, hit);
      await done;
      return performance.now() - t0;
    },
    close: () => w.terminate(),
  };
}

// Run as a peer worker (see peerTwoThreads).
if (!isMainThread && (workerData as { peerBench?: boolean } | null)?.peerBench) {
  const d = workerData as { peer: string; positions: Float32Array; indices: Uint32Array; segments: Float64Array };
  const mesh = { positions: d.positions, indices: d.indices };
  const cast: Caster = d.peer === 'rapier' ? await rapierCaster(mesh) : bvhCaster(mesh);
  const hit = new Uint8Array(d.segments.length / SEGMENT_STRIDE);
  parentPort!.on('message', (m: { start: number; end: number; iterations: number }) => {
    const sub = d.segments.subarray(m.start * SEGMENT_STRIDE, m.end * SEGMENT_STRIDE);
    for (let i = 0; i < m.iterations; i++) cast(sub, m.end - m.start, hit);
    parentPort!.postMessage('done');
  });
  parentPort!.postMessage('ready');
}

/** Iterations of `round` that take at least `ms` (by its own clock), doubling from 1. */
async function calibrate(round: (it: number) => number | Promise<number>, ms: number): Promise<number> {
  let it = 1;
  while ((await round(it)) < ms && it < 1 << 20) it *= 2;
  return it;
}

/** CPU milliseconds (this process) that `fn` takes: fair on a machine shared with other work. */
function cpuMs(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/** Rounds per contender, taken in turn (ours, peer, peer, ours, ...) so a change of load hits all alike. */
export const ROUNDS = 7;

/** The goal of ours ÷ the faster peer, same segments, same run. */
export const PEER_RATIO_GOAL = { rugrats: 10.0, gta: 6.0 } as const;

/**
 * Agents scattered per scene: enough for over 100,000 agent-pair segments within 20 m (Rugrats: every pair of
 * 450 in the demo level, 101,025; GTA: 2,200 over the whole town with its placements, about 104,000).
 */
export const PEER_SCENE_AGENTS = { rugrats: 450, gta: 2200 } as const;

/**
 * Ours against the peers on a scene's agent-pair segments (see the file's comment): rates on one thread and on
 * two, the ratios to the faster peer with their goals, and the disagreements with the reference paths.
 */
export async function peerFigures(kind: 'rugrats' | 'gta'): Promise<BenchResult[]> {
  const mesh = (w: CollisionWorld): TriangleMesh => (kind === 'rugrats' ? rugratsTriangles(w as RugratsWorld) : gtaTriangles(w as GtaWorld));
  const rel = LOS_WORLDS[kind];
  const opened = openBenchWorld(rel);
  const world = opened.world;
  const seg = agentPairSegments(world, PEER_SCENE_AGENTS[kind]);
  const n = seg.length / SEGMENT_STRIDE;
  const loadBefore = loadNote();
  const ours = newLosOutput(n);
  losBatch(world, seg, ours);
  const bad = disagreements(world, seg, ours.fraction, ours.visible);
  const tris = mesh(world);
  const note = (agree: number) => `${tris.indices.length / 3} triangles; hit/clear agrees with ours on ${((100 * agree) / n).toFixed(1)}% of ${n}`;

  // One thread: CPU time per round.
  const one: { name: string; run: (it: number) => void; note: string }[] = [{ name: 'ours', run: (it) => { for (let i = 0; i < it; i++) losBatch(world, seg, ours); }, note: `${n} agent-pair segments within 20 m` }];
  const casters: ['rapier' | 'three-mesh-bvh', Caster][] = [
    ['rapier', await rapierCaster(tris)],
    ['three-mesh-bvh', bvhCaster(tris)],
  ];
  for (const [name, cast] of casters) {
    const hit = new Uint8Array(n);
    cast(seg, n, hit);
    let agree = 0;
    for (let i = 0; i < n; i++) if (hit[i] === 1 - ours.visible[i]!) agree++;
    one.push({ name, run: (it) => { for (let i = 0; i < it; i++) cast(seg, n, hit); consume(hit[0]!); }, note: note(agree) });
  }
  const oneIt: number[] = [];
  for (const c of one) oneIt.push(await calibrate((it) => cpuMs(() => c.run(it)), 100));
  const oneRates: number[][] = one.map(() => []);
  for (let r = 0; r < ROUNDS; r++) one.forEach((c, k) => oneRates[k]!.push((oneIt[k]! * n) / (cpuMs(() => c.run(oneIt[k]!)) / 1000)));

  // Two threads: wall time per round (CPU time would add the threads up).
  const pool = await LosPool.create({ bytes: opened.bytes, name: world.name, options: opened.options }, 2);
  const twoPeers = await Promise.all(casters.map(([name, cast]) => peerTwoThreads(name, tris, seg, cast)));
  const par = newLosOutput(n);
  try {
    await pool.reserve(n);
    pool.segmentBuffer.set(seg);
    const two: { name: string; round: (it: number) => number | Promise<number> }[] = [
      {
        name: 'ours',
        round: (it) => {
          const t0 = performance.now();
          for (let i = 0; i < it; i++) pool.runShared(n, par);
          return performance.now() - t0;
        },
      },
      ...casters.map(([name], k) => ({ name, round: (it: number) => twoPeers[k]!.round(it) })),
    ];
    const twoIt: number[] = [];
    for (const c of two) twoIt.push(await calibrate(c.round, 100));
    const twoRates: number[][] = two.map(() => []);
    for (let r = 0; r < ROUNDS; r++) for (let k = 0; k < two.length; k++) twoRates[k]!.push((twoIt[k]! * n) / ((await two[k]!.round(twoIt[k]!)) / 1000));
    for (let i = 0; i < n; i++) if (par.fraction[i] !== ours.fraction[i]) throw new Error(`${kind}: two threads disagree with one at segment ${i}`);

    const fastestOne = Math.max(...oneRates.slice(1).map(median));
    const fastestTwo = Math.max(...twoRates.slice(1).map(median));
    const goal = PEER_RATIO_GOAL[kind];
    const results: BenchResult[] = [
      { name: `ours ${kind} 1 thread`, value: median(oneRates[0]!), unit: 'segments/s', goal: goal * fastestOne, better: 'higher', note: `${one[0]!.note}; CPU time; goal: ${goal} × the faster peer on one thread` },
      { name: `ours ${kind} 2 threads`, value: median(twoRates[0]!), unit: 'segments/s', goal: goal * fastestTwo, better: 'higher', note: `wall time; goal: ${goal} × the faster peer on two threads` },
      { name: `ours ÷ faster peer ${kind} 1 thread`, value: median(oneRates[0]!) / fastestOne, unit: 'ratio', goal, better: 'higher', note: 'CPU time, same segments, same run' },
      { name: `ours ÷ faster peer ${kind} 2 threads`, value: median(twoRates[0]!) / fastestTwo, unit: 'ratio', goal, better: 'higher', note: `wall time, same segments, same run; load average ${loadBefore} before, ${loadNote()} after` },
      { name: `ours ${kind} disagreements with the reference`, value: bad, unit: 'segments', goal: 0, better: 'lower', note: `fast path against the rule-exact reference path, every one of the ${n} segments, bit for bit` },
    ];
    for (let k = 1; k < one.length; k++) {
      results.push({ name: `peer ${one[k]!.name} ${kind} 1 thread`, value: median(oneRates[k]!), unit: 'segments/s', note: `${one[k]!.note}; CPU time` });
      results.push({ name: `peer ${one[k]!.name} ${kind} 2 threads`, value: median(twoRates[k]!), unit: 'segments/s', note: 'wall time; halves on this thread and a worker' });
    }
    return results;
  } finally {
    await pool.close();
    await Promise.all(twoPeers.map((p) => p.close()));
  }
}

export const benches: Bench[] = [
  { name: 'peers rugrats', run: () => peerFigures('rugrats') },
  { name: 'peers gta', run: () => peerFigures('gta') },
];
