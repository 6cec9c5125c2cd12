import { BinaryWriter } from '../../binary/writer.js';
import { FIXED_ONE, WFPC_CAMERA_POINTS, WFPC_MAX_PARTICLES, WFPC_TILE_SWAPS, resolveConventions, type LlamaConventions } from './conventions.js';
import { detSqrt } from '../../numeric/det-math.js';
import { REGION_COUNT, SWAP_FIELDS, type LlamaMap } from './map-parse.js';
import { writeMapFile } from './map-write.js';
import { BBOX_FLOATS, MAX_MODEL_VERTICES, FACE_BATCH_START, FACE_QUAD_HALF, FACE_SECOND_HALF, MAX_BATCH_FACES, POLYGON_QUAD, type Trak, type TrakModel } from './trak-parse.js';
import { writeTrakFile } from './trak-write.js';
import { checkLimit, DEFAULT_LIMITS, type Limits } from '../../limits.js';

/**
 * A readable level description and the builder that turns it into TRAK and MAP bytes. Coordinates in a
 * description are game space (x east, y up, z = grid row), tile-local for model geometry; the builder
 * converts render vertices to export space (z negated, corner order reversed) and computes every plane.
 */

/** A point or direction x, y, z in game space (tiles, y up, z the grid row). */
export type V3 = [number, number, number];

/** One collision polygon of a model: its corners and material (or its raw planes). */
export interface PolygonDescription {
  /** Collision material (0 normal, 16 exit, 30 death, ...). */
  material?: number;
  /** The type byte; default 1 (quad) for 4 points, 0 for 3. */
  type?: number;
  /** 3 or 4 corners, tile-local game space, in order around the polygon. */
  points?: V3[];
  /**
   * For walls: the side the body is kept on (a direction). Default: the right-hand normal of the points.
   * Floors always face up and ceilings down.
   */
  facing?: V3;
  /** Stored planes as they go into the file, 5 × [nx, ny, nz, d] (for hand-made or broken test data). */
  raw?: [number, number, number, number][];
  /** Draw the polygon as render faces (default true). */
  render?: boolean;
}

/** A tile model: its floors, ceilings and walls (each also drawn unless `render` is false), and extra render-only polygons. */
export interface ModelDescription {
  /** A name for messages. */
  name?: string;
  floors?: PolygonDescription[];
  ceilings?: PolygonDescription[];
  walls?: PolygonDescription[];
  /** Extra render-only polygons (3 or 4 tile-local points each). */
  visuals?: V3[][];
}

/** One tile placed on the grid: a model at a cell, with its height, rotation and optional swap. */
export interface TileDescription {
  /** Model index (into `models`). */
  model: number;
  /** The cell's column (x) and row (z). */
  col: number;
  row: number;
  /** Height of the tile origin, units. */
  y?: number;
  /** Rotation about y, 4096 per turn. */
  rot?: number;
  /** Origin offset from the cell centre (x, z), for overhanging pieces. */
  offset?: [number, number];
  /** The alternative model of a door or bridge (a tile swap). */
  swapModel?: number;
  /** Vertex colour sets (u32 BGRA, alpha of the sets = number of sets); default one grey set. */
  colours?: number[][];
  swapColours?: number[][];
  /** Raw overrides of what gets written, for broken test levels. */
  raw?: {
    floatPos?: V3;
    floatRot?: number;
    floatModel?: number;
    hasAlt?: number;
    fixedPos?: V3;
    fixedRot?: V3;
    modelIndex?: number;
  };
}

/** A whole level for buildLevel, as plain JSON-able data (asLevelDescription checks one read from JSON). */
export interface LevelDescription {
  name: string;
  /** Grid size in cells: columns (x) and rows (z). */
  width: number;
  height: number;
  /** WFPC flags; the tile-swap flag is added when a tile has a swap. */
  wfpc?: number;
  /** Convention overrides (plane sign, normal scale, rotation sense, ...). */
  conventions?: Partial<LlamaConventions>;
  models: ModelDescription[];
  tiles: TileDescription[];
  /** Visibility: each region's mask of the regions it sees and its value, and each cell's region (default all 0). */
  regions?: { masks?: number[]; values?: number[]; cells?: number[] };
  /** Where the player starts (informational; MAP objects are not modelled). */
  start?: V3;
  /** Swap entries written verbatim instead of the ones derived from the tiles. */
  rawSwaps?: number[][];
  /** Bytes after the colour block; default a minimal object section (no strings, no strats). */
  tail?: number[];
}

/** Grey at full brightness (0x80 = 1.0) in B, G, R, and alpha 1 = one colour set. */
export const DEFAULT_VERTEX_COLOUR = 0x01808080;

function sub(a: V3, b: V3): V3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function cross(a: V3, b: V3): V3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function dot(a: V3, b: V3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function unit(a: V3): V3 {
  const l = detSqrt(dot(a, a));
  if (!(l > 0)) throw new RangeError('degenerate polygon: zero-length normal');
  return [a[0] / l, a[1] / l, a[2] / l];
}

/**
 * A unit normal as stored i8 values: ×127 rounded (an i8 cannot hold 128, so this holds under either
 * normal-scale convention; d is then computed from the stored normal with the convention's scale).
 */
function quantiseNormal(n: V3): V3 {
  const q = (v: number): number => {
    const r = Math.round(v * 127);
    return r === 0 ? 0 : r;
  };
  return [q(n[0]), q(n[1]), q(n[2])];
}

/** The stored d of a plane with stored normal `ni` through point p, in the given conventions. */
function planeD(ni: V3, p: V3, conv: LlamaConventions, what: string): number {
  const d = Math.round((conv.planeSign * dot(ni, p) * FIXED_ONE) / conv.normalScale);
  if (d < -32768 || d > 32767) throw new RangeError(`${what}: plane distance ${d / FIXED_ONE} is beyond ±8 units of the tile origin`);
  return d;
}

/** The 5 stored planes of a polygon from its points. */
export function polygonPlanes(poly: PolygonDescription, kind: 'floor' | 'ceiling' | 'wall', conv: LlamaConventions, what: string): number[][] {
  if (poly.raw) {
    if (poly.raw.length !== 5) throw new RangeError(`${what}: raw planes must be 5`);
    return poly.raw.map((p) => [...p]);
  }
  const pts = poly.points;
  if (!pts || (pts.length !== 3 && pts.length !== 4)) throw new RangeError(`${what}: needs 3 or 4 points`);
  let n = unit(cross(sub(pts[1]!, pts[0]!), sub(pts[2]!, pts[0]!)));
  if (kind === 'floor' && n[1] < 0) n = [-n[0], -n[1], -n[2]];
  if (kind === 'ceiling' && n[1] > 0) n = [-n[0], -n[1], -n[2]];
  if (kind === 'wall' && poly.facing && dot(n, poly.facing) < 0) n = [-n[0], -n[1], -n[2]];
  const centre: V3 = [0, 0, 0];
  for (const p of pts) for (let k = 0; k < 3; k++) centre[k] += p[k]! / pts.length;
  const n0 = quantiseNormal(n);
  const planes: number[][] = [[...n0, planeD(n0, centre, conv, what)]];
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i]!, b = pts[(i + 1) % pts.length]!;
    let m = unit(cross(n, sub(b, a)));
    if (dot(m, sub(centre, a)) < 0) m = [-m[0], -m[1], -m[2]];
    const mi = quantiseNormal(m);
    const mid: V3 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
    planes.push([...mi, planeD(mi, mid, conv, what)]);
  }
  while (planes.length < 5) planes.push([0, 0, 0, 0]);
  return planes;
}

interface RenderPoly {
  points: V3[];
}

/** Builds one TRAK model: collision polygons (floors, ceilings, walls) and render faces. */
export function buildModel(desc: ModelDescription, conv: LlamaConventions, index: number): TrakModel {
  const groups: [PolygonDescription[], 'floor' | 'ceiling' | 'wall'][] = [
    [desc.floors ?? [], 'floor'],
    [desc.ceilings ?? [], 'ceiling'],
    [desc.walls ?? [], 'wall'],
  ];
  const polys: { type: number; material: number; planes: number[][] }[] = [];
  const render: RenderPoly[] = [];
  for (const [list, kind] of groups) {
    list.forEach((p, i) => {
      const what = `model ${index} ${kind} ${i}`;
      const planes = polygonPlanes(p, kind, conv, what);
      const type = p.type ?? (p.raw ? POLYGON_QUAD : p.points!.length === 4 ? POLYGON_QUAD : 0);
      polys.push({ type, material: p.material ?? 0, planes });
      if (p.points && p.render !== false) render.push({ points: p.points });
    });
  }
  for (const v of desc.visuals ?? []) render.push({ points: v });
  // Render geometry in export space: z negated, so each triangle's corner order is reversed.
  const verts: number[] = [];
  const faces: { flags: number; v: [number, number, number]; plane: [number, number, number, number] }[] = [];
  for (const rp of render) {
    const base = verts.length / 6;
    const pts = rp.points;
    const n = unit(cross(sub(pts[1]!, pts[0]!), sub(pts[2]!, pts[0]!)));
    for (const p of pts) verts.push(p[0], p[1], -p[2], n[0], n[1], -n[2]);
    const ne: [number, number, number] = [n[0], n[1], -n[2]];
    const d = ne[0] * pts[0]![0] + ne[1] * pts[0]![1] - ne[2] * pts[0]![2];
    const quad = pts.length === 4;
    faces.push({ flags: quad ? FACE_QUAD_HALF : 0, v: [base, base + 2, base + 1], plane: [...ne, d] });
    if (quad) faces.push({ flags: FACE_QUAD_HALF | FACE_SECOND_HALF, v: [base, base + 3, base + 2], plane: [...ne, d] });
  }
  if (faces.length > 0) faces[0]!.flags |= FACE_BATCH_START;
  for (let f = MAX_BATCH_FACES; f < faces.length; f += MAX_BATCH_FACES) faces[f]!.flags |= FACE_BATCH_START;
  const vc = verts.length / 6;
  if (vc > MAX_MODEL_VERTICES) throw new RangeError(`model ${index}: ${vc} vertices exceed ${MAX_MODEL_VERTICES}`);
  const bbox = new Float32Array(BBOX_FLOATS);
  if (vc > 0) {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < vc; i++) {
      for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k]!, verts[i * 6 + k]!);
        hi[k] = Math.max(hi[k]!, verts[i * 6 + k]!);
      }
    }
    for (let k = 0; k < 3; k++) bbox[k] = (lo[k]! + hi[k]!) / 2;
    for (let c = 0; c < 8; c++) {
      bbox[3 + c * 3] = c & 1 ? hi[0]! : lo[0]!;
      bbox[3 + c * 3 + 1] = c & 2 ? hi[1]! : lo[1]!;
      bbox[3 + c * 3 + 2] = c & 4 ? hi[2]! : lo[2]!;
    }
  }
  const p = polys.length;
  const m: TrakModel = {
    bbox, vertexPointer: 0, facePointer: 0, headerPad: 0, polygonPointer: 0,
    vertices: Float32Array.from(verts),
    faceFlags: Uint16Array.from(faces.map((f) => f.flags)),
    faceVertices: Uint16Array.from(faces.flatMap((f) => f.v)),
    faceTexture: new Uint16Array(faces.length),
    facePad: new Uint16Array(faces.length),
    facePlanes: Float32Array.from(faces.flatMap((f) => f.plane)),
    floorCount: desc.floors?.length ?? 0,
    ceilingCount: desc.ceilings?.length ?? 0,
    wallCount: desc.walls?.length ?? 0,
    polygonType: Uint8Array.from(polys.map((q) => q.type)),
    polygonMaterial: Uint8Array.from(polys.map((q) => q.material)),
    planeNormals: new Int8Array(p * 15),
    planeFlags: new Uint8Array(p * 5),
    planeD: new Int16Array(p * 5),
    headerOffset: -1,
    dataOffset: -1,
  };
  polys.forEach((q, i) => {
    q.planes.forEach((pl, k) => {
      m.planeNormals[i * 15 + k * 3] = pl[0]!;
      m.planeNormals[i * 15 + k * 3 + 1] = pl[1]!;
      m.planeNormals[i * 15 + k * 3 + 2] = pl[2]!;
      m.planeD[i * 5 + k] = pl[3]!;
    });
  });
  return m;
}

/** The minimal object section after the colours (Croc 2 PC order): no strings, no strats, level flag 0. */
export function minimalTail(wfpc: number): number[] {
  const w = new BinaryWriter(32);
  w.u32(0); // strings
  w.u32(0).u32(0); // strat count, max strats
  if (wfpc & WFPC_CAMERA_POINTS) w.u32(0);
  if (wfpc & WFPC_MAX_PARTICLES) w.i32(0);
  w.i16(0); // level flag
  return Array.from(w.finish());
}

/** What buildLevel makes: the parsed form and the bytes of both files, and the conventions it used. */
export interface BuiltLevel {
  trak: Trak;
  map: LlamaMap;
  /** The `.trak` file. */
  trakBytes: Uint8Array;
  /** The `.map` file. */
  mapBytes: Uint8Array;
  conventions: LlamaConventions;
}

/**
 * Builds the TRAK and MAP of a level description. Throws RangeError for a description that cannot be written
 * (a degenerate polygon, a plane beyond ±8 tiles of its tile, too many vertices, a bad convention), and a
 * FormatError naming the limit for one whose grid, tiles, models or vertex colours are over `limits` (checked
 * before anything is allocated by them).
 *
 * @example
 * ```ts
 * const { trakBytes, mapBytes } = buildLevel(minimalLevel());
 * const world = loadLlamaWorld(trakBytes, mapBytes, 'minimal');
 * ```
 */
export function buildLevel(desc: LevelDescription, limits: Readonly<Limits> = DEFAULT_LIMITS): BuiltLevel {
  const conv = resolveConventions(desc.conventions);
  const W = desc.width, H = desc.height;
  if (!Number.isInteger(W) || !Number.isInteger(H) || W < 0 || H < 0) throw new RangeError('width and height must be non-negative integers');
  // Every size the builder allocates by is checked against the limits a reader would apply, before allocating.
  checkLimit(DESCRIPTION, -1, `grid of ${W}×${H} cells`, W * H, limits.llama.gridCells, 'llama.gridCells');
  checkLimit(DESCRIPTION, -1, 'tiles', desc.tiles.length, limits.llama.tiles, 'llama.tiles');
  checkLimit(DESCRIPTION, -1, 'models', desc.models.length, limits.llama.models, 'llama.models');
  const models = desc.models.map((m, i) => buildModel(m, conv, i));
  checkColourWords(desc, models, limits);
  const trak: Trak = { models, payloadOffset: -1 };
  const tiles = desc.tiles;
  const n = tiles.length;
  const anySwap = tiles.some((t) => t.swapModel !== undefined) || desc.rawSwaps !== undefined;
  const wfpc = ((desc.wfpc ?? 0) | (anySwap ? WFPC_TILE_SWAPS : 0)) >>> 0;
  const floatPos = new Float32Array(n * 3);
  const floatRot = new Int32Array(n);
  const floatModel = new Uint32Array(n);
  const hasAlt = new Uint32Array(n);
  const fixedRot = new Int32Array(n * 3);
  const fixedPos = new Int32Array(n * 3);
  const modelIndex = new Uint32Array(n);
  const swaps: number[] = [];
  const colours: number[] = [];
  const colourStart = new Uint32Array(n), colourSets = new Uint32Array(n), colourVertices = new Uint32Array(n);
  const swapColourStart = new Int32Array(n).fill(-1), swapColourVertices = new Uint32Array(n);
  const vcount = (mi: number): number => (models[mi] ? models[mi]!.vertices.length / 6 : 0);
  tiles.forEach((t, i) => {
    const off = t.offset ?? [0, 0];
    // Positions on the 1/4096 grid so that the float and fixed copies agree exactly.
    const fx = Math.round((t.col + 0.5 + off[0]) * FIXED_ONE);
    const fy = Math.round((t.y ?? 0) * FIXED_ONE);
    const fz = Math.round((t.row + 0.5 + off[1]) * FIXED_ONE);
    const rot = t.rot ?? 0;
    const raw = t.raw ?? {};
    const fp = raw.floatPos ?? [fx / FIXED_ONE, fy / FIXED_ONE, -fz / FIXED_ONE];
    floatPos.set(fp, i * 3);
    floatRot[i] = raw.floatRot ?? rot;
    floatModel[i] = raw.floatModel ?? t.model;
    hasAlt[i] = raw.hasAlt ?? (t.swapModel !== undefined ? 1 : 0);
    fixedRot.set(raw.fixedRot ?? [0, rot, 0], i * 3);
    fixedPos.set(raw.fixedPos ?? [fx, fy, fz], i * 3);
    modelIndex[i] = raw.modelIndex ?? t.model;
    if (t.swapModel !== undefined) swaps.push(t.col, fy, t.row, t.model, t.swapModel);
    const v = vcount(modelIndex[i]!);
    const sets = t.colours ?? [new Array<number>(v).fill(DEFAULT_VERTEX_COLOUR)];
    colourStart[i] = colours.length;
    colourSets[i] = sets.length;
    colourVertices[i] = v;
    for (const s of sets) colours.push(...s);
    if (t.swapModel !== undefined) {
      const vs = vcount(t.swapModel);
      const ss = t.swapColours ?? sets.map(() => new Array<number>(vs).fill(DEFAULT_VERTEX_COLOUR));
      swapColourStart[i] = colours.length;
      swapColourVertices[i] = vs;
      for (const s of ss) colours.push(...s);
    }
  });
  const swapList = desc.rawSwaps ? desc.rawSwaps.flat() : swaps;
  const regionMasks = new Uint32Array(REGION_COUNT);
  const regionValues = new Int32Array(REGION_COUNT);
  const masks = desc.regions?.masks ?? [0xffffffff];
  masks.forEach((m, i) => (regionMasks[i] = m >>> 0));
  (desc.regions?.values ?? []).forEach((v, i) => (regionValues[i] = v | 0));
  const cellRegions = new Uint32Array(W * H);
  if (desc.regions?.cells) {
    if (desc.regions.cells.length !== W * H) throw new RangeError(`regions.cells must have ${W * H} entries`);
    cellRegions.set(desc.regions.cells);
  }
  const tail = Uint8Array.from(desc.tail ?? minimalTail(wfpc));
  const map: LlamaMap = {
    wfpc, width: W, height: H, tileCount: n, floatPos, floatRot, floatModel, hasAlt,
    params: new Int32Array(0), doorCount: 0, doors: new Uint8Array(0), waypointCount: 0, waypoints: new Uint8Array(0),
    regionMasks, regionValues, cellRegions, fixedRot, fixedPos, modelIndex,
    hasSwapBlock: (wfpc & WFPC_TILE_SWAPS) !== 0, swapCount: swapList.length / SWAP_FIELDS, swaps: Int32Array.from(swapList),
    colours: Uint32Array.from(colours), colourStart, colourSets, colourVertices, swapColourStart, swapColourVertices, tail,
    offsets: { payload: -1, floatBlock: -1, regions: -1, cellRegions: -1, fixedBlock: -1, modelIndex: -1, swaps: -1, colours: -1, tail: -1, end: -1 },
  };
  return { trak, map, trakBytes: writeTrakFile(trak), mapBytes: writeMapFile(map), conventions: conv };
}

/** The format named by the builder's limit errors. */
const DESCRIPTION = 'llama level description';

/**
 * The vertex colours the MAP will hold (per tile, its sets × its model's vertices, and the same for a swap
 * model) must fit in a file a reader accepts (limits.fileBytes, 4 bytes each): checked before any is made.
 */
function checkColourWords(desc: LevelDescription, models: readonly TrakModel[], limits: Readonly<Limits>): void {
  const vcount = (mi: number | undefined): number => (mi !== undefined && models[mi] ? models[mi]!.vertices.length / 6 : 0);
  let words = 0;
  for (const t of desc.tiles) {
    const sets = t.colours ? t.colours.length : 1;
    words += sets * vcount(t.raw?.modelIndex ?? t.model);
    if (t.swapModel !== undefined) words += (t.swapColours ? t.swapColours.length : sets) * vcount(t.swapModel);
  }
  const max = Math.floor(limits.fileBytes / 4);
  checkLimit(DESCRIPTION, -1, 'vertex colours (tiles × sets × model vertices)', words, max, 'fileBytes / 4');
}

/**
 * Checks that a value read from JSON has the shape of a LevelDescription (types and ranges of the fields
 * the builder reads) and returns it; RangeError naming the first bad field otherwise.
 */
export function asLevelDescription(v: unknown): LevelDescription {
  const fail = (path: string, what: string): never => {
    throw new RangeError(`level description: ${path} ${what}`);
  };
  const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const num = (x: unknown, path: string): void => {
    if (typeof x !== 'number' || !Number.isFinite(x)) fail(path, 'must be a finite number');
  };
  const int = (x: unknown, path: string, min: number, max: number): void => {
    if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) fail(path, `must be an integer in ${min}..${max}`);
  };
  const vec = (x: unknown, path: string, n: number): void => {
    if (!Array.isArray(x) || x.length !== n) fail(path, `must be an array of ${n} numbers`);
    (x as unknown[]).forEach((e, i) => num(e, `${path}[${i}]`));
  };
  const numList = (x: unknown, path: string): void => {
    if (!Array.isArray(x)) fail(path, 'must be an array');
    (x as unknown[]).forEach((e, i) => num(e, `${path}[${i}]`));
  };
  if (!isObj(v)) return fail('', 'must be an object');
  if (typeof v['name'] !== 'string') fail('name', 'must be a string');
  int(v['width'], 'width', 0, 65535);
  int(v['height'], 'height', 0, 65535);
  if (v['wfpc'] !== undefined) int(v['wfpc'], 'wfpc', 0, 0xffffffff);
  if (v['conventions'] !== undefined && !isObj(v['conventions'])) fail('conventions', 'must be an object');
  if (!Array.isArray(v['models'])) fail('models', 'must be an array');
  (v['models'] as unknown[]).forEach((m, i) => {
    if (!isObj(m)) return fail(`models[${i}]`, 'must be an object');
    for (const g of ['floors', 'ceilings', 'walls'] as const) {
      if (m[g] === undefined) continue;
      if (!Array.isArray(m[g])) fail(`models[${i}].${g}`, 'must be an array');
      (m[g] as unknown[]).forEach((p, j) => {
        const path = `models[${i}].${g}[${j}]`;
        if (!isObj(p)) return fail(path, 'must be an object');
        if (p['material'] !== undefined) int(p['material'], `${path}.material`, 0, 255);
        if (p['type'] !== undefined) int(p['type'], `${path}.type`, 0, 255);
        if (p['facing'] !== undefined) vec(p['facing'], `${path}.facing`, 3);
        if (p['raw'] !== undefined) {
          if (!Array.isArray(p['raw']) || p['raw'].length !== 5) fail(`${path}.raw`, 'must be 5 planes');
          (p['raw'] as unknown[]).forEach((pl, k) => {
            if (!Array.isArray(pl) || pl.length !== 4) fail(`${path}.raw[${k}]`, 'must be [nx, ny, nz, d]');
            (pl as unknown[]).forEach((e, q) => int(e, `${path}.raw[${k}][${q}]`, q < 3 ? -128 : -32768, q < 3 ? 127 : 32767));
          });
        } else {
          if (!Array.isArray(p['points']) || (p['points'].length !== 3 && p['points'].length !== 4)) fail(`${path}.points`, 'must be 3 or 4 points');
          (p['points'] as unknown[]).forEach((pt, k) => vec(pt, `${path}.points[${k}]`, 3));
        }
      });
    }
    if (m['visuals'] !== undefined) {
      if (!Array.isArray(m['visuals'])) fail(`models[${i}].visuals`, 'must be an array');
      (m['visuals'] as unknown[]).forEach((poly, j) => {
        if (!Array.isArray(poly) || (poly.length !== 3 && poly.length !== 4)) fail(`models[${i}].visuals[${j}]`, 'must be 3 or 4 points');
        (poly as unknown[]).forEach((pt, k) => vec(pt, `models[${i}].visuals[${j}][${k}]`, 3));
      });
    }
  });
  const nModels = (v['models'] as unknown[]).length;
  if (!Array.isArray(v['tiles'])) fail('tiles', 'must be an array');
  (v['tiles'] as unknown[]).forEach((t, i) => {
    const path = `tiles[${i}]`;
    if (!isObj(t)) return fail(path, 'must be an object');
    int(t['model'], `${path}.model`, 0, Math.max(0, nModels - 1));
    int(t['col'], `${path}.col`, -65536, 65536);
    int(t['row'], `${path}.row`, -65536, 65536);
    if (t['y'] !== undefined) num(t['y'], `${path}.y`);
    if (t['rot'] !== undefined) int(t['rot'], `${path}.rot`, -0x80000000, 0x7fffffff);
    if (t['offset'] !== undefined) vec(t['offset'], `${path}.offset`, 2);
    if (t['swapModel'] !== undefined) int(t['swapModel'], `${path}.swapModel`, 0, Math.max(0, nModels - 1));
    for (const k of ['colours', 'swapColours'] as const) {
      if (t[k] === undefined) continue;
      if (!Array.isArray(t[k])) fail(`${path}.${k}`, 'must be an array of colour sets');
      (t[k] as unknown[]).forEach((set, j) => numList(set, `${path}.${k}[${j}]`));
    }
    if (t['raw'] !== undefined) {
      const raw = t['raw'];
      if (!isObj(raw)) return fail(`${path}.raw`, 'must be an object');
      if (raw['floatPos'] !== undefined) vec(raw['floatPos'], `${path}.raw.floatPos`, 3);
      for (const k of ['fixedPos', 'fixedRot'] as const) {
        if (raw[k] === undefined) continue;
        vec(raw[k], `${path}.raw.${k}`, 3);
        (raw[k] as number[]).forEach((e, q) => int(e, `${path}.raw.${k}[${q}]`, -0x80000000, 0x7fffffff));
      }
      if (raw['floatRot'] !== undefined) int(raw['floatRot'], `${path}.raw.floatRot`, -0x80000000, 0x7fffffff);
      for (const k of ['floatModel', 'hasAlt', 'modelIndex'] as const) if (raw[k] !== undefined) int(raw[k], `${path}.raw.${k}`, 0, 0xffffffff);
    }
  });
  if (v['regions'] !== undefined) {
    const r = v['regions'];
    if (!isObj(r)) return fail('regions', 'must be an object');
    for (const k of ['masks', 'values', 'cells'] as const) if (r[k] !== undefined) numList(r[k], `regions.${k}`);
  }
  if (v['rawSwaps'] !== undefined) {
    if (!Array.isArray(v['rawSwaps'])) fail('rawSwaps', 'must be an array');
    (v['rawSwaps'] as unknown[]).forEach((s, i) => vec(s, `rawSwaps[${i}]`, 5));
  }
  if (v['tail'] !== undefined) {
    if (!Array.isArray(v['tail'])) fail('tail', 'must be an array of bytes');
    (v['tail'] as unknown[]).forEach((b, i) => int(b, `tail[${i}]`, 0, 255));
  }
  return v as unknown as LevelDescription;
}
