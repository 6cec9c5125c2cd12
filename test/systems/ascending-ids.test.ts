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

  it('sorts a list that is ascending but for one id moved (the copy that checks the order sees it)', () => {
    let ran = 0;
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 1 << 20 }), { minLength: 2, maxLength: 400 }), fc.nat(), fc.nat(), (set, from, to) => {
        const sorted = [...set].sort((a, b) => a - b);
        const list = sorted.slice();
        const [moved] = list.splice(from % list.length, 1);
        list.splice(to % (list.length + 1), 0, moved!);
        fc.pre(list.some((e, i) => i > 0 && e < list[i - 1]!));
        ran++;
        const ascending = new AscendingIds();
        expect(Array.from(ascending.of(sorted))).toEqual(sorted);
        expect(Array.from(ascending.of(list))).toEqual(sorted);
      }),
    );
    expect(ran).toBeGreaterThan(50);
  });

  it('does not touch the list it is given', () => {
    const list = [5, 1, 3];
    new AscendingIds().of(list);
    expect(list).toEqual([5, 1, 3]);
  });
});
