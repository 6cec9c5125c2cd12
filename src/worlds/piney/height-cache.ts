/**
 * GetHeight on a finished field, fast and still bit for bit the game's answer.
 *
 * `HeightQuery` already caches each cell's collisionLP constants; what stays expensive per point are the six
 * edge tests (each a Normalize with a square root and a division) and the EE helpers' bit juggling. This cache
 * answers with the same EE operations where the answer depends on them and with a proven bound where it does
 * not:
 *
 *  - cx = f2i(x / 600) and fx = fmod(x, 600) for 0 ≤ x < 48000 are Math.floor(x / 600) and x − 600·cx
 *    exactly (x is an EE value, 600·cx a multiple of its ulp, so the truncated quotient never reaches the
 *    next integer and the remainder is exact);
 *  - an edge test only decides pass or fail. Its EE value differs from the exact (s · v) / |v| by less than
 *    7·2⁻²³ · Σ|sᵢvᵢ| / |v| (every EE step truncates by less than 2⁻²³ relative; see PASS_AT), so
 *    away from that band the verdict is certain from s · v alone: no height, no square root. Inside it (a
 *    point within ~0.01 units of an edge's line) the whole query takes HeightQuery's exact path;
 *  - the plane tests and the hit's z use the EE operations themselves, on exact values held in doubles
 *    (`truncNormal`, `addNormal`: the double product is exact and truncated, the double sum is corrected
 *    like `eeAdd`'s; `eeMulValue` / `eeAddValue` are the general versions with the range's ends). s1 ≤ 0 is
 *    decided from the doubles with a bound where it can be. Only a zero's sign is lost in values, and
 *    nothing GetHeight answers depends on it: comparisons ignore it, eeAdd with a zero operand gives the
 *    other one, and the final 2500 + w is +0 only by cancellation.
 *
 * Per cell it keeps 16 float32s (one cache line): each triangle's normal x and y, n·(0, 0, 2500),
 * n·(0, 0, −1200), k and 1 / n·d. A cell whose numbers do not fit that scheme (corner heights outside
 * [−2000, 2000], constants outside the ranges of FAST_MIN…FAST_MAX, edge sides unlike the reference
 * cell's) is marked exact and always takes HeightQuery's path, so any map gets GetHeight's answer.
 */
import { eeAdd, eeFromNumber, eeMul, eeToNumber } from '../../numeric/ee-float.js';
import { CELLS, CELL_UNITS, CHIPS, F, FIELD_SIZE } from './field-state.js';
import { HeightQuery, HIDDEN_HEIGHT, MISS_HEIGHT, RAY_DIRECTION, TRIANGLE_WORDS as W, isHiddenAt } from './get-height.js';

// Scratch view of a double's bits (little-endian hosts keep the high word second).
const scratchF64 = new Float64Array(1);
const scratchU32 = new Uint32Array(scratchF64.buffer);
const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HI = HOST_LITTLE_ENDIAN ? 1 : 0;
const LO = HOST_LITTLE_ENDIAN ? 0 : 1;

/** Bit patterns below this are the EE values 0 ≤ v < 48000 (sign clear: +0 … 47999.996). */
const FIELD_BITS = eeFromNumber(FIELD_SIZE);
/** The largest EE magnitude, (2 − 2⁻²³)·2¹²⁸, as a double. */
const EE_MAX_VALUE = eeToNumber(0x7fffffff);
/** Double biased exponents of the EE's normal range 2⁻¹²⁶ … 2¹²⁸ (EE biased 1 … 255). */
const EXP_MIN = 1023 - 126;
const EXP_MAX = 1023 + 128;
/** The double's significand bits below the EE's 24 (the low 29 bits of the low word). */
const BELOW_EE = 0x1fffffff;
const KEEP_EE = 0xe0000000;

/** eeFromNumber then eeToNumber in one step: a double truncated to the EE value it becomes. */
export function eeValue(v: number): number {
  if (v !== v) return eeToNumber(eeFromNumber(v)); // NaN: whatever eeFromNumber defines
  scratchF64[0] = v;
  const e = (scratchU32[HI]! >>> 20) & 0x7ff;
  if (e > EXP_MAX) return v < 0 ? -EE_MAX_VALUE : EE_MAX_VALUE;
  // Below the smallest normal: zero with the value's sign, as eeFromNumber gives.
  if (e < EXP_MIN) return v < 0 ? -0 : 0;
  scratchU32[LO] = scratchU32[LO]! & KEEP_EE;
  return scratchF64[0];
}

/** mul.s on EE values held in doubles (the product of two 24-bit significands is exact in a double). */
export function eeMulValue(a: number, b: number): number {
  const p = a * b;
  scratchF64[0] = p;
  const e = (scratchU32[HI]! >>> 20) & 0x7ff;
  if (e > EXP_MAX) return p < 0 ? -EE_MAX_VALUE : EE_MAX_VALUE;
  // The EE flushes a result below the smallest normal to zero, keeping its sign.
  if (e < EXP_MIN) return p < 0 ? -0 : 0;
  scratchU32[LO] = scratchU32[LO]! & KEEP_EE;
  return scratchF64[0];
}

/**
 * add.s on EE values held in doubles: the double sum truncated to 24 bits, which is the exact sum truncated
 * unless the double rounded onto a 24-bit grid point from inside it; that rare case goes through `eeAdd`.
 */
export function eeAddValue(a: number, b: number): number {
  const s = a + b;
  if (s === 0) return 0;
  scratchF64[0] = s;
  if ((scratchU32[LO]! & BELOW_EE) === 0) {
    // TwoSum: s + err is the exact sum.
    const bv = s - a;
    const err = a - (s - bv) + (b - bv);
    if (err !== 0 && err < 0 !== s < 0) return eeToNumber(eeAdd(eeFromNumber(a), eeFromNumber(b)));
    scratchF64[0] = s;
  }
  const e = (scratchU32[HI]! >>> 20) & 0x7ff;
  if (e > EXP_MAX) return s < 0 ? -EE_MAX_VALUE : EE_MAX_VALUE;
  // The EE flushes a result below the smallest normal to zero, keeping its sign.
  if (e < EXP_MIN) return s < 0 ? -0 : 0;
  scratchU32[LO] = scratchU32[LO]! & KEEP_EE;
  return scratchF64[0];
}

/** 1 − 2⁻²⁴: r·(1 − 2⁻²⁴) lies within half a spacing of the float below r (exactly on it for a power of two). */
const ONE_MINUS_ULP = 1 - 1 / 16777216;

/**
 * truncNormal / addNormal: mul.s's truncation and add.s for the fast path, where every operand and result
 * is known to be zero or a normal EE value far from both ends of the range (see FAST_MIN), so IEEE single
 * precision holds them and no range check is needed. Math.fround rounds to nearest; where that went away
 * from zero, the float below toward zero is fround(r·(1 − 2⁻²⁴)) (an exact product within half a spacing of
 * it). The pick is an index, not a branch: on random points a branch here mispredicts half the time.
 */
const TRUNCATED = new Float64Array(2);
export function truncNormal(v: number): number {
  const r = Math.fround(v);
  TRUNCATED[0] = r;
  TRUNCATED[1] = Math.fround(r * ONE_MINUS_ULP);
  return TRUNCATED[+(Math.abs(r) > Math.abs(v))]!;
}

export function addNormal(a: number, b: number): number {
  const s = a + b;
  // TwoSum: s + err is the exact sum. Only when the double rounded onto a 24-bit grid point from inside
  // (rare) is the truncation not s's own; eeAdd answers then.
  const bv = s - a;
  const err = a - (s - bv) + (b - bv);
  const r = Math.fround(s);
  if (+(r === s) * +(err * s < 0) !== 0) return eeAddValue(a, b);
  TRUNCATED[0] = r;
  TRUNCATED[1] = Math.fround(r * ONE_MINUS_ULP);
  return TRUNCATED[+(Math.abs(r) > Math.abs(s))]!;
}

// A cell's record: each triangle's constants at TRI0 / TRI1, padded to 16 float32s (64 bytes, a cache line).
const RECORD = 16;
const TRI0 = 0;
const TRI1 = 6;
const R_N0 = 0; // normal x
const R_N1 = 1; // normal y
const R_TOP = 2; // n_z · 2500 (the segment's top)
const R_BOTTOM = 3; // n_z · −1200 (its bottom)
const R_K = 4; // −1 · (n · a)
const R_INV = 5; // 1 / (n · d); NaN when n · d == 0 (the triangle never answers)

const IO_X = 0;
const IO_Y = 1;
const IO_Z = 2;

const MODE_UNPREPARED = 0;
const MODE_FAST = 1;
const MODE_EXACT = 2;

/**
 * The fast path's ranges, which keep every intermediate of GetHeight's nine operations zero or far inside
 * the EE's normal range, so truncNormal / addNormal (no flush, no saturation) are exact there. A nonzero
 * EE sum is at least 2⁻²⁵ times its larger operand; with the point's fx, fy zero or ≥ FAST_MIN, the normal's
 * x and y zero or ≥ NORMAL_MIN, n_z·2500 and n_z·−1200 ≥ PLANE_MIN (a triangle that can answer is far from
 * vertical), 1 / n·d ≥ FAST_MIN, and every magnitude ≤ FAST_MAX, the smallest nonzero intermediate is above
 * 10⁻³³ (products ≳ 10⁻²⁴, their sum ≳ 3·10⁻³², the plane sum ≳ 3·10⁻¹⁰, s ≳ 9·10⁻¹⁸, the hit's product
 * ≳ 9·10⁻²²) and the largest below 10¹⁶. Any magnitude of k is fine (it is added to the plane sum).
 */
const FAST_MIN = 1e-4;
const NORMAL_MIN = 1e-20;
const PLANE_MIN = 1e-2;
const FAST_MAX = 1e6;
/** The s1 filter's bound, 4·2⁻²³ (twice the two additions' truncation, covering the doubles' rounding). */
const S1_SLACK = 4 / 8388608;

/**
 * Heights of the edges' e1 (the cell's corners) the fast path accepts: v_z = 2500 − h lies in [500, VZ_MAX],
 * so 500 ≤ |v| ≤ 1200 + VZ_MAX (|v_x|, |v_y| ≤ 600 inside a cell). A generated field's heights are 0–1023.
 */
const CORNER_MIN = -2000;
const CORNER_MAX = 2000;

/**
 * The edge test's error budget: the EE value of Inner(side, Normalize(v)) is within 7·2⁻²³·Σ|sᵢvᵢ| / |v| of
 * the exact value (3.6·2⁻²³ from Normalize's five truncations, 3.01·2⁻²³ from Inner's); twice that covers
 * it and the doubles' own rounding (2⁻⁵³). SLACK_ABS (in units of s·v) covers flushes to zero (< 10⁻³⁰) and
 * the rounding of the threshold products.
 */
const SLACK_REL = 16 / 8388608;
const SLACK_ABS = 1e-6;
/** collisionLP's edge slack, −0.001 as the EE float the game compares with. */
const EDGE_LIMIT = eeToNumber(F.MINUS_0_001);
const DZ_VALUE = eeToNumber(RAY_DIRECTION[2]);
const C2500_VALUE = eeToNumber(F.C2500);

// The reference cell's edge data (sides and e1's x, y), which every fast cell must share in value: with
// the ray straight down (d = (0, 0, dz)), Outer(e, d) does not depend on the heights.
const REF = new HeightQuery(new Uint32Array(CELLS * CELLS), new Uint8Array(CHIPS * CHIPS)).cellConstants(0, 0).slice();
const EDGE_SX = new Float64Array(6);
const EDGE_SY = new Float64Array(6);
const EDGE_SZ = new Float64Array(6);
const EDGE_X = new Float64Array(6);
const EDGE_Y = new Float64Array(6);
for (let j = 0; j < 6; j++) {
  const base = (j >= 3 ? W.WORDS : 0) + (j % 3) * 3;
  EDGE_SX[j] = eeToNumber(REF[base + W.SIDE]!);
  EDGE_SY[j] = eeToNumber(REF[base + W.SIDE + 1]!);
  EDGE_SZ[j] = eeToNumber(REF[base + W.SIDE + 2]!);
  EDGE_X[j] = eeToNumber(REF[base + W.E1]!);
  EDGE_Y[j] = eeToNumber(REF[base + W.E1 + 1]!);
}
/** The largest 2500 − h for an accepted e1 height. */
const VZ_MAX = C2500_VALUE - CORNER_MIN;
/**
 * Edge j's test at local (fx, fy) in the fast path: a pass or a failure where the EE answer is certain,
 * unsure otherwise. collisionLP fails the edge when T_ee = Inner(s, Normalize(v)) < limit (−0.001) with
 * v = (fx − e1x, fy − e1y, 2500 − h). The exact value is T = s·v / |v|, and |T_ee − T| ≤ E / |v| with E = SLACK_REL·Σ|sᵢvᵢ| + SLACK_ABS ≤ EMAX_j
 * (|v_x|, |v_y| ≤ 600, and s_z = 0: the ray is vertical). So s·v ≥ EMAX_j proves T_ee ≥ 0 > limit (a pass),
 * and s·v < limit·(1200 + VZ_MAX) − EMAX_j proves T_ee < limit·(1200 + VZ_MAX) / |v| ≤ limit (a failure).
 * s·v is linear in (fx, fy): no height, no square root. Only points within about 0.01 units of an edge's
 * line are left unsure.
 *
 * Per edge: s·v at or above PASS_AT passes for certain, below FAIL_AT fails for certain.
 */
const PASS_AT = new Float64Array(6);
const FAIL_AT = new Float64Array(6);
for (let j = 0; j < 6; j++) {
  const emax = SLACK_REL * CELL_UNITS * (Math.abs(EDGE_SX[j]!) + Math.abs(EDGE_SY[j]!)) + SLACK_ABS;
  PASS_AT[j] = emax;
  FAIL_AT[j] = EDGE_LIMIT * (2 * CELL_UNITS + VZ_MAX) - emax;
}
/** The filter drops s_z·v_z: true for the vertical ray (d_x = d_y = 0). Were it not, no cell would be fast. */
const VERTICAL_SIDES = EDGE_SZ.every((z) => z === 0);

/** Whether a cached constant is in the fast path's range: magnitude in [min, FAST_MAX], or zero if allowed. */
function inRange(v: number, min: number, zeroOk: boolean): boolean {
  const m = Math.abs(v);
  return (zeroOk && m === 0) || (m >= min && m <= FAST_MAX);
}

/**
 * GetHeight for a height map that no longer changes, with the fast path above; every answer is bit for bit
 * `getHeight`'s (property-tested). Cells are prepared on first use, or all at once with `prepareAll`.
 */
export class HeightCache {
  /** The exact cached path, for the points and cells the fast path does not take. */
  readonly exact: HeightQuery;
  private readonly record = new Float32Array(CELLS * CELLS * RECORD);
  private readonly mode = new Uint8Array(CELLS * CELLS);
  /**
   * The fast path's point in (IO_X, IO_Y) and answer out (IO_Z): numbers passed to a call that is not
   * inlined, or returned from one, are boxed, which on this path would be an allocation per query.
   */
  private readonly io = new Float64Array(3);
  // `surfacesAt`'s lanes: the batch's points on the fast path (their index, triangle record, local x and y, and
  // each stage's result), and the indices left to the exact path.
  private lane = new Int32Array(0);
  private laneT = new Int32Array(0);
  private laneFx = new Float64Array(0);
  private laneFy = new Float64Array(0);
  private laneXy = new Float64Array(0);
  private laneS0 = new Float64Array(0);
  private laneSlow = new Int32Array(0);

  constructor(
    readonly map: Uint32Array,
    readonly check3: Uint8Array,
  ) {
    this.exact = new HeightQuery(map, check3);
  }

  /** Prepares every cell now (a field's load), so no query pays for it later. */
  prepareAll(): this {
    for (let cx = 0; cx < CELLS; cx++) for (let cy = 0; cy < CELLS; cy++) if (this.mode[cx * CELLS + cy] === MODE_UNPREPARED) this.prepare(cx, cy);
    return this;
  }

  /** How many cells take the exact path always (0 on a generated field; for tests). */
  exactCells(): number {
    this.prepareAll();
    let n = 0;
    for (let i = 0; i < this.mode.length; i++) if (this.mode[i] === MODE_EXACT) n++;
    return n;
  }

  /** WORLD::GetHeight(x, y), EE bits in and out. */
  getHeight(x: number, y: number): number {
    if (x >>> 0 < FIELD_BITS && y >>> 0 < FIELD_BITS) {
      const xv = eeToNumber(x);
      const yv = eeToNumber(y);
      const hx = Math.floor(xv / CELL_UNITS) >> 1;
      const hy = Math.floor(yv / CELL_UNITS) >> 1;
      if (this.check3[hx * CHIPS + hy] === 1) return HIDDEN_HEIGHT;
      return this.surfaceBits(xv, yv);
    }
    if (isHiddenAt(this.check3, x, y)) return HIDDEN_HEIGHT;
    return this.exact.surfaceHeight(x, y);
  }

  /** GetHeight's triangle height without the hidden-chip test (as `surfaceHeight`), EE bits in and out. */
  surfaceHeight(x: number, y: number): number {
    if (x >>> 0 < FIELD_BITS && y >>> 0 < FIELD_BITS) return this.surfaceBits(eeToNumber(x), eeToNumber(y));
    return this.exact.surfaceHeight(x, y);
  }

  /**
   * The value of `surfaceHeight(eeFromNumber(x), eeFromNumber(y))` for any doubles x, y (−1 where both
   * triangles miss): the CollisionWorld's query, with no bit patterns in between.
   */
  surfaceAt(x: number, y: number): number {
    // Inside the field and above the EE's smallest normal, truncation to the EE value is truncNormal's.
    if (x >= FAST_MIN && x < FIELD_SIZE && y >= FAST_MIN && y < FIELD_SIZE) {
      const io = this.io;
      io[IO_X] = x;
      io[IO_Y] = y;
      if (this.fastSurfaceAt()) return io[IO_Z]!;
    }
    return this.surfaceAtSlow(x, y);
  }

  /**
   * `surfaceAt` for many points: `zs[i] = surfaceAt(xs[i], ys[i])` for i < n, bit for bit. The fast path runs
   * as stages over the whole batch (truncate and pick the triangle; its two products and their sum; the plane
   * sums; the hit's height), so the queries' chains of dependent EE operations overlap in the processor
   * instead of running one after another. A point any stage leaves to the exact path is answered by
   * `surfaceAt` itself after the stages, which takes the same path it would alone. Allocates only when a
   * batch is larger than every one before.
   */
  surfacesAt(xs: Float64Array, ys: Float64Array, zs: Float64Array, n: number): void {
    if (n > this.lane.length) this.growLanes(n);
    const lane = this.lane;
    const tri = this.laneT;
    const lfx = this.laneFx;
    const lfy = this.laneFy;
    const lxy = this.laneXy;
    const ls0 = this.laneS0;
    const slow = this.laneSlow;
    const mode = this.mode;
    const r = this.record;
    let m = 0;
    let q = 0;
    // Stage 1: truncate to EE values, find the cell, pick the triangle and prove its edges pass.
    for (let i = 0; i < n; i++) {
      const x = xs[i]!;
      const y = ys[i]!;
      if (!(x >= FAST_MIN && x < FIELD_SIZE && y >= FAST_MIN && y < FIELD_SIZE)) {
        slow[q++] = i;
        continue;
      }
      let xv = Math.fround(x);
      xv += (Math.fround(xv * ONE_MINUS_ULP) - xv) * +(xv > x);
      let yv = Math.fround(y);
      yv += (Math.fround(yv * ONE_MINUS_ULP) - yv) * +(yv > y);
      const cx = Math.floor(xv / CELL_UNITS);
      const cy = Math.floor(yv / CELL_UNITS);
      const cell = cx * CELLS + cy;
      const fx = xv - cx * CELL_UNITS;
      const fy = yv - cy * CELL_UNITS;
      const sd = EDGE_SX[1]! * (fx - EDGE_X[1]!) + EDGE_SY[1]! * (fy - EDGE_Y[1]!);
      const k = +(sd < FAIL_AT[1]!);
      const j = k * 3;
      const s0v = EDGE_SX[j]! * (fx - EDGE_X[j]!) + EDGE_SY[j]! * (fy - EDGE_Y[j]!);
      const s1v = EDGE_SX[j + 1]! * (fx - EDGE_X[j + 1]!) + EDGE_SY[j + 1]! * (fy - EDGE_Y[j + 1]!);
      const s2v = EDGE_SX[j + 2]! * (fx - EDGE_X[j + 2]!) + EDGE_SY[j + 2]! * (fy - EDGE_Y[j + 2]!);
      const t = cell * RECORD + TRI0 + k * (TRI1 - TRI0);
      if (
        mode[cell] !== MODE_FAST ||
        !((fx === 0 || fx >= FAST_MIN) && (fy === 0 || fy >= FAST_MIN)) ||
        (+(s0v < PASS_AT[j]!) | +(s1v < PASS_AT[j + 1]!) | +(s2v < PASS_AT[j + 2]!)) !== 0 ||
        r[t + R_INV]! !== r[t + R_INV]!
      ) {
        slow[q++] = i;
        continue;
      }
      lane[m] = i;
      tri[m] = t;
      lfx[m] = fx;
      lfy[m] = fy;
      m++;
    }
    // Stage 2: xy = addNormal(truncNormal(n0·fx), truncNormal(n1·fy)).
    for (let l = 0; l < m; l++) {
      const t = tri[l]!;
      const pa = r[t + R_N0]! * lfx[l]!;
      let a = Math.fround(pa);
      a += (Math.fround(a * ONE_MINUS_ULP) - a) * +(Math.abs(a) > Math.abs(pa));
      const pb = r[t + R_N1]! * lfy[l]!;
      let b = Math.fround(pb);
      b += (Math.fround(b * ONE_MINUS_ULP) - b) * +(Math.abs(b) > Math.abs(pb));
      const sum = a + b;
      const bv = sum - a;
      const err = a - (sum - bv) + (b - bv);
      let xy = Math.fround(sum);
      if (err * sum < 0 && xy === sum) xy = eeAddValue(a, b);
      else xy += (Math.fround(xy * ONE_MINUS_ULP) - xy) * +(Math.abs(xy) > Math.abs(sum));
      lxy[l] = xy;
    }
    // Stage 3: s0 = addNormal(k, addNormal(xy, top)) and the s1 filter; a lane that fails either goes slow.
    let kept = 0;
    for (let l = 0; l < m; l++) {
      const t = tri[l]!;
      const xy = lxy[l]!;
      const k = r[t + R_K]!;
      const top = r[t + R_TOP]!;
      let sum = xy + top;
      let bv = sum - xy;
      let err = xy - (sum - bv) + (top - bv);
      let inner = Math.fround(sum);
      if (err * sum < 0 && inner === sum) inner = eeAddValue(xy, top);
      else inner += (Math.fround(inner * ONE_MINUS_ULP) - inner) * +(Math.abs(inner) > Math.abs(sum));
      sum = k + inner;
      bv = sum - k;
      err = k - (sum - bv) + (inner - bv);
      let s0 = Math.fround(sum);
      if (err * sum < 0 && s0 === sum) s0 = eeAddValue(k, inner);
      else s0 += (Math.fround(s0 * ONE_MINUS_ULP) - s0) * +(Math.abs(s0) > Math.abs(sum));
      const bottom = r[t + R_BOTTOM]!;
      const s1 = k + xy + bottom;
      const slack = S1_SLACK * (Math.abs(k) + Math.abs(xy) + Math.abs(bottom));
      if (s0 < 0 || s1 - slack > 0 || (s1 + slack > 0 && addNormal(k, addNormal(xy, bottom)) > 0)) {
        slow[q++] = lane[l]!;
        continue;
      }
      lane[kept] = lane[l]!;
      tri[kept] = t;
      ls0[kept] = s0;
      kept++;
    }
    // Stage 4: the hit's height, 2500 + truncNormal(truncNormal(dz · −s0) · inv).
    for (let l = 0; l < kept; l++) {
      const s0 = ls0[l]!;
      const pd = DZ_VALUE * -s0;
      let d = Math.fround(pd);
      d += (Math.fround(d * ONE_MINUS_ULP) - d) * +(Math.abs(d) > Math.abs(pd));
      const pw = d * r[tri[l]! + R_INV]!;
      let w = Math.fround(pw);
      w += (Math.fround(w * ONE_MINUS_ULP) - w) * +(Math.abs(w) > Math.abs(pw));
      const sum = C2500_VALUE + w;
      const bv = sum - C2500_VALUE;
      const err = C2500_VALUE - (sum - bv) + (w - bv);
      let z = Math.fround(sum);
      if (err * sum < 0 && z === sum) z = eeAddValue(C2500_VALUE, w);
      else z += (Math.fround(z * ONE_MINUS_ULP) - z) * +(Math.abs(z) > Math.abs(sum));
      zs[lane[l]!] = z;
    }
    for (let l = 0; l < q; l++) {
      const i = slow[l]!;
      zs[i] = this.surfaceAt(xs[i]!, ys[i]!);
    }
  }

  private growLanes(n: number): void {
    const cap = Math.max(n, 2 * this.lane.length, 256);
    this.lane = new Int32Array(cap);
    this.laneT = new Int32Array(cap);
    this.laneFx = new Float64Array(cap);
    this.laneFy = new Float64Array(cap);
    this.laneXy = new Float64Array(cap);
    this.laneS0 = new Float64Array(cap);
    this.laneSlow = new Int32Array(cap);
  }

  /** `surfaceAt` for the points its fast path leaves: outside the field, near its origin lines, near an edge. */
  private surfaceAtSlow(x: number, y: number): number {
    const xv = eeValue(x);
    const yv = eeValue(y);
    if (xv >= 0 && xv < FIELD_SIZE && yv >= 0 && yv < FIELD_SIZE) return this.surfaceValue(xv, yv);
    return eeToNumber(this.exact.surfaceHeight(eeFromNumber(x), eeFromNumber(y)));
  }

  /** Whether GetHeight answers −500 at doubles (x, y) (`isHiddenAt` of their EE values). */
  hiddenAt(x: number, y: number): boolean {
    const xv = eeValue(x);
    const yv = eeValue(y);
    if (xv >= 0 && xv < FIELD_SIZE && yv >= 0 && yv < FIELD_SIZE) {
      return this.check3[(Math.floor(xv / CELL_UNITS) >> 1) * CHIPS + (Math.floor(yv / CELL_UNITS) >> 1)] === 1;
    }
    return isHiddenAt(this.check3, eeFromNumber(x), eeFromNumber(y));
  }

  private surfaceBits(xv: number, yv: number): number {
    const z = this.surfaceValue(xv, yv);
    // A height is an EE value, so this is exact; a zero height is +0, as eeAdd gives for 2500 − 2500.
    return z === -1 ? MISS_HEIGHT : eeFromNumber(z);
  }

  /** The triangle height at EE values 0 ≤ xv, yv < 48000, as a value (−1 for a miss). */
  private surfaceValue(xv: number, yv: number): number {
    const cx = Math.floor(xv / CELL_UNITS);
    const cy = Math.floor(yv / CELL_UNITS);
    if (this.mode[cx * CELLS + cy] === MODE_UNPREPARED) this.prepare(cx, cy);
    const io = this.io;
    io[IO_X] = xv;
    io[IO_Y] = yv;
    if (this.fastSurfaceAt(false)) return io[IO_Z]!;
    return eeToNumber(this.exact.surfaceHeight(eeFromNumber(xv), eeFromNumber(yv)));
  }

  /**
   * The fast path at the point in `io` (IO_X, IO_Y): leaves the triangle height (−1 for a miss) in
   * `io[IO_Z]` and returns true, or returns false where the exact path must answer (a cell not prepared for
   * it, a point within 10⁻⁴ of the field's origin lines or in an edge test's uncertain band). With `truncate`
   * (the default) the point is any double FAST_MIN ≤ x, y < 48000 and is first truncated to its EE value;
   * without, it already is an EE value 0 ≤ x, y < 48000.
   *
   * GetHeight tries T0, then T1. T0's diagonal (edge 1) decides which one answers nearly everywhere, so it
   * is tested first and picks the triangle by index, not by a branch (on random points that branch would
   * mispredict half the time): T1 when it fails for certain (GetHeight then goes straight on to T1, as
   * here), else T0. When the picked triangle's edges all pass for certain and it answers, that is
   * GetHeight's answer; anything else (an uncertain edge, a miss) takes the loop over both triangles in
   * GetHeight's order (`fastSurfaceLoop`).
   *
   * The EE operations are truncNormal's and addNormal's arithmetic written out in place, in the same order,
   * so that the hot path makes no call and boxes no number: `t + (fround(t·(1 − 2⁻²⁴)) − t)·[|t| > |v|]` is
   * the truncation (the difference of two neighbouring floats is exact, and so is adding it back). Only a
   * zero's sign can differ from the helpers', and no answer depends on it (see the module comment).
   */
  private fastSurfaceAt(truncate = true): boolean {
    const io = this.io;
    let xv = io[IO_X]!;
    let yv = io[IO_Y]!;
    if (truncate) {
      const x = xv;
      const y = yv;
      xv = Math.fround(x);
      xv += (Math.fround(xv * ONE_MINUS_ULP) - xv) * +(xv > x);
      yv = Math.fround(y);
      yv += (Math.fround(yv * ONE_MINUS_ULP) - yv) * +(yv > y);
      io[IO_X] = xv;
      io[IO_Y] = yv;
    }
    const cx = Math.floor(xv / CELL_UNITS);
    const cy = Math.floor(yv / CELL_UNITS);
    const cell = cx * CELLS + cy;
    if (this.mode[cell] !== MODE_FAST) return false;
    const fx = xv - cx * CELL_UNITS;
    const fy = yv - cy * CELL_UNITS;
    // (A point within 10⁻⁴ of the field's origin lines takes the exact path: see FAST_MIN.)
    if (!((fx === 0 || fx >= FAST_MIN) && (fy === 0 || fy >= FAST_MIN))) return false;
    // T0's diagonal: 0 when it passes for certain, 1 when it fails for certain; in between, the loop decides.
    const sd = EDGE_SX[1]! * (fx - EDGE_X[1]!) + EDGE_SY[1]! * (fy - EDGE_Y[1]!);
    const tri = +(sd < FAIL_AT[1]!);
    // The picked triangle's three edges must all pass for certain (T0's diagonal is one of them: it passed).
    const j = tri * 3;
    const s0v = EDGE_SX[j]! * (fx - EDGE_X[j]!) + EDGE_SY[j]! * (fy - EDGE_Y[j]!);
    const s1v = EDGE_SX[j + 1]! * (fx - EDGE_X[j + 1]!) + EDGE_SY[j + 1]! * (fy - EDGE_Y[j + 1]!);
    const s2v = EDGE_SX[j + 2]! * (fx - EDGE_X[j + 2]!) + EDGE_SY[j + 2]! * (fy - EDGE_Y[j + 2]!);
    if ((+(s0v < PASS_AT[j]!) | +(s1v < PASS_AT[j + 1]!) | +(s2v < PASS_AT[j + 2]!)) !== 0) return this.fastSurfaceLoop(cell, fx, fy);
    const r = this.record;
    const t = cell * RECORD + TRI0 + tri * (TRI1 - TRI0);
    const inv = r[t + R_INV]!;
    if (inv !== inv) return this.fastSurfaceLoop(cell, fx, fy); // n · d == 0: this triangle never answers
      const k = r[t + R_K]!;
      // inner(n, (fx, fy, top or bottom)) = (n0·fx + n1·fy) + n2·z; s = k + inner, every step an EE operation.
      // a = truncNormal(n0·fx), b = truncNormal(n1·fy)
      const pa = r[t + R_N0]! * fx;
      let a = Math.fround(pa);
      a += (Math.fround(a * ONE_MINUS_ULP) - a) * +(Math.abs(a) > Math.abs(pa));
      const pb = r[t + R_N1]! * fy;
      let b = Math.fround(pb);
      b += (Math.fround(b * ONE_MINUS_ULP) - b) * +(Math.abs(b) > Math.abs(pb));
      // xy = addNormal(a, b): TwoSum, then the rare rounding onto a grid point from inside (eeAddValue).
      let sum = a + b;
      let bv = sum - a;
      let err = a - (sum - bv) + (b - bv);
      let xy = Math.fround(sum);
      if (err * sum < 0 && xy === sum) xy = eeAddValue(a, b);
      else xy += (Math.fround(xy * ONE_MINUS_ULP) - xy) * +(Math.abs(xy) > Math.abs(sum));
      // inner = addNormal(xy, top)
      const top = r[t + R_TOP]!;
      sum = xy + top;
      bv = sum - xy;
      err = xy - (sum - bv) + (top - bv);
      let inner = Math.fround(sum);
      if (err * sum < 0 && inner === sum) inner = eeAddValue(xy, top);
      else inner += (Math.fround(inner * ONE_MINUS_ULP) - inner) * +(Math.abs(inner) > Math.abs(sum));
      // s0 = addNormal(k, inner)
      sum = k + inner;
      bv = sum - k;
      err = k - (sum - bv) + (inner - bv);
      let s0 = Math.fround(sum);
      if (err * sum < 0 && s0 === sum) s0 = eeAddValue(k, inner);
      else s0 += (Math.fround(s0 * ONE_MINUS_ULP) - s0) * +(Math.abs(s0) > Math.abs(sum));
      if (s0 < 0) return this.fastSurfaceLoop(cell, fx, fy);
      // s1 ≤ 0 is nearly always certain from the doubles: the two EE additions move it by < 2·2⁻²³·Σ|terms|.
      const bottom = r[t + R_BOTTOM]!;
      const s1 = k + xy + bottom;
      const slack = S1_SLACK * (Math.abs(k) + Math.abs(xy) + Math.abs(bottom));
      if (s1 - slack > 0) return this.fastSurfaceLoop(cell, fx, fy);
      if (s1 + slack > 0 && addNormal(k, addNormal(xy, bottom)) > 0) return this.fastSurfaceLoop(cell, fx, fy);
      // hit z = 2500 + (dz · (−1 · s0)) · (1 / n·d): w = truncNormal(truncNormal(dz · −s0) · inv).
      const pd = DZ_VALUE * -s0;
      let d = Math.fround(pd);
      d += (Math.fround(d * ONE_MINUS_ULP) - d) * +(Math.abs(d) > Math.abs(pd));
      const pw = d * inv;
      let w = Math.fround(pw);
      w += (Math.fround(w * ONE_MINUS_ULP) - w) * +(Math.abs(w) > Math.abs(pw));
      // z = addNormal(2500, w)
      sum = C2500_VALUE + w;
      bv = sum - C2500_VALUE;
      err = C2500_VALUE - (sum - bv) + (w - bv);
      let z = Math.fround(sum);
      if (err * sum < 0 && z === sum) z = eeAddValue(C2500_VALUE, w);
      else z += (Math.fround(z * ONE_MINUS_ULP) - z) * +(Math.abs(z) > Math.abs(sum));
      io[IO_Z] = z;
      return true;
  }

  /**
   * The fast path's loop over T0, then T1, in GetHeight's order (a triangle that misses passes the turn on),
   * for the points `fastSurfaceAt`'s pick leaves: the same answers, with every edge tested.
   */
  private fastSurfaceLoop(cell: number, fx: number, fy: number): boolean {
    const io = this.io;
    const r = this.record;
    const at = cell * RECORD;
    for (let tri = 0; tri < 2; tri++) {
      // The edge tests (see PASS_AT), the diagonal (edge 1) first: it is the one that usually fails.
      let unsure = false;
      let j = tri * 3 + 1;
      let sv = EDGE_SX[j]! * (fx - EDGE_X[j]!) + EDGE_SY[j]! * (fy - EDGE_Y[j]!);
      if (sv < FAIL_AT[j]!) continue;
      if (sv < PASS_AT[j]!) unsure = true;
      j = tri * 3;
      sv = EDGE_SX[j]! * (fx - EDGE_X[j]!) + EDGE_SY[j]! * (fy - EDGE_Y[j]!);
      if (sv < FAIL_AT[j]!) continue;
      if (sv < PASS_AT[j]!) unsure = true;
      j = tri * 3 + 2;
      sv = EDGE_SX[j]! * (fx - EDGE_X[j]!) + EDGE_SY[j]! * (fy - EDGE_Y[j]!);
      if (sv < FAIL_AT[j]!) continue;
      if (sv < PASS_AT[j]!) unsure = true;
      if (unsure) return false;
      const t = at + (tri === 0 ? TRI0 : TRI1);
      const inv = r[t + R_INV]!;
      if (inv !== inv) continue; // n · d == 0: this triangle never answers
      const k = r[t + R_K]!;
      // inner(n, (fx, fy, top or bottom)) = (n0·fx + n1·fy) + n2·z; s = k + inner, every step an EE operation.
      // a = truncNormal(n0·fx), b = truncNormal(n1·fy)
      const pa = r[t + R_N0]! * fx;
      let a = Math.fround(pa);
      a += (Math.fround(a * ONE_MINUS_ULP) - a) * +(Math.abs(a) > Math.abs(pa));
      const pb = r[t + R_N1]! * fy;
      let b = Math.fround(pb);
      b += (Math.fround(b * ONE_MINUS_ULP) - b) * +(Math.abs(b) > Math.abs(pb));
      // xy = addNormal(a, b): TwoSum, then the rare rounding onto a grid point from inside (eeAddValue).
      let sum = a + b;
      let bv = sum - a;
      let err = a - (sum - bv) + (b - bv);
      let xy = Math.fround(sum);
      if (err * sum < 0 && xy === sum) xy = eeAddValue(a, b);
      else xy += (Math.fround(xy * ONE_MINUS_ULP) - xy) * +(Math.abs(xy) > Math.abs(sum));
      // inner = addNormal(xy, top)
      const top = r[t + R_TOP]!;
      sum = xy + top;
      bv = sum - xy;
      err = xy - (sum - bv) + (top - bv);
      let inner = Math.fround(sum);
      if (err * sum < 0 && inner === sum) inner = eeAddValue(xy, top);
      else inner += (Math.fround(inner * ONE_MINUS_ULP) - inner) * +(Math.abs(inner) > Math.abs(sum));
      // s0 = addNormal(k, inner)
      sum = k + inner;
      bv = sum - k;
      err = k - (sum - bv) + (inner - bv);
      let s0 = Math.fround(sum);
      if (err * sum < 0 && s0 === sum) s0 = eeAddValue(k, inner);
      else s0 += (Math.fround(s0 * ONE_MINUS_ULP) - s0) * +(Math.abs(s0) > Math.abs(sum));
      if (s0 < 0) continue;
      // s1 ≤ 0 is nearly always certain from the doubles: the two EE additions move it by < 2·2⁻²³·Σ|terms|.
      const bottom = r[t + R_BOTTOM]!;
      const s1 = k + xy + bottom;
      const slack = S1_SLACK * (Math.abs(k) + Math.abs(xy) + Math.abs(bottom));
      if (s1 - slack > 0) continue;
      if (s1 + slack > 0 && addNormal(k, addNormal(xy, bottom)) > 0) continue;
      // hit z = 2500 + (dz · (−1 · s0)) · (1 / n·d): w = truncNormal(truncNormal(dz · −s0) · inv).
      const pd = DZ_VALUE * -s0;
      let d = Math.fround(pd);
      d += (Math.fround(d * ONE_MINUS_ULP) - d) * +(Math.abs(d) > Math.abs(pd));
      const pw = d * inv;
      let w = Math.fround(pw);
      w += (Math.fround(w * ONE_MINUS_ULP) - w) * +(Math.abs(w) > Math.abs(pw));
      // z = addNormal(2500, w)
      sum = C2500_VALUE + w;
      bv = sum - C2500_VALUE;
      err = C2500_VALUE - (sum - bv) + (w - bv);
      let z = Math.fround(sum);
      if (err * sum < 0 && z === sum) z = eeAddValue(C2500_VALUE, w);
      else z += (Math.fround(z * ONE_MINUS_ULP) - z) * +(Math.abs(z) > Math.abs(sum));
      io[IO_Z] = z;
      return true;
    }
    io[IO_Z] = -1;
    return true;
  }

  /** Fills cell (cx, cy)'s record from HeightQuery's exact constants and decides its mode. */
  private prepare(cx: number, cy: number): number {
    const cell = cx * CELLS + cy;
    const words = this.exact.cellConstants(cx, cy);
    const at = cell * RECORD;
    const r = this.record;
    let fast = VERTICAL_SIDES;
    for (let tri = 0; tri < 2; tri++) {
      const w = tri * W.WORDS;
      const t = at + (tri === 0 ? TRI0 : TRI1);
      const n2 = words[w + W.N + 2]!;
      const n0 = eeToNumber(words[w + W.N]!);
      const n1 = eeToNumber(words[w + W.N + 1]!);
      const top = eeToNumber(eeMul(n2, F.C2500));
      const bottom = eeToNumber(eeMul(n2, F.MINUS_1200));
      const k = eeToNumber(words[w + W.K]!);
      const miss = words[w + W.MISS] === 1;
      const inv = miss ? NaN : eeToNumber(words[w + W.INV]!);
      r[t + R_N0] = n0;
      r[t + R_N1] = n1;
      r[t + R_TOP] = top;
      r[t + R_BOTTOM] = bottom;
      r[t + R_K] = k;
      r[t + R_INV] = inv;
      // A triangle that never answers (n · d == 0) is skipped before its constants are used.
      if (!miss) {
        if (!inRange(n0, NORMAL_MIN, true) || !inRange(n1, NORMAL_MIN, true)) fast = false;
        if (!inRange(top, PLANE_MIN, false) || !inRange(bottom, PLANE_MIN, false)) fast = false;
        if (!inRange(k, 0, true) || !inRange(inv, FAST_MIN, false)) fast = false;
      }
      for (let e = 0; e < 3; e++) {
        const o = w + e * 3;
        // Compared as values: a side's zero component may be +0 or −0 with the heights' signs.
        for (let c = 0; c < 3; c++) if (eeToNumber(words[o + W.SIDE + c]!) !== eeToNumber(REF[o + W.SIDE + c]!)) fast = false;
        if (eeToNumber(words[o + W.E1]!) !== EDGE_X[tri * 3 + e] || eeToNumber(words[o + W.E1 + 1]!) !== EDGE_Y[tri * 3 + e]) fast = false;
        const h = eeToNumber(words[o + W.E1 + 2]!);
        if (!(h >= CORNER_MIN && h <= CORNER_MAX)) fast = false;
      }
    }
    const mode = fast ? MODE_FAST : MODE_EXACT;
    this.mode[cell] = mode;
    return mode;
  }
}
