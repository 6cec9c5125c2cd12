/**
 * fast-check generators shared by the GTA tests: collision models every version can hold exactly (for the
 * format's round trips), and scenes to query (models built from triangles, spheres and boxes, placed with
 * rotations and exact copies), with `canon` to compare two answers over them bit for bit.
 */
import fc from 'fast-check';
import type { Vec3 } from '../../../src/worlds/world.js';
import { MeshBuilder, computeBounds } from '../../../src/worlds/gta/build.js';
import type { GtaPlacement } from '../../../src/worlds/gta/query.js';
import {
  canonicalFlags,
  decodeColName,
  emptyModel,
  type ColFaceGroup,
  type ColMesh,
  type ColModel,
  type ColSurface,
  type ColVersion,
} from '../../../src/worlds/gta/model.js';

const f32 = fc.float();
const f32Finite = fc.float({ noNaN: true, noDefaultInfinity: true, min: -1000, max: 1000 });
const vec = (a: fc.Arbitrary<number>): fc.Arbitrary<Vec3> => fc.tuple(a, a, a);
const byte = fc.integer({ min: 0, max: 255 });
const surfaceArb: fc.Arbitrary<ColSurface> = fc.record({ material: byte, flag: byte, brightness: byte, light: byte });

/** A mesh for `version`: COLL keeps any vertex count; COL2+ vertices are int16 / 128 and all referenced. */
export function meshArb(version: ColVersion, minFaces = 0, maxFaces = 12): fc.Arbitrary<ColMesh> {
  return fc.integer({ min: 1, max: 16 }).chain((vcount) =>
    fc
      .record({
        verts: fc.array(version === 1 ? f32 : fc.integer({ min: -32768, max: 32767 }).map((i) => i / 128), { minLength: vcount * 3, maxLength: vcount * 3 }),
        faces: fc.array(fc.tuple(fc.nat(vcount - 1), fc.nat(vcount - 1), fc.nat(vcount - 1), surfaceArb), { minLength: minFaces, maxLength: maxFaces }),
      })
      .map(({ verts, faces }): ColMesh => {
        let count = vcount;
        if (version >= 2) {
          let max = -1;
          for (const [a, b, c] of faces) max = Math.max(max, a, b, c);
          count = max + 1;
        }
        const surfaces = new Uint8Array(faces.length * 4);
        faces.forEach(([, , , s], i) => {
          surfaces[i * 4] = s.material;
          surfaces[i * 4 + 1] = version === 1 ? s.flag : 0;
          surfaces[i * 4 + 2] = version === 1 ? s.brightness : 0;
          surfaces[i * 4 + 3] = s.light;
        });
        return {
          vertexCount: count,
          vertices: Float32Array.from(verts.slice(0, count * 3)),
          faceCount: faces.length,
          indices: Uint32Array.from(faces.flatMap(([a, b, c]) => [a, b, c])),
          surfaces,
        };
      }),
  );
}

export function modelArb(version: ColVersion): fc.Arbitrary<ColModel> {
  return fc
    .record({
      nameBytes: fc.uint8Array({ minLength: 22, maxLength: 22 }),
      modelId: fc.integer({ min: 0, max: 0xffff }),
      bounds: fc.record({ min: vec(f32), max: vec(f32), center: vec(f32), radius: f32 }),
      baseFlags: fc.integer({ min: 0, max: 0xffffffff }),
      spheres: fc.array(fc.record({ center: vec(f32Finite), radius: f32Finite, surface: surfaceArb }), { maxLength: 3 }),
      boxes: fc.array(fc.record({ min: vec(f32Finite), max: vec(f32Finite), surface: surfaceArb }), { maxLength: 3 }),
      lines: fc.array(f32, { maxLength: 12 }).map((a) => Float32Array.from(a.slice(0, a.length - (a.length % 6)))),
      mesh: meshArb(version),
      groups: fc.option(fc.array(fc.tuple(vec(f32), vec(f32), fc.nat(), fc.nat()), { maxLength: 4 })),
      shadow: fc.option(meshArb(version, 1, 6)),
      col4: fc.integer({ min: 0, max: 0xffffffff }),
    })
    .map((r): ColModel => {
      const nf = r.mesh.faceCount;
      let faceGroups: ColFaceGroup[] | null = null;
      if (version >= 2 && nf > 0 && r.groups) {
        faceGroups = r.groups.map(([min, max, a, b]) => {
          const x = a % nf, y = b % nf;
          return { min, max, first: Math.min(x, y), last: Math.max(x, y) };
        });
      }
      const m: ColModel = {
        version,
        name: decodeColName(r.nameBytes),
        nameBytes: r.nameBytes,
        modelId: r.modelId,
        bounds: r.bounds,
        flags: version === 1 ? 0 : r.baseFlags,
        spheres: r.spheres,
        boxes: r.boxes,
        lines: version === 1 ? r.lines : new Float32Array(0),
        mesh: r.mesh,
        faceGroups,
        shadow: version >= 3 ? r.shadow : null,
        col4Unknown: version === 4 ? r.col4 : 0,
      };
      m.flags = canonicalFlags(m);
      return m;
    });
}

export const versionArb: fc.Arbitrary<ColVersion> = fc.constantFrom(1, 2, 3, 4);
export const anyModelArb: fc.Arbitrary<ColModel> = versionArb.chain((v) => modelArb(v));

/** Numbers as text, -0 apart from 0, so two answers compare bit for bit. */
export const canon = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' ? (Object.is(x, -0) ? '-0' : String(x)) : x));

/** A scene coordinate: a multiple of 1/64 within ±16. */
export const smallCoord = fc.integer({ min: -1024, max: 1024 }).map((i) => i / 64);
/** A point of three small coordinates. */
export const smallPoint = fc.tuple(smallCoord, smallCoord, smallCoord);

/**
 * A model to place in a scene: up to `maxTriangles` triangles of small points, maybe a sphere or two and a box
 * or two. A sphere's radius is a multiple of 1/64 up to 6.25, from 1/64 on, or from 0 with `zeroRadiusSpheres`.
 */
export function sceneModelArb(options: { maxTriangles: number; zeroRadiusSpheres: boolean }): fc.Arbitrary<ColModel> {
  return fc
    .record({
      tris: fc.array(fc.tuple(smallPoint, smallPoint, smallPoint), { maxLength: options.maxTriangles }),
      spheres: fc.array(fc.tuple(smallPoint, fc.integer({ min: options.zeroRadiusSpheres ? 0 : 1, max: 400 }).map((i) => i / 64)), { maxLength: 2 }),
      boxes: fc.array(fc.tuple(smallPoint, smallPoint), { maxLength: 2 }),
    })
    .map(({ tris, spheres, boxes }) => {
      const m = emptyModel(3, 'm');
      const b = new MeshBuilder();
      tris.forEach(([p, q, r], i) => b.triangle(b.vertex(...p), b.vertex(...q), b.vertex(...r), i % 50));
      m.mesh = b.build();
      m.spheres = spheres.map(([c, r], i) => ({ center: c, radius: r, surface: { material: 60 + i, flag: 0, brightness: 0, light: 0 } }));
      m.boxes = boxes.map(([p, q], i) => ({
        min: [Math.min(p[0], q[0]), Math.min(p[1], q[1]), Math.min(p[2], q[2])] as Vec3,
        max: [Math.max(p[0], q[0]), Math.max(p[1], q[1]), Math.max(p[2], q[2])] as Vec3,
        surface: { material: 80 + i, flag: 0, brightness: 0, light: 0 },
      }));
      m.bounds = computeBounds(m);
      return m;
    });
}

/** A placement's rotation: none, a half turn about z, or any non-zero quaternion of small numbers. */
export const placementRotationArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant([0, 0, 1, 0] as [number, number, number, number]) },
  { weight: 3, arbitrary: fc.tuple(smallCoord, smallCoord, smallCoord, smallCoord).filter((q) => q.some((v) => v !== 0)) },
);

/**
 * A scene: 1 to `maxModels` models and 1 to 40 placements of them at `position`s, with a rotation or none; about
 * one placement in `copyFreq` is an exact copy of an earlier one (the many-at-one-spot case).
 */
export function colSceneArb(options: { model: fc.Arbitrary<ColModel>; maxModels: number; position: fc.Arbitrary<Vec3>; copyFreq: number }): fc.Arbitrary<{ models: ColModel[]; placements: GtaPlacement[] }> {
  return fc.array(options.model, { minLength: 1, maxLength: options.maxModels }).chain((models) =>
    fc
      .array(fc.record({ model: fc.nat(models.length - 1), position: options.position, rotation: placementRotationArb, copyOf: fc.option(fc.nat(), { freq: options.copyFreq }) }), { minLength: 1, maxLength: 40 })
      .map((raw) => {
        const placements: GtaPlacement[] = [];
        for (const r of raw) {
          // Often an exact copy of an earlier placement, else a new one.
          if (r.copyOf !== null && placements.length > 0) placements.push(placements[r.copyOf % placements.length]!);
          else placements.push(r.rotation ? { model: r.model, position: r.position, rotation: r.rotation } : { model: r.model, position: r.position });
        }
        return { models, placements };
      }),
  );
}
