import { describe, expect, test } from 'vitest';
import { GROUND_RAMP, groundPalette, rampColour } from '../../../src/render/scene/ground-palette.js';
import { rasterizeGround } from '../../../src/render/scene/ground-raster.js';
import { legendFor, RAMP_SHARES, type LegendContext } from '../../../src/render/scene/legend.js';
import { opener } from '../helpers.js';

const base: LegendContext = { overlay: true, sight: true, selectedAgent: false, selectedTile: false, ambience: null, weatherKinds: [], heatMax: null };
const rgb = (c: readonly number[]) => (c[0]! << 16) | (c[1]! << 8) | c[2]!;
const luminance = (r: number, g: number, b: number) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
const WORLDS = ['piney-default', 'rugrats-demo', 'llama-demo', 'colbin-demo', 'gta-town'];

/** The spread of luminance over the floor pixels: the 95th percentile less the 5th. */
function floorSpread(rgba: Uint8ClampedArray, heights: Float64Array): number {
  const l: number[] = [];
  for (let k = 0; k < heights.length; k++) if (Number.isFinite(heights[k]!)) l.push(luminance(rgba[4 * k]!, rgba[4 * k + 1]!, rgba[4 * k + 2]!));
  l.sort((a, b) => a - b);
  return l[Math.floor(0.95 * (l.length - 1))]! - l[Math.floor(0.05 * (l.length - 1))]!;
}

describe('the ground palette and the legend', () => {
  test('the ramp rises in luminance from end to end, and its colours are its stops at theirs', () => {
    for (const [t, c] of GROUND_RAMP) expect(rampColour(t)).toEqual([...c]);
    let last = -1;
    for (let i = 0; i <= 20; i++) {
      const [r, g, b] = rampColour(i / 20);
      const y = luminance(r!, g!, b!);
      expect(y).toBeGreaterThan(last);
      last = y;
    }
    expect(luminance(...(rampColour(1) as [number, number, number])) - luminance(...(rampColour(0) as [number, number, number]))).toBeGreaterThan(150);
  });

  test('a height is placed mostly by its rank: one wide floor and a few high roofs spread over the ramp', () => {
    const heights = [...Array.from({ length: 900 }, () => 0), ...Array.from({ length: 100 }, (_, i) => 1 + i / 10), NaN];
    const p = groundPalette(heights);
    expect(p.low).toBe(0);
    expect(p.high).toBeCloseTo(10.9);
    // The floor sits at the middle of its ranks (0.45 of the way), not at the bottom as a linear ramp puts it.
    expect(p.place(0)).toBeCloseTo(0.75 * 0.45, 2);
    expect(p.place(10.9)).toBeCloseTo(1);
    expect(p.place(1)).toBeGreaterThan(0.6);
    expect(p.quantile(0.5)).toBe(0);
    expect(p.quantile(1)).toBeCloseTo(10.9);
  });

  test.each(WORLDS)('%s: every ground swatch of the legend is the palette\'s colour for the heights and material it labels', async (id) => {
    const { world } = await opener(id)();
    const raster = rasterizeGround(world, { maxSize: 128, edges: false });
    const legend = legendFor(world, { ...base, raster });
    const ground = legend.filter((e) => e.ground);
    const ramp = ground.find((e) => e.symbol === 'ramp')!;
    expect(ramp).toBeDefined();
    // The ramp's heights: RAMP_SHARES of the plain floor's (the most common material's), lowest to highest.
    const plain: number[] = [];
    for (let k = 0; k < raster.heights.length; k++) if (Number.isFinite(raster.heights[k]!) && raster.materials[k] === ramp.ground!.material) plain.push(raster.heights[k]!);
    plain.sort((a, b) => a - b);
    expect(ramp.ground!.heights).toEqual(RAMP_SHARES.map((s) => plain[Math.round(s * (plain.length - 1))]));
    expect(plain.length * 2).toBeGreaterThan(raster.filled);
    for (const e of ground) {
      const want = e.ground!.heights.map((h) => rgb(raster.palette.colour(h, e.ground!.material)));
      if (e.symbol === 'ramp') expect(e.colours, e.label).toEqual(want);
      else expect([e.colour], e.label).toEqual(want);
    }
    if (world.kind === 'gta' || world.kind === 'llama') expect(ground.filter((e) => e.symbol === 'swatch').length).toBeGreaterThan(0);
    // And the raster draws with that palette: a floor pixel level with its north-west neighbour is its colour exactly.
    let level = 0;
    const w = raster.width;
    for (let k = w + 1; k < raster.heights.length; k++) {
      const h = raster.heights[k]!;
      if (k % w === 0 || !Number.isFinite(h) || raster.heights[k - w - 1] !== h) continue;
      level++;
      expect([raster.rgba[4 * k], raster.rgba[4 * k + 1], raster.rgba[4 * k + 2]]).toEqual(raster.palette.colour(h, raster.materials[k]!));
    }
    expect(level).toBeGreaterThan(50);
  });

  test.each(WORLDS)('%s: the ground has contrast (5th to 95th percentile luminance of the floor at least 40 apart)', async (id) => {
    const { world } = await opener(id)();
    const raster = rasterizeGround(world, { maxSize: 128, edges: false });
    // The old palette (a linear ramp; the Piney field's own grey lit colours) gave the GTA town 25.
    expect(floorSpread(raster.rgba, raster.heights)).toBeGreaterThanOrEqual(40);
  });
});
