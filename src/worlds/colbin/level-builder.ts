/**
 * Builds a COLBIN file model from a readable description (positions in Blender units / engine metres, axes
 * as direction vectors), and computes the version-2 grid: by default from each wall's true rotated
 * footprint, or, for parity with tools/blender_colbin.py, with the exporter's unrotated [0]/[2] footprint.
 *
 * Conversions follow the exporter: position × 128 and direction × 4096, truncated toward zero (Python int()).
 */
import { boxReach, sqrtNewton } from './obb.js';
import { emptyColbin, type ColbinFile, type ColbinGrid, type ColbinVersion } from './types.js';

/** A point or direction x, y, z (positions in Blender units = engine metres). */
export type V3 = [number, number, number];

/** The exporter's scale: engine units per Blender unit. */
export const COLBIN_SCALE = 128;
/** The exporter's default grid cell, 2.0 Blender units = 256 raw. */
export const DEFAULT_CELL_SIZE = 256;
/** tools/blender_colbin.py MIN_WALL_THICKNESS: the thinnest half extent is clamped up to this (raw units). */
export const MIN_WALL_THICKNESS = 32;

/**
 * Which footprint a grid is built from.
 *  - 'footprint': each wall's rotated x/z reach (Σ |axis_i| · h_i), so every wall is in every cell it overlaps.
 *  - 'exporter': the exporter's rule, halfExtents[0] along X and halfExtents[2] along Z, unrotated. Kept
 *    to reproduce real files (the worked 161-byte example); `colbin check` reports what it misses.
 */
export type GridMode = 'footprint' | 'exporter';

/** One wall: a box with a centre, three axes and a half extent along each. */
export interface WallDescription {
  /** Blender units. */
  center: V3;
  /** Direction vectors (any length) for axes[0..2]; default the identity. Stored in this order, unsorted. */
  axes?: [V3, V3, V3];
  /** Blender units, one per axis index. */
  halfExtents: V3;
  /** The reserved flag word, default 0. */
  flags?: number;
}

/** One floor triangle. */
export interface FloorDescription {
  /** Blender units. */
  vertices: [V3, V3, V3];
  /** Stored normal; default: computed from the vertices, negated when y < 0 as the exporter does. */
  normal?: V3;
}

/** A whole level for buildColbin, as plain JSON-able data. */
export interface LevelDescription {
  /** File version, default 2. */
  version?: ColbinVersion;
  /** Grid cell size in Blender units (default 2.0). */
  cellSize?: number;
  /** How the version-2 grid is built, default 'footprint'. */
  grid?: GridMode;
  floors: FloorDescription[];
  walls: WallDescription[];
}

/** Position (Blender units) → raw x128, truncated like the exporter's int(). */
export const toRaw = (v: number): number => Math.trunc(v * COLBIN_SCALE) | 0;

/** A direction as FP12 components: v / |v| × 4096, truncated (the exporter normalises, then int(n × 4096)). */
export function toFp12Direction(v: V3): V3 {
  const len = sqrtNewton(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (!(len > 0)) return [0, 0, 0];
  return [Math.trunc((v[0] / len) * 4096) | 0, Math.trunc((v[1] / len) * 4096) | 0, Math.trunc((v[2] / len) * 4096) | 0];
}

/**
 * Builds a file model from a level description, converting as the Blender exporter does (positions × 128,
 * directions normalised × 4096, both truncated toward zero) and, for version 2, building the wall grid.
 *
 * @example
 * ```ts
 * const file = buildColbin({
 *   floors: [{ vertices: [[-2, 0, -2], [2, 0, -2], [0, 0, 2]] }],
 *   walls: [{ center: [0, 0, 0], halfExtents: [1, 1, 0.25] }],
 * });
 * const bytes = writeColbin(file);
 * ```
 */
export function buildColbin(desc: LevelDescription): ColbinFile {
  const version = desc.version ?? 2;
  const file = emptyColbin(version, desc.floors.length, desc.walls.length);
  desc.floors.forEach((f, i) => {
    for (let v = 0; v < 3; v++) for (let k = 0; k < 3; k++) file.floorVertices[i * 9 + v * 3 + k] = toRaw(f.vertices[v]![k]!);
    const n = f.normal ? toFp12Direction(f.normal) : floorNormal(file.floorVertices, i);
    for (let k = 0; k < 3; k++) file.floorNormals[i * 3 + k] = n[k]!;
  });
  desc.walls.forEach((w, i) => {
    for (let k = 0; k < 3; k++) {
      file.wallCenters[i * 3 + k] = toRaw(w.center[k]!);
      file.wallHalfExtents[i * 3 + k] = toRaw(w.halfExtents[k]!);
    }
    const axes = w.axes ?? ([[1, 0, 0], [0, 1, 0], [0, 0, 1]] as [V3, V3, V3]);
    for (let a = 0; a < 3; a++) {
      const d = toFp12Direction(axes[a]!);
      for (let k = 0; k < 3; k++) file.wallAxes[i * 9 + a * 3 + k] = d[k]!;
    }
    file.wallFlags[i] = (w.flags ?? 0) >>> 0;
  });
  if (version === 2) file.grid = buildGrid(file, desc.cellSize === undefined ? DEFAULT_CELL_SIZE : toRaw(desc.cellSize), desc.grid ?? 'footprint');
  return file;
}

/** The exporter's stored floor normal: the face normal in FP12 with y forced ≥ 0 (sign untrustworthy). */
function floorNormal(v: Int32Array, i: number): V3 {
  const o = i * 9;
  const e1 = [v[o + 3]! - v[o]!, v[o + 4]! - v[o + 1]!, v[o + 5]! - v[o + 2]!];
  const e2 = [v[o + 6]! - v[o]!, v[o + 7]! - v[o + 1]!, v[o + 8]! - v[o + 2]!];
  const n: V3 = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
  const d = toFp12Direction(n);
  return d[1] < 0 ? [-d[0] | 0, -d[1] | 0, -d[2] | 0] : d;
}

/** One wall's x/z rectangle in raw units, as the chosen grid mode sees it. */
export function wallFootprint(file: ColbinFile, i: number, mode: GridMode, out: Float64Array): void {
  const c = file.wallCenters;
  if (mode === 'exporter') {
    const h = file.wallHalfExtents;
    out[0] = c[i * 3]! - h[i * 3]!;
    out[1] = c[i * 3]! + h[i * 3]!;
    out[2] = c[i * 3 + 2]! - h[i * 3 + 2]!;
    out[3] = c[i * 3 + 2]! + h[i * 3 + 2]!;
    return;
  }
  const box = wallBox(file, i);
  const rx = boxReach(box, 0, 0);
  const rz = boxReach(box, 0, 2);
  out[0] = c[i * 3]! - rx;
  out[1] = c[i * 3]! + rx;
  out[2] = c[i * 3 + 2]! - rz;
  out[3] = c[i * 3 + 2]! + rz;
}

/** Wall i as a 15-word box (centre, axes, half extents). */
export function wallBox(file: ColbinFile, i: number, out = new Int32Array(15), off = 0): Int32Array {
  for (let k = 0; k < 3; k++) out[off + k] = file.wallCenters[i * 3 + k]!;
  for (let k = 0; k < 9; k++) out[off + 3 + k] = file.wallAxes[i * 9 + k]!;
  for (let k = 0; k < 3; k++) out[off + 12 + k] = file.wallHalfExtents[i * 3 + k]!;
  return out;
}

/** The exporter's cell of an edge coordinate: floor((x − origin) / cellSize) clamped to [0, n − 1]. */
export function cellOf(x: number, origin: number, cellSize: number, n: number): number {
  const c = Math.floor((x - origin) / cellSize);
  return c < 0 ? 0 : c > n - 1 ? n - 1 : c;
}

/**
 * The version-2 wall grid of a file model, laid out as the exporter does: bounds over all walls' footprints, a
 * one-cell margin (origin = min − cellSize), size ceil((max − min + 2·cell) / cell), each wall in every cell its
 * footprint rectangle touches (edges included), indices in wall order within a cell. No walls → an empty 0 × 0
 * grid. `cellSize` is in raw x128 units (256 is the exporter's default). Set it as `file.grid` after changing a
 * version-2 file's walls, before writeColbin. Throws RangeError for a cell size that is not a positive integer.
 */
export function buildGrid(file: ColbinFile, cellSize: number, mode: GridMode): ColbinGrid {
  if (!Number.isInteger(cellSize) || cellSize <= 0) throw new RangeError(`buildGrid: cell size ${cellSize} must be a positive integer`);
  const n = file.wallCount;
  if (n === 0) return { originX: 0, originZ: 0, cellSize, width: 0, height: 0, cellStart: new Uint32Array(1), indices: new Uint16Array(0) };
  if (n > 0x10000) throw new RangeError('buildGrid: wall indices are u16, so at most 65536 walls');
  const fp = new Float64Array(n * 4);
  const tmp = new Float64Array(4);
  let minX = Infinity;
  let maxX = -Infinity;
  let minZ = Infinity;
  let maxZ = -Infinity;
  for (let i = 0; i < n; i++) {
    wallFootprint(file, i, mode, tmp);
    fp.set(tmp, i * 4);
    minX = Math.min(minX, tmp[0]!);
    maxX = Math.max(maxX, tmp[1]!);
    minZ = Math.min(minZ, tmp[2]!);
    maxZ = Math.max(maxZ, tmp[3]!);
  }
  const originX = minX - cellSize;
  const originZ = minZ - cellSize;
  const width = Math.ceil((maxX - minX + 2 * cellSize) / cellSize);
  const height = Math.ceil((maxZ - minZ + 2 * cellSize) / cellSize);
  if (width > 0xffff || height > 0xffff) throw new RangeError(`buildGrid: ${width} × ${height} cells exceed the u16 grid size; use a larger cell`);
  const lists: number[][] = Array.from({ length: width * height }, () => []);
  for (let i = 0; i < n; i++) {
    const x0 = cellOf(fp[i * 4]!, originX, cellSize, width);
    const x1 = cellOf(fp[i * 4 + 1]!, originX, cellSize, width);
    const z0 = cellOf(fp[i * 4 + 2]!, originZ, cellSize, height);
    const z1 = cellOf(fp[i * 4 + 3]!, originZ, cellSize, height);
    for (let gx = x0; gx <= x1; gx++) for (let gz = z0; gz <= z1; gz++) lists[gx * height + gz]!.push(i);
  }
  const cellStart = new Uint32Array(width * height + 1);
  let total = 0;
  for (let c = 0; c < lists.length; c++) {
    cellStart[c] = total;
    total += lists[c]!.length;
  }
  cellStart[lists.length] = total;
  const indices = new Uint16Array(total);
  let k = 0;
  for (const l of lists) for (const w of l) indices[k++] = w;
  return { originX, originZ, cellSize, width, height, cellStart, indices };
}

/**
 * The exporter's wall box for one wall face (tools/blender_colbin.py): vertices in engine space (already
 * × 128, floats), the object's axes as unit vectors. Centre = truncated vertex mean; half extent i = half
 * the spread of the vertices projected on axis i; the smallest (on the floats, first index on a tie) is
 * clamped up to MIN_WALL_THICKNESS after truncation, whichever index that is.
 */
export function wallFromFace(vertices: V3[], axes: [V3, V3, V3]): WallDescription & { raw: { center: V3; axes: V3[]; halfExtents: V3 } } {
  const m: V3 = [0, 0, 0];
  for (const v of vertices) for (let k = 0; k < 3; k++) m[k] += v[k]!;
  const center: V3 = [Math.trunc(m[0] / vertices.length), Math.trunc(m[1] / vertices.length), Math.trunc(m[2] / vertices.length)];
  const half: V3 = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of vertices) {
      const p = v[0] * axes[i]![0] + v[1] * axes[i]![1] + v[2] * axes[i]![2];
      lo = Math.min(lo, p);
      hi = Math.max(hi, p);
    }
    half[i] = (hi - lo) / 2;
  }
  let thin = 0;
  for (let i = 1; i < 3; i++) if (half[i]! < half[thin]!) thin = i;
  const halfRaw: V3 = [Math.trunc(half[0]), Math.trunc(half[1]), Math.trunc(half[2])];
  if (halfRaw[thin] < MIN_WALL_THICKNESS) halfRaw[thin] = MIN_WALL_THICKNESS;
  const axesRaw = axes.map((a) => [Math.trunc(a[0] * 4096), Math.trunc(a[1] * 4096), Math.trunc(a[2] * 4096)] as V3);
  return {
    center: [center[0] / COLBIN_SCALE, center[1] / COLBIN_SCALE, center[2] / COLBIN_SCALE],
    axes,
    halfExtents: [halfRaw[0] / COLBIN_SCALE, halfRaw[1] / COLBIN_SCALE, halfRaw[2] / COLBIN_SCALE],
    raw: { center, axes: axesRaw, halfExtents: halfRaw },
  };
}
