import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FieldRand } from '../../src/rng/fieldrand.js';

// Independent model of one step with BigInt, straight from the definition.
function modelStep(seed: bigint): bigint {
  return (((seed * 109n) % 2n ** 32n + 1021n) % 2n ** 32n) % 0xfffffffen;
}

describe('fieldrand', () => {
  it('reproduces the raw steps from 1420855', () => {
    const r = new FieldRand(1420855);
    const got = Array.from({ length: 6 }, () => r.step());
    expect(got).toEqual([154874216, 3996388677, 1814669918, 230526467, 3652549444, 2990899185]);
    expect(r.count).toBe(6);
  });

  it('reproduces the raw steps from 12345', () => {
    const r = new FieldRand(12345);
    const got = Array.from({ length: 6 }, () => r.step());
    expect(got).toEqual([1346626, 146783255, 3114473928, 175242789, 1921595838, 3295517155]);
  });

  it('rand(n) is the step mod n, rand(0) the raw step', () => {
    const a = new FieldRand(99);
    const b = new FieldRand(99);
    expect(a.rand(0)).toBe(b.step());
    expect(a.rand(7)).toBe(b.step() % 7);
    expect(a.count).toBe(2);
  });

  it('agrees with a BigInt model of the step for any u32 seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 1, max: 20 }), (seed, k) => {
        const r = new FieldRand(seed);
        let m = BigInt(seed);
        for (let i = 0; i < k; i++) {
          m = modelStep(m);
          if (r.step() !== Number(m)) return false;
        }
        return r.count === k;
      }),
      { numRuns: 20000 },
    );
  });

  it('rand(n) stays below n', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 1, max: 0xffffffff }), (seed, n) => {
        const v = new FieldRand(seed).rand(n);
        return v >= 0 && v < n && Number.isInteger(v);
      }),
    );
  });

  it('save and restore continue the same sequence', () => {
    const r = new FieldRand(4242);
    for (let i = 0; i < 10; i++) r.step();
    const s = r.save();
    const ahead = [r.step(), r.step(), r.step()];
    r.restore(s);
    expect([r.step(), r.step(), r.step()]).toEqual(ahead);
    expect(r.count).toBe(13);
  });
});
