/**
 * AssemblyScript source of the Rugrats line-of-sight walk in WebAssembly (built by scripts/wasm-kernels.mjs; not
 * part of the TypeScript program). It is `RugratsWorld.segmentFraction` over one batch per call:
 * `SegmentStopWalker.walk` of src/worlds/rugrats/segment-stop.ts (with what it calls in query.ts and plane.ts)
 * and then `stopFraction` of collision-world.ts, the same integer operations in the same order. The JavaScript
 * walk is its oracle, and a property test compares every answer bit for bit.
 *
 * Memory, laid out by the caller (src/worlds/rugrats/segment-walk-wasm.ts) and named once to `init`:
 *   grid        512 × 256 i32: per column and z cell the global cell index, or −1 (`ColIndex.cellGrid`)
 *   per cell    i32 × 5: stack A, stack B, the walker's flat stack, open low, open high
 *   per tile    i32 × 8: floor, ceiling, the floor normal (3), the ceiling normal (3)
 *               u8 ×  4: flags, floor sloped, ceiling sloped, flat (both planes flat)
 * and per call a batch of segments (6 f64 each: from x, y, z, to x, y, z) and its answers (1 f64 each).
 *
 * The JavaScript's integer idioms and what they are here: `a | 0` of a sum or difference of two int32 is the
 * wrapping i32 operation; `Math.imul` is i32.mul; `(a / b) | 0` of two int32 is the truncating division, but for
 * b = 0 (0) and b = −1 (the wrapping negation), where i32.div_s would trap (`divTrunc`); `>>` and `>>>` are the
 * signed and unsigned shifts. Doubles only where the JavaScript's numbers are not int32: `toS32` of the inputs,
 * the walk's "no wrap" test (in i64, exact) and `stopFraction` (the same f64 operations).
 */

const SEG_GETS_THROUGH: i32 = 0;
const SEG_STOPPED: i32 = 1;
const SEG_START_NOT_OPEN: i32 = 2;
const PLANE_MISS: i32 = -1;
const CLEARANCE: i32 = 1024;
const CEILING_PREFILTER: i32 = 1024;
const SLOPE_REACH: i32 = 1024;
const FLAG_LAST: i32 = 0x01;
const FLAG_DIAGONAL_SUM: i32 = 0x20;
const FLAG_HALF_MASK: i32 = 0x60;
const FLAG_HALF_SHIFT: i32 = 5;
const FLAG_HALVED: i32 = 0x80;

// The tables (see the module comment).
let grid: usize = 0;
let cellStackA: usize = 0;
let cellStackB: usize = 0;
let flatStack: usize = 0;
let openLow: usize = 0;
let openHigh: usize = 0;
let tileFloor: usize = 0;
let tileCeiling: usize = 0;
let floorNormal: usize = 0;
let ceilingNormal: usize = 0;
let tileFlags: usize = 0;
let floorSloped: usize = 0;
let ceilingSloped: usize = 0;
let flatTile: usize = 0;
let minX: i32 = 0;
let minY: i32 = 0;
let minZ: i32 = 0;
let maxX: i32 = 0;
let maxY: i32 = 0;
let maxZ: i32 = 0;

// The walker's state: the last start queried and its tile, the segment walked, the stop point.
let lastX: i32 = 0;
let lastY: i32 = 0;
let lastZ: i32 = 0;
let lastTile: i32 = -1;
let haveLast: bool = false;
let sfx: i32 = 0;
let sfy: i32 = 0;
let sfz: i32 = 0;
let sdx: i32 = 0;
let sdy: i32 = 0;
let sdz: i32 = 0;
let yAlongX: bool = false;
let vertical: bool = false;
let stopX: i32 = 0;
let stopY: i32 = 0;
let stopZ: i32 = 0;
// diagonalCrossing's answer.
let crossX: i32 = 0;
let crossZ: i32 = 0;
// walkStack's sloped ceiling.
let walkCeiling: i32 = 0;

/** The first byte the caller may use (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}

/** Names the tables (laid out by the caller, in the order of the module comment) and the bounds. */
export function init(gridAt: usize, cellsAt: usize, nCells: i32, tilesAt: usize, tileBytesAt: usize, nTiles: i32, x0: i32, y0: i32, z0: i32, x1: i32, y1: i32, z1: i32): void {
  grid = gridAt;
  const c = <usize>nCells << 2;
  cellStackA = cellsAt;
  cellStackB = cellsAt + c;
  flatStack = cellsAt + 2 * c;
  openLow = cellsAt + 3 * c;
  openHigh = cellsAt + 4 * c;
  const t = <usize>nTiles << 2;
  tileFloor = tilesAt;
  tileCeiling = tilesAt + t;
  floorNormal = tilesAt + 2 * t;
  ceilingNormal = tilesAt + 5 * t;
  const b = <usize>nTiles;
  tileFlags = tileBytesAt;
  floorSloped = tileBytesAt + b;
  ceilingSloped = tileBytesAt + 2 * b;
  flatTile = tileBytesAt + 3 * b;
  minX = x0;
  minY = y0;
  minZ = z0;
  maxX = x1;
  maxY = y1;
  maxZ = z1;
  haveLast = false;
}

@inline function i32At(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}
@inline function u8At(base: usize, i: i32): i32 {
  return <i32>load<u8>(base + <usize>i);
}

/** `(a / b) | 0` of two int32 in JavaScript: truncating, 0 for b = 0, the wrapping negation for b = −1. */
@inline function divTrunc(a: i32, b: i32): i32 {
  if (b == 0) return 0;
  if (b == -1) return 0 - a;
  return a / b;
}

/** query.ts's `toS32` as an int32 (NaN → −2^31, saturating, truncating toward zero). */
@inline function toS32(v: f64): i32 {
  if (v != v) return -2147483648;
  if (v >= 2147483647.0) return 2147483647;
  if (v <= -2147483648.0) return -2147483648;
  return <i32>v;
}

/** query.ts's `toS32` as the double JavaScript holds: the same value, and −0 kept where `v === (v | 0)` keeps it. */
@inline function toS32f(v: f64): f64 {
  if (v == Math.trunc(v) && v >= -2147483648.0 && v <= 2147483647.0) return v;
  return <f64>toS32(v);
}

// plane.ts

@inline function planeDistance(nx: i32, ny: i32, nz: i32, dx: i32, dy: i32, dz: i32): i32 {
  return (nx * dx + ny * dy + nz * dz) >> 12;
}

@inline function crossingFraction(da: i32, db: i32): i32 {
  if (da == db || (da > 0 && db > 0) || (da < 0 && db < 0)) return PLANE_MISS;
  const t = divTrunc(da * 4096, da - db);
  return t >= 0 && t <= 4096 ? t : PLANE_MISS;
}

function planeFraction(ax: i32, ay: i32, az: i32, bx: i32, by: i32, bz: i32, px: i32, py: i32, pz: i32, nx: i32, ny: i32, nz: i32): i32 {
  const da = planeDistance(nx, ny, nz, ax - px, ay - py, az - pz);
  const db = planeDistance(nx, ny, nz, bx - px, by - py, bz - pz);
  return crossingFraction(da, db);
}

@inline function flatPlaneFraction(ay: i32, by: i32, h: i32, ny: i32): i32 {
  return crossingFraction((ny * (ay - h)) >> 12, (ny * (by - h)) >> 12);
}

@inline function lerpFp12(a: i32, b: i32, t: i32): i32 {
  return a + ((b - a) * t) / 4096;
}

@inline function cornerX(x: i32, half3: bool): i32 {
  return half3 ? x | 1023 : x & -1024;
}

function slopedHeight(h: i32, nx: i32, ny: i32, nz: i32, x: i32, z: i32, half3: bool): i32 {
  const top = h - SLOPE_REACH;
  const bottom = h + SLOPE_REACH;
  const t = planeFraction(x, top, z, x, bottom, z, cornerX(x, half3), h, cornerX(z, half3), nx, ny, nz);
  return t == PLANE_MISS ? h : lerpFp12(top, bottom, t);
}

// query.ts

@inline function halfAt(flags: i32, x: i32, z: i32): i32 {
  const lx = x & 1023;
  const lz = z & 1023;
  if (flags & FLAG_DIAGONAL_SUM) return lx + lz < 1024 ? 1 : 3;
  return lz < lx ? 0 : 2;
}

function stackForPoint(cell: i32, x: i32, z: i32): i32 {
  const a = i32At(cellStackA, cell);
  const f = u8At(tileFlags, a);
  if ((f & FLAG_HALVED) == 0) return a;
  return halfAt(f, x, z) == (f & FLAG_HALF_MASK) >> FLAG_HALF_SHIFT ? a : i32At(cellStackB, cell);
}

@inline function isHalf3(flags: i32): bool {
  return (flags & (FLAG_HALVED | FLAG_HALF_MASK)) == (FLAG_HALVED | FLAG_HALF_MASK);
}

function ceilingAt(t: i32, x: i32, z: i32): i32 {
  const h = i32At(tileCeiling, t);
  if (u8At(ceilingSloped, t) == 0) return h;
  const k = t * 3;
  return slopedHeight(h, i32At(ceilingNormal, k), i32At(ceilingNormal, k + 1), i32At(ceilingNormal, k + 2), x, z, isHalf3(u8At(tileFlags, t)));
}

function floorAt(t: i32, x: i32, z: i32): i32 {
  const h = i32At(tileFloor, t);
  if (u8At(floorSloped, t) == 0) return h;
  const k = t * 3;
  return slopedHeight(h, i32At(floorNormal, k), i32At(floorNormal, k + 1), i32At(floorNormal, k + 2), x, z, isHalf3(u8At(tileFlags, t)));
}

function walkStack(first: i32, x: i32, y: i32, z: i32): i32 {
  for (let t = first; ; t++) {
    if (y >= i32At(tileCeiling, t) - CEILING_PREFILTER) {
      const c = ceilingAt(t, x, z);
      if (y >= c) {
        walkCeiling = c;
        return t;
      }
    }
    if (u8At(tileFlags, t) & FLAG_LAST) return -1;
  }
  return -1;
}

/** locateCell: the global cell index, or a negative number for none. */
function locateCell(x: i32, y: i32, z: i32): i32 {
  if (x < minX || x > maxX || y < minY || y > maxY || z < minZ || z > maxZ) return -2;
  const col = <u32>(x - minX) >> 10;
  if (col >= 512) return -2;
  const zc = <u32>(z - minZ) >> 10;
  if (zc > 255) return -1;
  return i32At(grid, <i32>((col << 8) | zc));
}

/** segment-stop.ts's openTile: the query's tile for an open point, or −1. */
function openTile(x: i32, y: i32, z: i32): i32 {
  const cell = locateCell(x, y, z);
  if (cell < 0) return -1;
  const t = walkStack(stackForPoint(cell, x, z), x, y, z);
  if (t < 0) return -1;
  const ceiling = walkCeiling;
  return ceiling < y && y < floorAt(t, x, z) ? t : -1;
}

// segment-stop.ts

@inline function nearer(tf: i32, tc: i32): i32 {
  if (tc == PLANE_MISS) return tf;
  if (tf == PLANE_MISS) return tc;
  return tf <= tc ? tf : tc;
}

@inline function stopAt(x: i32, y: i32, z: i32): i32 {
  stopX = x;
  stopY = y;
  stopZ = z;
  return SEG_STOPPED;
}

function diagonalCrossing(flags: i32, cx: i32, cz: i32, nx: i32, nz: i32): bool {
  const baseX = cx & -1024;
  const baseZ = cz & -1024;
  const ux = cx - baseX, uz = cz - baseZ;
  const vx = nx - baseX, vz = nz - baseZ;
  let fa: i32, fb: i32;
  if (flags & FLAG_DIAGONAL_SUM) {
    fa = ux + uz - 1024;
    fb = vx + vz - 1024;
  } else {
    fa = uz - ux;
    fb = vz - vx;
  }
  if ((fa < 0) == (fb < 0)) return false;
  const k = fa - fb;
  let px = ux + divTrunc((vx - ux) * fa, k);
  let pz = uz + divTrunc((vz - uz) * fa, k);
  px = px < 0 ? 0 : px > 1023 ? 1023 : px;
  pz = pz < 0 ? 0 : pz > 1023 ? 1023 : pz;
  crossX = baseX + px;
  crossZ = baseZ + pz;
  return true;
}

function partStops(known: i32, first: i32, sx: i32, sy: i32, sz: i32, ex: i32, ey: i32, ez: i32): bool {
  let t = known;
  if (t < 0) {
    t = walkStack(first, sx, sy, sz);
    if (t < 0 || sy > floorAt(t, sx, sz)) {
      stopAt(sx, sy, sz);
      return true;
    }
  }
  const ff = i32At(tileFloor, t);
  const fc = i32At(tileCeiling, t);
  if (sy < ff - CLEARANCE && ey < ff - CLEARANCE && ey > fc + CLEARANCE) return false;
  const k = t * 3;
  const isFloorSloped = u8At(floorSloped, t) != 0;
  const isCeilingSloped = u8At(ceilingSloped, t) != 0;
  let px = 0;
  let pz = 0;
  if (isFloorSloped || isCeilingSloped) {
    const half3 = isHalf3(u8At(tileFlags, t));
    px = cornerX(sx, half3);
    pz = cornerX(sz, half3);
  }
  const tf = isFloorSloped
    ? planeFraction(sx, sy, sz, ex, ey, ez, px, ff, pz, i32At(floorNormal, k), i32At(floorNormal, k + 1), i32At(floorNormal, k + 2))
    : flatPlaneFraction(sy, ey, ff, i32At(floorNormal, k + 1));
  const tc = isCeilingSloped
    ? planeFraction(sx, sy, sz, ex, ey, ez, px, fc, pz, i32At(ceilingNormal, k), i32At(ceilingNormal, k + 1), i32At(ceilingNormal, k + 2))
    : flatPlaneFraction(sy, ey, fc, i32At(ceilingNormal, k + 1));
  const f = nearer(tf, tc);
  if (f == PLANE_MISS) return false;
  stopAt(lerpFp12(sx, ex, f), lerpFp12(sy, ey, f), lerpFp12(sz, ez, f));
  return true;
}

function cellStops(cell: i32, t0: i32, cx: i32, cy: i32, cz: i32, nx: i32, ny: i32, nz: i32): bool {
  const stackA = i32At(cellStackA, cell);
  const fA = u8At(tileFlags, stackA);
  if ((fA & FLAG_HALVED) == 0) return partStops(t0, stackA, cx, cy, cz, nx, ny, nz);
  const stackB = i32At(cellStackB, cell);
  const h = halfAt(fA, cx, cz);
  const mine = h == (fA & FLAG_HALF_MASK) >> FLAG_HALF_SHIFT ? stackA : stackB;
  const other = mine == stackA ? stackB : stackA;
  if (vertical || !diagonalCrossing(fA, cx, cz, nx, nz)) return partStops(t0, mine, cx, cy, cz, nx, ny, nz);
  const kx = crossX, kz = crossZ;
  const ky = yAlongX ? sfy + divTrunc(sdy * (kx - sfx), sdx) : sfy + divTrunc(sdy * (kz - sfz), sdz);
  return partStops(t0, mine, cx, cy, cz, kx, ky, kz) || partStops(-1, other, kx, ky, kz, nx, ny, nz);
}

@inline function abs64(v: i32): i64 {
  const w = <i64>v;
  return w < 0 ? -w : w;
}

/** `SegmentStopWalker.walk` on the toS32 coordinates: the result; for SEG_STOPPED the stop point in stopX/Y/Z. */
function walk(fx: i32, fy: i32, fz: i32, tx: i32, ty: i32, tz: i32): i32 {
  let t0: i32;
  if (haveLast && fx == lastX && fy == lastY && fz == lastZ) t0 = lastTile;
  else {
    t0 = openTile(fx, fy, fz);
    lastX = fx;
    lastY = fy;
    lastZ = fz;
    lastTile = t0;
    haveLast = true;
  }
  if (t0 < 0) return SEG_START_NOT_OPEN;
  if (fx == tx && fy == ty && fz == tz) return SEG_GETS_THROUGH;

  const dx = tx - fx;
  const dy = ty - fy;
  const dz = tz - fz;
  const isVertical = dx == 0 && dz == 0;
  sfx = fx; sfy = fy; sfz = fz;
  sdx = dx; sdy = dy; sdz = dz;
  yAlongX = abs64(dx) >= abs64(dz);
  vertical = isVertical;
  const txCell = tx & -1024;
  const tzCell = tz & -1024;
  const landX: i32 = dx > 0 ? 1024 : -1;
  const landZ: i32 = dz > 0 ? 1024 : -1;
  const yLow = fy < ty ? fy : ty;
  const yMax = fy > ty ? fy : ty;
  // The JavaScript's differences unwrapped and its product of doubles, exactly, in i64.
  const exact =
    <i64>dx == <i64>tx - <i64>fx &&
    <i64>dy == <i64>ty - <i64>fy &&
    <i64>dz == <i64>tz - <i64>fz &&
    abs64(dy) * (abs64(dx) > abs64(dz) ? abs64(dx) : abs64(dz)) < 0x80000000;
  const yHigh: i32 = exact && yLow >= minY && yMax <= maxY ? yMax : 0x7fffffff;
  let cx = fx, cy = fy, cz = fz;
  let memoBx = 0, memoZAt = 0, haveBx = false;
  let memoBz = 0, memoXAt = 0, haveBz = false;

  for (let first = true; ; first = false) {
    let nx = tx, ny = ty, nz = tz;
    let final = true;
    const cellX = cx & -1024;
    const cellZ = cz & -1024;
    const xLeaves = dx > 0 ? cellX < txCell : dx < 0 ? txCell < cellX : false;
    const zLeaves = dz > 0 ? cellZ < tzCell : dz < 0 ? tzCell < cellZ : false;
    if (xLeaves || zLeaves) {
      final = false;
      let stepX = false;
      if (xLeaves) {
        const bx = cellX + landX;
        const run = bx - fx;
        if (!haveBx || bx != memoBx) {
          memoBx = bx;
          memoZAt = fz + divTrunc(dz * run, dx);
          haveBx = true;
        }
        const zAt = memoZAt;
        if (!zLeaves || (zAt & -1024) == cellZ) {
          stepX = true;
          nx = bx;
          nz = zAt < cellZ ? cellZ : zAt > cellZ + 1023 ? cellZ + 1023 : zAt;
          ny = fy + divTrunc(dy * run, dx);
        }
      }
      if (!stepX) {
        const bz = cellZ + landZ;
        const run = bz - fz;
        if (!haveBz || bz != memoBz) {
          memoBz = bz;
          memoXAt = fx + divTrunc(dx * run, dz);
          haveBz = true;
        }
        const xAt = memoXAt;
        nx = xAt < cellX ? cellX : xAt > cellX + 1023 ? cellX + 1023 : xAt;
        nz = bz;
        ny = fy + divTrunc(dy * run, dz);
      }
    }

    const col = <u32>(cx - minX) >> 10;
    const zc = <u32>(cz - minZ) >> 10;
    const cell = col < 512 && zc < 256 ? i32At(grid, <i32>((col << 8) | zc)) : -1;
    if (!(cell >= 0 && i32At(openLow, cell) < yLow && yHigh < i32At(openHigh, cell))) {
      if (cx < minX || cx > maxX || cy < minY || cy > maxY || cz < minZ || cz > maxZ || cell < 0) return stopAt(cx, cy, cz);
      const stack = i32At(flatStack, cell);
      if (stack >= 0 || (first && (u8At(tileFlags, i32At(cellStackA, cell)) & FLAG_HALVED) == 0 && u8At(flatTile, t0) != 0)) {
        let t = t0;
        if (!first) {
          for (t = stack; ; t++) {
            const c = i32At(tileCeiling, t);
            if (cy >= c - CEILING_PREFILTER && cy >= c) break;
            if (u8At(tileFlags, t) & FLAG_LAST) return stopAt(cx, cy, cz);
          }
          if (cy > i32At(tileFloor, t)) return stopAt(cx, cy, cz);
        }
        const fc = i32At(tileCeiling, t);
        const ff = i32At(tileFloor, t);
        if (!(cy < ff - CLEARANCE && ny < ff - CLEARANCE && ny > fc + CLEARANCE)) {
          const k = t * 3 + 1;
          const f = nearer(flatPlaneFraction(cy, ny, ff, i32At(floorNormal, k)), flatPlaneFraction(cy, ny, fc, i32At(ceilingNormal, k)));
          if (f != PLANE_MISS) return stopAt(lerpFp12(cx, nx, f), lerpFp12(cy, ny, f), lerpFp12(cz, nz, f));
        }
      } else if (cellStops(cell, first ? t0 : -1, cx, cy, cz, nx, ny, nz)) return SEG_STOPPED;
    }

    if (final) return SEG_GETS_THROUGH;
    cx = nx; cy = ny; cz = nz;
  }
  return SEG_GETS_THROUGH;
}

/** collision-world.ts's `stopFraction`: the same doubles, the same operations. */
function stopFraction(fx0: f64, fy0: f64, fz0: f64, tx: f64, ty: f64, tz: f64, px: f64, py: f64, pz: f64): f64 {
  const fx = toS32f(fx0), fy = toS32f(fy0), fz = toS32f(fz0);
  const dx = toS32f(tx) - fx;
  const dy = toS32f(ty) - fy;
  const dz = toS32f(tz) - fz;
  const ax = Math.abs(dx), ay = Math.abs(dy), az = Math.abs(dz);
  let f: f64;
  if (ax >= ay && ax >= az) f = ax == 0 ? 0 : (px - fx) / dx;
  else if (ay >= az) f = (py - fy) / dy;
  else f = (pz - fz) / dz;
  return f < 0 ? 0 : f > 1 ? 1 : f;
}

/**
 * Answers `n` segments at `segmentsAt` (6 f64 each) into `outAt` (1 f64 each): `RugratsWorld.segmentFraction`'s
 * answers (−1 gets through, 0 from a start not open, else the stop point's fraction).
 */
export function walkMany(segmentsAt: usize, outAt: usize, n: i32): void {
  for (let i = 0; i < n; i++) {
    const s = segmentsAt + <usize>i * 48;
    const fx = load<f64>(s), fy = load<f64>(s, 8), fz = load<f64>(s, 16);
    const tx = load<f64>(s, 24), ty = load<f64>(s, 32), tz = load<f64>(s, 40);
    const r = walk(toS32(fx), toS32(fy), toS32(fz), toS32(tx), toS32(ty), toS32(tz));
    const answer = r == SEG_GETS_THROUGH ? -1.0 : r == SEG_START_NOT_OPEN ? 0.0 : stopFraction(fx, fy, fz, tx, ty, tz, <f64>stopX, <f64>stopY, <f64>stopZ);
    store<f64>(outAt + (<usize>i << 3), answer);
  }
}
