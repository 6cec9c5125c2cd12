/**
 * Each world's collision geometry as export parts (scene.ts), in metres with +Y up, right-handed:
 *
 * | world | native → export | parts | `_FLOOR_ID` |
 * |---|---|---|---|
 * | Rugrats | (x, −y, −z) / 1024 (PlayStation y down, z forward) | floors, ceilings (every open room of every cell, per half in halved cells, on the tile's plane), walls (where a room meets a neighbour's solid, a missing cell or the other half's stack; between the rooms' flat heights) | the tile id (its file offset) |
 * | Llama | (x, y, z) × 2 (tiles, y up, z the grid row) | floors, ceilings, walls (every active collision polygon of every tile), swaps (the alternative models of swapping tiles, hidden) | the tile index |
 * | COLBIN | −Y up: (x, −y, −z) / 128; +Y up: (−x, y, −z) / 128 (the exporter's own axis conversion) | floors (the triangles), walls (each OBB as a box) | the floor's or wall's index |
 * | GTA | (x, z, −y) (metres, z up) | per placement: spheres (tessellated), boxes, mesh, shadow (hidden) | the face, sphere or box index in its model |
 * | Piney | (x, z, −y) / 100 (z up) | terrain (80 × 80 cells, two triangles each, GetHeight's split), objects (each a box over its footprint up to its blocking height) | the triangle ((cell x · 80 + cell y) · 2 + t), the object's index |
 */
import { FormatError } from '../../binary/format-error.js';
import { detCos, detSin } from '../../numeric/det-math.js';
import type { CollisionWorld } from '../world.js';
import type { RugratsWorld } from '../rugrats/collision-world.js';
import { FLAG_LAST, halfOf, TILE_UNITS } from '../rugrats/layout.js';
import type { LlamaWorld } from '../llama/collision-world.js';
import { POLY_STRIDE } from '../llama/collision.js';
import { polygonCorners } from '../llama/polygon-geometry.js';
import { MATERIAL_DEATH, MATERIAL_EXIT, MATERIAL_SPECIAL_A, MATERIAL_SPECIAL_B } from '../llama/materials.js';
import type { ColbinWorld } from '../colbin/collision-world.js';
import type { GtaWorld } from '../gta/collision-world.js';
import type { PineyWorld } from '../piney/collision-world.js';
import { CELL_UNITS, CELLS, CHIP_UNITS } from '../piney/field-state.js';
import { MaterialTable, nonEmpty, PartBuilder, stableColour, type ExportScene } from './scene.js';

/** Rings (pole to pole) of a tessellated GTA sphere. */
export const SPHERE_RINGS = 8;
/** Segments (around) of a tessellated GTA sphere: 2 × 12 × (8 − 1) = 168 triangles each. */
export const SPHERE_SEGMENTS = 12;
/** Triangles per tessellated sphere. */
export const SPHERE_TRIANGLES = 2 * SPHERE_SEGMENTS * (SPHERE_RINGS - 1);

/**
 * Triangles an export of a world holds by default at most: 1,048,576 (a GLB of about 48 MiB). The shipped
 * worlds export 2 to 14,084; one input can ask for far more (a GTA model of many spheres, 168 triangles
 * each, placed many times; a Llama MAP naming one big model from every tile).
 */
export const DEFAULT_MAX_EXPORT_TRIANGLES = 1 << 20;

/** Options of `exportScene`. */
export interface ExportOptions {
  /**
   * The most triangles the export may hold (a positive integer; default DEFAULT_MAX_EXPORT_TRIANGLES): a
   * world that would give more is refused, counted before anything is built.
   */
  maxTriangles?: number;
}

/**
 * The triangles `exportScene` gives for a world, exactly, without building them: from the counts of its
 * parts (GTA: every placement's spheres × SPHERE_TRIANGLES, boxes × 12, faces and shadow faces; COLBIN: its
 * triangles and 12 per wall; Piney: 2 per terrain cell and 12 per object), or for Rugrats and Llama levels,
 * whose walls and polygons take the export's own geometry to count, by running it without keeping a triangle.
 */
export function exportTriangleCount(world: CollisionWorld): number {
  const sum = (scene: ExportScene) => scene.parts.reduce((n, p) => n + p.count, 0);
  switch (world.kind) {
    case 'rugrats':
      return sum(rugratsScene(world as RugratsWorld, true));
    case 'llama':
      return sum(llamaScene(world as LlamaWorld, true));
    case 'colbin': {
      const f = (world as ColbinWorld).file;
      return f.floorCount + 12 * f.wallCount;
    }
    case 'gta': {
      const sc = (world as GtaWorld).scene;
      let n = 0;
      for (let inst = 0; inst < sc.instanceCount; inst++) {
        const m = sc.models[sc.instModel[inst]!]!;
        n += m.spheres.length * SPHERE_TRIANGLES + m.boxes.length * 12 + m.mesh.faceCount + (m.shadow?.faceCount ?? 0);
      }
      return n;
    }
    case 'piney':
      return 2 * CELLS * CELLS + 12 * (world as PineyWorld).field.objects.length;
  }
}

/**
 * A world's collision geometry as parts (see the module comment for each world). Counted first
 * (`exportTriangleCount`): a world whose export would hold more than `options.maxTriangles` triangles is
 * refused with a FormatError giving the count and the limit, before any is built. A limit that is not a
 * positive safe integer is a RangeError.
 */
export function exportScene(world: CollisionWorld, options: ExportOptions = {}): ExportScene {
  const max = options.maxTriangles ?? DEFAULT_MAX_EXPORT_TRIANGLES;
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`maxTriangles must be a positive integer, got ${String(max)}`);
  const count = exportTriangleCount(world);
  if (count > max) throw new FormatError(`${world.kind} world export`, -1, `${world.name} would export ${count} triangles, over the limit of ${max} (maxTriangles; --max-triangles N to change it)`);
  switch (world.kind) {
    case 'rugrats':
      return rugratsScene(world as RugratsWorld);
    case 'llama':
      return llamaScene(world as LlamaWorld);
    case 'colbin':
      return colbinScene(world as ColbinWorld);
    case 'gta':
      return gtaScene(world as GtaWorld);
    case 'piney':
      return pineyScene(world as PineyWorld);
  }
}

// ---- Rugrats ----

/** Parts of the open interval (a, b) not covered by any of `cover` ([top, bottom] pairs, y down). */
function uncovered(a: number, b: number, cover: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = cover.filter(([t, u]) => u > a && t < b).sort((p, q) => p[0] - q[0]);
  const out: [number, number][] = [];
  let y = a;
  for (const [t, u] of sorted) {
    if (t > y) out.push([y, Math.min(t, b)]);
    if (u > y) y = u;
    if (y >= b) break;
  }
  if (y < b) out.push([y, b]);
  return out;
}

/** Sides: 0 −x, 1 +x, 2 −z, 3 +z; the two sides each half of a halved cell touches. */
const HALF_SIDES = [[2, 1], [0, 2], [0, 3], [1, 3]] as const;
/** Each half's triangle, as cell-corner offsets (x, z in 0/1). */
const HALF_CORNERS = [
  [[0, 0], [1, 0], [1, 1]],
  [[0, 0], [1, 0], [0, 1]],
  [[0, 0], [1, 1], [0, 1]],
  [[1, 0], [1, 1], [0, 1]],
] as const;

/** A Rugrats level's parts; with `countOnly`, its triangles counted, not kept (see PartBuilder). */
export function rugratsScene(world: RugratsWorld, countOnly = false): ExportScene {
  const ix = world.index;
  const mats = new MaterialTable();
  const mFloor = mats.of('rugrats-floor', [150, 170, 120]);
  const mCeil = mats.of('rugrats-ceiling', [120, 130, 170]);
  const mWall = mats.of('rugrats-wall', [190, 140, 110]);
  const floors = new PartBuilder('', 'floors', false, countOnly);
  const ceilings = new PartBuilder('', 'ceilings', false, countOnly);
  const walls = new PartBuilder('', 'walls', false, countOnly);
  const s = 1 / 1024;
  const P = (x: number, y: number, z: number): [number, number, number] => [x * s, -y * s, -z * s];
  const stack = (first: number): number[] => {
    const out: number[] = [];
    for (let t = first; t >= 0 && t < ix.tileFlags.length && out.length < 256; t++) {
      out.push(t);
      if (ix.tileFlags[t]! & FLAG_LAST) break;
    }
    return out;
  };
  const open = (t: number): boolean => ix.tileFloor[t]! > ix.tileCeiling[t]!;
  /** The height of tile t's floor or ceiling plane at (x, z): the plane through its corner with its normal. */
  const plane = (t: number, ceiling: boolean, x: number, z: number, x0: number, z0: number): number => {
    const sloped = ceiling ? ix.tileCeilingSloped[t] : ix.tileFloorSloped[t];
    const h = ceiling ? ix.tileCeiling[t]! : ix.tileFloor[t]!;
    if (!sloped) return h;
    const n = ceiling ? ix.tileCeilingNormal : ix.tileFloorNormal;
    const nx = n[t * 3]!, ny = n[t * 3 + 1]!, nz = n[t * 3 + 2]!;
    if (ny === 0) return h;
    const half3 = (ix.tileFlags[t]! & 0xe0) === 0xe0;
    const cx = half3 ? x0 + 1023 : x0, cz = half3 ? z0 + 1023 : z0;
    return h - (nx * (x - cx) + nz * (z - cz)) / ny;
  };
  const rooms = (first: number): [number, number][] => stack(first).filter(open).map((t) => [ix.tileCeiling[t]!, ix.tileFloor[t]!]);
  const roomsOf = (cell: number, side: number): [number, number][] => {
    if (cell < 0) return [];
    const out: [number, number][] = [];
    const b = ix.cellStackB[cell]!;
    for (const st of [ix.cellStackA[cell]!, b]) {
      if (st < 0) continue;
      if (b >= 0 && !(HALF_SIDES[halfOf(ix.tileFlags[st]!)] as readonly number[]).includes(side)) continue;
      out.push(...rooms(st));
    }
    return out;
  };
  const roomTile = (first: number, top: number, bottom: number): number => {
    for (const t of stack(first)) if (open(t) && ix.tileCeiling[t]! <= top && ix.tileFloor[t]! >= bottom) return ix.tileOffset[t]!;
    return 0;
  };
  const cellAt = (c: number, zc: number): number => (c < 0 || c >= 512 || zc < 0 || zc > 255 ? -1 : ix.cellGrid[c * 256 + zc]!);
  const surfaces = (first: number, corners: readonly (readonly [number, number])[], x0: number, z0: number): void => {
    for (const t of stack(first)) {
      if (!open(t)) continue;
      const id = ix.tileOffset[t]!;
      const f = corners.map(([cx, cz]) => P(x0 + cx * TILE_UNITS, plane(t, false, x0 + cx * TILE_UNITS, z0 + cz * TILE_UNITS, x0, z0), z0 + cz * TILE_UNITS));
      const c = corners.map(([cx, cz]) => P(x0 + cx * TILE_UNITS, plane(t, true, x0 + cx * TILE_UNITS, z0 + cz * TILE_UNITS, x0, z0), z0 + cz * TILE_UNITS));
      if (f.length === 4) {
        floors.quad(f[0]!, f[1]!, f[2]!, f[3]!, id, mFloor);
        ceilings.quad(c[0]!, c[3]!, c[2]!, c[1]!, id, mCeil);
      } else {
        floors.tri(f[0]!, f[1]!, f[2]!, id, mFloor);
        ceilings.tri(c[0]!, c[2]!, c[1]!, id, mCeil);
      }
    }
  };
  const wall = (ax: number, az: number, bx: number, bz: number, top: number, bottom: number, id: number): void => {
    walls.quad(P(ax, top, az), P(bx, top, bz), P(bx, bottom, bz), P(ax, bottom, az), id, mWall);
  };
  for (let c = 0; c < 512; c++) {
    for (let k = ix.colCellStart[c]!; k < ix.colCellStart[c + 1]!; k++) {
      const zc = ix.cellZ[k]!;
      const x0 = ix.minX + c * TILE_UNITS, z0 = ix.minZ + zc * TILE_UNITS, x1 = x0 + TILE_UNITS, z1 = z0 + TILE_UNITS;
      const a = ix.cellStackA[k]!, b = ix.cellStackB[k]!;
      if (b < 0) surfaces(a, [[0, 0], [1, 0], [1, 1], [0, 1]], x0, z0);
      else {
        const ha = halfOf(ix.tileFlags[a]!), hb = halfOf(ix.tileFlags[b]!);
        surfaces(a, HALF_CORNERS[ha]!, x0, z0);
        surfaces(b, HALF_CORNERS[hb]!, x0, z0);
        const d = ha === 1 || ha === 3 ? [x1, z0, x0, z1] : [x0, z0, x1, z1];
        const ra = rooms(a), rb = rooms(b);
        for (const [top, bottom] of ra) for (const [u, v] of uncovered(top, bottom, rb)) wall(d[0]!, d[1]!, d[2]!, d[3]!, u, v, roomTile(a, top, bottom));
        for (const [top, bottom] of rb) for (const [u, v] of uncovered(top, bottom, ra)) wall(d[2]!, d[3]!, d[0]!, d[1]!, u, v, roomTile(b, top, bottom));
      }
      const sides: [number, number, number, number, number, number, number][] = [
        [0, c - 1, zc, x0, z1, x0, z0],
        [1, c + 1, zc, x1, z0, x1, z1],
        [2, c, zc - 1, x0, z0, x1, z0],
        [3, c, zc + 1, x1, z1, x0, z1],
      ];
      for (const [side, nc, nz, ax, az, bx, bz] of sides) {
        const theirs = roomsOf(cellAt(nc, nz), side ^ 1);
        for (const st of [a, b]) {
          if (st < 0 || (b >= 0 && !(HALF_SIDES[halfOf(ix.tileFlags[st]!)] as readonly number[]).includes(side))) continue;
          for (const [top, bottom] of rooms(st)) for (const [u, v] of uncovered(top, bottom, theirs)) wall(ax, az, bx, bz, u, v, roomTile(st, top, bottom));
        }
      }
    }
  }
  return { name: world.name, kind: 'rugrats', parts: nonEmpty([floors, ceilings, walls]), materials: mats.list, idMeaning: 'the tile id (the file offset of its 8 bytes), as `world ground` reports it' };
}

// ---- Llama ----

const LLAMA_NAMED: ReadonlyMap<number, [string, [number, number, number]]> = new Map([
  [MATERIAL_EXIT, ['llama-exit', [60, 220, 90]]],
  [MATERIAL_SPECIAL_A, ['llama-special-a', [230, 200, 60]]],
  [MATERIAL_SPECIAL_B, ['llama-special-b', [230, 140, 60]]],
  [MATERIAL_DEATH, ['llama-death', [235, 50, 50]]],
]);

/** A pseudo-angle of (x, y) in [0, 4), increasing with the angle (no trigonometry). */
function pseudoAngle(x: number, y: number): number {
  const p = x / (Math.abs(x) + Math.abs(y) || 1);
  return y < 0 ? 3 + p : 1 - p;
}

/** A Llama level's parts; with `countOnly`, its triangles counted, not kept (see PartBuilder). */
export function llamaScene(world: LlamaWorld, countOnly = false): ExportScene {
  const c = world.collision;
  const mats = new MaterialTable();
  const kinds = ['floors', 'ceilings', 'walls'];
  const parts = kinds.map((k) => new PartBuilder('', k, false, countOnly));
  const swaps = new PartBuilder('', 'swaps', true, countOnly);
  const k = 1 / world.scale;
  const matOf = (m: number): number => {
    const named = LLAMA_NAMED.get(m);
    return named ? mats.of(named[0], named[1]) : mats.of(`llama-material-${m}`, stableColour(m));
  };
  for (let tile = 0; tile < c.tileCount; tile++) {
    for (let v = 0; v < 2; v++) {
      const slot = (tile * 2 + v) * 4;
      for (let p = c.ranges[slot]!; p < c.ranges[slot + 3]!; p++) {
        if (c.active[p] === 0) continue;
        const kind = p < c.ranges[slot + 1]! ? 0 : p < c.ranges[slot + 2]! ? 1 : 2;
        const corners = polygonCorners(c.planes, p * POLY_STRIDE, c.edgeCount[p]!);
        const n = corners.length / 3;
        if (n < 3) continue;
        // Order the corners around their centre in the surface plane (two axes perpendicular to its normal).
        const o = p * POLY_STRIDE;
        const nx = c.planes[o]!, ny = c.planes[o + 1]!, nz = c.planes[o + 2]!;
        const ux = Math.abs(nx) < 0.9 ? [0, -nz, ny] : [nz, 0, -nx];
        const vx = [ny * ux[2]! - nz * ux[1]!, nz * ux[0]! - nx * ux[2]!, nx * ux[1]! - ny * ux[0]!];
        let cx = 0, cy = 0, cz = 0;
        for (let i = 0; i < n; i++) {
          cx += corners[i * 3]!;
          cy += corners[i * 3 + 1]!;
          cz += corners[i * 3 + 2]!;
        }
        cx /= n;
        cy /= n;
        cz /= n;
        const order = Array.from({ length: n }, (_, i) => i).map((i) => {
          const dx = corners[i * 3]! - cx, dy = corners[i * 3 + 1]! - cy, dz = corners[i * 3 + 2]! - cz;
          return { i, a: pseudoAngle(dx * ux[0]! + dy * ux[1]! + dz * ux[2]!, dx * vx[0]! + dy * vx[1]! + dz * vx[2]!) };
        });
        order.sort((a, b) => a.a - b.a || a.i - b.i);
        const pt = (j: number): [number, number, number] => [corners[j * 3]! * k, corners[j * 3 + 1]! * k, corners[j * 3 + 2]! * k];
        const target = v === 0 ? parts[kind]! : swaps;
        const m = matOf(c.material[p]!);
        for (let j = 1; j + 1 < n; j++) target.tri(pt(order[0]!.i), pt(order[j]!.i), pt(order[j + 1]!.i), c.polyTile[p]!, m);
      }
    }
  }
  return { name: world.name, kind: 'llama', parts: nonEmpty([...parts, swaps]), materials: mats.list, idMeaning: 'the tile index, as `world ground` reports it' };
}

// ---- COLBIN ----

export function colbinScene(world: ColbinWorld): ExportScene {
  const f = world.file;
  const mats = new MaterialTable();
  const mFloor = mats.of('colbin-floor', [150, 170, 120]);
  const mWall = mats.of('colbin-wall', [217, 83, 79]);
  const floors = new PartBuilder('', 'floors');
  const walls = new PartBuilder('', 'walls');
  const s = 1 / 128;
  const down = world.upSign < 0;
  const P = (x: number, y: number, z: number): [number, number, number] => (down ? [x * s, -y * s, -z * s] : [-x * s, y * s, -z * s]);
  const v = f.floorVertices;
  for (let t = 0; t < f.floorCount; t++) {
    const b = t * 9;
    floors.tri(P(v[b]!, v[b + 1]!, v[b + 2]!), P(v[b + 3]!, v[b + 4]!, v[b + 5]!), P(v[b + 6]!, v[b + 7]!, v[b + 8]!), t, mFloor);
  }
  for (let w = 0; w < f.wallCount; w++) {
    const corner = (sx: number, sy: number, sz: number): [number, number, number] => {
      const p = [f.wallCenters[w * 3]!, f.wallCenters[w * 3 + 1]!, f.wallCenters[w * 3 + 2]!];
      const signs = [sx, sy, sz];
      for (let a = 0; a < 3; a++) {
        const half = f.wallHalfExtents[w * 3 + a]! * signs[a]!;
        for (let d = 0; d < 3; d++) p[d]! += (half * f.wallAxes[w * 9 + a * 3 + d]!) / 4096;
      }
      return P(p[0]!, p[1]!, p[2]!);
    };
    boxTriangles(walls, corner, w, mWall);
  }
  return { name: world.name, kind: 'colbin', parts: nonEmpty([floors, walls]), materials: mats.list, idMeaning: "the floor triangle's or the wall's index in the file" };
}

/** The 12 triangles of a box whose corner at signs (±1, ±1, ±1) `corner` gives. */
function boxTriangles(b: PartBuilder, corner: (sx: number, sy: number, sz: number) => ArrayLike<number>, id: number, material: number): void {
  const c = (i: number) => corner(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
  const quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  for (const [a, bb, cc, d] of quads) b.quad(c(a!), c(bb!), c(cc!), c(d!), id, material);
}

// ---- GTA ----

export function gtaScene(world: GtaWorld): ExportScene {
  const sc = world.scene;
  const mats = new MaterialTable();
  const surfaceMat = (m: number): number => mats.of(`gta-surface-${m}`, stableColour(m));
  const shadowMat = (m: number): number => mats.of(`gta-shadow-${m}`, [40, 40, 48]);
  const builders: PartBuilder[] = [];
  const R = sc.instRot, T = sc.instPos;
  const ring: number[] = [];
  for (let r = 0; r <= SPHERE_RINGS; r++) ring.push(detSin((Math.PI * r) / SPHERE_RINGS), detCos((Math.PI * r) / SPHERE_RINGS));
  const seg: number[] = [];
  for (let s = 0; s <= SPHERE_SEGMENTS; s++) seg.push(detCos((2 * Math.PI * s) / SPHERE_SEGMENTS), detSin((2 * Math.PI * s) / SPHERE_SEGMENTS));
  for (let inst = 0; inst < sc.instanceCount; inst++) {
    const model = sc.models[sc.instModel[inst]!]!;
    const group = `${model.name}#${inst}`;
    const o = inst * 9;
    const P = (x: number, y: number, z: number): [number, number, number] => {
      const wx = R[o]! * x + R[o + 1]! * y + R[o + 2]! * z + T[inst * 3]!;
      const wy = R[o + 3]! * x + R[o + 4]! * y + R[o + 5]! * z + T[inst * 3 + 1]!;
      const wz = R[o + 6]! * x + R[o + 7]! * y + R[o + 8]! * z + T[inst * 3 + 2]!;
      return [wx, wz, -wy];
    };
    const spheres = new PartBuilder(group, 'spheres');
    model.spheres.forEach((s, i) => {
      const m = surfaceMat(s.surface.material);
      const at = (r: number, k: number) => P(s.center[0] + s.radius * ring[r * 2]! * seg[k * 2]!, s.center[1] + s.radius * ring[r * 2]! * seg[k * 2 + 1]!, s.center[2] + s.radius * ring[r * 2 + 1]!);
      for (let r = 0; r < SPHERE_RINGS; r++) {
        for (let k = 0; k < SPHERE_SEGMENTS; k++) {
          if (r > 0) spheres.tri(at(r, k), at(r + 1, k), at(r, k + 1), i, m);
          if (r < SPHERE_RINGS - 1) spheres.tri(at(r, k + 1), at(r + 1, k), at(r + 1, k + 1), i, m);
        }
      }
    });
    const boxes = new PartBuilder(group, 'boxes');
    model.boxes.forEach((b, i) => {
      boxTriangles(boxes, (sx, sy, sz) => P(sx > 0 ? b.max[0] : b.min[0], sy > 0 ? b.max[1] : b.min[1], sz > 0 ? b.max[2] : b.min[2]), i, surfaceMat(b.surface.material));
    });
    const meshPart = (mesh: typeof model.mesh, part: PartBuilder, material: (m: number) => number): void => {
      const V = mesh.vertices, I = mesh.indices;
      const at = (v: number) => P(V[v * 3]!, V[v * 3 + 1]!, V[v * 3 + 2]!);
      for (let f = 0; f < mesh.faceCount; f++) part.tri(at(I[f * 3]!), at(I[f * 3 + 1]!), at(I[f * 3 + 2]!), f, material(mesh.surfaces[f * 4]!));
    };
    const mesh = new PartBuilder(group, 'mesh');
    meshPart(model.mesh, mesh, surfaceMat);
    const shadow = new PartBuilder(group, 'shadow', true);
    if (model.shadow) meshPart(model.shadow, shadow, shadowMat);
    builders.push(spheres, boxes, mesh, shadow);
  }
  return { name: world.name, kind: 'gta', parts: nonEmpty(builders), materials: mats.list, idMeaning: 'the face, sphere or box index within its model (the group names the model and the placement)' };
}

// ---- Piney ----

const PINEY_KIND_COLOURS: Readonly<Record<string, [number, number, number]>> = {
  entrance: [255, 82, 82],
  key: [255, 215, 64],
  sub: [179, 136, 255],
  base: [141, 110, 99],
  tree: [46, 125, 50],
  lake: [41, 182, 246],
};

export function pineyScene(world: PineyWorld): ExportScene {
  const h = world.heights;
  const mats = new MaterialTable();
  const mGround = mats.of('piney-ground', [120, 150, 90]);
  const terrain = new PartBuilder('', 'terrain');
  const objects = new PartBuilder('', 'objects');
  const s = 1 / world.scale;
  const P = (x: number, y: number, z: number): [number, number, number] => [x * s, z * s, -y * s];
  const at = (i: number, j: number) => P(i * CELL_UNITS, j * CELL_UNITS, h[(i % CELLS) * CELLS + (j % CELLS)]!);
  for (let i = 0; i < CELLS; i++) {
    for (let j = 0; j < CELLS; j++) {
      const id = (i * CELLS + j) * 2;
      // GetHeight's split: triangle 0 where v ≥ u (corners 00, 11, 01), triangle 1 below (00, 10, 11).
      terrain.tri(at(i, j), at(i + 1, j + 1), at(i, j + 1), id, mGround);
      terrain.tri(at(i, j), at(i + 1, j), at(i + 1, j + 1), id + 1, mGround);
    }
  }
  world.field.objects.forEach((o, k) => {
    const m = mats.of(`piney-${o.kind}`, PINEY_KIND_COLOURS[o.kind] ?? [200, 200, 200]);
    const x0 = o.x * CHIP_UNITS, y0 = o.y * CHIP_UNITS, x1 = (o.x + o.w) * CHIP_UNITS, y1 = (o.y + o.h) * CHIP_UNITS;
    const top = world.blockerTop[k]!;
    boxTriangles(objects, (sx, sy, sz) => P(sx > 0 ? x1 : x0, sy > 0 ? y1 : y0, sz > 0 ? top : 0), k, m);
  });
  return { name: world.name, kind: 'piney', parts: nonEmpty([terrain, objects]), materials: mats.list, idMeaning: "terrain: the triangle, (cell x × 80 + cell y) × 2 + (0 where the point's cell fraction v ≥ u, else 1), as `world ground` reports it; objects: the object's index" };
}
