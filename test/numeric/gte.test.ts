import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VECTOR_NORMAL_RSQRT, VECTOR_NORMAL_TRAPPED, vectorNormal } from '../../src/numeric/gte.js';
import { crc32 } from '../../src/binary/crc32.js';

describe('VectorNormal reciprocal-square-root table', () => {
  it('has the sum and CRC-32 the reference sheet gives', () => {
    let sum = 0;
    for (const v of VECTOR_NORMAL_RSQRT) sum += v;
    expect(VECTOR_NORMAL_RSQRT.length).toBe(192);
    expect(sum).toBe(525222);
    const bytes = new Uint8Array(VECTOR_NORMAL_RSQRT.buffer.slice(0));
    expect(crc32(bytes)).toBe(0xac6bea58);
  });

  it('matches rows printed in the sheet', () => {
    expect(Array.from(VECTOR_NORMAL_RSQRT.subarray(0, 16))).toEqual([
      4096, 4064, 4033, 4003, 3973, 3944, 3916, 3888, 3861, 3835, 3809, 3783, 3758, 3734, 3710, 3686,
    ]);
    expect(Array.from(VECTOR_NORMAL_RSQRT.subarray(64, 80))).toEqual([
      2896, 2885, 2873, 2862, 2852, 2841, 2830, 2820, 2809, 2799, 2789, 2779, 2769, 2759, 2749, 2740,
    ]);
    expect(Array.from(VECTOR_NORMAL_RSQRT.subarray(176, 192))).toEqual([
      2115, 2110, 2106, 2102, 2097, 2093, 2089, 2084, 2080, 2076, 2072, 2068, 2064, 2060, 2056, 2052,
    ]);
  });

  it('is floor(sqrt(2^30 / n)) in exact integer terms', () => {
    for (let n = 64; n < 256; n++) {
      const v = VECTOR_NORMAL_RSQRT[n - 64]!;
      const q = Math.floor(2 ** 30 / n);
      expect(v * v <= q && (v + 1) * (v + 1) > q).toBe(true);
    }
  });
});

describe('vectorNormal: the 17 worked cases of the reference sheet', () => {
  const cases: [number, number, number, number, number, number, number][] = [
    [4096, 0, 0, 4096, 0, 0, 16777216],
    [1, 0, 0, 4096, 0, 0, 1],
    [-1, 0, 0, -4096, 0, 0, 1],
    [1, 1, 0, 2896, 2896, 0, 2],
    [1024, -1024, 0, 2896, -2896, 0, 2097152],
    [3, 4, 0, 2457, 3276, 0, 25],
    [-3, -4, 0, -2457, -3276, 0, 25],
    [100, 200, -300, 1097, 2194, -3292, 140000],
    [0, 0, 0, 0, 0, 0, 0],
    [65536, 0, 0, 0, 0, 0, 0],
    [32768, 0, 0, -4096, 0, 0, 1073741824],
    [40000, 0, 0, -4101, 0, 0, 652087296],
    [23170, 23170, 0, 2901, 2901, 0, 1073697800],
    [23171, 23170, 0, 2896, 2896, 0, 1073744141],
    [26754, 26754, 26754, 2373, 2373, 2373, 2147329548],
  ];
  for (const [x, y, z, ox, oy, oz, s] of cases) {
    it(`(${x}, ${y}, ${z}) → (${ox}, ${oy}, ${oz}), S = ${s}`, () => {
      const out = new Int32Array(3);
      expect(vectorNormal(x, y, z, out)).toBe(s);
      expect(Array.from(out)).toEqual([ox, oy, oz]);
    });
  }

  it('traps at the second add for (26755, 26755, 26755): zero vector', () => {
    const out = new Int32Array([7, 7, 7]);
    expect(vectorNormal(26755, 26755, 26755, out)).toBe(VECTOR_NORMAL_TRAPPED);
    expect(Array.from(out)).toEqual([0, 0, 0]);
  });
  it('traps at the first add for (-32768, -32768, 0): zero vector', () => {
    const out = new Int32Array([7, 7, 7]);
    expect(vectorNormal(-32768, -32768, 0, out)).toBe(VECTOR_NORMAL_TRAPPED);
    expect(Array.from(out)).toEqual([0, 0, 0]);
  });
});

describe('vectorNormal properties', () => {
  const s16 = fc.integer({ min: -32768, max: 32767 });
  it('depends only on the low 16 bits of each input', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer(), fc.integer(), (x, y, z) => {
        const a = new Int32Array(3);
        const b = new Int32Array(3);
        const ra = vectorNormal(x | 0, y | 0, z | 0, a);
        const rb = vectorNormal((x << 16) >> 16, (y << 16) >> 16, (z << 16) >> 16, b);
        return ra === rb && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
      }),
    );
  });
  it('returns the squared length and a vector of length 4096 within 1%, unless it traps', () => {
    fc.assert(
      fc.property(s16, s16, s16, (x, y, z) => {
        const out = new Int32Array(3);
        const s = vectorNormal(x, y, z, out);
        const exact = x * x + y * y + z * z;
        const partial = x * x + y * y;
        if (partial > 0x7fffffff || exact > 0x7fffffff) return s === VECTOR_NORMAL_TRAPPED;
        if (s !== exact) return false;
        if (exact === 0) return out[0] === 0 && out[1] === 0 && out[2] === 0;
        const len2 = out[0]! * out[0]! + out[1]! * out[1]! + out[2]! * out[2]!;
        return len2 > 4096 * 4096 * 0.98 && len2 < 4096 * 4096 * 1.02;
      }),
    );
  });
  it('keeps each component sign (a zero stays zero)', () => {
    fc.assert(
      fc.property(s16, s16, s16, (x, y, z) => {
        const out = new Int32Array(3);
        if (vectorNormal(x, y, z, out) === VECTOR_NORMAL_TRAPPED) return true;
        const ok = (i: number, v: number) => Math.sign(out[i]!) === Math.sign(v) || (v !== 0 && out[i] === -1 && v < 0) || (v > 0 && out[i] === 0);
        return ok(0, x) && ok(1, y) && ok(2, z);
      }),
    );
  });
});
