import { describe, expect, test } from 'vitest';
import { BACKGROUND_RGB, MISSING_RGB, materialTintFor, rasterizeGround } from '../../../src/render/scene/ground-raster.js';
import { newGroundSample, querySampler, samplerFor } from '../../../src/render/scene/ground-sampler.js';
import { CATALOG } from '../../../src/render/sandbox/world-catalog.js';
import type { RugratsWorld } from '../../../src/worlds/rugrats/collision-world.js';
import { opener } from '../helpers.js';

describe('ground raster', () => {
  test.each(CATALOG.filter((e) => !e.variant).map((e) => e.id))('%s: pixels are the sampler at their centres, most of them ground', async (id) => {
    const { world } = await opener(id)();
    const r = rasterizeGround(world, { maxSize: 96 });
    expect(Math.max(r.width, r.height)).toBe(96);
    expect(r.rgba.length).toBe(r.width * r.height * 4);
    expect(r.filled / (r.width * r.height)).toBeGreaterThan(0.3);
    const sampler = samplerFor(world);
    const s = newGroundSample();
    let finite = 0;
    for (let j = 0; j < r.height; j++) {
      for (let i = 0; i < r.width; i++) {
        sampler(r.x0 + (i + 0.5) * r.unit, r.y0 + (j + 0.5) * r.unit, s);
        const k = j * r.width + i;
        if (Number.isFinite(s.height)) {
          finite++;
          expect(r.heights[k]).toBe(s.height);
          expect(r.ids[k]).toBe(s.id);
        } else {
          expect(Number.isNaN(r.heights[k]!)).toBe(true);
          const bg = s.missing ? MISSING_RGB : BACKGROUND_RGB;
          expect([r.rgba[k * 4], r.rgba[k * 4 + 1], r.rgba[k * 4 + 2]]).toEqual([...bg]);
        }
        expect(r.rgba[k * 4 + 3]).toBe(255);
      }
    }
    expect(finite).toBe(r.filled);
  });

  test('Llama: exit floors are tinted violet and death planes dark magenta (green means "sees", red "does not see"); materials of other formats are not read as Llama’s', async () => {
    const { world } = await opener('llama-demo')();
    const r = rasterizeGround(world, { maxSize: 128 });
    let exits = 0;
    let deaths = 0;
    for (let k = 0; k < r.materials.length; k++) {
      const [R, G, B] = [r.rgba[4 * k]!, r.rgba[4 * k + 1]!, r.rgba[4 * k + 2]!];
      if (r.materials[k] === 16) {
        exits++;
        expect(B).toBeGreaterThan(G);
        expect(R).toBeGreaterThan(G);
      } else if (r.materials[k] === 30) {
        deaths++;
        expect(R).toBeGreaterThan(G + 20);
        expect(B).toBeGreaterThan(G);
      }
    }
    expect(exits).toBeGreaterThan(0);
    expect(deaths).toBeGreaterThan(0);
    expect(materialTintFor((await opener('colbin-demo')()).world)(30)).toBeNull();
    // GTA: a named surface is tinted as what it is (grass green), an unnamed one keeps the ground's colour.
    const gta = materialTintFor((await opener('gta-town')()).world);
    const grass = gta(9)!.rgb;
    expect(grass[1]).toBeGreaterThan(grass[0]! + 30);
    expect(grass[1]).toBeGreaterThan(grass[2]! + 30);
    expect(gta(30)).toBeNull();
  });

  test('the query sampler gives what the world ground query gives from the top of the bounds', async () => {
    const { world } = await opener('colbin-demo')();
    const s = querySampler(world)(0, 0, newGroundSample());
    // COLBIN's up is −y: the floor of the yard at the origin is y = 0 (heights are "higher is more").
    expect(s.height === 0).toBe(true);
    expect(s.id).toBeGreaterThanOrEqual(0);
  });

  test('Rugrats: a point in a cell with tiles reads its stack; halves of a halved cell are different stacks', async () => {
    const { world } = await opener('rugrats-demo')();
    const ix = (world as RugratsWorld).index;
    const sampler = samplerFor(world);
    const s = newGroundSample();
    let halved = 0;
    for (let c = 0; c + 1 < ix.colCellStart.length && halved < 5; c++) {
      for (let cell = ix.colCellStart[c]!; cell < ix.colCellStart[c + 1]!; cell++) {
        if (!(ix.tileFlags[ix.cellStackA[cell]!]! & 0x80)) continue;
        const x0 = ix.minX + c * 1024;
        const z0 = ix.minZ + ix.cellZ[cell]! * 1024;
        const ids = new Set<number>();
        for (const [dx, dz] of [[100, 900], [900, 100], [100, 100], [900, 900]] as const) ids.add(sampler(x0 + dx, z0 + dz, s).id);
        expect(ids.size).toBeGreaterThanOrEqual(2);
        halved++;
      }
    }
    expect(halved).toBeGreaterThan(0);
  });

  test('a rect draws that part of the map: its pixels are the sampler at their centres there; a rect without area or not finite is refused', async () => {
    const { world } = await opener('gta-town')();
    const rect = { x: -20, y: -12, width: 24, height: 16 };
    const r = rasterizeGround(world, { maxSize: 48, rect });
    expect([r.x0, r.y0, r.unit, r.width, r.height]).toEqual([-20, -12, 0.5, 48, 32]);
    const sampler = samplerFor(world);
    const s = newGroundSample();
    for (let j = 0; j < r.height; j += 3) {
      for (let i = 0; i < r.width; i += 3) {
        sampler(-20 + (i + 0.5) * 0.5, -12 + (j + 0.5) * 0.5, s);
        expect(r.heights[j * r.width + i]).toBe(s.height);
      }
    }
    expect(() => rasterizeGround(world, { rect: { x: 0, y: 0, width: 0, height: 5 } })).toThrow(/rasterizeGround: rect 0 × 5 has no area/);
    expect(() => rasterizeGround(world, { rect: { x: NaN, y: 0, width: 1, height: 5 } })).toThrow(/rasterizeGround: rect .* is not finite/);
  });
});
