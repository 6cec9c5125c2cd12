import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sinCosTurn } from '../../../src/worlds/llama/det.js';

describe('llama deterministic math', () => {
  it('quarter turns are exact', () => {
    const at = (a: number): [number, number] => {
      const r = sinCosTurn(a);
      return [r.sin, r.cos];
    };
    expect(at(0)).toEqual([0, 1]);
    expect(at(1024)).toEqual([1, 0]);
    expect(at(2048)).toEqual([0, -1]);
    expect(at(3072)).toEqual([-1, 0]);
    expect(at(4096)).toEqual([0, 1]);
    expect(at(-1024)).toEqual([-1, 0]);
  });

  it('matches known values and the identities of sin and cos', () => {
    expect(sinCosTurn(512).sin).toBeCloseTo(Math.SQRT1_2, 15);
    expect(sinCosTurn(512).cos).toBeCloseTo(Math.SQRT1_2, 15);
    fc.assert(
      fc.property(fc.integer({ min: -100000, max: 100000 }), (a) => {
        const { sin, cos } = sinCosTurn(a);
        const s = sin, c = cos;
        // The platform's libm as an oracle (tests only; the code under test must not use it).
        expect(s).toBeCloseTo(Math.sin(((a & 4095) * 2 * Math.PI) / 4096), 13);
        expect(c).toBeCloseTo(Math.cos(((a & 4095) * 2 * Math.PI) / 4096), 13);
        expect(s * s + c * c).toBeCloseTo(1, 14);
        // Periodic, odd sine, even cosine, and a quarter turn swaps them.
        expect(sinCosTurn(a + 4096).sin).toBe(s);
        expect(sinCosTurn(-a).sin).toBe(s === 0 ? 0 : -s);
        expect(sinCosTurn(-a).cos).toBe(c);
        expect(sinCosTurn(a + 1024).sin).toBe(c);
      }),
      { numRuns: 500, seed: 21 },
    );
  });

});
