import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eeFromNumber, eeToNumber } from '../../../src/numeric/ee-float.js';
import { loadPineyWorld, wrapField, MAX_BODY_RADIUS, OBJECT_BLOCK_HEIGHT, type PineyWorld } from '../../../src/worlds/piney/collision-world.js';
import { getHeight, HIDDEN_HEIGHT, MISS_HEIGHT, surfaceHeight } from '../../../src/worlds/piney/get-height.js';
import { CHIP_UNITS } from '../../../src/worlds/piney/field-state.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

const specBytes = new Uint8Array(readFileSync(new URL('../../../assets/worlds/piney/default.field.json', import.meta.url)));
const world: PineyWorld = loadPineyWorld(specBytes, 'default.field.json', defaultPineyTables());
const xy = fc.double({ min: 0, max: 47999, noNaN: true });
const body = { radius: 100, height: 180 };

describe('the field as a CollisionWorld', () => {
  it('has the game\'s units and axes: z up, 48000 across, the start at chip (20, 20)', () => {
    expect(world.kind).toBe('piney');
    expect(world.up).toEqual({ axis: 2, sign: 1 });
    expect(world.bounds.max[0]).toBe(48000);
    const s = world.spawnPoint();
    expect(s.slice(0, 2)).toEqual([24600, 24600]);
    // GetHeight's own answer on the flattened centre (reference: 0x39800000).
    expect(s[2]).toBe(eeToNumber(0x39800000));
  });

  it('ground is GetHeight\'s triangle height; status 1 where GetHeight answers −500', () => {
    fc.assert(
      fc.property(xy, xy, (x, y) => {
        const g = world.ground([x, y, 5000]);
        const bits = getHeight(world.field.map, world.field.check3, eeFromNumber(x), eeFromNumber(y));
        if (bits === HIDDEN_HEIGHT) expect(g.status).toBe(1);
        else {
          expect(g.status).toBe(0);
          expect(g.floor).toBe(eeToNumber(bits));
        }
        expect(g.hasFloor).toBe(true);
        expect(Math.abs(g.floor - world.planeHeight(x, y))).toBeLessThan(0.05);
      }),
      { numRuns: 200 },
    );
  });

  it('the field is a torus: ground repeats every 48000', () => {
    fc.assert(
      fc.property(xy, xy, fc.integer({ min: -3, max: 3 }), (x, y, k) => {
        // Equal up to the EE ray's last bits: x + 48000k − 48000k may differ from x in its lowest bits.
        expect(world.ground([x + 48000 * k, y, 0]).floor).toBeCloseTo(world.ground([x, y, 0]).floor, 2);
      }),
      { numRuns: 100 },
    );
  });

  it('a vertical segment from high above to below ground hits the terrain or an object column', () => {
    fc.assert(
      fc.property(xy, xy, (x, y) => {
        const r = world.segment([x, y, 3000], [x, y, -2000]);
        expect(r.hit).toBe(true);
        if (r.what === 'floor') expect(Math.abs(r.point[2] - world.planeHeight(x, y))).toBeLessThan(1e-6);
        else {
          expect(r.what).toBe('object');
          expect(r.normal).toEqual([0, 0, 1]);
          expect(r.point[2]).toBeGreaterThanOrEqual(OBJECT_BLOCK_HEIGHT);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('segmentFraction agrees with segment, and a hit point is on the surface it names', () => {
    const z = fc.double({ min: -100, max: 3000, noNaN: true });
    fc.assert(
      fc.property(xy, xy, z, xy, xy, z, (ax, ay, az, bx, by, bz) => {
        const f = world.segmentFraction(ax, ay, az, bx, by, bz);
        const r = world.segment([ax, ay, az], [bx, by, bz]);
        if (f < 0) expect(r.hit).toBe(false);
        else {
          expect(r.hit).toBe(true);
          expect(r.fraction).toBe(f);
          expect(f).toBeGreaterThanOrEqual(0);
          expect(f).toBeLessThanOrEqual(1);
          if (r.what === 'floor' && f > 0) expect(Math.abs(r.point[2] - world.planeHeight(r.point[0], r.point[1]))).toBeLessThan(1e-3);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a segment high above everything hits nothing; NaN and Infinity give −1 and defined results', () => {
    expect(world.segmentFraction(0, 0, 9000, 40000, 40000, 9500)).toBe(-1);
    expect(world.segmentFraction(NaN, 0, 0, 1, 1, 1)).toBe(-1);
    expect(world.segmentFraction(0, 0, 0, Infinity, 1, 1)).toBe(-1);
    expect(world.segmentFraction(-1e308, 0, 0, 1e308, 1, 1)).toBe(-1);
    expect(typeof world.segmentFraction(1e300, 1e300, 10, 1e300 + 1e285, 1e300, -10)).toBe('number');
    expect(world.segment([0, 0, 0], [NaN, 0, 0]).hit).toBe(false);
    expect(world.ground([NaN, 1, 1]).hasFloor).toBe(false);
    const m = world.move(body, [NaN, 0, 0], [1, 1, 0]);
    expect(m.grounded).toBe(false);
    expect(world.sampleOpen(NaN, 0.5)).toBeNull();
    // A hostile radius or delta still gives an answer at once.
    const huge = world.move({ radius: 1e300, height: 1 }, [100, 100, 0], [1e12, -1e12, 0]);
    expect(Number.isFinite(huge.position[0])).toBe(true);
    expect(world.blocked(Infinity, 0, 1)).toBe(false);
    // A huge horizontal segment ends (capped) with an answer.
    expect(typeof world.segmentFraction(0, 0, 5, 1e12, 3e11, 5)).toBe('number');
  });

  it('a low horizontal segment across an object\'s footprint hits the object', () => {
    const o = world.field.objects.find((k) => k.kind === 'entrance')!;
    const cy = (o.y + o.h / 2) * CHIP_UNITS;
    const x0 = (o.x - 0.5) * CHIP_UNITS;
    const x1 = (o.x + o.w + 0.5) * CHIP_UNITS;
    const r = world.segment([x0, cy, 900], [x1, cy, 900]);
    expect(r.hit).toBe(true);
    expect(r.what).toBe('object');
    expect(r.point[0]).toBeCloseTo(o.x * CHIP_UNITS, 6);
    expect(r.normal).toEqual([-1, 0, 0]);
  });

  it('move keeps the feet on GetHeight and never ends inside an object footprint', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.double({ min: -3000, max: 3000, noNaN: true }), fc.double({ min: -3000, max: 3000, noNaN: true }), (u, v, dx, dy) => {
        const from = world.sampleOpen(u, v);
        if (!from || world.blocked(from[0], from[1], body.radius)) return;
        const m = world.move(body, from, [dx, dy, 0]);
        expect(world.blocked(m.position[0], m.position[1], body.radius)).toBe(false);
        expect(m.position[2]).toBe(world.ground(m.position).floor);
        expect(m.position[0]).toBe(wrapField(m.position[0]));
        expect(m.grounded).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('heightAt is GetHeight\'s surface at the wrapped point bit for bit (the plane where both triangles miss), on edges and off the torus too', () => {
    const cellEdge = fc
      .tuple(fc.integer({ min: -80, max: 159 }), fc.integer({ min: 0, max: 79 }), fc.double({ min: 0, max: 600, noNaN: true }), fc.constantFrom(0, 1e-7, -1e-7, 0.004, -0.004), fc.boolean())
      .map(([i, j, t, d, diag]): [number, number] => (diag ? [i * 600 + t, j * 600 + t + d] : [i * 600 + d, j * 600 + t]));
    const far = fc.tuple(fc.double({ min: -1e7, max: 1e7, noNaN: true }), fc.double({ min: -1e7, max: 1e7, noNaN: true }));
    fc.assert(
      fc.property(fc.oneof(cellEdge, far, fc.tuple(xy, xy)), ([x, y]) => {
        const bits = surfaceHeight(world.field.map, eeFromNumber(wrapField(x)), eeFromNumber(wrapField(y)));
        expect(world.heightAt(x, y)).toBe(bits === MISS_HEIGHT ? world.planeHeight(x, y) : eeToNumber(bits));
      }),
      { numRuns: 3000 },
    );
  });

  it('move with its contacts emptied before each call (the movement system\'s way) still reports exactly this move\'s contacts', () => {
    const o = world.field.objects.find((k) => k.kind === 'entrance')!;
    const cy = (o.y + o.h / 2) * CHIP_UNITS;
    const out = { position: [0, 0, 0] as [number, number, number], grounded: false, contacts: [] as { kind: string; normal: [number, number, number]; id: number; material: number }[] };
    world.move(body, [(o.x - 2) * CHIP_UNITS, cy, 0], [3 * CHIP_UNITS, 0, 0], out);
    expect(out.contacts.map((c) => c.kind)).toEqual(['wall', 'floor']);
    expect(out.contacts[0]!.normal).toEqual([-1, 0, 0]);
    const wall = out.contacts[0]!;
    out.contacts.length = 0;
    // Away from every object: only the floor.
    const open = world.sampleOpen(0.37, 0.61)!;
    world.move(body, open, [1, 1, 0], out);
    expect(out.contacts).toHaveLength(1);
    expect(out.contacts[0]).toEqual({ kind: 'floor', normal: [0, 0, 1], id: -1, material: 0 });
    // The world wrote into the object it had given this result before instead of allocating one.
    expect(out.contacts[0]).toBe(wall);
    // A different result object gets its own contacts.
    const other = world.move(body, open, [1, 1, 0]);
    expect(other.contacts[0]).not.toBe(wall);
    expect(other.contacts).toEqual(out.contacts);
  });

  it('move takes the same steps as the rule it documents, asked of `blocked` at every step (near objects, on chip lines, any radius)', () => {
    // The rule, written plainly: quarter-chip steps; a blocked step slides along x, else along y, else stops.
    const reference = (radius: number, from: readonly number[], d: readonly number[]) => {
      const r = Number.isFinite(radius) && radius > 0 ? Math.min(radius, MAX_BODY_RADIUS) : 0;
      const steps = Math.min(4096, Math.max(1, Math.ceil((Math.abs(d[0]!) + Math.abs(d[1]!)) / (CHIP_UNITS / 4))));
      const sx = d[0]! / steps;
      const sy = d[1]! / steps;
      let x = from[0]!;
      let y = from[1]!;
      let wallX = 0;
      let wallY = 0;
      for (let s = 0; s < steps; s++) {
        if (!world.blocked(x + sx, y + sy, r)) {
          x += sx;
          y += sy;
        } else if (sx !== 0 && !world.blocked(x + sx, y, r)) {
          x += sx;
          wallY = sy > 0 ? -1 : 1;
        } else if (sy !== 0 && !world.blocked(x, y + sy, r)) {
          y += sy;
          wallX = sx > 0 ? -1 : 1;
        } else {
          wallX = sx > 0 ? -1 : sx < 0 ? 1 : 0;
          wallY = sy > 0 ? -1 : sy < 0 ? 1 : 0;
          break;
        }
      }
      x = wrapField(x);
      y = wrapField(y);
      return { x, y, z: world.heightAt(x, y), wallX, wallY };
    };
    const objects = world.field.objects;
    // Starts around an object's footprint (its sides, corners and chip lines are where the steps get blocked).
    const nearObject = fc
      .tuple(fc.nat({ max: objects.length - 1 }), fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }))
      .map(([k, u, v]): [number, number] => {
        const o = objects[k]!;
        return [(o.x + o.w / 2 + u * o.w) * CHIP_UNITS, (o.y + o.h / 2 + v * o.h) * CHIP_UNITS];
      });
    const onChipLine = fc.tuple(fc.integer({ min: 0, max: 39 }), xy, fc.constantFrom(0, 1e-9, -1e-9, 30, -30, 29.999999, 100)).map(([i, t, d]): [number, number] => [i * CHIP_UNITS + d, t]);
    const radius = fc.oneof(fc.constantFrom(0, 30, 100, 600, 1200, MAX_BODY_RADIUS, 1e9, -5), fc.double({ min: 0, max: 6000, noNaN: true }));
    const delta = fc.oneof(fc.double({ min: -4, max: 4, noNaN: true }), fc.double({ min: -3000, max: 3000, noNaN: true }));
    let ran = 0;
    fc.assert(
      fc.property(fc.oneof(nearObject, onChipLine, fc.tuple(xy, xy)), radius, delta, delta, fc.boolean(), ([x, y], r, dx, dy, swap) => {
        const from = swap ? [y, x, 0] : [x, y, 0];
        const m = world.move({ radius: r, height: 180 }, from as [number, number, number], [dx, dy, 0]);
        const want = reference(r, from, [dx, dy]);
        expect([m.position[0], m.position[1], m.position[2]]).toEqual([want.x, want.y, want.z]);
        const wall = m.contacts.find((c) => c.kind === 'wall');
        if (want.wallX === 0 && want.wallY === 0) expect(wall).toBeUndefined();
        else {
          const n = want.wallX !== 0 && want.wallY !== 0 ? Math.SQRT1_2 : 1;
          expect(wall?.normal).toEqual([want.wallX * n, want.wallY * n, 0]);
          ran++;
        }
        expect(m.contacts[m.contacts.length - 1]!.kind).toBe('floor');
      }),
      { numRuns: 4000 },
    );
    // Enough of the cases met a wall for the blocked branches to have been compared.
    expect(ran).toBeGreaterThan(200);
  });

  it('walking straight at an object stops at its side with a wall contact', () => {
    const o = world.field.objects.find((k) => k.kind === 'entrance')!;
    const cy = (o.y + o.h / 2) * CHIP_UNITS;
    const start: [number, number, number] = [(o.x - 2) * CHIP_UNITS, cy, 0];
    const m = world.move(body, start, [3 * CHIP_UNITS, 0, 0]);
    expect(m.position[0]).toBeLessThanOrEqual(o.x * CHIP_UNITS - body.radius);
    expect(m.contacts.some((c) => c.kind === 'wall')).toBe(true);
  });

  it('sampleOpen is deterministic and never lands on an object', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (u, v) => {
        const a = world.sampleOpen(u, v);
        expect(world.sampleOpen(u, v)).toEqual(a);
        if (a) expect(world.blocked(a[0], a[1], 0)).toBe(false);
      }),
    );
  });
});
