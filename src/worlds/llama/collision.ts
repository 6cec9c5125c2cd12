import { FormatError } from '../../binary/format-error.js';
import { FIXED_ONE, positionCellOf, resolveConventions, tileCellOf, type LlamaConventions } from './conventions.js';
import { sinCosTurn } from './det.js';
import { detSqrt } from '../../numeric/det-math.js';
import { materialIgnored } from './materials.js';
import { SWAP_FIELDS, type LlamaMap } from './map-parse.js';
import { polygonCount, polygonEdgeCount, type Trak, type TrakModel } from './trak-parse.js';

/** Doubles per polygon: 5 planes × (nx, ny, nz, D), unit normal, front/inside where n·p − D ≥ 0. */
export const POLY_STRIDE = 20;

/**
 * A surface plane flatter than this (|ny| of the unit normal) gives no height: floors and ceilings that are
 * (nearly) vertical are skipped rather than dividing by ~0.
 */
export const MIN_SURFACE_NY = 1 / 1024;

/** Wall resolution passes per move, so a body pushed out of one wall into another is pushed again. */
export const WALL_PASSES = 2;

/**
 * Most polygons a level may place (all tiles, both variants). Real levels place about 10^5; without a
 * ceiling a small hostile MAP (many tiles naming one big model) would ask for gigabytes.
 */
export const MAX_PLACED_POLYGONS = 1 << 21;

/** Scratch result of the floor/ceiling query (no allocation per query). */
export interface GroundScratch {
  floor: number;
  floorPoly: number;
  ceiling: number;
  ceilingPoly: number;
}

/** A tile's float-block y for the cell-list order; NaN sorts last so the comparator stays consistent. */
function tileY(map: LlamaMap, i: number): number {
  const y = map.floatPos[i * 3 + 1]!;
  return y === y ? y : -Infinity;
}

/**
 * The collision geometry of a level in game space (x east, y up, z = grid row), ready for queries:
 * every tile's polygons placed by its fixed-point position and rotation, for its model and (if it has a
 * swap) its alternative model, and the cell lists. Built once; swap states switch which set a tile uses.
 */
export class LlamaCollision {
  readonly conventions: LlamaConventions;
  readonly width: number;
  readonly height: number;
  readonly tileCount: number;
  /** Placed polygons (all tiles, both variants): planes, edge count, material, owner. */
  readonly planes: Float64Array;
  /** Horizontal length and |ny| of each plane's unit normal (the cylinder support of a body). */
  readonly planeHorizontal: Float64Array;
  readonly planeVertical: Float64Array;
  readonly edgeCount: Uint8Array;
  readonly material: Uint8Array;
  /** 1 when the polygon takes part in collision (not degenerate, material not ignored). */
  readonly active: Uint8Array;
  readonly polyTile: Int32Array;
  /** Index of the polygon within its model. */
  readonly polyLocal: Int32Array;
  /** Per slot (tile·2 + variant): first floor, first ceiling, first wall, end (indices into the polygons). */
  readonly ranges: Int32Array;
  /** Cell lists (CSR): the tiles of cell c are cellTiles[cellStart[c] .. cellStart[c+1]), highest first. */
  readonly cellStart: Int32Array;
  readonly cellTiles: Int32Array;
  /** The cell each tile is listed in (−1 outside the grid). */
  readonly tileCell: Int32Array;
  /** The tile of swap k (the k-th tile with hasAlt ≠ 0), −1 when there is none. */
  readonly swapTile: Int32Array;
  /** Current variant per tile: 0 its model, 1 its swap model. Simulation state. */
  readonly variant: Uint8Array;
  private readonly scratch: GroundScratch = { floor: NaN, floorPoly: -1, ceiling: NaN, ceilingPoly: -1 };

  constructor(trak: Trak, map: LlamaMap, conventions?: Partial<LlamaConventions>) {
    const conv = resolveConventions(conventions);
    this.conventions = conv;
    this.width = map.width;
    this.height = map.height;
    const n = map.tileCount;
    this.tileCount = n;
    // Alternative models, from the swap block: the k-th swap belongs to the k-th tile with hasAlt set.
    const altModel = new Int32Array(n).fill(-1);
    const swapTile = new Int32Array(map.swapCount).fill(-1);
    let k = 0;
    for (let i = 0; i < n; i++) {
      if (map.hasAlt[i] === 0 || !map.hasSwapBlock) continue;
      if (k < map.swapCount) {
        const b = map.swaps[k * SWAP_FIELDS + 4]!;
        if (b >= 0 && b < trak.models.length) altModel[i] = b;
        swapTile[k] = i;
      }
      k++;
    }
    this.swapTile = swapTile;
    this.variant = new Uint8Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const m = trak.models[map.modelIndex[i]!];
      if (m) total += polygonCount(m);
      const a = altModel[i]!;
      if (a >= 0) total += polygonCount(trak.models[a]!);
    }
    if (total > MAX_PLACED_POLYGONS) {
      throw new FormatError('llama MAP', map.offsets.modelIndex, `the tiles place ${total} collision polygons, more than the ${MAX_PLACED_POLYGONS} allowed`);
    }
    this.planes = new Float64Array(total * POLY_STRIDE);
    this.planeHorizontal = new Float64Array(total * 5);
    this.planeVertical = new Float64Array(total * 5);
    this.edgeCount = new Uint8Array(total);
    this.material = new Uint8Array(total);
    this.active = new Uint8Array(total);
    this.polyTile = new Int32Array(total);
    this.polyLocal = new Int32Array(total);
    this.ranges = new Int32Array(n * 2 * 4);
    let at = 0;
    for (let i = 0; i < n; i++) {
      for (let v = 0; v < 2; v++) {
        const slot = (i * 2 + v) * 4;
        const mi = v === 0 ? map.modelIndex[i]! : altModel[i]!;
        const m = mi >= 0 ? trak.models[mi] : undefined;
        this.ranges[slot] = at;
        if (!m) {
          this.ranges[slot + 1] = at;
          this.ranges[slot + 2] = at;
          this.ranges[slot + 3] = at;
          continue;
        }
        this.ranges[slot + 1] = at + m.floorCount;
        this.ranges[slot + 2] = at + m.floorCount + m.ceilingCount;
        this.ranges[slot + 3] = at + polygonCount(m);
        at = this.placeModel(m, map, i, at, map.wfpc);
      }
    }
    // Cell lists: each tile in exactly one cell (from its float position), sorted by descending y, ties in
    // tile order (the engine's insertion order).
    const cells = map.width * map.height;
    const tileCell = new Int32Array(n);
    const counts = new Int32Array(cells + 1);
    for (let i = 0; i < n; i++) {
      const c = tileCellOf(map.floatPos[i * 3]!, map.floatPos[i * 3 + 2]!, map.width, map.height);
      tileCell[i] = c;
      if (c >= 0) counts[c + 1]!++;
    }
    for (let c = 0; c < cells; c++) counts[c + 1]! += counts[c]!;
    const cellTiles = new Int32Array(counts[cells]!);
    const fill = counts.slice(0, cells);
    for (let i = 0; i < n; i++) {
      const c = tileCell[i]!;
      if (c >= 0) cellTiles[fill[c]!++] = i;
    }
    for (let c = 0; c < cells; c++) {
      const part = Array.from(cellTiles.subarray(counts[c]!, counts[c + 1]!));
      part.sort((a, b) => tileY(map, b) - tileY(map, a) || a - b);
      cellTiles.set(part, counts[c]!);
    }
    this.cellStart = counts;
    this.cellTiles = cellTiles;
    this.tileCell = tileCell;
  }

  /** Places model m's polygons for tile i at polygon index `at`; returns the next index. */
  private placeModel(m: TrakModel, map: LlamaMap, tile: number, at: number, wfpc: number): number {
    const conv = this.conventions;
    const sc = sinCosTurn(map.fixedRot[tile * 3 + 1]!);
    const sin = sc.sin * conv.rotationSense;
    const cos = sc.cos;
    const tx = map.fixedPos[tile * 3]! / FIXED_ONE;
    const ty = map.fixedPos[tile * 3 + 1]! / FIXED_ONE;
    const tz = map.fixedPos[tile * 3 + 2]! / FIXED_ONE;
    const p = polygonCount(m);
    for (let q = 0; q < p; q++, at++) {
      const edges = polygonEdgeCount(m, q);
      this.edgeCount[at] = edges;
      this.material[at] = m.polygonMaterial[q]!;
      this.polyTile[at] = tile;
      this.polyLocal[at] = q;
      let ok = !materialIgnored(m.polygonMaterial[q]!, wfpc);
      for (let k = 0; k < 5; k++) {
        const ix = m.planeNormals[q * 15 + k * 3]!;
        const iy = m.planeNormals[q * 15 + k * 3 + 1]!;
        const iz = m.planeNormals[q * 15 + k * 3 + 2]!;
        const len2 = ix * ix + iy * iy + iz * iz;
        const o = at * POLY_STRIDE + k * 4;
        if (len2 === 0) {
          if (k <= edges) ok = false;
          continue;
        }
        const len = detSqrt(len2);
        // Unit normal in tile space; rotate about y (rotation 1024 turns local +z to +x with sense +1).
        const lx = ix / len, ly = iy / len, lz = iz / len;
        const wx = cos * lx + sin * lz;
        const wz = -sin * lx + cos * lz;
        // Canonical plane n·p − D: D from the stored d (4.12 over the normal scale), then translated.
        const dLocal = (conv.planeSign * m.planeD[q * 5 + k]! * conv.normalScale) / (FIXED_ONE * len);
        this.planes[o] = wx;
        this.planes[o + 1] = ly;
        this.planes[o + 2] = wz;
        this.planes[o + 3] = dLocal + wx * tx + ly * ty + wz * tz;
        this.planeHorizontal[at * 5 + k] = detSqrt(wx * wx + wz * wz);
        this.planeVertical[at * 5 + k] = ly < 0 ? -ly : ly;
      }
      this.active[at] = ok ? 1 : 0;
    }
    return at;
  }

  /** Number of cells (W·H). */
  get cellCount(): number {
    return this.width * this.height;
  }

  /** Polygon range start of tile i's current variant (kind 0 floors, 1 ceilings, 2 walls; 3 = end). */
  rangeOf(tile: number, kind: number): number {
    return this.ranges[(tile * 2 + this.variant[tile]!) * 4 + kind]!;
  }

  /** Signed distance of a point from plane k of polygon p (front/inside ≥ 0). */
  planeDistance(p: number, k: number, x: number, y: number, z: number): number {
    const o = p * POLY_STRIDE + k * 4;
    const pl = this.planes;
    return pl[o]! * x + pl[o + 1]! * y + pl[o + 2]! * z - pl[o + 3]!;
  }

  /** Whether (x, y, z) is inside polygon p's edge planes, within ε. */
  insideEdges(p: number, x: number, y: number, z: number, eps: number): boolean {
    const pl = this.planes;
    const e = this.edgeCount[p]!;
    let o = p * POLY_STRIDE + 4;
    for (let k = 0; k < e; k++, o += 4) {
      if (pl[o]! * x + pl[o + 1]! * y + pl[o + 2]! * z - pl[o + 3]! < -eps) return false;
    }
    return true;
  }

  /** Height of polygon p's surface plane at (x, z), NaN when the plane is (nearly) vertical. */
  surfaceHeight(p: number, x: number, z: number): number {
    const o = p * POLY_STRIDE;
    const pl = this.planes;
    const ny = pl[o + 1]!;
    if (ny < MIN_SURFACE_NY && ny > -MIN_SURFACE_NY) return NaN;
    return (pl[o + 3]! - pl[o]! * x - pl[o + 2]! * z) / ny;
  }

  /**
   * Floor and ceiling at (x, z) in the cell of that position: the highest floor with height ≤ floorLimit + ε
   * and the lowest ceiling with height ≥ ceilingLimit − ε. Results in the returned scratch (no allocation);
   * NaN / −1 when none.
   */
  query(x: number, z: number, floorLimit: number, ceilingLimit: number): GroundScratch {
    const s = this.scratch;
    s.floor = NaN;
    s.floorPoly = -1;
    s.ceiling = NaN;
    s.ceilingPoly = -1;
    const cell = positionCellOf(x, z, this.width, this.height);
    if (cell < 0) return s;
    const eps = this.conventions.edgeEpsilon;
    const fLim = floorLimit + eps;
    const cLim = ceilingLimit - eps;
    let best = -Infinity;
    let bestC = Infinity;
    let bestP = -1;
    let bestCP = -1;
    const pl = this.planes;
    const active = this.active;
    const edgeCount = this.edgeCount;
    const ranges = this.ranges;
    const variant = this.variant;
    const cellTiles = this.cellTiles;
    const end = this.cellStart[cell + 1]!;
    for (let t = this.cellStart[cell]!; t < end; t++) {
      const tile = cellTiles[t]!;
      const slot = (tile * 2 + variant[tile]!) * 4;
      const c0 = ranges[slot + 1]!, w0 = ranges[slot + 2]!;
      for (let p = ranges[slot]!; p < w0; p++) {
        if (active[p] === 0) continue;
        const o = p * POLY_STRIDE;
        const ny = pl[o + 1]!;
        if (ny < MIN_SURFACE_NY && ny > -MIN_SURFACE_NY) continue;
        const h = (pl[o + 3]! - pl[o]! * x - pl[o + 2]! * z) / ny;
        const isFloor = p < c0;
        if (isFloor) {
          if (!(h <= fLim) || !(h > best)) continue;
        } else if (!(h >= cLim) || !(h < bestC)) continue;
        // Inside every edge plane (within ε) at the surface point.
        const e = edgeCount[p]!;
        let q = o + 4;
        let inside = true;
        for (let k = 0; k < e; k++, q += 4) {
          if (pl[q]! * x + pl[q + 1]! * h + pl[q + 2]! * z - pl[q + 3]! < -eps) {
            inside = false;
            break;
          }
        }
        if (!inside) continue;
        if (isFloor) {
          best = h;
          bestP = p;
        } else {
          bestC = h;
          bestCP = p;
        }
      }
    }
    s.floorPoly = bestP;
    s.ceilingPoly = bestCP;
    if (s.floorPoly >= 0) s.floor = best;
    if (s.ceilingPoly >= 0) s.ceiling = bestC;
    return s;
  }
}
