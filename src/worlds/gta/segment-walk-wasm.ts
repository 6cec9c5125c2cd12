/**
 * The GTA scene's segment walk in WebAssembly: `ColScene.segmentFractions` of a scene without the broad phase
 * over placements (the height map's screen, then the grid over placements and every placement's walk), over
 * batches, one kernel call per chunk of up to `GTA_WASM_CHUNK` segments, bit for bit the JavaScript's answers
 * (the kernel, wasm/gta-walk.ts, is the same operations in the same order; a property test compares every
 * answer). The kernel's bytes are carried in a module of the package (walk-kernel-bytes.js, built from the
 * AssemblyScript source), compiled once per process, and instantiated once per world with the scene's tables
 * copied into its memory.
 */
import { GTA_WALK_WASM } from './walk-kernel-bytes.js';
import { STACK_SIZE, type SceneKernelTables } from './segment-kernel.js';
import { lazyWasmModule, walkInChunks } from '../wasm-module.js';

/** Segments per kernel call: the batch is copied into the kernel's memory in chunks of this many. */
export const GTA_WASM_CHUNK = 4096;

/** The kernel's exports. */
interface WalkExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  stackSize(): number;
  init(headerAt: number): void;
  walkMany(segmentsAt: number, outAt: number, n: number): void;
}

const kernelModule = lazyWasmModule(GTA_WALK_WASM);

/** The compiled kernel, or null when this engine cannot compile it (`gtaWalkWasmError` says why). */
export function gtaWalkWasmModule(): WebAssembly.Module | null {
  return kernelModule.module();
}

/** Why the kernel did not compile ('' when it did or was not tried). */
export function gtaWalkWasmError(): string {
  return kernelModule.error();
}

/** The kernel's header: i32 entries in this order, then from HEADER_F64 bytes on the f64 ones (wasm/gta-walk.ts). */
const HEADER_F64 = 128;
const HEADER_BYTES = 256;
/** Entries of the walk's stack (the JavaScript walk's, which the kernel's must equal), and one spare slot. */
const STACK_SLOTS = STACK_SIZE + 1;

const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/** The walk over one scene's tables in a WebAssembly instance of its own (see the module comment). */
export class WasmSceneWalker {
  private readonly kernel: WalkExports;
  private readonly segmentsAt: number;
  private readonly outAt: number;
  private readonly segmentView: Float64Array;
  private readonly outView: Float64Array;
  /** One kernel call over the chunk in the kernel's memory. */
  private readonly walkChunk = (m: number): void => this.kernel.walkMany(this.segmentsAt, this.outAt, m);

  /**
   * @param module the compiled kernel (`gtaWalkWasmModule`)
   * @param t the scene's tables (`SceneSegmentKernel.tables`)
   */
  constructor(module: WebAssembly.Module, t: SceneKernelTables) {
    const kernel = new WebAssembly.Instance(module, {}).exports as unknown as WalkExports;
    // The stack is laid out here for the kernel's size (and its spare slot).
    if (kernel.stackSize() + 1 !== STACK_SLOTS) throw new Error(`the GTA walk kernel's stack (${kernel.stackSize()}) does not match its loader's (${STACK_SLOTS - 1})`);
    this.kernel = kernel;
    const headerAt = align16(kernel.heapBase());
    let at = headerAt + HEADER_BYTES;
    const place = (bytes: number): number => {
      const p = at;
      at = align16(at + bytes);
      return p;
    };
    const count = t.instModel.length;
    const cellCount = t.cw * t.ch;
    const capLevels = t.capMax === null ? 0 : t.capMax.length;
    const a = {
      instModel: place(t.instModel.byteLength),
      instRot: place(t.instRot.byteLength),
      instPos: place(t.instPos.byteLength),
      instBox: place(t.instBox.byteLength),
      sphereStart: place(t.sphereStart.byteLength),
      boxStart: place(t.boxStart.byteLength),
      spheres: place(t.spheres.byteLength),
      boxes: place(t.boxes.byteLength),
      root: place(t.root.byteLength),
      rootBox: place(t.rootBox.byteLength),
      packBox: place(t.packBox.byteLength),
      packChild: place(t.packChild.byteLength),
      leafFirst: place(t.leafFirst.byteLength),
      leafCount: place(t.leafCount.byteLength),
      tri: place(t.tri.byteLength),
      stack: place(STACK_SLOTS * 4),
      tstack: place(STACK_SLOTS * 8),
      grid: t.grid === null ? 0 : place(t.grid.byteLength),
      always: place(t.always.byteLength),
      cand: place(count * 4),
      cap: capLevels === 0 ? 0 : place(capLevels * cellCount * 8),
    };
    this.segmentsAt = place(GTA_WASM_CHUNK * 48);
    this.outAt = place(GTA_WASM_CHUNK * 8);
    const memory = kernel.memory;
    const pages = Math.ceil(at / 65536) - memory.buffer.byteLength / 65536;
    if (pages > 0) memory.grow(pages);
    const buffer = memory.buffer;
    const f64 = (p: number, src: Float64Array): void => new Float64Array(buffer, p, src.length).set(src);
    const i32 = (p: number, src: Int32Array): void => new Int32Array(buffer, p, src.length).set(src);
    i32(a.instModel, t.instModel);
    f64(a.instRot, t.instRot);
    f64(a.instPos, t.instPos);
    f64(a.instBox, t.instBox);
    i32(a.sphereStart, t.sphereStart);
    i32(a.boxStart, t.boxStart);
    f64(a.spheres, t.spheres);
    f64(a.boxes, t.boxes);
    i32(a.root, t.root);
    f64(a.rootBox, t.rootBox);
    // The inner nodes' child boxes interleaved: per node, for each of the six box numbers, left then right.
    const pb = new Float64Array(buffer, a.packBox, t.packBox.length);
    for (let nb = 0; nb < t.packBox.length; nb += 12) {
      for (let k = 0; k < 6; k++) {
        pb[nb + 2 * k] = t.packBox[nb + k]!;
        pb[nb + 2 * k + 1] = t.packBox[nb + 6 + k]!;
      }
    }
    i32(a.packChild, t.packChild);
    i32(a.leafFirst, t.leafFirst);
    i32(a.leafCount, t.leafCount);
    f64(a.tri, t.tri);
    if (t.grid !== null) i32(a.grid, t.grid);
    i32(a.always, t.always);
    if (t.capMax !== null) t.capMax.forEach((level, k) => f64(a.cap + k * cellCount * 8, level));
    const header = new Int32Array(buffer, headerAt, HEADER_F64 / 4);
    header.set([
      count,
      a.instModel,
      a.instRot,
      a.instPos,
      a.instBox,
      a.sphereStart,
      a.boxStart,
      a.spheres,
      a.boxes,
      a.root,
      a.rootBox,
      a.packBox,
      a.packChild,
      a.leafFirst,
      a.leafCount,
      a.tri,
      a.stack,
      a.tstack,
      a.grid,
      a.always,
      t.words,
      t.gw,
      t.gh,
      a.cand,
      a.cap,
      t.cw,
      t.ch,
    ]);
    new Float64Array(buffer, headerAt + HEADER_F64, 6).set([t.gx0, t.gy0, t.gInv, t.cx0, t.cy0, t.cInv]);
    kernel.init(headerAt);
    this.segmentView = new Float64Array(buffer, this.segmentsAt, GTA_WASM_CHUNK * 6);
    this.outView = new Float64Array(buffer, this.outAt, GTA_WASM_CHUNK);
  }

  /** `ColScene.segmentFractions` (no broad phase): every segment of `segments[start..end)` answered into `out`, bit for bit. */
  segmentFractions(segments: Float64Array, start: number, end: number, out: Float64Array): void {
    walkInChunks(segments, start, end, out, this.segmentView, this.outView, this.walkChunk);
  }
}
