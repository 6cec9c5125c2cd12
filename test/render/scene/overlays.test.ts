import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { convexHull, overlayFor, paletteColour } from '../../../src/render/scene/overlays.js';
import type { ColbinWorld } from '../../../src/worlds/colbin/collision-world.js';
import type { GtaWorld } from '../../../src/worlds/gta/collision-world.js';
import type { PineyWorld } from '../../../src/worlds/piney/collision-world.js';
import { pineyScene } from '../../../src/worlds/piney/scene.js';
import type { RugratsWorld } from '../../../src/worlds/rugrats/collision-world.js';
import { opener } from '../helpers.js';

describe('convex hull', () => {
  test('holds every point, and its corners are points given, counter-clockwise', () => {
    const pt = fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }));
    fc.assert(
      fc.property(fc.array(pt, { minLength: 3, maxLength: 40 }), (pts) => {
        const hull = convexHull(pts.flat());
        const n = hull.length / 2;
        const given = new Set(pts.map(([x, y]) => `${x},${y}`));
        for (let i = 0; i < n; i++) expect(given.has(`${hull[2 * i]},${hull[2 * i + 1]}`)).toBe(true);
        if (n < 3) return; // all points on a line
        for (let i = 0; i < n; i++) {
          const ax = hull[2 * i]!;
          const ay = hull[2 * i + 1]!;
          const bx = hull[(2 * i + 2) % hull.length]!;
          const by = hull[(2 * i + 3) % hull.length]!;
          for (const [px, py] of pts) expect((bx - ax) * (py - ay) - (by - ay) * (px - ax)).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});

test('palette colours are 24-bit and differ for neighbouring indices', () => {
  for (let i = 0; i < 64; i++) {
    const c = paletteColour(i);
    expect(c).toBeGreaterThanOrEqual(0);
    expect(c).toBeLessThanOrEqual(0xffffff);
    expect(c).not.toBe(paletteColour(i + 1));
  }
});

describe('format overlays', () => {
  test('COLBIN: one box per wall, the floors as three edges each, the wall grid', async () => {
    const w = (await opener('colbin-demo')()).world as ColbinWorld;
    const o = overlayFor(w);
    const walls = o.shapes.filter((s) => s.layer === 'walls');
    expect(walls.length).toBe(w.file.wallCount);
    const floors = o.shapes.find((s) => s.layer === 'floors');
    expect(floors?.kind === 'lines' && floors.segments.length).toBe(w.file.floorCount * 12);
    expect(o.shapes.some((s) => s.layer === 'grid')).toBe(w.file.grid !== null);
    // A wall's footprint contains its centre.
    for (let k = 0; k < w.file.wallCount; k++) {
      const s = walls[k]!;
      if (s.kind !== 'poly') throw new Error('wall is not a polygon');
      const cx = w.file.wallCenters[k * 3]!;
      const cz = w.file.wallCenters[k * 3 + 2]!;
      const xs = s.points.filter((_, i) => i % 2 === 0);
      const ys = s.points.filter((_, i) => i % 2 === 1);
      expect(cx).toBeGreaterThanOrEqual(Math.min(...xs));
      expect(cx).toBeLessThanOrEqual(Math.max(...xs));
      expect(cz).toBeGreaterThanOrEqual(Math.min(...ys));
      expect(cz).toBeLessThanOrEqual(Math.max(...ys));
    }
  });

  test('GTA: every placement’s spheres and boxes', async () => {
    const w = (await opener('gta-town')()).world as GtaWorld;
    const o = overlayFor(w);
    let spheres = 0;
    let boxes = 0;
    for (let i = 0; i < w.scene.instanceCount; i++) {
      const m = w.scene.models[w.scene.instModel[i]!]!;
      spheres += m.spheres.length;
      boxes += m.boxes.length;
    }
    expect(o.shapes.filter((s) => s.layer === 'spheres').length).toBe(spheres);
    expect(o.shapes.filter((s) => s.layer === 'boxes').length).toBe(boxes);
    expect(spheres + boxes).toBeGreaterThan(0);
  });

  test('Piney: one rectangle per object, a ring per hill, the start, entrance and lake marked', async () => {
    const w = (await opener('piney-default')()).world as PineyWorld;
    const sc = pineyScene(w);
    const o = overlayFor(w);
    expect(o.shapes.filter((s) => s.layer === 'objects').length).toBe(sc.objects.length);
    expect(o.shapes.filter((s) => s.layer === 'hills').length).toBe(sc.hills.length);
    const labels = o.markers.map((m) => m.label);
    expect(labels).toContain('start');
    if (sc.entrance) expect(labels).toContain('entrance');
    if (sc.lake) expect(labels).toContain('lake');
    const start = o.markers.find((m) => m.label === 'start')!;
    expect([start.x, -start.y]).toEqual([sc.startPosition[0], sc.startPosition[1]]);
  });

  test('Rugrats: a diagonal per halved cell, a ring per stacked cell, the tile grid', async () => {
    const w = (await opener('rugrats-demo')()).world as RugratsWorld;
    const ix = w.index;
    let halved = 0;
    let stacked = 0;
    for (let cell = 0; cell < ix.cellStackA.length; cell++) {
      const a = ix.cellStackA[cell]!;
      if (ix.tileFlags[a]! & 0x80) halved++;
      if (!(ix.tileFlags[a]! & 0x01)) stacked++;
    }
    const o = overlayFor(w);
    const halves = o.shapes.find((s) => s.layer === 'halves');
    expect(halves?.kind === 'lines' && halves.segments.length).toBe(halved * 4);
    expect(o.shapes.filter((s) => s.layer === 'stacks').length).toBe(stacked);
    expect(o.shapes.some((s) => s.layer === 'grid')).toBe(true);
  });

  test('Llama: the cell grid lines', async () => {
    const { world } = await opener('llama-demo')();
    const o = overlayFor(world);
    const grid = o.shapes.find((s) => s.layer === 'grid');
    expect(grid?.kind).toBe('lines');
  });
});
