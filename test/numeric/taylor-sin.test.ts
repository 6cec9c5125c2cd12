import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { detSin, taylorSin } from '../../src/numeric/det-math.js';

const HALF_PI = 1.5707963267948966;

describe('taylorSin', () => {
  it('with 15 terms agrees with detSin to a few units in the last place over [−π/2, π/2]', () => {
    fc.assert(
      fc.property(fc.double({ min: -HALF_PI, max: HALF_PI, noNaN: true }), (x) => {
        expect(Math.abs(taylorSin(x, 15) - detSin(x))).toBeLessThanOrEqual(4 * Number.EPSILON * Math.max(Math.abs(x), Number.MIN_VALUE));
      }),
    );
  });

  it('is odd, and with 0 terms is x itself', () => {
    fc.assert(
      fc.property(fc.double({ min: -HALF_PI, max: HALF_PI, noNaN: true }), fc.integer({ min: 0, max: 20 }), (x, terms) => {
        expect(taylorSin(-x, terms)).toBe(-taylorSin(x, terms));
        expect(taylorSin(x, 0)).toBe(x);
      }),
    );
    // Found by CI: −0 came back as +0 once a term was added.
    for (let terms = 0; terms <= 20; terms++) expect(Object.is(taylorSin(-0, terms), -0)).toBe(true);
  });
});
