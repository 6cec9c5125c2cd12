import { describe, expect, it } from 'vitest';
import { FieldRand } from '../../../src/rng/fieldrand.js';
import {
  eeAdd, eeDiv, eeFromInt, eeMul, eeSqrt, eeSub, eeToInt, eeCompareLt, sqrtfNewlib,
} from '../../../src/numeric/ee-float.js';
import { fractal2 } from '../../../src/worlds/piney/fractal2.js';
import { initDrawCount } from '../../../src/worlds/piney/generate.js';
import { objectCount } from '../../../src/worlds/piney/objects.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** The nearest float32's bits, as a C compiler writes a float constant. */
const bits = (x: number): number => ((f32[0] = x), u32[0]!);
const hex = (v: number) => '0x' + (v >>> 0).toString(16).padStart(8, '0');

describe('fieldrand vectors (reference 1.1)', () => {
  const steps = (seed: number, n: number) => {
    const r = new FieldRand(seed);
    return Array.from({ length: n }, () => r.step());
  };
  it('raw steps from 1420855, 12345, 0 and 0xFFFFFFFF', () => {
    expect(steps(1420855, 6)).toEqual([154874216, 3996388677, 1814669918, 230526467, 3652549444, 2990899185]);
    expect(steps(12345, 6)).toEqual([1346626, 146783255, 3114473928, 175242789, 1921595838, 3295517155]);
    expect(steps(0, 3)).toEqual([1021, 112310, 12242811]);
    expect(steps(0xffffffff, 3)).toEqual([912, 100429, 10947782]);
  });
  it('fieldrand(64) from 1420855 gives the first four heights 40, 5, 30, 3', () => {
    const r = new FieldRand(1420855);
    expect([0, 1, 2, 3].map(() => r.rand(64))).toEqual([40, 5, 30, 3]);
  });
});

describe('WORLD::Init draw table (reference 2.1)', () => {
  const tables = defaultPineyTables();
  it('every type and weather follows the rule: type 0 112; types 5, 6 700 / 1600 from weather 4; +21 for 2, 3, 5, 6', () => {
    for (let t = 0; t <= 10; t++) {
      for (let w = 0; w <= 9; w++) {
        let expected = t === 0 ? 112 : 0;
        if (t === 5 || t === 6) expected = w >= 4 ? 1600 : 700;
        if (t === 2 || t === 3 || t === 5 || t === 6) expected += 21;
        expect(initDrawCount(tables, t, w), `type ${t} weather ${w}`).toBe(expected);
      }
    }
  });
  it('the repo asserts (0,0) 112, (2,9) 21, (5,3) 721, (6,4) 1621 and (4,0) + (7,0) + (10,9) = 0', () => {
    expect(initDrawCount(tables, 0, 0)).toBe(112);
    expect(initDrawCount(tables, 2, 9)).toBe(21);
    expect(initDrawCount(tables, 5, 3)).toBe(721);
    expect(initDrawCount(tables, 6, 4)).toBe(1621);
    expect(initDrawCount(tables, 4, 0) + initDrawCount(tables, 7, 0) + initDrawCount(tables, 10, 9)).toBe(0);
  });
  it('a background row above 9 counts as 9', () => {
    expect(initDrawCount(tables, 5, 42)).toBe(1621);
  });
});

describe('object counts (reference 2.10)', () => {
  const tables = defaultPineyTables();
  const row = (t: number, o: number) => (['key', 'sub', 'base', 'tree'] as const).map((k) => objectCount(tables, t, k, o));
  it('matches the full table for every type and object setting', () => {
    for (const t of [0, 2, 3, 4, 5, 6, 8, 9, 10]) {
      expect(row(t, 0)).toEqual([16, 24, 28, 28]);
      expect(row(t, 1)).toEqual([17, 26, 31, 31]);
      expect(row(t, 2)).toEqual([20, 30, 35, 35]);
    }
    expect(row(1, 0)).toEqual([16, 24, 28, 4]);
    expect(row(1, 1)).toEqual([17, 26, 31, 4]);
    expect(row(1, 2)).toEqual([20, 30, 35, 5]);
    expect(row(7, 0)).toEqual([8, 24, 8, 13]);
    expect(row(7, 1)).toEqual([8, 26, 9, 15]);
    expect(row(7, 2)).toEqual([10, 30, 11, 17]);
  });
  it('20 × 0.9f truncates to 17 (not 18) and the factor is the bits of 0.8f / 0.9f', () => {
    expect(objectCount(tables, 0, 'key', 1)).toBe(17);
    expect(tables.percent[0]).toBe(bits(0.8));
    expect(tables.percent[1]).toBe(bits(0.9));
  });
  it('an object setting outside 0–2 counts as 1.0', () => {
    expect(objectCount(tables, 0, 'key', 7)).toBe(20);
    expect(objectCount(tables, 0, 'key', -1)).toBe(20);
  });
});

describe('EE unit vectors (reference 3.1)', () => {
  const one = bits(1);
  const tiny = bits(2 ** -24);
  const FMAX = 0x7fffffff;
  it('truncating add, sub, mul, div', () => {
    expect(eeAdd(one, tiny)).toBe(one);
    expect(hex(eeSub(one, tiny))).toBe('0x3f7fffff');
    expect(hex(eeDiv(one, bits(3)))).toBe('0x3eaaaaaa');
    expect(hex(eeDiv(bits(-1), bits(3)))).toBe('0xbeaaaaaa');
    expect(hex(eeMul(0x3f800001, 0x3f800001))).toBe('0x3f800002');
    expect(eeAdd(bits(1e30), one)).toBe(bits(1e30));
    expect(eeSub(bits(1e30), one)).toBe(bits(1e30) - 1);
    expect(eeAdd(bits(-1e30), one)).toBe(bits(-1e30) - 1);
    expect(hex(eeSub(0x70000000, one))).toBe('0x6fffffff');
  });
  it('no denormals, saturation, division by zero, exponent 255', () => {
    expect(eeAdd(0x00000001, one)).toBe(one);
    expect(eeMul(0x1234, one)).toBe(0);
    expect(eeMul(0x00800000, 0x00800000)).toBe(0);
    expect(hex(eeMul(0x80800000, 0x00800000))).toBe('0x80000000');
    expect(eeMul(0x7f000000, 0x7f000000)).toBe(FMAX);
    expect(hex(eeDiv(bits(-2), 0))).toBe('0xffffffff');
    expect(eeDiv(0, 0)).toBe(FMAX);
    expect(eeSub(0x7f800000, 0x7f800000)).toBe(0);
    expect(hex(eeAdd(0x80000000, 0x80000000))).toBe('0x80000000');
    expect(eeAdd(0x80000000, 0)).toBe(0);
    expect(eeCompareLt(0x7f7fffff, 0x7f800000)).toBe(true);
  });
  it('conversions', () => {
    expect(eeToInt(bits(27.99))).toBe(27);
    expect(eeToInt(bits(-27.99))).toBe(-27);
    expect(eeToInt(bits(3e9))).toBe(2147483647);
    expect(eeToInt(bits(-3e9))).toBe(-2147483648);
    expect(eeToInt(bits(0.5))).toBe(0);
    expect(eeToInt(0x80000000)).toBe(0);
    expect(eeFromInt(0x01000001)).toBe(bits(16777216));
    expect(hex(eeFromInt(-2147483648))).toBe('0xcf000000');
  });
  it('square roots: sqrtf rounds, sqrt.s truncates', () => {
    for (const f of [sqrtfNewlib, eeSqrt]) {
      expect(f(bits(4))).toBe(bits(2));
      expect(hex(f(bits(2)))).toBe('0x3fb504f3');
      expect(hex(f(bits(3)))).toBe('0x3fddb3d7');
    }
    expect(eeSqrt(bits(-4))).toBe(bits(2));
    expect(hex(sqrtfNewlib(bits(5)))).toBe('0x400f1bbd');
    expect(hex(eeSqrt(bits(5)))).toBe('0x400f1bbc');
    expect(sqrtfNewlib(0x00000005)).toBe(0x00000005);
  });
});

describe('FRACTAL2 (reference 2.5)', () => {
  it('Fractal(10) from fieldrand seed 1 gives the reference intermediate hill[0..9] and draws 25', () => {
    const r = new FieldRand(1);
    const hill = fractal2(r, 10);
    expect([...hill.subarray(0, 10)].map(hex)).toEqual([
      '0x438be000', '0x43ce6000', '0x43872000', '0x42b58000', '0x42c92aaa',
      '0x4310c000', '0x43053000', '0x42d1d556', '0x42902002', '0x423b0000',
    ]);
    expect(r.count).toBe(25);
  });
  it('never leaves a negative height, and the last cell is the last key (a spline passes through its keys)', () => {
    for (let seed = 0; seed < 40; seed++) {
      const size = 10 + (seed % 20);
      const hill = fractal2(new FieldRand(seed), size);
      for (const h of hill) expect(h < 0x80800000 || h === 0x80000000, hex(h)).toBe(true);
      // Frame `size` of row 4 is key 4 exactly (t = 0), and so is frame `size` of the last column.
      const r = new FieldRand(seed);
      let last = 0;
      for (let k = 0; k < 25; k++) last = r.rand(k < 5 || k >= 20 || k % 5 === 0 || k % 5 === 4 ? 128 : 768);
      expect(hill[size * size - 1]).toBe(eeFromInt(last));
    }
  });
});
