import { BinaryWriter } from '../../binary/writer.js';
import { chunkTagBytes } from './chunks.js';
import { BBOX_FLOATS, PLANES_PER_POLYGON, polygonCount, type Trak } from './trak-parse.js';
import { floatBits } from '../../binary/float-bits.js';

/** The TRAK payload (u32 n, all headers, then every model's data). */
export function writeTrakPayload(trak: Trak, w = new BinaryWriter()): BinaryWriter {
  w.u32(trak.models.length);
  for (const m of trak.models) {
    // Floats as their bits (see float-bits.ts); a short bounding volume is padded with zeros.
    const bbox = floatBits(m.bbox);
    for (let k = 0; k < BBOX_FLOATS; k++) w.f32bits(k < bbox.length ? bbox[k]! : 0);
    w.u16(m.vertices.length / 6).u16(m.faceFlags.length).u32(m.vertexPointer).u32(m.facePointer);
    w.u16(m.floorCount).u16(m.ceilingCount).u16(m.wallCount).u16(m.headerPad).u32(m.polygonPointer);
  }
  for (const m of trak.models) {
    const vertices = floatBits(m.vertices);
    const planes = floatBits(m.facePlanes);
    for (let k = 0; k < vertices.length; k++) w.f32bits(vertices[k]!);
    for (let f = 0; f < m.faceFlags.length; f++) {
      w.u16(m.faceFlags[f]!).u16(m.faceVertices[f * 3]!).u16(m.faceVertices[f * 3 + 1]!).u16(m.faceVertices[f * 3 + 2]!);
      w.u16(m.faceTexture[f]!).u16(m.facePad[f]!);
      for (let k = 0; k < 4; k++) w.f32bits(planes[f * 4 + k]!);
    }
    const p = polygonCount(m);
    for (let q = 0; q < p; q++) {
      w.u8(m.polygonType[q]!).u8(m.polygonMaterial[q]!);
      for (let k = 0; k < PLANES_PER_POLYGON; k++) {
        w.i8(m.planeNormals[q * 15 + k * 3]!).i8(m.planeNormals[q * 15 + k * 3 + 1]!).i8(m.planeNormals[q * 15 + k * 3 + 2]!);
        w.u8(m.planeFlags[q * 5 + k]!).i16(m.planeD[q * 5 + k]!);
      }
    }
  }
  return w;
}

/** A .trak file: the TRAK chunk as it sits in a WAD (reversed tag, u32 size, payload). */
export function writeTrakFile(trak: Trak): Uint8Array {
  const payload = writeTrakPayload(trak).finish();
  const w = new BinaryWriter(payload.length + 8);
  for (const b of chunkTagBytes('TRAK')) w.u8(b);
  w.u32(payload.length).bytes(payload);
  return w.finish();
}
