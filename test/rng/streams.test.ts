import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import seedrandom from 'seedrandom';
import { RandomStreams } from '../../src/rng/streams.js';

describe('named seedrandom streams', () => {
  it('the same master seed and name give the same numbers', () => {
    const a = new RandomStreams(42).get('agents');
    const b = new RandomStreams(42).get('agents');
    for (let i = 0; i < 100; i++) expect(a.next()).toBe(b.next());
  });

  it('streams are independent: drawing from one does not shift another', () => {
    const s1 = new RandomStreams('m');
    const s2 = new RandomStreams('m');
    s1.get('scenario');
    for (let i = 0; i < 50; i++) s1.get('scenario').next();
    const x = s1.get('agents').next();
    expect(x).toBe(s2.get('agents').next());
  });

  it('different names give different sequences', () => {
    const s = new RandomStreams(1);
    expect(s.get('a').next()).not.toBe(s.get('b').next());
  });

  it('save and restore give the same continuation and draw counts', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 300 }), (seed, k) => {
        const s = new RandomStreams(seed);
        for (let i = 0; i < k; i++) s.get(i % 2 ? 'x' : 'y').next();
        const saved = JSON.parse(JSON.stringify(s.save()));
        const ahead = [s.get('x').next(), s.get('y').int(1000)];
        const t = new RandomStreams(seed);
        t.restore(saved);
        return t.get('x').next() === ahead[0] && t.get('y').int(1000) === ahead[1] && t.get('x').draws === s.get('x').draws;
      }),
      { numRuns: 50 },
    );
  });

  it('int(n) stays in range', () => {
    const s = new RandomStreams(3).get('r');
    for (let i = 0; i < 1000; i++) {
      const v = s.int(7);
      expect(v >= 0 && v < 7 && Number.isInteger(v)).toBe(true);
    }
    expect(() => s.int(0)).toThrow(RangeError);
  });
});

describe('the streams\' own ARC4', () => {
  it('gives exactly seedrandom\'s numbers for the same seed, after a save and restore too', () => {
    for (const master of [1, 42, 'abc']) {
      for (const name of ['placement', 'wander', 'behaviour']) {
        const s = new RandomStreams(master);
        const ref = seedrandom(`${master}/${name}`, { state: true });
        for (let i = 0; i < 20000; i++) expect(s.get(name).next()).toBe(ref.double());
        const t = new RandomStreams(master);
        t.restore(s.save());
        for (let i = 0; i < 1000; i++) expect(t.get(name).next()).toBe(ref.double());
      }
    }
  });
});
