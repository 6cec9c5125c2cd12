/** fast-check generators of collision models every version can hold exactly (shared by the GTA tests). */
import fc from 'fast-check';
import type { Vec3 } from '../../../src/worlds/world.js';
import {
  canonicalFlags,
  decodeColName,
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
