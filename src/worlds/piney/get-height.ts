/**
 * WORLD::GetHeight (reference 2.17): a segment cast from z 2500 down to −1200 into the two triangles of the
 * point's 600-unit cell with the VU helpers' arithmetic (modelled with the EE FPU's rules) and collisionLP's
 * 0.001 edge slack. −500 on a hidden chip, −1 when both triangles miss. Inputs and the answer are EE float
 * bit patterns; nothing is allocated per call.
 */
import {
  eeAdd,
  eeCompareEq,
  eeCompareLe,
  eeCompareLt,
  eeDiv,
  eeFmodViaDouble,
  eeMul,
  eeSqrt,
  eeSub,
  eeToInt,
} from '../../numeric/ee-float.js';
import { CELLS, CHIPS, F } from './field-state.js';

/** What GetHeight answers on a chip hidden under a levelled object or the lake. */
export const HIDDEN_HEIGHT = F.MINUS_500;
/** What GetHeight answers when both triangles miss. */
export const MISS_HEIGHT = F.MINUS_ONE;
/** A sentinel for "no hit" inside this module (no u32 pattern is negative). */
const NO_HIT = -1;

/**
 * The height map's index as GetHeight computes it: ≥ 80 subtracts 80, then < 0 adds 79 (not 80: the game's
 * slip, kept, so cell −1 reads cell 78). An index still outside 0–79 (only for a point far outside the field,
 * which the game never asks about) is reduced mod 80 so the answer stays defined.
 */
export function heightIndex(i: number): number {
  if (i >= CELLS) i -= CELLS;
  if (i < 0) i += CELLS - 1;
  if (i < 0 || i >= CELLS) i = ((i % CELLS) + CELLS) % CELLS;
  return i;
}

/** Inner = (x·x′ + y·y′) + z·z′, each product truncated. */
function inner(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  return eeAdd(eeAdd(eeMul(ax, bx), eeMul(ay, by)), eeMul(az, bz));
}

// Normalize's output (one vector at a time; callers copy what they keep).
let nx = 0;
let ny = 0;
let nz = 0;
/** Normalize: q = 0 + sqrt.s(v·v) (truncating), r = 1 / q, xyz × r. */
function normalize(x: number, y: number, z: number): void {
  const q = eeAdd(F.ZERO, eeSqrt(inner(x, y, z, x, y, z)));
  const r = eeDiv(F.ONE, q);
  nx = eeMul(x, r);
  ny = eeMul(y, r);
  nz = eeMul(z, r);
}

// The ray's direction d = Normalize(p1 − p0). p1 − p0 is (fx − fx, fy − fy, −1200 − 2500): an EE
// subtraction of a number from itself is always +0, so d is the same for every point; computed once.
normalize(F.ZERO, F.ZERO, eeSub(F.MINUS_1200, F.C2500));
const DX = nx;
const DY = ny;
const DZ = nz;

/** Edge test of collisionLP: is p0 on the inner side of edge (e1 → e0), with the 0.001 slack? */
function edgeOk(e0x: number, e0y: number, e0z: number, e1x: number, e1y: number, e1z: number, px: number, py: number): boolean {
  const ex = eeSub(e0x, e1x);
  const ey = eeSub(e0y, e1y);
  const ez = eeSub(e0z, e1z);
  // Outer(e, d) = (e1·d2 − d1·e2, e2·d0 − d2·e0, e0·d1 − d0·e1).
  const sx = eeSub(eeMul(ey, DZ), eeMul(DY, ez));
  const sy = eeSub(eeMul(ez, DX), eeMul(DZ, ex));
  const sz = eeSub(eeMul(ex, DY), eeMul(DX, ey));
  normalize(eeSub(px, e1x), eeSub(py, e1y), eeSub(F.C2500, e1z));
  return !eeCompareLt(inner(sx, sy, sz, nx, ny, nz), F.MINUS_0_001);
}

/**
 * collisionLP of the vertical segment at local (px, py) against triangle (a, b, c): the hit's z, or NO_HIT.
 */
function triangleHit(
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  cx: number, cy: number, cz: number,
  px: number, py: number,
): number {
  const p = eeSub(by, ay);
  const q = eeSub(cz, bz);
  const r = eeSub(bz, az);
  const s = eeSub(cy, by);
  const t = eeSub(cx, bx);
  const u = eeSub(bx, ax);
  normalize(eeSub(eeMul(p, q), eeMul(r, s)), eeSub(eeMul(r, t), eeMul(u, q)), eeSub(eeMul(u, s), eeMul(p, t)));
  const n0 = nx;
  const n1 = ny;
  const n2 = nz;
  const k = eeMul(F.MINUS_ONE, inner(n0, n1, n2, ax, ay, az));
  const s0 = eeAdd(k, inner(n0, n1, n2, px, py, F.C2500));
  const s1 = eeAdd(k, inner(n0, n1, n2, px, py, F.MINUS_1200));
  if (eeCompareLt(s0, F.ZERO) || !eeCompareLe(s1, F.ZERO)) return NO_HIT;
  const nd = inner(n0, n1, n2, DX, DY, DZ);
  if (eeCompareEq(nd, F.ZERO)) return NO_HIT;
  if (!edgeOk(bx, by, bz, ax, ay, az, px, py)) return NO_HIT;
  if (!edgeOk(cx, cy, cz, bx, by, bz, px, py)) return NO_HIT;
  if (!edgeOk(ax, ay, az, cx, cy, cz, px, py)) return NO_HIT;
  // hit = p0 + Scale(d, −1·s0) · (1 / nd); only z is returned.
  const m = eeMul(F.MINUS_ONE, s0);
  const inv = eeDiv(F.ONE, nd);
  return eeAdd(F.C2500, eeMul(eeMul(DZ, m), inv));
}

/**
 * The surface height of the cell under (x, y) (EE bits), without the hidden-chip test: T0 then T1, or
 * MISS_HEIGHT.
 */
export function surfaceHeight(map: Uint32Array, x: number, y: number): number {
  const cx = eeToInt(eeDiv(x, F.C600));
  const cy = eeToInt(eeDiv(y, F.C600));
  const fx = eeFmodViaDouble(x, F.C600);
  const fy = eeFmodViaDouble(y, F.C600);
  const i0 = heightIndex(cx) * CELLS;
  const i1 = heightIndex(cx + 1) * CELLS;
  const j0 = heightIndex(cy);
  const j1 = heightIndex(cy + 1);
  const h00 = map[i0 + j0]!;
  const h01 = map[i0 + j1]!;
  const h10 = map[i1 + j0]!;
  const h11 = map[i1 + j1]!;
  // T0 = (0, 600, h(cx, cy+1)), (0, 0, h(cx, cy)), (600, 600, h(cx+1, cy+1)).
  let z = triangleHit(F.ZERO, F.C600, h01, F.ZERO, F.ZERO, h00, F.C600, F.C600, h11, fx, fy);
  if (z !== NO_HIT) return z;
  // T1 = (600, 0, h(cx+1, cy)), (600, 600, h(cx+1, cy+1)), (0, 0, h(cx, cy)).
  z = triangleHit(F.C600, F.ZERO, h10, F.C600, F.C600, h11, F.ZERO, F.ZERO, h00, fx, fy);
  return z !== NO_HIT ? z : MISS_HEIGHT;
}

/**
 * Whether GetHeight calls (x, y) hidden: check3 at chip (trunc(cx / 2), trunc(cy / 2)). A chip outside the
 * grid (a point far outside the field; the game would read other memory) counts as not hidden.
 */
export function isHiddenAt(check3: Uint8Array, x: number, y: number): boolean {
  const hx = Math.trunc(eeToInt(eeDiv(x, F.C600)) / 2);
  const hy = Math.trunc(eeToInt(eeDiv(y, F.C600)) / 2);
  if (hx < 0 || hy < 0 || hx >= CHIPS || hy >= CHIPS) return false;
  return check3[hx * CHIPS + hy] === 1;
}

/** WORLD::GetHeight(x, y): EE bits in, EE bits out. */
export function getHeight(map: Uint32Array, check3: Uint8Array, x: number, y: number): number {
  if (isHiddenAt(check3, x, y)) return HIDDEN_HEIGHT;
  return surfaceHeight(map, x, y);
}

/** GetHeight's ray direction Normalize((0, 0, −3700)) as EE bits, the same for every point. */
export const RAY_DIRECTION: readonly [number, number, number] = [DX, DY, DZ];

// Layout of one triangle's cached constants in HeightQuery.
const T_MISS = 0; // 1 when n·d == 0: the triangle never answers
const T_N = 1; // normalised normal (3)
const T_K = 4; // −1 · (n · a)
const T_INV = 5; // 1 / (n · d)
const T_SIDE = 6; // Outer(e0 − e1, d) for the three edges (3 × 3)
const T_E1 = 15; // e1 of the three edges (3 × 3)
const T_WORDS = 24;

/**
 * Where HeightQuery keeps each triangle's constants inside `cellConstants`' words (triangle 1 starts at
 * `WORDS`); the edges are (b, a), (c, b), (a, c) as (e0, e1), so e1 is a, b, c in turn.
 */
export const TRIANGLE_WORDS = { MISS: T_MISS, N: T_N, K: T_K, INV: T_INV, SIDE: T_SIDE, E1: T_E1, WORDS: T_WORDS } as const;

/**
 * GetHeight for a height map that no longer changes (a generated field): everything in collisionLP that
 * does not depend on the point (the normal, k, 1 / n·d, the edges' side vectors) is computed once per cell,
 * with the same EE operations in the same order, so every answer is bit-identical to `getHeight` while a
 * query costs about half as much. Cells outside 0–79 (points outside the field) take the uncached path.
 */
export class HeightQuery {
  private readonly ready = new Uint8Array(CELLS * CELLS);
  private readonly tri = new Uint32Array(CELLS * CELLS * 2 * T_WORDS);

  constructor(
    readonly map: Uint32Array,
    readonly check3: Uint8Array,
  ) {}

  /** WORLD::GetHeight(x, y), EE bits in and out. */
  getHeight(x: number, y: number): number {
    if (isHiddenAt(this.check3, x, y)) return HIDDEN_HEIGHT;
    return this.surfaceHeight(x, y);
  }

  /** The triangle height without the hidden-chip test (as `surfaceHeight`). */
  surfaceHeight(x: number, y: number): number {
    const cx = eeToInt(eeDiv(x, F.C600));
    const cy = eeToInt(eeDiv(y, F.C600));
    if (cx < 0 || cy < 0 || cx >= CELLS || cy >= CELLS) return surfaceHeight(this.map, x, y);
    const cell = cx * CELLS + cy;
    if (this.ready[cell] === 0) this.prepare(cell, cx, cy);
    const fx = eeFmodViaDouble(x, F.C600);
    const fy = eeFmodViaDouble(y, F.C600);
    const base = cell * 2 * T_WORDS;
    let z = this.hit(base, fx, fy);
    if (z !== NO_HIT) return z;
    z = this.hit(base + T_WORDS, fx, fy);
    return z !== NO_HIT ? z : MISS_HEIGHT;
  }

  /**
   * The constants of cell (cx, cy)'s two triangles (0–79 each), prepared on first use: a view of
   * 2 × TRIANGLE_WORDS.WORDS words, triangle T0 first.
   */
  cellConstants(cx: number, cy: number): Uint32Array {
    const cell = cx * CELLS + cy;
    if (this.ready[cell] === 0) this.prepare(cell, cx, cy);
    const base = cell * 2 * T_WORDS;
    return this.tri.subarray(base, base + 2 * T_WORDS);
  }

  private prepare(cell: number, cx: number, cy: number): void {
    const map = this.map;
    const i0 = heightIndex(cx) * CELLS;
    const i1 = heightIndex(cx + 1) * CELLS;
    const j0 = heightIndex(cy);
    const j1 = heightIndex(cy + 1);
    const h00 = map[i0 + j0]!;
    const h01 = map[i0 + j1]!;
    const h10 = map[i1 + j0]!;
    const h11 = map[i1 + j1]!;
    const base = cell * 2 * T_WORDS;
    this.prepareTriangle(base, F.ZERO, F.C600, h01, F.ZERO, F.ZERO, h00, F.C600, F.C600, h11);
    this.prepareTriangle(base + T_WORDS, F.C600, F.ZERO, h10, F.C600, F.C600, h11, F.ZERO, F.ZERO, h00);
    this.ready[cell] = 1;
  }

  private prepareTriangle(
    at: number,
    ax: number, ay: number, az: number,
    bx: number, by: number, bz: number,
    cx: number, cy: number, cz: number,
  ): void {
    const t = this.tri;
    const p = eeSub(by, ay);
    const q = eeSub(cz, bz);
    const r = eeSub(bz, az);
    const s = eeSub(cy, by);
    const u = eeSub(bx, ax);
    const w = eeSub(cx, bx);
    normalize(eeSub(eeMul(p, q), eeMul(r, s)), eeSub(eeMul(r, w), eeMul(u, q)), eeSub(eeMul(u, s), eeMul(p, w)));
    t[at + T_N] = nx;
    t[at + T_N + 1] = ny;
    t[at + T_N + 2] = nz;
    t[at + T_K] = eeMul(F.MINUS_ONE, inner(nx, ny, nz, ax, ay, az));
    const nd = inner(nx, ny, nz, DX, DY, DZ);
    t[at + T_MISS] = eeCompareEq(nd, F.ZERO) ? 1 : 0;
    t[at + T_INV] = eeDiv(F.ONE, nd);
    // Edges (b, a), (c, b), (a, c) as (e0, e1).
    this.prepareEdge(at, 0, bx, by, bz, ax, ay, az);
    this.prepareEdge(at, 1, cx, cy, cz, bx, by, bz);
    this.prepareEdge(at, 2, ax, ay, az, cx, cy, cz);
  }

  /** Edge `e` of the triangle at `at`: its side vector Outer(e0 − e1, d) and its e1. */
  private prepareEdge(at: number, e: number, e0x: number, e0y: number, e0z: number, e1x: number, e1y: number, e1z: number): void {
    const t = this.tri;
    const ex = eeSub(e0x, e1x);
    const ey = eeSub(e0y, e1y);
    const ez = eeSub(e0z, e1z);
    t[at + T_SIDE + e * 3] = eeSub(eeMul(ey, DZ), eeMul(DY, ez));
    t[at + T_SIDE + e * 3 + 1] = eeSub(eeMul(ez, DX), eeMul(DZ, ex));
    t[at + T_SIDE + e * 3 + 2] = eeSub(eeMul(ex, DY), eeMul(DX, ey));
    t[at + T_E1 + e * 3] = e1x;
    t[at + T_E1 + e * 3 + 1] = e1y;
    t[at + T_E1 + e * 3 + 2] = e1z;
  }

  /** collisionLP for the point (px, py) against the cached triangle at `at`: the hit's z or NO_HIT. */
  private hit(at: number, px: number, py: number): number {
    const t = this.tri;
    const n0 = t[at + T_N]!;
    const n1 = t[at + T_N + 1]!;
    const n2 = t[at + T_N + 2]!;
    const k = t[at + T_K]!;
    const s0 = eeAdd(k, inner(n0, n1, n2, px, py, F.C2500));
    const s1 = eeAdd(k, inner(n0, n1, n2, px, py, F.MINUS_1200));
    if (eeCompareLt(s0, F.ZERO) || !eeCompareLe(s1, F.ZERO)) return NO_HIT;
    if (t[at + T_MISS] === 1) return NO_HIT;
    for (let e = 0; e < 3; e++) {
      const s = at + T_SIDE + e * 3;
      const q = at + T_E1 + e * 3;
      normalize(eeSub(px, t[q]!), eeSub(py, t[q + 1]!), eeSub(F.C2500, t[q + 2]!));
      if (eeCompareLt(inner(t[s]!, t[s + 1]!, t[s + 2]!, nx, ny, nz), F.MINUS_0_001)) return NO_HIT;
    }
    return eeAdd(F.C2500, eeMul(eeMul(DZ, eeMul(F.MINUS_ONE, s0)), t[at + T_INV]!));
  }
}
