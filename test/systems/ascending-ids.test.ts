import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AscendingIds } from '../../src/systems/ascending-ids.js';

describe('AscendingIds', () => {
  it('gives every id once, ascending, and its buffer only grows', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 100_000 }), { maxLength: 300 }), { maxLength: 6 }), (lists) => {
        const ascending = new AscendingIds();
        let capacity = ascending.capacity;
        for (const list of lists) {
          const ids = ascending.of(list);
          expect(Array.from(ids)).toEqual([...list].sort((a, b) => a - b));
          expect(ascending.capacity).toBeGreaterThanOrEqual(Math.max(capacity, list.length));
          capacity = ascending.capacity;
        }
      }),
    );
  });

  it('does not touch the list it is given', () => {
    const list = [5, 1, 3];
    new AscendingIds().of(list);
    expect(list).toEqual([5, 1, 3]);
  });
});
