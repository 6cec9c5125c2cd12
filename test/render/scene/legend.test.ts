/**
 * The legend lists what is on screen for each world: the entities and sight always, the format's own ground
 * colours and overlay features, the weather kinds drawn (with human names) and the heat map when on; its
 * colours are the constants the view draws with.
 */
import { describe, expect, test } from 'vitest';
import { legendFor, type LegendContext } from '../../../src/render/scene/legend.js';
import { ENTITY_COLOURS, WEATHER_COLOURS } from '../../../src/render/scene/palette.js';
import { OVERLAY_COLOURS, PINEY_OBJECT_COLOURS } from '../../../src/render/scene/overlays.js';
import { LLAMA_MATERIAL_TINTS } from '../../../src/render/scene/ground-raster.js';
import { llamaMaterialName } from '../../../src/render/scene/inspect.js';
import { fieldAmbience, weatherKindOfName, WEATHER_KINDS, type WeatherKind } from '../../../src/render/scene/weather-look.js';
import { ambientOpsSource, decodeAmbient } from '../../../src/render/scene/ambient-ops.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import type { LlamaWorld } from '../../../src/worlds/llama/collision-world.js';
import { opener } from '../helpers.js';

const base: LegendContext = { overlay: true, sight: true, selectedAgent: false, selectedTile: false, ambience: null, weatherKinds: [], heatMax: null };
const rgb = (c: readonly number[]) => (c[0]! << 16) | (c[1]! << 8) | c[2]!;

describe('legend', () => {
  test.each([
    ['rugrats-demo', ['missing cell', 'tile grid', 'halved cell', 'stack of floors']],
    ['llama-demo', ['cell grid']],
    ['colbin-demo', ['floor triangle edges', 'wall box']],
    ['gta-town', ['mesh faces', 'collision spheres', 'collision boxes', 'grass', 'tarmac']],
    ['piney-default', ['chip grid', 'object: entrance', 'labels']],
  ])('%s: the format\'s own entries, the entities and sight', async (id, want) => {
    const world = (await opener(id)()).world;
    const l = legendFor(world, base);
    const labels = l.map((e) => e.label);
    for (const w of want) expect(labels.some((x) => x.includes(w)), w).toBe(true);
    expect(l.find((e) => e.label.startsWith('the player'))!.colour).toBe(ENTITY_COLOURS.player);
    expect(l.find((e) => e.label === 'an agent that sees the player')!.colour).toBe(ENTITY_COLOURS.agentSees);
    expect(l.some((e) => e.group === 'sight')).toBe(true);
    // Without the overlay, its entries go; without sight, the sight entries go.
    const bare = legendFor(world, { ...base, overlay: false, sight: false });
    expect(bare.some((e) => e.group === 'overlay')).toBe(false);
    expect(bare.some((e) => e.group === 'sight')).toBe(false);
    // A selected agent adds its three ray styles; the heat map its ramp.
    const sel = legendFor(world, { ...base, selectedAgent: true, heatMax: 7 });
    expect(sel.filter((e) => e.group === 'sight').map((e) => e.symbol)).toEqual(['line', 'line', 'ring', 'line', 'dashed', 'cross']);
    expect(sel.find((e) => e.group === 'heat map')!.label).toContain('1 to 7');
  });

  test('Llama: a tint entry for each named material the level has, in its colour as drawn', async () => {
    const world = (await opener('llama-demo')()).world as LlamaWorld;
    const l = legendFor(world, base);
    const have = new Set<number>();
    for (let p = 0; p < world.collision.material.length; p++) if (world.collision.active[p]) have.add(world.collision.material[p]!);
    for (const [m, c] of LLAMA_MATERIAL_TINTS) {
      // In the inspector's words ("exit floor", not a material number).
      const e = l.find((x) => x.label === llamaMaterialName(m));
      if (have.has(m)) {
        // The tint over the ground's colour at the material's height (ground-palette.test.ts checks the value).
        expect(e?.ground?.material).toBe(m);
        const got = [(e!.colour >> 16) & 255, (e!.colour >> 8) & 255, e!.colour & 255];
        const main = c.indexOf(Math.max(...c));
        expect(got.indexOf(Math.max(...got)), `material ${m}: ${got} for tint ${c}`).toBe(main);
      } else expect(e).toBeUndefined();
    }
    expect([...have].some((m) => LLAMA_MATERIAL_TINTS.has(m))).toBe(true);
  });

  test('the overlay entries carry the overlay\'s colours', async () => {
    const c = legendFor((await opener('colbin-demo')()).world, base);
    expect(c.find((e) => e.label.startsWith('a wall box'))!.colour).toBe(OVERLAY_COLOURS.colbinWall);
    const p = legendFor((await opener('piney-default')()).world, base);
    expect(p.find((e) => e.label === 'object: entrance')!.colour).toBe(PINEY_OBJECT_COLOURS['entrance']);
  });

  test.each(['piney-storm', 'piney-snow', 'piney-traveller'])('%s: the weather drawn, by human names, with the time of day\'s tint', async (id) => {
    const s = await SandboxSession.create(opener(id), { agents: 0 });
    const src = ambientOpsSource(s.sim)!;
    const seen = new Set<WeatherKind>();
    for (let f = 0; f < 800; f++) {
      s.stepLive(0);
      const ops = src.read();
      if (!ops) continue;
      for (const it of decodeAmbient(ops.words, ops.length).items) seen.add(weatherKindOfName(it.kind, it.name));
    }
    const amb = fieldAmbience(s.sim)!;
    const l = legendFor(s.sim.world, { ...base, ambience: amb, weatherKinds: seen });
    const weather = l.filter((e) => e.group === 'weather');
    for (const k of seen) expect(weather.some((e) => e.colour === WEATHER_KINDS[k].colour), k).toBe(true);
    // No game-internal sprite names reach the reader.
    for (const e of weather) expect(e.label).not.toMatch(/EFF_|sfp|sfg|sfh|sfa|rai\d/);
    if (id === 'piney-storm') {
      expect(amb.time).toBe('night');
      expect(weather.some((e) => e.label.startsWith('night'))).toBe(true);
      expect(seen.has('rain') && seen.has('splash') && seen.has('bolt')).toBe(true);
      expect(weather.some((e) => e.label.includes('flash'))).toBe(true);
    }
    if (id === 'piney-snow') expect(weather.some((e) => e.label === 'snow')).toBe(true);
    if (id === 'piney-traveller') {
      expect(amb.traveller).toBe("Δ's airship");
      expect(weather.find((e) => e.colour === WEATHER_COLOURS.traveller)!.label).toBe("the traveller: Δ's airship");
    }
  });
});
