/**
 * Oriented boxes and the engine's wall test (Collision::IsSATCollision): OBB against OBB on 15 separating
 * axes in fixed point, keeping the smallest positive penetration as the push-out (MTV) for box A.
 *
 * A box is 15 int32 words in a flat array: centre xyz (x128), axes[0], axes[1], axes[2] xyz (FP12, any
 * order, any of them may be the thin one), half extents xyz (x128, one per axis index). Its normalised axes
 * are 9 more words, computed once (`normalizeBoxAxes`) because the engine normalises the same vectors the
 * same way on every test.
 *
 * Per axis n (normalised; an all-zero candidate is skipped):
 *   cA = Σ cA_k ⊗ n_k, cB likewise (⊗ = FixedPoint multiply, truncating)
 *   rA = Σ_i |GTE(axesA_i · n)| ⊗ hA_i (the three dots are one mvmva: 16-bit, >> 12, IR saturation)
 *   distance = |cA − cB|, overlap = rA + rB, penetration = overlap − distance
 *   distance > overlap → separated (return false); penetration ≤ 0 → axis skipped;
 *   penetration < best → best, normal = n negated when cA < cB, MTV = normal ⊗ penetration.
 * The best starts at 1000.0 in FixedPoint (4 096 000 raw); exactly touching collides with a zero MTV.
 */
import { crossGte, crossed, gte16, irSaturate, mulFx, normalizeFp12, normalized } from './fixed-math.js';

export const BOX_WORDS = 15;
/** 2^−12: multiplying by it is exactly dividing by 4096 (a power of two). */
const INV_4096 = 1 / 4096;
export const BOX_AXES_WORDS = 9;
/** psyqo's starting "best" penetration, 1000.0_fp. */
export const SAT_NO_PENETRATION = 4096000;

/** Output words of satPushOut. */
export const SAT_MTV_X = 0;
export const SAT_NORMAL_X = 3;
export const SAT_PENETRATION = 6;
/** 0–2: A's axes, 3–5: B's axes, 6–14: A_i × B_j (i major); −1 when no axis had a positive penetration. */
export const SAT_AXIS = 7;
export const SAT_OUT_WORDS = 8;

/** Normalises the three axes of the box at `box[off]` into `out[outOff .. outOff + 9)`. */
export function normalizeBoxAxes(box: ArrayLike<number>, off: number, out: Int32Array, outOff: number): void {
  for (let i = 0; i < 3; i++) {
    normalizeFp12(box[off + 3 + i * 3]!, box[off + 4 + i * 3]!, box[off + 5 + i * 3]!);
    out[outOff + i * 3] = normalized[0]!;
    out[outOff + i * 3 + 1] = normalized[1]!;
    out[outOff + i * 3 + 2] = normalized[2]!;
  }
}

// The pair under test, held in module state so the per-axis step is a plain function call (no closures).
let A: Int32Array = new Int32Array(BOX_WORDS);
let Ao = 0;
let B: Int32Array = new Int32Array(BOX_WORDS);
let Bo = 0;
let best = SAT_NO_PENETRATION;
let bestAxis = -1;
let bestNx = 0;
let bestNy = 0;
let bestNz = 0;

/** GTE projection radius of the box at `box[o]` on the normalised axis (vx, vy, vz already 16-bit). */
function radius(box: Int32Array, o: number, vx: number, vy: number, vz: number): number {
  // |p| ≤ 2^15 and |h| < 2^31, so |p·h| < 2^46 and (p·h * INV_4096) | 0 is the exact truncating multiply.
  let p = irSaturate(Math.floor((gte16(box[o + 3]!) * vx + gte16(box[o + 4]!) * vy + gte16(box[o + 5]!) * vz) / 4096));
  let r = (((p < 0 ? -p : p) * box[o + 12]!) * INV_4096) | 0;
  p = irSaturate(Math.floor((gte16(box[o + 6]!) * vx + gte16(box[o + 7]!) * vy + gte16(box[o + 8]!) * vz) / 4096));
  r = (r + ((((p < 0 ? -p : p) * box[o + 13]!) * INV_4096) | 0)) | 0;
  p = irSaturate(Math.floor((gte16(box[o + 9]!) * vx + gte16(box[o + 10]!) * vy + gte16(box[o + 11]!) * vz) / 4096));
  return (r + ((((p < 0 ? -p : p) * box[o + 14]!) * INV_4096) | 0)) | 0;
}

/**
 * radius() when every axis component and every component of the vector is within ±2^14: each product is
 * below 2^28 and each sum below 2^30, so the dot products are exact int32 and >> 12 is the GTE's floor.
 */
function radiusSmall(box: Int32Array, o: number, vx: number, vy: number, vz: number): number {
  let p = irSaturate((box[o + 3]! * vx + box[o + 4]! * vy + box[o + 5]! * vz) >> 12);
  let r = (((p < 0 ? -p : p) * box[o + 12]!) * INV_4096) | 0;
  p = irSaturate((box[o + 6]! * vx + box[o + 7]! * vy + box[o + 8]! * vz) >> 12);
  r = (r + ((((p < 0 ? -p : p) * box[o + 13]!) * INV_4096) | 0)) | 0;
  p = irSaturate((box[o + 9]! * vx + box[o + 10]! * vy + box[o + 11]! * vz) >> 12);
  return (r + ((((p < 0 ? -p : p) * box[o + 14]!) * INV_4096) | 0)) | 0;
}

const SMALL = 16384;
/** True when all nine axis components of the box are within ±2^14 (radiusSmall's precondition). */
function smallAxes(box: Int32Array, o: number): boolean {
  for (let k = 3; k < 12; k++) {
    const v = box[o + k]!;
    if (v > SMALL || v < -SMALL) return false;
  }
  return true;
}
let aSmall = false;
let bSmall = false;

/** One axis of the test; true when it separates the boxes. */
function separates(nx: number, ny: number, nz: number, axis: number): boolean {
  // Centres are int32: with |n| < 2^21 every product is below 2^52, exact, so the multiply can be inlined.
  const nSmall = nx < 2097152 && nx > -2097152 && ny < 2097152 && ny > -2097152 && nz < 2097152 && nz > -2097152;
  const aC = nSmall ? ((((A[Ao]! * nx) * INV_4096) | 0) + (((A[Ao + 1]! * ny) * INV_4096) | 0) + (((A[Ao + 2]! * nz) * INV_4096) | 0)) | 0 : (mulFx(A[Ao]!, nx) + mulFx(A[Ao + 1]!, ny) + mulFx(A[Ao + 2]!, nz)) | 0;
  const bC = nSmall ? ((((B[Bo]! * nx) * INV_4096) | 0) + (((B[Bo + 1]! * ny) * INV_4096) | 0) + (((B[Bo + 2]! * nz) * INV_4096) | 0)) | 0 : (mulFx(B[Bo]!, nx) + mulFx(B[Bo + 1]!, ny) + mulFx(B[Bo + 2]!, nz)) | 0;
  const vx = gte16(nx);
  const vy = gte16(ny);
  const vz = gte16(nz);
  const vSmall = vx <= SMALL && vx >= -SMALL && vy <= SMALL && vy >= -SMALL && vz <= SMALL && vz >= -SMALL;
  const rA = vSmall && aSmall ? radiusSmall(A, Ao, vx, vy, vz) : radius(A, Ao, vx, vy, vz);
  const rB = vSmall && bSmall ? radiusSmall(B, Bo, vx, vy, vz) : radius(B, Bo, vx, vy, vz);
  const overlap = (rA + rB) | 0;
  const diff = (aC - bC) | 0;
  const distance = (diff < 0 ? -diff : diff) | 0;
  if (distance > overlap) return true;
  const penetration = (overlap - distance) | 0;
  if (penetration <= 0) return false;
  if (penetration < best) {
    best = penetration;
    bestAxis = axis;
    if (aC < bC) {
      bestNx = -nx | 0;
      bestNy = -ny | 0;
      bestNz = -nz | 0;
    } else {
      bestNx = nx;
      bestNy = ny;
      bestNz = nz;
    }
  }
  return false;
}

/**
 * The engine's OBB-vs-OBB test. `a`/`ao`: box A (the mover), `an`/`ano`: its normalised axes; likewise B.
 * Returns true when no axis separates them, and writes the MTV that pushes A out of B, the normal, the
 * penetration and the axis index into `out` (see SAT_* offsets). On false, `out` holds zeros and −1.
 */
export function satPushOut(
  a: Int32Array,
  ao: number,
  an: Int32Array,
  ano: number,
  b: Int32Array,
  bo: number,
  bn: Int32Array,
  bno: number,
  out: Int32Array,
): boolean {
  A = a;
  Ao = ao;
  B = b;
  Bo = bo;
  best = SAT_NO_PENETRATION;
  bestAxis = -1;
  bestNx = bestNy = bestNz = 0;
  aSmall = smallAxes(a, ao);
  bSmall = smallAxes(b, bo);
  let hit = true;
  // A's three axes, then B's.
  for (let i = 0; i < 3 && hit; i++) {
    const r = ao + 3 + i * 3;
    if (a[r] === 0 && a[r + 1] === 0 && a[r + 2] === 0) continue;
    const n = ano + i * 3;
    if (separates(an[n]!, an[n + 1]!, an[n + 2]!, i)) hit = false;
  }
  for (let i = 0; i < 3 && hit; i++) {
    const r = bo + 3 + i * 3;
    if (b[r] === 0 && b[r + 1] === 0 && b[r + 2] === 0) continue;
    const n = bno + i * 3;
    if (separates(bn[n]!, bn[n + 1]!, bn[n + 2]!, 3 + i)) hit = false;
  }
  // The nine cross products of the raw axes (A_i × B_j), normalised after the zero check.
  for (let i = 0; i < 3 && hit; i++) {
    const ra = ao + 3 + i * 3;
    for (let j = 0; j < 3; j++) {
      const rb = bo + 3 + j * 3;
      crossGte(a[ra]!, a[ra + 1]!, a[ra + 2]!, b[rb]!, b[rb + 1]!, b[rb + 2]!);
      if (crossed[0] === 0 && crossed[1] === 0 && crossed[2] === 0) continue;
      normalizeFp12(crossed[0]!, crossed[1]!, crossed[2]!);
      if (separates(normalized[0]!, normalized[1]!, normalized[2]!, 6 + i * 3 + j)) {
        hit = false;
        break;
      }
    }
  }
  if (!hit) {
    out.fill(0);
    out[SAT_AXIS] = -1;
    return false;
  }
  out[SAT_MTV_X] = mulFx(bestNx, best);
  out[SAT_MTV_X + 1] = mulFx(bestNy, best);
  out[SAT_MTV_X + 2] = mulFx(bestNz, best);
  out[SAT_NORMAL_X] = bestNx;
  out[SAT_NORMAL_X + 1] = bestNy;
  out[SAT_NORMAL_X + 2] = bestNz;
  out[SAT_PENETRATION] = best;
  out[SAT_AXIS] = bestAxis;
  return true;
}

// ---------------------------------------------------------------------------------------------------------
// The same test for an axis-aligned mover (axes = the world axes, as the world's bodies are). Everything
// about the 15 candidate axes that depends only on the wall (the normalised axes, the wall's centre
// projection and radius on each) is computed once per wall; a test is then six products per axis. The
// results are identical to satPushOut with an identity-axes box A (property-tested).

/**
 * Words per prepared axis: n x, y, z; the wall's centre projection; the wall's radius; 0 = skipped / 1, 2 =
 * tested (see below); |s16(n)| x, y, z (the mover's GTE projections, since its rows are the unit axes).
 */
export const PREPARED_AXIS_WORDS = 9;
export const PREPARED_WALL_WORDS = 15 * PREPARED_AXIS_WORDS;
const IDENTITY_BOX = new Int32Array([0, 0, 0, 4096, 0, 0, 0, 4096, 0, 0, 0, 4096, 0, 0, 0]);
const IDENTITY_AXES_N = new Int32Array([4096, 0, 0, 0, 4096, 0, 0, 0, 4096]);

/** Fills `out[off .. off + PREPARED_WALL_WORDS)` for wall box `b[bo]` (normalised axes `bn[bno]`). */
export function prepareWallForAxisAlignedMover(b: Int32Array, bo: number, bn: Int32Array, bno: number, out: Int32Array, off: number): void {
  const put = (k: number, nx: number, ny: number, nz: number, tested: boolean): void => {
    const o = off + k * PREPARED_AXIS_WORDS;
    out[o] = nx;
    out[o + 1] = ny;
    out[o + 2] = nz;
    out[o + 3] = (mulFx(b[bo]!, nx) + mulFx(b[bo + 1]!, ny) + mulFx(b[bo + 2]!, nz)) | 0;
    out[o + 4] = radius(b, bo, gte16(nx), gte16(ny), gte16(nz));
    // 0: skipped; 1: |n| < 2^21, so c·n stays below 2^52 and the multiply can be inlined; 2: general multiply.
    out[o + 5] = !tested ? 0 : Math.max(Math.abs(nx), Math.abs(ny), Math.abs(nz)) < 2 ** 21 ? 1 : 2;
    out[o + 6] = Math.abs(gte16(nx));
    out[o + 7] = Math.abs(gte16(ny));
    out[o + 8] = Math.abs(gte16(nz));
  };
  for (let i = 0; i < 3; i++) put(i, IDENTITY_AXES_N[i * 3]!, IDENTITY_AXES_N[i * 3 + 1]!, IDENTITY_AXES_N[i * 3 + 2]!, true);
  for (let i = 0; i < 3; i++) {
    const r = bo + 3 + i * 3;
    const zero = b[r] === 0 && b[r + 1] === 0 && b[r + 2] === 0;
    put(3 + i, bn[bno + i * 3]!, bn[bno + i * 3 + 1]!, bn[bno + i * 3 + 2]!, !zero);
  }
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const rb = bo + 3 + j * 3;
      crossGte(IDENTITY_BOX[3 + i * 3]!, IDENTITY_BOX[4 + i * 3]!, IDENTITY_BOX[5 + i * 3]!, b[rb]!, b[rb + 1]!, b[rb + 2]!);
      const zero = crossed[0] === 0 && crossed[1] === 0 && crossed[2] === 0;
      if (zero) put(6 + i * 3 + j, 0, 0, 0, false);
      else {
        normalizeFp12(crossed[0]!, crossed[1]!, crossed[2]!);
        put(6 + i * 3 + j, normalized[0]!, normalized[1]!, normalized[2]!, true);
      }
    }
  }
  // An axis equal to an earlier tested one gives the same separation and the same penetration, which can never
  // beat the earlier (strictly smaller wins), so skipping it changes nothing. Common: axis-aligned walls, where
  // most crosses repeat a face axis.
  for (let k = 1; k < 15; k++) {
    const o = off + k * PREPARED_AXIS_WORDS;
    if (out[o + 5] === 0) continue;
    for (let j = 0; j < k; j++) {
      const q = off + j * PREPARED_AXIS_WORDS;
      if (out[q + 5] !== 0 && out[q] === out[o] && out[q + 1] === out[o + 1] && out[q + 2] === out[o + 2]) {
        out[o + 5] = 0;
        break;
      }
    }
  }
}

/**
 * satPushOut for an axis-aligned box A (centre ax, ay, az; half extents hx, hy, hz, all int32) against a
 * prepared wall. Same outputs in `out`. `touchSeparates` (not the engine's rule, off by default) treats an
 * axis where the boxes exactly touch as separating, so a box flush against a face gets no push.
 */
export function satPushOutAxisAligned(
  ax: number,
  ay: number,
  az: number,
  hx: number,
  hy: number,
  hz: number,
  prepared: Int32Array,
  off: number,
  out: Int32Array,
  touchSeparates = false,
): boolean {
  let bestPen = SAT_NO_PENETRATION;
  let bestK = -1;
  let bx = 0;
  let by = 0;
  let bz = 0;
  for (let k = 0; k < 15; k++) {
    const o = off + k * PREPARED_AXIS_WORDS;
    const mode = prepared[o + 5]!;
    if (mode === 0) continue;
    const nx = prepared[o]!;
    const ny = prepared[o + 1]!;
    const nz = prepared[o + 2]!;
    const aC = mode === 1 ? ((((ax * nx) * INV_4096) | 0) + (((ay * ny) * INV_4096) | 0) + (((az * nz) * INV_4096) | 0)) | 0 : (mulFx(ax, nx) + mulFx(ay, ny) + mulFx(az, nz)) | 0;
    // A's rows are the unit axes (4096 on the diagonal), so its GTE projections are n itself (16-bit).
    const aR = (((prepared[o + 6]! * hx) * INV_4096) | 0) + (((prepared[o + 7]! * hy) * INV_4096) | 0) + (((prepared[o + 8]! * hz) * INV_4096) | 0);
    const overlap = (aR + prepared[o + 4]!) | 0;
    const bC = prepared[o + 3]!;
    const diff = (aC - bC) | 0;
    const distance = (diff < 0 ? -diff : diff) | 0;
    if (distance > overlap || (touchSeparates && distance === overlap)) {
      out.fill(0);
      out[SAT_AXIS] = -1;
      return false;
    }
    const penetration = (overlap - distance) | 0;
    if (penetration <= 0 || penetration >= bestPen) continue;
    bestPen = penetration;
    bestK = k;
    if (aC < bC) {
      bx = -nx | 0;
      by = -ny | 0;
      bz = -nz | 0;
    } else {
      bx = nx;
      by = ny;
      bz = nz;
    }
  }
  out[SAT_MTV_X] = mulFx(bx, bestPen);
  out[SAT_MTV_X + 1] = mulFx(by, bestPen);
  out[SAT_MTV_X + 2] = mulFx(bz, bestPen);
  out[SAT_NORMAL_X] = bx;
  out[SAT_NORMAL_X + 1] = by;
  out[SAT_NORMAL_X + 2] = bz;
  out[SAT_PENETRATION] = bestPen;
  out[SAT_AXIS] = bestK;
  return true;
}

/**
 * The box's reach along world axis k (0 x, 1 y, 2 z): an upper bound of what the SAT uses on that world
 * axis, Σ_i |axes_i[k]| · |h_i| / 4096 rounded up, taking the larger of the raw and the 16-bit axis value
 * (the GTE sees 16 bits). The broad phase stores walls by these extents, so it never drops a wall the full
 * test would hit.
 */
export function boxReach(box: ArrayLike<number>, off: number, k: number): number {
  let s = 0;
  for (let i = 0; i < 3; i++) {
    const v = box[off + 3 + i * 3 + k]!;
    const a = Math.max(Math.abs(v), Math.abs(gte16(v)));
    s += a * Math.abs(box[off + 12 + i]!);
  }
  return Math.ceil(s / 4096);
}

// ---------------------------------------------------------------------------------------------------------
// Sphere and capsule against an OBB, for general use (not an engine routine). Doubles, deterministic: only
// + − × ÷ and a Newton square root.

/** √x for x ≥ 0 from + − × ÷ only: an exact integer root as the seed, then Newton steps (deterministic). */
export function sqrtNewton(x: number): number {
  if (!(x > 0)) return 0;
  if (x === Infinity) return Infinity;
  let y = x >= 1 && x < 9e15 ? Math.max(1, isqrtSeed(x)) : x < 1 ? 1 : x / 2 ** 26;
  for (let i = 0; i < 60; i++) {
    const next = 0.5 * (y + x / y);
    if (next === y) break;
    y = next;
  }
  return y;
}
function isqrtSeed(x: number): number {
  let r = 1;
  while (r * r * 4 <= x) r *= 2;
  return r;
}

/** Scratch: closest point of a box to a point, and its local coordinates. */
const local = new Float64Array(3);

/**
 * Sphere (centre, radius; native units) against the box at `box[off]` (axes normalised in `axes[aoff]`).
 * On overlap writes the push-out vector for the sphere into out[0..2] and its length into out[3], returns
 * true; else false. A centre inside the box leaves through the nearest face.
 */
export function sphereObbPushOut(
  cx: number,
  cy: number,
  cz: number,
  r: number,
  box: ArrayLike<number>,
  off: number,
  axes: ArrayLike<number>,
  aoff: number,
  out: Float64Array,
): boolean {
  const dx = cx - box[off]!;
  const dy = cy - box[off + 1]!;
  const dz = cz - box[off + 2]!;
  let inside = true;
  let qx = box[off]!;
  let qy = box[off + 1]!;
  let qz = box[off + 2]!;
  for (let i = 0; i < 3; i++) {
    const ux = axes[aoff + i * 3]! / 4096;
    const uy = axes[aoff + i * 3 + 1]! / 4096;
    const uz = axes[aoff + i * 3 + 2]! / 4096;
    const h = Math.abs(box[off + 12 + i]!);
    let s = dx * ux + dy * uy + dz * uz;
    local[i] = s;
    if (s > h) {
      s = h;
      inside = false;
    } else if (s < -h) {
      s = -h;
      inside = false;
    }
    qx += s * ux;
    qy += s * uy;
    qz += s * uz;
  }
  if (inside) {
    // Leave through the face with the least depth.
    let bi = 0;
    let bd = Infinity;
    for (let i = 0; i < 3; i++) {
      const d = Math.abs(box[off + 12 + i]!) - Math.abs(local[i]!);
      if (d < bd) {
        bd = d;
        bi = i;
      }
    }
    const sgn = local[bi]! < 0 ? -1 : 1;
    const push = bd + r;
    out[0] = (sgn * push * axes[aoff + bi * 3]!) / 4096;
    out[1] = (sgn * push * axes[aoff + bi * 3 + 1]!) / 4096;
    out[2] = (sgn * push * axes[aoff + bi * 3 + 2]!) / 4096;
    out[3] = push;
    return true;
  }
  const ex = cx - qx;
  const ey = cy - qy;
  const ez = cz - qz;
  const d2 = ex * ex + ey * ey + ez * ez;
  if (d2 >= r * r) return false;
  const d = sqrtNewton(d2);
  const push = r - d;
  out[0] = (ex / d) * push;
  out[1] = (ey / d) * push;
  out[2] = (ez / d) * push;
  out[3] = push;
  return true;
}

const capsuleScratch = new Float64Array(4);

/** Squared distance from a point to the box (0 inside). */
function boxDistance2(px: number, py: number, pz: number, box: ArrayLike<number>, off: number, axes: ArrayLike<number>, aoff: number): number {
  const dx = px - box[off]!;
  const dy = py - box[off + 1]!;
  const dz = pz - box[off + 2]!;
  let d2 = 0;
  for (let i = 0; i < 3; i++) {
    const s = (dx * axes[aoff + i * 3]! + dy * axes[aoff + i * 3 + 1]! + dz * axes[aoff + i * 3 + 2]!) / 4096;
    const h = Math.abs(box[off + 12 + i]!);
    const e = s > h ? s - h : s < -h ? -h - s : 0;
    d2 += e * e;
  }
  return d2;
}

/**
 * Capsule (segment p→q, radius r) against the box: the point of the segment nearest the box (the distance
 * to a convex set is convex along a line, so a fixed 64-step ternary search finds it), then the sphere test
 * there. Same outputs as sphereObbPushOut.
 */
export function capsuleObbPushOut(
  px: number,
  py: number,
  pz: number,
  qx: number,
  qy: number,
  qz: number,
  r: number,
  box: ArrayLike<number>,
  off: number,
  axes: ArrayLike<number>,
  aoff: number,
  out: Float64Array,
): boolean {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 64; i++) {
    const m1 = lo + (hi - lo) / 3;
    const m2 = hi - (hi - lo) / 3;
    const d1 = boxDistance2(px + (qx - px) * m1, py + (qy - py) * m1, pz + (qz - pz) * m1, box, off, axes, aoff);
    const d2 = boxDistance2(px + (qx - px) * m2, py + (qy - py) * m2, pz + (qz - pz) * m2, box, off, axes, aoff);
    if (d1 <= d2) hi = m2;
    else lo = m1;
  }
  const t = (lo + hi) / 2;
  const hit = sphereObbPushOut(px + (qx - px) * t, py + (qy - py) * t, pz + (qz - pz) * t, r, box, off, axes, aoff, capsuleScratch);
  if (hit) out.set(capsuleScratch);
  return hit;
}
