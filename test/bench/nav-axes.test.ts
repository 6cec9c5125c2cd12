/**
 * The navigation benchmark's map between a world's native axes and the export's (bench/nav-axes.ts): on every
 * shipped world, a place the walkability source says a body stands maps onto an exported floor triangle at the
 * same height (facing up, as navcat needs to call it walkable), and back to the same native point; on the
 * Llama track and a patch of the Piney field (whose axes differ from the Rugrats and COLBIN worlds' that the
 * benchmark had before), navcat's navmesh built from the exported triangles has a polygon at that point and
 * height.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_QUERY_FILTER, createFindNearestPolyResult, findNearestPoly } from 'navcat';
import { generateSoloNavMesh } from 'navcat/blocks';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { walkSourceOf } from '../../src/nav/walk-source.js';
import { defaultNavBody } from '../../src/nav/walk.js';
import type { CollisionWorld, Vec3 } from '../../src/worlds/world.js';
import { exportAxes, toExport, toNative } from '../../bench/nav-axes.js';
import { exportTriangles, navcatOptions } from '../../bench/nav.bench.js';

const WORLDS = ['rugrats-demo', 'colbin-demo', 'llama-demo', 'gta-town', 'piney-default'];

/** Up to `want` standing places, from cells spread over the world's grid (a 9 × 9 lattice of cells). */
function standingPlaces(world: CollisionWorld, want: number): Vec3[] {
  const src = walkSourceOf(world, defaultNavBody(world));
  const { n0, n1 } = src.grid;
  const out: Vec3[] = [];
  for (let a = 1; a < 10 && out.length < want; a++) {
    for (let b = 1; b < 10 && out.length < want; b++) {
      const s = src.stands(Math.floor((a * n0) / 10), Math.floor((b * n1) / 10));
      if (s.length > 0) out.push(s[0]!);
    }
  }
  return out;
}

/** The heights (and whether the triangle faces up) of the exported triangles under `q` across (x, z). */
function floorsUnder(positions: Float32Array, count: number, q: readonly number[]): { y: number; up: boolean }[] {
  const out: { y: number; up: boolean }[] = [];
  for (let t = 0; t < count; t++) {
    const v = positions.subarray(t * 9, t * 9 + 9);
    const [ax, ay, az, bx, by, bz, cx, cy, cz] = v as unknown as number[];
    const d = (bz! - cz!) * (ax! - cx!) + (cx! - bx!) * (az! - cz!);
    if (Math.abs(d) < 1e-12) continue;
    const l0 = ((bz! - cz!) * (q[0]! - cx!) + (cx! - bx!) * (q[2]! - cz!)) / d;
    const l1 = ((cz! - az!) * (q[0]! - cx!) + (ax! - cx!) * (q[2]! - cz!)) / d;
    const l2 = 1 - l0 - l1;
    const e = -1e-6;
    if (l0 < e || l1 < e || l2 < e) continue;
    // The normal's y: (b − a) × (c − a), as navcat's walkable-triangle test reads it.
    const ny = (bz! - az!) * (cx! - ax!) - (bx! - ax!) * (cz! - az!);
    out.push({ y: l0 * ay! + l1 * by! + l2 * cy!, up: ny > 0 });
  }
  return out;
}

describe('the navigation benchmark’s export axes', () => {
  for (const id of WORLDS) {
    it(`${id}: standing places land on an upward exported floor at their height, and map back`, async () => {
      const { world } = await openBuiltinWorld(id);
      const ax = exportAxes(world);
      const { positions, count } = exportTriangles(world);
      const places = standingPlaces(world, 6);
      expect(places.length).toBeGreaterThanOrEqual(3);
      for (const p of places) {
        const q = toExport(ax, p);
        const back = toNative(ax, q);
        for (let k = 0; k < 3; k++) expect(Math.abs(back[k]! - p[k]!)).toBeLessThanOrEqual(ax.integer ? 0 : 1e-9 * Math.max(1, Math.abs(p[k]!)));
        const floors = floorsUnder(positions, count, q);
        // Within 1 cm (the export is single precision; Rugrats' sloped floors round to whole units).
        const hit = floors.filter((f) => Math.abs(f.y - q[1]) <= 0.01);
        expect(hit.length, `${id}: ${JSON.stringify(p)} → ${JSON.stringify(q)}, floors under it at ${floors.map((f) => f.y.toFixed(3)).join(', ')}`).toBeGreaterThan(0);
        expect(hit.some((f) => f.up)).toBe(true);
      }
    });
  }

  it('maps back and forth exactly on any whole native point of an integer world, and within rounding otherwise', async () => {
    const worlds = await Promise.all(WORLDS.map(async (id) => (await openBuiltinWorld(id)).world));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: worlds.length - 1 }), fc.tuple(fc.integer({ min: -100_000, max: 100_000 }), fc.integer({ min: -100_000, max: 100_000 }), fc.integer({ min: -100_000, max: 100_000 })), (w, p) => {
        const ax = exportAxes(worlds[w]!);
        const back = toNative(ax, toExport(ax, p as Vec3));
        for (let k = 0; k < 3; k++) expect(Math.abs(back[k]! - p[k]!)).toBeLessThanOrEqual(ax.integer ? 0 : 1e-9 * Math.max(1, Math.abs(p[k]!)));
        // The up axis goes to the export's y, pointing the same way up.
        const up = worlds[w]!.up;
        const lifted = [...p] as Vec3;
        lifted[up.axis] += up.sign * ax.scale;
        expect(toExport(ax, lifted)[1] - toExport(ax, p as Vec3)[1]).toBeCloseTo(1, 9);
      }),
    );
  });

  for (const [id, patch] of [['llama-demo', Infinity], ['piney-default', 8]] as const) {
    it(`${id}: navcat's navmesh from the export has a polygon at a standing place, at its height`, async () => {
      const { world } = await openBuiltinWorld(id);
      const ax = exportAxes(world);
      const all = exportTriangles(world);
      const places = standingPlaces(world, 3);
      expect(places.length).toBeGreaterThan(0);
      for (const p of places) {
        const q = toExport(ax, p);
        // The triangles within `patch` metres across (the whole track; a patch of the 480 m field).
        const keep: number[] = [];
        for (let t = 0; t < all.count; t++) {
          let near = true;
          for (let k = 0; k < 3; k++) {
            if (Math.abs(all.positions[t * 9 + k * 3]! - q[0]) > patch || Math.abs(all.positions[t * 9 + k * 3 + 2]! - q[2]) > patch) near = false;
          }
          if (near) keep.push(t);
        }
        const positions = new Float32Array(keep.length * 9);
        keep.forEach((t, k) => positions.set(all.positions.subarray(t * 9, t * 9 + 9), k * 9));
        const { navMesh } = generateSoloNavMesh({ positions, indices: new Uint32Array(keep.length * 3).map((_, i) => i) }, navcatOptions(0.1));
        const r = findNearestPoly(createFindNearestPolyResult(), navMesh, q, [0.5, 1, 0.5], DEFAULT_QUERY_FILTER);
        expect(r.success, `${id}: no polygon near ${JSON.stringify(q)}`).toBe(true);
        // On the polygon (within the agent's radius across, which navcat erodes from edges) at the same height.
        expect(Math.hypot(r.position[0] - q[0], r.position[2] - q[2])).toBeLessThanOrEqual(0.35);
        expect(Math.abs(r.position[1] - q[1])).toBeLessThanOrEqual(0.1);
      }
    });
  }
});
