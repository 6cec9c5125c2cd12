import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eeCompareEq, eeCompareLe, eeCompareLt } from '../../../src/numeric/ee-float.js';
import {
  eq,
  le,
  lt,
  k,
  value,
  deg2rad,
  rad2deg,
  vuCosSin,
  rotMatrix,
  apply,
  fromU32,
  ONE,
  PI,
  type V4,
} from '../../../src/systems/piney-ambient/ee-vec.js';
import { nearest, p2w, w2p } from '../../../src/systems/piney-ambient/wrap.js';

const u32 = fc.integer({ min: 0, max: 0xffffffff });
/** Patterns biased to the edge cases: zeros of both signs and any mantissa, exponent 255, small values. */
const pattern = fc.oneof(
  u32,
  fc.integer({ min: 0, max: 0x7fffff }).chain((m) => fc.constantFrom(m, (m | 0x80000000) >>> 0)),
  fc.integer({ min: 0, max: 0x7fffff }).map((m) => (0x7f800000 | m) >>> 0),
  fc.integer({ min: -3000, max: 3000 }).map((i) => k(i)),
);

describe('the comparisons on bit patterns', () => {
  it('agree with the EE module c.lt, c.le, c.eq for every pattern', () => {
    fc.assert(
      fc.property(pattern, pattern, (a, b) => {
        expect(lt(a, b)).toBe(eeCompareLt(a, b));
        expect(le(a, b)).toBe(eeCompareLe(a, b));
        expect(eq(a, b)).toBe(eeCompareEq(a, b));
      }),
      { numRuns: 20000 },
    );
  });
});

describe('angles', () => {
  it('RAD2DEG and DEG2RAD match the port vectors', () => {
    expect(rad2deg(0)).toBe(0);
    expect(rad2deg(k(Math.fround(Math.PI / 2)))).toBe(16383);
    expect(rad2deg(ONE)).toBe(10430);
    expect(rad2deg((PI ^ 0x80000000) >>> 0)).toBe(-32768);
    expect(deg2rad(-32768)).toBe((PI ^ 0x80000000) >>> 0);
    expect(deg2rad(16384)).toBe(k(Math.fround(Math.PI / 2)));
  });

  it('the VU cosine is close to the true one; the sine is ±sqrt(1 − cos²), signed by the angle', () => {
    fc.assert(
      fc.property(fc.double({ min: -3.14159, max: 3.14159, noNaN: true }), (x) => {
        const a = k(Math.fround(x));
        const [s, c] = vuCosSin(a);
        expect(value(c)).toBeCloseTo(Math.cos(value(a)), 5);
        // sqrt(1 − c²) in single precision: near 0 and pi its resolution is about 3.5e-4.
        expect(Math.abs(value(s) - Math.sin(value(a)))).toBeLessThan(5e-4);
        if (value(s) !== 0) expect(Math.sign(value(s))).toBe(value(a) < 0 ? -1 : 1);
      }),
    );
    // Exactly at 0 the cosine's polynomial lands on 1 and the sine is 0.
    expect(vuCosSin(0)).toEqual([0, ONE]);
  });

  it('RotMatrix(0, 0, z) turns (0, -1) to the heading (sin z, -cos z)', () => {
    const m = rotMatrix(0, 0, k(Math.fround(0.5)));
    const v = apply(m, [0, k(-1000), 0, ONE]);
    expect(value(v[0])).toBeCloseTo(1000 * Math.sin(0.5), 2);
    expect(value(v[1])).toBeCloseTo(-1000 * Math.cos(0.5), 2);
    expect(v[3]).toBe(ONE);
  });

  it('an unsigned conversion doubles the halved value above 2^31', () => {
    expect(value(fromU32(5))).toBe(5);
    expect(value(fromU32(0xfffffff0))).toBeGreaterThan(4.29e9);
  });
});

describe('W2P and P2W about the player', () => {
  const coord = fc.integer({ min: 0, max: 47999 });
  it('W2P lands within 24,000 each way; P2W(W2P(p)) is p or its copy 48,000 away', () => {
    fc.assert(
      fc.property(coord, coord, coord, coord, (px, py, x, y) => {
        const P: V4 = [k(px), k(py), 0, ONE];
        const p: V4 = [k(x), k(y), k(7), ONE];
        const d = w2p(p, P);
        expect(Math.abs(value(d[0]))).toBeLessThanOrEqual(24000);
        expect(Math.abs(value(d[1]))).toBeLessThanOrEqual(24000);
        expect(d[2]).toBe(k(7));
        const q = nearest(p, P);
        for (const i of [0, 1]) {
          const diff = value(q[i]!) - value(p[i]!);
          expect([0, 48000, -48000]).toContain(diff);
        }
        expect(p2w(d, P)[3]).toBe(ONE);
      }),
    );
  });
});

describe("Sterbenz's round trip", () => {
  it('whenever roundTripsExactly(p, P), (p − P) + P is p in EE arithmetic', async () => {
    const { roundTripsExactly, add: eadd, sub: esub } = await import('../../../src/systems/piney-ambient/ee-vec.js');
    const near = fc.integer({ min: 0x3f800000, max: 0x7fffffff });
    let hits = 0;
    fc.assert(
      fc.property(near, fc.integer({ min: -0x1000000, max: 0x1000000 }), (p, delta) => {
        const P = p + delta;
        if (P < 0 || P > 0xffffffff) return;
        if (!roundTripsExactly(p, P)) return;
        hits++;
        expect(eadd(esub(p, P), P)).toBe(p);
      }),
      { numRuns: 50000 },
    );
    expect(hits).toBeGreaterThan(10000);
    // Outside the lemma's range it answers no: far apart, negative, or below 1.0.
    expect(roundTripsExactly(k(3), k(Math.fround(1e30)))).toBe(false);
    expect(eadd(esub(k(3), k(Math.fround(1e30))), k(Math.fround(1e30)))).not.toBe(k(3));
    expect(roundTripsExactly(k(-5), k(-6))).toBe(false);
    expect(roundTripsExactly(k(0.5), k(Math.fround(0.6)))).toBe(false);
  });
});
