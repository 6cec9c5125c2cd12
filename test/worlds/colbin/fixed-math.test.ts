import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { crossGte, crossed, isqrt, mulFx, normalizeFp12, normalized } from '../../../src/worlds/colbin/fixed-math.js';

/** Reference FixedPoint<12> multiply in BigInt: C division truncates toward zero, then int32. */
const mulRef = (a: number, b: number): number => Number(BigInt.asIntN(32, (BigInt(a) * BigInt(b)) / 4096n));

describe('COLBIN fixed-point arithmetic', () => {
  it('mulFx truncates toward zero like psyqo FixedPoint<12> (64-bit product, /4096)', () => {
    expect(mulFx(4096, 4096)).toBe(4096);
    expect(mulFx(-1, 1)).toBe(0); // −1/4096 truncates to 0, where >> 12 would give −1
    expect(mulFx(-4097, 1)).toBe(-1);
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (a, b) => {
        expect(mulFx(a, b)).toBe(mulRef(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it('isqrt is the exact floor square root below 2^53', () => {
    for (const n of [0, 1, 2, 3, 4, 15, 16, 17, 4095, 4096, 2 ** 32 - 1, 2 ** 32, 2 ** 52, 2 ** 53 - 1]) {
      const r = BigInt(isqrt(n));
      expect(r * r <= BigInt(n) && (r + 1n) * (r + 1n) > BigInt(n)).toBe(true);
    }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        const r = BigInt(isqrt(n));
        expect(r * r <= BigInt(n)).toBe(true);
        expect((r + 1n) * (r + 1n) > BigInt(n)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('crossGte is the GTE outer product: 16-bit operands, >> 12 rounding toward −∞', () => {
    crossGte(4096, 0, 0, 0, 4096, 0);
    expect(Array.from(crossed)).toEqual([0, 0, 4096]);
    // (1,0,0)·small × (0,−1,0)·small: −1·1 / 4096 floors to −1, not 0
    crossGte(1, 0, 0, 0, 1, 0);
    expect(Array.from(crossed)).toEqual([0, 0, 0]);
    crossGte(1, 0, 0, 0, -1, 0);
    expect(Array.from(crossed)).toEqual([0, 0, -1]);
    // only the low 16 bits of each operand reach the GTE
    crossGte(4096 + 65536, 0, 0, 0, 4096, 0);
    expect(Array.from(crossed)).toEqual([0, 0, 4096]);
  });

  it('normalizeFp12: degenerate vectors give (0, 0, 4096); others have length 4096 within truncation', () => {
    normalizeFp12(0, 0, 0);
    expect(Array.from(normalized)).toEqual([0, 0, 4096]);
    normalizeFp12(60, 0, 0); // 60·60/4096 truncates to 0: psyqo's "square ≤ 1" rule
    expect(Array.from(normalized)).toEqual([0, 0, 4096]);
    // square = trunc(9e6/4096) + trunc(16e6/4096) = 2197 + 3906 = 6103; len = isqrt(6103·4096) = 4999
    normalizeFp12(3000, 0, 4000);
    expect(Array.from(normalized)).toEqual([2458, 0, 3277]);
    // short vectors lose precision in the FixedPoint square, as psyqo's do: square 21 + 39 = 60, len 495
    normalizeFp12(300, 0, 400);
    expect(Array.from(normalized)).toEqual([2482, 0, 3309]);
    fc.assert(
      fc.property(fc.integer({ min: -20000, max: 20000 }), fc.integer({ min: -20000, max: 20000 }), fc.integer({ min: -20000, max: 20000 }), (x, y, z) => {
        fc.pre(x * x + y * y + z * z > 2048 * 2048);
        normalizeFp12(x, y, z);
        const [a, b, c] = normalized;
        const len2 = a! * a! + b! * b! + c! * c!;
        expect(len2).toBeLessThanOrEqual(4105 * 4105);
        expect(len2).toBeGreaterThanOrEqual(4085 * 4085);
        // same direction: each component has the sign of the input
        expect(Math.sign(a!) === Math.sign(x) || a === 0).toBe(true);
        expect(Math.sign(c!) === Math.sign(z) || c === 0).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
