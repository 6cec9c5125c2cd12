/** The median the page's frame measurements report: the middle value, the mean of the two middle ones, NaN for none. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { median } from '../../../src/render/sandbox/frame-measure.js';

describe('median', () => {
  test('small cases', () => {
    expect(median([])).toBeNaN();
    expect(median([3])).toBe(3);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  test('as many values at or below it as at or above it, whatever the order; the input is left as it was', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 50 }), (xs) => {
        const copy = [...xs];
        const m = median(xs);
        expect(xs).toEqual(copy);
        expect(xs.filter((x) => x <= m).length).toBeGreaterThanOrEqual(xs.length / 2);
        expect(xs.filter((x) => x >= m).length).toBeGreaterThanOrEqual(xs.length / 2);
      }),
    );
  });
});
