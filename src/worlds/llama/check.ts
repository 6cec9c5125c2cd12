import { BinaryReader } from '../../binary/reader.js';
import { FormatError } from '../../binary/format-error.js';
import { LlamaCollision, POLY_STRIDE } from './collision.js';
import {
  FIXED_ONE, FIXED_ROT_MASK, FLOAT_ROT_MASK, WFPC_CAMERA_POINTS, WFPC_MAX_PARTICLES, WFPC_TILE_SWAPS, resolveConventions,
  tileCellOf, tileCellTruncated, type LlamaConventions,
} from './conventions.js';
import { parseMap, REGION_COUNT, SWAP_FIELDS, type LlamaMap } from './map-parse.js';
import { cornersOverlapCell, polygonCorners } from './polygon-geometry.js';
import { regionMask, regionVisible } from './regions.js';
import { FACE_BATCH_START, MAX_BATCH_FACES, MAX_MODEL_VERTICES, parseTrak, type Trak } from './trak-parse.js';

/**
 * The level checker: every broken rule that crashes the game or corrupts a level (the seed's list), plus a
 * few warnings, each with the tile and cell it concerns. Bad bytes throw FormatError from the parsers.
 */

/** The rules checkLevel knows, each the name a CheckProblem carries. */
export type CheckRule =
  | 'tile-outside-grid'
  | 'tile-cell-formulas-disagree'
  | 'float-fixed-mismatch'
  | 'tile-tilted'
  | 'model-index-mismatch'
  | 'swap-mismatch'
  | 'colours-not-per-vertex'
  | 'polygon-beyond-8'
  | 'polygon-open'
  | 'polygon-degenerate'
  | 'polygon-unlisted-in-cell'
  | 'invisible-geometry'
  | 'region-out-of-range'
  | 'face-vertex-out-of-range'
  | 'too-many-vertices'
  | 'face-batch-flags';

/** One broken rule, and the tile, cell and polygon it concerns. */
export interface CheckProblem {
  rule: CheckRule;
  /** An error crashes the game or corrupts the level; a warning is suspicious. */
  severity: 'error' | 'warning';
  /** Tile index (−1 when the problem is not one tile's). */
  tile: number;
  /** Cell index col + row·W (−1 outside the grid or not applicable). */
  cell: number;
  /** Polygon index within the tile's model, when it concerns one. */
  polygon?: number;
  detail: string;
}

/** checkLevel's answer: every problem found, and the counts. */
export interface CheckReport {
  /** True when there is no error (warnings allowed). */
  ok: boolean;
  errors: number;
  warnings: number;
  problems: CheckProblem[];
}

/** Polygon corners further than this from the tile origin on any axis break the ±8 rule. */
export const POLYGON_LIMIT = 8;
/** A polygon must reach more than this into a neighbouring cell to count as sticking into it. */
export const CELL_OVERLAP_MARGIN = 1 / 256;
/** Planes equal within this (unit normal components and D) count as the same polygon listed again. */
export const SAME_POLYGON_TOLERANCE = 1 / 1024;
/** Size of a strat record and of a string in the object section (Croc 2 PC). */
export const STRAT_RECORD_SIZE = 58;
export const STRING_RECORD_SIZE = 48;

/**
 * Whether the bytes after the colour block parse as the object section (strings, strats, cameras,
 * particles, level flag) and end exactly at the chunk end. A colour block that is not one entry per vertex
 * shifts everything after it, so this is how a wrong count shows. Returns null when fine or not checkable
 * (camera tables, WFPC 0x200000, have no public layout), else what went wrong.
 */
export function objectSectionError(map: LlamaMap): string | null {
  return objectSectionErrorOf(map.tail, map.wfpc);
}

/** How far (in colour entries) the colour block would have to move for the objects to parse; see below. */
export const COLOUR_SHIFT_SEARCH = 256;

/**
 * The number of colour entries the block seems to have too many (> 0) or too few (< 0): the smallest shift
 * of the object section's start, in 4-byte steps, after which it parses exactly. Null when none does within
 * ±COLOUR_SHIFT_SEARCH (or the section is fine or not checkable). Which tile is wrong cannot be told from
 * the bytes when every set count is 1: the shift is the same wherever the entries are missing.
 */
export function colourBlockShift(map: LlamaMap): number | null {
  if (objectSectionError(map) === null) return null;
  const colourBytes = new Uint8Array(map.colours.length * 4);
  const view = new DataView(colourBytes.buffer);
  map.colours.forEach((c, i) => view.setUint32(i * 4, c, true));
  for (let k = 1; k <= COLOUR_SHIFT_SEARCH; k++) {
    if (k * 4 <= map.tail.length && objectSectionErrorOf(map.tail.subarray(k * 4), map.wfpc) === null) return k;
    if (k * 4 <= colourBytes.length) {
      const t = new Uint8Array(k * 4 + map.tail.length);
      t.set(colourBytes.subarray(colourBytes.length - k * 4));
      t.set(map.tail, k * 4);
      if (objectSectionErrorOf(t, map.wfpc) === null) return -k;
    }
  }
  return null;
}

function objectSectionErrorOf(tail: Uint8Array, wfpc: number): string | null {
  if (wfpc & WFPC_CAMERA_POINTS) return null;
  const r = new BinaryReader(tail, 'llama MAP objects');
  try {
    const strings = r.checkCount(r.u32('string count'), STRING_RECORD_SIZE, 'strings');
    r.skip(strings * STRING_RECORD_SIZE, 'strings');
    const strats = r.u32('strat count');
    r.u32('max strats');
    r.checkCount(strats, STRAT_RECORD_SIZE, 'strats');
    r.skip(strats * STRAT_RECORD_SIZE, 'strats');
    if (wfpc & WFPC_MAX_PARTICLES) r.i32('max particles');
    r.i16('level flag');
    if (r.remaining !== 0) return `${r.remaining} bytes left after the level flag`;
    return null;
  } catch (e) {
    if (e instanceof FormatError) return `${e.detail} (at byte ${e.offset} of the object section)`;
    throw e;
  }
}

/** Checks a level given as `.trak` and `.map` bytes (see checkLevel). Bytes that do not parse throw FormatError. */
export function checkLevelBytes(trakBytes: Uint8Array, mapBytes: Uint8Array, conventions?: Partial<LlamaConventions>): CheckReport {
  const trak = parseTrak(trakBytes);
  const map = parseMap(mapBytes, trak.models.map((m) => m.vertices.length / 6));
  return checkLevel(trak, map, conventions);
}

/**
 * Checks a parsed level against every rule that crashes the game or corrupts a level (tiles outside the grid or
 * tilted, float and fixed copies that disagree, polygons beyond ±8 tiles or not listed in a cell they reach,
 * swaps, colours, regions, faces), plus a few warnings, each with the tile and cell it concerns.
 */
export function checkLevel(trak: Trak, map: LlamaMap, conventions?: Partial<LlamaConventions>): CheckReport {
  const conv = resolveConventions(conventions);
  const problems: CheckProblem[] = [];
  const add = (rule: CheckRule, severity: 'error' | 'warning', tile: number, cell: number, detail: string, polygon?: number): void => {
    const p: CheckProblem = { rule, severity, tile, cell, detail };
    if (polygon !== undefined) p.polygon = polygon;
    problems.push(p);
  };
  const W = map.width, H = map.height, n = map.tileCount;
  const cellOf = new Int32Array(n);
  // Models: faces and vertex limits (reported once per model through the first tile using it).
  const modelProblems = new Map<number, [CheckRule, 'error' | 'warning', string][]>();
  trak.models.forEach((m, mi) => {
    const list: [CheckRule, 'error' | 'warning', string][] = [];
    const v = m.vertices.length / 6;
    for (let f = 0; f < m.faceVertices.length; f++) {
      if (m.faceVertices[f]! >= v) {
        list.push(['face-vertex-out-of-range', 'error', `model ${mi} face ${Math.floor(f / 3)} uses vertex ${m.faceVertices[f]} of ${v}`]);
        break;
      }
    }
    let run = 0;
    for (let f = 0; f < m.faceFlags.length; f++) {
      const starts = (m.faceFlags[f]! & FACE_BATCH_START) !== 0;
      run = starts ? 1 : run + 1;
      if (f === 0 && !starts) {
        list.push(['face-batch-flags', 'warning', `model ${mi}: the first face lacks the batch flag 0x8`]);
        break;
      }
      if (run > MAX_BATCH_FACES) {
        list.push(['face-batch-flags', 'warning', `model ${mi}: more than ${MAX_BATCH_FACES} faces without the batch flag 0x8 (face ${f})`]);
        break;
      }
    }
    if (v > MAX_MODEL_VERTICES) list.push(['too-many-vertices', 'warning', `model ${mi} has ${v} vertices (limit ${MAX_MODEL_VERTICES})`]);
    if (list.length) modelProblems.set(mi, list);
  });
  const reportedModels = new Set<number>();

  // Tiles: grid, copies, model index.
  for (let i = 0; i < n; i++) {
    const fx = map.floatPos[i * 3]!, fy = map.floatPos[i * 3 + 1]!, fz = map.floatPos[i * 3 + 2]!;
    const cell = tileCellOf(fx, fz, W, H);
    cellOf[i] = cell;
    if (cell < 0) add('tile-outside-grid', 'error', i, -1, `tile at x ${fx}, z ${fz} is outside the ${W}×${H} grid: its cell list entry would be written into foreign memory`);
    else if (tileCellTruncated(fx, fz, W, H) !== cell) {
      add('tile-cell-formulas-disagree', 'warning', i, cell, `origin (${fx}, ${fz}) is off its cell centre: floor(x)+floor(−z)·W and the loader's trunc(x−0.5) give different cells`);
    }
    const px = map.fixedPos[i * 3]!, py = map.fixedPos[i * 3 + 1]!, pz = map.fixedPos[i * 3 + 2]!;
    const mism: string[] = [];
    if (px !== fx * FIXED_ONE) mism.push(`x ${fx} vs ${px}/4096`);
    if (py !== fy * FIXED_ONE) mism.push(`y ${fy} vs ${py}/4096`);
    if (pz !== -fz * FIXED_ONE) mism.push(`z ${fz} vs −${pz}/4096 (game space)`);
    const rf = map.floatRot[i]! & FLOAT_ROT_MASK, rx = map.fixedRot[i * 3 + 1]! & FIXED_ROT_MASK;
    if (rf !== rx) mism.push(`rotation ${rf} vs ${rx}`);
    if (mism.length) add('float-fixed-mismatch', 'error', i, cell, `float and fixed-point copies disagree: ${mism.join(', ')}`);
    if ((map.fixedRot[i * 3]! & FIXED_ROT_MASK) !== 0 || (map.fixedRot[i * 3 + 2]! & FIXED_ROT_MASK) !== 0) {
      add('tile-tilted', 'warning', i, cell, 'rotation about x or z: tiles turn only about y, and collision ignores the rest');
    }
    if (map.modelIndex[i] !== map.floatModel[i]) {
      add('model-index-mismatch', 'error', i, cell, `model index ${map.modelIndex[i]} but the float block says ${map.floatModel[i]}`);
    }
    const mi = map.modelIndex[i]!;
    if (!reportedModels.has(mi) && modelProblems.has(mi)) {
      reportedModels.add(mi);
      for (const [rule, sev, detail] of modelProblems.get(mi)!) add(rule, sev, i, cell, detail);
    }
  }

  // Swaps: one per tile with hasAlt ≠ 0, in tile order, naming that tile's cell and model.
  let k = 0;
  for (let i = 0; i < n; i++) {
    const h = map.hasAlt[i]!;
    if (h === 0) continue;
    const cell = cellOf[i]!;
    if (h !== 1) add('swap-mismatch', 'error', i, cell, `hasAlt is ${h}, must be 0 or 1`);
    if (!map.hasSwapBlock) {
      add('swap-mismatch', 'error', i, cell, `hasAlt is set but WFPC flag 0x${WFPC_TILE_SWAPS.toString(16)} (tile swaps) is clear`);
      continue;
    }
    if (k >= map.swapCount) {
      add('swap-mismatch', 'error', i, cell, `hasAlt is set but the swap block has only ${map.swapCount} entries`);
      k++;
      continue;
    }
    const s = k * SWAP_FIELDS;
    const col = cell >= 0 ? cell % W : -1, row = cell >= 0 ? Math.floor(cell / W) : -1;
    const sx = map.swaps[s]!, sz = map.swaps[s + 2]!, a = map.swaps[s + 3]!, b = map.swaps[s + 4]!;
    if (sx !== col || sz !== row) add('swap-mismatch', 'error', i, cell, `swap ${k} names cell (${sx}, ${sz}) but its tile is in (${col}, ${row})`);
    if (a !== map.modelIndex[i]) add('swap-mismatch', 'error', i, cell, `swap ${k} model A ${a} is not the tile's model ${map.modelIndex[i]}`);
    if (b < 0 || b >= trak.models.length) add('swap-mismatch', 'error', i, cell, `swap ${k} model B ${b} is not a TRAK model`);
    k++;
  }
  if (map.hasSwapBlock && map.swapCount > k) {
    add('swap-mismatch', 'error', -1, -1, `the swap block has ${map.swapCount} entries but only ${k} tiles have hasAlt set`);
  }

  // Colours: one set per vertex shows in the object section parsing exactly; also the set counts.
  const objErr = objectSectionError(map);
  if (objErr !== null) {
    const shift = colourBlockShift(map);
    const hint = shift === null ? '' : `; they would parse with ${Math.abs(shift)} colour entr${Math.abs(shift) === 1 ? 'y' : 'ies'} ${shift > 0 ? 'fewer' : 'more'} in the block`;
    add('colours-not-per-vertex', 'error', -1, -1, `the objects after the vertex colours do not parse (${objErr})${hint}: the colour block is not exactly one entry per vertex of each tile's model`);
  }
  for (let i = 0; i < n; i++) {
    if (map.colourVertices[i] === 0) continue;
    const first = map.colours[map.colourStart[i]!]! >>> 24;
    if (first !== map.colourSets[i] && !(first === 0 && map.colourSets[i] === 1)) {
      add('colours-not-per-vertex', 'warning', i, cellOf[i]!, `the first colour's alpha ${first} should be the number of colour sets (${map.colourSets[i]})`);
    }
  }

  // Polygons: ±8, closed, degenerate; sticking into a neighbouring cell without being listed there.
  const col = new LlamaCollision(trak, map, conv);
  for (let i = 0; i < n; i++) {
    for (let v = 0; v < 2; v++) {
      const slot = (i * 2 + v) * 4;
      const start = col.ranges[slot]!, end = col.ranges[slot + 3]!;
      if (start === end) continue;
      for (let p = start; p < end; p++) {
        const q = col.polyLocal[p]!;
        const edges = col.edgeCount[p]!;
        // Extent relative to the tile origin (the ±8 rule), from the placed corners.
        const tx = map.fixedPos[i * 3]! / FIXED_ONE, ty = map.fixedPos[i * 3 + 1]! / FIXED_ONE, tz = map.fixedPos[i * 3 + 2]! / FIXED_ONE;
        const corners = polygonCorners(col.planes, p * POLY_STRIDE, edges);
        if (isDegenerate(col, p)) {
          add('polygon-degenerate', 'error', i, cellOf[i]!, `${v ? 'swap model ' : ''}polygon ${q} has a zero-length plane normal; collision skips it`, q);
          continue;
        }
        if (corners.length / 3 < edges) {
          add('polygon-open', 'error', i, cellOf[i]!, `${v ? 'swap model ' : ''}polygon ${q}: its edge planes do not close a ${edges}-sided polygon`, q);
          continue;
        }
        let far = 0;
        for (let c = 0; c < corners.length; c += 3) {
          far = Math.max(far, Math.abs(corners[c]! - tx), Math.abs(corners[c + 1]! - ty), Math.abs(corners[c + 2]! - tz));
        }
        if (far > POLYGON_LIMIT) {
          add('polygon-beyond-8', 'error', i, cellOf[i]!, `${v ? 'swap model ' : ''}polygon ${q} reaches ${far.toFixed(3)} units from the tile origin (limit ±8)`, q);
          // Its cells are not checked: that keeps the cell scan within 17 × 17 cells per polygon.
          continue;
        }
        const own = cellOf[i]!;
        if (own < 0 || col.active[p] === 0) continue;
        let minX = Infinity, maxX = -Infinity, minZ = Infinity, maxZ = -Infinity;
        for (let c = 0; c < corners.length; c += 3) {
          minX = Math.min(minX, corners[c]!); maxX = Math.max(maxX, corners[c]!);
          minZ = Math.min(minZ, corners[c + 2]!); maxZ = Math.max(maxZ, corners[c + 2]!);
        }
        const c0 = Math.max(0, Math.floor(minX)), c1 = Math.min(W - 1, Math.floor(maxX));
        const r0 = Math.max(0, Math.floor(minZ)), r1 = Math.min(H - 1, Math.floor(maxZ));
        for (let rr = r0; rr <= r1; rr++) {
          for (let cc = c0; cc <= c1; cc++) {
            const cell = cc + rr * W;
            if (cell === own || !cornersOverlapCell(corners, cc, rr, CELL_OVERLAP_MARGIN)) continue;
            if (!listedIn(col, cell, p)) {
              add('polygon-unlisted-in-cell', 'error', i, own, `${v ? 'swap model ' : ''}polygon ${q} sticks into cell ${cell} (${cc}, ${rr}) but no tile listed there has it: it has no effect there`, q);
            }
          }
        }
      }
    }
  }

  // Regions: geometry in a cell whose region no region's mask includes.
  const used = new Set<number>();
  for (let c = 0; c < map.cellRegions.length; c++) used.add(map.cellRegions[c]!);
  const masks = [...used].sort((a, b) => a - b).map((r) => regionMask(map, r));
  for (let c = 0; c < map.cellRegions.length; c++) {
    const r = map.cellRegions[c]!;
    if (r >= REGION_COUNT) {
      add('region-out-of-range', 'warning', -1, c, `cell region ${r} is beyond the ${REGION_COUNT}-entry table`);
    }
  }
  for (let i = 0; i < n; i++) {
    const c = cellOf[i]!;
    if (c < 0) continue;
    const r = map.cellRegions[c]!;
    if (!masks.some((m) => regionVisible(m, r))) {
      add('invisible-geometry', 'error', i, c, `the cell is in region ${r}, which no region's visibility mask includes: the tile is never drawn`);
    }
  }
  const errors = problems.filter((p) => p.severity === 'error').length;
  return { ok: errors === 0, errors, warnings: problems.length - errors, problems };
}

function isDegenerate(col: LlamaCollision, p: number): boolean {
  const e = col.edgeCount[p]!;
  for (let k = 0; k <= e; k++) {
    const o = p * POLY_STRIDE + k * 4;
    if (col.planes[o] === 0 && col.planes[o + 1] === 0 && col.planes[o + 2] === 0) return true;
  }
  return false;
}

/** Whether some tile listed in `cell` (either variant) has a polygon with the same world planes as p. */
function listedIn(col: LlamaCollision, cell: number, p: number): boolean {
  const e = col.edgeCount[p]!;
  for (let t = col.cellStart[cell]!; t < col.cellStart[cell + 1]!; t++) {
    const tile = col.cellTiles[t]!;
    for (let v = 0; v < 2; v++) {
      const slot = (tile * 2 + v) * 4;
      for (let q = col.ranges[slot]!; q < col.ranges[slot + 3]!; q++) {
        if (col.edgeCount[q] !== e || col.active[q] === 0) continue;
        if (samePolygon(col, p, q, e)) return true;
      }
    }
  }
  return false;
}

/** Same surface plane and the same set of edge planes (in any order), within tolerance. */
function samePolygon(col: LlamaCollision, a: number, b: number, edges: number): boolean {
  const pl = col.planes;
  const eq = (oa: number, ob: number): boolean => {
    for (let k = 0; k < 4; k++) if (Math.abs(pl[oa + k]! - pl[ob + k]!) > SAME_POLYGON_TOLERANCE) return false;
    return true;
  };
  if (!eq(a * POLY_STRIDE, b * POLY_STRIDE)) return false;
  for (let i = 1; i <= edges; i++) {
    let found = false;
    for (let j = 1; j <= edges && !found; j++) found = eq(a * POLY_STRIDE + i * 4, b * POLY_STRIDE + j * 4);
    if (!found) return false;
  }
  return true;
}
