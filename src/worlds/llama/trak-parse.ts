import { BinaryReader } from '../../binary/reader.js';
import { FormatError } from '../../binary/format-error.js';
import { chunkNamed, findChunks, holdsChunk } from './chunks.js';
import { checkFileBytes, checkLimit, DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { floatBits } from '../../binary/float-bits.js';

/** Byte sizes of the TRAK records (NEW_COLLISION variant: 0x84-byte header, 32-byte collision polygon). */
export const MODEL_HEADER_SIZE = 0x84;
export const VERTEX_SIZE = 24;
export const FACE_SIZE = 28;
export const POLYGON_SIZE = 32;
/** Planes per collision polygon: the surface plane, then four edge planes. */
export const PLANES_PER_POLYGON = 5;
/** Polygon type bit 0: a quad (4 edge planes); otherwise a triangle (3). */
export const POLYGON_QUAD = 0x01;
/** Floats in the header's bounding volume: centre (3) then 8 corners (24). */
export const BBOX_FLOATS = 27;

/** Face flag bits (the seed's table). */
export const FACE_BATCH_START = 0x0008;
export const FACE_SECOND_HALF = 0x0010;
export const FACE_MIRRORED = 0x0020;
export const FACE_DOUBLE_SIDED = 0x0400;
export const FACE_QUAD_HALF = 0x0800;
export const FACE_IGNORE_COLOURS = 0x4000;
/** Engine limit on vertices per model (the seed's writing checklist: ≤ 8000). */
export const MAX_MODEL_VERTICES = 8000;
/** A render batch must restart (flag 0x0008) at the latest every this many faces. */
export const MAX_BATCH_FACES = 256;

/** Polygon groups, in file order: all floors, then all ceilings, then all walls. */
export const enum PolygonKind {
  Floor = 0,
  Ceiling = 1,
  Wall = 2,
}

/** One tile model. Arrays are flat: record i's fields are at i·stride. */
export interface TrakModel {
  /** Header bounding volume: centre x, y, z, then 8 corners (export space). */
  bbox: Float32Array;
  /** Header words that are runtime pointers (0 in files) and padding, kept for exact round trips. */
  vertexPointer: number;
  facePointer: number;
  headerPad: number;
  polygonPointer: number;
  /** x, y, z, nx, ny, nz per vertex (export space, tile-local). */
  vertices: Float32Array;
  faceFlags: Uint16Array;
  /** v0, v1, v2 per face. */
  faceVertices: Uint16Array;
  faceTexture: Uint16Array;
  facePad: Uint16Array;
  /** nx, ny, nz, d per face. */
  facePlanes: Float32Array;
  floorCount: number;
  ceilingCount: number;
  wallCount: number;
  /** Per polygon: type byte and material byte. */
  polygonType: Uint8Array;
  polygonMaterial: Uint8Array;
  /** Per polygon, 5 planes × (nx, ny, nz), raw ×127/×128. */
  planeNormals: Int8Array;
  /** Per polygon, 5 planes × the "flags" byte (0 in the data seen). */
  planeFlags: Uint8Array;
  /** Per polygon, 5 planes × d in 4.12, tile-local. */
  planeD: Int16Array;
  /** File offsets, for messages. */
  headerOffset: number;
  dataOffset: number;
}

/** A parsed TRAK chunk: the tile models, in file order (a MAP names them by index). */
export interface Trak {
  models: TrakModel[];
  /** File offset of the TRAK payload. */
  payloadOffset: number;
}

export function polygonCount(m: TrakModel): number {
  return m.floorCount + m.ceilingCount + m.wallCount;
}

/** The group of polygon `i` of a model (floors first, then ceilings, then walls). */
export function polygonKind(m: TrakModel, i: number): PolygonKind {
  if (i < m.floorCount) return PolygonKind.Floor;
  if (i < m.floorCount + m.ceilingCount) return PolygonKind.Ceiling;
  return PolygonKind.Wall;
}

/** Edge planes used by polygon `i`: 4 for a quad, 3 for a triangle. */
export function polygonEdgeCount(m: TrakModel, i: number): number {
  return (m.polygonType[i]! & POLYGON_QUAD) !== 0 ? 4 : 3;
}

/** Whether the bytes hold a TRAK chunk (alone, in a chunk sequence or in a whole WAD). */
export function detectTrak(bytes: Uint8Array): boolean {
  return holdsChunk(bytes, 'llama TRAK', 'TRAK');
}

/**
 * Parses the TRAK chunk of a `.trak` file (a chunk sequence or a whole WAD). Throws a FormatError (format
 * "llama TRAK") naming the byte offset on any fault, and refuses a file or a count beyond `limits`.
 */
export function parseTrak(bytes: Uint8Array, limits: Readonly<Limits> = DEFAULT_LIMITS): Trak {
  checkFileBytes('llama TRAK', bytes.length, limits);
  const chunks = findChunks(bytes, 'llama TRAK');
  if (chunks === null) throw new FormatError('llama TRAK', 0, 'not a chunk sequence or WAD (no known chunk tag at offset 0 or 4)');
  const c = chunkNamed(chunks, 'TRAK');
  if (c === null) throw new FormatError('llama TRAK', 0, 'no TRAK chunk in the file');
  const r = new BinaryReader(bytes.subarray(0, c.payload + c.size), 'llama TRAK');
  r.seek(c.payload);
  return parseTrakPayload(r, limits);
}

/** Parses a TRAK payload from the reader's position to its end. */
export function parseTrakPayload(r: BinaryReader, limits: Readonly<Limits> = DEFAULT_LIMITS): Trak {
  const payloadOffset = r.pos;
  const n = r.u32('model count');
  r.checkCount(n, MODEL_HEADER_SIZE, 'model headers');
  checkLimit('llama TRAK', payloadOffset, 'model count', n, limits.llama.models, 'llama.models');
  const models: TrakModel[] = [];
  const counts: number[] = [];
  for (let i = 0; i < n; i++) {
    const headerOffset = r.pos;
    const bbox = new Float32Array(BBOX_FLOATS);
    const bboxBits = floatBits(bbox);
    for (let k = 0; k < BBOX_FLOATS; k++) bboxBits[k] = r.f32bits('model bounding volume');
    const vertexCount = r.u16('vertex count');
    const faceCount = r.u16('face count');
    const vertexPointer = r.u32('vertex pointer');
    const facePointer = r.u32('face pointer');
    const floorCount = r.u16('floor polygon count');
    const ceilingCount = r.u16('ceiling polygon count');
    const wallCount = r.u16('wall polygon count');
    const headerPad = r.u16('header padding');
    const polygonPointer = r.u32('polygon pointer');
    counts.push(vertexCount, faceCount);
    models.push({
      bbox, vertexPointer, facePointer, headerPad, polygonPointer, floorCount, ceilingCount, wallCount, headerOffset, dataOffset: 0,
      vertices: new Float32Array(0),
      faceFlags: new Uint16Array(0), faceVertices: new Uint16Array(0), faceTexture: new Uint16Array(0),
      facePad: new Uint16Array(0), facePlanes: new Float32Array(0),
      polygonType: new Uint8Array(0), polygonMaterial: new Uint8Array(0), planeNormals: new Int8Array(0), planeFlags: new Uint8Array(0),
      planeD: new Int16Array(0),
    });
  }
  // Arrays are allocated only after the bytes they describe are known to exist.
  for (let i = 0; i < n; i++) {
    const m = models[i]!;
    m.dataOffset = r.pos;
    const v = counts[i * 2]!;
    r.checkCount(v, VERTEX_SIZE, `model ${i} vertices`);
    m.vertices = new Float32Array(v * 6);
    const vertexBits = floatBits(m.vertices);
    for (let k = 0; k < v * 6; k++) vertexBits[k] = r.f32bits(`model ${i} vertex`);
    const t = counts[i * 2 + 1]!;
    r.checkCount(t, FACE_SIZE, `model ${i} faces`);
    m.faceFlags = new Uint16Array(t);
    m.faceVertices = new Uint16Array(t * 3);
    m.faceTexture = new Uint16Array(t);
    m.facePad = new Uint16Array(t);
    m.facePlanes = new Float32Array(t * 4);
    const planeBits = floatBits(m.facePlanes);
    for (let f = 0; f < t; f++) {
      m.faceFlags[f] = r.u16(`model ${i} face flags`);
      m.faceVertices[f * 3] = r.u16(`model ${i} face vertex`);
      m.faceVertices[f * 3 + 1] = r.u16(`model ${i} face vertex`);
      m.faceVertices[f * 3 + 2] = r.u16(`model ${i} face vertex`);
      m.faceTexture[f] = r.u16(`model ${i} face texture`);
      m.facePad[f] = r.u16(`model ${i} face padding`);
      for (let k = 0; k < 4; k++) planeBits[f * 4 + k] = r.f32bits(`model ${i} face plane`);
    }
    const p = polygonCount(m);
    r.checkCount(p, POLYGON_SIZE, `model ${i} collision polygons`);
    m.polygonType = new Uint8Array(p);
    m.polygonMaterial = new Uint8Array(p);
    m.planeNormals = new Int8Array(p * 15);
    m.planeFlags = new Uint8Array(p * 5);
    m.planeD = new Int16Array(p * 5);
    for (let q = 0; q < p; q++) {
      m.polygonType[q] = r.u8(`model ${i} polygon type`);
      m.polygonMaterial[q] = r.u8(`model ${i} polygon material`);
      for (let k = 0; k < PLANES_PER_POLYGON; k++) {
        m.planeNormals[q * 15 + k * 3] = r.i8(`model ${i} plane normal`);
        m.planeNormals[q * 15 + k * 3 + 1] = r.i8(`model ${i} plane normal`);
        m.planeNormals[q * 15 + k * 3 + 2] = r.i8(`model ${i} plane normal`);
        m.planeFlags[q * 5 + k] = r.u8(`model ${i} plane flags`);
        m.planeD[q * 5 + k] = r.i16(`model ${i} plane d`);
      }
    }
  }
  r.expectEnd('end of the TRAK chunk');
  return { models, payloadOffset };
}
