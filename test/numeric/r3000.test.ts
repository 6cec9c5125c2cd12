import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  add32,
  addTrap,
  div32,
  divPow2,
  irSat,
  lzcr,
  mul32,
  rem32,
  s16,
  s8,
  slt,
  sltu,
  sra,
  srl,
  sub32,
  u16,
  u8,
} from '../../src/numeric/r3000.js';

// BigInt is the oracle: exact integers, then the instruction's rule.
const i32 = fc.integer({ min: -0x80000000, max: 0x7fffffff });
const wrap = (v: bigint): number => Number(BigInt.asIntN(32, v));

describe('R3000 arithmetic', () => {
  it('mult/mflo, addu, subu wrap to 32 bits', () => {
    fc.assert(
      fc.property(i32, i32, (a, b) => {
        expect(mul32(a, b)).toBe(wrap(BigInt(a) * BigInt(b)));
        expect(add32(a, b)).toBe(wrap(BigInt(a) + BigInt(b)));
        expect(sub32(a, b)).toBe(wrap(BigInt(a) - BigInt(b)));
      }),
      { numRuns: 20_000 },
    );
    expect(mul32(0x10000, 0x10000)).toBe(0);
    expect(mul32(0x7fffffff, 2)).toBe(-2);
    expect(add32(0x7fffffff, 1)).toBe(-0x80000000);
  });
  it('div rounds toward zero, the remainder takes the dividend sign', () => {
    fc.assert(
      fc.property(i32, i32, (a, b) => {
        fc.pre(b !== 0);
        expect(div32(a, b)).toBe(wrap(BigInt(a) / BigInt(b))); // BigInt division truncates
        expect(rem32(a, b)).toBe(wrap(BigInt(a) % BigInt(b)));
      }),
      { numRuns: 20_000 },
    );
    expect(div32(-7, 2)).toBe(-3);
    expect(rem32(-7, 2)).toBe(-1);
    expect(div32(7, -2)).toBe(-3);
    expect(rem32(7, -2)).toBe(1);
  });
  it('div edge cases: INT_MIN / −1 and a zero divisor give the hardware values', () => {
    expect(div32(-0x80000000, -1)).toBe(-0x80000000);
    expect(rem32(-0x80000000, -1)).toBe(0);
    expect(div32(5, 0)).toBe(-1);
    expect(div32(0, 0)).toBe(-1);
    expect(div32(-5, 0)).toBe(1);
    expect(rem32(-5, 0)).toBe(-5);
  });
  it('sra floors, srl is logical, divPow2 truncates like C', () => {
    fc.assert(
      fc.property(i32, fc.integer({ min: 0, max: 31 }), (a, n) => {
        const exact = BigInt(a);
        const p = 1n << BigInt(n);
        const floor = exact >= 0n ? exact / p : -((-exact + p - 1n) / p);
        expect(sra(a, n)).toBe(Number(floor));
        expect(srl(a, n)).toBe(Number(BigInt.asUintN(32, exact) >> BigInt(n)));
        expect(divPow2(a, n)).toBe(Number(exact / p));
      }),
      { numRuns: 20_000 },
    );
    expect(sra(-1, 4)).toBe(-1);
    expect(divPow2(-1, 4)).toBe(0);
    expect(divPow2(-17, 4)).toBe(-1);
    expect(srl(-1, 28)).toBe(15);
  });
  it('loads sign- or zero-extend', () => {
    expect(s8(0x80)).toBe(-128);
    expect(s8(0x17f)).toBe(127);
    expect(u8(-1)).toBe(255);
    expect(s16(0x8000)).toBe(-32768);
    expect(s16(0x12347fff)).toBe(32767);
    expect(u16(-1)).toBe(0xffff);
    fc.assert(
      fc.property(i32, (v) => {
        expect(s16(v)).toBe(Number(BigInt.asIntN(16, BigInt(v))));
        expect(s8(v)).toBe(Number(BigInt.asIntN(8, BigInt(v))));
      }),
    );
  });
  it('slt is signed, sltu unsigned', () => {
    expect(slt(-1, 0)).toBe(1);
    expect(sltu(-1, 0)).toBe(0);
    expect(sltu(0, -1)).toBe(1);
    fc.assert(
      fc.property(i32, i32, (a, b) => {
        expect(slt(a, b)).toBe(a < b ? 1 : 0);
        expect(sltu(a, b)).toBe(a >>> 0 < b >>> 0 ? 1 : 0);
      }),
    );
  });
  it('the trapping add reports overflow as NaN', () => {
    expect(addTrap(0x7fffffff, 1)).toBeNaN();
    expect(addTrap(-0x80000000, -1)).toBeNaN();
    expect(addTrap(0x7ffffffe, 1)).toBe(0x7fffffff);
    fc.assert(
      fc.property(i32, i32, (a, b) => {
        const s = a + b;
        if (s > 0x7fffffff || s < -0x80000000) expect(addTrap(a, b)).toBeNaN();
        else expect(addTrap(a, b)).toBe(s);
      }),
    );
  });
});

describe('GTE', () => {
  it('LZCR counts the leading bits equal to the sign bit', () => {
    const count = (v: number): number => {
      const sign = (v >>> 31) & 1;
      let n = 0;
      for (let bit = 31; bit >= 0 && ((v >>> bit) & 1) === sign; bit--) n++;
      return n;
    };
    expect(lzcr(0)).toBe(32);
    expect(lzcr(-1)).toBe(32);
    expect(lzcr(1)).toBe(31);
    expect(lzcr(-0x80000000)).toBe(1);
    expect(lzcr(0x7fffffff)).toBe(1);
    expect(lzcr(-2)).toBe(31);
    fc.assert(
      fc.property(i32, (v) => {
        expect(lzcr(v)).toBe(count(v));
      }),
    );
  });
  it('IR registers saturate to the signed 16-bit range (lm = 0)', () => {
    expect(irSat(0x8000)).toBe(0x7fff);
    expect(irSat(-0x8001)).toBe(-0x8000);
    expect(irSat(-0x8000)).toBe(-0x8000);
    expect(irSat(1234)).toBe(1234);
    fc.assert(
      fc.property(i32, (v) => {
        const r = irSat(v);
        expect(r).toBe(Math.min(0x7fff, Math.max(-0x8000, v)));
      }),
    );
  });
});
