/**
 * AssemblyScript source of the GTA scene's segment walk in WebAssembly (built by scripts/wasm-kernels.mjs; not
 * part of the TypeScript program). It is `ColScene.segmentFractions` of src/worlds/gta/query.ts for a scene
 * without the broad phase over placements: `SceneSegmentKernel.screen` (the height map that proves a segment
 * clear) and `runAt` (the grid over placements, then each placement's box, the move into model space, the
 * spheres, the boxes and the packed tree with its triangles), the same operations in the same order on the same
 * doubles, over one batch per call. The JavaScript walk is its oracle: a property test compares every answer
 * bit for bit, with the rule-exact reference too.
 *
 * Memory, laid out by the caller (src/worlds/gta/segment-walk-wasm.ts) and named once to `init` through a
 * header (HEADER_* below): the scene's struct of arrays as SceneSegmentKernel holds them, except the inner
 * nodes' child boxes, which are interleaved (per node, for each of the six box numbers, the left child's then
 * the right child's), so that one 16-byte load gives a box number of both children; and per call a batch of
 * segments (6 f64 each: from x, y, z, to x, y, z) and its answers (1 f64 each).
 *
 * Only + − × ÷, floor and comparisons of f64 (each one IEEE operation in every engine; nothing is fused; no
 * f64.min or f64.max, whose NaN and ±0 rules differ from the JavaScript's comparisons: compares and selects
 * instead), and integer work only where the JavaScript's numbers are small integers. The two children of an
 * inner node are slab-tested side by side in f64x2 lanes: per lane the same IEEE operations and compares as
 * the JavaScript's, combined by bitselect exactly as its `if (w > a0) a0 = w`.
 */

/** Depth of the walk's stack (as the JavaScript's); a push beyond it is dropped there, and here. */
const STACK_SIZE: i32 = 256;

/** The walk's stack size, for the loader to check its layout against. */
export function stackSize(): i32 {
  return STACK_SIZE;
}
const PACK_NONE: i32 = 0x7fffffff;
const GRID_MAX_SEGMENT_CELLS: i32 = 64;
const GRID_MAX_EXTENT: f64 = 1073741824.0;
const CAP_MAX_COORD: f64 = 32768.0;
const CAP_LEVELS: i32 = 6;

// The header's i32 entries (their index), then its f64 entries from byte HEADER_F64.
const H_COUNT = 0;
const H_INST_MODEL = 1;
const H_INST_ROT = 2;
const H_INST_POS = 3;
const H_INST_BOX = 4;
const H_SPHERE_START = 5;
const H_BOX_START = 6;
const H_SPHERES = 7;
const H_BOXES = 8;
const H_ROOT = 9;
const H_ROOT_BOX = 10;
const H_PACK_BOX = 11;
const H_PACK_CHILD = 12;
const H_LEAF_FIRST = 13;
const H_LEAF_COUNT = 14;
const H_TRI = 15;
const H_STACK = 16;
const H_TSTACK = 17;
const H_GRID = 18;
const H_ALWAYS = 19;
const H_WORDS = 20;
const H_GW = 21;
const H_GH = 22;
const H_CAND = 23;
const H_CAP = 24;
const H_CW = 25;
const H_CH = 26;
const HEADER_F64: i32 = 128;
const F_GX0 = 0;
const F_GY0 = 1;
const F_GINV = 2;
const F_CX0 = 3;
const F_CY0 = 4;
const F_CINV = 5;

let instCount: i32 = 0;
let instModel: usize = 0;
let instRot: usize = 0;
let instPos: usize = 0;
let instBox: usize = 0;
let sphereStart: usize = 0;
let boxStart: usize = 0;
let spheres: usize = 0;
let boxes: usize = 0;
let rootRef: usize = 0;
let rootBox: usize = 0;
let packBox: usize = 0;
let packChild: usize = 0;
let leafFirst: usize = 0;
let leafCount: usize = 0;
let tri: usize = 0;
let stack: usize = 0;
let tstack: usize = 0;
let grid: usize = 0;
let always: usize = 0;
let words: i32 = 0;
let gw: i32 = 0;
let gh: i32 = 0;
let cand: usize = 0;
let cap: usize = 0;
let cw: i32 = 0;
let ch: i32 = 0;
let gx0: f64 = 0;
let gy0: f64 = 0;
let gInv: f64 = 0;
let cx0: f64 = 0;
let cy0: f64 = 0;
let cInv: f64 = 0;

/** The first byte the caller may use (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}

@inline
function hi(header: usize, k: i32): i32 {
  return load<i32>(header + <usize>(k << 2));
}

@inline
function hf(header: usize, k: i32): f64 {
  return load<f64>(header + <usize>(HEADER_F64 + (k << 3)));
}

/** Names the scene's tables (laid out by the caller) from the header at `header`. */
export function init(header: usize): void {
  instCount = hi(header, H_COUNT);
  instModel = <usize>hi(header, H_INST_MODEL);
  instRot = <usize>hi(header, H_INST_ROT);
  instPos = <usize>hi(header, H_INST_POS);
  instBox = <usize>hi(header, H_INST_BOX);
  sphereStart = <usize>hi(header, H_SPHERE_START);
  boxStart = <usize>hi(header, H_BOX_START);
  spheres = <usize>hi(header, H_SPHERES);
  boxes = <usize>hi(header, H_BOXES);
  rootRef = <usize>hi(header, H_ROOT);
  rootBox = <usize>hi(header, H_ROOT_BOX);
  packBox = <usize>hi(header, H_PACK_BOX);
  packChild = <usize>hi(header, H_PACK_CHILD);
  leafFirst = <usize>hi(header, H_LEAF_FIRST);
  leafCount = <usize>hi(header, H_LEAF_COUNT);
  tri = <usize>hi(header, H_TRI);
  stack = <usize>hi(header, H_STACK);
  tstack = <usize>hi(header, H_TSTACK);
  grid = <usize>hi(header, H_GRID);
  always = <usize>hi(header, H_ALWAYS);
  words = hi(header, H_WORDS);
  gw = hi(header, H_GW);
  gh = hi(header, H_GH);
  cand = <usize>hi(header, H_CAND);
  cap = <usize>hi(header, H_CAP);
  cw = hi(header, H_CW);
  ch = hi(header, H_CH);
  gx0 = hf(header, F_GX0);
  gy0 = hf(header, F_GY0);
  gInv = hf(header, F_GINV);
  cx0 = hf(header, F_CX0);
  cy0 = hf(header, F_CY0);
  cInv = hf(header, F_CINV);
}

@inline
function f64At(base: usize, k: i32): f64 {
  return load<f64>(base + (<usize>k << 3));
}

@inline
function i32At(base: usize, k: i32): i32 {
  return load<i32>(base + (<usize>k << 2));
}

/**
 * Answers `n` segments at `segmentsAt` (6 f64 each) into `outAt` (1 f64 each): `ColScene.segmentFractions`'
 * answers for a scene without the broad phase, bit for bit.
 */
export function walkMany(segmentsAt: usize, outAt: usize, n: i32): void {
  for (let i = 0; i < n; i++) {
    const s = segmentsAt + <usize>(i * 48);
    const fx = load<f64>(s), fy = load<f64>(s, 8), fz = load<f64>(s, 16);
    const tx = load<f64>(s, 24), ty = load<f64>(s, 32), tz = load<f64>(s, 40);
    let answer: f64 = -1;
    // `screen`: a non-finite end or direction is −1; so is a segment the height map proves clear.
    if (fx - fx == 0 && fy - fy == 0 && fz - fz == 0 && tx - fx - (tx - fx) == 0 && ty - fy - (ty - fy) == 0 && tz - fz - (tz - fz) == 0 && !capClear(fx, fy, fz, tx, ty, tz)) {
      answer = walk(fx, fy, fz, tx, ty, tz);
    }
    store<f64>(outAt + <usize>(i << 3), answer);
  }
}

/** A floor of a finite double clamped to 0 .. m − 1 (the JavaScript clamps the double, then indexes). */
@inline
function cellOf(v: f64, m: i32): i32 {
  const c = Math.floor(v);
  return c < 0 ? 0 : c > <f64>(m - 1) ? m - 1 : <i32>c;
}

/** `SceneSegmentKernel.capClearAt` (finite input only). */
function capClear(fx: f64, fy: f64, fz: f64, tx: f64, ty: f64, tz: f64): bool {
  if (cap == 0) return false;
  const M = CAP_MAX_COORD;
  if (!(fx >= -M && fx <= M && fy >= -M && fy <= M && fz >= -M && fz <= M && tx >= -M && tx <= M && ty >= -M && ty <= M && tz >= -M && tz <= M)) return false;
  const low = fz < tz ? fz : tz;
  const inv = cInv, w = cw, h = ch;
  const ax = cellOf(((fx < tx ? fx : tx) - cx0) * inv, w), bx = cellOf(((fx < tx ? tx : fx) - cx0) * inv, w);
  const ay = cellOf(((fy < ty ? fy : ty) - cy0) * inv, h), by = cellOf(((fy < ty ? ty : fy) - cy0) * inv, h);
  const kx = 31 - clz<i32>(bx - ax + 1), ky = 31 - clz<i32>(by - ay + 1);
  const top = cap + <usize>((kx * CAP_LEVELS + ky) * w * h) * 8;
  const xs = bx - (1 << kx) + 1, ys = by - (1 << ky) + 1;
  return low > f64At(top, ay * w + ax) && low > f64At(top, ay * w + xs) && low > f64At(top, ys * w + ax) && low > f64At(top, ys * w + xs);
}

/** `SceneSegmentKernel.gridCandidates`: the placements' count in `cand`, or −1 (try every placement). */
function gridCandidates(fx: f64, fy: f64, tx: f64, ty: f64): i32 {
  if (grid == 0) return -1;
  const lx = fx < tx ? fx : tx, hx = fx < tx ? tx : fx, ly = fy < ty ? fy : ty, hy = fy < ty ? ty : fy;
  if (!(hx - lx < GRID_MAX_EXTENT && hy - ly < GRID_MAX_EXTENT)) return -1;
  const inv = gInv, w = gw, h = gh;
  const ax = cellOf((lx - gx0) * inv, w), bx = cellOf((hx - gx0) * inv, w);
  const ay = cellOf((ly - gy0) * inv, h), by = cellOf((hy - gy0) * inv, h);
  if ((bx - ax + 1) * (by - ay + 1) > GRID_MAX_SEGMENT_CELLS) return -1;
  const nw = words;
  let n = 0;
  for (let word = 0; word < nw; word++) {
    let bits = i32At(always, word);
    for (let cy = ay; cy <= by; cy++) {
      for (let cx = ax, at = (cy * w + ax) * nw + word; cx <= bx; cx++, at += nw) bits |= i32At(grid, at);
    }
    while (bits != 0) {
      store<i32>(cand + (<usize>n << 2), (word << 5) + ctz<i32>(bits));
      n++;
      bits &= bits - 1;
    }
  }
  return n;
}

// detSqrt (src/numeric/det-math.ts), operation for operation.
const TWO_POW_52: f64 = 4503599627370496.0;
const ULP_1_2: f64 = 2.220446049250313e-16; // 2^−52, the spacing of doubles in [1, 2)
const TWO_POW_108: f64 = 324518553658426726783156020576256.0;
const SPLITTER: f64 = 134217729.0;

/** 2^k for an integer k in [−1022, 1023] (exact). */
@inline
function pow2(k: i32): f64 {
  return reinterpret<f64>(<i64>(k + 1023) << 52);
}

/** √x correctly rounded, as detSqrt computes it (+ − × ÷ only, the same steps). */
function detSqrt(x: f64): f64 {
  if (!(x > 0)) return x == 0 ? x : NaN;
  if (x == Infinity) return x;
  let extra: i32 = 0;
  if (x < 1e-300) {
    x *= TWO_POW_108;
    extra = -54;
  }
  const k = ((<i32>(reinterpret<i64>(x) >>> 52) & 0x7ff) - 1023) >> 1;
  const m = x * pow2(-2 * k);
  let y = 0.53495 + m * (0.513 - 0.037415 * m);
  for (let i = 0; i < 3; i++) y = 0.5 * (y + m / y);
  if (y >= 2) y = 2 - ULP_1_2;
  if (y < 1) y = 1;
  for (let pass = 0; pass < 3; pass++) {
    const p = y * y;
    const c = SPLITTER * y;
    const yh = c - (c - y);
    const yl = y - yh;
    const err = yh * yh - p + 2 * yh * yl + yl * yl;
    const r = m - p - err;
    const bound = y * ULP_1_2;
    if (r > bound) y += ULP_1_2;
    else if (r <= -bound) y -= ULP_1_2;
    else break;
  }
  return y * pow2(k + extra);
}

/** `SceneSegmentKernel.runAt` (screened, no list) for a finite segment: the nearest hit's fraction, or −1. */
function walk(fx: f64, fy: f64, fz: f64, tx: f64, ty: f64, tz: f64): f64 {
  const inf = Infinity;
  const dx = tx - fx, dy = ty - fy, dz = tz - fz;
  const ix = 1 / dx, iy = 1 / dy, iz = 1 / dz;
  const wnx0 = ix >= 0 ? 0 : 3, wny0 = iy >= 0 ? 1 : 4, wnz0 = iz >= 0 ? 2 : 5;
  const wfx0 = 3 - wnx0, wfy0 = 5 - wny0, wfz0 = 7 - wnz0;
  let best: f64 = 2;
  let hit = false;
  let n = gridCandidates(fx, fy, tx, ty);
  const listed = n >= 0;
  if (!listed) n = instCount;
  const infs = f64x2.splat(inf);
  for (let j = 0; j < n; j++) {
    const i = listed ? i32At(cand, j) : j;
    // The placement's box.
    const b = instBox + <usize>(i * 48);
    let t0: f64 = 0, t1: f64 = best < 1 ? best : 1;
    let v = (f64At(b, wnx0) - fx) * ix;
    if (v > t0) t0 = v;
    v = (f64At(b, wfx0) - fx) * ix;
    if (v < t1) t1 = v;
    v = (f64At(b, wny0) - fy) * iy;
    if (v > t0) t0 = v;
    v = (f64At(b, wfy0) - fy) * iy;
    if (v < t1) t1 = v;
    v = (f64At(b, wnz0) - fz) * iz;
    if (v > t0) t0 = v;
    v = (f64At(b, wfz0) - fz) * iz;
    if (v < t1) t1 = v;
    if (!(t0 <= t1)) continue;
    const R = instRot + <usize>(i * 72);
    const P = instPos + <usize>(i * 24);
    const px = fx - load<f64>(P), py = fy - load<f64>(P, 8), pz = fz - load<f64>(P, 16);
    const r0 = load<f64>(R), r1 = load<f64>(R, 8), r2 = load<f64>(R, 16);
    const r3 = load<f64>(R, 24), r4 = load<f64>(R, 32), r5 = load<f64>(R, 40);
    const r6 = load<f64>(R, 48), r7 = load<f64>(R, 56), r8 = load<f64>(R, 64);
    const ox = r0 * px + r3 * py + r6 * pz;
    const oy = r1 * px + r4 * py + r7 * pz;
    const oz = r2 * px + r5 * py + r8 * pz;
    const ldx = r0 * dx + r3 * dy + r6 * dz;
    const ldy = r1 * dx + r4 * dy + r7 * dz;
    const ldz = r2 * dx + r5 * dy + r8 * dz;
    // The model, from this placement's best on.
    const model = i32At(instModel, i);
    const lix = 1 / ldx, liy = 1 / ldy, liz = 1 / ldz;
    const s0 = i32At(sphereStart, model), s1 = i32At(sphereStart, model + 1);
    const b0 = i32At(boxStart, model), b1 = i32At(boxStart, model + 1);
    for (let q = s0; q < s1; q++) {
      const S = spheres + <usize>(q * 32);
      const mx = ox - load<f64>(S), my = oy - load<f64>(S, 8), mz = oz - load<f64>(S, 16), sr = load<f64>(S, 24);
      const c = mx * mx + my * my + mz * mz - sr * sr;
      let t: f64;
      if (c <= 0) t = 0;
      else {
        const a = ldx * ldx + ldy * ldy + ldz * ldz;
        const bb = mx * ldx + my * ldy + mz * ldz;
        if (!(bb < 0) || !(a > 0)) continue;
        const disc = bb * bb - a * c;
        if (!(disc >= 0)) continue;
        t = (-bb - detSqrt(disc)) / a;
      }
      if (t >= 0 && t <= 1 && t < best) {
        best = t;
        hit = true;
      }
    }
    for (let q = b0; q < b1; q++) {
      const B = boxes + <usize>(q * 48);
      const bx0 = load<f64>(B), by0 = load<f64>(B, 8), bz0 = load<f64>(B, 16);
      const bx1 = load<f64>(B, 24), by1 = load<f64>(B, 32), bz1 = load<f64>(B, 40);
      let u0: f64 = 0, u1: f64 = 1;
      let inside = true;
      let lo = (bx0 - ox) * lix, hi = (bx1 - ox) * lix;
      if (lo > hi) { const s = lo; lo = hi; hi = s; }
      if (lo > u0) { u0 = lo; inside = false; }
      if (hi < u1) u1 = hi;
      lo = (by0 - oy) * liy; hi = (by1 - oy) * liy;
      if (lo > hi) { const s = lo; lo = hi; hi = s; }
      if (lo > u0) { u0 = lo; inside = false; }
      if (hi < u1) u1 = hi;
      lo = (bz0 - oz) * liz; hi = (bz1 - oz) * liz;
      if (lo > hi) { const s = lo; lo = hi; hi = s; }
      if (lo > u0) { u0 = lo; inside = false; }
      if (hi < u1) u1 = hi;
      if (!(u0 <= u1) || !(u0 < best)) continue;
      if (inside && !(ox >= bx0 && ox <= bx1 && oy >= by0 && oy <= by1 && oz >= bz0 && oz <= bz1)) continue;
      best = u0;
      hit = true;
    }
    const root = i32At(rootRef, model);
    if (root == PACK_NONE) continue;
    const nx0 = lix >= 0 ? 0 : 3, ny0 = liy >= 0 ? 1 : 4, nz0 = liz >= 0 ? 2 : 5;
    const fx0 = 3 - nx0, fy0 = 5 - ny0, fz0 = 7 - nz0;
    let sp = 0;
    let ref = PACK_NONE;
    {
      const rb = rootBox + <usize>(model * 48);
      let a0: f64 = 0, a1: f64 = best < 1 ? best : 1;
      let w = (f64At(rb, nx0) - ox) * lix;
      if (w > a0) a0 = w;
      w = (f64At(rb, fx0) - ox) * lix;
      if (w < a1) a1 = w;
      w = (f64At(rb, ny0) - oy) * liy;
      if (w > a0) a0 = w;
      w = (f64At(rb, fy0) - oy) * liy;
      if (w < a1) a1 = w;
      w = (f64At(rb, nz0) - oz) * liz;
      if (w > a0) a0 = w;
      w = (f64At(rb, fz0) - oz) * liz;
      if (w < a1) a1 = w;
      if (a0 <= a1) ref = root;
    }
    // Both children's slab tests in the lanes (left, right): the interleaved boxes give a pair per load.
    const oxv = f64x2.splat(ox), oyv = f64x2.splat(oy), ozv = f64x2.splat(oz);
    const lixv = f64x2.splat(lix), liyv = f64x2.splat(liy), lizv = f64x2.splat(liz);
    const zero = f64x2.splat(0);
    const onx = <usize>(nx0 << 4), ofx = <usize>(fx0 << 4), ony = <usize>(ny0 << 4), ofy = <usize>(fy0 << 4), onz = <usize>(nz0 << 4), ofz = <usize>(fz0 << 4);
    while (ref != PACK_NONE) {
      if (ref >= 0) {
        const nb = packBox + <usize>(ref * 96);
        const limit = f64x2.splat(best < 1 ? best : 1);
        let a0 = zero, a1 = limit;
        let w = f64x2.mul(f64x2.sub(v128.load(nb + onx), oxv), lixv);
        a0 = v128.bitselect(w, a0, f64x2.gt(w, a0));
        w = f64x2.mul(f64x2.sub(v128.load(nb + ofx), oxv), lixv);
        a1 = v128.bitselect(w, a1, f64x2.lt(w, a1));
        w = f64x2.mul(f64x2.sub(v128.load(nb + ony), oyv), liyv);
        a0 = v128.bitselect(w, a0, f64x2.gt(w, a0));
        w = f64x2.mul(f64x2.sub(v128.load(nb + ofy), oyv), liyv);
        a1 = v128.bitselect(w, a1, f64x2.lt(w, a1));
        w = f64x2.mul(f64x2.sub(v128.load(nb + onz), ozv), lizv);
        a0 = v128.bitselect(w, a0, f64x2.gt(w, a0));
        w = f64x2.mul(f64x2.sub(v128.load(nb + ofz), ozv), lizv);
        a1 = v128.bitselect(w, a1, f64x2.lt(w, a1));
        const tv = v128.bitselect(a0, infs, f64x2.le(a0, a1));
        const tl = f64x2.extract_lane(tv, 0), tr = f64x2.extract_lane(tv, 1);
        const pc = packChild + <usize>(ref * 8);
        if (tl <= tr) {
          if (tl != inf) {
            if (tr != inf) {
              push(sp, load<i32>(pc, 4), tr);
              sp++;
            }
            ref = load<i32>(pc);
            continue;
          }
        } else {
          if (tl != inf) {
            push(sp, load<i32>(pc), tl);
            sp++;
          }
          ref = load<i32>(pc, 4);
          continue;
        }
      } else {
        const leaf = ~ref;
        for (let k = i32At(leafFirst, leaf), end = k + i32At(leafCount, leaf); k < end; k++) {
          const p = tri + <usize>(k * 72);
          const e1x = load<f64>(p, 24), e1y = load<f64>(p, 32), e1z = load<f64>(p, 40);
          const e2x = load<f64>(p, 48), e2y = load<f64>(p, 56), e2z = load<f64>(p, 64);
          const qx0 = ldy * e2z - ldz * e2y, qy0 = ldz * e2x - ldx * e2z, qz0 = ldx * e2y - ldy * e2x;
          const det = e1x * qx0 + e1y * qy0 + e1z * qz0;
          if (det == 0 || det != det) continue;
          const inv = 1 / det;
          const sx = ox - load<f64>(p), sy = oy - load<f64>(p, 8), sz = oz - load<f64>(p, 16);
          const u = (sx * qx0 + sy * qy0 + sz * qz0) * inv;
          if (!(u >= 0 && u <= 1)) continue;
          const qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
          const vv = (ldx * qx + ldy * qy + ldz * qz) * inv;
          if (!(vv >= 0 && u + vv <= 1)) continue;
          const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
          if (!(t >= 0 && t <= 1 && t < best)) continue;
          best = t;
          hit = true;
        }
      }
      ref = PACK_NONE;
      while (sp > 0) {
        sp--;
        // Beyond the stack's end the JavaScript's typed array reads undefined, which is not ≤ best.
        if (sp < STACK_SIZE && f64At(tstack, sp) <= best) {
          ref = i32At(stack, sp);
          break;
        }
      }
    }
  }
  return hit ? best : -1;
}

/** A push onto the walk's stack at `sp`: dropped beyond its end, as the JavaScript's typed arrays drop it. */
@inline
function push(sp: i32, ref: i32, t: f64): void {
  const at = sp < STACK_SIZE ? sp : STACK_SIZE; // one spare slot past the end takes the dropped ones
  store<i32>(stack + (<usize>at << 2), ref);
  store<f64>(tstack + (<usize>at << 3), t);
}
