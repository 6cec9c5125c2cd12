import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { floatBits } from '../../src/binary/float-bits.js';

describe('floatBits', () => {
  it("is the array's own memory as u32 words, at any offset (property)", () => {
    let runs = 0;
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 12 }), fc.nat(4), (words, skip) => {
        fc.pre(skip <= words.length);
        const all = new Float32Array(Uint32Array.from(words).buffer);
        const a = all.subarray(skip);
        const bits = floatBits(a);
        expect(Array.from(bits)).toEqual(words.slice(skip));
        if (bits.length > 0) {
          bits[0] = 0x3f800000; // 1.0: the same memory
          expect(a[0]).toBe(1);
        }
        runs++;
      }),
      { numRuns: 300 },
    );
    expect(runs).toBeGreaterThan(200);
  });

  it('refuses what is not a Float32Array instead of reading it as zeros', () => {
    expect(() => floatBits([1, 2, 3] as unknown as Float32Array)).toThrow(/expected a Float32Array, got an array/);
    expect(() => floatBits(new Float64Array(2) as unknown as Float32Array)).toThrow(/got Float64Array/);
  });
});
