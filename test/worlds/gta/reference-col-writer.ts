/**
 * The GTA collision writers as they were before they were rewritten to write into one buffer of the exact size:
 * the canonical writer (built on BinaryWriter, every model validated first, then written field by field) and the
 * layout-keeping writer (each model overlaid onto a copy of its template, then the parts joined). Kept here,
 * unchanged but for their names, as the reference the tests hold the fast writers in src/worlds/gta to: the same
 * bytes, and the same ColWriteError messages, for every model.
 */
import { BinaryWriter } from '../../../src/binary/writer.js';
import type { Vec3 } from '../../../src/worlds/world.js';
import { canonicalFlags, COL_FOURCC, COL_NAME_BYTES, type ColFile, type ColMesh, type ColModel, type ColSurface } from '../../../src/worlds/gta/model.js';
import { HEADER_BYTES_AFTER_PREFIX, MODEL_PREFIX_BYTES, OFFSET_BASE, hasFaceGroups } from '../../../src/worlds/gta/parse.js';
import type { ColCounts, ColFileLayout, ColModelLayout, KeptLayoutWrite } from '../../../src/worlds/gta/layout.js';
import { ColWriteError } from '../../../src/worlds/gta/write.js';

const VERTEX_ARRAY_ALIGN = 4;

/** The canonical writer: models back to back in the canonical layout, then `trailing`. */
export function referenceWriteColFile(models: readonly ColModel[], trailing: Uint8Array = new Uint8Array(0)): Uint8Array {
  let guess = 4096 + trailing.length;
  for (const m of models) guess += 256 + 40 * (m.spheres.length + m.boxes.length) + 12 * m.mesh.vertexCount + 16 * m.mesh.faceCount;
  const w = new BinaryWriter(guess);
  for (const m of models) writeModelInto(w, m);
  w.bytes(trailing);
  return w.finish();
}

/** One model in the canonical layout of its version. */
export function referenceWriteColModel(m: ColModel): Uint8Array {
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
function validateColModel(m: ColModel, canonicalFlagsOnly = true): void {
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

function countsOf(m: ColModel): ColCounts {
  return {
    version: m.version,
    spheres: m.spheres.length,
    boxes: m.boxes.length,
    lines: m.lines.length / 6,
    vertices: m.mesh.vertexCount,
    faces: m.mesh.faceCount,
    faceGroups: m.faceGroups ? m.faceGroups.length : -1,
    shadowFaces: m.shadow ? m.shadow.faceCount : -1,
    shadowVertices: m.shadow ? m.shadow.vertexCount : -1,
  };
}

const sameCounts = (a: ColCounts, b: ColCounts): boolean =>
  a.version === b.version && a.spheres === b.spheres && a.boxes === b.boxes && a.lines === b.lines && a.vertices === b.vertices &&
  a.faces === b.faces && a.faceGroups === b.faceGroups && a.shadowFaces === b.shadowFaces && a.shadowVertices === b.shadowVertices;

/** A cursor over a copy of a template; floats that are NaN keep the template's NaN bits when it has a NaN there. */
class Overlay {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  pos = 0;
  constructor(template: Uint8Array) {
    this.bytes = template.slice();
    this.view = new DataView(this.bytes.buffer);
  }
  at(p: number): this {
    this.pos = p;
    return this;
  }
  u8(v: number): this {
    this.bytes[this.pos++] = v & 0xff;
    return this;
  }
  u16(v: number): this {
    this.view.setUint16(this.pos, v & 0xffff, true);
    this.pos += 2;
    return this;
  }
  i16(v: number): this {
    return this.u16(v);
  }
  u32(v: number): this {
    this.view.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
    return this;
  }
  f32(v: number): this {
    const old = this.view.getFloat32(this.pos, true);
    if (!(v !== v && old !== old)) this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
    return this;
  }
  bytesOf(b: Uint8Array): this {
    this.bytes.set(b, this.pos);
    this.pos += b.length;
    return this;
  }
  vec(v: readonly number[]): this {
    return this.f32(v[0]!).f32(v[1]!).f32(v[2]!);
  }
  surface(s: { material: number; flag: number; brightness: number; light: number }): this {
    return this.u8(s.material).u8(s.flag).u8(s.brightness).u8(s.light);
  }
}

/**
 * A model written into its template: every field the model holds, at the template's positions. Returns null
 * when the template cannot take the model (other counts or version); throws ColWriteError for a model its
 * version cannot hold exactly (the flags excepted: they are written as they are).
 */
function referenceOverlayColModel(m: ColModel, layout: ColModelLayout): Uint8Array | null {
  validateColModel(m, false);
  if (!sameCounts(countsOf(m), layout.counts)) return null;
  if (m.version !== 1 && hasFaceGroups(m.flags, m.mesh.faceCount) !== (m.faceGroups !== null)) return null;
  const o = new Overlay(layout.template);
  o.at(8).bytesOf(m.nameBytes);
  o.at(30).u16(m.modelId);
  if (m.version === 1) {
    o.at(32).f32(m.bounds.radius).vec(m.bounds.center).vec(m.bounds.min).vec(m.bounds.max);
    o.u32(m.spheres.length);
    for (const s of m.spheres) o.f32(s.radius).vec(s.center).surface(s.surface);
    o.u32(m.lines.length / 6);
    for (let i = 0; i < m.lines.length; i++) o.f32(m.lines[i]!);
    o.u32(m.boxes.length);
    for (const b of m.boxes) o.vec(b.min).vec(b.max).surface(b.surface);
    o.u32(m.mesh.vertexCount);
    for (let i = 0; i < m.mesh.vertices.length; i++) o.f32(m.mesh.vertices[i]!);
    o.u32(m.mesh.faceCount);
    const { indices: I, surfaces: S } = m.mesh;
    for (let f = 0; f < m.mesh.faceCount; f++) o.u32(I[f * 3]!).u32(I[f * 3 + 1]!).u32(I[f * 3 + 2]!).u8(S[f * 4]!).u8(S[f * 4 + 1]!).u8(S[f * 4 + 2]!).u8(S[f * 4 + 3]!);
    return o.bytes;
  }
  o.at(32).vec(m.bounds.min).vec(m.bounds.max).vec(m.bounds.center).f32(m.bounds.radius);
  o.u16(m.spheres.length).u16(m.boxes.length).u16(m.mesh.faceCount);
  o.at(80).u32(m.flags);
  // Without a shadow mesh the count stays as the template has it (SA reads none while an offset is 0).
  if (m.shadow) o.at(108).u32(m.shadow.faceCount);
  if (m.version === 4) o.at(120).u32(m.col4Unknown);
  if (layout.spheres >= 0) {
    o.at(layout.spheres);
    for (const s of m.spheres) o.vec(s.center).f32(s.radius).surface(s.surface);
  }
  if (layout.boxes >= 0) {
    o.at(layout.boxes);
    for (const b of m.boxes) o.vec(b.min).vec(b.max).surface(b.surface);
  }
  if (layout.vertices >= 0) packedVerticesAt(o, layout.vertices, m.mesh);
  if (layout.faceGroups >= 0 && m.faceGroups) {
    o.at(layout.faceGroups);
    for (const g of m.faceGroups) o.vec(g.min).vec(g.max).u16(g.first).u16(g.last);
    o.u32(m.faceGroups.length);
  }
  if (layout.faces >= 0) packedFacesAt(o, layout.faces, m.mesh);
  if (m.shadow) {
    if (layout.shadowVertices >= 0) packedVerticesAt(o, layout.shadowVertices, m.shadow);
    packedFacesAt(o, layout.shadowFaces, m.shadow);
  }
  return o.bytes;
}

function packedVerticesAt(o: Overlay, at: number, mesh: ColMesh): void {
  o.at(at);
  for (let i = 0; i < mesh.vertices.length; i++) o.i16(mesh.vertices[i]! * 128);
}

function packedFacesAt(o: Overlay, at: number, mesh: ColMesh): void {
  o.at(at);
  const { indices: I, surfaces: S } = mesh;
  for (let f = 0; f < mesh.faceCount; f++) o.u16(I[f * 3]!).u16(I[f * 3 + 1]!).u16(I[f * 3 + 2]!).u8(S[f * 4]!).u8(S[f * 4 + 3]!);
}

/**
 * Writes models keeping a parsed file's layout: model i into layout.models[i] when its counts still fit, else
 * in the canonical layout (with its flags made canonical); models beyond the layout's are written canonically;
 * then the layout's trailing bytes. For the models a file was parsed into, unchanged, this gives the file's
 * bytes back. Throws ColWriteError for a model its version cannot hold exactly.
 */
export function referenceWriteColFileKeepingLayout(models: readonly ColModel[], layout: ColFileLayout): KeptLayoutWrite {
  const parts: Uint8Array[] = [];
  const canonical: number[] = [];
  models.forEach((m, i) => {
    const l = layout.models[i];
    const kept = l ? referenceOverlayColModel(m, l) : null;
    if (kept) parts.push(kept);
    else {
      canonical.push(i);
      parts.push(referenceWriteColModel(canonicalColModel(m)));
    }
  });
  parts.push(layout.trailing);
  let n = 0;
  for (const p of parts) n += p.length;
  const bytes = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, canonical };
}

/** The model with its flags made canonical (the only field of a parsed model the canonical writer may refuse). */
function canonicalColModel(m: ColModel): ColModel {
  const flags = canonicalFlags(m);
  return flags === m.flags ? m : { ...m, flags };
}

/**
 * The canonical writer's bytes for a parsed file: every model in the canonical layout with canonical flags,
 * then the file's trailing bytes (a sector pad is data the model keeps).
 */
export function referenceWriteColFileCanonical(file: Pick<ColFile, 'models' | 'trailing'>): Uint8Array {
  return referenceWriteColFile(file.models.map(canonicalColModel), file.trailing);
}

