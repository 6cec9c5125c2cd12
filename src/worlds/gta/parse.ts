/**
 * Reader for GTA collision files (COLL, COL2, COL3, COL4). Follows the layout in docs/formats/gta-col.md:
 * models back to back (FourCC, u32 size, next model at start + 8 + size), the walk stopping at fewer than 8
 * bytes or an unknown FourCC; COLL read sequentially by its counts; COL2+ sections found by their offsets
 * (relative to model start + 4), never by assumed order; vertex counts from the highest face index + 1; face
 * groups read backwards from the face array.
 *
 * Every section is checked to lie inside its model before anything is read or allocated for it, so a hostile
 * file gives a FormatError naming the place, never an out-of-range read or an allocation the bytes cannot back.
 */
import { FormatError } from '../../binary/format-error.js';
import type { Vec3 } from '../world.js';
import {
  COL_FLAG_FACE_GROUPS,
  COL_NAME_BYTES,
  colVersionOf,
  decodeColName,
  type ColBox,
  type ColFaceGroup,
  type ColFile,
  type ColMesh,
  type ColModel,
  type ColSphere,
  type ColSurface,
  type ColVersion,
} from './model.js';
import { checkFileBytes, checkLimit, DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { floatBits } from '../../binary/float-bits.js';

/** The format name a FormatError from the parser carries. */
export const COL_FORMAT = 'gta col';

/** Typed-array views read in the host's byte order; the fast paths use them only on little-endian hosts. */
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Bytes of the model header before the bounds: FourCC, size, name, id. */
export const MODEL_PREFIX_BYTES = 32;
/** Header bytes after the 32-byte prefix, by version (the "header size" SA and librwgta use; COLL has only bounds). */
export const HEADER_BYTES_AFTER_PREFIX: Readonly<Record<ColVersion, number>> = { 1: 40, 2: 76, 3: 88, 4: 92 };
/** COL2+ offset fields count from here: model start + 4 (just after the FourCC). */
export const OFFSET_BASE = 4;

const SPHERE_BYTES = 20;
const BOX_BYTES = 28;
const LINE_BYTES = 24;
const COLL_VERTEX_BYTES = 12;
const COLL_FACE_BYTES = 16;
const PACKED_VERTEX_BYTES = 6;
const PACKED_FACE_BYTES = 8;
const FACE_GROUP_BYTES = 28;

/**
 * Reads a whole `.col` file: models back to back while a FourCC (COLL, COL2, COL3, COL4) starts one, then the
 * trailing bytes. Throws a FormatError (format COL_FORMAT) naming the byte offset on any fault, and refuses a
 * file or a count beyond `limits`. A file that does not start with a model (an empty file, a text, a picture)
 * is a FormatError at offset 0, not an empty world.
 */
export function parseColFile(data: Uint8Array, limits: Readonly<Limits> = DEFAULT_LIMITS): ColFile {
  checkFileBytes(COL_FORMAT, data.length, limits);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const models: ColModel[] = [];
  const modelOffsets: number[] = [];
  const len = data.byteLength;
  let pos = 0;
  while (len - pos >= 8) {
    const version = colVersionOf(data[pos]!, data[pos + 1]!, data[pos + 2]!, data[pos + 3]!);
    if (version === 0) break;
    const size = view.getUint32(pos + 4, true);
    const end = pos + 8 + size;
    if (end > len) {
      throw new FormatError(COL_FORMAT, pos + 4, `model ${models.length} size ${size} runs past the end of the file (needs ${end} bytes, file has ${len})`);
    }
    checkLimit(COL_FORMAT, pos, 'models', models.length + 1, limits.gta.models, 'gta.models');
    models.push(parseColModelAt(data, view, pos, end, version));
    modelOffsets.push(pos);
    pos = end;
  }
  if (models.length === 0) {
    const what = len < 8 ? `${len} byte(s), too short for a model header` : `it starts with bytes ${Array.from(data.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ')}`;
    throw new FormatError(COL_FORMAT, 0, `no collision model (a COL file starts with the FourCC COLL, COL2, COL3 or COL4 and a size; ${what})`);
  }
  const trailing = data.slice(pos);
  let trailingZero = true;
  for (let i = 0; i < trailing.length; i++) if (trailing[i] !== 0) trailingZero = false;
  return { models, modelOffsets, trailingBytes: trailing.length, trailing, trailingZero };
}

/** Reads the one model that starts at byte `start` of `data` (its FourCC and size included). Throws FormatError. */
export function parseColModel(data: Uint8Array, start = 0): ColModel {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (start < 0 || data.byteLength - start < 8) throw new FormatError(COL_FORMAT, start, 'model header needs 8 bytes');
  const version = colVersionOf(data[start]!, data[start + 1]!, data[start + 2]!, data[start + 3]!);
  if (version === 0) throw new FormatError(COL_FORMAT, start, 'not a collision model (FourCC is not COLL, COL2, COL3 or COL4)');
  const size = view.getUint32(start + 4, true);
  const end = start + 8 + size;
  if (end > data.byteLength) throw new FormatError(COL_FORMAT, start + 4, `model size ${size} runs past the end of the data`);
  return parseColModelAt(data, view, start, end, version);
}

function parseColModelAt(data: Uint8Array, view: DataView, start: number, end: number, version: ColVersion): ColModel {
  const headerEnd = start + MODEL_PREFIX_BYTES + HEADER_BYTES_AFTER_PREFIX[version];
  if (headerEnd > end) {
    throw new FormatError(
      COL_FORMAT,
      start + 4,
      `${fourcc(version)} model size ${end - start - 8} cannot hold its ${headerEnd - start - 8}-byte header`,
    );
  }
  const nameBytes = data.slice(start + 8, start + 8 + COL_NAME_BYTES);
  const name = decodeColName(nameBytes);
  const modelId = view.getUint16(start + 30, true);
  return version === 1
    ? parseColl(data, view, start, end, name, nameBytes, modelId)
    : parseCol2Plus(data, view, start, end, headerEnd, version, name, nameBytes, modelId);
}

function fourcc(v: ColVersion): string {
  return v === 1 ? 'COLL' : `COL${v}`;
}

const f32 = (view: DataView, at: number): number => view.getFloat32(at, true);
const vec = (view: DataView, at: number): Vec3 => [f32(view, at), f32(view, at + 4), f32(view, at + 8)];
const surf = (data: Uint8Array, at: number): ColSurface => ({ material: data[at]!, flag: data[at + 1]!, brightness: data[at + 2]!, light: data[at + 3]! });

/** A u32 count at `at` whose elements of `elementBytes` must fit between `at + 4` and the model end. */
function countAt(view: DataView, at: number, end: number, elementBytes: number, what: string): number {
  if (at + 4 > end) throw new FormatError(COL_FORMAT, at, `${what} count runs past the end of the model (ends at ${end})`);
  const n = view.getUint32(at, true);
  if (n * elementBytes > end - at - 4) {
    throw new FormatError(COL_FORMAT, at, `${what} count ${n} × ${elementBytes} bytes does not fit in the ${end - at - 4} bytes left in the model`);
  }
  return n;
}

function parseColl(data: Uint8Array, view: DataView, start: number, end: number, name: string, nameBytes: Uint8Array, modelId: number): ColModel {
  let p = start + 32;
  const radius = f32(view, p);
  const center = vec(view, p + 4);
  const min = vec(view, p + 16);
  const max = vec(view, p + 28);
  p += 40;

  const nSpheres = countAt(view, p, end, SPHERE_BYTES, 'sphere');
  p += 4;
  const spheres: ColSphere[] = [];
  for (let i = 0; i < nSpheres; i++, p += SPHERE_BYTES) {
    spheres.push({ radius: f32(view, p), center: vec(view, p + 4), surface: surf(data, p + 16) });
  }

  const nLines = countAt(view, p, end, LINE_BYTES, 'line');
  p += 4;
  const lines = new Float32Array(nLines * 6);
  const lineBits = floatBits(lines); // floats as their bits (see float-bits.ts)
  for (let i = 0; i < lines.length; i++, p += 4) lineBits[i] = view.getUint32(p, true);

  const nBoxes = countAt(view, p, end, BOX_BYTES, 'box');
  p += 4;
  const boxes: ColBox[] = [];
  for (let i = 0; i < nBoxes; i++, p += BOX_BYTES) boxes.push({ min: vec(view, p), max: vec(view, p + 12), surface: surf(data, p + 24) });

  const nVerts = countAt(view, p, end, COLL_VERTEX_BYTES, 'vertex');
  p += 4;
  const vertices = new Float32Array(nVerts * 3);
  const vertexBits = floatBits(vertices);
  for (let i = 0; i < vertices.length; i++, p += 4) vertexBits[i] = view.getUint32(p, true);

  const nFaces = countAt(view, p, end, COLL_FACE_BYTES, 'face');
  p += 4;
  const indices = new Uint32Array(nFaces * 3);
  const surfaces = new Uint8Array(nFaces * 4);
  for (let f = 0; f < nFaces; f++, p += COLL_FACE_BYTES) {
    const a = view.getUint32(p, true);
    const b = view.getUint32(p + 4, true);
    const c = view.getUint32(p + 8, true);
    if (a >= nVerts || b >= nVerts || c >= nVerts) {
      throw new FormatError(COL_FORMAT, p, `face ${f} of ${JSON.stringify(name)} refers to vertex ${Math.max(a, b, c)} but the model has ${nVerts} vertices`);
    }
    indices[f * 3] = a;
    indices[f * 3 + 1] = b;
    indices[f * 3 + 2] = c;
    surfaces[f * 4] = data[p + 12]!;
    surfaces[f * 4 + 1] = data[p + 13]!;
    surfaces[f * 4 + 2] = data[p + 14]!;
    surfaces[f * 4 + 3] = data[p + 15]!;
  }
  return {
    version: 1,
    name,
    nameBytes,
    modelId,
    bounds: { min, max, center, radius },
    flags: 0,
    spheres,
    boxes,
    lines,
    mesh: { vertexCount: nVerts, vertices, faceCount: nFaces, indices, surfaces },
    faceGroups: null,
    shadow: null,
    col4Unknown: 0,
  };
}

/** Where a COL2+ section lies: absolute start and byte length (length 0 when absent). */
interface Section {
  start: number;
  bytes: number;
}

function parseCol2Plus(
  data: Uint8Array,
  view: DataView,
  start: number,
  end: number,
  headerEnd: number,
  version: ColVersion,
  name: string,
  nameBytes: Uint8Array,
  modelId: number,
): ColModel {
  const min = vec(view, start + 32);
  const max = vec(view, start + 44);
  const center = vec(view, start + 56);
  const radius = f32(view, start + 68);
  const nSpheres = view.getUint16(start + 72, true);
  const nBoxes = view.getUint16(start + 74, true);
  const nFaces = view.getUint16(start + 76, true);
  // +78 u8 line count and +79 pad: lines are never used in COL2+ files and the engine ignores them.
  const flags = view.getUint32(start + 80, true);
  const offSpheres = view.getUint32(start + 84, true);
  const offBoxes = view.getUint32(start + 88, true);
  const offVertices = view.getUint32(start + 96, true);
  const offFaces = view.getUint32(start + 100, true);
  const nShadowFaces = version >= 3 ? view.getUint32(start + 108, true) : 0;
  const offShadowVertices = version >= 3 ? view.getUint32(start + 112, true) : 0;
  const offShadowFaces = version >= 3 ? view.getUint32(start + 116, true) : 0;
  const col4Unknown = version === 4 ? view.getUint32(start + 120, true) : 0;
  const base = start + OFFSET_BASE;

  const place = (count: number, elementBytes: number, offset: number, offsetField: number, what: string): Section => {
    if (count === 0) return { start: 0, bytes: 0 };
    if (offset === 0) throw new FormatError(COL_FORMAT, start + offsetField, `${count} ${what} but the ${what} offset is 0`);
    const at = base + offset;
    const bytes = count * elementBytes;
    if (at < headerEnd || at > end || bytes > end - at) {
      throw new FormatError(COL_FORMAT, start + offsetField, `${what}: ${count} × ${elementBytes} bytes at offset ${offset} lie outside the model's data (${headerEnd - base}..${end - base})`);
    }
    return { start: at, bytes };
  };

  const sphereSec = place(nSpheres, SPHERE_BYTES, offSpheres, 84, 'spheres');
  const boxSec = place(nBoxes, BOX_BYTES, offBoxes, 88, 'boxes');
  const faceSec = place(nFaces, PACKED_FACE_BYTES, offFaces, 100, 'faces');

  const spheres: ColSphere[] = [];
  for (let i = 0, p = sphereSec.start; i < nSpheres; i++, p += SPHERE_BYTES) {
    spheres.push({ center: vec(view, p), radius: f32(view, p + 12), surface: surf(data, p + 16) });
  }
  const boxes: ColBox[] = [];
  for (let i = 0, p = boxSec.start; i < nBoxes; i++, p += BOX_BYTES) boxes.push({ min: vec(view, p), max: vec(view, p + 12), surface: surf(data, p + 24) });

  // Face groups sit just before the faces: groups, then their u32 count, then the faces (reference B5).
  let faceGroups: ColFaceGroup[] | null = null;
  let groupBlock: Section = { start: 0, bytes: 0 };
  if (hasFaceGroups(flags, nFaces)) {
    const countPos = faceSec.start - 4;
    if (countPos < headerEnd) throw new FormatError(COL_FORMAT, faceSec.start, 'face-group count would lie inside the header');
    const nGroups = view.getUint32(countPos, true);
    if (nGroups * FACE_GROUP_BYTES > countPos - headerEnd) {
      throw new FormatError(COL_FORMAT, countPos, `face-group count ${nGroups} × ${FACE_GROUP_BYTES} bytes does not fit between the header and the faces`);
    }
    const first = countPos - nGroups * FACE_GROUP_BYTES;
    groupBlock = { start: first, bytes: countPos + 4 - first };
    faceGroups = [];
    for (let g = 0, p = first; g < nGroups; g++, p += FACE_GROUP_BYTES) {
      const a = view.getUint16(p + 24, true);
      const b = view.getUint16(p + 26, true);
      if (a > b || b >= nFaces) throw new FormatError(COL_FORMAT, p + 24, `face group ${g} covers faces ${a}..${b} but the model has ${nFaces} faces`);
      faceGroups.push({ min: vec(view, p), max: vec(view, p + 12), first: a, last: b });
    }
  }

  const shadowPresent = hasShadowMesh(version, nShadowFaces, offShadowVertices, offShadowFaces);
  const shadowFaceSec = shadowPresent ? place(nShadowFaces, PACKED_FACE_BYTES, offShadowFaces, 116, 'shadow faces') : { start: 0, bytes: 0 };

  // Every section start, so that a vertex array can be checked not to run into the next section.
  const starts = [sphereSec.start, boxSec.start, faceSec.start, groupBlock.start, shadowFaceSec.start];
  if (offShadowVertices !== 0 && shadowPresent) starts.push(base + offShadowVertices);
  if (offVertices !== 0 && nFaces > 0) starts.push(base + offVertices);

  const mesh = readPackedMesh(data, view, faceSec.start, nFaces, offVertices, base, headerEnd, end, starts, 96, start, 'vertices');
  const shadow = shadowPresent
    ? readPackedMesh(data, view, shadowFaceSec.start, nShadowFaces, offShadowVertices, base, headerEnd, end, starts, 112, start, 'shadow vertices')
    : null;

  return {
    version,
    name,
    nameBytes,
    modelId,
    bounds: { min, max, center, radius },
    flags,
    spheres,
    boxes,
    lines: new Float32Array(0),
    mesh,
    faceGroups,
    shadow,
    col4Unknown,
  };
}

/** Face groups are read only when the header says so (flag 8) and there are faces to find them by. */
export function hasFaceGroups(flags: number, faceCount: number): boolean {
  return (flags & COL_FLAG_FACE_GROUPS) !== 0 && faceCount > 0;
}

/**
 * SA's rule for a shadow mesh: a COL3+ model has one when its shadow face count and both shadow offsets are
 * non-zero. The flag bit 16 is kept as stored but does not decide (the engine does not look at it for this).
 */
export function hasShadowMesh(version: ColVersion, nShadowFaces: number, offShadowVertices: number, offShadowFaces: number): boolean {
  return version >= 3 && nShadowFaces > 0 && offShadowVertices !== 0 && offShadowFaces !== 0;
}

function readPackedMesh(
  data: Uint8Array,
  view: DataView,
  faceStart: number,
  nFaces: number,
  offVertices: number,
  base: number,
  headerEnd: number,
  end: number,
  sectionStarts: number[],
  offsetField: number,
  modelStart: number,
  what: string,
): ColMesh {
  const indices = new Uint32Array(nFaces * 3);
  const surfaces = new Uint8Array(nFaces * 4);
  let maxIndex = -1;
  if (LITTLE_ENDIAN_HOST && ((data.byteOffset + faceStart) & 1) === 0) {
    // Fast path: read the u16 fields through an aligned view (same values as the DataView path below).
    const h = new Uint16Array(data.buffer, data.byteOffset + faceStart, nFaces * 4);
    for (let f = 0; f < nFaces; f++) {
      const a = h[f * 4]!, b = h[f * 4 + 1]!, c = h[f * 4 + 2]!, ml = h[f * 4 + 3]!;
      indices[f * 3] = a;
      indices[f * 3 + 1] = b;
      indices[f * 3 + 2] = c;
      surfaces[f * 4] = ml & 0xff;
      surfaces[f * 4 + 3] = ml >>> 8;
      if (a > maxIndex) maxIndex = a;
      if (b > maxIndex) maxIndex = b;
      if (c > maxIndex) maxIndex = c;
    }
  } else for (let f = 0, p = faceStart; f < nFaces; f++, p += PACKED_FACE_BYTES) {
    const a = view.getUint16(p, true);
    const b = view.getUint16(p + 2, true);
    const c = view.getUint16(p + 4, true);
    indices[f * 3] = a;
    indices[f * 3 + 1] = b;
    indices[f * 3 + 2] = c;
    surfaces[f * 4] = data[p + 6]!;
    surfaces[f * 4 + 3] = data[p + 7]!;
    if (a > maxIndex) maxIndex = a;
    if (b > maxIndex) maxIndex = b;
    if (c > maxIndex) maxIndex = c;
  }
  const vertexCount = maxIndex + 1;
  const vertices = new Float32Array(vertexCount * 3);
  if (vertexCount > 0) {
    if (offVertices === 0) throw new FormatError(COL_FORMAT, modelStart + offsetField, `${nFaces} faces but the ${what} offset is 0`);
    const at = base + offVertices;
    if (at < headerEnd || at >= end) throw new FormatError(COL_FORMAT, modelStart + offsetField, `${what} offset ${offVertices} lies outside the model's data`);
    // The vertices end where the next section starts (or at the model end); the faces must not ask for more.
    let limit = end;
    for (const s of sectionStarts) if (s > at && s < limit) limit = s;
    const room = Math.floor((limit - at) / PACKED_VERTEX_BYTES);
    if (vertexCount > room) {
      throw new FormatError(COL_FORMAT, faceStart, `a face refers to vertex ${maxIndex} but only ${room} ${what} fit at offset ${offVertices} before the next section`);
    }
    if (LITTLE_ENDIAN_HOST && ((data.byteOffset + at) & 1) === 0) {
      const h = new Int16Array(data.buffer, data.byteOffset + at, vertices.length);
      for (let i = 0; i < vertices.length; i++) vertices[i] = h[i]! / 128;
    } else for (let i = 0, p = at; i < vertices.length; i++, p += 2) vertices[i] = view.getInt16(p, true) / 128;
  }
  return { vertexCount, vertices, faceCount: nFaces, indices, surfaces };
}
