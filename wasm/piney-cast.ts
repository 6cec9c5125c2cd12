/**
 * AssemblyScript source of the Piney field's segment cast in WebAssembly (built by scripts/wasm-kernels.mjs;
 * not part of the TypeScript program). It is `FieldSegmentCaster.castMany` of src/worlds/piney/segment-cast.ts,
 * the same operations in the same order on the same doubles, over one batch per call: the JavaScript cast is
 * its oracle, and a property test compares every answer bit for bit.
 *
 * Memory, laid out by the caller (src/worlds/piney/segment-cast-wasm.ts) and named once to `init`:
 *   heights   80 × 80 f64, x-major
 *   tops      5 levels × 80 × 80 f64: level 0 the cell tops, level k the highest top of each 2^k square
 *   blocker   40 × 40 i16, per chip the object whose column covers it, or −1
 *   columns   per object the top of its column, f64
 * and per call a batch of segments (6 f64 each: from x, y, z, to x, y, z) and its answers (1 f64 each).
 *
 * Only + − × ÷, floor, min, max, abs and comparisons of f64 (each one IEEE operation in both engines; nothing
 * is fused), and integer work only where the JavaScript's numbers are small integers.
 */

const CELLS: i32 = 80;
const CHIPS: i32 = 40;
const CELL_UNITS: f64 = 600;
const MAX_SEGMENT_CELLS: f64 = 4 * 80;
const MAX_SQUARE: f64 = 16;
const RECT_SLACK: f64 = 1;
const LEVEL_BYTES: i32 = 80 * 80 * 8;

let heights: usize = 0;
let tops: usize = 0;
let blocker: usize = 0;
let columns: usize = 0;
let maxTop: f64 = 0;

/** The first byte the caller may use (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}

/** Names the field's tables (laid out by the caller) and its highest top. */
export function init(heightsAt: usize, topsAt: usize, blockerAt: usize, columnsAt: usize, top: f64): void {
  heights = heightsAt;
  tops = topsAt;
  blocker = blockerAt;
  columns = columnsAt;
  maxTop = top;
}

/** The JavaScript's `wrapCell` of an integer-valued double, as an index (its `%` is fmod, exact in both). */
@inline
function wrapCell(i: f64): i32 {
  if (i >= 0 && i < <f64>CELLS) return <i32>i;
  return <i32>(((i % <f64>CELLS) + <f64>CELLS) % <f64>CELLS);
}

@inline
function wrapChip(i: i32): i32 {
  return i >= 0 && i < CHIPS ? i : ((i % CHIPS) + CHIPS) % CHIPS;
}

/** ECMAScript's ToInt32 of an integer-valued finite double (what `x >> 1` does to its left side first). */
@inline
function toInt32(x: f64): i32 {
  if (x >= -2147483648.0 && x <= 2147483647.0) return <i32>x;
  // x − 2^32 ⌊x / 2^32⌋ is exact for an integer-valued double: each step is a power-of-two scaling, a floor
  // or a difference whose exact value is representable.
  const r = x - Math.floor(x / 4294967296.0) * 4294967296.0;
  return <i32>(<u32>r);
}

@inline
function squareTop(level: i32, index: i32): f64 {
  return load<f64>(tops + <usize>(level * LEVEL_BYTES + (index << 3)));
}

@inline
function height(index: i32): f64 {
  return load<f64>(heights + <usize>(index << 3));
}

/**
 * Casts `n` segments at `segmentsAt` (6 f64 each) and writes each answer (the first hit's fraction, or −1)
 * at `outAt` (1 f64 each): `FieldSegmentCaster.castMany`'s answers. `restAt` holds `n` i32 of scratch: the
 * segments stage one leaves for the walk.
 *
 * Stage one is `screen`'s tests without a branch: every test is computed for every segment and combined with
 * selects (a table index that would be out of the tables, for a segment the tests do not apply to, reads cell 0
 * instead, and its answer does not depend on it), so the segments' loads and divisions overlap and nothing
 * mispredicts; its list of the rest grows by a select too. Stage two walks the rest.
 */
export function castMany(segmentsAt: usize, outAt: usize, restAt: usize, n: i32): void {
  const top = maxTop;
  let rest = 0;
  for (let i = 0; i < n; i++) {
    const s = segmentsAt + <usize>(i * 48);
    const fx = load<f64>(s), fy = load<f64>(s, 8), fz = load<f64>(s, 16);
    const tx = load<f64>(s, 24), ty = load<f64>(s, 32), tz = load<f64>(s, 40);
    store<f64>(outAt + <usize>(i << 3), -1);
    const dx = tx - fx, dy = ty - fy, dz = tz - fz;
    // Finite ends and direction, and not above every top (non-short-circuit: every test is computed).
    const finite = <i32>(fx - fx == 0) & <i32>(fy - fy == 0) & <i32>(fz - fz == 0) & <i32>(tx - tx == 0) & <i32>(ty - ty == 0) & <i32>(tz - tz == 0) & <i32>(dx - dx == 0) & <i32>(dy - dy == 0) & <i32>(dz - dz == 0);
    const above = <i32>(fz > top) & <i32>(tz > top);
    const ex = fx + dx;
    const ey = fy + dy;
    const cx0 = Math.floor(((fx < ex ? fx : ex) - RECT_SLACK) / CELL_UNITS);
    const cy0 = Math.floor(((fy < ey ? fy : ey) - RECT_SLACK) / CELL_UNITS);
    const w = Math.floor(((fx < ex ? ex : fx) + RECT_SLACK) / CELL_UNITS) - cx0 + 1;
    const h = Math.floor(((fy < ey ? ey : fy) + RECT_SLACK) / CELL_UNITS) - cy0 + 1;
    const small = <i32>(w <= MAX_SQUARE) & <i32>(h <= MAX_SQUARE) & <i32>(cx0 > -1073741824.0) & <i32>(cx0 < 1073741824.0) & <i32>(cy0 > -1073741824.0) & <i32>(cy0 < 1073741824.0);
    // Where the square test applies, every number below is a small integer (|cx0|, |cy0| < 2^30, w, h in
    // 1..16), so the JavaScript's wrapCell of a double is the integer remainder here; elsewhere cell 0 is read.
    const wh = select<f64>(w > h ? w : h, 1, small);
    const k = 31 - clz<i32>(<i32>wh);
    const side = 1 << k;
    const ix0 = select<i32>(<i32>cx0, 0, small), iy0 = select<i32>(<i32>cy0, 0, small);
    const ix1 = select<i32>(<i32>(cx0 + w) - side, 0, small), iy1 = select<i32>(<i32>(cy0 + h) - side, 0, small);
    const xa = wrapInt(ix0) * CELLS, ya = wrapInt(iy0);
    const xb = wrapInt(ix1) * CELLS, yb = wrapInt(iy1);
    const zLow = fz + dz < fz ? fz + dz : fz;
    const low = <i32>(zLow > squareTop(k, xa + ya)) & <i32>(zLow > squareTop(k, xa + yb)) & <i32>(zLow > squareTop(k, xb + ya)) & <i32>(zLow > squareTop(k, xb + yb));
    const clear = (finite ^ 1) | above | (small & low);
    store<i32>(restAt + <usize>(rest << 2), i);
    rest += clear ^ 1;
  }
  for (let q = 0; q < rest; q++) {
    const i = load<i32>(restAt + <usize>(q << 2));
    const s = segmentsAt + <usize>(i * 48);
    const fx = load<f64>(s), fy = load<f64>(s, 8), fz = load<f64>(s, 16);
    const tx = load<f64>(s, 24), ty = load<f64>(s, 32), tz = load<f64>(s, 40);
    store<f64>(outAt + <usize>(i << 3), walk(fx, fy, fz, tz, tx - fx, ty - fy, tz - fz));
  }
}

/** The JavaScript's wrapCell of a small integer (|i| < 2^30). */
@inline
function wrapInt(i: i32): i32 {
  // Almost always already in 0..79: no division then.
  if (<u32>i < <u32>CELLS) return i;
  const r = i % CELLS;
  return r < 0 ? r + CELLS : r;
}

/** `FieldSegmentCaster.walk`, line for line. */
function walk(fx: f64, fy: f64, fz: f64, tz: f64, dx: f64, dy: f64, dz: f64): f64 {
  const inf = Infinity;
  let t0: f64 = 0;
  let t1: f64 = 1;
  if (fz > maxTop) t0 = (maxTop - fz) / dz;
  else if (tz > maxTop) t1 = (maxTop - fz) / dz;
  const cellsX = Math.abs(dx) / CELL_UNITS;
  const cellsY = Math.abs(dy) / CELL_UNITS;
  const span = (cellsX + cellsY) * (t1 - t0);
  if (span > MAX_SEGMENT_CELLS) t1 = t0 + (MAX_SEGMENT_CELLS / (cellsX + cellsY));
  let ix = Math.floor((fx + dx * t0) / CELL_UNITS);
  let iy = Math.floor((fy + dy * t0) / CELL_UNITS);
  const stepX: f64 = dx > 0 ? 1 : dx < 0 ? -1 : 0;
  const stepY: f64 = dy > 0 ? 1 : dy < 0 ? -1 : 0;
  const invX = dx != 0 ? 1 / dx : inf;
  const invY = dy != 0 ? 1 / dy : inf;
  let nextX = stepX > 0 ? ((ix + 1) * CELL_UNITS - fx) * invX : stepX < 0 ? (ix * CELL_UNITS - fx) * invX : inf;
  let nextY = stepY > 0 ? ((iy + 1) * CELL_UNITS - fy) * invY : stepY < 0 ? (iy * CELL_UNITS - fy) * invY : inf;
  const dtX = stepX != 0 ? CELL_UNITS * Math.abs(invX) : inf;
  const dtY = stepY != 0 ? CELL_UNITS * Math.abs(invY) : inf;
  // The cell test's du and dv (the same for every cell of the segment: computed once, the same doubles).
  const du = dx / CELL_UNITS;
  const dv = dy / CELL_UNITS;
  const skip = ix > -1073741824.0 && ix < 1073741824.0 && iy > -1073741824.0 && iy < 1073741824.0;
  let ta = t0;
  for (let guard = 0; guard <= 2 * <i32>MAX_SEGMENT_CELLS + 4 && ta <= t1; guard++) {
    const tb = Math.min(Math.min(nextX, nextY), t1);
    const cellTop = skip ? squareTop(0, wrapCell(ix) * CELLS + wrapCell(iy)) : inf;
    if (!(fz + dz * ta > cellTop && fz + dz * tb > cellTop)) {
      const hit = cellHit(ix, iy, fx, fy, fz, dx, dy, dz, du, dv, ta, tb);
      if (hit >= 0) return hit;
    }
    if (tb >= t1) break;
    if (nextX <= nextY) {
      ix += stepX;
      ta = nextX;
      nextX += dtX;
    } else {
      iy += stepY;
      ta = nextY;
      nextY += dtY;
    }
  }
  return -1;
}

/** `FieldSegmentCaster.cellHits`: the hit's fraction in cell (ix, iy) over [ta, tb], or −1. */
function cellHit(ix: f64, iy: f64, fx: f64, fy: f64, fz: f64, dx: f64, dy: f64, dz: f64, du: f64, dv: f64, ta: f64, tb: f64): f64 {
  const ox = ix * CELL_UNITS;
  const oy = iy * CELL_UNITS;
  const k = <i32>load<i16>(blocker + <usize>((wrapChip(toInt32(ix) >> 1) * CHIPS + wrapChip(toInt32(iy) >> 1)) << 1));
  let best: f64 = -1;
  if (k >= 0) {
    const columnTop = load<f64>(columns + <usize>(k << 3));
    const za = fz + dz * ta;
    const zb = fz + dz * tb;
    if (za <= columnTop) best = ta;
    else if (zb <= columnTop) best = ta + ((za - columnTop) / (za - zb)) * (tb - ta);
  }
  const u0 = (fx - ox) / CELL_UNITS;
  const v0 = (fy - oy) / CELL_UNITS;
  let tm: f64 = -1;
  if (du != dv) {
    const tc = (u0 - v0) / (dv - du);
    if (tc > ta && tc < tb) tm = tc;
  }
  const pieces = tm > 0 ? 2 : 1;
  const x0 = wrapCell(ix) * CELLS;
  const x1 = wrapCell(ix + 1) * CELLS;
  const y0 = wrapCell(iy);
  const y1 = wrapCell(iy + 1);
  const h00 = height(x0 + y0), h11 = height(x1 + y1), h01 = height(x0 + y1), h10 = height(x1 + y0);
  let a = ta;
  let uc = Math.min(1, Math.max(0, (fx + dx * ta - ox) / CELL_UNITS));
  let vc = Math.min(1, Math.max(0, (fy + dy * ta - oy) / CELL_UNITS));
  let ga = fz + dz * ta - (vc >= uc ? h00 + (h11 - h01) * uc + (h01 - h00) * vc : h00 + (h10 - h00) * uc + (h11 - h10) * vc);
  for (let p = 0; p < pieces; p++) {
    const b = p == 0 && pieces == 2 ? tm : tb;
    if (best >= 0 && a >= best) break;
    uc = Math.min(1, Math.max(0, (fx + dx * b - ox) / CELL_UNITS));
    vc = Math.min(1, Math.max(0, (fy + dy * b - oy) / CELL_UNITS));
    const gb = fz + dz * b - (vc >= uc ? h00 + (h11 - h01) * uc + (h01 - h00) * vc : h00 + (h10 - h00) * uc + (h11 - h10) * vc);
    let t: f64 = -1;
    if (ga <= 0) t = a;
    else if (gb <= 0) t = a + (ga / (ga - gb)) * (b - a);
    if (t >= 0 && (best < 0 || t < best)) {
      best = t;
      break;
    }
    a = b;
    ga = gb;
  }
  return best;
}
