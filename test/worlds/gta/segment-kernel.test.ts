/**
 * The scene's one-walk segment test (SceneSegmentKernel, with its grid over placements) against the rule-exact
 * reference (every placement in order, each model's tree walked as built): the same fraction and the same hit
 * (placement, kind, index, model-space normal), bit for bit, on random scenes (rotations, copies, solids,
 * placements spread wide and huge coordinates, which turn the grid off) and random segments, among them
 * segments that end just beside a placement's box (the grid's margin) and the town's own line-of-sight set.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Vec3 } from '../../../src/worlds/world.js';
import { ColScene } from '../../../src/worlds/gta/query.js';
import { loadGtaWorld, parseGtaPlacements } from '../../../src/worlds/gta/collision-world.js';
import { canon, colSceneArb, sceneModelArb, smallCoord, smallPoint } from './arbitrary.js';

const modelArb = sceneModelArb({ maxTriangles: 20, zeroRadiusSpheres: true });

const spread = fc.integer({ min: -6400, max: 6400 }).map((i) => i / 64);
const huge = fc.constantFrom(1e15, -1e15, 3e200, -7.7e15, 2 ** 30, -(2 ** 31));
const posArb: fc.Arbitrary<Vec3> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(spread, spread, smallCoord) },
  { weight: 2, arbitrary: smallPoint },
  { weight: 1, arbitrary: fc.tuple(huge, smallCoord, smallCoord) },
);
const sceneArb = colSceneArb({ model: modelArb, maxModels: 4, position: posArb, copyFreq: 4 });

/** Segments: anywhere in the scene, long ones, vertical probes, zero length, odd numbers. */
const segArb = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.tuple(spread, spread, smallCoord), fc.tuple(spread, spread, smallCoord)) },
  { weight: 2, arbitrary: fc.tuple(smallPoint, smallPoint) },
  { weight: 1, arbitrary: fc.tuple(spread, spread).map(([x, y]): [Vec3, Vec3] => [[x, y, 40], [x, y, -40]]) },
  { weight: 1, arbitrary: smallPoint.map((p): [Vec3, Vec3] => [p, p]) },
  { weight: 1, arbitrary: fc.tuple(fc.tuple(huge, smallCoord, smallCoord), smallPoint) },
  { weight: 1, arbitrary: fc.tuple(smallPoint, fc.tuple(fc.double(), fc.double(), fc.double())) },
);

/** The demo town with its placements, as shipped. */
function town() {
  const root = new URL('../../../', import.meta.url);
  const bytes = new Uint8Array(readFileSync(new URL('assets/worlds/gta/town.col', root)));
  const placements = parseGtaPlacements(readFileSync(new URL('assets/worlds/gta/town.placements.json', root), 'utf8'));
  return loadGtaWorld(bytes, 'town', placements);
}

/** Up to `count` eyes `lift` metres above open spots of the town, spread by two irrational steps. */
function townEyes(w: ReturnType<typeof town>, count: number, lift: number): Vec3[] {
  const eyes: Vec3[] = [];
  for (let k = 0; eyes.length < count && k < 5000; k++) {
    const p = w.sampleOpen(((k * 0.618034) % 1 + 1) % 1, ((k * 0.4142136) % 1 + 1) % 1);
    if (p) eyes.push([p[0], p[1], p[2] + lift]);
  }
  return eyes;
}

/** The answer and the hit of a scene's fast path and of its reference. */
function both(s: ColScene, a: Vec3, b: Vec3): [string, string, number] {
  s.last.nx = s.last.ny = s.last.nz = 0.5;
  const t1 = s.segmentFraction(a[0], a[1], a[2], b[0], b[1], b[2]);
  const fast = canon([t1, s.last]);
  s.last.nx = s.last.ny = s.last.nz = 0.5;
  const t2 = s.segmentFractionReference(a[0], a[1], a[2], b[0], b[1], b[2]);
  return [fast, canon([t2, s.last]), t2];
}

describe('the one-walk segment test of a scene', () => {
  it('answers as the reference on random scenes and segments: fraction and hit, to the bit (property)', () => {
    let hits = 0, segments = 0, cases = 0;
    fc.assert(
      fc.property(sceneArb, fc.array(segArb, { minLength: 1, maxLength: 16 }), fc.boolean(), ({ models, placements }, segs, broad) => {
        const s = new ColScene(models, placements, { broadPhase: broad });
        for (const [a, b] of segs) {
          const [fast, ref, t] = both(s, a, b);
          expect(fast).toBe(ref);
          segments++;
          if (t >= 0) hits++;
        }
        cases++;
      }),
      { numRuns: 400 },
    );
    expect(cases).toBe(400);
    expect(segments).toBeGreaterThan(2000);
    expect(hits).toBeGreaterThan(100);
  });

  it('answers as the reference for segments that end just beside a placement box or cross a grid line (property)', () => {
    let near = 0, hits = 0;
    // Offsets around a box face: on it, a rounding step either side, the grid's margin either side.
    const off = fc.constantFrom(0, 1e-12, -1e-12, 1 / 1024, -1 / 1024, 1 / 512, -1 / 512, 2 ** -40, -(2 ** -40));
    fc.assert(
      fc.property(
        sceneArb,
        fc.array(fc.tuple(fc.nat(), fc.nat(5), off, fc.tuple(spread, spread, smallCoord), fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))), { minLength: 1, maxLength: 12 }),
        ({ models, placements }, picks) => {
          const s = new ColScene(models, placements, { broadPhase: false });
          for (const [pi, face, d, from, [u, v, w]] of picks) {
            const i = pi % s.instanceCount;
            const B = s.instBox.subarray(i * 6, i * 6 + 6);
            if (!B.every((x) => Number.isFinite(x))) continue;
            // A point on (or just off) one face of the box, the others at random within it.
            const p: Vec3 = [B[0]! + u * (B[3]! - B[0]!), B[1]! + v * (B[4]! - B[1]!), B[2]! + w * (B[5]! - B[2]!)];
            const axis = face % 3;
            p[axis] = face < 3 ? B[axis]! - d : B[axis + 3]! + d;
            for (const [a, b] of [[from, p], [p, from]] as [Vec3, Vec3][]) {
              const [fast, ref, t] = both(s, a, b);
              expect(fast).toBe(ref);
              near++;
              if (t >= 0) hits++;
            }
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(near).toBeGreaterThan(1500);
    expect(hits).toBeGreaterThan(100);
  });

  it('answers as the reference for segments just above or beside the scene\'s tops, where the height map proves some clear (property)', () => {
    let cleared = 0, hits = 0, n = 0;
    // Heights around a placement's top: on it, a rounding step either side, around the map's margin, above.
    const off = fc.constantFrom(0, 1e-12, -1e-12, 1 / 256, -1 / 256, 1 / 128, 1 / 64, 0.5, 2, -0.5);
    fc.assert(
      fc.property(
        sceneArb,
        fc.array(fc.tuple(fc.nat(), off, off, fc.tuple(spread, spread), fc.tuple(smallCoord, smallCoord)), { minLength: 1, maxLength: 16 }),
        ({ models, placements }, picks) => {
          const s = new ColScene(models, placements, { broadPhase: false });
          for (const [pi, dz0, dz1, [x, y], [ex, ey]] of picks) {
            const i = pi % s.instanceCount;
            const top = s.instBox[i * 6 + 5]!;
            if (!Number.isFinite(top)) continue;
            // From somewhere in the scene to near the placement, both ends just around its top.
            const a: Vec3 = [x, y, top + dz0];
            const b: Vec3 = [(s.instBox[i * 6]! + s.instBox[i * 6 + 3]!) / 2 + ex, (s.instBox[i * 6 + 1]! + s.instBox[i * 6 + 4]!) / 2 + ey, top + dz1];
            for (const [p, q] of [[a, b], [b, a]] as [Vec3, Vec3][]) {
              if (s.kernel.capClear(p[0], p[1], p[2], q[0], q[1], q[2])) cleared++;
              const [fast, ref, t] = both(s, p, q);
              expect(fast).toBe(ref);
              n++;
              if (t >= 0) hits++;
            }
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(n).toBeGreaterThan(2000);
    // Both kinds are there: segments the map proves clear, and segments that hit.
    expect(cleared).toBeGreaterThan(150);
    expect(hits).toBeGreaterThan(60);
  });

  it('answers a batch as stages (screen, then walk) exactly as one segment at a time, broad phase on or off (property)', () => {
    let screened = 0, walked = 0, hits = 0;
    fc.assert(
      fc.property(sceneArb, fc.array(segArb, { minLength: 1, maxLength: 40 }), fc.boolean(), fc.nat(), fc.nat(), ({ models, placements }, segs, broad, a, b) => {
        const s = new ColScene(models, placements, { broadPhase: broad });
        const flat = new Float64Array(segs.length * 6);
        segs.forEach(([p, q], i) => flat.set([...p, ...q], i * 6));
        const start = a % (segs.length + 1), end = start + (b % (segs.length - start + 1));
        const out = new Float64Array(segs.length).fill(7);
        s.segmentFractions(flat, start, end, out);
        walked += s.kernel.screen(flat, start, end, new Float64Array(segs.length));
        screened += end - start;
        for (let i = 0; i < segs.length; i++) {
          const [p, q] = segs[i]!;
          const one = s.segmentFraction(p[0], p[1], p[2], q[0], q[1], q[2]);
          // Inside the range: the one-at-a-time answer, bit for bit; outside it: untouched.
          expect(Object.is(out[i], i >= start && i < end ? one : 7)).toBe(true);
          if (i >= start && i < end && one >= 0) hits++;
        }
      }),
      { numRuns: 300 },
    );
    // Both stages ran: segments answered by the screen and segments walked, some of them hits.
    expect(walked).toBeGreaterThan(120);
    expect(screened - walked).toBeGreaterThan(50);
    expect(hits).toBeGreaterThan(12);
  });

  it('answers the town\'s eye-to-eye segments as a batch exactly as one at a time', () => {
    const w = town();
    const eyes = townEyes(w, 200, 0.9);
    const flat: number[] = [];
    for (let i = 0; i < eyes.length; i++) for (let j = i + 1; j < eyes.length; j++) flat.push(...eyes[i]!, ...eyes[j]!);
    const seg = Float64Array.from(flat);
    const n = seg.length / 6;
    const out = new Float64Array(n);
    w.segmentFractions(seg, 0, n, out);
    let hits = 0;
    for (let i = 0, o = 0; i < n; i++, o += 6) {
      const one = w.segmentFraction(seg[o]!, seg[o + 1]!, seg[o + 2]!, seg[o + 3]!, seg[o + 4]!, seg[o + 5]!);
      expect(Object.is(out[i], one)).toBe(true);
      if (one >= 0) hits++;
    }
    expect(hits).toBeGreaterThan(n / 50);
    expect(hits).toBeLessThan(n);
  });

  it('answers as the reference on the town, for random segments over it and along the ground (property)', () => {
    const w = town();
    const s = w.scene;
    expect(s.broad).toBeNull();
    const x = fc.integer({ min: -90 * 64, max: 90 * 64 }).map((i) => i / 64);
    const z = fc.integer({ min: -64, max: 20 * 64 }).map((i) => i / 64);
    let hits = 0, n = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.tuple(x, x, z), fc.tuple(x, x, z)), { minLength: 20, maxLength: 50 }), (segs) => {
        for (const [a, b] of segs) {
          const [fast, ref, t] = both(s, a, b);
          expect(fast).toBe(ref);
          // And through the world's own entry points.
          expect(Object.is(w.segmentFraction(a[0], a[1], a[2], b[0], b[1], b[2]), w.segmentFractionReference(a[0], a[1], a[2], b[0], b[1], b[2]))).toBe(true);
          n++;
          if (t >= 0) hits++;
        }
      }),
      { numRuns: 200 },
    );
    expect(n).toBeGreaterThan(4000);
    expect(hits).toBeGreaterThan(400);
  });

  it('proves most of the town\'s eye-to-eye segments clear by its height map, each one truly clear', () => {
    const w = town();
    // Eyes 1.62 m above open spots, every pair within 20 m (as the line-of-sight benchmark's set).
    const eyes = townEyes(w, 300, 1.62);
    expect(eyes.length).toBe(300);
    let pairs = 0, cleared = 0, clear = 0;
    for (let i = 0; i < eyes.length; i++) {
      for (let j = i + 1; j < eyes.length; j++) {
        const [a, b] = [eyes[i]!, eyes[j]!];
        if ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2 > 400) continue;
        pairs++;
        const c = w.scene.kernel.capClear(a[0], a[1], a[2], b[0], b[1], b[2]);
        const [fast, ref, t] = both(w.scene, a, b);
        expect(fast).toBe(ref);
        if (c) {
          cleared++;
          expect(t).toBe(-1);
        }
        if (t < 0) clear++;
      }
    }
    expect(pairs).toBeGreaterThan(1000);
    expect(cleared).toBeGreaterThan(pairs / 2);
    expect(clear).toBeGreaterThanOrEqual(cleared);
  });
});
