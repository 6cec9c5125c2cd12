import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Body, Vec3 } from '../../../src/worlds/world.js';
import { detectGtaCol, loadGtaWorld, parseGtaPlacements, type GtaGroundResult } from '../../../src/worlds/gta/collision-world.js';
import { MeshBuilder, computeBounds, withFaceGroups } from '../../../src/worlds/gta/build.js';
import { emptyModel, type ColModel } from '../../../src/worlds/gta/model.js';
import { writeColFile } from '../../../src/worlds/gta/write.js';
import { FormatError } from '../../../src/binary/format-error.js';

const body: Body = { radius: 0.35, height: 1.8, stepHeight: 0.4 };

/** A yard: a floor at z = 0 (faces, grouped), a wall box at x ∈ [5, 6], a 0.3 step and a 1 m block, a sphere. */
function yard(): ColModel {
  const b = new MeshBuilder();
  for (let i = -10; i < 10; i++) {
    for (let j = -10; j < 10; j++) {
      const p = b.vertex(i * 2, j * 2, 0), q = b.vertex(i * 2 + 2, j * 2, 0), r = b.vertex(i * 2 + 2, j * 2 + 2, 0), s = b.vertex(i * 2, j * 2 + 2, 0);
      b.quad(p, q, r, s, 1);
    }
  }
  b.box([-6, -2, 0], [-4, 2, 38 / 128], 2); // a step of about 0.3 m, on the COL2+ 1/128 grid
  const m = emptyModel(3, 'yard');
  m.mesh = b.build();
  m.boxes.push({ min: [5, -20, 0], max: [6, 20, 3], surface: { material: 3, flag: 0, brightness: 0, light: 0 } });
  m.boxes.push({ min: [-6, 4, 0], max: [-4, 8, 1], surface: { material: 4, flag: 0, brightness: 0, light: 0 } });
  m.spheres.push({ center: [0, -8, 0], radius: 1, surface: { material: 5, flag: 0, brightness: 0, light: 0 } });
  m.bounds = computeBounds(m);
  m.flags = 2;
  return withFaceGroups(m);
}

const world = () => loadGtaWorld(writeColFile([yard()]), 'yard');

describe('GTA CollisionWorld', () => {
  it('detects GTA collision files by their FourCC', () => {
    expect(detectGtaCol(writeColFile([yard()]))).toBe(true);
    for (const cc of ['COLL', 'COL2', 'COL3', 'COL4']) expect(detectGtaCol(new TextEncoder().encode(cc + '\0\0\0\0'))).toBe(true);
    expect(detectGtaCol(new TextEncoder().encode('COL5\0\0\0\0'))).toBe(false);
    expect(detectGtaCol(new TextEncoder().encode('COLL'))).toBe(false);
    expect(detectGtaCol(new TextEncoder().encode('COLBIN\x02\0\0\0'))).toBe(false);
  });

  it('has metres, z up, float coordinates and the bounds of its solid geometry', () => {
    const w = world();
    expect([w.kind, w.up, w.scale, w.integer]).toEqual(['gta', { axis: 2, sign: 1 }, 1, false]);
    expect(w.bounds.min[0]).toBeCloseTo(-20, 4);
    expect(w.bounds.max[2]).toBeCloseTo(3, 4);
  });

  it('ground: floor, material, ceiling, and no floor off the map or for NaN', () => {
    const w = world();
    const g = w.ground([1, 1, 5]) as GtaGroundResult;
    expect([g.hasFloor, g.floor, g.material, g.model]).toEqual([true, 0, 1, 'yard']);
    expect(g.normal).toEqual([0, 0, 1]);
    expect(Number.isNaN(g.ceiling)).toBe(true);
    const under = w.ground([-5, 6, 0.5]);
    expect(under.floor).toBe(0.5); // inside the block: the floor is where the point is
    const top = w.ground([-5, 6, 2]);
    expect([top.floor, top.material]).toEqual([1, 4]);
    const low = w.ground([5.5, 0, -1]);
    expect(low.hasFloor).toBe(false);
    expect(low.ceiling).toBeCloseTo(0, 12);
    expect(w.ground([100, 100, 1]).hasFloor).toBe(false);
    expect(w.ground([NaN, 0, 0]).hasFloor).toBe(false);
    expect(w.ground([0, Infinity, 0]).hasFloor).toBe(false);
  });

  it('move: walking on flat ground stays on it', () => {
    const w = world();
    const r = w.move(body, [0, 0, 0], [1, 0.5, -0.2]);
    expect(r.position[0]).toBeCloseTo(1, 12);
    expect(r.position[1]).toBeCloseTo(0.5, 12);
    expect(r.position[2]).toBe(0);
    expect(r.grounded).toBe(true);
  });

  it('move: a wall stops the body at its radius', () => {
    const w = world();
    const r = w.move(body, [3, 0, 0], [5, 0, 0]);
    expect(r.position[0]).toBeCloseTo(5 - 0.35, 9);
    expect(r.contacts.some((c) => c.kind === 'wall' && c.normal[0] < -0.99 && c.material === 3)).toBe(true);
    // Sliding along it keeps the sideways part.
    const s = w.move(body, [4.65, 0, 0], [1, 2, 0]);
    expect(s.position[0]).toBeCloseTo(4.65, 9);
    expect(s.position[1]).toBeCloseTo(2, 9);
  });

  it('move: steps up a low step, not a high block; falls and lands', () => {
    const w = world();
    const up = w.move(body, [-3, 0, 0], [-2, 0, 0]);
    expect(up.position[2]).toBeCloseTo(38 / 128, 12);
    expect(up.grounded).toBe(true);
    const blocked = w.move(body, [-3, 6, 0], [-2, 0, 0]);
    expect(blocked.position[0]).toBeCloseTo(-4 + 0.35, 6);
    expect(blocked.position[2]).toBeCloseTo(0, 12);
    const fall = w.move(body, [1, 1, 5], [0, 0, -10]);
    expect(fall.position[2]).toBeCloseTo(0, 12);
    expect(fall.grounded).toBe(true);
    expect(fall.contacts.some((c) => c.kind === 'floor')).toBe(true);
    const air = w.move(body, [1, 1, 5], [0, 0, -1]);
    expect(air.position[2]).toBeCloseTo(4, 12);
    expect(air.grounded).toBe(false);
    // Rising into the wall box's underside from below the floor is a ceiling.
    const head = w.move(body, [5.5, 0, -4], [0, 0, 3]);
    expect(head.position[2]).toBeCloseTo(-1.8, 9);
    expect(head.contacts.some((c) => c.kind === 'ceiling')).toBe(true);
  });

  it('move is deterministic and never throws (property)', () => {
    const w = world();
    const num = fc.double({ min: -30, max: 30, noNaN: true });
    const weird = fc.oneof(num, fc.constantFrom(NaN, Infinity, -Infinity, 1e300, -1e300));
    fc.assert(
      fc.property(fc.tuple(num, num, fc.double({ min: 0, max: 4, noNaN: true })), fc.tuple(weird, weird, weird), (from, delta) => {
        const a = w.move(body, from as Vec3, delta as Vec3);
        const b = w.move(body, from as Vec3, delta as Vec3);
        expect(b.position).toEqual(a.position);
        expect(b.grounded).toBe(a.grounded);
        expect(b.contacts).toEqual(a.contacts);
        if (delta.every((v) => Number.isFinite(v) && Math.abs(v) < 100)) {
          for (const v of a.position) expect(Number.isFinite(v)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a grounded body that walks anywhere on the yard stays out of walls (property)', () => {
    const w = world();
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: -0.5, max: 0.5, noNaN: true }), fc.double({ min: -0.5, max: 0.5, noNaN: true })), { maxLength: 30 }), (steps) => {
        let p: Vec3 = [0, 0, 0];
        for (const [dx, dy] of steps) p = w.move(body, p, [dx, dy, -0.1]).position;
        // Feet never end inside the wall box.
        expect(p[0] <= 5 - 0.35 + 1e-6 || p[0] >= 6 + 0.35 - 1e-6).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('sampleOpen is deterministic, returns standing spots or null; spawnPoint is open', () => {
    const w = world();
    let open = 0;
    for (let i = 0; i < 100; i++) {
      const u = (i % 10) / 10 + 0.05, v = Math.floor(i / 10) / 10 + 0.05;
      const p = w.sampleOpen(u, v);
      expect(w.sampleOpen(u, v)).toEqual(p);
      if (!p) continue;
      open++;
      const g = w.ground([p[0], p[1], p[2] + 0.01]);
      expect(g.floor).toBeCloseTo(p[2], 9);
    }
    expect(open).toBeGreaterThan(50);
    expect(w.sampleOpen(1, 0.5)).toBeNull();
    expect(w.sampleOpen(NaN, 0.5)).toBeNull();
    const s = w.spawnPoint();
    expect(w.spawnPoint()).toEqual(s);
    expect(w.ground([s[0], s[1], s[2] + 0.01]).floor).toBeCloseTo(s[2], 9);
  });

  it('segment returns model name and placement; segmentFraction agrees', () => {
    const w = world();
    const r = w.segment([0, 0, 1], [10, 0, 1]) as ReturnType<typeof w.segmentHit>;
    expect([r.hit, r.what, r.material, r.model, r.instance]).toEqual([true, 'box', 3, 'yard', 0]);
    expect(w.segmentFraction(0, 0, 1, 10, 0, 1)).toBe(r.fraction);
  });

  it('placements from JSON, with bad entries named', () => {
    const p = parseGtaPlacements('{"placements":[{"model":"yard","position":[1,2,3],"rotation":[0,0,0,1]},{"model":0,"position":[0,0,0]}]}');
    expect(p).toEqual([{ model: 'yard', position: [1, 2, 3], rotation: [0, 0, 0, 1] }, { model: 0, position: [0, 0, 0] }]);
    const w = loadGtaWorld(writeColFile([yard()]), 'two', p);
    expect(w.scene.instanceCount).toBe(2);
    expect(() => parseGtaPlacements('[{"model":"x","position":[1,2]}]')).toThrow(FormatError);
    expect(() => parseGtaPlacements('nope')).toThrow(FormatError);
    expect(() => parseGtaPlacements('[{"model":"x","position":[1,2,3],"rotation":[1]}]')).toThrow(/placement 0/);
  });
});
