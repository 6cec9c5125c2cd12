import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cosAngle, sinAngle, wrapAngle } from '../../src/ecs/angle.js';

const angle = fc.integer({ min: -(2 ** 30), max: 2 ** 30 });

describe('deterministic sine and cosine of integer angles', () => {
  it('agrees with Math.sin/cos to a few ulp (tests may use Math; the simulation may not)', () => {
    for (let a = 0; a < 65536; a += 7) {
      const x = (a * 2 * Math.PI) / 65536;
      expect(Math.abs(sinAngle(a) - Math.sin(x))).toBeLessThan(1e-15);
      expect(Math.abs(cosAngle(a) - Math.cos(x))).toBeLessThan(1e-15);
    }
  });

  it('is exact at the quarter turns', () => {
    expect([sinAngle(0), sinAngle(16384), sinAngle(32768), sinAngle(49152)]).toEqual([0, 1, 0, -1]);
    expect([cosAngle(0), cosAngle(16384), cosAngle(49152)]).toEqual([1, 0, 0]);
    expect(cosAngle(32768)).toBe(-1);
  });

  it('has the symmetries of sine exactly, and wraps any integer (property)', () => {
    fc.assert(
      fc.property(angle, (a) => {
        expect(sinAngle(a)).toBe(sinAngle(a + 65536));
        expect(sinAngle(-a) + 0).toBe(-sinAngle(a) + 0);
        expect(sinAngle(32768 - a)).toBe(sinAngle(a));
        expect(cosAngle(a)).toBe(sinAngle(a + 16384));
        expect(wrapAngle(a)).toBeGreaterThanOrEqual(0);
        expect(wrapAngle(a)).toBeLessThan(65536);
        const s = sinAngle(a);
        const c = cosAngle(a);
        expect(Math.abs(s * s + c * c - 1)).toBeLessThan(1e-15);
      }),
    );
  });
});
