/**
 * Writer for GTA collision files, all four versions, in the canonical layout (docs/formats/gta-col.md):
 *
 *   COLL: prefix, bounds (sphere then box), counts and arrays in file order, lines kept.
 *   COL2+: prefix, bounds (box then sphere), header, then spheres · boxes · vertices · [pad to 4] ·
 *          [face groups + u32 count] · faces · shadow vertices · [pad to 4] · shadow faces. Offsets are relative
 *          to model start + 4 and are 0 for an empty section; flags are made canonical (reference B6).
 *
 * The writer refuses a model its version cannot hold exactly (a vertex that is not an int16 / 128, a face
 * flag byte in COL2+, a float that is not a float32, ...), so parse(write(m)) equals m for every m it accepts;
 * convertModel() in model.ts makes a model representable first.
 */
import { BinaryWriter } from '../../binary/writer.js';
import type { Vec3 } from '../world.js';
import { COL_FOURCC, COL_NAME_BYTES, canonicalFlags, type ColFile, type ColMesh, type ColModel, type ColSurface } from './model.js';
import { HEADER_BYTES_AFTER_PREFIX, MODEL_PREFIX_BYTES, OFFSET_BASE } from './parse.js';

/** Thrown by the writer for a model its version cannot store exactly; the message names the model and the value. */
export class ColWriteError extends Error {
  override readonly name = 'ColWriteError';
}

/** The canonical padding rule: vertex arrays are padded with zeros to a multiple of 4 bytes (reference B5). */
export const VERTEX_ARRAY_ALIGN = 4;

/**
 * Writes models back to back in the canonical layout, then `trailing` (e.g. the zero padding a parsed file ended
 * with). Throws ColWriteError for a model its version cannot hold exactly (convertModel makes one representable).
 */
export function writeColFile(models: readonly ColModel[], trailing: Uint8Array = new Uint8Array(0)): Uint8Array {
  let guess = 4096 + trailing.length;
  for (const m of models) guess += 256 + 40 * (m.spheres.length + m.boxes.length) + 12 * m.mesh.vertexCount + 16 * m.mesh.faceCount;
  const w = new BinaryWriter(guess);
  for (const m of models) writeModelInto(w, m);
  w.bytes(trailing);
  return w.finish();
}

/** Writes a parsed file back: its models and its trailing bytes. */
export function writeColFileOf(file: Pick<ColFile, 'models' | 'trailing'>): Uint8Array {
  return writeColFile(file.models, file.trailing);
}

/** Writes one model in the canonical layout of its version. Throws ColWriteError when the version cannot hold it exactly. */
export function writeColModel(m: ColModel): Uint8Array {
  const w = new BinaryWriter(1024);
  writeModelInto(w, m);
  return w.finish();
}

function fail(m: ColModel, detail: string): never {
  throw new ColWriteError(`${COL_FOURCC[m.version]} model ${JSON.stringify(m.name)}: ${detail}`);
}

function checkF32(m: ColModel, x: number, what: string): void {
  if (x === x && Math.fround(x) !== x) fail(m, `${what} ${x} is not a float32 value`);
}
function checkVec(m: ColModel, v: Vec3, what: string): void {
  checkF32(m, v[0], what);
  checkF32(m, v[1], what);
  checkF32(m, v[2], what);
}
function checkByte(m: ColModel, v: number, what: string): void {
  if (!Number.isInteger(v) || v < 0 || v > 255) fail(m, `${what} ${v} is not a byte`);
}
function checkSurface(m: ColModel, s: ColSurface, what: string): void {
  checkByte(m, s.material, `${what} material`);
  checkByte(m, s.flag, `${what} flag`);
  checkByte(m, s.brightness, `${what} brightness`);
  checkByte(m, s.light, `${what} light`);
}

/**
 * Checks that a model's version can hold it exactly (the rules writeColModel applies) and throws ColWriteError
 * naming the model and the value when it cannot. With `canonicalFlagsOnly` false the flags may be any u32 (a
 * layout-keeping write stores them as they are); the writer itself always requires the canonical flags.
 */
export function validateColModel(m: ColModel, canonicalFlagsOnly = true): void {
  validate(m, canonicalFlagsOnly);
}

function validate(m: ColModel, canonicalFlagsOnly = true): void {
  if (m.nameBytes.length !== COL_NAME_BYTES) fail(m, `name bytes must be ${COL_NAME_BYTES}, got ${m.nameBytes.length}`);
  if (!Number.isInteger(m.modelId) || m.modelId < 0 || m.modelId > 0xffff) fail(m, `model id ${m.modelId} is not a u16`);
  checkVec(m, m.bounds.min, 'bounds min');
  checkVec(m, m.bounds.max, 'bounds max');
  checkVec(m, m.bounds.center, 'bounds centre');
  checkF32(m, m.bounds.radius, 'bounds radius');
  m.spheres.forEach((s, i) => {
    checkVec(m, s.center, `sphere ${i} centre`);
    checkF32(m, s.radius, `sphere ${i} radius`);
    checkSurface(m, s.surface, `sphere ${i}`);
  });
  m.boxes.forEach((b, i) => {
    checkVec(m, b.min, `box ${i} min`);
    checkVec(m, b.max, `box ${i} max`);
    checkSurface(m, b.surface, `box ${i}`);
  });
  checkMesh(m, m.mesh, 'mesh');
  if (m.version === 1) {
    if (m.faceGroups !== null) fail(m, 'COLL has no face groups');
    if (m.shadow !== null) fail(m, 'COLL has no shadow mesh');
    if (m.lines.length % 6 !== 0) fail(m, 'lines must hold 6 floats each');
    return;
  }
  if (m.lines.length !== 0) fail(m, 'lines are written only in COLL');
  if (m.spheres.length > 0xffff || m.boxes.length > 0xffff || m.mesh.faceCount > 0xffff) fail(m, 'COL2+ counts are u16');
  if (m.version < 3 && m.shadow !== null) fail(m, 'COL2 has no shadow mesh');
  if (m.version !== 4 && m.col4Unknown !== 0) fail(m, 'only COL4 has the extra header word');
  if (!Number.isInteger(m.col4Unknown) || m.col4Unknown < 0 || m.col4Unknown > 0xffffffff) fail(m, 'COL4 extra header word is not a u32');
  if (m.shadow) checkMesh(m, m.shadow, 'shadow mesh');
  if (m.shadow && m.shadow.faceCount === 0) fail(m, 'a shadow mesh needs faces (SA treats an empty one as absent)');
  if (m.faceGroups !== null) {
    if (m.mesh.faceCount === 0) fail(m, 'face groups need faces: they are found from the face offset');
    m.faceGroups.forEach((g, i) => {
      checkVec(m, g.min, `face group ${i} min`);
      checkVec(m, g.max, `face group ${i} max`);
      if (!Number.isInteger(g.first) || !Number.isInteger(g.last) || g.first < 0 || g.first > g.last || g.last >= m.mesh.faceCount) {
        fail(m, `face group ${i} covers faces ${g.first}..${g.last} of ${m.mesh.faceCount}`);
      }
    });
  }
  if (!Number.isInteger(m.flags) || m.flags < 0 || m.flags > 0xffffffff) fail(m, `flags ${m.flags} are not a u32`);
  if (canonicalFlagsOnly && m.flags !== canonicalFlags(m)) fail(m, `flags ${m.flags} are not the canonical ${canonicalFlags(m)} for its contents`);
}

function checkMesh(m: ColModel, mesh: ColMesh, what: string): void {
  if (mesh.vertices.length !== mesh.vertexCount * 3) fail(m, `${what} has ${mesh.vertices.length} vertex floats for ${mesh.vertexCount} vertices`);
  if (mesh.indices.length !== mesh.faceCount * 3 || mesh.surfaces.length !== mesh.faceCount * 4) fail(m, `${what} face arrays do not match ${mesh.faceCount} faces`);
  // One pass over the indices: in range, and the highest (COL2+ stores no vertex count: it is that + 1).
  const I = mesh.indices;
  const nv = mesh.vertexCount;
  let max = -1;
  for (let i = 0; i < mesh.faceCount * 3; i++) {
    const k = I[i]!;
    if (k >= nv) fail(m, `${what} face ${Math.floor(i / 3)} refers to vertex ${k} of ${nv}`);
    if (k > max) max = k;
  }
  if (m.version === 1) return;
  // COL2+: no vertex count in the file, u16 indices, int16 / 128 vertices, faces carry material and light only.
  if (nv !== max + 1) fail(m, `${what}: COL2+ stores no vertex count, so it must be the highest face index + 1 (${max + 1}), not ${nv}`);
  if (nv > 0x10000) fail(m, `${what} has more vertices than u16 indices reach`);
  const V = mesh.vertices;
  for (let i = 0; i < V.length; i++) {
    const x = V[i]!;
    const v = x * 128;
    // isPackable inlined: an integer int16 after × 128, and not −0 (it reads back as 0).
    if (v !== Math.trunc(v) || v < -32768 || v > 32767 || (x === 0 && 1 / x < 0)) fail(m, `${what} vertex ${Math.floor(i / 3)} value ${x} is not an int16 / 128`);
  }
  const S = mesh.surfaces;
  for (let f = 0; f < mesh.faceCount; f++) {
    if ((S[f * 4 + 1]! | S[f * 4 + 2]!) !== 0) fail(m, `${what} face ${f} has flag/brightness bytes COL2+ faces cannot hold`);
  }
}

function vec3(w: BinaryWriter, v: Vec3): void {
  w.f32(v[0]).f32(v[1]).f32(v[2]);
}
function surfaceBytes(w: BinaryWriter, s: ColSurface): void {
  w.u8(s.material).u8(s.flag).u8(s.brightness).u8(s.light);
}

function writeModelInto(w: BinaryWriter, m: ColModel): void {
  validate(m);
  const start = w.length;
  w.fourcc(COL_FOURCC[m.version]);
  w.u32(0); // size, patched at the end
  w.bytes(m.nameBytes);
  w.u16(m.modelId);
  if (m.version === 1) writeCollBody(w, m);
  else writeCol2PlusBody(w, m, start);
  w.setU32At(start + 4, w.length - start - 8);
}

function writeCollBody(w: BinaryWriter, m: ColModel): void {
  w.f32(m.bounds.radius);
  vec3(w, m.bounds.center);
  vec3(w, m.bounds.min);
  vec3(w, m.bounds.max);
  w.u32(m.spheres.length);
  for (const s of m.spheres) {
    w.f32(s.radius);
    vec3(w, s.center);
    surfaceBytes(w, s.surface);
  }
  w.u32(m.lines.length / 6);
  for (let i = 0; i < m.lines.length; i++) w.f32(m.lines[i]!);
  w.u32(m.boxes.length);
  for (const b of m.boxes) {
    vec3(w, b.min);
    vec3(w, b.max);
    surfaceBytes(w, b.surface);
  }
  const mesh = m.mesh;
  w.u32(mesh.vertexCount);
  for (let i = 0; i < mesh.vertices.length; i++) w.f32(mesh.vertices[i]!);
  w.u32(mesh.faceCount);
  for (let f = 0; f < mesh.faceCount; f++) {
    w.u32(mesh.indices[f * 3]!).u32(mesh.indices[f * 3 + 1]!).u32(mesh.indices[f * 3 + 2]!);
    w.u8(mesh.surfaces[f * 4]!).u8(mesh.surfaces[f * 4 + 1]!).u8(mesh.surfaces[f * 4 + 2]!).u8(mesh.surfaces[f * 4 + 3]!);
  }
}

function writePackedVertices(w: BinaryWriter, mesh: ColMesh): void {
  const V = mesh.vertices;
  const n = V.length;
  const r = (n * 2) % VERTEX_ARRAY_ALIGN;
  const d = w.span(n * 2 + (r === 0 ? 0 : VERTEX_ARRAY_ALIGN - r)); // the pad stays zero
  for (let i = 0; i < n; i++) d.setInt16(i * 2, V[i]! * 128, true);
}

function writePackedFaces(w: BinaryWriter, mesh: ColMesh): void {
  const I = mesh.indices, S = mesh.surfaces;
  const d = w.span(mesh.faceCount * 8);
  for (let f = 0, p = 0; f < mesh.faceCount; f++, p += 8) {
    d.setUint16(p, I[f * 3]!, true);
    d.setUint16(p + 2, I[f * 3 + 1]!, true);
    d.setUint16(p + 4, I[f * 3 + 2]!, true);
    d.setUint8(p + 6, S[f * 4]!);
    d.setUint8(p + 7, S[f * 4 + 3]!);
  }
}

function writeCol2PlusBody(w: BinaryWriter, m: ColModel, start: number): void {
  vec3(w, m.bounds.min);
  vec3(w, m.bounds.max);
  vec3(w, m.bounds.center);
  w.f32(m.bounds.radius);
  const mesh = m.mesh;
  w.u16(m.spheres.length).u16(m.boxes.length).u16(mesh.faceCount);
  w.u8(0).u8(0); // line count (never used in COL2+) and pad
  w.u32(m.flags);
  const offAt = w.length; // spheres, boxes, lines, vertices, faces, triangle planes
  w.zeros(24);
  let shadowAt = -1;
  if (m.version >= 3) {
    w.u32(m.shadow ? m.shadow.faceCount : 0);
    shadowAt = w.length;
    w.zeros(8);
  }
  if (m.version === 4) w.u32(m.col4Unknown);
  if (w.length - start !== MODEL_PREFIX_BYTES + HEADER_BYTES_AFTER_PREFIX[m.version]) throw new Error('internal: COL header size');
  const rel = (): number => w.length - start - OFFSET_BASE;

  if (m.spheres.length > 0) {
    w.setU32At(offAt, rel());
    for (const s of m.spheres) {
      vec3(w, s.center);
      w.f32(s.radius);
      surfaceBytes(w, s.surface);
    }
  }
  if (m.boxes.length > 0) {
    w.setU32At(offAt + 4, rel());
    for (const b of m.boxes) {
      vec3(w, b.min);
      vec3(w, b.max);
      surfaceBytes(w, b.surface);
    }
  }
  if (mesh.faceCount > 0) {
    w.setU32At(offAt + 12, rel());
    writePackedVertices(w, mesh);
    if (m.faceGroups !== null) {
      for (const g of m.faceGroups) {
        vec3(w, g.min);
        vec3(w, g.max);
        w.u16(g.first).u16(g.last);
      }
      w.u32(m.faceGroups.length);
    }
    w.setU32At(offAt + 16, rel());
    writePackedFaces(w, mesh);
  }
  if (m.shadow) {
    w.setU32At(shadowAt, rel());
    writePackedVertices(w, m.shadow);
    w.setU32At(shadowAt + 4, rel());
    writePackedFaces(w, m.shadow);
  }
}
