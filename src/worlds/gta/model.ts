/**
 * The in-memory form of a GTA collision file (.col): models of version 1 (COLL, GTA III / Vice City), 2 (COL2,
 * San Andreas PS2), 3 (COL3, San Andreas PC/Xbox) and 4 (COL4, an abandoned variant: COL3 plus four header bytes).
 *
 * Units are the game's (metres), z points up. Vertex and face data live in typed arrays so that a 4,000-face
 * model parses without allocating an object per face. Every field that the file stores is kept, so that a
 * parsed model written back gives the same bytes when the file used the canonical layout (docs/formats/gta-col.md).
 */
import type { Vec3 } from '../world.js';

/** A model's version: 1 COLL (GTA III, Vice City), 2 COL2 (San Andreas PS2), 3 COL3 (San Andreas PC/Xbox), 4 COL4. */
export type ColVersion = 1 | 2 | 3 | 4;

/** The FourCC that starts a model of each version. */
export const COL_FOURCC: Readonly<Record<ColVersion, string>> = { 1: 'COLL', 2: 'COL2', 3: 'COL3', 4: 'COL4' };

/** The version a FourCC names, or 0 when it is none of the four (the file walk stops there). */
export function colVersionOf(b0: number, b1: number, b2: number, b3: number): ColVersion | 0 {
  if (b0 !== 0x43 || b1 !== 0x4f || b2 !== 0x4c) return 0; // "COL"
  if (b3 === 0x4c) return 1; // 'L'
  if (b3 === 0x32) return 2;
  if (b3 === 0x33) return 3;
  if (b3 === 0x34) return 4;
  return 0;
}

/** Bytes in the name field (NUL-terminated, tools leave junk after the NUL: it is kept). */
export const COL_NAME_BYTES = 22;

/**
 * Flag bits of the COL2+ header (u32 at model +80). Bit 0 ("cones/disks instead of lines") is forced off by the
 * engine on load and other bits are unused; the writer keeps whatever the model holds in them.
 */
export const COL_FLAG_NOT_EMPTY = 2;
export const COL_FLAG_FACE_GROUPS = 8;
export const COL_FLAG_SHADOW_MESH = 16;

/** A surface: u8 material (SA surface id), u8 flag ("piece"), u8 brightness, u8 light (day | night << 4). */
export interface ColSurface {
  material: number;
  flag: number;
  brightness: number;
  light: number;
}

/** A collision sphere in model space. */
export interface ColSphere {
  center: Vec3;
  radius: number;
  surface: ColSurface;
}

/** An axis-aligned box in model space. */
export interface ColBox {
  min: Vec3;
  max: Vec3;
  surface: ColSurface;
}

/**
 * A triangle mesh. COLL stores float vertices and 16-byte faces (u32 indices + a 4-byte surface); COL2+ store
 * int16 vertices (value / 128) and 8-byte faces (u16 indices, material, light). Here both use the same arrays:
 * `surfaces` holds 4 bytes per face in COLL order (material, flag, brightness, light); for COL2+ faces the
 * middle two are always 0 because the file has no room for them.
 */
export interface ColMesh {
  vertexCount: number;
  /** x, y, z per vertex (float32 values). For COL2+ each is exactly an int16 / 128, as the file stores it. */
  vertices: Float32Array;
  faceCount: number;
  /** a, b, c per face. */
  indices: Uint32Array;
  /** material, flag, brightness, light per face. */
  surfaces: Uint8Array;
}

/** A COL2+ face group: the faces first..last (both inclusive) and a box around them, in model space. */
export interface ColFaceGroup {
  min: Vec3;
  max: Vec3;
  first: number;
  last: number;
}

/** The model's bounds: a box and a sphere (COLL stores the sphere first, COL2+ the box first). */
export interface ColBounds {
  min: Vec3;
  max: Vec3;
  center: Vec3;
  radius: number;
}

/** One collision model: its name and bounds, and its spheres, boxes, mesh, face groups and shadow mesh. */
export interface ColModel {
  version: ColVersion;
  /** The name up to the first NUL, each byte read as Latin-1 (ASCII names read as themselves). */
  name: string;
  /** All 22 name bytes as stored, junk after the NUL included. */
  nameBytes: Uint8Array;
  /** u16 game model id (often meaningless; CollEditor 2 writes 0x3244 so that bytes 28..31 read "CED2"). */
  modelId: number;
  bounds: ColBounds;
  /** COL2+ header flags as stored (0 for COLL, which has none). */
  flags: number;
  spheres: ColSphere[];
  boxes: ColBox[];
  /** COLL only: the "lines" section, 6 floats (start, end) per line; effectively always empty. */
  lines: Float32Array;
  mesh: ColMesh;
  /** COL2+: the face groups when the header flags say so (null when there is no face-group block). */
  faceGroups: ColFaceGroup[] | null;
  /** COL3+: the shadow mesh (not solid), or null. */
  shadow: ColMesh | null;
  /** COL4 only: the unknown u32 at the end of the header (0 otherwise). */
  col4Unknown: number;
}

/** A parsed `.col` file: its models in file order, and whatever followed the last one. */
export interface ColFile {
  models: ColModel[];
  /** Where each model starts in the file. */
  modelOffsets: number[];
  /** Bytes after the last model (zero padding to a 2048-byte sector in files taken from IMG archives). */
  trailingBytes: number;
  /** Those bytes, kept so that the file can be written back as it was. */
  trailing: Uint8Array;
  /** True when every trailing byte is zero (anything else is probably a model the walk could not recognise). */
  trailingZero: boolean;
}

/** A mesh with no vertices and no faces. */
export function emptyMesh(): ColMesh {
  return { vertexCount: 0, vertices: new Float32Array(0), faceCount: 0, indices: new Uint32Array(0), surfaces: new Uint8Array(0) };
}

/** A surface from its four bytes: material (an SA surface id), flag, brightness and light (day | night << 4). */
export function surface(material = 0, flag = 0, brightness = 0, light = 0): ColSurface {
  return { material, flag, brightness, light };
}

/** Decodes a name field: bytes up to the first NUL, each as Latin-1 (so non-ASCII names survive unchanged). */
export function decodeColName(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0) break;
    s += String.fromCharCode(b);
  }
  return s;
}

/** The 22 name bytes for a string: Latin-1, NUL-padded. Throws for characters outside Latin-1 or a name too long. */
export function encodeColName(name: string): Uint8Array {
  if (name.length > COL_NAME_BYTES - 1) throw new RangeError(`collision model name ${JSON.stringify(name)} is longer than ${COL_NAME_BYTES - 1} bytes`);
  const out = new Uint8Array(COL_NAME_BYTES);
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 0 || c > 0xff) throw new RangeError(`collision model name ${JSON.stringify(name)} has a character outside Latin-1`);
    out[i] = c;
  }
  return out;
}

/** Case-insensitive name key, as SA compares model names (it hashes the upper-cased name). */
export function colNameKey(name: string): string {
  return name.toUpperCase();
}

/**
 * The flags a canonical writer sets (reference B6): "not empty" when there are spheres, boxes or faces, "face
 * groups" when a face-group block exists, "shadow mesh" when a COL3+ model has one. Other bits pass through.
 */
export function canonicalFlags(m: Pick<ColModel, 'version' | 'flags' | 'spheres' | 'boxes' | 'mesh' | 'faceGroups' | 'shadow'>): number {
  if (m.version === 1) return 0;
  let f = m.flags & ~(COL_FLAG_NOT_EMPTY | COL_FLAG_FACE_GROUPS | COL_FLAG_SHADOW_MESH);
  if (m.spheres.length > 0 || m.boxes.length > 0 || m.mesh.faceCount > 0) f |= COL_FLAG_NOT_EMPTY;
  if (m.faceGroups !== null) f |= COL_FLAG_FACE_GROUPS;
  if (m.version >= 3 && m.shadow !== null) f |= COL_FLAG_SHADOW_MESH;
  return f >>> 0;
}

/**
 * COL2+ vertex compression: value × 128 truncated toward zero to an int16, as SA's CompressVector (a C cast) and
 * DragonFF (int()) do. Out-of-range values saturate here rather than wrap (the file cannot hold them either way).
 */
export function packVertexComponent(x: number): number {
  const v = Math.trunc(x * 128) + 0; // + 0 turns −0 into 0: the int16 has no negative zero
  if (v !== v) return 0;
  return v < -32768 ? -32768 : v > 32767 ? 32767 : v;
}

/** True when a float is exactly an int16 / 128, so a COL2+ file stores it without loss (−0 is not: it reads back as 0). */
export function isPackable(x: number): boolean {
  if (x === 0) return !Object.is(x, -0);
  const v = x * 128;
  return Number.isInteger(v) && v >= -32768 && v <= 32767;
}

/** The int16 triplets a COL2+ file stores for a mesh's vertices. */
export function packedVertices(mesh: ColMesh): Int16Array {
  const out = new Int16Array(mesh.vertexCount * 3);
  for (let i = 0; i < out.length; i++) out[i] = packVertexComponent(mesh.vertices[i]!);
  return out;
}

/** The highest face index + 1 (0 for no faces): COL2+ files store no vertex count, so this is it. */
export function referencedVertexCount(indices: Uint32Array, faceCount: number): number {
  let max = -1;
  const n = faceCount * 3;
  for (let i = 0; i < n; i++) if (indices[i]! > max) max = indices[i]!;
  return max + 1;
}

/**
 * A copy of a model made representable in another version: vertices packed (truncated) for COL2+, face
 * flag/brightness dropped for COL2+, lines dropped above COLL, face groups dropped for COLL, the shadow mesh
 * dropped below COL3, unreferenced vertices dropped for COL2+, flags made canonical.
 */
export function convertModel(m: ColModel, version: ColVersion): ColModel {
  const compact = version >= 2;
  const mesh = convertMesh(m.mesh, compact);
  const shadow = version >= 3 && m.shadow ? convertMesh(m.shadow, true) : null;
  const out: ColModel = {
    version,
    name: m.name,
    nameBytes: m.nameBytes.slice(),
    modelId: m.modelId,
    bounds: { min: [...m.bounds.min], max: [...m.bounds.max], center: [...m.bounds.center], radius: m.bounds.radius },
    flags: version === 1 ? 0 : m.flags,
    spheres: m.spheres.map((s) => ({ center: [...s.center], radius: s.radius, surface: { ...s.surface } })),
    boxes: m.boxes.map((b) => ({ min: [...b.min], max: [...b.max], surface: { ...b.surface } })),
    lines: version === 1 ? m.lines.slice() : new Float32Array(0),
    mesh,
    faceGroups: version >= 2 && m.faceGroups && mesh.faceCount > 0 ? m.faceGroups.map((g) => ({ min: [...g.min], max: [...g.max], first: g.first, last: g.last })) : null,
    shadow,
    col4Unknown: version === 4 ? m.col4Unknown : 0,
  };
  out.flags = canonicalFlags(out);
  return out;
}

function convertMesh(mesh: ColMesh, compact: boolean): ColMesh {
  if (!compact) return { ...mesh, vertices: mesh.vertices.slice(), indices: mesh.indices.slice(), surfaces: mesh.surfaces.slice() };
  const vertexCount = referencedVertexCount(mesh.indices, mesh.faceCount);
  const vertices = new Float32Array(vertexCount * 3);
  for (let i = 0; i < vertices.length; i++) vertices[i] = packVertexComponent(mesh.vertices[i]!) / 128;
  const surfaces = mesh.surfaces.slice();
  for (let f = 0; f < mesh.faceCount; f++) {
    surfaces[f * 4 + 1] = 0;
    surfaces[f * 4 + 2] = 0;
  }
  return { vertexCount, vertices, faceCount: mesh.faceCount, indices: mesh.indices.slice(), surfaces };
}

/** A new model with nothing in it (all sections empty, canonical flags). */
export function emptyModel(version: ColVersion, name: string, modelId = 0): ColModel {
  const m: ColModel = {
    version,
    name,
    nameBytes: encodeColName(name),
    modelId,
    bounds: { min: [0, 0, 0], max: [0, 0, 0], center: [0, 0, 0], radius: 0 },
    flags: 0,
    spheres: [],
    boxes: [],
    lines: new Float32Array(0),
    mesh: emptyMesh(),
    faceGroups: null,
    shadow: null,
    col4Unknown: 0,
  };
  return m;
}
