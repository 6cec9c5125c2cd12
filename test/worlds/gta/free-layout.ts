/**
 * COL2+ models laid out the way other tools lay them out: sections in any order, gaps of junk between them,
 * over-long vertex arrays, non-zero offsets of empty sections, a line count and pad byte, flag noise, bytes after
 * the last section. Shared by the layout-keeping tests.
 */
import fc from 'fast-check';
import { BinaryWriter } from '../../../src/binary/writer.js';
import { COL_FLAG_FACE_GROUPS, type ColModel } from '../../../src/worlds/gta/model.js';

/** Choices for laying a COL2+ model out the way some other tool might. */
export interface LayoutChoice {
  order: number[];
  gaps: number[];
  junk: number;
  extraVertices: number;
  lineByte: number;
  padByte: number;
  junkOffsets: boolean;
  flagNoise: number;
  tail: number;
}

export const layoutArb: fc.Arbitrary<LayoutChoice> = fc.record({
  order: fc.shuffledSubarray([0, 1, 2, 3, 4, 5], { minLength: 6, maxLength: 6 }),
  gaps: fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 7, maxLength: 7 }),
  junk: fc.integer({ min: 0, max: 255 }),
  extraVertices: fc.integer({ min: 0, max: 3 }),
  lineByte: fc.integer({ min: 0, max: 255 }),
  padByte: fc.integer({ min: 0, max: 255 }),
  junkOffsets: fc.boolean(),
  flagNoise: fc.constantFrom(0, 2, 16, 18, 1, 0x100),
  tail: fc.integer({ min: 0, max: 6 }),
});

/**
 * A COL2+ model's bytes in a free layout: units (spheres, boxes, vertices + extra vertices, face groups + faces,
 * shadow vertices, shadow faces) in `order`, each after a gap of junk; header junk as chosen.
 */
export function layOut(m: ColModel, c: LayoutChoice): Uint8Array {
  const w = new BinaryWriter(1024);
  const head = { 2: 108, 3: 120, 4: 124 }[m.version as 2 | 3 | 4];
  w.fourcc(m.version === 2 ? 'COL2' : m.version === 3 ? 'COL3' : 'COL4').u32(0).bytes(m.nameBytes).u16(m.modelId);
  const v3 = (v: readonly number[]) => w.f32(v[0]!).f32(v[1]!).f32(v[2]!);
  v3(m.bounds.min);
  v3(m.bounds.max);
  v3(m.bounds.center);
  w.f32(m.bounds.radius);
  w.u16(m.spheres.length).u16(m.boxes.length).u16(m.mesh.faceCount).u8(c.lineByte).u8(c.padByte);
  const groups = m.faceGroups !== null;
  let flags = (m.flags ^ c.flagNoise) >>> 0;
  flags = groups ? flags | COL_FLAG_FACE_GROUPS : flags & ~COL_FLAG_FACE_GROUPS;
  w.u32(flags);
  const junkOff = (n: number) => (c.junkOffsets ? 0x1000 + n : 0);
  for (let i = 0; i < 6; i++) w.u32(junkOff(i));
  if (m.version >= 3) w.u32(m.shadow ? m.shadow.faceCount : 0).u32(junkOff(7)).u32(junkOff(8));
  if (m.version === 4) w.u32(m.col4Unknown);
  if (w.length !== head) throw new Error(`internal: header of ${w.length} bytes, not ${head}`);
  const rel = () => w.length - 4;
  const verts = (mesh: ColModel['mesh'], extra: number) => {
    for (let i = 0; i < mesh.vertices.length; i++) w.i16(mesh.vertices[i]! * 128);
    for (let i = 0; i < extra * 3; i++) w.i16(c.junk * 97 + i);
  };
  const faces = (mesh: ColModel['mesh']) => {
    for (let f = 0; f < mesh.faceCount; f++) w.u16(mesh.indices[f * 3]!).u16(mesh.indices[f * 3 + 1]!).u16(mesh.indices[f * 3 + 2]!).u8(mesh.surfaces[f * 4]!).u8(mesh.surfaces[f * 4 + 3]!);
  };
  const units: (() => void)[] = [
    () => {
      if (m.spheres.length === 0) return;
      w.setU32At(84, rel());
      for (const s of m.spheres) {
        v3(s.center);
        w.f32(s.radius).u8(s.surface.material).u8(s.surface.flag).u8(s.surface.brightness).u8(s.surface.light);
      }
    },
    () => {
      if (m.boxes.length === 0) return;
      w.setU32At(88, rel());
      for (const b of m.boxes) {
        v3(b.min);
        v3(b.max);
        w.u8(b.surface.material).u8(b.surface.flag).u8(b.surface.brightness).u8(b.surface.light);
      }
    },
    () => {
      if (m.mesh.faceCount === 0) return;
      w.setU32At(96, rel());
      verts(m.mesh, c.extraVertices);
    },
    () => {
      if (m.mesh.faceCount === 0) return;
      if (m.faceGroups) {
        for (const g of m.faceGroups) {
          v3(g.min);
          v3(g.max);
          w.u16(g.first).u16(g.last);
        }
        w.u32(m.faceGroups.length);
      }
      w.setU32At(100, rel());
      faces(m.mesh);
    },
    () => {
      if (!m.shadow) return;
      w.setU32At(112, rel());
      verts(m.shadow, c.extraVertices);
    },
    () => {
      if (!m.shadow) return;
      w.setU32At(116, rel());
      faces(m.shadow);
    },
  ];
  c.order.forEach((u, k) => {
    for (let g = 0; g < c.gaps[k]!; g++) w.u8((c.junk + g * 31) & 0xff);
    units[u]!();
  });
  for (let g = 0; g < c.tail; g++) w.u8(0xee);
  w.setU32At(4, w.length - 8);
  return w.finish();
}
