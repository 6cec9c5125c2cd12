/**
 * The field's fast line-of-sight cast (FieldSegmentCaster, behind PineyWorld.segmentFraction) against the cast
 * that tests every cell (segmentFractionReference): the same fraction, bit for bit, on random fields (every
 * type, weather, ground and object setting) and random segments, degenerate ones included.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadPineyWorld, type PineyWorld } from '../../../src/worlds/piney/collision-world.js';
import { CELL_UNITS, FIELD_SIZE } from '../../../src/worlds/piney/field-state.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

const tables = defaultPineyTables();
const fields = new Map<string, PineyWorld>();
/** A field from generator parameters (each kind generated once). */
function field(seed: number, type: number, weather: number, ground: number, object: number): PineyWorld {
  const key = `${seed}/${type}/${weather}/${ground}/${object}`;
  let w = fields.get(key);
  if (!w) {
    w = loadPineyWorld({ seed, fieldType: type, weather, ground, object, event: 0, protect: false }, key, tables);
    fields.set(key, w);
  }
  return w;
}
/** Eight fields (generating one takes a while): every field type range, hills, objects, weathers. */
const fieldArb = fc.constantFrom(
  { seed: 1420855, type: 10, weather: 0, ground: 1, object: 1 },
  { seed: 1, type: 0, weather: 0, ground: 0, object: 0 },
  { seed: 77, type: 2, weather: 3, ground: 2, object: 2 },
  { seed: 4096, type: 4, weather: 5, ground: 1, object: 2 },
  { seed: 31337, type: 5, weather: 9, ground: 0, object: 1 },
  { seed: 0xfffffffe, type: 7, weather: 1, ground: 2, object: 0 },
  { seed: 123456, type: 8, weather: 2, ground: 1, object: 2 },
  { seed: 99, type: 9, weather: 7, ground: 2, object: 1 },
);

/** A coordinate across the field: anywhere, on a cell border, near the torus seam, or odd. */
const across = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: -2000, max: FIELD_SIZE + 2000, noNaN: true }) },
  { weight: 2, arbitrary: fc.integer({ min: -4, max: 84 }).map((c) => c * CELL_UNITS) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, FIELD_SIZE, FIELD_SIZE - 1e-9, 1e15, -1e15, NaN, Infinity, -Infinity) },
);
const up = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: -200, max: 1500, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1e6, -1e6, NaN, Infinity) },
);
/** A segment: anywhere, short around a point, of zero length, along an axis, vertical, very long. */
const segment = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(across, across, up, across, across, up) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(across, across, up, fc.double({ min: -2500, max: 2500, noNaN: true }), fc.double({ min: -2500, max: 2500, noNaN: true }), fc.double({ min: -300, max: 300, noNaN: true }))
      .map(([x, y, z, a, b, c]) => [x, y, z, x + a, y + b, z + c] as const),
  },
  { weight: 1, arbitrary: fc.tuple(across, across, up).map(([x, y, z]) => [x, y, z, x, y, z] as const) },
  { weight: 1, arbitrary: fc.tuple(across, across, up, across).map(([x, y, z, x2]) => [x, y, z, x2, y, z] as const) },
  { weight: 1, arbitrary: fc.tuple(across, across, up, up).map(([x, y, z, z2]) => [x, y, z, x, y, z2] as const) },
  { weight: 1, arbitrary: fc.tuple(across, across, up, fc.double({ min: -1e6, max: 1e6, noNaN: true })).map(([x, y, z, d]) => [x, y, z, x + d, y - d / 3, z] as const) },
  // Far off the field (cell indices past 32 bits, where the cell test's chip index wraps), short or reaching in.
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(1e12, -3e12, 2 ** 41, 1e15, -1e15), fc.double({ min: -3000, max: 3000, noNaN: true }), up, fc.double({ min: -3000, max: 3000, noNaN: true }), up, fc.boolean())
      .map(([far, y, z, d, z2, reach]) => [reach ? 0 : far, y, z, reach ? far : far + d, y + d, z2] as const),
  },
);

describe("the field's fast cast equals the cast that tests every cell", () => {
  it('on random fields and random segments, bit for bit', () => {
    let cases = 0;
    let hits = 0;
    fc.assert(
      fc.property(fieldArb, fc.array(segment, { minLength: 10, maxLength: 40 }), (f, segs) => {
        const w = field(f.seed, f.type, f.weather, f.ground, f.object);
        for (const s of segs) {
          const a = w.segmentFraction(s[0], s[1], s[2], s[3], s[4], s[5]);
          const b = w.segmentFractionReference(s[0], s[1], s[2], s[3], s[4], s[5]);
          if (!Object.is(a, b)) return false;
          cases++;
          if (b >= 0) hits++;
        }
        return true;
      }),
      { numRuns: 300 },
    );
    expect(cases).toBeGreaterThan(5000);
    expect(hits).toBeGreaterThan(500);
  });

  it('on eye-to-eye segments between standing spots (what line of sight casts), fc.pre on open spots', () => {
    const w = field(1420855, 10, 0, 1, 1);
    let cases = 0;
    fc.assert(
      fc.property(fc.double({ min: 0, max: 0.999, noNaN: true }), fc.double({ min: 0, max: 0.999, noNaN: true }), fc.double({ min: -2000, max: 2000, noNaN: true }), fc.double({ min: -2000, max: 2000, noNaN: true }), (u, v, dx, dy) => {
        const a = w.sampleOpen(u, v);
        fc.pre(a !== null);
        const b = w.sampleOpen((((u * FIELD_SIZE + dx) % FIELD_SIZE) + FIELD_SIZE) % FIELD_SIZE / FIELD_SIZE, (((v * FIELD_SIZE + dy) % FIELD_SIZE) + FIELD_SIZE) % FIELD_SIZE / FIELD_SIZE);
        fc.pre(b !== null);
        cases++;
        const f = w.segmentFraction(a![0], a![1], a![2] + 90, b![0], b![1], b![2] + 90);
        return Object.is(f, w.segmentFractionReference(a![0], a![1], a![2] + 90, b![0], b![1], b![2] + 90));
      }),
      { numRuns: 3000 },
    );
    expect(cases).toBeGreaterThan(1500);
  });

  it('at the highest cell top around a short segment (where the walk is skipped), and ends on cell borders', () => {
    let skippedAbove = 0;
    let hits = 0;
    fc.assert(
      fc.property(
        fieldArb,
        fc.oneof(fc.double({ min: 0, max: FIELD_SIZE, noNaN: true }), fc.integer({ min: 0, max: 80 }).map((c) => c * CELL_UNITS)),
        fc.oneof(fc.double({ min: 0, max: FIELD_SIZE, noNaN: true }), fc.integer({ min: 0, max: 80 }).map((c) => c * CELL_UNITS)),
        fc.oneof(fc.double({ min: -9000, max: 9000, noNaN: true }), fc.integer({ min: -15, max: 15 }).map((c) => c * CELL_UNITS)),
        fc.oneof(fc.double({ min: -9000, max: 9000, noNaN: true }), fc.integer({ min: -15, max: 15 }).map((c) => c * CELL_UNITS)),
        fc.constantFrom(-1, -1e-9, -1e-13, 0, 1e-13, 1e-9, 1e-6, 1),
        fc.constantFrom(0, 0, 1e-9, -1e-9, 5, -5),
        (f, x, y, dx, dy, dz, slope) => {
          const w = field(f.seed, f.type, f.weather, f.ground, f.object);
          const tops = (w as unknown as { caster: { cellTop: Float64Array } }).caster.cellTop;
          // The highest top over every cell the rectangle around the segment holds, as the bound takes it.
          let top = -Infinity;
          const wrap = (i: number) => ((i % 80) + 80) % 80;
          for (let i = Math.floor((Math.min(x, x + dx) - 1) / CELL_UNITS); i <= Math.floor((Math.max(x, x + dx) + 1) / CELL_UNITS); i++) {
            for (let j = Math.floor((Math.min(y, y + dy) - 1) / CELL_UNITS); j <= Math.floor((Math.max(y, y + dy) + 1) / CELL_UNITS); j++) top = Math.max(top, tops[wrap(i) * 80 + wrap(j)]!);
          }
          fc.pre(Number.isFinite(top));
          const z = top + dz * Math.max(1, Math.abs(top));
          const a = w.segmentFraction(x, y, z, x + dx, y + dy, z + slope);
          const b = w.segmentFractionReference(x, y, z, x + dx, y + dy, z + slope);
          if (b >= 0) hits++;
          else if (Math.min(z, z + slope) > top) skippedAbove++;
          return Object.is(a, b);
        },
      ),
      { numRuns: 4000 },
    );
    expect(hits).toBeGreaterThan(100);
    expect(skippedAbove).toBeGreaterThan(100);
  });

  it('far off the field (cell indices past 32 bits), at the heights of the object columns', () => {
    const w = field(77, 2, 3, 2, 2);
    const tops = Array.from(w.blockerTop);
    expect(tops.length).toBeGreaterThan(0);
    let hits = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(1e12, -3e12, 2 ** 41, 1e15, -1e15, 5e14),
        fc.double({ min: 0, max: FIELD_SIZE, noNaN: true }),
        fc.nat(tops.length - 1),
        fc.double({ min: -40, max: 40, noNaN: true }),
        fc.double({ min: -3000, max: 3000, noNaN: true }),
        fc.double({ min: -3000, max: 3000, noNaN: true }),
        fc.double({ min: -80, max: 40, noNaN: true }),
        (far, y, k, dz0, dx, dy, dz1) => {
          const z = tops[k]! + dz0;
          const a = w.segmentFraction(far, y, z, far + dx, y + dy, z + dz1);
          if (a >= 0) hits++;
          return Object.is(a, w.segmentFractionReference(far, y, z, far + dx, y + dy, z + dz1));
        },
      ),
      { numRuns: 3000 },
    );
    expect(hits).toBeGreaterThan(100);
  });

  it('answers a batch as stages (screen, then walk) exactly as the cast that tests every cell', () => {
    let walked = 0, screened = 0, hits = 0;
    fc.assert(
      fc.property(fieldArb, fc.array(segment, { minLength: 1, maxLength: 60 }), fc.nat(), fc.nat(), (f, segs, a, b) => {
        const w = field(f.seed, f.type, f.weather, f.ground, f.object);
        const flat = new Float64Array(segs.length * 6);
        segs.forEach((s, i) => flat.set(s, i * 6));
        const start = a % (segs.length + 1), end = start + (b % (segs.length - start + 1));
        const out = new Float64Array(segs.length).fill(7);
        w.segmentFractions(flat, start, end, out);
        screened += end - start;
        let left = 0;
        for (let i = 0; i < segs.length; i++) {
          const s = segs[i]!;
          // The cast that tests every cell (the single cast goes through the same screen, so it is not the oracle).
          const one = w.segmentFractionReference(s[0], s[1], s[2], s[3], s[4], s[5]);
          // Inside the range: the reference's answer, bit for bit; outside it: untouched.
          if (!Object.is(out[i], i >= start && i < end ? one : 7)) return false;
          if (i >= start && i < end && one >= 0) hits++;
        }
        left = (w as unknown as { caster: { screen(s: Float64Array, a: number, b: number, o: Float64Array): number } }).caster.screen(flat, start, end, new Float64Array(segs.length));
        walked += left;
        return true;
      }),
      { numRuns: 300 },
    );
    // Both stages ran: segments the screen answered and segments walked, some of them hits.
    expect(walked).toBeGreaterThan(150);
    expect(screened - walked).toBeGreaterThan(40);
    expect(hits).toBeGreaterThan(100);
  });

  it('agrees with segment (the same fraction, hit or not)', () => {
    const w = field(77, 2, 3, 2, 2);
    fc.assert(
      fc.property(segment, (s) => {
        const r = w.segment([s[0], s[1], s[2]], [s[3], s[4], s[5]]);
        const f = w.segmentFraction(s[0], s[1], s[2], s[3], s[4], s[5]);
        return r.hit ? Object.is(r.fraction, f) : f === -1;
      }),
      { numRuns: 2000 },
    );
  });
});
