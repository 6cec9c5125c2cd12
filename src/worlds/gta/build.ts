/**
 * Tools for making collision models: face groups (faces reordered so that each group is a contiguous run, as
 * the format needs), bounds from the geometry, and small shape builders used by the asset script and tests.
 */
import type { Vec3 } from '../world.js';
import { detSqrt } from '../../numeric/det-math.js';
import { canonicalFlags, type ColFaceGroup, type ColMesh, type ColModel, type ColSurface } from './model.js';

/**
 * Most faces in one group. The format notes say the original grouping splits groups of more than 50 faces
 * (observed: 13.8 to 50 faces per group, 31.75 on average).
 */
export const MAX_FACES_PER_GROUP = 50;

/**
 * Splits the faces into groups of at most `maxPerGroup` by recursive median splits of their centroids along the
 * widest axis (ties by face index), reorders the faces group by group, and boxes each group around its faces'
 * vertices. Returns a new mesh, the groups and the new order (`faceOrder[new index] = old index`).
 */
export function groupFaces(mesh: ColMesh, maxPerGroup = MAX_FACES_PER_GROUP): { mesh: ColMesh; groups: ColFaceGroup[]; faceOrder: Uint32Array } {
  const n = mesh.faceCount;
  const V = mesh.vertices, I = mesh.indices;
  const cent = new Float64Array(n * 3);
  for (let f = 0; f < n; f++) {
    for (let k = 0; k < 3; k++) {
      cent[f * 3 + k] = (V[I[f * 3]! * 3 + k]! + V[I[f * 3 + 1]! * 3 + k]! + V[I[f * 3 + 2]! * 3 + k]!) / 3;
    }
  }
  const order = Array.from({ length: n }, (_, i) => i);
  const ranges: [number, number][] = [];
  const split = (lo: number, hi: number): void => {
    if (hi - lo <= maxPerGroup) {
      if (hi > lo) ranges.push([lo, hi]);
      return;
    }
    const mn = [Infinity, Infinity, Infinity], mx = [-Infinity, -Infinity, -Infinity];
    for (let i = lo; i < hi; i++) {
      for (let k = 0; k < 3; k++) {
        const c = cent[order[i]! * 3 + k]!;
        if (c < mn[k]!) mn[k] = c;
        if (c > mx[k]!) mx[k] = c;
      }
    }
    const e = [mx[0]! - mn[0]!, mx[1]! - mn[1]!, mx[2]! - mn[2]!];
    const axis = e[0]! >= e[1]! && e[0]! >= e[2]! ? 0 : e[1]! >= e[2]! ? 1 : 2;
    const part = order.slice(lo, hi).sort((a, b) => cent[a * 3 + axis]! - cent[b * 3 + axis]! || a - b);
    for (let i = lo; i < hi; i++) order[i] = part[i - lo]!;
    const mid = (lo + hi) >> 1;
    split(lo, mid);
    split(mid, hi);
  };
  split(0, n);
  const indices = new Uint32Array(n * 3);
  const surfaces = new Uint8Array(n * 4);
  order.forEach((f, i) => {
    indices.set(I.subarray(f * 3, f * 3 + 3), i * 3);
    surfaces.set(mesh.surfaces.subarray(f * 4, f * 4 + 4), i * 4);
  });
  const groups = ranges.map(([lo, hi]): ColFaceGroup => {
    const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (let i = lo * 3; i < hi * 3; i++) {
      for (let k = 0; k < 3; k++) {
        const v = V[indices[i]! * 3 + k]!;
        if (v < min[k]!) min[k] = v;
        if (v > max[k]!) max[k] = v;
      }
    }
    return { min, max, first: lo, last: hi - 1 };
  });
  return { mesh: { vertexCount: mesh.vertexCount, vertices: mesh.vertices.slice(), faceCount: n, indices, surfaces }, groups, faceOrder: Uint32Array.from(order) };
}

/** A copy of a COL2+ model with face groups built (faces reordered) and flags made canonical. */
export function withFaceGroups(m: ColModel, maxPerGroup = MAX_FACES_PER_GROUP): ColModel {
  if (m.version === 1) throw new RangeError('COLL models have no face groups');
  if (m.mesh.faceCount === 0) return { ...m, faceGroups: null, flags: canonicalFlags({ ...m, faceGroups: null }) };
  const { mesh, groups } = groupFaces(m.mesh, maxPerGroup);
  const out = { ...m, mesh, faceGroups: groups };
  out.flags = canonicalFlags(out);
  return out;
}

/**
 * Bounds from the solid geometry (spheres, boxes, mesh vertices): the box around it all, and a sphere at the
 * box centre whose radius reaches the farthest point, rounded up to a float32 so it still encloses everything.
 */
export function computeBounds(m: Pick<ColModel, 'spheres' | 'boxes' | 'mesh'>): ColModel['bounds'] {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const add = (x: number, y: number, z: number): void => {
    if (x < min[0]) min[0] = x;
    if (y < min[1]) min[1] = y;
    if (z < min[2]) min[2] = z;
    if (x > max[0]) max[0] = x;
    if (y > max[1]) max[1] = y;
    if (z > max[2]) max[2] = z;
  };
  for (const s of m.spheres) {
    add(s.center[0] - s.radius, s.center[1] - s.radius, s.center[2] - s.radius);
    add(s.center[0] + s.radius, s.center[1] + s.radius, s.center[2] + s.radius);
  }
  for (const b of m.boxes) {
    add(b.min[0], b.min[1], b.min[2]);
    add(b.max[0], b.max[1], b.max[2]);
  }
  const V = m.mesh.vertices;
  for (let i = 0; i < m.mesh.vertexCount; i++) add(V[i * 3]!, V[i * 3 + 1]!, V[i * 3 + 2]!);
  if (!(min[0] <= max[0])) return { min: [0, 0, 0], max: [0, 0, 0], center: [0, 0, 0], radius: 0 };
  const f = (v: number): number => Math.fround(v);
  const lo: Vec3 = [f(min[0]), f(min[1]), f(min[2])], hi: Vec3 = [f(max[0]), f(max[1]), f(max[2])];
  const center: Vec3 = [f((lo[0] + hi[0]) / 2), f((lo[1] + hi[1]) / 2), f((lo[2] + hi[2]) / 2)];
  let r2 = 0;
  const far = (x: number, y: number, z: number, extra: number): void => {
    const dx = x - center[0], dy = y - center[1], dz = z - center[2];
    const d = detSqrt(dx * dx + dy * dy + dz * dz) + extra;
    if (d * d > r2) r2 = d * d;
  };
  for (const s of m.spheres) far(s.center[0], s.center[1], s.center[2], s.radius);
  for (const b of m.boxes) for (let c = 0; c < 8; c++) far(c & 1 ? b.max[0] : b.min[0], c & 2 ? b.max[1] : b.min[1], c & 4 ? b.max[2] : b.min[2], 0);
  for (let i = 0; i < m.mesh.vertexCount; i++) far(V[i * 3]!, V[i * 3 + 1]!, V[i * 3 + 2]!, 0);
  return { min: lo, max: hi, center, radius: roundUpF32(detSqrt(r2)) };
}

/** The smallest float32 at or above x (x ≥ 0, finite). */
function roundUpF32(x: number): number {
  const r = Math.fround(x);
  if (r >= x) return r;
  const b = new Float32Array([r]);
  const u = new Uint32Array(b.buffer);
  u[0] = u[0]! + 1;
  return b[0]!;
}

/**
 * A mesh builder: add vertices and triangles, get a ColMesh. Vertices snap to 1/128 (the COL2+ grid) by
 * rounding to nearest, so a built mesh writes into every version without loss.
 */
export class MeshBuilder {
  private readonly v: number[] = [];
  private readonly f: number[] = [];
  private readonly s: number[] = [];

  /** Adds a vertex (snapped to 1/128) and returns its index. */
  vertex(x: number, y: number, z: number): number {
    this.v.push(snap(x), snap(y), snap(z));
    return this.v.length / 3 - 1;
  }
  /** Adds the triangle of vertices a, b, c with a surface material and light. */
  triangle(a: number, b: number, c: number, material = 0, light = 0): this {
    this.f.push(a, b, c);
    this.s.push(material, 0, 0, light);
    return this;
  }
  /** A quad a-b-c-d as two triangles (a, b, c) and (a, c, d). */
  quad(a: number, b: number, c: number, d: number, material = 0, light = 0): this {
    return this.triangle(a, b, c, material, light).triangle(a, c, d, material, light);
  }
  /** The six sides of an axis-aligned box as 12 triangles, wound outward. */
  box(min: Vec3, max: Vec3, material = 0, light = 0): this {
    const p: number[] = [];
    for (let c = 0; c < 8; c++) p.push(this.vertex(c & 1 ? max[0] : min[0], c & 2 ? max[1] : min[1], c & 4 ? max[2] : min[2]));
    const q = (a: number, b: number, c: number, d: number): this => this.quad(p[a]!, p[b]!, p[c]!, p[d]!, material, light);
    q(0, 2, 3, 1); // bottom (z min)
    q(4, 5, 7, 6); // top
    q(0, 1, 5, 4); // y min
    q(2, 6, 7, 3); // y max
    q(0, 4, 6, 2); // x min
    q(1, 3, 7, 5); // x max
    return this;
  }
  /** The mesh of everything added so far. */
  build(): ColMesh {
    return {
      vertexCount: this.v.length / 3,
      vertices: Float32Array.from(this.v),
      faceCount: this.f.length / 3,
      indices: Uint32Array.from(this.f),
      surfaces: Uint8Array.from(this.s),
    };
  }
}

/** Rounds to the nearest 1/128 inside the int16 range. */
export function snap(x: number): number {
  const v = Math.round(x * 128) + 0; // + 0: no negative zero (the int16 has none)
  return (v < -32768 ? -32768 : v > 32767 ? 32767 : v) / 128;
}

/** A surface of the given material and light, with flag and brightness 0. */
export function solidSurface(material: number, light = 0): ColSurface {
  return { material, flag: 0, brightness: 0, light };
}
