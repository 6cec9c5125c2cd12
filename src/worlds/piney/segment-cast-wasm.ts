/**
 * The Piney field's segment cast in WebAssembly: `FieldSegmentCaster.castMany` over batches, one kernel call per
 * chunk of up to `WASM_CHUNK` segments, bit for bit the JavaScript's answers (the kernel, wasm/piney-cast.ts, is
 * the same operations in the same order; a property test compares every answer). The kernel's bytes are carried
 * in a module of the package (cast-kernel-bytes.js, built from the AssemblyScript source), compiled once per
 * process, and instantiated once per world with the field's tables copied into its memory.
 */
import { PINEY_CAST_WASM } from './cast-kernel-bytes.js';
import { CELLS, CELL_UNITS, CHIPS } from './field-state.js';
import { lazyWasmModule, walkInChunks } from '../wasm-module.js';

/** Segments per kernel call: the batch is copied into the kernel's memory in chunks of this many. */
export const WASM_CHUNK = 4096;

/** The kernel's exports. */
interface CastExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  init(heightsAt: number, topsAt: number, blockerAt: number, columnsAt: number, maxTop: number): void;
  castMany(segmentsAt: number, outAt: number, restAt: number, n: number): void;
}

const kernelModule = lazyWasmModule(PINEY_CAST_WASM);

/** The compiled kernel, or null when this engine cannot compile it (`pineyCastWasmError` says why). */
export function pineyCastWasmModule(): WebAssembly.Module | null {
  return kernelModule.module();
}

/** Why the kernel did not compile ('' when it did or was not tried). */
export function pineyCastWasmError(): string {
  return kernelModule.error();
}

const align = (n: number, a: number): number => Math.ceil(n / a) * a;

/** The cast over one field's tables in a WebAssembly instance of its own (see the module comment). */
export class WasmFieldCaster {
  private readonly kernel: CastExports;
  private readonly segmentsAt: number;
  private readonly outAt: number;
  private readonly restAt: number;
  private readonly segmentView: Float64Array;
  private readonly outView: Float64Array;
  /** One kernel call over the chunk in the kernel's memory. */
  private readonly castChunk = (m: number): void => this.kernel.castMany(this.segmentsAt, this.outAt, this.restAt, m);

  /**
   * @param module the compiled kernel (`pineyCastWasmModule`)
   * @param heights the field's heights as doubles, x-major (80 × 80)
   * @param squareTop `FieldSegmentCaster.squareTop`: five levels of 80 × 80 tops
   * @param blocker per chip (x-major, 40 × 40) the object whose column covers it, or −1
   * @param blockerTop per object the top of its column
   * @param maxTop the highest surface or column top of the field
   */
  constructor(module: WebAssembly.Module, heights: Float64Array, squareTop: readonly Float64Array[], blocker: Int16Array, blockerTop: Float64Array, maxTop: number) {
    // The kernel is written for these sizes.
    if (CELLS !== 80 || CHIPS !== 40 || CELL_UNITS !== 600 || heights.length !== CELLS * CELLS || blocker.length !== CHIPS * CHIPS || squareTop.length !== 5) {
      throw new Error('the Piney cast kernel does not match the field layout');
    }
    const kernel = new WebAssembly.Instance(module, {}).exports as unknown as CastExports;
    this.kernel = kernel;
    const cells = CELLS * CELLS;
    const heightsAt = align(kernel.heapBase(), 16);
    const topsAt = heightsAt + cells * 8;
    const blockerAt = topsAt + 5 * cells * 8;
    const columnsAt = align(blockerAt + blocker.length * 2, 16);
    this.segmentsAt = align(columnsAt + blockerTop.length * 8, 16);
    this.outAt = this.segmentsAt + WASM_CHUNK * 48;
    this.restAt = this.outAt + WASM_CHUNK * 8;
    const end = this.restAt + WASM_CHUNK * 4;
    const memory = kernel.memory;
    const pages = Math.ceil(end / 65536) - memory.buffer.byteLength / 65536;
    if (pages > 0) memory.grow(pages);
    const buffer = memory.buffer;
    new Float64Array(buffer, heightsAt, cells).set(heights);
    for (let k = 0; k < 5; k++) new Float64Array(buffer, topsAt + k * cells * 8, cells).set(squareTop[k]!);
    new Int16Array(buffer, blockerAt, blocker.length).set(blocker);
    new Float64Array(buffer, columnsAt, blockerTop.length).set(blockerTop);
    this.segmentView = new Float64Array(buffer, this.segmentsAt, WASM_CHUNK * 6);
    this.outView = new Float64Array(buffer, this.outAt, WASM_CHUNK);
    kernel.init(heightsAt, topsAt, blockerAt, columnsAt, maxTop);
  }

  /** `FieldSegmentCaster.castMany`: every segment of `segments[start..end)` answered into `out`, bit for bit. */
  castMany(segments: Float64Array, start: number, end: number, out: Float64Array): void {
    walkInChunks(segments, start, end, out, this.segmentView, this.outView, this.castChunk);
  }
}
