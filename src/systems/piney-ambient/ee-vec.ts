/**
 * The vector, matrix and angle helpers the ambient code needs, built on the project's EE single-precision
 * module (every float here is a u32 bit pattern). They follow the game's libvu0 routines operation for
 * operation: VU0 arithmetic obeys the same rules as the FPU (no denormals, no infinities, truncation), and
 * its multiply-adds round each product first.
 */
import {
  eeAdd,
  eeSub,
  eeMul,
  eeDiv,
  eeSqrt,
  eeFromInt,
  eeToInt,
  eeToNumber,
  eeFromUint,
  sqrtfNewlib,
} from '../../numeric/ee-float.js';
import { atan2f } from '../../numeric/libm-ee.js';

/** A float as its u32 bit pattern. */
export type F = number;
/** A sceVu0FVECTOR: x, y, z, w as bit patterns. */
export type V4 = [F, F, F, F];
/** A matrix as four stored columns. */
export type M4 = [V4, V4, V4, V4];

export const add = eeAdd;
export const sub = eeSub;
export const mul = eeMul;
export const div = eeDiv;
export const fromInt = eeFromInt;
export const toInt = eeToInt;
/**
 * The EE's c.lt/c.le/c.eq on bit patterns without decoding: exponent 0 is zero whatever the rest, and
 * otherwise a pattern's magnitude orders as its low 31 bits (exponent 255 is an ordinary number), so
 * (sign ? −mag : mag) is an exact order key. Property-tested against the EE module's comparisons.
 */
export function orderKey(a: F): number {
  if ((a & 0x7f800000) === 0) return 0;
  const m = a & 0x7fffffff;
  return a & 0x80000000 ? -m : m;
}
export function lt(a: F, b: F): boolean {
  return orderKey(a) < orderKey(b);
}
export function le(a: F, b: F): boolean {
  return orderKey(a) <= orderKey(b);
}
export function eq(a: F, b: F): boolean {
  return orderKey(a) === orderKey(b);
}

export const ZERO: F = 0;
export const ONE: F = 0x3f800000;
export const MINUS_ONE: F = 0xbf800000;
export const TWO: F = 0x40000000;
export const HALF: F = 0x3f000000;
export const K10: F = 0x41200000;
export const K100: F = 0x42c80000;
/** The code's pi, 3.14159274. */
export const PI: F = 0x40490fdb;
export const NEG_PI: F = 0xc0490fdb;
export const HALF_PI: F = 0x3fc90fdb;
export const TWO_PI: F = 0x40c90fdb;
/** 32768.0: half a turn in the game's 16-bit angles. */
export const HALF_TURN: F = 0x47000000;

/**
 * Whether (p − P) + P is exactly p in EE arithmetic, by Sterbenz's lemma: for p and P of the same sign with
 * P/2 ≤ p ≤ 2P the difference p − P is a float (so sub.s does not truncate it), and adding P back gives p,
 * which is a float. Restricted to positive values of at least 1.0 so the difference is never flushed as a
 * denormal. On patterns: doubling a positive float adds 1 to its exponent field, so p ≤ 2P is
 * bits(p) ≤ bits(P) + 2^23 (in JS numbers, which do not wrap past exponent 255). Property-tested against the
 * EE module.
 */
export function roundTripsExactly(p: F, P: F): boolean {
  return p >= ONE && P >= ONE && p < 0x80000000 && P < 0x80000000 && p <= P + 0x800000 && P <= p + 0x800000;
}

/** The float of an exactly representable JS number (for constants and tests; never for results). */
export function k(x: number): F {
  KBUF.setFloat32(0, x);
  const b = KBUF.getUint32(0);
  if (KBUF.getFloat32(0) !== x) throw new RangeError(`${x} is not exactly a float`);
  return b;
}
const KBUF = new DataView(new ArrayBuffer(4));

/** Bits to a JS number (exact), for reports and tests. */
export const value = eeToNumber;

/** EE negation is a sign flip of the bits. */
export function neg(a: F): F {
  return (a ^ 0x80000000) >>> 0;
}

/**
 * A u32 to float as the compiled code converts an unsigned value: cvt.s.w directly below 2^31; above, the
 * value halved with its low bit kept (so the truncation still sees it), converted, and doubled.
 */
export const fromU32 = eeFromUint;

/** The vector (x, y, z, w). */
export function v4(x: F, y: F, z: F, w: F): V4 {
  return [x >>> 0, y >>> 0, z >>> 0, w >>> 0];
}

/** sceVu0AddVector: every lane. */
export function vadd(a: V4, b: V4): V4 {
  return [eeAdd(a[0], b[0]), eeAdd(a[1], b[1]), eeAdd(a[2], b[2]), eeAdd(a[3], b[3])];
}

/** sceVu0SubVector: every lane. */
export function vsub(a: V4, b: V4): V4 {
  return [eeSub(a[0], b[0]), eeSub(a[1], b[1]), eeSub(a[2], b[2]), eeSub(a[3], b[3])];
}

/** sceVu0ScaleVector: every lane times s. */
export function vscale(a: V4, s: F): V4 {
  return [eeMul(a[0], s), eeMul(a[1], s), eeMul(a[2], s), eeMul(a[3], s)];
}

/** sceVu0InnerProduct: x products, then + y, then + z. */
export function dot3(a: V4, b: V4): F {
  return eeAdd(eeAdd(eeMul(a[0], b[0]), eeMul(a[1], b[1])), eeMul(a[2], b[2]));
}

/** sceVu0Normalize: Q = sqrt.s of the squared length, then 1 / (0 + Q), x, y, z times it; w 0. */
export function normalize(a: V4): V4 {
  const q = eeSqrt(dot3(a, a));
  const r = eeDiv(ONE, eeAdd(0, q));
  return [eeMul(a[0], r), eeMul(a[1], r), eeMul(a[2], r), 0];
}

/** sceVu0ApplyMatrix: ((c0 x + c1 y) + c2 z) + c3 w in each lane. */
export function apply(m: M4, v: V4): V4 {
  const o: V4 = [0, 0, 0, 0];
  for (let i = 0; i < 4; i++) {
    let acc = eeMul(m[0][i], v[0]);
    acc = eeAdd(acc, eeMul(m[1][i], v[1]));
    acc = eeAdd(acc, eeMul(m[2][i], v[2]));
    o[i] = eeAdd(acc, eeMul(m[3][i], v[3]));
  }
  return o;
}

/** The unit matrix. */
export function unit(): M4 {
  return [
    [ONE, 0, 0, 0],
    [0, ONE, 0, 0],
    [0, 0, ONE, 0],
    [0, 0, 0, ONE],
  ];
}

/** sceVu0MulMatrix(out, a, b) = a · b: each column of b through a. */
export function mulMatrix(a: M4, b: M4): M4 {
  return [apply(a, b[0]), apply(a, b[1]), apply(a, b[2]), apply(a, b[3])];
}

/**
 * The sine polynomial's coefficients of libvu0's `_sceVu0ecossin` (the table S5432 in the executable), for
 * x^9, x^7, x^5 and x^3.
 */
const VU_SIN: readonly F[] = [0x362e9c14, 0xb94fb21f, 0x3c08873e, 0xbe2aaaa4];

/**
 * `_sceVu0ecossin` as sceVu0RotMatrixX/Y/Z use it: cos a is the odd polynomial sin(pi/2 - |a|), summed in
 * the order the VU code adds its terms; sin a is +-sqrt.s(1 - cos^2), signed by a. Returns [sin, cos].
 */
export function vuCosSin(angle: F): [F, F] {
  const negative = lt(angle, 0);
  const x = negative ? eeAdd(HALF_PI, angle) : eeSub(HALF_PI, angle);
  const x2 = eeMul(x, x);
  let p0 = eeMul(eeMul(VU_SIN[0]!, x), x2);
  let p1 = eeMul(eeMul(VU_SIN[1]!, x), x2);
  let p2 = eeMul(eeMul(VU_SIN[2]!, x), x2);
  const p3 = eeMul(eeMul(VU_SIN[3]!, x), x2);
  p0 = eeMul(p0, x2);
  p1 = eeMul(p1, x2);
  p2 = eeMul(p2, x2);
  let r = eeAdd(x, p3);
  p0 = eeMul(p0, x2);
  p1 = eeMul(p1, x2);
  r = eeAdd(r, p2);
  p0 = eeMul(p0, x2);
  r = eeAdd(eeAdd(r, p1), p0);
  const q = eeSqrt(eeSub(ONE, eeMul(r, r)));
  return [negative ? eeSub(0, q) : eeAdd(0, q), r];
}

/** sceVu0RotMatrixX(out, m, a) = Rx · m. */
export function rotX(m: M4, a: F): M4 {
  const [s, c] = vuCosSin(a);
  const cc = eeAdd(0, c);
  const rx: M4 = [
    [ONE, 0, 0, 0],
    [0, cc, eeAdd(0, s), 0],
    [0, eeSub(0, s), cc, 0],
    [0, 0, 0, ONE],
  ];
  return mulMatrix(rx, m);
}

/** sceVu0RotMatrixY(out, m, a) = Ry · m. */
export function rotY(m: M4, a: F): M4 {
  const [s, c] = vuCosSin(a);
  const cc = eeAdd(0, c);
  const ry: M4 = [
    [cc, 0, eeSub(0, s), 0],
    [0, ONE, 0, 0],
    [eeAdd(0, s), 0, cc, 0],
    [0, 0, 0, ONE],
  ];
  return mulMatrix(ry, m);
}

/** sceVu0RotMatrixZ(out, m, a) = Rz · m. */
export function rotZ(m: M4, a: F): M4 {
  const [s, c] = vuCosSin(a);
  const cc = eeAdd(0, c);
  const rz: M4 = [
    [cc, eeAdd(0, s), 0, 0],
    [eeSub(0, s), cc, 0, 0],
    [0, 0, ONE, 0],
    [0, 0, 0, ONE],
  ];
  return mulMatrix(rz, m);
}

/** sceVu0RotMatrix(out, unit, rot): turned about z, then y, then x (Rx · Ry · Rz). All three always run. */
export function rotMatrix(rx: F, ry: F, rz: F): M4 {
  return rotX(rotY(rotZ(unit(), rz), ry), rx);
}

/** ccCoord::SetMatrix_PosRotZYX: sceVu0RotMatrix of the unit matrix, then the position added. */
export function posRotZYX(pos: V4, rx: F, ry: F, rz: F): M4 {
  const m = rotMatrix(rx, ry, rz);
  m[3][0] = eeAdd(m[3][0], pos[0]);
  m[3][1] = eeAdd(m[3][1], pos[1]);
  m[3][2] = eeAdd(m[3][2], pos[2]);
  return m;
}

/** ccCoord::SetMatrix_PosRotXYZScale: the scale, turned about x, then y, then z, then moved to pos. */
export function posRotXYZScale(pos: V4, rot: V4, sx: F, sy: F, sz: F): M4 {
  let m: M4 = [
    [sx, 0, 0, 0],
    [0, sy, 0, 0],
    [0, 0, sz, 0],
    [0, 0, 0, ONE],
  ];
  m = rotZ(rotY(rotX(m, rot[0]), rot[1]), rot[2]);
  m[3][0] = eeAdd(m[3][0], pos[0]);
  m[3][1] = eeAdd(m[3][1], pos[1]);
  m[3][2] = eeAdd(m[3][2], pos[2]);
  return m;
}

/** DEG2RAD: (pi · s) / 32768 in EE single precision, multiply then divide. */
export function deg2rad(s16: number): F {
  return eeDiv(eeMul(PI, eeFromInt(s16)), HALF_TURN);
}

/** RAD2DEG: (short)(int)((32768 · (pi + r)) / pi − 32768). */
export function rad2deg(r: F): number {
  const x = eeDiv(eeMul(HALF_TURN, eeAdd(PI, r)), PI);
  return (eeToInt(eeSub(x, HALF_TURN)) << 16) >> 16;
}

/**
 * ccGetDist(a, b): the distance on the ground, newlib sqrtf of (b − a)·(b − a) with z zeroed (Infection
 * and Mutation; the later volumes' sqrt.s is not modelled).
 */
export function groundDistance(a: V4, b: V4): F {
  const dx = eeSub(b[0], a[0]);
  const dy = eeSub(b[1], a[1]);
  return sqrtfNewlib(eeAdd(eeAdd(eeMul(dx, dx), eeMul(dy, dy)), 0));
}

/**
 * The FIREFLY/FIREFLY2 reach: single-precision x·x + y·y, its square root taken in double and converted
 * back to single. A double square root rounded to single equals the correctly rounded single root, which
 * is newlib's sqrtf, so that is what computes it.
 */
export function planarLength(d: V4): F {
  return sqrtfNewlib(eeAdd(eeMul(d[0], d[0]), eeMul(d[1], d[1])));
}

/**
 * `sqrt(s) > limit` with the root in double, as TOBJ's and BIRD's far tests compare. For a float s and a
 * limit whose square is a float this is `s > limit²` exactly (a correctly rounded root is monotone and
 * cannot round onto the limit), and a negative s gives NaN, which compares false.
 */
export function rootExceeds(s: F, limitSquared: number): boolean {
  return eeToNumber(s) > limitSquared;
}

/** ccGetDirc(a, b): atan2f(dy, dx) + pi/2, then wrapped into −pi..pi once each way. */
export function getDirc(a: V4, b: V4): F {
  const dx = eeSub(b[0], a[0]);
  const dy = eeSub(b[1], a[1]);
  let r = eeAdd(HALF_PI, atan2f(dy, dx));
  if (!le(r, PI)) r = eeSub(r, TWO_PI);
  if (lt(r, NEG_PI)) r = eeAdd(r, TWO_PI);
  return r;
}
