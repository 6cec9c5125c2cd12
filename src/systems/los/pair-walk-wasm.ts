/**
 * Line of sight's pair walk in WebAssembly: the walk of `AgentPairGrid` over the grid the JavaScript built,
 * bit for bit its pairs, segments and cursor (the kernel, wasm/pair-walk.ts, is the same operations in the same
 * order; a property test compares them). The kernel's bytes are carried in a module of the package
 * (pair-walk-kernel-bytes.js, built from the AssemblyScript source), compiled once per process, and
 * instantiated once per grid; the grid's arrays are copied into its memory when they change, and the pairs come
 * out in chunks of `PAIR_WALK_CHUNK`.
 */
import { PAIR_WALK_WASM } from './pair-walk-kernel-bytes.js';
import { lazyWasmModule } from '../../worlds/wasm-module.js';

/** Pairs per kernel call: the pairs are copied out of the kernel's memory in chunks of this many. */
export const PAIR_WALK_CHUNK = 16384;

/** The kernel's exports. */
interface PairWalkExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  init(eyesAt: number, sortedAt: number, orderAt: number, cellOfAt: number, startAt: number, passedAt: number, rowAt: number, marksAt: number, segmentsAt: number, pairsAt: number): void;
  walk(i0: number, j0: number, n: number, last: number, max: number, w: number, h: number, reach: number, r2: number, through: number): number;
  nextI(): number;
  nextJ(): number;
  through(): number;
}

const kernelModule = lazyWasmModule(PAIR_WALK_WASM);

/** The compiled kernel, or null when this engine cannot compile it (`pairWalkWasmError` says why). */
export function pairWalkWasmModule(): WebAssembly.Module | null {
  return kernelModule.module();
}

/** Why the kernel did not compile ('' when it did or was not tried). */
export function pairWalkWasmError(): string {
  return kernelModule.error();
}

const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/** The grid's arrays the kernel reads, as the JavaScript grid holds them (see AgentPairGrid). */
export interface PairGridArrays {
  /** Agents. */
  n: number;
  /** Cells (w × h). */
  cells: number;
  /** Each agent's eye (x, y, z), in index order. */
  eyes: Float64Array;
  /** The eyes in cell order (entry p is agent order[p]'s). */
  sortedEyes: Float64Array;
  /** The agent at each place of cell order. */
  order: Int32Array;
  /** Each agent's cell, or −1 when it is not finite (in no cell). */
  cellOf: Int32Array;
  /** Where each cell's agents start in cell order (one more entry: the end of the last cell). */
  cellStart: Int32Array;
}

/** One kernel instance with room for a grid of up to `agents` agents and `cells` cells. */
export class WasmPairWalk {
  private readonly kernel: PairWalkExports;
  private agents = -1;
  private cells = -1;
  private segmentsAt = 0;
  private pairsAt = 0;
  private segmentView = new Float64Array(0);
  private pairView = new Uint32Array(0);
  private buffer: ArrayBuffer | null = null;
  private eyesAt = 0;
  private sortedAt = 0;
  private orderAt = 0;
  private cellOfAt = 0;
  private startAt = 0;
  /** The cursor and `passed`'s extent after the last `walk`. */
  nextI = 0;
  nextJ = 0;
  through = -1;

  constructor(module: WebAssembly.Module) {
    this.kernel = new WebAssembly.Instance(module, {}).exports as unknown as PairWalkExports;
  }

  /**
   * Copies a grid's arrays in (growing the memory when they do not fit): the walks after this read them. Throws
   * a RangeError when the memory cannot grow that far (the caller then walks in JavaScript).
   */
  load(g: PairGridArrays): void {
    const k = this.kernel;
    if (g.n > this.agents || g.cells > this.cells) {
      // Room for half as many again, so a crowd that grows a little at a time lays out anew only now and then.
      const n = Math.max(g.n > this.agents ? Math.ceil(g.n * 1.5) : 0, this.agents), cells = Math.max(g.cells > this.cells ? Math.ceil(g.cells * 1.5) : 0, this.cells);
      let at = align16(k.heapBase());
      const take = (bytes: number): number => {
        const here = at;
        at = align16(at + bytes);
        return here;
      };
      this.eyesAt = take(24 * n);
      this.sortedAt = take(24 * n);
      this.orderAt = take(4 * n);
      this.cellOfAt = take(4 * n);
      this.startAt = take(4 * (cells + 1));
      const passedAt = take(4 * cells);
      const rowAt = take(4 * n);
      const marksAt = take(4 * ((n >>> 5) + 1));
      this.segmentsAt = take(48 * PAIR_WALK_CHUNK);
      this.pairsAt = take(8 * PAIR_WALK_CHUNK);
      const pages = Math.ceil(at / 65536) - k.memory.buffer.byteLength / 65536;
      if (pages > 0) k.memory.grow(pages);
      // The marks are kept all clear between rows by the walk itself; new memory is zero.
      new Int32Array(k.memory.buffer, marksAt, (n >>> 5) + 1).fill(0);
      k.init(this.eyesAt, this.sortedAt, this.orderAt, this.cellOfAt, this.startAt, passedAt, rowAt, marksAt, this.segmentsAt, this.pairsAt);
      this.agents = n;
      this.cells = cells;
      // The views are made anew below: the layout moved, whether or not the memory grew.
      this.buffer = null;
    }
    const buf = k.memory.buffer;
    if (this.buffer !== buf) {
      this.buffer = buf;
      this.segmentView = new Float64Array(buf, this.segmentsAt, 6 * PAIR_WALK_CHUNK);
      this.pairView = new Uint32Array(buf, this.pairsAt, 2 * PAIR_WALK_CHUNK);
    }
    const placed = g.cellStart[g.cells]!;
    new Float64Array(buf, this.eyesAt, 3 * g.n).set(g.eyes.subarray(0, 3 * g.n));
    new Float64Array(buf, this.sortedAt, 3 * placed).set(g.sortedEyes.subarray(0, 3 * placed));
    new Int32Array(buf, this.orderAt, placed).set(g.order.subarray(0, placed));
    new Int32Array(buf, this.cellOfAt, g.n).set(g.cellOf.subarray(0, g.n));
    new Int32Array(buf, this.startAt, g.cells + 1).set(g.cellStart.subarray(0, g.cells + 1));
  }

  /**
   * The walk of the loaded grid from (i0, j0), `passed` counting agents 0 .. through0 (−1: anew), at most `max`
   * pairs, rows below `last`, written into `segments` and `pairs` from pair 0: as AgentPairGrid's walk. Returns
   * how many; `nextI`, `nextJ` and `through` are the cursor and `passed`'s extent after it.
   */
  walk(i0: number, j0: number, n: number, last: number, max: number, w: number, h: number, reach: number, r2: number, through0: number, segments: Float64Array, pairs: Uint32Array): number {
    const k = this.kernel;
    const segs = this.segmentView, prs = this.pairView;
    let i = i0, j = j0, through = through0, total = 0;
    // At least one call: a walk asked for no pair still moves the cursor to the next pair.
    for (;;) {
      const want = max - total < PAIR_WALK_CHUNK ? max - total : PAIR_WALK_CHUNK;
      const got = k.walk(i, j, n, last, want, w, h, reach, r2, through);
      segments.set(got === PAIR_WALK_CHUNK ? segs : segs.subarray(0, 6 * got), 6 * total);
      pairs.set(got === PAIR_WALK_CHUNK ? prs : prs.subarray(0, 2 * got), 2 * total);
      total += got;
      i = k.nextI();
      j = k.nextJ();
      through = k.through();
      if (got < want || total >= max) break;
    }
    this.nextI = i;
    this.nextJ = j;
    this.through = through;
    return total;
  }
}
