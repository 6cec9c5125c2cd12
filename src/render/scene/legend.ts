/**
 * The legend: one entry for every colour and symbol the view draws for the current world, weather and
 * settings, in groups (entities, sight, ground, the format's overlay, weather, the heat map). Built from the
 * same colour constants the view draws with (palette.ts, overlays.ts, ground-raster.ts), so the two agree.
 *
 * Pure data; the page turns it into a list with swatches.
 */
import type { CollisionWorld } from '../../worlds/world.js';
import type { LlamaWorld } from '../../worlds/llama/collision-world.js';
import type { ColbinWorld } from '../../worlds/colbin/collision-world.js';
import type { GtaWorld } from '../../worlds/gta/collision-world.js';
import type { PineyWorld } from '../../worlds/piney/collision-world.js';
import { cellRegion } from '../../worlds/llama/regions.js';
import { BACKGROUND_RGB, GROUND_HIGH_RGB, GROUND_LOW_RGB, LLAMA_MATERIAL_TINTS, MISSING_RGB } from './ground-raster.js';
import { llamaMaterialName } from './inspect.js';
import { OVERLAY_COLOURS, PINEY_OBJECT_COLOURS, paletteColour } from './overlays.js';
import { ENTITY_COLOURS, HEAT_RAMP, rgbToColour } from './palette.js';
import { WEATHER_KINDS, type FieldAmbience, type WeatherKind } from './weather-look.js';

/** How a legend entry's swatch is drawn: the shape the view draws that thing with. */
export type LegendSymbol =
  | 'arrow'
  | 'player'
  | 'ring'
  | 'line'
  | 'dashed'
  | 'cross'
  | 'swatch'
  | 'outline'
  | 'ramp'
  | 'dot'
  | 'streak'
  | 'bolt'
  | 'diamond'
  | 'chevron'
  | 'puff'
  | 'label';

/** One colour or symbol on screen and what it means, in its group. */
export interface LegendEntry {
  group: 'entities' | 'sight' | 'ground' | 'overlay' | 'weather' | 'heat map';
  label: string;
  symbol: LegendSymbol;
  colour: number;
  /** A ramp's colours, low to high. */
  colours?: number[];
}

/** What else is on screen besides the world itself. */
export interface LegendContext {
  overlay: boolean;
  sight: boolean;
  /** Whether an agent is selected (its rays are drawn). */
  selectedAgent: boolean;
  /** Whether a tile is selected (it is highlighted). */
  selectedTile: boolean;
  /** The field's weather, for a Piney field. */
  ambience: FieldAmbience | null;
  /** The weather kinds drawn since the world opened. */
  weatherKinds: Iterable<WeatherKind>;
  /** The heat map's largest count, when it is on. */
  heatMax: number | null;
}

const rgb = (c: readonly number[]): number => rgbToColour(c);

/** Every colour and symbol the view draws for this world in this context, grouped, in the order listed. */
export function legendFor(world: CollisionWorld, ctx: LegendContext): LegendEntry[] {
  const out: LegendEntry[] = [];
  const add = (group: LegendEntry['group'], label: string, symbol: LegendSymbol, colour: number, colours?: number[]) =>
    out.push({ group, label, symbol, colour, ...(colours ? { colours } : {}) });

  add('entities', 'the player (on top, with a white halo)', 'player', ENTITY_COLOURS.player);
  add('entities', 'an agent that sees the player', 'arrow', ENTITY_COLOURS.agentSees);
  add('entities', 'an agent that does not see the player', 'arrow', ENTITY_COLOURS.agent);
  add('entities', 'the selected entity', 'ring', ENTITY_COLOURS.selection);
  if (ctx.sight) {
    add('sight', "a watcher's line to the player it sees", 'line', ENTITY_COLOURS.sightLine);
    add('sight', "an agent's facing ray, stopped where the world blocks it", 'line', ENTITY_COLOURS.facingRay);
  }
  if (ctx.selectedAgent) {
    add('sight', 'selected: a body it sees (clear eye to eye)', 'line', ENTITY_COLOURS.seenRay);
    add('sight', 'selected: a body in range it does not see', 'dashed', ENTITY_COLOURS.unseenRay);
    add('sight', 'where a blocked ray stopped', 'cross', ENTITY_COLOURS.stopMark);
  }
  if (ctx.selectedTile) add('ground', 'the selected tile, cell, triangle, wall or face', 'outline', ENTITY_COLOURS.tile);

  if (world.kind === 'piney') add('ground', "the field's own lit colours, brighter on high ground", 'ramp', rgb([70, 90, 60]), [rgb([62, 80, 50]), rgb([120, 150, 96])]);
  else add('ground', 'floor height: low to high', 'ramp', rgb(GROUND_LOW_RGB), [rgb(GROUND_LOW_RGB), rgb(GROUND_HIGH_RGB)]);
  add('ground', 'no floor (outside the world)', 'swatch', rgb(BACKGROUND_RGB));
  groundEntries(world, add, ctx.overlay);

  const a = ctx.ambience;
  if (a) {
    if (a.tint.alpha > 0) add('weather', `${a.time} (the background row's time): the ground is tinted`, 'swatch', a.tint.colour);
    const kinds = new Set(ctx.weatherKinds);
    for (const k of Object.keys(WEATHER_KINDS) as WeatherKind[]) {
      if (!kinds.has(k)) continue;
      const look = WEATHER_KINDS[k];
      const label = k === 'traveller' && a.traveller ? `the traveller: ${a.traveller}` : look.label;
      add('weather', label, look.symbol, look.colour);
    }
    if (a.weather === 'storm') add('weather', 'the storm\'s flash: the screen lights up white', 'swatch', 0xffffff);
  }
  if (ctx.heatMax !== null) {
    add('heat map', `agents that see a person standing there: 1 to ${Math.max(1, ctx.heatMax)}`, 'ramp', rgb(HEAT_RAMP[0]!), HEAT_RAMP.map((c) => rgb(c)));
  }
  return out;
}

type Add = (group: LegendEntry['group'], label: string, symbol: LegendSymbol, colour: number, colours?: number[]) => void;

/** Materials of the active polygons a Llama level places (once per world). */
const llamaMaterials = new WeakMap<LlamaWorld, number[]>();
/** Surface materials of the GTA placements' faces, spheres and boxes (once per world). */
const gtaMaterials = new WeakMap<GtaWorld, number[]>();

function groundEntries(world: CollisionWorld, add: Add, overlay: boolean): void {
  switch (world.kind) {
    case 'rugrats':
      add('ground', 'missing cell (in the grid, no tiles)', 'swatch', rgb(MISSING_RGB));
      if (!overlay) return;
      add('overlay', 'the 1024-unit tile grid', 'line', OVERLAY_COLOURS.rugratsGrid);
      add('overlay', 'the diagonal of a halved cell', 'line', OVERLAY_COLOURS.rugratsHalves);
      add('overlay', 'a stack of floors (larger: deeper)', 'ring', OVERLAY_COLOURS.rugratsStack);
      return;
    case 'llama': {
      const w = world as LlamaWorld;
      let mats = llamaMaterials.get(w);
      if (!mats) {
        const s = new Set<number>();
        for (let p = 0; p < w.collision.material.length; p++) if (w.collision.active[p]) s.add(w.collision.material[p]!);
        mats = [...s].sort((x, y) => x - y);
        llamaMaterials.set(w, mats);
      }
      for (const m of mats) {
        const t = LLAMA_MATERIAL_TINTS.get(m);
        if (t) add('ground', `material ${m}: ${llamaMaterialName(m)}`, 'swatch', rgb(t));
      }
      if (!overlay) return;
      add('overlay', 'the cell grid', 'line', OVERLAY_COLOURS.llamaGrid);
      const regions = new Set<number>();
      for (let c = 0; c < w.map.width * w.map.height; c++) {
        const r = cellRegion(w.map, c);
        if (r > 0) regions.add(r);
      }
      for (const r of [...regions].sort((x, y) => x - y).slice(0, 12)) add('overlay', `visibility region ${r}`, 'swatch', paletteColour(r));
      return;
    }
    case 'colbin': {
      if (!overlay) return;
      add('overlay', 'floor triangle edges', 'line', OVERLAY_COLOURS.colbinFloors);
      add('overlay', 'a wall box (its footprint)', 'swatch', OVERLAY_COLOURS.colbinWall);
      if ((world as ColbinWorld).file.grid) add('overlay', 'the wall grid', 'line', OVERLAY_COLOURS.colbinGrid);
      return;
    }
    case 'gta': {
      const w = world as GtaWorld;
      let mats = gtaMaterials.get(w);
      if (!mats) {
        const s = new Set<number>();
        const sc = w.scene;
        for (let i = 0; i < sc.instanceCount; i++) {
          const m = sc.models[sc.instModel[i]!]!;
          for (let f = 0; f < m.mesh.faceCount; f++) s.add(m.mesh.surfaces[f * 4]!);
          for (const sp of m.spheres) s.add(sp.surface.material);
          for (const b of m.boxes) s.add(b.surface.material);
        }
        mats = [...s].sort((x, y) => x - y);
        gtaMaterials.set(w, mats);
      }
      for (const m of mats.slice(0, 16)) add('ground', `surface material ${m} (a light tint)`, 'swatch', paletteColour(m));
      if (!overlay) return;
      add('overlay', "placements' mesh faces", 'line', OVERLAY_COLOURS.gtaFaces);
      add('overlay', 'collision spheres', 'swatch', OVERLAY_COLOURS.gtaSphere);
      add('overlay', 'collision boxes', 'swatch', OVERLAY_COLOURS.gtaBox);
      return;
    }
    case 'piney': {
      if (!overlay) return;
      const w = world as PineyWorld;
      add('overlay', 'the 40 × 40 chip grid', 'line', OVERLAY_COLOURS.pineyChips);
      add('overlay', 'a chip with no ground tile', 'swatch', OVERLAY_COLOURS.pineyHidden);
      if (w.field.hills.length) add('overlay', 'a hill', 'ring', OVERLAY_COLOURS.pineyHill);
      const kinds = new Set<string>(w.field.objects.map((o) => o.kind));
      for (const [k, c] of Object.entries(PINEY_OBJECT_COLOURS)) if (kinds.has(k)) add('overlay', `object: ${k}`, 'swatch', c);
      if (w.field.coverCount > 0) add('overlay', 'a cover (small ground model)', 'dot', OVERLAY_COLOURS.pineyCover);
      if (kinds.has('lake')) add('overlay', 'the lake water', 'ring', OVERLAY_COLOURS.pineyWater);
      add('overlay', 'labels: the entrance, the lake, the start', 'label', OVERLAY_COLOURS.pineyStart);
      return;
    }
    default:
      return;
  }
}

