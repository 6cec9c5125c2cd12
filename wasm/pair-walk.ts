/**
 * AssemblyScript source of line of sight's pair walk in WebAssembly (built by scripts/wasm-kernels.mjs; not part
 * of the TypeScript program). It is the walk of `AgentPairGrid.walk` (src/systems/los/agent-pairs.ts) over a
 * grid the JavaScript built: the same candidates, the same distance test (the double loop's expression), the
 * partners of each row put in index order, the same pairs written in the same order, the same cursor. The
 * JavaScript walk is its oracle; a property test compares every pair, segment and cursor.
 *
 * Memory, laid out by the caller (src/systems/los/pair-walk-wasm.ts) and named once per layout to `init`:
 *   eyes      3 f64 per agent, in index order
 *   sorted    3 f64 per agent placed, in cell order
 *   order     i32 per agent placed: the agent at each place of cell order
 *   cellOf    i32 per agent: its cell, or −1 (not finite)
 *   start     i32 per cell + 1: where each cell's agents start in cell order
 *   passed    i32 per cell: how many of its agents are at or below the current row
 *   row       i32 per agent: a row's partners
 *   marks     i32 per 32 agents + 1: a bit per partner, for the long rows' order
 *   segments  6 f64 per pair written, pairs 2 u32 per pair written
 *
 * Only + − × and comparisons of f64, each one IEEE operation as in the JavaScript.
 */

/** Rows with at most this many partners are put in order by insertion (as the JavaScript does). */
const SORT_BY_INSERTION: i32 = 32;

let eyes: usize = 0;
let sorted: usize = 0;
let order: usize = 0;
let cellOf: usize = 0;
let start: usize = 0;
let passed: usize = 0;
let row: usize = 0;
let marks: usize = 0;
let segments: usize = 0;
let pairs: usize = 0;

// The walk's cursor and how far `passed` counts, after the last call.
let cursorI: i32 = 0;
let cursorJ: i32 = 0;
let passedThrough: i32 = -1;

/** The first byte the caller may use (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}

/** Names the arrays (laid out by the caller). */
export function init(eyesAt: usize, sortedAt: usize, orderAt: usize, cellOfAt: usize, startAt: usize, passedAt: usize, rowAt: usize, marksAt: usize, segmentsAt: usize, pairsAt: usize): void {
  eyes = eyesAt;
  sorted = sortedAt;
  order = orderAt;
  cellOf = cellOfAt;
  start = startAt;
  passed = passedAt;
  row = rowAt;
  marks = marksAt;
  segments = segmentsAt;
  pairs = pairsAt;
}

/** The cursor's row after the last walk. */
export function nextI(): i32 {
  return cursorI;
}

/** The cursor's column after the last walk. */
export function nextJ(): i32 {
  return cursorJ;
}

/** The last agent `passed` counts after the last walk. */
export function through(): i32 {
  return passedThrough;
}

@inline
function ld(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}

@inline
function st(base: usize, i: i32, v: i32): void {
  store<i32>(base + (<usize>i << 2), v);
}

@inline
function ldf(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}

/**
 * Walks from the cursor (i0, j0) with `passed` counting agents 0 .. `through0` (−1: to be counted anew), at
 * most `max` pairs, rows below `last`; returns how many were written (the cursor and `through` after it by
 * `nextI`, `nextJ`, `through`).
 */
export function walk(i0: i32, j0: i32, n: i32, last: i32, max: i32, w: i32, h: i32, reach: i32, r2: f64, through0: i32): i32 {
  let thr = through0;
  if (!(thr >= 0 && thr <= i0)) {
    memory.fill(passed, 0, <usize>(w * h) << 2);
    thr = -1;
  }
  for (let q = thr + 1; q <= i0 && q < n; q++) {
    const c = ld(cellOf, q);
    if (c >= 0) st(passed, c, ld(passed, c) + 1);
  }
  thr = i0 < n ? i0 : n - 1;
  let k: i32 = 0;
  let i = i0;
  let jFrom = j0;
  for (; i < last; i++, jFrom = i + 1) {
    const c = ld(cellOf, i);
    if (i != i0 && c >= 0) st(passed, c, ld(passed, c) + 1);
    if (c < 0) continue;
    const ix = ldf(eyes, 3 * i), iy = ldf(eyes, 3 * i + 1), iz = ldf(eyes, 3 * i + 2);
    const cx = c % w, cy = (c - cx) / w;
    let m: i32 = 0;
    const gy1 = cy + reach < h ? cy + reach : h - 1;
    const gx1 = cx + reach < w ? cx + reach : w - 1;
    for (let gy = cy > reach ? cy - reach : 0; gy <= gy1; gy++) {
      for (let gx = cx > reach ? cx - reach : 0; gx <= gx1; gx++) {
        const g = gy * w + gx;
        const end = ld(start, g + 1);
        if (i == i0) {
          for (let p = ld(start, g); p < end; p++) {
            const j = ld(order, p);
            if (j < jFrom) continue;
            const dx = ldf(sorted, 3 * p) - ix, dy = ldf(sorted, 3 * p + 1) - iy, dz = ldf(sorted, 3 * p + 2) - iz;
            if (dx * dx + dy * dy + dz * dz <= r2) st(row, m++, j);
          }
          continue;
        }
        for (let p = ld(start, g) + ld(passed, g); p < end; p++) {
          const dx = ldf(sorted, 3 * p) - ix, dy = ldf(sorted, 3 * p + 1) - iy, dz = ldf(sorted, 3 * p + 2) - iz;
          if (dx * dx + dy * dy + dz * dz <= r2) st(row, m++, ld(order, p));
        }
      }
    }
    if (m <= SORT_BY_INSERTION) {
      for (let q = 1; q < m; q++) {
        const j = ld(row, q);
        let r = q;
        while (r > 0 && ld(row, r - 1) > j) {
          st(row, r, ld(row, r - 1));
          r--;
        }
        st(row, r, j);
      }
    } else {
      let first = n, lastJ = 0;
      for (let q = 0; q < m; q++) {
        const j = ld(row, q);
        st(marks, j >>> 5, ld(marks, j >>> 5) | (1 << (j & 31)));
        if (j < first) first = j;
        if (j > lastJ) lastJ = j;
      }
      let q = 0;
      for (let word = first >>> 5, endWord = lastJ >>> 5; word <= endWord; word++) {
        let bits = ld(marks, word);
        if (bits == 0) continue;
        st(marks, word, 0);
        while (bits != 0) {
          st(row, q++, (word << 5) + <i32>ctz(bits));
          bits &= bits - 1;
        }
      }
    }
    for (let q = 0; q < m; q++) {
      const j = ld(row, q);
      if (k == max) {
        cursorI = i;
        cursorJ = j;
        passedThrough = i > thr ? i : thr;
        return k;
      }
      const o = segments + (<usize>k) * 48;
      store<f64>(o, ix);
      store<f64>(o, iy, 8);
      store<f64>(o, iz, 16);
      const e = eyes + (<usize>j) * 24;
      store<f64>(o, load<f64>(e), 24);
      store<f64>(o, load<f64>(e, 8), 32);
      store<f64>(o, load<f64>(e, 16), 40);
      const pp = pairs + (<usize>k) * 8;
      store<u32>(pp, <u32>i);
      store<u32>(pp, <u32>j, 4);
      k++;
    }
  }
  cursorI = i;
  cursorJ = i + 1;
  passedThrough = i - 1 > thr ? i - 1 : thr;
  return k;
}
