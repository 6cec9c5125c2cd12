import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LlamaWorld } from '../../../src/worlds/llama/collision-world.js';
import { checkLevel } from '../../../src/worlds/llama/check.js';
import { flatQuad, wallQuad } from '../../../src/worlds/llama/demo-levels.js';
import { buildLevel, type LevelDescription } from '../../../src/worlds/llama/level-builder.js';
import { parseMap } from '../../../src/worlds/llama/map-parse.js';
import { writeMapFile } from '../../../src/worlds/llama/map-write.js';
import { parseTrak } from '../../../src/worlds/llama/trak-parse.js';
import { writeTrakFile } from '../../../src/worlds/llama/trak-write.js';
import { visibleCells } from '../../../src/worlds/llama/regions.js';

/** Models of the random levels: a full floor, a full exit floor, and a floor over local x ≤ 0 only. */
const MODELS: LevelDescription['models'] = [
  { floors: [flatQuad(0)] },
  { floors: [flatQuad(0, -0.5, 0.5, -0.5, 0.5, 16)] },
  { floors: [flatQuad(0, -0.5, 0, -0.5, 0.5, 3)] },
];

const tileArb = (w: number, h: number) =>
  fc.record({
    col: fc.integer({ min: 0, max: w - 1 }),
    row: fc.integer({ min: 0, max: h - 1 }),
    y: fc.integer({ min: -64, max: 64 }).map((v) => v / 16),
    rot: fc.constantFrom(0, 1024, 2048, 3072),
    model: fc.integer({ min: 0, max: 2 }),
  });

const levelArb = fc
  .record({ w: fc.integer({ min: 1, max: 4 }), h: fc.integer({ min: 1, max: 4 }) })
  .chain(({ w, h }) =>
    fc.record({
      w: fc.constant(w),
      h: fc.constant(h),
      tiles: fc.array(tileArb(w, h), { maxLength: 12 }),
    }),
  )
  .map(({ w, h, tiles }): LevelDescription => ({ name: 'random', width: w, height: h, models: MODELS, tiles }));

/** A coordinate inside a cell, away from its edges and its middle line (the half tile's edge). */
const fracArb = fc.oneof(fc.integer({ min: 5, max: 45 }), fc.integer({ min: 55, max: 95 })).map((v) => v / 100);

/**
 * An independent oracle for the random levels: the tiles listed in the point's cell, their floor covering
 * the point (the half tile covers local x ≤ 0; a world offset turns back into local coordinates by the
 * inverse of "rotation 1024 turns local +z to +x"), the highest at or below the point.
 */
function oracle(d: LevelDescription, x: number, y: number, z: number): { floor: number; material: number } | null {
  const col = Math.floor(x), row = Math.floor(z);
  let best: { floor: number; material: number } | null = null;
  for (const t of d.tiles) {
    if (t.col !== col || t.row !== row) continue;
    const ty = Math.round((t.y ?? 0) * 4096) / 4096;
    if (ty > y + 1 / 4096) continue;
    const wx = x - (t.col + 0.5), wz = z - (t.row + 0.5);
    const quarter = ((t.rot ?? 0) / 1024) & 3;
    // local = R⁻¹·world; R maps local (lx, lz) to (lz, −lx) per quarter turn.
    let lx = wx, lz = wz;
    for (let q = 0; q < quarter; q++) [lx, lz] = [-lz, lx];
    if (t.model === 2 && lx > 0) continue;
    const material = t.model === 1 ? 16 : t.model === 2 ? 3 : 0;
    if (!best || ty > best.floor) best = { floor: ty, material };
  }
  return best;
}

describe('llama properties on random levels', () => {
  it('ground agrees with an independent oracle of the cell rule, rotation and no step-up', () => {
    fc.assert(
      fc.property(levelArb, fc.nat(), fc.nat(), fracArb, fracArb, fc.integer({ min: -80, max: 80 }), (d, c, r, fx, fz, qy) => {
        const b = buildLevel(d);
        const w = new LlamaWorld(b.trak, b.map, 'random');
        const x = (c % d.width) + fx, z = (r % d.height) + fz, y = qy / 16 + 1 / 32;
        const g = w.ground([x, y, z]);
        const o = oracle(d, x, y, z);
        expect(g.hasFloor).toBe(o !== null);
        if (o) {
          expect(g.floor).toBe(o.floor);
          expect(g.material).toBe(o.material);
        }
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('writing what was parsed gives the same bytes, and the checker passes well-formed levels', () => {
    fc.assert(
      fc.property(levelArb, (d) => {
        const b = buildLevel(d);
        const t = parseTrak(b.trakBytes);
        const m = parseMap(b.mapBytes, t.models.map((x) => x.vertices.length / 6));
        expect(Buffer.from(writeTrakFile(t)).equals(Buffer.from(b.trakBytes))).toBe(true);
        expect(Buffer.from(writeMapFile(m)).equals(Buffer.from(b.mapBytes))).toBe(true);
        expect(checkLevel(t, m).problems).toEqual([]);
      }),
      { numRuns: 100, seed: 12 },
    );
  });

  it('quarter turns do not change symmetric tiles', () => {
    fc.assert(
      fc.property(levelArb, fracArb, fracArb, (d, fx, fz) => {
        const sym = { ...d, tiles: d.tiles.map((t) => ({ ...t, model: t.model === 2 ? 0 : t.model })) };
        const turned = { ...sym, tiles: sym.tiles.map((t, i) => ({ ...t, rot: (i * 1024) & 4095 })) };
        const a = buildLevel(sym), b = buildLevel(turned);
        const wa = new LlamaWorld(a.trak, a.map, 'a'), wb = new LlamaWorld(b.trak, b.map, 'b');
        for (let c = 0; c < d.width * d.height; c++) {
          const p: [number, number, number] = [(c % d.width) + fx, 10, Math.floor(c / d.width) + fz];
          expect(wb.ground(p)).toEqual(wa.ground(p));
        }
      }),
      { numRuns: 100, seed: 13 },
    );
  });

  it('a body never ends within its radius in front of a wall it walked into', () => {
    fc.assert(
      fc.property(
        // The wall stands far enough into its cell that a body touching it is listed in the same cell.
        fc.integer({ min: -15, max: 40 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 10, max: 30 }),
        fc.integer({ min: -20, max: 20 }),
        (wallAt, startAt, step, radius, dz) => {
          const a = wallAt / 100;
          const d: LevelDescription = {
            name: 'wall',
            width: 3,
            height: 1,
            models: [{ floors: [flatQuad(0)] }, { floors: [flatQuad(0)], walls: [wallQuad([a, -0.5], [a, 0.5], 0, 1, [-1, 0, 0])] }],
            tiles: [{ model: 0, col: 0, row: 0 }, { model: 1, col: 1, row: 0 }, { model: 0, col: 2, row: 0 }],
          };
          const b = buildLevel(d);
          const w = new LlamaWorld(b.trak, b.map, 'wall');
          const r = radius / 100;
          const wallX = 1.5 + a;
          const sx = 1 + (wallX - r - 1) * (startAt / 100);
          const ex = Math.min(sx + step / 100, 1.999);
          const res = w.move({ radius: r, height: 0.75 }, [sx, 0, 0.5], [ex - sx, 0, dz / 100]);
          expect(res.position[0]).toBeLessThanOrEqual(wallX - r + 1e-3);
          if (ex <= wallX - r - 1e-3) expect(res.position[0]).toBe(ex);
          expect(res.grounded).toBe(true);
        },
      ),
      { numRuns: 300, seed: 14 },
    );
  });

  it('segmentFraction agrees with segment, and floor hits lie on the floor', () => {
    fc.assert(
      fc.property(levelArb, fc.array(fc.double({ min: -1, max: 5, noNaN: true }), { minLength: 6, maxLength: 6 }), (d, v) => {
        const b = buildLevel(d);
        const w = new LlamaWorld(b.trak, b.map, 'seg');
        const [fx, fy, fz, tx, ty, tz] = v as [number, number, number, number, number, number];
        const s = w.segment([fx, fy, fz], [tx, ty, tz]);
        const f = w.segmentFraction(fx, fy, fz, tx, ty, tz);
        expect(f).toBe(s.hit ? s.fraction : -1);
        if (s.hit) {
          expect(s.fraction).toBeGreaterThanOrEqual(0);
          expect(s.fraction).toBeLessThanOrEqual(1);
          const g = w.ground([s.point[0], s.point[1] + 1e-6, s.point[2]]);
          if (s.point[0] % 1 > 1e-6 && s.point[2] % 1 > 1e-6) expect(g.floor).toBeCloseTo(s.point[1], 9);
        }
      }),
      { numRuns: 300, seed: 15 },
    );
  });

  it('region visibility: mask bits, mask 0 and a camera outside the grid', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 32, maxLength: 32 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 25, maxLength: 25 }),
        fc.double({ min: -2, max: 7, noNaN: true }),
        fc.double({ min: -2, max: 7, noNaN: true }),
        (wd, ht, masks, regs, cx, cz) => {
          const cells = regs.slice(0, wd * ht);
          const b = buildLevel({ name: 'r', width: wd, height: ht, models: [], tiles: [], regions: { masks, cells } });
          const vis = visibleCells(b.map, cx, cz);
          const inside = cx >= 0 && cx < wd && cz >= 0 && cz < ht;
          const camRegion = inside ? cells[Math.floor(cx) + Math.floor(cz) * wd]! : -1;
          const mask = camRegion >= 0 && camRegion < 32 ? masks[camRegion]! : 0;
          for (let c = 0; c < cells.length; c++) {
            const expected = !inside || mask === 0 || mask === 0xffffffff || (cells[c]! < 32 && Math.floor(mask / 2 ** cells[c]!) % 2 === 1);
            expect(vis[c]).toBe(expected ? 1 : 0);
          }
        },
      ),
      { numRuns: 300, seed: 16 },
    );
  });

  it('move and ground agree: a grounded body stands on the floor ground reports, with its contact', () => {
    fc.assert(
      fc.property(levelArb, fc.nat(), fc.nat(), fracArb, fracArb, fc.integer({ min: -64, max: 64 }), fc.integer({ min: -40, max: 10 }), (d, c, r, fx, fz, y0, dy) => {
        const b = buildLevel(d);
        const w = new LlamaWorld(b.trak, b.map, 'random');
        const from: [number, number, number] = [(c % d.width) + fx, y0 / 16, (r % d.height) + fz];
        const res = w.move({ radius: 0.1, height: 0.5 }, from, [0, dy / 16, 0]);
        const g = w.ground([res.position[0], res.position[1] + 1 / 8192, res.position[2]]);
        if (res.grounded) {
          expect(g.floor).toBe(res.position[1]);
          const kind = g.material === 16 ? 'exit' : g.material === 30 ? 'death' : 'floor';
          expect(res.contacts[res.contacts.length - 1]).toMatchObject({ kind, material: g.material, id: g.id });
        } else if (g.hasFloor) {
          expect(res.position[1]).toBeGreaterThan(g.floor);
        }
        // Falling never passes a floor that was under the start position.
        const before = w.ground(from);
        if (before.hasFloor && dy < 0) expect(res.position[1]).toBeGreaterThanOrEqual(before.floor);
      }),
      { numRuns: 300, seed: 17 },
    );
  });

  it('a turned wall tile blocks in its turned direction', () => {
    fc.assert(
      fc.property(fc.constantFrom(0, 1024, 2048, 3072), fc.integer({ min: 10, max: 30 }), (rot, rr) => {
        const d: LevelDescription = {
          name: 'turned wall',
          width: 1,
          height: 1,
          models: [{ floors: [flatQuad(0)], walls: [wallQuad([0.45, -0.5], [0.45, 0.5], 0, 1, [-1, 0, 0])] }],
          tiles: [{ model: 0, col: 0, row: 0, rot }],
        };
        const b = buildLevel(d);
        const w = new LlamaWorld(b.trak, b.map, 'turned');
        // Local +x turned: rotation 1024 takes local +z to +x, so local +x goes to −z.
        const q = rot / 1024;
        const dir = [[1, 0], [0, -1], [-1, 0], [0, 1]][q]!;
        const radius = rr / 100;
        const res = w.move({ radius, height: 0.75 }, [0.5, 0, 0.5], [dir[0]! * 0.45, 0, dir[1]! * 0.45]);
        const along = (res.position[0] - 0.5) * dir[0]! + (res.position[2] - 0.5) * dir[1]!;
        expect(along).toBeCloseTo(0.45 - radius, 3);
        expect(res.contacts[0]!.kind).toBe('wall');
      }),
      { numRuns: 40, seed: 18 },
    );
  });
});
