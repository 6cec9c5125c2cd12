import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  NPIO2_HW,
  PIO2_CHUNKS,
  TWO_OVER_PI_BYTES,
  atan2f,
  atanf,
  cosf,
  fabsf,
  fmodf,
  reduced,
  remPio2f,
  sinf,
  sqrtViaDouble,
  sqrtf,
  tanf,
} from '../../src/numeric/libm-ee.js';
import { EE_ONE, eeFromNumber, eeToNumber } from '../../src/numeric/ee-float.js';
import { PatternGen } from './ee-reference-model.js';

// The oracle here is the engine's double-precision Math.*, far more accurate than a float routine.

const hex = (v: number): string => '0x' + (v >>> 0).toString(16).padStart(8, '0');
/** IEEE float32 bits (round to nearest), for writing operands. */
function f32(x: number): number {
  const v = new DataView(new ArrayBuffer(4));
  v.setFloat32(0, x);
  return v.getUint32(0);
}
/** The spacing of floats at |v| (2^-149 below the normal range). */
function ulpf(v: number): number {
  const a = Math.abs(v);
  return a < 2 ** -126 ? 2 ** -149 : 2 ** (Math.floor(Math.log2(a)) - 23);
}
const errUlps = (got: number, want: number): number => Math.abs(eeToNumber(got) - want) / ulpf(want);

/** Every float on a grid of `count` points over [lo, hi]. */
function grid(lo: number, hi: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => f32(lo + ((hi - lo) * i) / (count - 1)));
}

describe('reference vectors', () => {
  it('the values the reference sheets and the port assert', () => {
    expect(hex(atan2f(0, f32(-1)))).toBe('0x40490fda'); // atan2(+0, −1) = pi (the float below π)
    expect(hex(atan2f(0x80000000, f32(-1)))).toBe('0xc0490fda');
    expect(hex(atan2f(f32(2), 0))).toBe('0x3fc90fdb'); // atan2(2, 0) = π/2
    expect(hex(atan2f(f32(-2), 0x00001234))).toBe('0xbfc90fdb'); // exponent-0 x is zero
    expect(hex(atan2f(0x80000000, f32(3)))).toBe('0x80000000'); // atan2(−0, +x) = −0, bits kept
    expect(sinf(0)).toBe(0);
    expect(hex(sinf(0x80000000))).toBe('0x80000000');
    expect(cosf(0)).toBe(EE_ONE);
    expect(tanf(0)).toBe(0);
    expect(atanf(0)).toBe(0);
    for (const [x, y] of [
      [10.5, 3],
      [-10.5, 3],
      [7.25, 0.5],
      [1, 3],
      [1234.5678, 0.37],
      [3, 3],
    ] as const) {
      expect(eeToNumber(fmodf(f32(x), f32(y)))).toBe(Math.fround(x) % Math.fround(y));
    }
  });
  it('npio2_hw holds the high 24 bits of the nearest float to n·π/2', () => {
    for (let n = 1; n <= 32; n++) {
      expect(hex(NPIO2_HW[n - 1]!)).toBe(hex(f32((n * Math.PI) / 2) & 0xffffff00));
    }
  });
  it('two_over_pi and PIo2 of the Payne–Hanek kernel are 2/π and π/2 (independent BigInt computation)', () => {
    const P = 700n;
    const one = 1n << P;
    const atanInv = (n: bigint): bigint => {
      let sum = 0n;
      let term = one / n;
      for (let k = 1n, sign = 1n; term !== 0n; k += 2n, sign = -sign) {
        sum += (sign * term) / k;
        term /= n * n;
      }
      return sum;
    };
    const pi = 16n * atanInv(5n) - 4n * atanInv(239n); // Machin's formula, P fraction bits
    const twoOverPi = (2n * one * one) / pi;
    const bytes = Array.from(TWO_OVER_PI_BYTES, (_, k) => Number((twoOverPi >> (P - 8n * BigInt(k + 1))) & 0xffn));
    expect(Array.from(TWO_OVER_PI_BYTES)).toEqual(bytes);
    // PIo2[k] = the k-th 8-bit piece of π/2 = 1.1001001 00001111 …
    const halfPi = pi / 2n;
    PIO2_CHUNKS.forEach((bits, k) => {
      const piece = Number((halfPi >> (P - 7n - 8n * BigInt(k))) & 0xffn);
      expect(eeToNumber(bits)).toBe(piece * 2 ** (-8 * k - 7));
    });
  });
  it('the constants of the routines are the floats they stand for', () => {
    // a few spot checks that a constant was not mistyped: π/2 and π from atan2f, π/4 from tanf
    expect(eeToNumber(atan2f(f32(1), 0))).toBe(Math.fround(Math.PI / 2));
    expect(Math.abs(eeToNumber(atanf(EE_ONE)) - Math.PI / 4)).toBeLessThan(1e-7);
    expect(Math.abs(eeToNumber(tanf(f32(Math.PI / 4))) - 1)).toBeLessThan(2.5e-7);
  });
});

describe('accuracy against the true functions', () => {
  const xs = grid(-200, 200, 200_001);
  it('sinf, cosf within 2 ulp on [−200, 200] (the Cody–Waite range)', () => {
    let worst = 0;
    for (const x of xs) {
      const v = eeToNumber(x);
      worst = Math.max(worst, errUlps(sinf(x), Math.sin(v)), errUlps(cosf(x), Math.cos(v)));
    }
    expect(worst).toBeLessThanOrEqual(2);
  });
  it('tanf within 2 ulp on [−200, 200]', () => {
    let worst = 0;
    for (const x of xs) worst = Math.max(worst, errUlps(tanf(x), Math.tan(eeToNumber(x))));
    expect(worst).toBeLessThanOrEqual(2);
  });
  it('atanf within 2 ulp, atan2f within 3 ulp (the quotient is truncated first)', () => {
    const gen = new PatternGen(21);
    let worstAtan = 0;
    let worstAtan2 = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = f32((gen.u32() / 4294967296 - 0.5) * 2 ** (gen.int(60) - 30));
      const y = f32((gen.u32() / 4294967296 - 0.5) * 2 ** (gen.int(60) - 30));
      worstAtan = Math.max(worstAtan, errUlps(atanf(x), Math.atan(eeToNumber(x))));
      worstAtan2 = Math.max(worstAtan2, errUlps(atan2f(y, x), Math.atan2(eeToNumber(y), eeToNumber(x))));
    }
    expect(worstAtan).toBeLessThanOrEqual(2);
    expect(worstAtan2).toBeLessThanOrEqual(3);
  });
  it('sinf, cosf for large arguments (beyond 2^7·π/2, up to the top of the EE range): Payne–Hanek', () => {
    // newlib's kernel decides "fraction ≥ ½" with iq >> 8 when q0 = 0 (exponents 142, 150, …: e0 = 8k):
    // those reductions can leave a remainder in (π/4, π/2), beyond the kernels' design interval, so a small
    // result may be off by more than 2 ulp (the absolute error stays at float level).
    const gen = new PatternGen(22);
    let worst = 0;
    let worstQ0ZeroAbs = 0;
    let q0ZeroBeyond2Ulp = 0;
    for (let i = 0; i < 50_000; i++) {
      const exponent = 135 + gen.int(121);
      const x = ((gen.int(2) ? 0x80000000 : 0) | (exponent << 23) | (gen.u32() & 0x7fffff)) >>> 0;
      const v = eeToNumber(x);
      const e0 = exponent - 134;
      const ulpErr = Math.max(errUlps(sinf(x), Math.sin(v)), errUlps(cosf(x), Math.cos(v)));
      if (e0 >= 8 && e0 % 8 === 0) {
        const abs = Math.max(Math.abs(eeToNumber(sinf(x)) - Math.sin(v)), Math.abs(eeToNumber(cosf(x)) - Math.cos(v)));
        worstQ0ZeroAbs = Math.max(worstQ0ZeroAbs, abs);
        if (ulpErr > 2) q0ZeroBeyond2Ulp++;
      } else {
        worst = Math.max(worst, ulpErr);
      }
    }
    expect(worst).toBeLessThanOrEqual(2);
    expect(worstQ0ZeroAbs).toBeLessThan(2e-7);
    expect(q0ZeroBeyond2Ulp).toBeGreaterThan(0); // the quirk is really there
  });
  it('the medium reduction leaves x − n·π/2 to float precision, near multiples of π/2 too', () => {
    for (let n = -127; n <= 127; n++) {
      if (n === 0) continue;
      const near = f32((n * Math.PI) / 2);
      for (const x of [near, near + 1, near - 1]) {
        // the float nearest n·π/2 and its two neighbours (adjacent bit patterns)
        if (Math.abs(eeToNumber(x)) <= Math.PI / 4) continue;
        const k = remPio2f(x);
        const rest = eeToNumber(reduced.y0) + eeToNumber(reduced.y1);
        const exact = eeToNumber(x) - (k * Math.PI) / 2;
        expect(Math.abs(rest - exact)).toBeLessThanOrEqual(Math.abs(exact) * 2 ** -20 + 1e-13);
        expect(Math.abs(eeToNumber(reduced.y0))).toBeLessThanOrEqual(Math.PI / 4 + 1e-6);
      }
    }
  });
});

describe('symmetry and determinism', () => {
  const pattern = fc.integer({ min: 0, max: 0xffffffff });
  it('sin, tan and atan are odd and cos even, bit for bit (truncation is symmetric)', () => {
    fc.assert(
      fc.property(pattern, (x) => {
        const n = (x ^ 0x80000000) >>> 0;
        expect(hex(sinf(n))).toBe(hex(sinf(x) ^ 0x80000000));
        expect(hex(cosf(n))).toBe(hex(cosf(x)));
        expect(hex(tanf(n))).toBe(hex(tanf(x) ^ 0x80000000));
        expect(hex(atanf(n))).toBe(hex(atanf(x) ^ 0x80000000));
      }),
      { numRuns: 20_000 },
    );
  });
  it('the same input gives the same bits every time, whatever was computed in between', () => {
    const gen = new PatternGen(23);
    const xs = Array.from({ length: 5000 }, () => gen.pattern());
    const run = (list: number[]): number[][] => list.map((x) => [sinf(x), cosf(x), tanf(x), atan2f(x, 0x3f000000), fmodf(x, 0x44160000)]);
    const first = run(xs);
    const backwards = run([...xs].reverse()).reverse();
    expect(backwards).toEqual(first);
  });
  it('results are always well-formed patterns, for any input (exponent 255 and 0 included)', () => {
    fc.assert(
      fc.property(pattern, pattern, (x, y) => {
        for (const r of [sinf(x), cosf(x), tanf(x), atanf(x), atan2f(y, x), fmodf(x, y), sqrtf(x)]) {
          expect(Number.isInteger(r) && r >= 0 && r <= 0xffffffff).toBe(true);
        }
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('fmodf', () => {
  it('is the exact remainder with the sign of x on 100,000 generated pairs', () => {
    const gen = new PatternGen(24);
    const bad: string[] = [];
    for (let i = 0; i < 100_000 && bad.length < 5; i++) {
      const x = gen.pattern();
      const y = gen.partner(x);
      if (((y >>> 23) & 0xff) === 0 || ((x >>> 23) & 0xff) === 0) continue; // the special cases below
      const r = eeToNumber(x) % eeToNumber(y); // exact in doubles
      const got = fmodf(x, y);
      if (Math.abs(r) < 2 ** -126) {
        // below the range: an exponent-0 pattern (the EE's zero) with x's sign, holding r's bits
        const ok = (got & 0x7f800000) === 0 && got >>> 31 === x >>> 31 && (got & 0x7fffff) * 2 ** -149 === Math.abs(r);
        if (!ok) bad.push(`${hex(x)} % ${hex(y)}: ${hex(got)} for the tiny remainder ${r}`);
        continue;
      }
      const want = eeFromNumber(r);
      if (got !== want) bad.push(`${hex(x)} % ${hex(y)}: ${hex(got)} want ${hex(want)}`);
    }
    expect(bad).toEqual([]);
  });
  it('zero divisor: (x·y)/(x·y) under the EE rules = +FMAX; exponent-0 x: returned unchanged', () => {
    expect(hex(fmodf(f32(5), 0))).toBe('0x7fffffff');
    expect(hex(fmodf(f32(-5), 0x80000000))).toBe('0x7fffffff');
    expect(hex(fmodf(0x80001234, f32(3)))).toBe('0x80001234');
    expect(hex(fmodf(f32(-6), f32(3)))).toBe('0x80000000');
    expect(fabsf(0xbf800000)).toBe(0x3f800000);
  });
});

describe('square roots', () => {
  it('sqrtf is the rounded root; sqrtViaDouble equals (float)sqrt((double)x) for positive values', () => {
    const gen = new PatternGen(25);
    for (let i = 0; i < 20_000; i++) {
      const x = gen.pattern() & 0x7fffffff;
      if (x >>> 23 === 0 || x >>> 23 === 255) continue; // outside IEEE float32's normal range
      const want = f32(Math.sqrt(eeToNumber(x)));
      expect(hex(sqrtf(x))).toBe(hex(want));
      expect(hex(sqrtViaDouble(x))).toBe(hex(want));
    }
    expect(sqrtViaDouble(0x80000000)).toBe(0);
    expect(sqrtViaDouble(0x00000005)).toBe(0);
    expect(hex(sqrtViaDouble(f32(-4)))).toBe('0x7fffffff');
    expect(hex(sqrtViaDouble(f32(5)))).toBe('0x400f1bbd');
  });
});
