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
 *
 * Like the parser, the writer works on typed arrays without an object per element: every model is checked, its
 * exact size in the canonical layout added up, then one zeroed buffer is allocated and each field stored at its
 * place through a DataView, the packed vertex and face arrays a word at a time through 32-bit views where the
 * host order and the alignment allow. The rules on each index, vertex and face are checked in the same loops
 * that store them; a fault sends the models through validateColModel, which names it.
 */
import type { Vec3 } from '../world.js';
import { COL_FOURCC, COL_NAME_BYTES, canonicalFlags, type ColFile, type ColMesh, type ColModel, type ColSurface } from './model.js';
import { HEADER_BYTES_AFTER_PREFIX, MODEL_PREFIX_BYTES, OFFSET_BASE } from './parse.js';
import { floatBits } from '../../binary/float-bits.js';

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
  // Every model is checked (its mesh elements aside) and its size added up; then the one buffer is written, the
  // mesh elements checked as they are stored. On any fault every rule runs again, model after model, so that the
  // error names the first fault in model order, whichever check noticed a fault first.
  let size = trailing.length;
  try {
    for (let i = 0; i < models.length; i++) {
      const m = models[i]!;
      checkColModel(m, true, false);
      size += canonicalColModelBytes(m);
    }
  } catch (e) {
    refuse(models, e);
  }
  const out = new ColOut(new Uint8Array(size));
  let at = 0;
  for (let i = 0; i < models.length; i++) {
    at = writeCanonicalModelAt(out, at, models[i]!);
    if (at < 0) refuse(models, null);
  }
  out.bytes.set(trailing, at);
  return out.bytes;
}

/** Writes a parsed file back: its models and its trailing bytes. */
export function writeColFileOf(file: Pick<ColFile, 'models' | 'trailing'>): Uint8Array {
  return writeColFile(file.models, file.trailing);
}

/** Writes one model in the canonical layout of its version. Throws ColWriteError when the version cannot hold it exactly. */
export function writeColModel(m: ColModel): Uint8Array {
  return writeColFile([m]);
}

/** A check refused a model: every rule, model after model, throws the first fault (else `cause` is rethrown). */
function refuse(models: readonly ColModel[], cause: unknown): never {
  for (let i = 0; i < models.length; i++) validate(models[i]!);
  throw cause ?? new Error('internal: the GTA COL writer refused models that validateColModel accepts');
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

// The same rules as the checks above, as tests that build no message: the loops over spheres, boxes and face
// groups use them, and call the checks (which name the element) only for a value they refuse.
const isF32 = (x: number): boolean => x !== x || Math.fround(x) === x;
const isF32Vec = (v: Vec3): boolean => isF32(v[0]) && isF32(v[1]) && isF32(v[2]);
const isByte = (v: number): boolean => (v & 0xff) === v;
const isSurface = (s: ColSurface): boolean => isByte(s.material) && isByte(s.flag) && isByte(s.brightness) && isByte(s.light);

/**
 * Checks that a model's version can hold it exactly (the rules writeColModel applies) and throws ColWriteError
 * naming the model and the value when it cannot. With `canonicalFlagsOnly` false the flags may be any u32 (a
 * layout-keeping write stores them as they are); the writer itself always requires the canonical flags.
 */
export function validateColModel(m: ColModel, canonicalFlagsOnly = true): void {
  validate(m, canonicalFlagsOnly, true);
}

/**
 * validateColModel with `elements` false leaving out the rules on each index, vertex and face of a mesh (in
 * range, the COL2+ vertex count, int16 / 128 values, no flag or brightness bytes), which the array writers below
 * check as they store them. The rules run in one order, so the first fault is the one named.
 */
export function checkColModel(m: ColModel, canonicalFlagsOnly: boolean, elements: boolean): void {
  validate(m, canonicalFlagsOnly, elements);
}

function validate(m: ColModel, canonicalFlagsOnly = true, elements = true): void {
  if (m.nameBytes.length !== COL_NAME_BYTES) fail(m, `name bytes must be ${COL_NAME_BYTES}, got ${m.nameBytes.length}`);
  if (!Number.isInteger(m.modelId) || m.modelId < 0 || m.modelId > 0xffff) fail(m, `model id ${m.modelId} is not a u16`);
  checkVec(m, m.bounds.min, 'bounds min');
  checkVec(m, m.bounds.max, 'bounds max');
  checkVec(m, m.bounds.center, 'bounds centre');
  checkF32(m, m.bounds.radius, 'bounds radius');
  const spheres = m.spheres;
  for (let i = 0; i < spheres.length; i++) {
    const s = spheres[i]!;
    if (!isF32Vec(s.center)) checkVec(m, s.center, `sphere ${i} centre`);
    if (!isF32(s.radius)) checkF32(m, s.radius, `sphere ${i} radius`);
    if (!isSurface(s.surface)) checkSurface(m, s.surface, `sphere ${i}`);
  }
  const boxes = m.boxes;
  for (let i = 0; i < boxes.length; i++) {
    const b = boxes[i]!;
    if (!isF32Vec(b.min)) checkVec(m, b.min, `box ${i} min`);
    if (!isF32Vec(b.max)) checkVec(m, b.max, `box ${i} max`);
    if (!isSurface(b.surface)) checkSurface(m, b.surface, `box ${i}`);
  }
  checkMesh(m, m.mesh, 'mesh', elements);
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
  if (m.shadow) checkMesh(m, m.shadow, 'shadow mesh', elements);
  if (m.shadow && m.shadow.faceCount === 0) fail(m, 'a shadow mesh needs faces (SA treats an empty one as absent)');
  const groups = m.faceGroups;
  if (groups !== null) {
    const nf = m.mesh.faceCount;
    if (nf === 0) fail(m, 'face groups need faces: they are found from the face offset');
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i]!;
      if (!isF32Vec(g.min)) checkVec(m, g.min, `face group ${i} min`);
      if (!isF32Vec(g.max)) checkVec(m, g.max, `face group ${i} max`);
      if (!Number.isInteger(g.first) || !Number.isInteger(g.last) || g.first < 0 || g.first > g.last || g.last >= nf) {
        fail(m, `face group ${i} covers faces ${g.first}..${g.last} of ${nf}`);
      }
    }
  }
  if (!Number.isInteger(m.flags) || m.flags < 0 || m.flags > 0xffffffff) fail(m, `flags ${m.flags} are not a u32`);
  if (canonicalFlagsOnly && m.flags !== canonicalFlags(m)) fail(m, `flags ${m.flags} are not the canonical ${canonicalFlags(m)} for its contents`);
}

function checkMesh(m: ColModel, mesh: ColMesh, what: string, elements: boolean): void {
  const nf = mesh.faceCount;
  const nv = mesh.vertexCount;
  if (mesh.vertices.length !== nv * 3) fail(m, `${what} has ${mesh.vertices.length} vertex floats for ${nv} vertices`);
  if (mesh.indices.length !== nf * 3 || mesh.surfaces.length !== nf * 4) fail(m, `${what} face arrays do not match ${nf} faces`);
  if (!elements) {
    if (m.version !== 1 && nv > 0x10000) fail(m, `${what} has more vertices than u16 indices reach`);
    return;
  }
  // One pass over the indices: in range, and the highest (COL2+ stores no vertex count: it is that + 1).
  const I = mesh.indices;
  const ni = nf * 3;
  let max = -1;
  for (let i = 0; i < ni; i++) {
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
    if (!packs(x)) fail(m, `${what} vertex ${Math.floor(i / 3)} value ${x} is not an int16 / 128`);
  }
  const S = mesh.surfaces;
  for (let f = 0; f < nf; f++) {
    if ((S[f * 4 + 1]! | S[f * 4 + 2]!) !== 0) fail(m, `${what} face ${f} has flag/brightness bytes COL2+ faces cannot hold`);
  }
}

/**
 * True when a float is exactly an int16 / 128 and not −0 (it reads back as 0): isPackable in model.ts, in the
 * form the loops use (`k === v` fails for a fraction, NaN, ±Infinity and values beyond int32).
 */
function packs(x: number): boolean {
  const v = x * 128;
  const k = v | 0;
  return k === v && k >= -32768 && k <= 32767 && (k !== 0 || 1 / x > 0);
}

/** Typed-array views work in the host's byte order; the fast paths take them only on little-endian hosts. */
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * A buffer being written and its views, made once per buffer: a DataView for the fields, and on a little-endian
 * host 16- and 32-bit views over the whole buffer for the packed arrays at aligned offsets (the DataView serves
 * elsewhere).
 */
export class ColOut {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly i16: Int16Array | null;
  readonly u16: Uint16Array | null;
  readonly u32: Uint32Array | null;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Offsets within the views are found with >>> (a buffer of 4 GiB or more is written through the DataView).
    const n = bytes.byteLength;
    const views = LITTLE_ENDIAN_HOST && n <= 0xffffffff;
    const even = views && (bytes.byteOffset & 1) === 0;
    this.i16 = even ? new Int16Array(bytes.buffer, bytes.byteOffset, n >>> 1) : null;
    this.u16 = even ? new Uint16Array(bytes.buffer, bytes.byteOffset, n >>> 1) : null;
    this.u32 = views && (bytes.byteOffset & 3) === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, n >>> 2) : null;
  }
}

const SPHERE_BYTES = 20;
const BOX_BYTES = 28;
const FACE_GROUP_BYTES = 28;
const PACKED_FACE_BYTES = 8;
const COLL_FACE_BYTES = 16;
/** COLL's five u32 counts (spheres, lines, boxes, vertices, faces). */
const COLL_COUNT_BYTES = 20;

/** Bytes of a packed vertex array of `floats` components in the canonical layout: 2 each, padded to VERTEX_ARRAY_ALIGN. */
function paddedVertexBytes(floats: number): number {
  const r = (floats * 2) % VERTEX_ARRAY_ALIGN;
  return floats * 2 + (r === 0 ? 0 : VERTEX_ARRAY_ALIGN - r);
}

/** A model's size in the canonical layout, FourCC and size field included (for a model validateColModel accepts). */
export function canonicalColModelBytes(m: ColModel): number {
  const fixed = MODEL_PREFIX_BYTES + HEADER_BYTES_AFTER_PREFIX[m.version] + m.spheres.length * SPHERE_BYTES + m.boxes.length * BOX_BYTES;
  if (m.version === 1) return fixed + COLL_COUNT_BYTES + m.lines.length * 4 + m.mesh.vertices.length * 4 + m.mesh.faceCount * COLL_FACE_BYTES;
  let n = fixed;
  if (m.mesh.faceCount > 0) {
    n += paddedVertexBytes(m.mesh.vertices.length) + m.mesh.faceCount * PACKED_FACE_BYTES;
    if (m.faceGroups !== null) n += m.faceGroups.length * FACE_GROUP_BYTES + 4;
  }
  if (m.shadow !== null) n += paddedVertexBytes(m.shadow.vertices.length) + m.shadow.faceCount * PACKED_FACE_BYTES;
  return n;
}

function vec3At(view: DataView, p: number, v: Vec3): void {
  view.setFloat32(p, v[0], true);
  view.setFloat32(p + 4, v[1], true);
  view.setFloat32(p + 8, v[2], true);
}
function surfaceAt(bytes: Uint8Array, p: number, s: ColSurface): void {
  bytes[p] = s.material;
  bytes[p + 1] = s.flag;
  bytes[p + 2] = s.brightness;
  bytes[p + 3] = s.light;
}

/**
 * Writes a model in the canonical layout at byte `start` of a zeroed buffer with room for
 * canonicalColModelBytes(m) bytes there (the pads and the offsets of empty sections are the zeros left), for a
 * model checkColModel accepted with or without its mesh elements; those are checked here. Returns the model's
 * end, or -1 when a mesh element breaks a rule (the bytes are then of no use).
 */
export function writeCanonicalModelAt(out: ColOut, start: number, m: ColModel): number {
  const { bytes, view } = out;
  const fourcc = COL_FOURCC[m.version];
  for (let k = 0; k < 4; k++) bytes[start + k] = fourcc.charCodeAt(k);
  bytes.set(m.nameBytes, start + 8);
  view.setUint16(start + 30, m.modelId, true);
  const end = m.version === 1 ? writeCollBodyAt(out, start + MODEL_PREFIX_BYTES, m) : writeCol2PlusBodyAt(out, start, m);
  if (end >= 0) view.setUint32(start + 4, end - start - 8, true);
  return end;
}

function writeCollBodyAt(out: ColOut, at: number, m: ColModel): number {
  const { bytes, view } = out;
  let p = at;
  view.setFloat32(p, m.bounds.radius, true);
  vec3At(view, p + 4, m.bounds.center);
  vec3At(view, p + 16, m.bounds.min);
  vec3At(view, p + 28, m.bounds.max);
  p += 40;
  const spheres = m.spheres;
  view.setUint32(p, spheres.length, true);
  p += 4;
  for (let i = 0; i < spheres.length; i++, p += SPHERE_BYTES) {
    const s = spheres[i]!;
    view.setFloat32(p, s.radius, true);
    vec3At(view, p + 4, s.center);
    surfaceAt(bytes, p + 16, s.surface);
  }
  const L = m.lines;
  view.setUint32(p, L.length / 6, true);
  p += 4;
  const lineBits = floatBits(L); // floats as their bits (see float-bits.ts)
  for (let i = 0; i < lineBits.length; i++, p += 4) view.setUint32(p, lineBits[i]!, true);
  const boxes = m.boxes;
  view.setUint32(p, boxes.length, true);
  p += 4;
  for (let i = 0; i < boxes.length; i++, p += BOX_BYTES) {
    const b = boxes[i]!;
    vec3At(view, p, b.min);
    vec3At(view, p + 12, b.max);
    surfaceAt(bytes, p + 24, b.surface);
  }
  const mesh = m.mesh;
  const V = mesh.vertices;
  view.setUint32(p, mesh.vertexCount, true);
  p += 4;
  const vertexBits = floatBits(V);
  for (let i = 0; i < vertexBits.length; i++, p += 4) view.setUint32(p, vertexBits[i]!, true);
  view.setUint32(p, mesh.faceCount, true);
  p += 4;
  if (!writeCollFacesAt(out, p, mesh)) return -1;
  return p + mesh.faceCount * COLL_FACE_BYTES;
}

/**
 * Writes faces as COLL stores them (u32 a, b, c, then the four surface bytes) from byte `at`; false when an
 * index is not below the vertex count.
 */
export function writeCollFacesAt(out: ColOut, at: number, mesh: ColMesh): boolean {
  const { bytes, view } = out;
  const I = mesh.indices, S = mesh.surfaces;
  const nv = mesh.vertexCount;
  let inRange = true;
  for (let f = 0, p = at; f < mesh.faceCount; f++, p += COLL_FACE_BYTES) {
    const a = I[f * 3]!, b = I[f * 3 + 1]!, c = I[f * 3 + 2]!;
    if (a >= nv || b >= nv || c >= nv) inRange = false;
    view.setUint32(p, a, true);
    view.setUint32(p + 4, b, true);
    view.setUint32(p + 8, c, true);
    bytes[p + 12] = S[f * 4]!;
    bytes[p + 13] = S[f * 4 + 1]!;
    bytes[p + 14] = S[f * 4 + 2]!;
    bytes[p + 15] = S[f * 4 + 3]!;
  }
  return inRange;
}

function writeCol2PlusBodyAt(out: ColOut, start: number, m: ColModel): number {
  const { bytes, view } = out;
  vec3At(view, start + 32, m.bounds.min);
  vec3At(view, start + 44, m.bounds.max);
  vec3At(view, start + 56, m.bounds.center);
  view.setFloat32(start + 68, m.bounds.radius, true);
  const mesh = m.mesh;
  const spheres = m.spheres, boxes = m.boxes, groups = m.faceGroups, shadow = m.shadow;
  view.setUint16(start + 72, spheres.length, true);
  view.setUint16(start + 74, boxes.length, true);
  view.setUint16(start + 76, mesh.faceCount, true);
  // +78 the line count (never used in COL2+) and +79 its pad stay 0, as do the offsets of empty sections.
  view.setUint32(start + 80, m.flags, true);
  if (m.version >= 3 && shadow !== null) view.setUint32(start + 108, shadow.faceCount, true);
  if (m.version === 4) view.setUint32(start + 120, m.col4Unknown, true);
  const base = start + OFFSET_BASE;
  let p = start + MODEL_PREFIX_BYTES + HEADER_BYTES_AFTER_PREFIX[m.version];
  if (spheres.length > 0) {
    view.setUint32(start + 84, p - base, true);
    for (let i = 0; i < spheres.length; i++, p += SPHERE_BYTES) {
      const s = spheres[i]!;
      vec3At(view, p, s.center);
      view.setFloat32(p + 12, s.radius, true);
      surfaceAt(bytes, p + 16, s.surface);
    }
  }
  if (boxes.length > 0) {
    view.setUint32(start + 88, p - base, true);
    for (let i = 0; i < boxes.length; i++, p += BOX_BYTES) {
      const b = boxes[i]!;
      vec3At(view, p, b.min);
      vec3At(view, p + 12, b.max);
      surfaceAt(bytes, p + 24, b.surface);
    }
  }
  let ok = true;
  if (mesh.faceCount > 0) {
    view.setUint32(start + 96, p - base, true);
    ok = packVerticesAt(out, p, mesh.vertices);
    p += paddedVertexBytes(mesh.vertices.length); // the pad stays zero
    if (groups !== null) {
      for (let i = 0; i < groups.length; i++, p += FACE_GROUP_BYTES) {
        const g = groups[i]!;
        vec3At(view, p, g.min);
        vec3At(view, p + 12, g.max);
        view.setUint16(p + 24, g.first, true);
        view.setUint16(p + 26, g.last, true);
      }
      view.setUint32(p, groups.length, true);
      p += 4;
    }
    view.setUint32(start + 100, p - base, true);
    ok = packFacesAt(out, p, mesh) && ok;
    p += mesh.faceCount * PACKED_FACE_BYTES;
  } else if (mesh.vertexCount !== 0) ok = false; // the vertex count must be the highest index + 1, here 0
  if (shadow !== null) {
    view.setUint32(start + 112, p - base, true);
    ok = packVerticesAt(out, p, shadow.vertices) && ok;
    p += paddedVertexBytes(shadow.vertices.length);
    view.setUint32(start + 116, p - base, true);
    ok = packFacesAt(out, p, shadow) && ok;
    p += shadow.faceCount * PACKED_FACE_BYTES;
  }
  return ok ? p : -1;
}

/**
 * Writes vertex components as COL2+ stores them, int16 = value × 128, from byte `at`; false when one is not
 * exactly an int16 / 128 (or is −0).
 */
export function packVerticesAt(out: ColOut, at: number, V: Float32Array): boolean {
  const n = V.length;
  let exact = true;
  const w = out.u32;
  if (w !== null && (at & 3) === 0 && V instanceof Float32Array) {
    // Two components a word. −0 is found by its bits (0x80000000); k + 32768 fits 16 bits for an int16 k.
    const B = new Int32Array(V.buffer, V.byteOffset, n);
    let i = 0;
    for (let q = at >>> 2; i + 1 < n; i += 2, q++) {
      const v0 = V[i]! * 128, v1 = V[i + 1]! * 128;
      const k0 = v0 | 0, k1 = v1 | 0;
      w[q] = (k0 & 0xffff) | (k1 << 16);
      if (k0 !== v0 || k1 !== v1 || ((k0 + 32768) | (k1 + 32768)) >>> 16 !== 0 || B[i] === -0x80000000 || B[i + 1] === -0x80000000) exact = false;
    }
    if (i < n) {
      out.view.setInt16(at + 2 * i, V[i]! * 128, true);
      if (!packs(V[i]!)) exact = false;
    }
    return exact;
  }
  const h = out.i16;
  if (h !== null && (at & 1) === 0) {
    const q = at >>> 1;
    for (let i = 0; i < n; i++) {
      const x = V[i]!;
      const v = x * 128;
      const k = v | 0;
      h[q + i] = k;
      // packs(x), inlined: an int16 after × 128, and not −0.
      if (k !== v || k < -32768 || k > 32767 || (k === 0 && 1 / x < 0)) exact = false;
    }
  } else {
    const view = out.view;
    for (let i = 0; i < n; i++) {
      const x = V[i]!;
      view.setInt16(at + 2 * i, x * 128, true);
      if (!packs(x)) exact = false;
    }
  }
  return exact;
}

/**
 * Writes faces as COL2+ stores them (u16 a, b, c, then the material and light bytes) from byte `at`; false
 * unless the vertex count is the highest index + 1 (so every index is in range) and every face's flag and
 * brightness bytes are 0.
 */
export function packFacesAt(out: ColOut, at: number, mesh: ColMesh): boolean {
  const I = mesh.indices, S = mesh.surfaces;
  const n = mesh.faceCount;
  const w = out.u32;
  if (w !== null && (at & 3) === 0 && I instanceof Uint32Array && S instanceof Uint8Array && (S.byteOffset & 3) === 0) {
    // A face is two words: a | b << 16, c | material << 16 | light << 24. The indices are read as int32, so
    // that one OR shows any beyond u16 (or beyond int32), and a face's four surface bytes as one u32.
    const J = new Int32Array(I.buffer, I.byteOffset, n * 3);
    const T = new Uint32Array(S.buffer, S.byteOffset, n);
    let max = -1;
    let all = 0;
    let surfaces = 0;
    for (let f = 0, i = 0, q = at >>> 2; f < n; f++, i += 3, q += 2) {
      const a = J[i]!, b = J[i + 1]!, c = J[i + 2]!, t = T[f]!;
      w[q] = a | (b << 16);
      w[q + 1] = c | ((t & 0xff) << 16) | ((t >>> 24) << 24);
      all |= a | b | c;
      surfaces |= t;
      if (a > max) max = a;
      if (b > max) max = b;
      if (c > max) max = c;
    }
    return (all & 0xffff0000) === 0 && (surfaces & 0x00ffff00) === 0 && max + 1 === mesh.vertexCount;
  }
  const h = out.u16;
  let max = -1;
  let dropped = 0;
  if (h !== null && (at & 1) === 0) {
    for (let f = 0, q = at >>> 1; f < n; f++, q += 4) {
      const a = I[f * 3]!, b = I[f * 3 + 1]!, c = I[f * 3 + 2]!;
      h[q] = a;
      h[q + 1] = b;
      h[q + 2] = c;
      h[q + 3] = (S[f * 4]! & 0xff) | ((S[f * 4 + 3]! & 0xff) << 8);
      dropped |= S[f * 4 + 1]! | S[f * 4 + 2]!;
      if (a > max) max = a;
      if (b > max) max = b;
      if (c > max) max = c;
    }
  } else {
    const { bytes, view } = out;
    for (let f = 0, p = at; f < n; f++, p += PACKED_FACE_BYTES) {
      const a = I[f * 3]!, b = I[f * 3 + 1]!, c = I[f * 3 + 2]!;
      view.setUint16(p, a, true);
      view.setUint16(p + 2, b, true);
      view.setUint16(p + 4, c, true);
      bytes[p + 6] = S[f * 4]!;
      bytes[p + 7] = S[f * 4 + 3]!;
      dropped |= S[f * 4 + 1]! | S[f * 4 + 2]!;
      if (a > max) max = a;
      if (b > max) max = b;
      if (c > max) max = c;
    }
  }
  return dropped === 0 && max + 1 === mesh.vertexCount;
}
