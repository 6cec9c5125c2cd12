import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FloorIndex, FLOOR_Y, FLOOR_ID, CEILING_Y, CEILING_ID } from '../../../src/worlds/colbin/floor.js';
import { buildColbin, type V3 } from '../../../src/worlds/colbin/level-builder.js';
import { levelArb } from './arbitraries.js';

/** Floors in raw units (the builder takes Blender units = raw / 128). */
const floorsOf = (tris: [V3, V3, V3][]) =>
  new FloorIndex(buildColbin({ floors: tris.map((t) => ({ vertices: t.map((v) => v.map((c) => c / 128)) as [V3, V3, V3] })), walls: [] }));

const q = (f: FloorIndex, x: number, y: number, z: number, up = -1) => {
  const out = new Float64Array(4);
  f.query(x, y, z, up, out);
  return { floor: out[FLOOR_Y], floorId: out[FLOOR_ID], ceiling: out[CEILING_Y], ceilingId: out[CEILING_ID] };
};

describe('COLBIN floor height', () => {
  // Two flat floors over the same square, at y = 0 and y = −256 (higher under −Y up), wound oppositely.
  const square = (y: number, flip: boolean): [V3, V3, V3][] => {
    const a: V3 = [0, y, 0], b: V3 = [512, y, 0], c: V3 = [512, y, 512], d: V3 = [0, y, 512];
    return flip ? [[a, c, b], [a, d, c]] : [[a, b, c], [a, c, d]];
  };
  const f = floorsOf([...square(0, false), ...square(-256, true)]);

  it('under −Y up, the floor is the nearest surface with y ≥ the probe and the ceiling the nearest with y < it', () => {
    expect(q(f, 100, -100, 50)).toEqual({ floor: 0, floorId: 0, ceiling: -256, ceilingId: 2 });
    expect(q(f, 100, -300, 50)).toEqual({ floor: -256, floorId: 2, ceiling: NaN, ceilingId: -1 });
    expect(q(f, 100, 10, 50)).toEqual({ floor: NaN, floorId: -1, ceiling: 0, ceilingId: 0 });
  });

  it('with +Y up the roles swap', () => {
    expect(q(f, 100, -100, 50, 1)).toEqual({ floor: -256, floorId: 2, ceiling: 0, ceilingId: 0 });
  });

  it('a floor exactly at the probe height counts as the floor ("at or below")', () => {
    expect(q(f, 100, 0, 50).floor).toBe(0);
    expect(q(f, 100, -256, 50).floor).toBe(-256);
  });

  it('edges are inside; the shared diagonal goes to the lower triangle index', () => {
    expect(q(f, 0, -1, 0).floorId).toBe(0);
    expect(q(f, 256, -1, 256).floorId).toBe(0); // on the diagonal shared by triangles 0 and 1
    expect(q(f, 100, -1, 400).floorId).toBe(1);
    expect(q(f, 513, -1, 100).floorId).toBe(-1);
    expect(q(f, -0.5, -1, 100).floorId).toBe(-1);
  });

  it('the height comes from the plane through the vertices, not the stored normal', () => {
    // A slope rising (in −y) by 128 over 256 in x: at x = 128 the plane is at y = −64.
    const s = floorsOf([[[0, 0, 0], [256, -128, 0], [0, 0, 256]]]);
    expect(q(s, 128, 1000, 64)).toMatchObject({ floor: NaN, ceiling: -64 });
    expect(q(s, 128, -1000, 64)).toMatchObject({ floor: -64, ceiling: NaN });
    expect(q(s, 100, -1000, 10).floor).toBe(-50);
  });

  it('vertical triangles and non-finite probes give no floor', () => {
    const v = floorsOf([[[0, 0, 0], [256, 0, 0], [0, -256, 0]]]);
    expect(q(v, 10, 100, 0).floorId).toBe(-1);
    expect(q(f, NaN, 0, 0).floorId).toBe(-1);
    expect(q(f, 100, NaN, 100).floorId).toBe(-1);
    expect(q(f, Infinity, 0, 100).floorId).toBe(-1);
    expect(q(f, 1e300, 0, -1e300).floorId).toBe(-1);
  });

  it('property: the grid query equals testing every triangle', () => {
    fc.assert(
      fc.property(
        levelArb(2, 0, 40),
        fc.array(fc.tuple(fc.integer({ min: -1100, max: 1100 }), fc.integer({ min: -1100, max: 1100 }), fc.integer({ min: -1100, max: 1100 })), { minLength: 1, maxLength: 30 }),
        fc.constantFrom(1, -1),
        (desc, probes, up) => {
          const idx = new FloorIndex(buildColbin(desc));
          const a = new Float64Array(4);
          const b = new Float64Array(4);
          for (const [x, y, z] of probes) {
            idx.query(x, y, z, up, a);
            idx.queryAll(x, y, z, up, b);
            expect(Array.from(a)).toEqual(Array.from(b));
          }
          // probes on vertices too (edges and corners are where a grid goes wrong)
          for (let i = 0; i < idx.count; i++) {
            const t = idx.tri;
            idx.query(t[i * 10]!, 0, t[i * 10 + 1]!, up, a);
            idx.queryAll(t[i * 10]!, 0, t[i * 10 + 1]!, up, b);
            expect(Array.from(a)).toEqual(Array.from(b));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: the floor found is never above the probe and the ceiling never below it', () => {
    fc.assert(
      fc.property(levelArb(2, 0, 20), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), (desc, x, y, z) => {
        const idx = new FloorIndex(buildColbin(desc));
        const r = q(idx, x, y, z, -1);
        if (r.floorId! >= 0) expect(r.floor!).toBeGreaterThanOrEqual(y);
        if (r.ceilingId! >= 0) expect(r.ceiling!).toBeLessThan(y);
      }),
      { numRuns: 300 },
    );
  });
});
