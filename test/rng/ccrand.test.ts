import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CcRand, CCRAND_SEED, ccRandTurnS16 } from '../../src/rng/ccrand.js';

/** An independent, slow MT19937 (1998 seeding) over BigInt, written from the published description. */
function referenceMt(seed: number, count: number): number[] {
  const n = 624;
  const mask = 0xffffffffn;
  const mt: bigint[] = [];
  let s = BigInt(seed);
  for (let i = 0; i < n; i++) {
    const hi = s & 0xffff0000n;
    s = (s * 69069n + 1n) & mask;
    mt.push(hi | (s >> 16n));
    s = (s * 69069n + 1n) & mask;
  }
  const out: number[] = [];
  let idx = n;
  while (out.length < count) {
    if (idx >= n) {
      for (let k = 0; k < n; k++) {
        const y = (mt[k]! & 0x80000000n) | (mt[(k + 1) % n]! & 0x7fffffffn);
        mt[k] = mt[(k + 397) % n]! ^ (y >> 1n) ^ (y & 1n ? 0x9908b0dfn : 0n);
      }
      idx = 0;
    }
    let y = mt[idx++]!;
    y ^= y >> 11n;
    y ^= (y << 7n) & 0x9d2c5680n;
    y ^= (y << 15n) & 0xefc60000n;
    y ^= y >> 18n;
    out.push(Number(y & mask));
  }
  return out;
}

describe('ccRand', () => {
  it('init(0) then five draws match the game', () => {
    const r = new CcRand();
    r.init(0);
    const got = Array.from({ length: 5 }, () => r.nextU32());
    expect(got).toEqual([0x889c77e9, 0xc8c10059, 0x4f014569, 0x3b11bcc1, 0x0e34b264]);
    expect(r.draws).toBe(5);
  });

  it('matches an independent BigInt MT19937 over two regenerations', () => {
    const r = new CcRand();
    r.init(0);
    const got = Array.from({ length: 1300 }, () => r.nextU32());
    expect(got).toEqual(referenceMt(CCRAND_SEED, 1300));
  });

  it('an unseeded generator seeds with 4352 on its first draw', () => {
    const a = new CcRand();
    const b = new CcRand();
    b.init(0);
    expect(a.nextU32()).toBe(b.nextU32());
  });

  it('init(count) discards count draws and resets the counter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1500 }), (count) => {
        const a = new CcRand();
        a.init(count);
        const b = new CcRand();
        b.init(0);
        for (let i = 0; i < count; i++) b.nextU32();
        return a.draws === 0 && a.nextU32() === b.nextU32();
      }),
      { numRuns: 50 },
    );
  });

  it('next() is the tempered word as a signed int32', () => {
    const a = new CcRand();
    a.init(0);
    expect(a.next()).toBe(0x889c77e9 | 0);
    expect(a.next()).toBeLessThan(0); // 0xc8c10059 has the top bit set
  });

  it('save and restore continue the same sequence across a regeneration', () => {
    const r = new CcRand();
    r.init(600);
    const s = r.save();
    const ahead = Array.from({ length: 40 }, () => r.nextU32());
    r.restore(s);
    expect(Array.from({ length: 40 }, () => r.nextU32())).toEqual(ahead);
    expect(r.draws).toBe(40);
  });

  it('a turn is the low 16 bits as a signed value', () => {
    expect(ccRandTurnS16(0x889c77e9)).toBe(0x77e9);
    expect(ccRandTurnS16(0xc8c18059)).toBe(0x8059 - 0x10000);
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xffffffff }), (w) => {
      const t = ccRandTurnS16(w);
      return t >= -32768 && t <= 32767 && ((t + 0x10000) & 0xffff) === (w & 0xffff);
    }));
  });
});
