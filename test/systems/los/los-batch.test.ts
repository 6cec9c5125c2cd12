import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { losBatch, newLosOutput, pairSegments, SEGMENT_STRIDE, VisibilityMatrix } from '../../../src/systems/los/los-batch.js';
import { newSegmentResult } from '../../../src/worlds/world.js';
import { DEMO_KINDS, openDemo, randomSegments } from '../demo-worlds.js';

describe('losBatch', () => {
  for (const kind of DEMO_KINDS) {
    it(`${kind}: every answer equals the world's own segment (hit, fraction)`, () => {
      const world = openDemo(kind);
      const n = 400;
      const seg = randomSegments(world, n, 1234);
      const out = newLosOutput(n);
      losBatch(world, seg, out);
      const r = newSegmentResult();
      let hits = 0;
      for (let i = 0; i < n; i++) {
        const o = i * SEGMENT_STRIDE;
        world.segment([seg[o]!, seg[o + 1]!, seg[o + 2]!], [seg[o + 3]!, seg[o + 4]!, seg[o + 5]!], r);
        expect(out.visible[i], `segment ${i}`).toBe(r.hit ? 0 : 1);
        expect(out.fraction[i], `segment ${i}`).toBe(r.hit ? r.fraction : 1);
        hits += r.hit ? 1 : 0;
      }
      // Random segments across a level both hit and miss: the comparison covers both answers.
      expect(hits).toBeGreaterThan(0);
      expect(hits).toBeLessThan(n);
    });
  }

  it('through a world\'s batch stages (segmentFractions) gives what one segment at a time gives, in doubles and in floats', () => {
    let staged = 0;
    for (const kind of DEMO_KINDS) {
      const world = openDemo(kind);
      if (!world.segmentFractions) continue;
      staged++;
      // The same world seen without its batch method: losBatch then casts one segment at a time.
      const single = { segmentFraction: world.segmentFraction.bind(world) } as unknown as typeof world;
      const n = 600;
      const seg = randomSegments(world, n, 99);
      for (const precision of [64, 32] as const) {
        const a = newLosOutput(n, precision), b = newLosOutput(n, precision);
        a.visible.fill(9);
        b.visible.fill(9);
        losBatch(world, seg, a, 5, n - 5);
        losBatch(single, seg, b, 5, n - 5);
        expect(Array.from(a.visible)).toEqual(Array.from(b.visible));
        for (let i = 0; i < n; i++) expect(Object.is(a.fraction[i], b.fraction[i]), `${kind} segment ${i}`).toBe(true);
      }
    }
    // Piney and GTA answer through stages.
    expect(staged).toBeGreaterThanOrEqual(2);
  });

  it('answers a sub-range in place and leaves the rest untouched', () => {
    const world = openDemo('rugrats');
    const seg = randomSegments(world, 50, 7);
    const all = newLosOutput(50);
    losBatch(world, seg, all);
    const part = newLosOutput(50);
    part.visible.fill(9);
    losBatch(world, seg, part, 10, 20);
    for (let i = 0; i < 50; i++) {
      if (i >= 10 && i < 20) {
        expect(part.visible[i]).toBe(all.visible[i]);
        expect(part.fraction[i]).toBe(all.fraction[i]);
      } else expect(part.visible[i]).toBe(9);
    }
  });

  it('refuses ranges and outputs that do not fit, before casting anything', () => {
    const world = openDemo('piney');
    const seg = randomSegments(world, 4, 1);
    expect(() => losBatch(world, seg, newLosOutput(3))).toThrow(RangeError);
    expect(() => losBatch(world, seg, newLosOutput(4), 3, 2)).toThrow(RangeError);
    expect(() => losBatch(world, seg, newLosOutput(9), 0, 5)).toThrow(RangeError);
  });

  it('a world\'s own batch stages refuse ranges and outputs that do not fit, naming them, and write nothing', () => {
    let staged = 0;
    for (const kind of DEMO_KINDS) {
      const world = openDemo(kind);
      if (!world.segmentFractions) continue;
      staged++;
      const seg = randomSegments(world, 4, 1);
      const out = new Float64Array(4).fill(7);
      expect(() => world.segmentFractions!(seg, 0, 5, out)).toThrow(/segment range 0\.\.5 is not within the batch's 4 segments/);
      expect(() => world.segmentFractions!(seg, 3, 2, out)).toThrow(RangeError);
      expect(() => world.segmentFractions!(seg, -1, 2, out)).toThrow(RangeError);
      expect(() => world.segmentFractions!(seg, 0.5, 2, out)).toThrow(RangeError);
      expect(() => world.segmentFractions!(seg, 0, 4, new Float64Array(3))).toThrow(/output arrays hold 3 answers, 4 needed/);
      expect(Array.from(out)).toEqual([7, 7, 7, 7]);
    }
    expect(staged).toBeGreaterThanOrEqual(2);
  });

  it('gives a defined answer for NaN, infinite and huge segment ends in every world', () => {
    const worlds = DEMO_KINDS.map(openDemo);
    const odd = fc.oneof(fc.constant(NaN), fc.constant(Infinity), fc.constant(-Infinity), fc.constant(1e300), fc.double({ noNaN: false }));
    fc.assert(
      fc.property(fc.nat(worlds.length - 1), fc.array(odd, { minLength: 6, maxLength: 6 }), (w, ends) => {
        const out = newLosOutput(1, 32);
        losBatch(worlds[w]!, Float64Array.from(ends), out);
        expect(out.visible[0] === 0 || out.visible[0] === 1).toBe(true);
        expect(out.fraction[0]! >= 0 && out.fraction[0]! <= 1).toBe(true);
        if (out.visible[0] === 1) expect(out.fraction[0]).toBe(1);
      }),
      { numRuns: 200 },
    );
  });
});

describe('VisibilityMatrix', () => {
  for (const kind of DEMO_KINDS) {
    it(`${kind}: symmetric, diagonal set, each pair equal to one eye-to-eye segment within range`, () => {
      const world = openDemo(kind);
      const n = 24;
      const feet: number[] = [];
      for (let i = 0; feet.length < 3 * n && i < 10_000; i++) {
        const p = world.sampleOpen(((i * 0.6180339887) % 1 + 1) % 1, ((i * 0.7548776662) % 1 + 1) % 1);
        if (p) feet.push(...p);
      }
      expect(feet.length).toBe(3 * n);
      const eye = world.integer ? Math.round(0.9 * world.scale) : 0.9 * world.scale;
      const range = 30 * world.scale;
      const vm = new VisibilityMatrix();
      const m = vm.compute(world, feet, n, eye, range).slice();
      const lift = (i: number, a: number) => feet[3 * i + a]! + (world.up.axis === a ? world.up.sign * eye : 0);
      for (let i = 0; i < n; i++) {
        expect(m[i * n + i]).toBe(1);
        for (let j = i + 1; j < n; j++) {
          expect(m[i * n + j]).toBe(m[j * n + i]);
          const a = [lift(i, 0), lift(i, 1), lift(i, 2)];
          const b = [lift(j, 0), lift(j, 1), lift(j, 2)];
          const d2 = (a[0]! - b[0]!) ** 2 + (a[1]! - b[1]!) ** 2 + (a[2]! - b[2]!) ** 2;
          const clear = d2 <= range * range && world.segmentFraction(a[0]!, a[1]!, a[2]!, b[0]!, b[1]!, b[2]!) < 0;
          expect(m[i * n + j], `${i}-${j}`).toBe(clear ? 1 : 0);
        }
      }
      // Reused buffers: a second call with the same input gives the same answer.
      expect(Array.from(vm.compute(world, feet, n, eye, range))).toEqual(Array.from(m));
    });
  }
});

describe('pairSegments', () => {
  it('walked in batches of any size through a cursor, gives exactly the whole walk', () => {
    const world = openDemo('rugrats');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 1000 }), (n, max, seed) => {
        const feet = Array.from(randomSegments(world, n, seed).subarray(0, 3 * n));
        const all = (n * (n - 1)) / 2;
        const fullSeg = new Float64Array(Math.max(1, all) * SEGMENT_STRIDE);
        const fullPairs = new Uint32Array(Math.max(1, all) * 2);
        const range = 6 * world.scale;
        const k = pairSegments(world, feet, n, 900, range, fullSeg, fullPairs);
        const seg = new Float64Array(max * SEGMENT_STRIDE);
        const pairs = new Uint32Array(max * 2);
        const cursor = { i: 0, j: 1 };
        const got: number[] = [];
        const gotPairs: number[] = [];
        let guard = 0;
        while (cursor.i < n - 1 && guard++ < 10_000) {
          const c = pairSegments(world, feet, n, 900, range, seg, pairs, cursor, max);
          expect(c).toBeLessThanOrEqual(max);
          got.push(...seg.subarray(0, c * SEGMENT_STRIDE));
          gotPairs.push(...pairs.subarray(0, 2 * c));
        }
        expect(got).toEqual(Array.from(fullSeg.subarray(0, k * SEGMENT_STRIDE)));
        expect(gotPairs).toEqual(Array.from(fullPairs.subarray(0, 2 * k)));
        // Every pair within range is there once, in order.
        let expected = 0;
        for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
          const d2 = (feet[3 * i]! - feet[3 * j]!) ** 2 + (feet[3 * i + 1]! - feet[3 * j + 1]!) ** 2 + (feet[3 * i + 2]! - feet[3 * j + 2]!) ** 2;
          if (d2 <= range * range) expected++;
        }
        expect(k).toBe(expected);
      }),
      { numRuns: 100 },
    );
  });
});
