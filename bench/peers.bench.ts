/**
 * Line of sight against the peers people would otherwise use: Rapier (@dimforge/rapier3d-compat, a ray cast
 * against a fixed trimesh collider) and three-mesh-bvh (raycastFirst on a MeshBVH), with the SAME geometry and
 * the SAME segments as losBatch, side by side in one run.
 *
 * Geometry: the Rugrats demo level exported as triangles (every open room's floor and ceiling, sloped where the
 * tile is, per half in halved cells, and the vertical wall faces where a room meets a neighbour's solid or
 * missing cell, or the other half's stack); the GTA town's collision faces, placed. Our side also tests the
 * GTA spheres and boxes, which the peers do not get (more work for us, not less). Segments: every pair of
 * 400 scattered agents within 20 m, eye to eye (bench/los.bench.ts). A note gives how often each peer's
 * hit/clear answer agrees with ours, which shows the exported geometry is the same level.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { BufferAttribute, BufferGeometry, DoubleSide, Ray, Vector3 } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { Bench, BenchResult } from './harness.js';
import { consume, opsPerSecond } from './harness.js';
import { agentPairSegments, openBenchWorld, ourRates, LOS_WORLDS } from './los.bench.js';
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

async function compare(kind: 'rugrats' | 'gta', mesh: (w: CollisionWorld) => TriangleMesh): Promise<BenchResult[]> {
  const rel = LOS_WORLDS[kind];
  const world = openBenchWorld(rel).world;
  const seg = agentPairSegments(world, 400);
  const n = seg.length / SEGMENT_STRIDE;
  const ours = newLosOutput(n);
  losBatch(world, seg, ours);
  const tris = mesh(world);
  const peers: [string, (seg: Float64Array, n: number, hit: Uint8Array) => void][] = [
    ['rapier', await rapierCaster(tris)],
    ['three-mesh-bvh', bvhCaster(tris)],
  ];
  const rates = await ourRates(rel, 400, 2);
  const results: BenchResult[] = [];
  let fastest = 0;
  const peerResults: BenchResult[] = [];
  for (const [name, cast] of peers) {
    const hit = new Uint8Array(n);
    cast(seg, n, hit);
    let agree = 0;
    for (let i = 0; i < n; i++) if (hit[i] === 1 - ours.visible[i]!) agree++;
    const rate = opsPerSecond((it) => {
      for (let i = 0; i < it; i++) cast(seg, n, hit);
      consume(hit[0]!);
    }, n);
    fastest = Math.max(fastest, rate);
    peerResults.push({ name: `peer ${name} ${kind} 1 thread`, value: rate, unit: 'segments/s', note: `${tris.indices.length / 3} triangles; hit/clear agrees with ours on ${((100 * agree) / n).toFixed(1)}% of ${n}` });
  }
  results.push({ name: `ours ${kind} 1 thread`, value: rates.one, unit: 'segments/s', goal: fastest, better: 'higher', note: `goal: the faster peer on one thread; ${n} segments` });
  results.push({ name: `ours ${kind} 2 threads`, value: rates.many, unit: 'segments/s', goal: fastest, better: 'higher', note: 'goal: the faster peer (peers measured on one thread)' });
  return [...results, ...peerResults];
}

export const benches: Bench[] = [
  { name: 'peers rugrats', run: () => compare('rugrats', (w) => rugratsTriangles(w as RugratsWorld)) },
  { name: 'peers gta', run: () => compare('gta', (w) => gtaTriangles(w as GtaWorld)) },
];
