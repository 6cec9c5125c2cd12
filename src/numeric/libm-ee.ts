/**
 * The game's single-precision maths library: newlib's fdlibm float routines (sinf, cosf, tanf, atanf,
 * atan2f, fmodf, sqrtf and their kernels), evaluated with the EE FPU rules of ee-float.ts on u32 bit
 * patterns, so results follow the game's to the bit.
 *
 * Each routine follows fdlibm's algorithm and constants: argument reduction by a three-part π/2
 * (Cody–Waite) for |x| up to 2^7·π/2, then minimax polynomials on [−π/4, π/4] in Horner form. Every
 * + − × / in the C source is one EE operation here, in the C expression's order (the EE truncates, so the
 * grouping matters; which operand of a commutative add or mul comes first does not). Constants written
 * as C expressions the compiler folds (`pi + tiny`) are the folded, round-to-nearest values.
 *
 * The library was built with `_FLT_LARGEST_EXPONENT_IS_NORMAL` and `_FLT_NO_DENORMALS`
 * (docs/formats/ee-float.md): no NaN/Inf branches, and "is zero" means
 * exponent field 0.
 *
 * Documented in docs/formats/ee-float.md.
 */
import {
  EE_HALF,
  EE_MINUS_ONE,
  EE_ONE,
  eeAdd as add,
  eeDiv as div,
  eeFromInt as fromInt,
  eeFromNumber,
  eeMul as mul,
  eeSub as sub,
  eeToInt as toInt,
  eeToNumber,
  sqrtfNewlib,
} from './ee-float.js';

const SIGN = 0x80000000;
const ABS = 0x7fffffff;
const FRAC = 0x007fffff;

const neg = (x: number): number => (x ^ SIGN) >>> 0;
/** `fabsf`: the sign bit cleared. */
export const fabsf = (x: number): number => (x & ABS) >>> 0;
/** fdlibm's FLT_UWORD_IS_ZERO under _FLT_NO_DENORMALS: the magnitude word has exponent 0. */
const isZeroWord = (ix: number): boolean => ix < 0x00800000;

// ---------------------------------------------------------------------------------------------------
// Kernels: |x| ≤ π/4, y the low part of a reduced argument.

/** __kernel_sinf coefficients S1..S6 (fdlibm k_sinf.c). */
const KS1 = 0xbe2aaaab;
const KS2 = 0x3c088889;
const KS3 = 0xb9500d01;
const KS4 = 0x3638ef1b;
const KS5 = 0xb2d72f34;
const KS6 = 0x2f2ec9d3;

/** `__kernel_sinf(x, y, iy)`: sin(x + y); `iy` = 0 when y is known to be zero. */
export function kernelSinf(x: number, y: number, iy: number): number {
  const ix = x & ABS;
  if (ix < 0x32000000 && toInt(x) === 0) return x >>> 0; // |x| < 2^-27
  const z = mul(x, x);
  const v = mul(z, x);
  const r = add(KS2, mul(z, add(KS3, mul(z, add(KS4, mul(z, add(KS5, mul(z, KS6))))))));
  if (iy === 0) return add(x, mul(v, add(KS1, mul(z, r))));
  // x − ((z·(½y − v·r) − y) − v·S1)
  return sub(x, sub(sub(mul(z, sub(mul(EE_HALF, y), mul(v, r))), y), mul(v, KS1)));
}

/** __kernel_cosf coefficients C1..C6 (fdlibm k_cosf.c). */
const KC1 = 0x3d2aaaab;
const KC2 = 0xbab60b61;
const KC3 = 0x37d00d01;
const KC4 = 0xb493f27c;
const KC5 = 0x310f74f6;
const KC6 = 0xad47d74e;
/** 0.28125, the fixed qx above |x| = 0.78125. */
const COS_QX_CAP = 0x3e900000;

/** `__kernel_cosf(x, y)`: cos(x + y). */
export function kernelCosf(x: number, y: number): number {
  const ix = x & ABS;
  if (ix < 0x32000000 && toInt(x) === 0) return EE_ONE;
  const z = mul(x, x);
  const r = mul(z, add(KC1, mul(z, add(KC2, mul(z, add(KC3, mul(z, add(KC4, mul(z, add(KC5, mul(z, KC6)))))))))));
  if (ix < 0x3e99999a) {
    // |x| < 0.3: 1 − (½z − (z·r − x·y))
    return sub(EE_ONE, sub(mul(EE_HALF, z), sub(mul(z, r), mul(x, y))));
  }
  // qx = x/4 (exponent − 2) or 0.28125, split off so 1 − qx is exact
  const qx = ix > 0x3f480000 ? COS_QX_CAP : ix - 0x01000000;
  const hz = sub(mul(EE_HALF, z), qx);
  const a = sub(EE_ONE, qx);
  return sub(a, sub(hz, sub(mul(z, r), mul(x, y))));
}

/** __kernel_tanf coefficients T0..T12 (fdlibm k_tanf.c). */
const KT = [
  0x3eaaaaab, 0x3e088889, 0x3d5d0dd1, 0x3cb327a4, 0x3c11371f, 0x3b6b6916, 0x3abede48, 0x3a1a26c8, 0x398137b9,
  0x38a3f445, 0x3895c07a, 0xb79bae5f, 0x37d95384,
] as const;
const PIO4 = 0x3f490fda;
const PIO4_LO = 0x33222168;

/** `__kernel_tanf(x, y, iy)`: tan(x + y) for iy = 1, −1/tan(x + y) for iy = −1. */
export function kernelTanf(x: number, y: number, iy: number): number {
  const hx = x | 0;
  const ix = x & ABS;
  if (ix < 0x31800000 && toInt(x) === 0) {
    // |x| < 2^-28
    if ((ix | (iy + 1)) === 0) return div(EE_ONE, fabsf(x));
    return iy === 1 ? x >>> 0 : div(EE_MINUS_ONE, x);
  }
  const big = ix >= 0x3f2ca140; // |x| ≥ 0.6744: use tan(π/4 − x)
  if (big) {
    if (hx < 0) {
      x = neg(x);
      y = neg(y);
    }
    x = add(sub(PIO4, x), sub(PIO4_LO, y));
    y = 0;
  }
  const z = mul(x, x);
  const w = mul(z, z);
  // odd-index and even-index coefficients as two Horner chains in w = x^4
  const r0 = add(KT[1], mul(w, add(KT[3], mul(w, add(KT[5], mul(w, add(KT[7], mul(w, add(KT[9], mul(w, KT[11]))))))))));
  const v = mul(z, add(KT[2], mul(w, add(KT[4], mul(w, add(KT[6], mul(w, add(KT[8], mul(w, add(KT[10], mul(w, KT[12])))))))))));
  const s = mul(z, x);
  let r = add(y, mul(z, add(mul(s, add(r0, v)), y)));
  r = add(r, mul(KT[0], s));
  const wsum = add(x, r);
  if (big) {
    const fv = fromInt(iy);
    const sign = fromInt(1 - ((hx >> 30) & 2));
    // sign·(v − 2·(x − (w²/(w + v) − r)))
    const q = sub(x, sub(div(mul(wsum, wsum), add(wsum, fv)), r));
    return mul(sign, sub(fv, add(q, q)));
  }
  if (iy === 1) return wsum;
  // −1/(x + r) computed with the high parts split off
  const zh = (wsum & 0xfffff000) >>> 0;
  const vv = sub(r, sub(zh, x));
  const a = div(EE_MINUS_ONE, wsum);
  const t = (a & 0xfffff000) >>> 0;
  const ss = add(EE_ONE, mul(t, zh));
  return add(t, mul(a, add(ss, mul(t, vv))));
}

// ---------------------------------------------------------------------------------------------------
// Argument reduction

/** The result of a reduction: x = n·π/2 + (y0 + y1). Module scratch so the reduction allocates nothing. */
export const reduced = { n: 0, y0: 0, y1: 0 };

const INV_PIO2 = 0x3f22f984;
const PIO2_1 = 0x3fc90f80; // first 17 bits of π/2
const PIO2_1T = 0x37354443; // π/2 − PIO2_1
const PIO2_2 = 0x3735_4400; // second 17 bits
const PIO2_2T = 0x2e85a308; // π/2 − (PIO2_1 + PIO2_2)
const PIO2_3 = 0x2e85a300; // third 17 bits
const PIO2_3T = 0x248d3132; // π/2 − (PIO2_1 + PIO2_2 + PIO2_3)

/**
 * npio2_hw[n−1]: the high 24 bits (low byte cleared) of the float nearest n·π/2, n = 1..32. An argument
 * sharing them may cancel badly, so it takes the longer reduction.
 */
export const NPIO2_HW = [
  0x3fc90f00, 0x40490f00, 0x4096cb00, 0x40c90f00, 0x40fb5300, 0x4116cb00, 0x412fed00, 0x41490f00, 0x41623100,
  0x417b5300, 0x418a3a00, 0x4196cb00, 0x41a35c00, 0x41afed00, 0x41bc7e00, 0x41c90f00, 0x41d5a000, 0x41e23100,
  0x41eec200, 0x41fb5300, 0x4203f200, 0x420a3a00, 0x42108300, 0x4216cb00, 0x421d1400, 0x42235c00, 0x4229a500,
  0x422fed00, 0x42363600, 0x423c7e00, 0x4242c700, 0x42490f00,
] as const;

/**
 * `__ieee754_rem_pio2f(x)`: reduces x into `reduced` and returns n. |x| ≤ π/4: n = 0, y0 = x.
 * |x| < 3π/4: one step of π/2 (two parts, or three when x is near π/2). |x| ≤ 2^7·π/2: the medium
 * reduction with up to three parts. Larger |x|: `reduceLargeArgument` (Payne–Hanek).
 */
export function remPio2f(x: number): number {
  x >>>= 0;
  const hx = x | 0;
  const ix = x & ABS;
  if (ix <= 0x3f490fd8) return setReduced(0, x, 0);
  if (ix < 0x4016cbe4) {
    // |x| < 3π/4: subtract (or add) π/2 once
    const nearPio2 = (ix & 0xfffffff0) === 0x3fc90fd0; // 24+ bits of x match π/2: use the 3-part constant
    if (hx > 0) {
      let z = sub(x, PIO2_1);
      if (!nearPio2) {
        const y0 = sub(z, PIO2_1T);
        return setReduced(1, y0, sub(sub(z, y0), PIO2_1T));
      }
      z = sub(z, PIO2_2);
      const y0 = sub(z, PIO2_2T);
      return setReduced(1, y0, sub(sub(z, y0), PIO2_2T));
    }
    let z = add(x, PIO2_1);
    if (!nearPio2) {
      const y0 = add(z, PIO2_1T);
      return setReduced(-1, y0, add(sub(z, y0), PIO2_1T));
    }
    z = add(z, PIO2_2);
    const y0 = add(z, PIO2_2T);
    return setReduced(-1, y0, add(sub(z, y0), PIO2_2T));
  }
  if (ix <= 0x43490f80) {
    // medium: n = (int)(|x|·2/π + ½)
    const t = fabsf(x);
    const n = toInt(add(mul(t, INV_PIO2), EE_HALF));
    const fn = fromInt(n);
    let r = sub(t, mul(fn, PIO2_1));
    let w = mul(fn, PIO2_1T); // first round good to 40 bits
    let y0: number;
    if (n < 32 && (ix & 0xffffff00) !== NPIO2_HW[n - 1]) {
      y0 = sub(r, w); // no cancellation possible
    } else {
      const j = ix >>> 23;
      y0 = sub(r, w);
      if (j - ((y0 >>> 23) & 0xff) > 8) {
        // second iteration: the next 17 bits of π/2
        let tt = r;
        w = mul(fn, PIO2_2);
        r = sub(tt, w);
        w = sub(mul(fn, PIO2_2T), sub(sub(tt, r), w));
        y0 = sub(r, w);
        if (j - ((y0 >>> 23) & 0xff) > 25) {
          // third iteration
          tt = r;
          w = mul(fn, PIO2_3);
          r = sub(tt, w);
          w = sub(mul(fn, PIO2_3T), sub(sub(tt, r), w));
          y0 = sub(r, w);
        }
      }
    }
    const y1 = sub(sub(r, y0), w);
    return hx < 0 ? setReduced(-n, neg(y0), neg(y1)) : setReduced(n, y0, y1);
  }
  return reduceLargeArgument(x);
}

function setReduced(n: number, y0: number, y1: number): number {
  reduced.n = n;
  reduced.y0 = y0 >>> 0;
  reduced.y1 = y1 >>> 0;
  return n;
}

/**
 * two_over_pi: 2/π in 8-bit chunks, 2/π = Σ TWO_OVER_PI_BYTES[k]·2^(−8(k+1)), built from 24-bit groups.
 * 60 bytes cover every EE exponent: the kernel reads up to index jv + jk + a few recomputations ≈ 30.
 */
export const TWO_OVER_PI_BYTES = new Int32Array(60); // read-only: exported for the table test
{
  const groups = [
    0xa2f983, 0x6e4e44, 0x1529fc, 0x2757d1, 0xf534dd, 0xc0db62, 0x95993c, 0x439041, 0xfe5163, 0xabdebb, 0xc561b7,
    0x246e3a, 0x424dd2, 0xe00649, 0x2eea09, 0xd1921c, 0xfe1deb, 0x1cb129, 0xa73ee8, 0x8235f5,
  ];
  groups.forEach((g, i) => {
    TWO_OVER_PI_BYTES[3 * i] = g >>> 16;
    TWO_OVER_PI_BYTES[3 * i + 1] = (g >>> 8) & 0xff;
    TWO_OVER_PI_BYTES[3 * i + 2] = g & 0xff;
  });
}
/** PIo2: π/2 in 8-bit pieces, PIo2[k] = (byte k of π/2)·2^(−8k−7), each exact in a float. */
export const PIO2_CHUNKS = [
  0x3fc90000, 0x39f00000, 0x37da0000, 0x33a20000, 0x2e840000, 0x2b500000, 0x27c20000, 0x22d00000, 0x1fc40000,
  0x1bc60000, 0x17440000,
] as const;
const TWO8 = 0x43800000; // 256
const TWON8 = 0x3b800000; // 1/256
const EIGHT = 0x41000000;
const ONE_EIGHTH = 0x3e000000;
/** init_jk[prec] for prec = 2 (the precision e_rem_pio2f asks for): 9 terms of q. */
const KERNEL_JK = 9;
/**
 * The shift newlib's kf_rem_pio2.c applies to the last chunk when q0 = 0 to find whether the fraction is
 * ≥ ½: `iq[jz−1] >> 8`, which is always 0 for an 8-bit chunk (later libms fixed it to 7). Kept as newlib
 * has it: the remainder is then left in [0, π/2) instead of [−π/4, π/4], which the kernels still handle.
 */
const KERNEL_Q0_ZERO_IH_SHIFT = 8;

// kernel scratch: no allocation per call
const kx = new Uint32Array(3);
const kf = new Uint32Array(24);
const kq = new Uint32Array(24);
const kfq = new Uint32Array(24);
const kiq = new Int32Array(24);

/** newlib `scalbnf(x, n)` for the kernel's ranges: the exponent field moved by n (x·2^n exactly). */
function scalbnf(x: number, n: number): number {
  const e = (x >>> 23) & 0xff;
  if (e === 0) return x >>> 0;
  const k = e + n;
  if (k > 255) return ((x & SIGN) | ABS) >>> 0;
  if (k < 1) return (x & SIGN) >>> 0;
  return ((x & 0x807fffff) | (k << 23)) >>> 0;
}

/** newlib `floorf` of a non-negative value (bit clearing, exact). */
function floorfNonNegative(x: number): number {
  const v = eeToNumber(x);
  return eeFromNumber(v - (v % 1));
}

const isZeroValue = (x: number): boolean => (x & 0x7f800000) === 0;

/**
 * `__kernel_rem_pio2f(x, y, e0, nx, prec = 2, two_over_pi)` (Payne–Hanek, float version): x is |arg|·2^−e0
 * split into nx 8-bit integer floats in `kx`; multiplies by the 8-bit chunks of 2/π that matter, takes the
 * integer part mod 8 as n and the fraction times π/2 (in 8-bit pieces) as y0 + y1. Every float operation is
 * an EE operation; most are exact by construction (small integers and powers of two), the final sums of
 * PIo2·q products are where the EE's truncation shows.
 */
function kernelRemPio2f(e0: number, nx: number): number {
  const jk = KERNEL_JK;
  const jp = jk;
  const jx = nx - 1;
  let jv = ((e0 - 3) / 8) | 0; // C division: toward zero
  if (jv < 0) jv = 0;
  let q0 = e0 - 8 * (jv + 1);
  // f[0..jx+jk] = two_over_pi[jv−jx ..]
  for (let i = 0, j = jv - jx; i <= jx + jk; i++, j++) kf[i] = j < 0 ? 0 : fromInt(TWO_OVER_PI_BYTES[j]!);
  for (let i = 0; i <= jk; i++) {
    let fw = 0;
    for (let j = 0; j <= jx; j++) fw = add(fw, mul(kx[j]!, kf[jx + i - j]!));
    kq[i] = fw;
  }
  let jz = jk;
  let z = 0;
  let n = 0;
  let ih = 0;
  for (;;) {
    // distill q[] into 8-bit integers iq[], lowest first
    z = kq[jz]!;
    for (let i = 0, j = jz; j > 0; i++, j--) {
      const fw = fromInt(toInt(mul(TWON8, z)));
      kiq[i] = toInt(sub(z, mul(TWO8, fw)));
      z = add(kq[j - 1]!, fw);
    }
    // n = the integer part mod 8
    z = scalbnf(z, q0);
    z = sub(z, mul(EIGHT, floorfNonNegative(mul(z, ONE_EIGHTH))));
    n = toInt(z);
    z = sub(z, fromInt(n));
    ih = 0;
    if (q0 > 0) {
      // the last chunk still holds integer bits
      const i = kiq[jz - 1]! >> (8 - q0);
      n += i;
      kiq[jz - 1] = kiq[jz - 1]! - (i << (8 - q0));
      ih = kiq[jz - 1]! >> (7 - q0);
    } else if (q0 === 0) {
      ih = kiq[jz - 1]! >> KERNEL_Q0_ZERO_IH_SHIFT;
    } else if (!lessThan(z, EE_HALF)) {
      ih = 2;
    }
    if (ih > 0) {
      // fraction ≥ ½: take 1 − fraction and round n up
      n += 1;
      let carry = 0;
      for (let i = 0; i < jz; i++) {
        const j = kiq[i]!;
        if (carry === 0) {
          if (j !== 0) {
            carry = 1;
            kiq[i] = 0x100 - j;
          }
        } else kiq[i] = 0xff - j;
      }
      if (q0 === 1) kiq[jz - 1] = kiq[jz - 1]! & 0x7f;
      else if (q0 === 2) kiq[jz - 1] = kiq[jz - 1]! & 0x3f;
      if (ih === 2) {
        z = sub(EE_ONE, z);
        if (carry !== 0) z = sub(z, scalbnf(EE_ONE, q0));
      }
    }
    // all the computed fraction bits zero: take more chunks of 2/π and start again
    if (!isZeroValue(z)) break;
    let bits = 0;
    for (let i = jz - 1; i >= jk; i--) bits |= kiq[i]!;
    if (bits !== 0) break;
    let k = 1;
    while (k < jk && kiq[jk - k] === 0) k++;
    if (jx + jz + k >= kf.length) break; // cannot happen for float inputs; keeps the scratch in bounds
    for (let i = jz + 1; i <= jz + k; i++) {
      kf[jx + i] = fromInt(TWO_OVER_PI_BYTES[jv + i]!);
      let fw = 0;
      for (let j = 0; j <= jx; j++) fw = add(fw, mul(kx[j]!, kf[jx + i - j]!));
      kq[i] = fw;
    }
    jz += k;
  }
  // chop off zero terms, or split the top of z into another chunk
  if (isZeroValue(z)) {
    jz -= 1;
    q0 -= 8;
    while (jz > 0 && kiq[jz] === 0) {
      jz--;
      q0 -= 8;
    }
  } else {
    z = scalbnf(z, -q0);
    if (!lessThan(z, TWO8)) {
      const fw = fromInt(toInt(mul(TWON8, z)));
      kiq[jz] = toInt(sub(z, mul(TWO8, fw)));
      jz += 1;
      q0 += 8;
      kiq[jz] = toInt(fw);
    } else kiq[jz] = toInt(z);
  }
  // the chunks back to floats, then times π/2 piecewise
  let fw = scalbnf(EE_ONE, q0);
  for (let i = jz; i >= 0; i--) {
    kq[i] = mul(fw, fromInt(kiq[i]!));
    fw = mul(fw, TWON8);
  }
  for (let i = jz; i >= 0; i--) {
    let s = 0;
    for (let k = 0; k <= jp && k <= jz - i; k++) s = add(s, mul(PIO2_CHUNKS[k]!, kq[i + k]!));
    kfq[jz - i] = s;
  }
  // prec 2: y0 = Σ fq, y1 = (fq[0] − y0) + fq[1] + … + fq[jz]
  let y0 = 0;
  for (let i = jz; i >= 0; i--) y0 = add(y0, kfq[i]!);
  let y1 = sub(kfq[0]!, y0);
  for (let i = 1; i <= jz; i++) y1 = add(y1, kfq[i]!);
  reduced.y0 = ih === 0 ? y0 : neg(y0);
  reduced.y1 = ih === 0 ? y1 : neg(y1);
  return n & 7;
}

/**
 * The large-argument branch of `__ieee754_rem_pio2f` (|x| > 2^7·π/2): |x| scaled to [128, 256) by
 * e0 = exponent − 134 and cut into three 8-bit integer floats, then `kernelRemPio2f`. Never reached by the
 * field and ambient code; transcribed so that every input follows the game's library.
 */
function reduceLargeArgument(x: number): number {
  const hx = x | 0;
  const ix = x & ABS;
  const e0 = (ix >>> 23) - 134;
  let z = (ix - (e0 << 23)) >>> 0;
  for (let i = 0; i < 2; i++) {
    kx[i] = fromInt(toInt(z));
    z = mul(sub(z, kx[i]!), TWO8);
  }
  kx[2] = z;
  let nx = 3;
  while (nx > 1 && isZeroValue(kx[nx - 1]!)) nx--;
  const n = kernelRemPio2f(e0, nx);
  if (hx < 0) return setReduced(-n, neg(reduced.y0), neg(reduced.y1));
  return setReduced(n, reduced.y0, reduced.y1);
}

// ---------------------------------------------------------------------------------------------------
// Public routines

/** `sinf` */
export function sinf(x: number): number {
  if ((x & ABS) <= 0x3f490fd8) return kernelSinf(x, 0, 0);
  const n = remPio2f(x);
  const { y0, y1 } = reduced;
  switch (n & 3) {
    case 0:
      return kernelSinf(y0, y1, 1);
    case 1:
      return kernelCosf(y0, y1);
    case 2:
      return neg(kernelSinf(y0, y1, 1));
    default:
      return neg(kernelCosf(y0, y1));
  }
}

/** `cosf` */
export function cosf(x: number): number {
  if ((x & ABS) <= 0x3f490fd8) return kernelCosf(x, 0);
  const n = remPio2f(x);
  const { y0, y1 } = reduced;
  switch (n & 3) {
    case 0:
      return kernelCosf(y0, y1);
    case 1:
      return neg(kernelSinf(y0, y1, 1));
    case 2:
      return neg(kernelCosf(y0, y1));
    default:
      return kernelSinf(y0, y1, 1);
  }
}

/** `tanf` */
export function tanf(x: number): number {
  if ((x & ABS) <= 0x3f490fda) return kernelTanf(x, 0, 1);
  const n = remPio2f(x);
  return kernelTanf(reduced.y0, reduced.y1, 1 - ((n & 1) << 1));
}

/** atan of 0.5, 1, 1.5 and ∞ as hi + lo (fdlibm s_atanf.c). */
const ATAN_HI = [0x3eed6338, 0x3f490fda, 0x3f7b985e, 0x3fc90fda] as const;
const ATAN_LO = [0x31ac3769, 0x33222168, 0x33140fb4, 0x33a22168] as const;
/** atanf's polynomial coefficients aT[0..10]. */
const AT = [
  0x3eaaaaab, 0xbe4ccccd, 0x3e124925, 0xbde38e38, 0x3dba2e6e, 0xbd9d8795, 0x3d886b35, 0xbd6ef16b, 0x3d4bda59,
  0xbd15a221, 0x3c8569d7,
] as const;
const ONE_POINT_FIVE = 0x3fc00000;
const TWO = 0x40000000;
/** `huge` = 1e30: `huge + x > one` is fdlibm's inexact-raising test, always true. */
const HUGE = 0x7149f2ca;

/** `atanf` */
export function atanf(x: number): number {
  x >>>= 0;
  const hx = x | 0;
  const ix = x & ABS;
  if (ix >= 0x50800000) {
    // |x| ≥ 2^34: ±(π/2)
    return hx > 0 ? add(ATAN_HI[3], ATAN_LO[3]) : sub(neg(ATAN_HI[3]), ATAN_LO[3]);
  }
  let id: number;
  if (ix < 0x3ee00000) {
    // |x| < 7/16
    if (ix < 0x31000000 && lessThan(EE_ONE, add(HUGE, x))) return x; // |x| < 2^-29
    id = -1;
  } else {
    x = fabsf(x);
    if (ix < 0x3f980000) {
      if (ix < 0x3f300000) {
        // 7/16 ≤ |x| < 11/16: (2x − 1)/(2 + x)
        id = 0;
        x = div(sub(mul(TWO, x), EE_ONE), add(TWO, x));
      } else {
        // 11/16 ≤ |x| < 19/16: (x − 1)/(x + 1)
        id = 1;
        x = div(sub(x, EE_ONE), add(x, EE_ONE));
      }
    } else if (ix < 0x401c0000) {
      // |x| < 39/16: (x − 1.5)/(1 + 1.5x)
      id = 2;
      x = div(sub(x, ONE_POINT_FIVE), add(EE_ONE, mul(ONE_POINT_FIVE, x)));
    } else {
      // |x| < 2^34: −1/x
      id = 3;
      x = div(EE_MINUS_ONE, x);
    }
  }
  const z = mul(x, x);
  const w = mul(z, z);
  // the sum of aT[i]·z^(i+1) split into odd and even polynomials in w
  const s1 = mul(z, add(AT[0], mul(w, add(AT[2], mul(w, add(AT[4], mul(w, add(AT[6], mul(w, add(AT[8], mul(w, AT[10]))))))))))); // prettier-ignore
  const s2 = mul(w, add(AT[1], mul(w, add(AT[3], mul(w, add(AT[5], mul(w, add(AT[7], mul(w, AT[9])))))))));
  if (id < 0) return sub(x, mul(x, add(s1, s2)));
  const r = sub(ATAN_HI[id]!, sub(sub(mul(x, add(s1, s2)), ATAN_LO[id]!), x));
  return hx < 0 ? neg(r) : r;
}

const lessThan = (a: number, b: number): boolean => eeToNumber(a) < eeToNumber(b);

/** π as atan2f's `pi` (0x40490fda: the float just below π); `pi + tiny` folds to it. */
const ATAN2_PI = 0x40490fda;
/** π/2 (0x3fc90fdb); `pi_o_2 + tiny` folds to it. */
const ATAN2_PI_O_2 = 0x3fc90fdb;
/** pi_lo = π − ATAN2_PI, about 1.5e-7. */
const ATAN2_PI_LO = 0x34222168;
/** `pi_o_2 + 0.5·pi_lo`, folded by the compiler with round-to-nearest. */
const ATAN2_PI_O_2_PLUS = 0x3fc90fdc;

/** `atan2f(y, x)` (`__ieee754_atan2f`): the angle of the point (x, y), y first as in C. */
export function atan2f(y: number, x: number): number {
  x >>>= 0;
  y >>>= 0;
  const hx = x | 0;
  const hy = y | 0;
  const ix = x & ABS;
  const iy = y & ABS;
  if (x === EE_ONE) return atanf(y);
  const m = ((hy >>> 31) & 1) | ((hx >> 30) & 2); // 2·sign(x) + sign(y)
  if (isZeroWord(iy)) {
    if (m <= 1) return y; // atan2(±0, +x) = ±0, bits kept
    return m === 2 ? ATAN2_PI : neg(ATAN2_PI);
  }
  if (isZeroWord(ix)) return hy < 0 ? neg(ATAN2_PI_O_2) : ATAN2_PI_O_2;
  const k = (iy - ix) >> 23;
  let z: number;
  if (k > 60) z = ATAN2_PI_O_2_PLUS; // |y/x| > 2^60
  else if (hx < 0 && k < -60) z = 0; // |y|/x < −2^60
  else z = atanf(fabsf(div(y, x)));
  switch (m) {
    case 0:
      return z;
    case 1:
      return neg(z);
    case 2:
      return sub(ATAN2_PI, sub(z, ATAN2_PI_LO));
    default:
      return sub(sub(z, ATAN2_PI_LO), ATAN2_PI);
  }
}

/**
 * `fmodf(x, y)` (`__ieee754_fmodf`): x − n·y with the sign of x and magnitude below |y|, exact, by integer
 * shift-and-subtract on the significands. y with exponent 0 gives (x·y)/(x·y) under the EE rules.
 */
export function fmodf(x: number, y: number): number {
  x >>>= 0;
  y >>>= 0;
  const sx = (x & SIGN) >>> 0;
  let hx = x & ABS;
  let hy = y & ABS;
  if (hy <= FRAC) {
    const p = mul(x, y);
    return div(p, p);
  }
  if (hx < hy) return x; // |x| < |y| (an exponent-0 x included): x unchanged
  if (hx === hy) return sx; // |x| = |y|: a zero with x's sign
  // both are normal here (hx > hy ≥ 2^23)
  const ix = (hx >>> 23) - 127;
  let iy = (hy >>> 23) - 127;
  hx = (hx & FRAC) | 0x800000;
  hy = (hy & FRAC) | 0x800000;
  // long division: shift the dividend's significand left once per exponent step, subtracting y's
  for (let n = ix - iy; n > 0; n--) {
    const d = hx - hy;
    if (d < 0) hx += hx;
    else if (d === 0) return sx;
    else hx = d + d;
  }
  const d = hx - hy;
  if (d >= 0) hx = d;
  if (hx === 0) return sx;
  while (hx < 0x800000) {
    hx += hx;
    iy -= 1;
  }
  if (iy < -126) return fmodfTinyResult(sx, hx, iy);
  return (sx | (hx - 0x800000) | ((iy + 127) << 23)) >>> 0;
}

/**
 * fmodf's "subnormal output" branch (a remainder below 2^-126, possible when y has exponent 1): newlib
 * shifts the significand down into an exponent-0 pattern with x's sign. Its `x *= one` is folded away by
 * the compiler, so the pattern is returned as is — the EE reads it as a signed zero
 * (FMODF_TINY_RESULT_BITS in docs/formats/ee-float.md).
 */
function fmodfTinyResult(sx: number, hx: number, iy: number): number {
  return (sx | (hx >>> (-126 - iy))) >>> 0;
}

/** `sqrtf`: newlib's bit-by-bit root, rounded to nearest (see ee-float.ts). */
export const sqrtf = sqrtfNewlib;

/**
 * `(float)sqrt((double)x)` through newlib's double `sqrt` and the soft-float conversions, as the first two
 * volumes compute ground distances. The root of a float is never within a double ulp of a float midpoint,
 * so rounding to double and then to float equals rounding once: for a positive non-zero x this equals
 * `sqrtf(x)`. Exponent-0 input → +0 (sqrt of a zero); negative → +FMAX (the EE image of the NaN), a
 * convention that the callers (sums of squares) never reach.
 */
export function sqrtViaDouble(x: number): number {
  if ((x & 0x7f800000) === 0) return 0;
  if (x & SIGN) return ABS;
  return sqrtfNewlib(x);
}
