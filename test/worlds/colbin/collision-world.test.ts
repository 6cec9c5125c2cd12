import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ColbinWorld, detectColbin, loadColbinWorld, DEFAULT_STEP_HEIGHT } from '../../../src/worlds/colbin/collision-world.js';
import { buildColbin, type LevelDescription, type V3 } from '../../../src/worlds/colbin/level-builder.js';
import { writeColbin } from '../../../src/worlds/colbin/write.js';
import { FormatError } from '../../../src/binary/format-error.js';
import { levelArb } from './arbitraries.js';

/** A 4 m × 4 m room (Blender units) on y = 0 with one wall: x ∈ [1.75, 2.25] (raw 224..288), tall, along z. */
const room: LevelDescription = {
  floors: [
    { vertices: [[-4, 0, -4], [4, 0, -4], [4, 0, 4]] },
    { vertices: [[-4, 0, -4], [4, 0, 4], [-4, 0, 4]] },
    // a raised platform 1 m up (y = −1 under −Y up) over x, z ∈ [−3, −1]
    { vertices: [[-3, -1, -3], [-1, -1, -3], [-1, -1, -1]] },
    { vertices: [[-3, -1, -3], [-1, -1, -1], [-3, -1, -1]] },
  ],
  walls: [{ center: [2, -1, 0], halfExtents: [0.25, 1, 4] }],
};
const world = () => new ColbinWorld(buildColbin(room), 'room');
const body = { radius: 32, height: 128 };

describe('COLBIN CollisionWorld', () => {
  it('reports native fixed-point units and the exporter’s −Y up', () => {
    const w = world();
    expect(w.kind).toBe('colbin');
    expect(w.integer).toBe(true);
    expect(w.scale).toBe(128);
    expect(w.up).toEqual({ axis: 1, sign: -1 });
    expect(w.bounds.min).toEqual([-512, -256, -512]);
    expect(w.bounds.max).toEqual([512, 0, 512]);
  });

  it('detects COLBIN by content and loads from bytes; bad bytes are FormatErrors', () => {
    const bytes = writeColbin(buildColbin(room));
    expect(detectColbin(bytes)).toBe(true);
    expect(detectColbin(bytes.subarray(0, 10))).toBe(false);
    const b = bytes.slice();
    b[6] = 7;
    expect(detectColbin(b)).toBe(false);
    expect(loadColbinWorld(bytes, 'x').file.wallCount).toBe(1);
    expect(() => loadColbinWorld(b, 'x')).toThrow(FormatError);
  });

  it('ground: the platform is found from above it, the ground floor from below it', () => {
    const w = world();
    const g = w.ground([-256, -64, -256]); // between floor (0) and platform (−128, higher under −Y up)
    expect(g).toMatchObject({ hasFloor: true, floor: 0, ceiling: -128 });
    expect(g.id).toBeLessThan(2);
    expect(w.lastCeilingId()).toBeGreaterThanOrEqual(2);
    expect(w.ground([-256, -300, -256])).toMatchObject({ hasFloor: true, floor: -128, ceiling: NaN });
    expect(w.ground([2000, 0, 0]).hasFloor).toBe(false);
    expect(w.ground([NaN, 0, 0])).toMatchObject({ hasFloor: false, id: -1 });
  });

  it('move: walking into the wall stops flush against it (face push-out)', () => {
    const w = world();
    // body x ∈ [150, 214] before; moving +40 puts it at [190, 254], 30 deep into the wall's face at 224
    const r = w.move(body, [182, 0, 0], [40, 0, 0]);
    expect(r.position).toEqual([192, 0, 0]);
    expect(r.grounded).toBe(true);
    expect(r.contacts.map((c) => c.kind)).toEqual(['wall', 'floor']);
    expect(r.contacts[0]!.normal).toEqual([-1, 0, 0]);
  });

  it('move, engine response: resting flush against the wall is pushed along the next axis (the engine quirk)', () => {
    const w = world();
    // After the push above the body is flush (x ∈ [160, 224]). Standing still: the x axis touches exactly and is
    // skipped, the smallest positive penetration is y (body y ∈ [−128, 0] vs wall [−256, 0]: 128), centre −64 > −128,
    // so the push is +128 in y (down under −Y up), below the floor, where no floor is within the step.
    const r = w.move(body, [192, 0, 0], [0, 0, 0]);
    expect(r.position).toEqual([192, 128, 0]);
    expect(r.grounded).toBe(false);
    expect(r.contacts[0]).toMatchObject({ kind: 'wall', normal: [0, 1, 0] });
  });

  it("move, 'touch-separates' response: a flush body stays put; deeper contact is pushed as before", () => {
    const w = new ColbinWorld(buildColbin(room), 'room', { wallResponse: 'touch-separates' });
    expect(w.wallResponse).toBe('touch-separates');
    const r = w.move(body, [192, 0, 0], [0, 0, 0]);
    expect(r).toMatchObject({ position: [192, 0, 0], grounded: true });
    expect(r.contacts.map((c) => c.kind)).toEqual(['floor']);
    expect(w.move(body, [182, 0, 0], [40, 0, 0]).position).toEqual([192, 0, 0]);
  });

  it('move: feet go onto the floor, stepping up within stepHeight and down any distance', () => {
    const w = world();
    // hovering 50 above the floor: dropped onto it
    expect(w.move(body, [0, -50, 0], [0, 0, 0]).position).toEqual([0, 0, 0]);
    // 20 below a floor surface (within the default step): lifted onto it
    expect(w.move(body, [0, 20, 0], [0, 0, 0]).position).toEqual([0, 0, 0]);
    // walking under the platform edge from the side: the platform is 128 up, more than the step, so not climbed
    const under = w.move(body, [-64, 0, -256], [-100, 0, 0]);
    expect(under.position).toEqual([-164, 0, -256]);
    // standing on the platform stays on it
    expect(w.move(body, [-256, -128, -256], [10, 0, 0]).position).toEqual([-246, -128, -256]);
    // off every floor: not grounded, position unchanged apart from the delta
    const off = w.move(body, [2000, -10, 2000], [1, 2, 3]);
    expect(off).toMatchObject({ position: [2001, -8, 2003], grounded: false, contacts: [] });
    expect(DEFAULT_STEP_HEIGHT).toBe(32);
  });

  it('move: box bodies (halfExtents) are used as given', () => {
    const w = world();
    const r = w.move({ radius: 0, height: 0, halfExtents: [10, 64, 10] }, [200, 0, 0], [0, 0, 0]);
    // body x ∈ [190, 210] is clear of the wall at 224
    expect(r.position).toEqual([200, 0, 0]);
    const r2 = w.move({ radius: 0, height: 0, halfExtents: [30, 64, 30] }, [200, 0, 0], [0, 0, 0]);
    expect(r2.position).toEqual([194, 0, 0]); // [170, 230] → pushed 6 back to touch 224
  });

  it('queries never throw on non-finite or huge input', () => {
    const w = world();
    for (const v of [NaN, Infinity, -Infinity, 1e300, -1e300]) {
      expect(() => w.ground([v, v, v])).not.toThrow();
      expect(w.segmentFraction(v, 0, 0, 0, 0, 0)).toBe(v === 1e300 || v === -1e300 ? w.segmentFraction(v, 0, 0, 0, 0, 0) : -1);
      const m = w.move(body, [v, v, v], [v, 0, v]);
      for (const c of m.position) expect(Number.isFinite(c)).toBe(true);
    }
  });

  it('segment: hits the wall face first, and the floor when aimed down', () => {
    const w = world();
    // from x = 0 to x = 448 at y = −64: the wall face at x = 224 is halfway
    expect(w.segmentFraction(0, -64, 0, 448, -64, 0)).toBe(0.5);
    const s = w.segment([0, -64, 0], [448, -64, 0]);
    expect(s).toMatchObject({ hit: true, fraction: 0.5, what: 'wall', id: 0, point: [224, -64, 0], normal: [-1, 0, 0] });
    const d = w.segment([0, -64, 100], [0, 64, 100]);
    expect(d).toMatchObject({ hit: true, fraction: 0.5, what: 'floor' });
    expect(d.normal[1]).toBe(-1);
    expect(w.segmentFraction(0, -64, 0, 100, -64, 0)).toBe(-1);
    // a start inside the wall hits at 0
    expect(w.segmentFraction(256, -64, 0, 0, -64, 0)).toBe(0);
  });

  it('spawnPoint stands on a floor and sampleOpen avoids walls', () => {
    const w = world();
    const p = w.spawnPoint();
    expect(w.ground(p).hasFloor).toBe(true);
    expect(w.ground(p).floor).toBe(p[1]);
    expect(w.sampleOpen(0.5, 0.5)).not.toBeNull();
    // u picks x ≈ 256 inside the wall's x range: refused
    const bx = (256 - w.bounds.min[0]) / (w.bounds.max[0] - w.bounds.min[0] + 1);
    expect(w.sampleOpen(bx, 0.5)).toBeNull();
    expect(w.sampleOpen(NaN, 0.5)).toBeNull();
    expect(w.sampleOpen(0.3, 0.7)).toEqual(w.sampleOpen(0.3, 0.7));
  });
});

describe('COLBIN broad phase equals testing everything (property)', () => {
  const queries = fc.array(
    fc.record({
      p: fc.tuple(fc.integer({ min: -1200, max: 1200 }), fc.integer({ min: -1200, max: 1200 }), fc.integer({ min: -1200, max: 1200 })),
      d: fc.tuple(fc.integer({ min: -600, max: 600 }), fc.integer({ min: -600, max: 600 }), fc.integer({ min: -600, max: 600 })),
      h: fc.option(fc.tuple(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 200 })), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 20 },
  );

  it('ground, segment, segmentFraction and move agree with the brute-force world', () => {
    fc.assert(
      fc.property(levelArb(2, 16, 16), queries, (desc, qs) => {
        const file = buildColbin(desc);
        const fast = new ColbinWorld(file, 'fast');
        const slow = new ColbinWorld(file, 'slow', { bruteForce: true });
        for (const { p, d, h } of qs) {
          const to: V3 = [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
          expect(fast.ground(p)).toEqual(slow.ground(p));
          expect(fast.segmentFraction(p[0], p[1], p[2], to[0], to[1], to[2])).toBe(slow.segmentFraction(p[0], p[1], p[2], to[0], to[1], to[2]));
          expect(fast.segment(p, to)).toEqual(slow.segment(p, to));
        const ts = new ColbinWorld(file, 'ts', { wallResponse: 'touch-separates' });
        const tsSlow = new ColbinWorld(file, 'ts-slow', { wallResponse: 'touch-separates', bruteForce: true });
        expect(ts.move({ radius: 40, height: 128 }, p, d)).toEqual(tsSlow.move({ radius: 40, height: 128 }, p, d));
          const b = h ? { radius: 0, height: 0, halfExtents: h as V3 } : { radius: 40, height: 128 };
          expect(fast.move(b, p, d)).toEqual(slow.move(b, p, d));
        }
      }),
      { numRuns: 250 },
    );
  });

  it('segmentFraction agrees with segment and lies in [0, 1]', () => {
    fc.assert(
      fc.property(levelArb(2, 10, 10), queries, (desc, qs) => {
        const w = new ColbinWorld(buildColbin(desc), 'w');
        for (const { p, d } of qs) {
          const to: V3 = [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
          const f = w.segmentFraction(p[0], p[1], p[2], to[0], to[1], to[2]);
          const s = w.segment(p, to);
          expect(s.hit).toBe(f >= 0);
          if (f >= 0) {
            expect(s.fraction).toBe(f);
            expect(f).toBeGreaterThanOrEqual(0);
            expect(f).toBeLessThanOrEqual(1);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('move results are integers, and a grounded body stands exactly on the reported floor', () => {
    fc.assert(
      fc.property(levelArb(2, 8, 16), queries, (desc, qs) => {
        const w = new ColbinWorld(buildColbin(desc), 'w');
        for (const { p, d } of qs) {
          const r = w.move({ radius: 30, height: 100 }, p, d);
          for (const c of r.position) expect(Number.isInteger(c)).toBe(true);
          if (r.grounded) {
            const g = w.ground(r.position);
            expect(g.hasFloor).toBe(true);
            // feet are at the floor rounded up (toward −y), never inside it
            expect(r.position[1]).toBeLessThanOrEqual(g.floor);
            expect(g.floor - r.position[1]).toBeLessThan(1);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('COLBIN world on hostile and version-1 files', () => {
  it('version 1 and version 2 of the same level answer every query identically (the grid is never used)', async () => {
    const { demoLevelDescription } = await import('../../../src/worlds/colbin/demo-level.js');
    const w1 = new ColbinWorld(buildColbin(demoLevelDescription(1)), 'v1');
    const w2 = new ColbinWorld(buildColbin(demoLevelDescription(2)), 'v2');
    fc.assert(
      fc.property(fc.tuple(fc.integer({ min: -900, max: 900 }), fc.integer({ min: -400, max: 100 }), fc.integer({ min: -900, max: 900 })), fc.tuple(fc.integer({ min: -200, max: 200 }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: -200, max: 200 })), (p, d) => {
        expect(w1.ground(p)).toEqual(w2.ground(p));
        expect(w1.move(body, p, d)).toEqual(w2.move(body, p, d));
        expect(w1.segment(p, [p[0] + d[0], p[1] + d[1], p[2] + d[2]])).toEqual(w2.segment(p, [p[0] + d[0], p[1] + d[1], p[2] + d[2]]));
      }),
      { numRuns: 300 },
    );
  });

  it('a corrupted file either fails with a FormatError or gives a world whose queries return defined answers', () => {
    const good = writeColbin(buildColbin(room));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(good.length - 1), fc.nat(255)), { minLength: 1, maxLength: 12 }), fc.tuple(fc.integer(), fc.integer(), fc.integer()), (edits, p) => {
        const b = good.slice();
        for (const [at, v] of edits) b[at] = v;
        let w: ColbinWorld;
        try {
          w = loadColbinWorld(b, 'corrupt');
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
          return;
        }
        const g = w.ground(p);
        expect(typeof g.hasFloor).toBe('boolean');
        const f = w.segmentFraction(p[0], p[1], p[2], 0, 0, 0);
        expect(f === -1 || (f >= 0 && f <= 1)).toBe(true);
        const m = w.move({ radius: 40, height: 100 }, p, [5, 5, 5]);
        for (const c of m.position) expect(Number.isInteger(c)).toBe(true);
        w.spawnPoint();
        w.sampleOpen(0.25, 0.75);
      }),
      { numRuns: 400 },
    );
  });

  it('extreme coordinates in the file (±2^31) do not break queries', () => {
    const f = buildColbin(room);
    f.wallCenters.set([2 ** 31 - 1, -(2 ** 31), 2 ** 31 - 1]);
    f.wallHalfExtents.set([2 ** 31 - 1, 2 ** 31 - 1, -5]);
    f.wallAxes.set([32767, -32768, 2 ** 31 - 1, 0, 0, 0, -(2 ** 31), 1, 1]);
    f.floorVertices.set([2 ** 31 - 1, -(2 ** 31), 2 ** 31 - 1, -(2 ** 31)], 0);
    const w = new ColbinWorld(f, 'extreme');
    const slow = new ColbinWorld(f, 'extreme', { bruteForce: true });
    for (const p of [[0, 0, 0], [2 ** 31, 2 ** 31, 2 ** 31], [-(2 ** 40), 5, 2 ** 40], [100, -100, 100]] as V3[]) {
      expect(w.ground(p)).toEqual(slow.ground(p));
      expect(w.move(body, p, [3, 3, 3])).toEqual(slow.move(body, p, [3, 3, 3]));
      expect(w.segmentFraction(p[0], p[1], p[2], 0, 0, 0)).toBe(slow.segmentFraction(p[0], p[1], p[2], 0, 0, 0));
    }
  });
});
