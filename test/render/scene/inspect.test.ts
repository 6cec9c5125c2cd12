/**
 * The inspector: the hover answer is the world's own `ground` at the probe point, whose horizontal
 * coordinates are the map point's (whole units in integer worlds); for Rugrats the probe point sits just above
 * the stack's highest floor, so the query answers "open" with that floor. Clicking a tile describes what the
 * format's data say there, and clicking an entity reads its components, behaviour and sight.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { behaviours, BEHAVIOUR_NAMES, describeAt, describeEntity, insideConvex, pickEntity, probeAt, probePoint } from '../../../src/render/scene/inspect.js';
import { newGroundSample, samplerFor } from '../../../src/render/scene/ground-sampler.js';
import { newEntityFrame, readEntities } from '../../../src/render/scene/entities.js';
import { mapPlaneOf, mapRectOf, mapX, mapY } from '../../../src/render/scene/projection.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { newGroundResult } from '../../../src/worlds/world.js';
import type { ColbinWorld } from '../../../src/worlds/colbin/collision-world.js';
import type { LlamaWorld } from '../../../src/worlds/llama/collision-world.js';
import type { PineyWorld } from '../../../src/worlds/piney/collision-world.js';
import type { RugratsWorld } from '../../../src/worlds/rugrats/collision-world.js';
import { CHIPS, CHIP_UNITS, CELL_UNITS } from '../../../src/worlds/piney/field-state.js';
import { Buttons } from '../../../src/systems/input.js';
import { opener } from '../helpers.js';

const WORLDS = ['piney-default', 'rugrats-demo', 'rugrats-hand', 'llama-demo', 'colbin-demo', 'gta-town'] as const;

async function worldOf(id: string) {
  return (await opener(id)()).world;
}

describe('hover: the ground answer at the probe point', () => {
  test.each(WORLDS)('%s: the probe point is the map point in native units, and the answer is the world\'s ground there', async (id) => {
    const world = await worldOf(id);
    const plane = mapPlaneOf(world);
    const r = mapRectOf(plane, world.bounds)!;
    let floors = 0;
    fc.assert(
      fc.property(fc.noBias(fc.integer({ min: 0, max: 9999 })), fc.noBias(fc.integer({ min: 0, max: 9999 })), (u, v) => {
        const mx = r.x + ((u + 0.5) / 10000) * r.width;
        const my = r.y + ((v + 0.5) / 10000) * r.height;
        const a = probeAt(world, mx, my, plane);
        const p = a.point;
        const want = world.integer ? [Math.floor(mx), Math.floor(my)] : [mx, my];
        expect(mapX(plane, p) === want[0]).toBe(true);
        // Map y is the negated native axis for z-up worlds; floor the native value for integer ones.
        if (world.integer && plane.ySign < 0) expect(p[plane.ay]).toBe(Math.floor(-my));
        else expect(mapY(plane, p) === want[1]).toBe(true);
        const g = world.ground([p[0], p[1], p[2]], newGroundResult());
        expect(a.ground).toEqual({ hasFloor: g.hasFloor, floor: Number.isFinite(g.floor) ? g.floor : null, ceiling: Number.isFinite(g.ceiling) ? g.ceiling : null, material: g.material, id: g.id, status: g.status });
        if (a.ground.hasFloor) floors++;
      }),
      { numRuns: 200 },
    );
    // The worlds are mostly floor: the property saw many answers with one (Rugrats: where the query is open).
    expect(floors).toBeGreaterThan(id.startsWith('rugrats') ? 20 : 50);
  });

  test('Rugrats: just above the highest floor of the stack; where the query is open there, its floor is that floor', async () => {
    const world = (await worldOf('rugrats-demo')) as RugratsWorld;
    const plane = mapPlaneOf(world);
    const r = mapRectOf(plane, world.bounds)!;
    const sampler = samplerFor(world);
    let ran = 0;
    let open = 0;
    fc.assert(
      fc.property(fc.noBias(fc.integer({ min: r.x, max: r.x + r.width - 1 })), fc.noBias(fc.integer({ min: r.y, max: r.y + r.height - 1 })), (x, z) => {
        const s = sampler(x, z, newGroundSample());
        fc.pre(Number.isFinite(s.height));
        ran++;
        const a = probeAt(world, x + 0.5, z + 0.5, plane);
        expect(a.point).toEqual([x, -s.height - 1, z]);
        expect(a.drawnHeight).toBe(s.height);
        if (a.ground.status !== 0) return;
        open++;
        expect(a.ground.hasFloor).toBe(true);
        expect(a.ground.floor).toBe(-s.height);
      }),
      { numRuns: 300 },
    );
    expect(ran).toBeGreaterThan(60);
    // Most of the level is open rooms; the tops of solid blocks (no room above the floor) are closed.
    expect(open).toBeGreaterThan(ran / 2);
  });
});

describe('click: the format\'s own data at a tile', () => {
  test('Rugrats: the cell, its halves and the stack\'s heights', async () => {
    const world = (await worldOf('rugrats-demo')) as RugratsWorld;
    const ix = world.index;
    // Every cell: the description names its column and z cell and lists one row per tile of its stack(s).
    let halved = 0;
    for (let c = 0; c + 1 < ix.colCellStart.length; c++) {
      for (let cell = ix.colCellStart[c]!; cell < ix.colCellStart[c + 1]!; cell++) {
        const x = ix.minX + c * 1024 + 700;
        const z = ix.minZ + ix.cellZ[cell]! * 1024 + 300;
        const t = describeAt(world, x, z);
        expect(t.title).toBe(`Rugrats cell ${c}, ${ix.cellZ[cell]}`);
        const halves = t.rows.find(([k]) => k === 'halves')![1];
        if (ix.cellStackB[cell]! >= 0) {
          halved++;
          expect(halves).toMatch(/diagonal/);
          expect(t.rows.some(([k]) => k === 'stack B')).toBe(true);
        } else expect(halves).toMatch(/not halved/);
        expect(t.highlights.length).toBe(1);
        expect(insideConvex((t.highlights[0] as { points: number[] }).points, x, z)).toBe(true);
        const stackA = t.rows.find(([k]) => k === 'stack A')![1];
        expect(Number(stackA.split(' ')[0])).toBeGreaterThan(0);
      }
    }
    expect(halved).toBeGreaterThan(0);
  });

  test('Llama: the cell, its region, its tiles and polygons; the floor under the point is the ground query\'s', async () => {
    const world = (await worldOf('llama-demo')) as LlamaWorld;
    const c = world.collision;
    let withFloor = 0;
    for (let row = 0; row < c.height; row++) {
      for (let col = 0; col < c.width; col++) {
        const x = col + 0.37;
        const z = row + 0.61;
        const t = describeAt(world, x, z);
        expect(t.title).toBe(`Llama cell ${col}, ${row}`);
        const n = c.cellStart[col + row * c.width + 1]! - c.cellStart[col + row * c.width]!;
        expect(t.rows.find(([k]) => k === 'tiles')![1]).toMatch(new RegExp(`^${n} `));
        const g = probeAt(world, x, z);
        const here = t.rows.find(([k]) => k === 'floor here')![1];
        if (g.ground.hasFloor) {
          withFloor++;
          expect(here).toContain(`of tile ${g.ground.id}`);
          expect(here.startsWith(String(Number(g.ground.floor!.toFixed(3))) )|| here.startsWith(g.ground.floor!.toFixed(3))).toBe(true);
        } else expect(here).toBe('none');
      }
    }
    expect(withFloor).toBeGreaterThan(0);
  });

  test('COLBIN: the floor triangle is the ground query\'s, and a wall\'s centre lists that wall', async () => {
    const world = (await worldOf('colbin-demo')) as ColbinWorld;
    const plane = mapPlaneOf(world);
    const r = mapRectOf(plane, world.bounds)!;
    fc.assert(
      fc.property(fc.noBias(fc.integer({ min: r.x, max: r.x + r.width - 1 })), fc.noBias(fc.integer({ min: r.y, max: r.y + r.height - 1 })), (x, y) => {
        const t = describeAt(world, x + 0.5, y + 0.5);
        const g = probeAt(world, x + 0.5, y + 0.5);
        const row = t.rows.find(([k]) => k === 'floor triangle')![1];
        if (g.ground.id >= 0) {
          expect(row.startsWith(`${g.ground.id} `)).toBe(true);
          // The query asks at the whole-unit point, which lies in (or on the edge of) its triangle.
          expect(insideConvex((t.highlights[0] as { points: number[] }).points, x, y)).toBe(true);
        } else expect(row).toMatch(/none/);
      }),
      { numRuns: 150 },
    );
    const f = world.file;
    for (let w = 0; w < f.wallCount; w++) {
      const cx = mapX(plane, [f.wallCenters[w * 3]!, f.wallCenters[w * 3 + 1]!, f.wallCenters[w * 3 + 2]!]);
      const cy = mapY(plane, [f.wallCenters[w * 3]!, f.wallCenters[w * 3 + 1]!, f.wallCenters[w * 3 + 2]!]);
      const t = describeAt(world, cx, cy);
      expect(t.rows.some(([k]) => k === `wall ${w}`) || t.rows.filter(([k]) => k.startsWith('wall ')).length === 8).toBe(true);
    }
  });

  test('GTA: the face or shape under the point, its model, placement and surface; the highlight covers the point', async () => {
    const world = await worldOf('gta-town');
    const plane = mapPlaneOf(world);
    const r = mapRectOf(plane, world.bounds)!;
    let faces = 0;
    fc.assert(
      fc.property(fc.noBias(fc.integer({ min: 1, max: 9999 })), fc.noBias(fc.integer({ min: 1, max: 9999 })), (u, v) => {
        const x = r.x + (u / 10000) * r.width;
        const y = r.y + (v / 10000) * r.height;
        const g = probeAt(world, x, y);
        fc.pre(g.ground.hasFloor);
        const t = describeAt(world, x, y);
        expect(t.rows.some(([k, val]) => (k === 'face' || k === 'sphere' || k === 'box') && val.startsWith(`${g.ground.id} `))).toBe(true);
        expect(t.rows.find(([k]) => k === 'surface')![1]).toContain(`material ${g.ground.material}`);
        const h = t.highlights[0]!;
        if (h.kind === 'poly') {
          faces++;
          // The placed triangle is under the point (edges included, with a hair of float slack).
          const p = h.points;
          const cx = (p[0]! + p[2]! + p[4]!) / 3;
          const cy = (p[1]! + p[3]! + p[5]!) / 3;
          const grown = p.map((q, i) => q + (q - (i % 2 ? cy : cx)) * 1e-6);
          expect(insideConvex(grown, x, y)).toBe(true);
        } else expect(Math.hypot(h.x - x, h.y - y)).toBeLessThanOrEqual(h.r * (1 + 1e-9));
      }),
      { numRuns: 100 },
    );
    expect(faces).toBeGreaterThan(30);
  });

  test('Piney: the cell, its triangle and height (GetHeight), the chip and the object on it', async () => {
    const world = (await worldOf('piney-default')) as PineyWorld;
    let objects = 0;
    fc.assert(
      fc.property(fc.noBias(fc.integer({ min: 0, max: 479_999 })), fc.noBias(fc.integer({ min: 0, max: 479_999 })), (xi, yi) => {
        const x = xi / 10;
        const y = yi / 10;
        const t = describeAt(world, x, -y);
        const ix = Math.floor(x / CELL_UNITS);
        const iy = Math.floor(y / CELL_UNITS);
        expect(t.title).toBe(`Piney cell ${ix}, ${iy} (chip ${Math.floor(x / CHIP_UNITS)}, ${Math.floor(y / CHIP_UNITS)})`);
        expect(t.rows.find(([k]) => k === 'height')![1].startsWith(String(Number(world.heightAt(x, y).toFixed(3))))).toBe(true);
        const k = Math.floor(x / CHIP_UNITS) * CHIPS + Math.floor(y / CHIP_UNITS);
        const obj = t.rows.find(([key]) => key === 'object')![1];
        if (world.blocker[k]! >= 0) {
          objects++;
          expect(obj.startsWith(world.field.objects[world.blocker[k]!]!.kind)).toBe(true);
        } else expect(obj).toBe('none on this chip');
      }),
      { numRuns: 400 },
    );
    expect(objects).toBeGreaterThan(5);
  });

  test('insideConvex: a convex polygon holds its centroid and not a point far outside, in either winding', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true })), { minLength: 3, maxLength: 3 }), fc.boolean(), (pts, rev) => {
        const [a, b, c] = pts as [number, number][];
        const area = (b![0] - a![0]) * (c![1] - a![1]) - (b![1] - a![1]) * (c![0] - a![0]);
        fc.pre(Math.abs(area) > 1);
        const flat = (rev ? [c, b, a] : [a, b, c]).flatMap((p) => p!);
        expect(insideConvex(flat, (a![0] + b![0] + c![0]) / 3, (a![1] + b![1] + c![1]) / 3)).toBe(true);
        expect(insideConvex(flat, 1000, 1000)).toBe(false);
      }),
    );
  });
});

describe('click: an entity', () => {
  test('its components with their values, its behaviour from the controller, its sight; the nearest is picked', async () => {
    const s = await SandboxSession.create(opener('colbin-demo'), { agents: 20 });
    for (let f = 0; f < 40; f++) s.stepLive(Buttons.Up);
    const sim = s.sim;
    const plane = mapPlaneOf(sim.world);
    const e = readEntities(sim, plane, newEntityFrame(sim.ecs.components.capacity), { ids: new Uint32Array(8) });
    const b = behaviours(sim);
    expect(b).not.toBeNull();
    for (let i = 0; i < e.count; i++) {
      const id = e.ids[i]!;
      const info = describeEntity(sim, id, b)!;
      expect(info.id).toBe(id);
      const pos = info.components.find((c) => c.name === 'Position')!;
      expect(pos.fields).toEqual([
        ['x', sim.ecs.components.Position.x[id]],
        ['y', sim.ecs.components.Position.y[id]],
        ['z', sim.ecs.components.Position.z[id]],
      ]);
      if (id === sim.player) {
        expect(info.role).toBe('player');
        expect(info.behaviour).toBe('');
        expect(info.sight).toBeNull();
      } else {
        expect(info.role).toBe('agent');
        expect(Object.values(BEHAVIOUR_NAMES)).toContain(info.behaviour);
        expect(info.sight).toEqual({ range: sim.ecs.components.Sight.range[id], target: sim.player, visible: sim.ecs.components.Sight.visible[id] === 1 });
      }
      // The entity is picked at its own place.
      expect(e.ids[pickEntity(e, e.x[i]!, e.y[i]!, 1)]).toBe(id);
    }
    expect(describeEntity(sim, 99_999, b)).toBeNull();
    expect(pickEntity(e, 1e9, 1e9, 10)).toBe(-1);
  });
});

test('probePoint on a z-up float world keeps the native y (map y negated)', async () => {
  const world = await worldOf('gta-town');
  const p = probePoint(world, 12.5, -30.25);
  expect([p[0], p[1]]).toEqual([12.5, 30.25]);
});
