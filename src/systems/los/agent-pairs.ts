/**
 * The pairs of agents within range, found through a grid instead of by testing every pair, with exactly the
 * answers of the plain double loop (`pairSegments` in los-batch.ts, which uses this): the same pairs, in the
 * same order (i ascending, then j ascending), the same segment numbers, the same cursor.
 *
 * The eyes are sorted (a counting sort, so each cell lists its agents by ascending index) into square cells
 * on the two axes across `up`, a little wider than the range. Two agents in cells that are not neighbours
 * are farther apart on one of those axes than the range, so their squared distance, computed as the double
 * loop computes it, is above range²: only the 3 × 3 cells around an agent can hold a partner. Each
 * candidate is still tested with the double loop's own expression, and a row's partners are put in index order
 * before they are written. Agents with a coordinate that is not finite are never within a finite range of
 * anyone (their differences are ±∞ or NaN), so they are left out of the grid.
 *
 * When the grid cannot be trusted or does not pay (few agents, a range that is not a positive finite number
 * or whose square is not finite, coordinates so large the cell arithmetic loses its margin, an odd cursor)
 * the double loop runs instead. Buffers are kept and grown, never allocated per call once large enough (a view
 * of the caller's feet is made again only when they come in another buffer).
 */
import { INFINITY_SLOT, NAN_SLOT } from '../../numeric/special-doubles.js';
import type { CollisionWorld } from '../../worlds/world.js';
import { WasmPairWalk } from './pair-walk-wasm.js';

/** Below this many agents the double loop is as cheap as building a grid. */
export const PAIR_GRID_MIN_AGENTS = 64;
/** Cells are this much wider than the range: a margin far above the rounding of the cell arithmetic. */
const CELL_MARGIN = 1 + 1 / 1024;
/** Agents per range-wide cell above which cells of half the range (two around) pay. */
const DENSE = 16;
/** A row with at most this many partners is put in order by insertion; more, through a bit per agent. */
const SORT_BY_INSERTION = 32;
/** Most cells a grid may have (so the cell arithmetic keeps its margin and memory stays bounded). */
const MAX_CELLS = 1 << 20;

/** Where a pair walk stands: the next pair to consider is (i, j). Start at {i: 0, j: 1}. */
export interface PairCursor {
  i: number;
  j: number;
}

/** A grid over agents' eyes, reusable from call to call (see the module comment). */
export class AgentPairGrid {
  private eyes = new Float64Array(0);
  /** The two coordinates across up of each agent when the grid was built (to tell when it still stands). */
  private across = new Float64Array(0);
  private built = false;
  private n = 0;
  private range = 0;
  private a0 = 0;
  private a1 = 0;
  private cellOf = new Int32Array(0);
  private order = new Int32Array(0);
  private cellStart = new Int32Array(0);
  private row = new Int32Array(0);
  private marks = new Int32Array(0);
  /** Per cell, how many of its agents are at or below the current row. */
  private passed = new Int32Array(0);
  /** The feet the grid was last built or checked from, as 32-bit words, and the lift added to them. */
  private feetWords = new Int32Array(0);
  /** `feetWords` as doubles (the same memory), to copy feet into. */
  private feetCopy = new Float64Array(0);
  /** The last caller's feet as 32-bit words, and the buffer and offset they were viewed in. */
  private words: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private wordsOf: ArrayBufferLike | null = null;
  private wordsAt = -1;
  /** Whether `feetWords` holds the feet the grid stands on (only Float64Array feet are kept). */
  private feetKept = false;
  private lx = NaN;
  private ly = NaN;
  private lz = NaN;
  /** The last agent `passed` counts (−1: none; it is valid for the grid that stands). */
  private passedThrough = -1;
  /** The eyes in cell order (entry p is agent order[p]), so the candidates of a cell are read in a run. */
  private sortedEyes = new Float64Array(0);
  private w = 0;
  private h = 0;
  /** How many cells around an agent's own may hold a partner, per axis. */
  private reach = 1;
  /** Bumped whenever the eyes, the sorted eyes or the grid change (the kernel's copy is then reloaded). */
  private version = 0;
  /** The WebAssembly walk (made on the first walk that asks for it), the version it holds, and its `passed`'s extent. */
  private kernel: WasmPairWalk | null = null;
  private kernelVersion = -1;
  private kernelThrough = -1;

  /**
   * Writes the segments and pairs of every pair within range from `cursor` on, at most `max`, rows below
   * `rowEnd` only, exactly as the double loop does (see `pairSegments`); returns how many, the cursor moved on.
   * Returns −1 without writing anything when the grid does not apply (the caller runs the double loop). With
   * `wasm` (the compiled pair-walk kernel, `pairWalkWasmModule`), the grid is walked in WebAssembly: the same
   * pairs, segments and cursor.
   */
  walk(world: CollisionWorld, feet: ArrayLike<number>, n: number, eyeHeight: number, range: number, segments: Float64Array, pairs: Uint32Array, cursor: PairCursor, max: number, rowEnd = n - 1, wasm: WebAssembly.Module | null = null): number {
    const r2 = range * range;
    if (n < PAIR_GRID_MIN_AGENTS || !(range > 0) || !(r2 < Infinity)) return -1;
    if (!(Number.isInteger(cursor.i) && Number.isInteger(cursor.j) && cursor.i >= 0 && cursor.j >= 0)) return -1;
    const axis = world.up.axis;
    const lift = world.up.sign * eyeHeight;
    const lx = axis === 0 ? lift : 0, ly = axis === 1 ? lift : 0, lz = axis === 2 ? lift : 0;
    // The grid's axes: the two across up.
    const a0 = axis === 0 ? 1 : 0;
    const a1 = axis === 2 ? 1 : 2;
    if (!this.build(feet, n, lx, ly, lz, a0, a1, range)) return -1;

    const eyes = this.eyes, cellOf = this.cellOf, order = this.order, start = this.cellStart;
    const w = this.w, h = this.h, reach = this.reach;
    // The kernel walks rows by 32-bit index: a cursor past the last row (nothing to walk) stays in JavaScript.
    if (wasm !== null && cursor.i < n - 1 && Number.isInteger(max)) {
      const k = this.walkKernel(wasm, n, segments, pairs, cursor, max, rowEnd, r2);
      if (k >= 0) return k;
    }
    if (this.row.length < n) this.row = new Int32Array(n);
    if (this.marks.length < (n >>> 5) + 1) this.marks = new Int32Array((n >>> 5) + 1);
    const row = this.row, marks = this.marks;
    // Each cell's agents above the current row start at start + passed (rows go up, agents enter `passed` as
    // their row comes): no search per cell. The cursor's own row takes every agent from cursor.j on.
    if (this.passed.length < w * h) this.passed = new Int32Array(Math.max(w * h, 2 * this.passed.length));
    const passed = this.passed;
    // `passed` counts the agents 0 .. passedThrough; a walk that goes on from where the last one stopped, on the
    // same grid, only adds the rows between (a batch walk calls once per batch).
    let through = this.passedThrough;
    if (!(through >= 0 && through <= cursor.i)) {
      passed.fill(0, 0, w * h);
      through = -1;
    }
    const sorted = this.sortedEyes;
    for (let q = through + 1; q <= cursor.i && q < n; q++) if (cellOf[q]! >= 0) passed[cellOf[q]!]!++;
    through = cursor.i < n ? cursor.i : n - 1;
    let k = 0;
    let i = cursor.i;
    let jFrom = cursor.j;
    const last = rowEnd < n - 1 ? rowEnd : n - 1;
    for (; i < last; i++, jFrom = i + 1) {
      const c = cellOf[i]!;
      if (i !== cursor.i && c >= 0) passed[c]!++;
      if (c < 0) continue; // not finite: within range of no one
      const ix = eyes[3 * i]!, iy = eyes[3 * i + 1]!, iz = eyes[3 * i + 2]!;
      const cx = c % w, cy = (c - cx) / w;
      // Candidates above the row in the cells around, tested as the double loop tests them; the row keeps
      // the partners' indices.
      let m = 0;
      for (let gy = cy > reach ? cy - reach : 0, gy1 = cy + reach < h ? cy + reach : h - 1; gy <= gy1; gy++) {
        for (let gx = cx > reach ? cx - reach : 0, gx1 = cx + reach < w ? cx + reach : w - 1; gx <= gx1; gx++) {
          const g = gy * w + gx;
          const end = start[g + 1]!;
          if (i === cursor.i) {
            // The cursor's own row: every agent of the cell from cursor.j on.
            for (let p = start[g]!; p < end; p++) {
              const j = order[p]!;
              if (j < jFrom) continue;
              const dx = sorted[3 * p]! - ix, dy = sorted[3 * p + 1]! - iy, dz = sorted[3 * p + 2]! - iz;
              if (dx * dx + dy * dy + dz * dz <= r2) row[m++] = j;
            }
            continue;
          }
          for (let p = start[g]! + passed[g]!; p < end; p++) {
            const dx = sorted[3 * p]! - ix, dy = sorted[3 * p + 1]! - iy, dz = sorted[3 * p + 2]! - iz;
            if (dx * dx + dy * dy + dz * dz <= r2) row[m++] = order[p]!;
          }
        }
      }
      // The row's partners in index order: a few by insertion, many through a bit per agent.
      if (m <= SORT_BY_INSERTION) {
        for (let q = 1; q < m; q++) {
          const j = row[q]!;
          let r = q;
          while (r > 0 && row[r - 1]! > j) {
            row[r] = row[r - 1]!;
            r--;
          }
          row[r] = j;
        }
      } else {
        let first = n, last = 0;
        for (let q = 0; q < m; q++) {
          const j = row[q]!;
          marks[j >>> 5]! |= 1 << (j & 31);
          if (j < first) first = j;
          if (j > last) last = j;
        }
        let q = 0;
        for (let word = first >>> 5, end = last >>> 5; word <= end; word++) {
          let bits = marks[word]!;
          if (bits === 0) continue;
          marks[word] = 0;
          while (bits !== 0) {
            const low = bits & -bits;
            row[q++] = (word << 5) + 31 - Math.clz32(low);
            bits ^= low;
          }
        }
      }
      for (let q = 0; q < m; q++) {
        const j = row[q]!;
        if (k === max) {
          cursor.i = i;
          cursor.j = j;
          this.passedThrough = i > through ? i : through;
          return k;
        }
        const o = k * 6;
        segments[o] = ix; segments[o + 1] = iy; segments[o + 2] = iz;
        segments[o + 3] = eyes[3 * j]!; segments[o + 4] = eyes[3 * j + 1]!; segments[o + 5] = eyes[3 * j + 2]!;
        pairs[2 * k] = i;
        pairs[2 * k + 1] = j;
        k++;
      }
    }
    cursor.i = i;
    cursor.j = i + 1;
    this.passedThrough = i - 1 > through ? i - 1 : through;
    return k;
  }

  /**
   * `walk` through the WebAssembly kernel (`module`) over the grid that stands: the same pairs and cursor; −1,
   * with nothing written, when the kernel's memory cannot hold the grid. The cursor's row is below n − 1 and
   * `max` is a whole number (the caller checks).
   */
  private walkKernel(module: WebAssembly.Module, n: number, segments: Float64Array, pairs: Uint32Array, cursor: PairCursor, max: number, rowEnd: number, r2: number): number {
    const kernel = (this.kernel ??= new WasmPairWalk(module));
    if (this.kernelVersion !== this.version) {
      try {
        kernel.load({ n, cells: this.w * this.h, eyes: this.eyes, sortedEyes: this.sortedEyes, order: this.order, cellOf: this.cellOf, cellStart: this.cellStart });
      } catch (e) {
        // The kernel's memory could not grow to this grid (the engine's limit): the JavaScript walks it.
        if (!(e instanceof RangeError)) throw e;
        this.kernel = null;
        this.kernelVersion = -1;
        return -1;
      }
      this.kernelVersion = this.version;
    }
    // As 32-bit integers that walk the same rows and columns: rows i < last (a fraction rounds up, a negative
    // one walks none), columns from cursor.j (past n, none).
    const last = rowEnd < n - 1 ? rowEnd : n - 1;
    const lastRow = last > 0 ? Math.ceil(last) : 0;
    const k = kernel.walk(cursor.i, cursor.j < n ? cursor.j : n, n, lastRow, max, this.w, this.h, this.reach, r2, this.kernelThrough, segments, pairs);
    cursor.i = kernel.nextI;
    cursor.j = kernel.nextJ;
    this.kernelThrough = kernel.through;
    return k;
  }

  /** Keeps the feet (as 32-bit words) and the lift the grid and eyes now come from, for the next call's check. */
  private keepFeet(feet: ArrayLike<number>, n: number, lx: number, ly: number, lz: number): void {
    this.lx = lx;
    this.ly = ly;
    this.lz = lz;
    // Only whole Float64Array feet are kept (the check reads them as words); anything else builds each time.
    this.feetKept = feet instanceof Float64Array && feet.length >= 3 * n;
    if (!this.feetKept) return;
    if (this.feetWords.length < 6 * n) {
      this.feetWords = new Int32Array(6 * n);
      this.feetCopy = new Float64Array(this.feetWords.buffer);
    }
    const copy = this.feetCopy;
    for (let k = 0; k < 3 * n; k++) copy[k] = feet[k]!;
  }

  /** The eyes in cell order (the grid's order), from this call's eyes. */
  private sortEyes(n: number): void {
    const order = this.order, eyes = this.eyes, sorted = this.sortedEyes;
    const placed = this.cellStart[this.w * this.h]!;
    for (let p = 0; p < placed; p++) {
      const i = order[p]!;
      sorted[3 * p] = eyes[3 * i]!;
      sorted[3 * p + 1] = eyes[3 * i + 1]!;
      sorted[3 * p + 2] = eyes[3 * i + 2]!;
    }
    void n;
  }

  /**
   * The eyes (feet + lift, as the double loop computes them) and the grid; false when it cannot be trusted
   * (see the module comment).
   */
  private build(feet: ArrayLike<number>, n: number, lx: number, ly: number, lz: number, a0: number, a1: number, range: number): boolean {
    if (this.eyes.length < 3 * n) {
      this.eyes = new Float64Array(3 * n);
      this.across = new Float64Array(2 * n);
      this.cellOf = new Int32Array(n);
      this.order = new Int32Array(n);
      this.sortedEyes = new Float64Array(3 * n);
      this.built = false;
    }
    // The very same feet, to the bit, with the same lift, range and axes as the grid was built from (a batch walk
    // calls once per batch): everything stands. Compared as 32-bit words, so one pass of integer compares.
    if (this.built && this.feetKept && n === this.n && range === this.range && a0 === this.a0 && a1 === this.a1 && Object.is(lx, this.lx) && Object.is(ly, this.ly) && Object.is(lz, this.lz) && feet instanceof Float64Array && feet.length >= 3 * n) {
      // A view of the caller's feet as words, kept while they come in the same buffer (no allocation per call).
      if (this.wordsOf !== feet.buffer || this.wordsAt !== feet.byteOffset || this.words.length < 6 * n) {
        this.words = new Int32Array(feet.buffer, feet.byteOffset, 2 * feet.length);
        this.wordsOf = feet.buffer;
        this.wordsAt = feet.byteOffset;
      }
      const words = this.words;
      const kept = this.feetWords;
      let w = 0;
      while (w < 6 * n && words[w] === kept[w]) w++;
      if (w === 6 * n) return true;
    }
    const eyes = this.eyes, across = this.across;
    // The same agents across up as last time (a batch walk calls again with the same agents): the grid stands.
    // A grid is a function of the coordinates across up and of which agents are finite (the others are left
    // out of it), and the up coordinate (and with it the eye height) can make an agent finite or not while
    // its coordinates across stay the same: so a non-finite agent, now or then, means a new grid. It is
    // remembered as NaN across, which equals nothing.
    let same = this.built && n === this.n && range === this.range && a0 === this.a0 && a1 === this.a1;
    // Every eye the same to the bit as last time (the sorted eyes then stand too).
    let unchanged = same;
    // ±∞ and NaN from arrays, not the literals: merged with them, every agent's coordinates would be boxed.
    const inf = INFINITY_SLOT[0]!;
    const nan = NAN_SLOT[0]!;
    let lo0 = inf, hi0 = -inf, lo1 = inf, hi1 = -inf;
    for (let i = 0; i < n; i++) {
      const x = feet[3 * i]! + lx, y = feet[3 * i + 1]! + ly, z = feet[3 * i + 2]! + lz;
      if (unchanged && !(Object.is(x, eyes[3 * i]) && Object.is(y, eyes[3 * i + 1]) && Object.is(z, eyes[3 * i + 2]))) unchanged = false;
      eyes[3 * i] = x;
      eyes[3 * i + 1] = y;
      eyes[3 * i + 2] = z;
      const p = eyes[3 * i + a0]!, q = eyes[3 * i + a1]!;
      const finite = x - x === 0 && y - y === 0 && z - z === 0;
      if (same && (!finite || p !== across[2 * i] || q !== across[2 * i + 1])) same = false;
      across[2 * i] = finite ? p : nan;
      across[2 * i + 1] = q;
      if (!finite) continue;
      if (p < lo0) lo0 = p;
      if (p > hi0) hi0 = p;
      if (q < lo1) lo1 = q;
      if (q > hi1) hi1 = q;
    }
    this.keepFeet(feet, n, lx, ly, lz);
    if (same) {
      if (!unchanged) {
        this.sortEyes(n);
        this.version++;
      }
      return true;
    }
    this.built = false;
    this.passedThrough = -1;
    this.kernelThrough = -1;
    if (!(lo0 <= hi0)) lo0 = hi0 = lo1 = hi1 = 0; // no finite agent
    // Cells of at least the range (with the margin) over `reach` (two cells around when agents are dense,
    // so fewer candidates fall outside the range); wider when that many would not fit.
    this.reach = 1;
    let size = range * CELL_MARGIN;
    const e0 = hi0 - lo0, e1 = hi1 - lo1;
    if (!(e0 < Infinity && e1 < Infinity)) return false;
    const cap = Math.min(MAX_CELLS, 4 * n + 1024);
    while ((Math.floor(e0 / size) + 1) * (Math.floor(e1 / size) + 1) > cap) size *= 2;
    if (n / ((Math.floor(e0 / size) + 1) * (Math.floor(e1 / size) + 1)) > DENSE && (Math.floor(e0 / (size / 2)) + 1) * (Math.floor(e1 / (size / 2)) + 1) <= cap) {
      this.reach = 2;
      size /= 2;
    }
    const w = Math.floor(e0 / size) + 1, h = Math.floor(e1 / size) + 1;
    this.w = w;
    this.h = h;
    const cells = w * h;
    if (this.cellStart.length < cells + 1) this.cellStart = new Int32Array(Math.max(cells + 1, 2 * this.cellStart.length));
    const start = this.cellStart;
    start.fill(0, 0, cells + 1);
    const cellOf = this.cellOf;
    for (let i = 0; i < n; i++) {
      const x = eyes[3 * i]!, y = eyes[3 * i + 1]!, z = eyes[3 * i + 2]!;
      if (x - x !== 0 || y - y !== 0 || z - z !== 0) {
        cellOf[i] = -1;
        continue;
      }
      let gx = Math.floor((eyes[3 * i + a0]! - lo0) / size);
      let gy = Math.floor((eyes[3 * i + a1]! - lo1) / size);
      if (gx >= w) gx = w - 1; // rounding at the far edge
      if (gy >= h) gy = h - 1;
      const c = gy * w + gx;
      cellOf[i] = c;
      start[c + 1]!++;
    }
    for (let c = 0; c < cells; c++) start[c + 1]! += start[c]!;
    // Counting sort, agents in ascending index within each cell (the fill pointer runs in `row`).
    if (this.row.length < cells) this.row = new Int32Array(Math.max(cells, n));
    const fill = this.row;
    fill.set(start.subarray(0, cells));
    const order = this.order;
    for (let i = 0; i < n; i++) {
      const c = cellOf[i]!;
      if (c >= 0) order[fill[c]!++] = i;
    }
    this.sortEyes(n);
    this.version++;
    this.built = true;
    this.n = n;
    this.range = range;
    this.a0 = a0;
    this.a1 = a1;
    return true;
  }
}
