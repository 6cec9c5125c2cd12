import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FP12_SHIFT,
  ONE_FP12,
  ONE_X128,
  floatToFp12,
  floatToFp12Round,
  floatToX128,
  fp12ToFloat,
  mul64,
  mul64Result,
  mulFp12,
  mulFp12Trunc,
  x128ToFloat,
} from '../../src/numeric/fixed.js';

const i32 = fc.integer({ min: -0x80000000, max: 0x7fffffff });
const edge = fc.constantFrom(0, 1, -1, 0x7fffffff, -0x80000000, 4096, -4096, 0xffff, -0x10000);
const int = fc.oneof(i32, edge);

describe('scales', () => {
  it('4.12/20.12 and x128 constants', () => {
    expect(ONE_FP12).toBe(1 << FP12_SHIFT);
    expect(ONE_X128).toBe(128);
    expect(fp12ToFloat(4096)).toBe(1);
    expect(fp12ToFloat(-2048)).toBe(-0.5);
    expect(x128ToFloat(-384)).toBe(-3);
  });
  it('float → fixed truncates toward zero like a C cast; the writer variants round', () => {
    expect(floatToFp12(1.99999)).toBe(8191);
    expect(floatToFp12(-1.99999)).toBe(-8191);
    expect(floatToFp12Round(1.99999)).toBe(8192);
    expect(floatToX128(0.3)).toBe(38); // 38.4 → 38
    expect(floatToX128(-0.3)).toBe(-38);
    expect(floatToX128(1.5 / 128)).toBe(2);
  });
  it('round trips: every 4.12 value converts back exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: -0x8000, max: 0x7fff }), (v) => {
        expect(floatToFp12(fp12ToFloat(v))).toBe(v);
        expect(floatToFp12Round(fp12ToFloat(v))).toBe(v);
        expect(floatToX128(x128ToFloat(v))).toBe(v);
      }),
    );
  });
  it('bad floats give a defined integer, never an exception', () => {
    expect(floatToFp12(NaN)).toBe(0);
    expect(Number.isInteger(floatToFp12(Infinity))).toBe(true);
    expect(Number.isInteger(floatToX128(-Infinity))).toBe(true);
  });
});

describe('64-bit products', () => {
  it('mul64 gives the exact signed product as hi:lo', () => {
    fc.assert(
      fc.property(int, int, (a, b) => {
        mul64(a, b);
        const exact = BigInt(a) * BigInt(b);
        expect(mul64Result.hi).toBe(Number(BigInt.asIntN(32, exact >> 32n)));
        expect(mul64Result.lo).toBe(Number(BigInt.asUintN(32, exact)));
      }),
      { numRuns: 50_000 },
    );
  });
  it('mulFp12 shifts the exact product right arithmetically (floor), keeping 32 bits', () => {
    fc.assert(
      fc.property(int, int, (a, b) => {
        const exact = BigInt(a) * BigInt(b);
        expect(mulFp12(a, b)).toBe(Number(BigInt.asIntN(32, exact >> 12n)));
      }),
      { numRuns: 50_000 },
    );
    expect(mulFp12(4096, 4096)).toBe(4096);
    expect(mulFp12(-1, 1)).toBe(-1); // floor(−1/4096)
  });
  it('mulFp12Trunc divides the exact product by 4096 toward zero, keeping 32 bits', () => {
    fc.assert(
      fc.property(int, int, (a, b) => {
        const exact = BigInt(a) * BigInt(b);
        expect(mulFp12Trunc(a, b)).toBe(Number(BigInt.asIntN(32, exact / 4096n)));
      }),
      { numRuns: 50_000 },
    );
    expect(mulFp12Trunc(-1, 1)).toBe(0);
    expect(mulFp12Trunc(-6144, 4096)).toBe(-6144);
  });
});
