/**
 * The Rugrats line-of-sight walk in WebAssembly: `RugratsWorld.segmentFraction` over batches (the
 * `SegmentStopWalker` walk, then the stop point's fraction), one kernel call per chunk of up to `WASM_CHUNK`
 * segments, bit for bit the JavaScript's answers (the kernel, wasm/rugrats-walk.ts, is the same integer
 * operations in the same order; a property test compares every answer). The kernel's bytes are carried in a
 * module of the package (walk-kernel-bytes.js, built from the AssemblyScript source), compiled once per process,
 * and instantiated once per world with the index's tables (and the walker's own) copied into its memory.
 */
import { RUGRATS_WALK_WASM } from './walk-kernel-bytes.js';
import type { ColIndex } from './col-index.js';
import type { SegmentStopWalker } from './segment-stop.js';
import { lazyWasmModule, walkInChunks } from '../wasm-module.js';

/** Segments per kernel call: the batch is copied into the kernel's memory in chunks of this many. */
export const WASM_CHUNK = 4096;

/** The kernel's exports. */
interface WalkExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  init(gridAt: number, cellsAt: number, nCells: number, tilesAt: number, tileBytesAt: number, nTiles: number, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): void;
  walkMany(segmentsAt: number, outAt: number, n: number): void;
}

const kernelModule = lazyWasmModule(RUGRATS_WALK_WASM);

/** The compiled kernel, or null when this engine cannot compile it (`rugratsWalkWasmError` says why). */
export function rugratsWalkWasmModule(): WebAssembly.Module | null {
  return kernelModule.module();
}

/** Why the kernel did not compile ('' when it did or was not tried). */
export function rugratsWalkWasmError(): string {
  return kernelModule.error();
}

const align = (n: number, a: number): number => Math.ceil(n / a) * a;

/** The walk over one level's index in a WebAssembly instance of its own (see the module comment). */
export class WasmLevelWalker {
  private readonly kernel: WalkExports;
  private readonly segmentsAt: number;
  private readonly outAt: number;
  private readonly segmentView: Float64Array;
  private readonly outView: Float64Array;
  /** One kernel call over the chunk in the kernel's memory. */
  private readonly walkChunk = (m: number): void => this.kernel.walkMany(this.segmentsAt, this.outAt, m);

  /**
   * @param module the compiled kernel (`rugratsWalkWasmModule`)
   * @param walker the JavaScript walker over the level's index, whose tables (flat stacks, open spans, flat
   *   tiles) are copied with the index's
   */
  constructor(module: WebAssembly.Module, walker: SegmentStopWalker) {
    const ix: ColIndex = walker.ix;
    const nCells = ix.cellStackA.length;
    const nTiles = ix.tileFlags.length;
    if (ix.cellGrid.length !== 512 * 256) throw new Error('the Rugrats walk kernel does not match the index layout');
    const kernel = new WebAssembly.Instance(module, {}).exports as unknown as WalkExports;
    this.kernel = kernel;
    const gridAt = align(kernel.heapBase(), 16);
    const cellsAt = gridAt + ix.cellGrid.length * 4;
    const tilesAt = align(cellsAt + 5 * nCells * 4, 16);
    const tileBytesAt = tilesAt + 8 * nTiles * 4;
    this.segmentsAt = align(tileBytesAt + 4 * nTiles, 16);
    this.outAt = this.segmentsAt + WASM_CHUNK * 48;
    const end = this.outAt + WASM_CHUNK * 8;
    const memory = kernel.memory;
    const pages = Math.ceil(end / 65536) - memory.buffer.byteLength / 65536;
    if (pages > 0) memory.grow(pages);
    const buffer = memory.buffer;
    new Int32Array(buffer, gridAt, ix.cellGrid.length).set(ix.cellGrid);
    const cells = new Int32Array(buffer, cellsAt, 5 * nCells);
    [ix.cellStackA, ix.cellStackB, walker.flatStack, walker.openLow, walker.openHigh].forEach((a, k) => cells.set(a, k * nCells));
    const tiles = new Int32Array(buffer, tilesAt, 8 * nTiles);
    tiles.set(ix.tileFloor, 0);
    tiles.set(ix.tileCeiling, nTiles);
    tiles.set(ix.tileFloorNormal, 2 * nTiles);
    tiles.set(ix.tileCeilingNormal, 5 * nTiles);
    const bytes = new Uint8Array(buffer, tileBytesAt, 4 * nTiles);
    [ix.tileFlags, ix.tileFloorSloped, ix.tileCeilingSloped, walker.flatTile].forEach((a, k) => bytes.set(a, k * nTiles));
    this.segmentView = new Float64Array(buffer, this.segmentsAt, WASM_CHUNK * 6);
    this.outView = new Float64Array(buffer, this.outAt, WASM_CHUNK);
    kernel.init(gridAt, cellsAt, nCells, tilesAt, tileBytesAt, nTiles, ix.minX, ix.minY, ix.minZ, ix.maxX, ix.maxY, ix.maxZ);
  }

  /** `RugratsWorld.segmentFraction` of every segment of `segments[start..end)`, answered into `out`, bit for bit. */
  walkMany(segments: Float64Array, start: number, end: number, out: Float64Array): void {
    walkInChunks(segments, start, end, out, this.segmentView, this.outView, this.walkChunk);
  }
}
