import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  TWO_OVER_PI_24,
  detAtan,
  detAtan2,
  detCos,
  detHypot3,
  detSin,
  detSqrt,
} from '../../src/numeric/det-math.js';

// Tests may use Math.* as the oracle: the engine's functions are accurate, just not guaranteed identical
// across engines, which is why the simulation cannot use them.

/** Seeded generator (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    let t = (s = (s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const view = new DataView(new ArrayBuffer(8));
/** A random positive double with a uniformly random exponent field (subnormals included). */
function randomDouble(next: () => number): number {
  view.setUint32(0, Math.floor(next() * 0x7ff) * 0x100000 + Math.floor(next() * 0x100000));
  view.setUint32(4, Math.floor(next() * 4294967296));
  return view.getFloat64(0);
}

/** The distance between two doubles in units in the last place of `want`. */
function ulps(got: number, want: number): number {
  if (got === want) return 0;
  const a = Math.abs(want);
  const ulp = a === 0 ? Number.MIN_VALUE : Math.max(Number.MIN_VALUE, 2 ** (Math.floor(Math.log2(a)) - 52));
  return Math.abs(got - want) / ulp;
}

describe('detSqrt', () => {
  it('equals Math.sqrt (correctly rounded) on 100,000 random doubles of every exponent', () => {
    const next = rng(1);
    const bad: string[] = [];
    for (let i = 0; i < 100_000 && bad.length < 5; i++) {
      const x = randomDouble(next);
      if (detSqrt(x) !== Math.sqrt(x)) bad.push(`${x}: ${detSqrt(x)} vs ${Math.sqrt(x)}`);
    }
    expect(bad).toEqual([]);
  });
  it('equals Math.sqrt on squares, neighbours of squares and integers (the rounding boundaries)', () => {
    const next = rng(2);
    const bad: string[] = [];
    for (let i = 0; i < 50_000 && bad.length < 5; i++) {
      const r = 1 + next();
      const sq = r * r;
      for (const x of [sq, sq * (1 + 2 ** -52), sq * (1 - 2 ** -53), Math.floor(next() * 2 ** 53), 4 - 2 ** -51 * (i % 7)]) {
        if (detSqrt(x) !== Math.sqrt(x)) bad.push(`${x}`);
      }
    }
    expect(bad).toEqual([]);
  });
  it('handles the special values', () => {
    expect(detSqrt(0)).toBe(0);
    expect(Object.is(detSqrt(-0), -0)).toBe(true);
    expect(detSqrt(-1)).toBeNaN();
    expect(detSqrt(NaN)).toBeNaN();
    expect(detSqrt(Infinity)).toBe(Infinity);
    expect(detSqrt(Number.MIN_VALUE)).toBe(Math.sqrt(Number.MIN_VALUE));
    expect(detSqrt(Number.MAX_VALUE)).toBe(Math.sqrt(Number.MAX_VALUE));
    expect(detSqrt(2)).toBe(Math.SQRT2);
    expect(detSqrt(144)).toBe(12);
  });
});

describe('detSin and detCos', () => {
  it('stay within 1 ulp of Math.sin/cos on 100,000 arguments in [−100, 100]', () => {
    const next = rng(3);
    let worst = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = (next() - 0.5) * 200;
      worst = Math.max(worst, ulps(detSin(x), Math.sin(x)), ulps(detCos(x), Math.cos(x)));
    }
    expect(worst).toBeLessThanOrEqual(1);
  });
  it('stay within 1 ulp across the medium range and beyond (up to 2^60)', () => {
    const next = rng(9);
    let worst = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = i % 2 === 0 ? (next() - 0.5) * 2e6 : (next() - 0.5) * 2 ** Math.floor(next() * 61);
      worst = Math.max(worst, ulps(detSin(x), Math.sin(x)), ulps(detCos(x), Math.cos(x)));
    }
    expect(worst).toBeLessThanOrEqual(1);
  });
  it('stay within 1e-16 absolute of Math.sin/cos for huge arguments (exact reduction)', () => {
    const next = rng(4);
    let worst = 0;
    for (let i = 0; i < 20_000; i++) {
      const x = (next() < 0.5 ? -1 : 1) * (1 + next()) * 2 ** Math.floor(next() * 1023);
      worst = Math.max(worst, Math.abs(detSin(x) - Math.sin(x)), Math.abs(detCos(x) - Math.cos(x)));
    }
    expect(worst).toBeLessThan(1.2e-16);
  });
  it('stay within 1 ulp near multiples of π/2 (cancellation in the reduction)', () => {
    let worst = 0;
    for (let n = -2000; n <= 2000; n++) {
      const x = (n * Math.PI) / 2;
      for (const d of [x, x * (1 + 2 ** -52), x * (1 - 2 ** -52)]) {
        worst = Math.max(worst, ulps(detSin(d), Math.sin(d)), ulps(detCos(d), Math.cos(d)));
      }
    }
    expect(worst).toBeLessThanOrEqual(1); // relative: sin(nπ) and cos((2n+1)π/2) are tiny
  });
  it('known values and special inputs', () => {
    expect(detSin(0)).toBe(0);
    expect(Object.is(detSin(-0), -0)).toBe(true);
    expect(detCos(0)).toBe(1);
    expect(detSin(Math.PI / 6)).toBeCloseTo(0.5, 15);
    expect(detCos(Math.PI / 3)).toBeCloseTo(0.5, 15);
    expect(detSin(Infinity)).toBeNaN();
    expect(detCos(-Infinity)).toBeNaN();
    expect(detSin(NaN)).toBeNaN();
  });
  it('sin is odd and cos even, bit for bit', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(detSin(-x)).toBe(-detSin(x));
        expect(detCos(-x)).toBe(detCos(x));
      }),
      { numRuns: 5000 },
    );
  });
  it('the 2/π table is 2/π (checked against an independent BigInt computation)', () => {
    const P = 1500n;
    const one = 1n << P;
    const atanInv = (n: bigint): bigint => {
      let sum = 0n;
      let term = one / n;
      let k = 1n;
      let sign = 1n;
      while (term !== 0n) {
        sum += (sign * term) / k;
        term /= n * n;
        k += 2n;
        sign = -sign;
      }
      return sum;
    };
    const pi = 16n * atanInv(5n) - 4n * atanInv(239n); // Machin
    const twoOverPi = (2n * one * one) / pi;
    const chunks = TWO_OVER_PI_24.map((_, k) => Number((twoOverPi >> (P - 24n * BigInt(k + 1))) & 0xffffffn));
    expect(Array.from(TWO_OVER_PI_24)).toEqual(chunks);
  });
});

describe('detAtan and detAtan2', () => {
  it('stay within 1 ulp of Math.atan2 on 100,000 random points of every scale', () => {
    const next = rng(5);
    let worst = 0;
    for (let i = 0; i < 100_000; i++) {
      const y = (next() - 0.5) * 2 ** Math.floor(next() * 40 - 20);
      const x = (next() - 0.5) * 2 ** Math.floor(next() * 40 - 20);
      worst = Math.max(worst, ulps(detAtan2(y, x), Math.atan2(y, x)));
    }
    expect(worst).toBeLessThanOrEqual(1);
  });
  it('atan within 1 ulp of Math.atan', () => {
    const next = rng(6);
    let worst = 0;
    for (let i = 0; i < 50_000; i++) {
      const x = (next() - 0.5) * 2 ** Math.floor(next() * 80 - 40);
      worst = Math.max(worst, ulps(detAtan(x), Math.atan(x)));
    }
    expect(worst).toBeLessThanOrEqual(1);
    expect(detAtan(1)).toBe(Math.PI / 4);
    expect(detAtan(Infinity)).toBe(Math.PI / 2);
    expect(detAtan(NaN)).toBeNaN();
  });
  it("follows C's conventions for zeros and infinities, like Math.atan2", () => {
    const specials = [0, -0, 1, -1, Infinity, -Infinity, 1e-310, -5e300];
    for (const y of specials) {
      for (const x of specials) {
        expect(Object.is(detAtan2(y, x), Math.atan2(y, x)) || ulps(detAtan2(y, x), Math.atan2(y, x)) <= 1).toBe(true);
      }
    }
    expect(detAtan2(NaN, 1)).toBeNaN();
    expect(detAtan2(1, NaN)).toBeNaN();
    expect(detAtan2(0, -1)).toBe(Math.PI);
    expect(detAtan2(-0, -1)).toBe(-Math.PI);
  });
});

describe('detHypot3', () => {
  it('is within 2 ulp of the exact length (BigInt-free check against Math.hypot, itself ≤ 1 ulp)', () => {
    const next = rng(7);
    let worst = 0;
    for (let i = 0; i < 50_000; i++) {
      const s = 2 ** Math.floor(next() * 200 - 100);
      const x = (next() - 0.5) * s;
      const y = (next() - 0.5) * s;
      const z = (next() - 0.5) * s * next();
      worst = Math.max(worst, ulps(detHypot3(x, y, z), Math.hypot(x, y, z)));
    }
    expect(worst).toBeLessThanOrEqual(2);
  });
  it('does not overflow or underflow', () => {
    expect(detHypot3(1e300, 1e300, 0)).toBeCloseTo(Math.SQRT2 * 1e300, -285);
    expect(detHypot3(3e-320, 4e-320, 0)).toBe(Math.hypot(3e-320, 4e-320));
    expect(detHypot3(3, 4, 12)).toBe(13);
    expect(detHypot3(-3, 0, -4)).toBe(5);
    expect(detHypot3(0, 0, 0)).toBe(0);
    expect(detHypot3(NaN, Infinity, 0)).toBe(Infinity);
    expect(detHypot3(NaN, 1, 0)).toBeNaN();
  });
});

describe('determinism', () => {
  it('the same inputs give the same bits on repeated calls, in any order', () => {
    const next = rng(8);
    const xs = Array.from({ length: 2000 }, () => (next() - 0.5) * 1e6);
    const first = xs.map((x) => [detSin(x), detCos(x), detAtan2(x, 3), detSqrt(Math.abs(x)), detHypot3(x, 1, 2)]);
    const again = [...xs].reverse().map((x) => [detSin(x), detCos(x), detAtan2(x, 3), detSqrt(Math.abs(x)), detHypot3(x, 1, 2)]);
    expect(again.reverse()).toEqual(first);
  });
});
