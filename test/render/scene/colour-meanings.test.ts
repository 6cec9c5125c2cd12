/**
 * One meaning per colour: every colour of the map, its overlays and the legend is listed with what it means,
 * no colour value serves two meanings, and the marks of the simulation (the player, agents, who sees whom, the
 * selection) are far from every colour of another meaning (green says "sees", yellow "selected", red-pink
 * "does not see", everywhere). GTA's grass is the plants' green, not the water's blue, drawn on its low ground
 * too; and the legend names surfaces as the inspector does.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { colourClashes, colourDistance, colourMeanings, MARK_MEANINGS, MIN_COLOUR_DISTANCE } from '../../../src/render/scene/colour-meanings.js';
import { rasterizeGround } from '../../../src/render/scene/ground-raster.js';
import { legendFor } from '../../../src/render/scene/legend.js';
import { OVERLAY_COLOURS, PINEY_OBJECT_COLOURS } from '../../../src/render/scene/overlays.js';
import { ENTITY_COLOURS } from '../../../src/render/scene/palette.js';
import { gtaSurfaceName } from '../../../src/render/scene/plain-words.js';
import { opener } from '../helpers.js';

const hex = (c: number) => `#${c.toString(16).padStart(6, '0')}`;

describe('one meaning per colour', () => {
  test('no colour is used for two meanings across the map, the overlays, the weather, the heat map and the legend', () => {
    const clashes = colourClashes().map(([a, b, d]) => `${a.where} ${hex(a.colour)} (${a.meaning}) ~ ${b.where} ${hex(b.colour)} (${b.meaning}): ${d.toFixed(1)}`);
    expect(clashes).toEqual([]);
    // Every mark meaning is there, and the list covers the constants the issue named.
    const meanings = new Set(colourMeanings().map((e) => e.meaning));
    for (const m of MARK_MEANINGS) expect(meanings.has(m), m).toBe(true);
    expect(colourMeanings().length).toBeGreaterThan(60);
  });

  test('the check finds a clash: any colour given a second meaning near a mark, or the same value twice', () => {
    const entries = colourMeanings();
    const marks = entries.filter((e) => MARK_MEANINGS.includes(e.meaning));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: marks.length - 1 }), fc.integer({ min: -6, max: 6 }), (i, nudge) => {
        const m = marks[i]!;
        const c = m.colour;
        const near = (Math.max(0, Math.min(255, ((c >> 16) & 255) + nudge)) << 16) | (c & 0xffff);
        expect(colourDistance(c, near)).toBeLessThan(MIN_COLOUR_DISTANCE);
        const extra = { colour: near, meaning: 'something else', where: 'test' };
        expect(colourClashes([...entries, extra]).some(([a, b]) => a === extra || b === extra)).toBe(true);
      }),
    );
    // The same value for two non-mark meanings.
    const water = { colour: OVERLAY_COLOURS.pineyWater, meaning: 'a collision sphere', where: 'test' };
    expect(colourClashes([...entries, water]).length).toBeGreaterThan(0);
  });

  test('green means "sees" and yellow "selected": the issue\'s other greens and yellow rings moved away', () => {
    const sees = [ENTITY_COLOURS.agentSees, ENTITY_COLOURS.sightLine, ENTITY_COLOURS.seenRay, ENTITY_COLOURS.sightRange];
    const selected = [ENTITY_COLOURS.selection, ENTITY_COLOURS.tile];
    for (const other of [OVERLAY_COLOURS.rugratsStack, OVERLAY_COLOURS.pineyHill, PINEY_OBJECT_COLOURS['key']!, OVERLAY_COLOURS.gtaBox])
      for (const s of selected) expect(colourDistance(other, s), hex(other)).toBeGreaterThanOrEqual(MIN_COLOUR_DISTANCE);
    for (const e of colourMeanings().filter((x) => !MARK_MEANINGS.includes(x.meaning)))
      for (const s of sees) expect(colourDistance(e.colour, s), `${e.where} ${hex(e.colour)}`).toBeGreaterThanOrEqual(MIN_COLOUR_DISTANCE);
  });

  test("GTA's grass is drawn green (the plants' colour), never as water, its low ground too; the legend says \"grass\"", async () => {
    const { world } = await opener('gta-town')();
    const r = rasterizeGround(world, { maxSize: 192, edges: false });
    // The lowest quarter of the grass as drawn: green over blue and red, nearer the plants than the water.
    const grass: number[][] = [];
    for (let k = 0; k < r.materials.length; k++) if (r.materials[k] === 9 && Number.isFinite(r.heights[k]!)) grass.push([r.heights[k]!, r.rgba[4 * k]!, r.rgba[4 * k + 1]!, r.rgba[4 * k + 2]!]);
    expect(grass.length).toBeGreaterThan(100);
    grass.sort((a, b) => a[0]! - b[0]!);
    const low = grass.slice(0, Math.max(1, grass.length >> 2));
    for (const [, R, G, B] of low) {
      expect(G).toBeGreaterThan(B!);
      expect(G).toBeGreaterThan(R!);
      const c = (R! << 16) | (G! << 8) | B!;
      expect(colourDistance(c, PINEY_OBJECT_COLOURS['tree']!)).toBeLessThan(colourDistance(c, OVERLAY_COLOURS.pineyWater));
    }
    const labels = legendFor(world, { overlay: true, sight: true, selectedAgent: false, selectedTile: false, ambience: null, weatherKinds: [], heatMax: null }).map((e) => e.label);
    expect(labels).toContain('grass');
    expect(labels).toContain(gtaSurfaceName(1));
    expect(labels.some((l) => /surface material/.test(l))).toBe(false);
  });
});
