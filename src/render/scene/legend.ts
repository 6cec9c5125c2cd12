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
import { BACKGROUND_RGB, LLAMA_MATERIAL_TINTS, MISSING_RGB, rasterizeGround, type GroundRaster } from './ground-raster.js';
import { llamaMaterialName } from './inspect.js';
import { OVERLAY_COLOURS, PINEY_OBJECT_COLOURS, REGION_BORDER } from './overlays.js';
import { gtaSurfaceName } from './plain-words.js';
import { ENTITY_COLOURS, FALLING_COLOUR, HEAT_RAMP, PLANNED_PATH_COLOUR, rgbToColour, SEAT_COLOURS } from './palette.js';
import { seatWords } from '../../netplay/seat-words.js';
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
  /**
   * What a ground swatch's colours stand for: the floor heights ("higher is more", native units) of a ramp's
   * colours, or of a material's swatch, and the material; the colours are the ground palette's for them.
   */
  ground?: { heights: number[]; material: number };
}

/** The shares of the plain floor (lowest to highest) whose heights the ground ramp's colours show. */
export const RAMP_SHARES: readonly number[] = [0, 0.25, 0.5, 0.75, 1];

/** What else is on screen besides the world itself. */
export interface LegendContext {
  /**
   * Several players shown (a room, a replay of several): the viewer's seat (0-based) and each seat's name
   * ('' or null none). The legend then speaks to that viewer: "you" is its seat, not seat 0.
   */
  seats?: { you: number; names: readonly (string | null)[]; players: number };
  /** Whether a falling body has been drawn since the world opened. */
  falling?: boolean;
  /** Whether the selected agent's planned path is drawn (it was sent somewhere and is on its way). */
  plannedPath?: boolean;
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
  /**
   * The ground as drawn (its heights, materials and palette): the ground swatches are its palette's colours.
   * Without it the legend draws a small raster of its own (the colours then follow that raster's heights).
   */
  raster?: Pick<GroundRaster, 'heights' | 'materials' | 'palette'>;
}

/** The ground's key per raster (reading a whole raster once, not at every change of the legend). */
const groundKeys = new WeakMap<object, ReturnType<typeof groundKey>>();
/** Small rasters for legends asked without the view's (once per world). */
const ownRasters = new WeakMap<CollisionWorld, GroundRaster>();

const rgb = (c: readonly number[]): number => rgbToColour(c);

/** Every colour and symbol the view draws for this world in this context, grouped, in the order listed. */
export function legendFor(world: CollisionWorld, ctx: LegendContext): LegendEntry[] {
  const out: LegendEntry[] = [];
  const add: Add = (group, label, symbol, colour, colours, ground) => out.push({ group, label, symbol, colour, ...(colours ? { colours } : {}), ...(ground ? { ground } : {}) });

  // In a room each page shows who sees its own seat's player (viewer-sight.ts): "you", whatever the seat.
  const seats = ctx.seats;
  let watched = 'the player';
  if (seats && seats.players > 1) {
    watched = 'you';
    add('entities', `you: ${seatWords(seats.you, seats.names)} (on top, with a white halo, ringed and named in your seat's colour)`, 'player', SEAT_COLOURS[seats.you % SEAT_COLOURS.length]!);
    for (let k = 0; k < seats.players; k++) if (k !== seats.you) add('entities', `${seatWords(k, seats.names)}: ringed and named in this colour`, 'ring', SEAT_COLOURS[k % SEAT_COLOURS.length]!);
    add('entities', 'an agent that sees you', 'arrow', ENTITY_COLOURS.agentSees);
  } else {
    add('entities', 'the player (on top, with a white halo)', 'player', ENTITY_COLOURS.player);
    add('entities', 'an agent that sees the player', 'arrow', ENTITY_COLOURS.agentSees);
  }
  add('entities', `an agent that does not see ${watched}`, 'arrow', ENTITY_COLOURS.agent);
  add('entities', 'the selected entity', 'ring', ENTITY_COLOURS.selection);
  if (ctx.plannedPath) add('entities', 'the selected agent\'s planned path, where navigation walks it, and its goal (Shift+click to send it)', 'line', PLANNED_PATH_COLOUR);
  if (ctx.falling) add('entities', 'a body falling: it walked off a floor\'s edge (it respawns at the start)', 'ring', FALLING_COLOUR);
  if (ctx.sight) {
    add('sight', `a watcher's line to ${watched === 'the player' ? 'the player it sees' : `${watched}, whom it sees`}`, 'line', ENTITY_COLOURS.sightLine);
    add('sight', "an agent's facing ray, stopped where the world blocks it", 'line', ENTITY_COLOURS.facingRay);
  }
  if (ctx.selectedAgent) {
    add('sight', 'selected: how far it sees (its sight range)', 'ring', ENTITY_COLOURS.sightRange);
    add('sight', 'selected: a body it sees (clear eye to eye)', 'line', ENTITY_COLOURS.seenRay);
    add('sight', 'selected: a body in range it does not see', 'dashed', ENTITY_COLOURS.unseenRay);
    add('sight', 'where a blocked ray stopped', 'cross', ENTITY_COLOURS.stopMark);
  }
  if (ctx.selectedTile) add('ground', 'the selected tile, cell, triangle, wall or face', 'outline', ENTITY_COLOURS.tile);

  let raster = ctx.raster;
  if (!raster) {
    raster = ownRasters.get(world) ?? rasterizeGround(world, { maxSize: 128, edges: false });
    ownRasters.set(world, raster as GroundRaster);
  }
  let ground = groundKeys.get(raster);
  if (!ground) groundKeys.set(raster, (ground = groundKey(raster)));
  const metres = (h: number) => `${fmtMetres(h / (world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1))} m`;
  if (ground.ramp.heights.length) {
    const hs = ground.ramp.heights;
    const what = world.kind === 'piney' ? "the field's height" : 'floor height';
    out.push({ group: 'ground', label: `${what}: low ${metres(hs[0]!)} to high ${metres(hs[hs.length - 1]!)} (shaded by the slope)`, symbol: 'ramp', colour: ground.ramp.colours[2] ?? ground.ramp.colours[0]!, colours: ground.ramp.colours, ground: { heights: hs, material: ground.ramp.material } });
  }
  add('ground', 'no floor (outside the world)', 'swatch', rgb(BACKGROUND_RGB));
  groundEntries(world, add, ctx.overlay, ground.materials);

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

type Add = (group: LegendEntry['group'], label: string, symbol: LegendSymbol, colour: number, colours?: number[], ground?: LegendEntry['ground']) => void;

function fmtMetres(m: number): string {
  const a = Math.abs(m);
  return a >= 100 ? m.toFixed(0) : a >= 10 ? m.toFixed(1) : m.toFixed(2);
}

/** A material's swatch: its colour at the height most of its floor is at. */
interface MaterialKey {
  height: number;
  colour: number;
}

/**
 * The ground's key from the drawn raster: the ramp's colours at the heights of RAMP_SHARES of the plain floor
 * (the most common material's), and each material's colour at the median height of its floor (materials on
 * under 0.1% of the floor left out: too small to see).
 */
export function groundKey(raster: Pick<GroundRaster, 'heights' | 'materials' | 'palette'>): { ramp: { heights: number[]; colours: number[]; material: number }; materials: Map<number, MaterialKey> } {
  const byMaterial = new Map<number, number[]>();
  for (let k = 0; k < raster.heights.length; k++) {
    const h = raster.heights[k]!;
    if (!Number.isFinite(h)) continue;
    const m = raster.materials[k]!;
    let l = byMaterial.get(m);
    if (!l) byMaterial.set(m, (l = []));
    l.push(h);
  }
  let common = 0;
  let most = -1;
  for (const [m, l] of byMaterial) if (l.length > most) [common, most] = [m, l.length];
  const p = raster.palette;
  const c = [0, 0, 0];
  // The ramp's heights: quantiles of the plain floor's own heights (another material's lowest or highest floor
  // is drawn in that material's tint, not in the ramp's colour).
  const plain = byMaterial.get(common) ?? [];
  plain.sort((a, b) => a - b);
  const heights = plain.length ? RAMP_SHARES.map((s) => plain[Math.round(s * (plain.length - 1))]!) : [];
  const materials = new Map<number, MaterialKey>();
  let floor = 0;
  for (const l of byMaterial.values()) floor += l.length;
  for (const [m, l] of byMaterial) {
    // A material on too few pixels to be seen (under 0.1% of the floor) is not listed.
    if (l.length * 1000 < floor) continue;
    if (m !== common) l.sort((a, b) => a - b);
    const h = l[(l.length - 1) >> 1]!;
    materials.set(m, { height: h, colour: rgb(p.colour(h, m, c)) });
  }
  return { ramp: { heights, colours: heights.map((h) => rgb(p.colour(h, common, c))), material: common }, materials };
}

/** Materials of the active polygons a Llama level places (once per world). */
const llamaMaterials = new WeakMap<LlamaWorld, number[]>();
/** Surface materials of the GTA placements' faces, spheres and boxes (once per world). */
const gtaMaterials = new WeakMap<GtaWorld, number[]>();

function groundEntries(world: CollisionWorld, add: Add, overlay: boolean, drawn: Map<number, MaterialKey>): void {
  // A material's swatch: its colour as drawn, at the height most of it is at (materials not drawn are left out).
  const material = (m: number, label: string): void => {
    const k = drawn.get(m);
    if (k) add('ground', label, 'swatch', k.colour, undefined, { heights: [k.height], material: m });
  };
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
      for (const m of mats) if (LLAMA_MATERIAL_TINTS.has(m)) material(m, llamaMaterialName(m));
      if (!overlay) return;
      add('overlay', 'the cell grid', 'line', OVERLAY_COLOURS.llamaGrid);
      const regions = new Set<number>();
      for (let c = 0; c < w.map.width * w.map.height; c++) {
        const r = cellRegion(w.map, c);
        if (r > 0) regions.add(r);
      }
      if (regions.size > 1) add('overlay', `a border between visibility regions (${regions.size} regions)`, 'line', REGION_BORDER);
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
      // In the inspector's words: "grass", not a number (a surface with no name keeps its number).
      for (const m of mats.slice(0, 16)) material(m, gtaSurfaceName(m));
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

