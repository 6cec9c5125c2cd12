import { BinaryReader } from '../../binary/reader.js';
import { FormatError } from '../../binary/format-error.js';
import { chunkNamed, findChunks, holdsChunk } from './chunks.js';
import { WFPC_TILE_SWAPS } from './conventions.js';
import { checkFileBytes, checkLimit, DEFAULT_LIMITS, type Limits } from '../../limits.js';
import { floatBits } from '../../binary/float-bits.js';

/** Record sizes of the MAP geometry blocks (Croc 2 PC layout, see docs/formats/llama.md). */
export const FLOAT_TILE_SIZE = 24;
export const FIXED_TILE_SIZE = 24;
export const DOOR_SIZE = 90;
/** Croc 2 PC waypoints are 30 bytes (Aladdin PC: 34); we follow Croc 2 PC, whose colour block the seed has. */
export const WAYPOINT_SIZE = 30;
export const REGION_COUNT = 32;
export const SWAP_SIZE = 20;
/** Fields of a swap record: cell column, y (20.12), cell row, model A (normal), model B (alternative). */
export const SWAP_FIELDS = 5;

/** The MAP chunk's geometry part. Per-tile arrays have N entries (flat, stride noted). */
export interface LlamaMap {
  /** WFPC feature flags (from the file's WFPC chunk; 0 when it has none). */
  wfpc: number;
  width: number;
  height: number;
  tileCount: number;
  /** Float block (export space: z negated): x, y, z per tile, as float32 values. */
  floatPos: Float32Array;
  /** Float block rotation (4096 per turn; only bits 0xFF0 used), model, hasAlt. */
  floatRot: Int32Array;
  floatModel: Uint32Array;
  hasAlt: Uint32Array;
  /** Strat parameters, doors, waypoints: kept as they are. */
  params: Int32Array;
  doorCount: number;
  doors: Uint8Array;
  waypointCount: number;
  waypoints: Uint8Array;
  /** 32 regions: visibility mask and value (water level, 20.12). */
  regionMasks: Uint32Array;
  regionValues: Int32Array;
  /** Region number per cell, index col + row·W. */
  cellRegions: Uint32Array;
  /** Fixed block (game space, 20.12): rx, ry, rz per tile, and x, y, z per tile. */
  fixedRot: Int32Array;
  fixedPos: Int32Array;
  /** Model index block. */
  modelIndex: Uint32Array;
  /** Whether the swap block is present (WFPC 0x10000). */
  hasSwapBlock: boolean;
  swapCount: number;
  /** cellX, y, cellZ, modelA, modelB per swap. */
  swaps: Int32Array;
  /** The whole vertex-colour block as u32 BGRA words. */
  colours: Uint32Array;
  /** Per tile: first colour index, number of sets, vertices per set; then the swap model's colours. */
  colourStart: Uint32Array;
  colourSets: Uint32Array;
  colourVertices: Uint32Array;
  swapColourStart: Int32Array;
  swapColourVertices: Uint32Array;
  /** Everything after the colour block (strings, strats, cameras, ...), opaque. */
  tail: Uint8Array;
  /** File offsets of the blocks, for messages. */
  offsets: {
    payload: number;
    floatBlock: number;
    regions: number;
    cellRegions: number;
    fixedBlock: number;
    modelIndex: number;
    swaps: number;
    colours: number;
    tail: number;
    end: number;
  };
}

/**
 * A vertex colour word (bytes B, G, R, A) as r, g, b intensities: 0x80 is 1.0; the game doubles each byte
 * and clamps it, so anything from 0x80 up is full brightness. Into `out` (no allocation).
 */
export function vertexColourRgb(word: number, out: [number, number, number] = [0, 0, 0]): [number, number, number] {
  const b = word & 0xff, g = (word >>> 8) & 0xff, r = (word >>> 16) & 0xff;
  out[0] = Math.min(255, r * 2) / 255;
  out[1] = Math.min(255, g * 2) / 255;
  out[2] = Math.min(255, b * 2) / 255;
  return out;
}

/** Whether the bytes hold a MAP chunk (after WFPC, in a chunk sequence or a whole WAD). */
export function detectMap(bytes: Uint8Array): boolean {
  return holdsChunk(bytes, 'llama MAP', 'MAP ');
}

/**
 * Parses the MAP chunk of a `.map` file (a chunk sequence or a whole WAD) and its WFPC flags. `vertexCounts[m]`
 * is the vertex count of TRAK model m (`trak.models.map((m) => m.vertices.length / 6)`): the colour block's
 * layout depends on it. Throws a FormatError (format "llama MAP") naming the byte offset on any fault.
 */
export function parseMap(bytes: Uint8Array, vertexCounts: ArrayLike<number>, limits: Readonly<Limits> = DEFAULT_LIMITS): LlamaMap {
  checkFileBytes('llama MAP', bytes.length, limits);
  const chunks = findChunks(bytes, 'llama MAP');
  if (chunks === null) throw new FormatError('llama MAP', 0, 'not a chunk sequence or WAD (no known chunk tag at offset 0 or 4)');
  const c = chunkNamed(chunks, 'MAP ');
  if (c === null) throw new FormatError('llama MAP', 0, 'no MAP chunk in the file');
  const wf = chunkNamed(chunks, 'WFPC');
  let wfpc = 0;
  if (wf !== null) {
    if (wf.size < 4) throw new FormatError('llama MAP', wf.payload, `WFPC chunk has ${wf.size} bytes, needs 4`);
    wfpc = new BinaryReader(bytes, 'llama MAP').u32At(wf.payload, 'WFPC flags');
  }
  const r = new BinaryReader(bytes.subarray(0, c.payload + c.size), 'llama MAP');
  r.seek(c.payload);
  return parseMapPayload(r, wfpc, vertexCounts, limits);
}

/** Parses a MAP payload from the reader's position to its end. */
export function parseMapPayload(r: BinaryReader, wfpc: number, vertexCounts: ArrayLike<number>, limits: Readonly<Limits> = DEFAULT_LIMITS): LlamaMap {
  const payload = r.pos;
  const tileCount = r.u32('tile count');
  const width = r.u32('grid width');
  const height = r.u32('grid height');
  r.checkCount(tileCount, FLOAT_TILE_SIZE + FIXED_TILE_SIZE + 4, 'tiles');
  checkLimit('llama MAP', payload, 'tile count', tileCount, limits.llama.tiles, 'llama.tiles');
  const floatBlock = r.pos;
  const floatPos = new Float32Array(tileCount * 3);
  const posBits = floatBits(floatPos);
  const floatRot = new Int32Array(tileCount);
  const floatModel = new Uint32Array(tileCount);
  const hasAlt = new Uint32Array(tileCount);
  for (let i = 0; i < tileCount; i++) {
    posBits[i * 3] = r.f32bits('tile x');
    posBits[i * 3 + 1] = r.f32bits('tile y');
    posBits[i * 3 + 2] = r.f32bits('tile z');
    floatRot[i] = r.i32('tile rotation');
    floatModel[i] = r.u32('tile model');
    hasAlt[i] = r.u32('tile hasAlt');
  }
  const paramCount = r.checkCount(r.u32('parameter count'), 4, 'strat parameters');
  const params = new Int32Array(paramCount);
  for (let i = 0; i < paramCount; i++) params[i] = r.i32('strat parameter');
  const doorCount = r.checkCount(r.u32('door count'), DOOR_SIZE, 'doors');
  const doors = r.bytesCopy(doorCount * DOOR_SIZE, 'doors');
  const waypointCount = r.checkCount(r.u32('waypoint count'), WAYPOINT_SIZE, 'waypoints');
  const waypoints = r.bytesCopy(waypointCount * WAYPOINT_SIZE, 'waypoints');
  const regions = r.pos;
  r.need(REGION_COUNT * 8, 'region table');
  const regionMasks = new Uint32Array(REGION_COUNT);
  const regionValues = new Int32Array(REGION_COUNT);
  for (let i = 0; i < REGION_COUNT; i++) {
    regionMasks[i] = r.u32('region mask');
    regionValues[i] = r.i32('region value');
  }
  const cellRegionsAt = r.pos;
  const cells = r.checkCount(width * height, 4, `region numbers of ${width}×${height} cells`);
  checkLimit('llama MAP', payload + 4, `grid of ${width}×${height} cells`, cells, limits.llama.gridCells, 'llama.gridCells');
  const cellRegions = new Uint32Array(cells);
  for (let i = 0; i < cells; i++) cellRegions[i] = r.u32('cell region');
  const fixedBlock = r.pos;
  r.checkCount(tileCount, FIXED_TILE_SIZE, 'fixed-point tiles');
  const fixedRot = new Int32Array(tileCount * 3);
  const fixedPos = new Int32Array(tileCount * 3);
  for (let i = 0; i < tileCount; i++) {
    for (let k = 0; k < 3; k++) fixedRot[i * 3 + k] = r.i32('tile fixed rotation');
    for (let k = 0; k < 3; k++) fixedPos[i * 3 + k] = r.i32('tile fixed position');
  }
  const modelIndexAt = r.pos;
  r.checkCount(tileCount, 4, 'model index');
  const modelIndex = new Uint32Array(tileCount);
  for (let i = 0; i < tileCount; i++) modelIndex[i] = r.u32('model index');
  const swapsAt = r.pos;
  const hasSwapBlock = (wfpc & WFPC_TILE_SWAPS) !== 0;
  let swapCount = 0;
  let swaps = new Int32Array(0);
  if (hasSwapBlock) {
    swapCount = r.checkCount(r.u32('swap count'), SWAP_SIZE, 'tile swaps');
    swaps = new Int32Array(swapCount * SWAP_FIELDS);
    for (let i = 0; i < swapCount * SWAP_FIELDS; i++) swaps[i] = r.i32('tile swap');
  }
  // Vertex colours: per tile one set per vertex of its model, more sets when the largest alpha says so,
  // then the same number of sets for the swap model of a tile with a swap.
  const coloursAt = r.pos;
  const colourStart = new Uint32Array(tileCount);
  const colourSets = new Uint32Array(tileCount);
  const colourVertices = new Uint32Array(tileCount);
  const swapColourStart = new Int32Array(tileCount).fill(-1);
  const swapColourVertices = new Uint32Array(tileCount);
  let word = 0;
  let altSeen = 0;
  for (let i = 0; i < tileCount; i++) {
    const m = modelIndex[i]!;
    if (m >= vertexCounts.length) r.fail(`tile ${i}: model index ${m} is beyond the ${vertexCounts.length} TRAK models`, modelIndexAt + i * 4);
    const v = vertexCounts[m]!;
    r.checkCount(v, 4, `tile ${i} vertex colours`);
    let maxAlpha = 0;
    for (let k = 0; k < v; k++) {
      const a = r.u8At(r.pos + k * 4 + 3, 'vertex colour');
      if (a > maxAlpha) maxAlpha = a;
    }
    const sets = maxAlpha > 1 ? maxAlpha : 1;
    r.checkCount(v * sets, 4, `tile ${i} vertex colour sets`);
    colourStart[i] = word;
    colourSets[i] = sets;
    colourVertices[i] = v;
    r.skip(v * sets * 4, 'vertex colours');
    word += v * sets;
    if (hasAlt[i] !== 0 && hasSwapBlock) {
      const k = altSeen++;
      // A tile marked hasAlt without a swap entry has no swap colours here (the checker reports it).
      if (k < swapCount) {
        const b = swaps[k * SWAP_FIELDS + 4]!;
        if (b < 0 || b >= vertexCounts.length) r.fail(`swap ${k}: model ${b} is beyond the ${vertexCounts.length} TRAK models`, swapsAt + 4 + k * SWAP_SIZE + 16);
        const vs = vertexCounts[b]!;
        r.checkCount(vs * sets, 4, `tile ${i} swap-model vertex colours`);
        swapColourStart[i] = word;
        swapColourVertices[i] = vs;
        r.skip(vs * sets * 4, 'swap vertex colours');
        word += vs * sets;
      }
    }
  }
  const colours = new Uint32Array(word);
  for (let k = 0; k < word; k++) colours[k] = r.u32At(coloursAt + k * 4, 'vertex colour');
  const tailAt = r.pos;
  const tail = r.bytesCopy(r.remaining, 'objects');
  return {
    wfpc, width, height, tileCount, floatPos, floatRot, floatModel, hasAlt, params, doorCount, doors, waypointCount, waypoints,
    regionMasks, regionValues, cellRegions, fixedRot, fixedPos, modelIndex, hasSwapBlock, swapCount, swaps, colours, colourStart,
    colourSets, colourVertices, swapColourStart, swapColourVertices, tail,
    offsets: {
      payload, floatBlock, regions, cellRegions: cellRegionsAt, fixedBlock, modelIndex: modelIndexAt, swaps: swapsAt, colours: coloursAt,
      tail: tailAt, end: r.pos,
    },
  };
}
