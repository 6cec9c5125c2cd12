import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Vec3 } from '../../../src/worlds/world.js';
import { ModelCollider } from '../../../src/worlds/gta/bvh.js';
import { ColScene, closestOnTriangle, lastClosestPoint } from '../../../src/worlds/gta/query.js';
import { MeshBuilder, computeBounds, withFaceGroups } from '../../../src/worlds/gta/build.js';
import { emptyModel, type ColMesh, type ColModel } from '../../../src/worlds/gta/model.js';
import { detSqrt } from '../../../src/numeric/det-math.js';

const H = Math.SQRT1_2;

function meshModel(mesh: ColMesh, name = 'mesh'): ColModel {
  const m = emptyModel(3, name);
  m.mesh = mesh;
  m.bounds = computeBounds(m);
  m.flags = 2;
  return m;
}

/** A big flat floor at height z, two triangles. */
function floor(z: number, half = 50, material = 7): ColMesh {
  const b = new MeshBuilder();
  const a = b.vertex(-half, -half, z), c = b.vertex(half, -half, z), d = b.vertex(half, half, z), e = b.vertex(-half, half, z);
  return b.quad(a, c, d, e, material).build();
}

/**
 * Independent reference for one triangle: intersect the plane, then test the point by signed areas. Returns t
 * or NaN, and the smallest barycentric coordinate (to skip hits that graze an edge).
 */
function refTriangle(o: Vec3, d: Vec3, a: Vec3, b: Vec3, c: Vec3): { t: number; margin: number } {
  const sub = (p: Vec3, q: Vec3): Vec3 => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
  const cross = (p: Vec3, q: Vec3): Vec3 => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];
  const dot = (p: Vec3, q: Vec3): number => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
  const n = cross(sub(b, a), sub(c, a));
  const den = dot(n, d);
  if (den === 0) return { t: NaN, margin: 0 };
  const t = dot(n, sub(a, o)) / den;
  if (!(t >= 0 && t <= 1)) return { t: NaN, margin: 0 };
  const p: Vec3 = [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]];
  const area = dot(n, n);
  const wa = dot(n, cross(sub(b, p), sub(c, p))) / area;
  const wb = dot(n, cross(sub(c, p), sub(a, p))) / area;
  const wc = dot(n, cross(sub(a, p), sub(b, p))) / area;
  const margin = Math.min(wa, wb, wc, Math.abs(t), Math.abs(1 - t));
  return { t: wa >= 0 && wb >= 0 && wc >= 0 ? t : NaN, margin: Math.abs(Math.min(Math.abs(wa), Math.abs(wb), Math.abs(wc), margin)) };
}

const coord = fc.integer({ min: -2560, max: 2560 }).map((i) => i / 128);
const pointArb = fc.tuple(coord, coord, coord);
const randomMesh = fc.array(fc.tuple(pointArb, pointArb, pointArb), { minLength: 1, maxLength: 120 }).map((tris) => {
  const b = new MeshBuilder();
  tris.forEach(([p, q, r], i) => b.triangle(b.vertex(...p), b.vertex(...q), b.vertex(...r), i % 200));
  return b.build();
});

describe('GTA segment queries', () => {
  it('the tree finds the same nearest triangle hit as a brute-force reference (property)', () => {
    fc.assert(
      fc.property(randomMesh, fc.array(fc.tuple(pointArb, pointArb), { minLength: 1, maxLength: 20 }), (mesh, segs) => {
        const m = meshModel(mesh);
        const col = new ModelCollider(m);
        const V = mesh.vertices;
        const vert = (i: number): Vec3 => [V[i * 3]!, V[i * 3 + 1]!, V[i * 3 + 2]!];
        for (const [o, to] of segs) {
          const d: Vec3 = [to[0] - o[0], to[1] - o[1], to[2] - o[2]];
          let best = NaN, grazing = false;
          for (let f = 0; f < mesh.faceCount; f++) {
            const r = refTriangle(o, d, vert(mesh.indices[f * 3]!), vert(mesh.indices[f * 3 + 1]!), vert(mesh.indices[f * 3 + 2]!));
            if (r.margin < 1e-7) grazing = true;
            if (r.t === r.t && !(r.t >= best)) best = r.t;
          }
          if (grazing) continue;
          const t = col.raycast(o[0], o[1], o[2], d[0], d[1], d[2], 2);
          if (best === best) expect(t).toBeCloseTo(best, 9);
          else expect(t).toBe(2);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('face groups as broad phase and the own tree give identical answers (property)', () => {
    fc.assert(
      fc.property(randomMesh, fc.integer({ min: 1, max: 30 }), fc.array(fc.tuple(pointArb, pointArb), { minLength: 1, maxLength: 20 }), (mesh, limit, segs) => {
        const plain = meshModel(mesh);
        const grouped = withFaceGroups(plain, limit);
        const a = new ColScene([plain]);
        const b = new ColScene([grouped]);
        expect(new ModelCollider(grouped).usesFaceGroups).toBe(true);
        expect(new ModelCollider(plain).usesFaceGroups).toBe(false);
        for (const [o, t] of segs) {
          expect(b.segmentFraction(...o, ...t)).toBe(a.segmentFraction(...o, ...t));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('segment and segmentFraction agree, and a miss is -1 / hit false (property)', () => {
    const m = meshModel(floor(0));
    m.spheres.push({ center: [3, 3, 1], radius: 1, surface: { material: 3, flag: 0, brightness: 0, light: 0 } });
    m.boxes.push({ min: [-5, -5, 0], max: [-3, -3, 2], surface: { material: 4, flag: 0, brightness: 0, light: 0 } });
    const s = new ColScene([m]);
    fc.assert(
      fc.property(pointArb, pointArb, (o, t) => {
        const f = s.segmentFraction(...o, ...t);
        const r = s.segment(o, t);
        if (f < 0) {
          expect(r.hit).toBe(false);
          expect(r.fraction).toBe(1);
        } else {
          expect(r.hit).toBe(true);
          expect(r.fraction).toBe(f);
          expect(r.model).toBe('mesh');
          const len = detSqrt(r.normal[0] ** 2 + r.normal[1] ** 2 + r.normal[2] ** 2);
          expect(len).toBeCloseTo(1, 12);
          // The normal faces the start.
          expect(r.normal[0] * (t[0] - o[0]) + r.normal[1] * (t[1] - o[1]) + r.normal[2] * (t[2] - o[2])).toBeLessThanOrEqual(1e-12);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('hits a sphere, a box and a face with the right point, normal, material and kind', () => {
    const m = meshModel(floor(-1, 50, 21), 'Stuff');
    m.spheres.push({ center: [0, 0, 0], radius: 1, surface: { material: 11, flag: 0, brightness: 0, light: 0 } });
    m.boxes.push({ min: [10, -1, -1], max: [12, 1, 1], surface: { material: 12, flag: 0, brightness: 0, light: 0 } });
    const s = new ColScene([m]);
    const a = s.segment([-5, 0, 0], [5, 0, 0]);
    expect([a.hit, a.what, a.material, a.id, a.model]).toEqual([true, 'sphere', 11, 0, 'Stuff']);
    expect(a.fraction).toBeCloseTo(0.4, 12);
    expect(a.point[0]).toBeCloseTo(-1, 12);
    expect(a.normal[0]).toBeCloseTo(-1, 12);
    const b = s.segment([20, 0, 0], [0, 0, 0]);
    expect([b.what, b.material, b.fraction, b.normal]).toEqual(['box', 12, 0.4, [1, 0, 0]]);
    const c = s.segment([30, 30, 5], [30, 30, -5]);
    expect([c.what, c.material]).toEqual(['face', 21]);
    expect(c.fraction).toBeCloseTo(0.6, 12);
    expect(c.normal).toEqual([0, 0, 1]);
    // Two-sided: from below the floor the normal points down.
    const d = s.segment([30, 30, -5], [30, 30, 5]);
    expect(d.fraction).toBeCloseTo(0.4, 12);
    expect(d.normal).toEqual([0, 0, -1]);
    // Starting inside a sphere or box hits at 0.
    expect(s.segmentFraction(0.1, 0, 0, 0.1, 0, 0.5)).toBe(0);
    expect(s.segmentFraction(11, 0, 0, 11, 0, 0.5)).toBe(0);
  });

  it('places rotated and moved models (quaternion about z by 90°)', () => {
    const m = emptyModel(2, 'wall');
    m.boxes.push({ min: [1, -0.5, 0], max: [2, 0.5, 1], surface: { material: 5, flag: 0, brightness: 0, light: 0 } });
    m.bounds = computeBounds(m);
    m.flags = 2;
    const s = new ColScene([m], [{ model: 'WALL', position: [10, 0, 0], rotation: [0, 0, H, H] }]);
    const r = s.segment([10, -5, 0.5], [10, 5, 0.5]);
    expect(r.hit).toBe(true);
    expect(r.fraction).toBeCloseTo(0.6, 12);
    expect(r.normal[1]).toBeCloseTo(-1, 12);
    expect(r.point[1]).toBeCloseTo(1, 12);
    // Where the unrotated box would be, nothing.
    expect(s.segmentFraction(8, 0, 0.5, 13, 0, 0.5)).toBe(-1);
    expect([s.box[0], s.box[4]]).toEqual([expect.closeTo(9.5, 4), expect.closeTo(2, 4)]);
  });

  it('a placed model answers like the model at the origin queried with the segment moved into its space (property)', () => {
    const quat = fc
      .tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 }))
      .filter((q) => q.some((v) => v !== 0));
    let total = 0, disagree = 0;
    fc.assert(
      fc.property(randomMesh, quat, pointArb, fc.array(fc.tuple(pointArb, pointArb), { minLength: 1, maxLength: 10 }), (mesh, q, pos, segs) => {
        const m = meshModel(mesh);
        const placed = new ColScene([m], [{ model: 0, position: pos, rotation: q }]);
        const origin = new ColScene([m]);
        // The inverse placement, written out here from the quaternion (not taken from the code under test).
        const [x, y, z, w] = q;
        const s = 2 / (x * x + y * y + z * z + w * w);
        const R = [
          [1 - s * (y * y + z * z), s * (x * y - z * w), s * (x * z + y * w)],
          [s * (x * y + z * w), 1 - s * (x * x + z * z), s * (y * z - x * w)],
          [s * (x * z - y * w), s * (y * z + x * w), 1 - s * (x * x + y * y)],
        ];
        const toLocal = (p: Vec3): Vec3 => {
          const d = [p[0] - pos[0], p[1] - pos[1], p[2] - pos[2]];
          return [0, 1, 2].map((k) => R[0]![k]! * d[0]! + R[1]![k]! * d[1]! + R[2]![k]! * d[2]!) as Vec3;
        };
        for (const [a, b] of segs) {
          const fp = placed.segmentFraction(...a, ...b);
          const fo = origin.segmentFraction(...toLocal(a), ...toLocal(b));
          total++;
          if (fp < 0 || fo < 0) {
            // Hit and miss can disagree only for a segment grazing an edge (the two routes round differently).
            if (fp !== fo) disagree++;
            continue;
          }
          expect(fp).toBeCloseTo(fo, 6);
        }
      }),
      { numRuns: 100 },
    );
    expect(total).toBeGreaterThan(200);
    expect(disagree / total).toBeLessThan(0.01);
  });

  it('several placements: the nearest wins and names its instance', () => {
    const m = meshModel(new MeshBuilder().box([-1, -1, -1], [1, 1, 1], 9).build(), 'cube');
    const s = new ColScene([m], [
      { model: 0, position: [10, 0, 0] },
      { model: 'cube', position: [5, 0, 0] },
    ]);
    const r = s.segment([0, 0, 0], [20, 0, 0]);
    expect(r.instance).toBe(1);
    expect(r.fraction).toBeCloseTo(4 / 20, 12);
    expect(() => new ColScene([m], [{ model: 'nope', position: [0, 0, 0] }])).toThrow(/nope/);
    expect(() => new ColScene([m], [{ model: 0, position: [0, 0, 0], rotation: [0, 0, 0, 0] }])).toThrow(/quaternion/);
  });

  it('shadow meshes are not solid', () => {
    const m = emptyModel(3, 'shadowonly');
    m.shadow = floor(0);
    m.flags = 16;
    const s = new ColScene([m]);
    expect(s.segmentFraction(0, 0, 5, 0, 0, -5)).toBe(-1);
    expect(s.sphereOverlaps(0, 0, 0, 1)).toBe(false);
  });

  it('non-finite and huge inputs give defined answers, never exceptions', () => {
    const s = new ColScene([meshModel(floor(0))]);
    for (const v of [NaN, Infinity, -Infinity]) {
      expect(s.segmentFraction(v, 0, 1, 0, 0, -1)).toBe(-1);
      expect(s.segmentFraction(0, 0, 1, 0, v, -1)).toBe(-1);
      expect(s.segment([0, 0, v], [0, 0, -1]).hit).toBe(false);
      expect(s.sphereOverlaps(v, 0, 0, 1)).toBe(false);
      expect(s.pushOutSphere(0, v, 0, 1)).toBe(0);
    }
    expect(s.segmentFraction(-1e308, 0, 1, 1e308, 0, 1)).toBe(-1); // the direction overflows
    expect(s.segmentFraction(0, 0, 1e300, 0, 0, -1e300)).toBeCloseTo(0.5, 12);
    expect(s.segmentFraction(1e200, 1e200, 1, 1e200, 1e200, -1)).toBe(-1);
    // A zero-length segment has no direction to cross a face with: it misses even on the floor.
    expect(s.segmentFraction(0, 0, 0, 0, 0, 0)).toBe(-1);
  });
});

describe('GTA queries over hostile geometry', () => {
  it('non-finite or inverted spheres and boxes are not solid; a non-finite vertex sets no world bounds', () => {
    const m = emptyModel(1, 'bad');
    const surf = { material: 1, flag: 0, brightness: 0, light: 0 };
    m.boxes.push({ min: [NaN, -1, -1], max: [1, 1, 1], surface: surf });
    m.boxes.push({ min: [1, 1, 1], max: [-1, -1, -1], surface: surf }); // inverted
    m.spheres.push({ center: [0, 0, NaN], radius: 1, surface: surf });
    m.spheres.push({ center: [0, 0, 0], radius: -1, surface: surf });
    m.boxes.push({ min: [5, 5, 5], max: [6, 6, 6], surface: { ...surf, material: 9 } }); // the one good box
    m.mesh = { vertexCount: 3, vertices: Float32Array.from([0, 0, Infinity, 1, 0, 0, 0, 1, NaN]), faceCount: 1, indices: Uint32Array.from([0, 1, 2]), surfaces: new Uint8Array(4) };
    const s = new ColScene([m]);
    expect(s.segmentFraction(-3, 0, 0, 3, 0, 0)).toBe(-1);
    expect(s.sphereOverlaps(0, 0, 0, 0.5)).toBe(false);
    expect(s.pushOutSphere(0, 0, 0, 0.5)).toBe(0);
    const hit = s.segment([5.5, 5.5, 10], [5.5, 5.5, 0]);
    expect([hit.what, hit.id, hit.material]).toEqual(['box', 2, 9]); // reported by its index in the model, not among the kept ones
    for (const v of s.box) expect(Number.isFinite(v)).toBe(true);
  });
});

describe('GTA sphere queries', () => {
  it('closest point on a triangle matches a brute-force search (property)', () => {
    fc.assert(
      fc.property(pointArb, pointArb, pointArb, pointArb, (a, b, c, p) => {
        const T = Float64Array.from([...a, b[0] - a[0], b[1] - a[1], b[2] - a[2], c[0] - a[0], c[1] - a[1], c[2] - a[2]]);
        if (!closestOnTriangle(T, 0, ...p)) return;
        const q = lastClosestPoint();
        const dq = (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2 + (q[2] - p[2]) ** 2;
        // No sample of the triangle is nearer.
        for (let i = 0; i <= 20; i++) {
          for (let j = 0; i + j <= 20; j++) {
            const u = i / 20, v = j / 20;
            const x = a[0] + (b[0] - a[0]) * u + (c[0] - a[0]) * v;
            const y = a[1] + (b[1] - a[1]) * u + (c[1] - a[1]) * v;
            const z = a[2] + (b[2] - a[2]) * u + (c[2] - a[2]) * v;
            expect((x - p[0]) ** 2 + (y - p[1]) ** 2 + (z - p[2]) ** 2).toBeGreaterThanOrEqual(dq * (1 - 1e-9) - 1e-9);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('pushes a sphere out of a floor, a box and a sphere to exactly touching', () => {
    const m = meshModel(floor(0));
    m.boxes.push({ min: [10, 10, 0], max: [12, 12, 2], surface: { material: 1, flag: 0, brightness: 0, light: 0 } });
    m.spheres.push({ center: [-10, -10, 5], radius: 1, surface: { material: 2, flag: 0, brightness: 0, light: 0 } });
    const s = new ColScene([m]);
    expect(s.sphereOverlaps(0, 0, 0.3, 0.5)).toBe(true);
    expect(s.pushOutSphere(0, 0, 0.3, 0.5)).toBeGreaterThan(0);
    expect(s.push.z).toBeCloseTo(0.5, 12);
    expect(Array.from(s.push.normal.subarray(0, 3))).toEqual([0, 0, 1]);
    expect(s.sphereOverlaps(s.push.x, s.push.y, s.push.z, 0.5)).toBe(false);
    // Inside the box near its +x side: out through that side.
    s.pushOutSphere(11.9, 11, 1, 0.25);
    expect(s.push.x).toBeCloseTo(12.25, 12);
    expect(s.push.y).toBe(11);
    // Against the sphere: out along the line of centres.
    s.pushOutSphere(-10, -10, 6.5, 1);
    expect(s.push.z).toBeCloseTo(7, 12);
    // Horizontal-only leaves floors alone.
    expect(s.pushOutSphere(0, 0, 0.3, 0.5, true)).toBe(0);
    expect(s.push.z).toBe(0.3);
  });

  it('push-out leaves no overlap with random boxes when it converges (property)', () => {
    fc.assert(
      fc.property(fc.tuple(coord, coord, coord), fc.integer({ min: 1, max: 64 }).map((i) => i / 32), (c, r) => {
        const m = emptyModel(2, 'b');
        m.boxes.push({ min: [-1, -1, -1], max: [1, 1, 1], surface: { material: 0, flag: 0, brightness: 0, light: 0 } });
        m.flags = 2;
        const s = new ColScene([m]);
        s.pushOutSphere(c[0], c[1], c[2], r);
        expect(s.sphereOverlaps(s.push.x + 0, s.push.y, s.push.z, r * (1 - 1e-9))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
