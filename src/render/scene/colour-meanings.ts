/**
 * Every colour the map, its overlays and the legend use, each with what it means: one meaning per colour. Two
 * colours of different meanings are kept apart by at least MIN_COLOUR_DISTANCE (a distance in CIE L*a*b*, where
 * about 2.3 is the smallest difference seen and differences past 20 read as different colours at a glance), so
 * green says "sees", yellow "selected", and so on, on every world. Parts of one thing (an outline and its fill,
 * a drop and its splash) share their meaning. The entries read the same constants the view draws with, so
 * changing a colour there is checked here (test/render/scene/colour-meanings.test.ts).
 *
 * Pure data (no pixi.js).
 */
import { BACKGROUND_RGB, GTA_SURFACE_TINTS, LLAMA_MATERIAL_TINTS, MISSING_RGB } from './ground-raster.js';
import { GROUND_RAMP } from './ground-palette.js';
import { OVERLAY_COLOURS, PINEY_OBJECT_COLOURS, REGION_BORDER } from './overlays.js';
import { ENTITY_COLOURS, FALLING_COLOUR, HEAT_RAMP, OVERVIEW_VIEW_COLOUR, PLANNED_PATH_COLOUR, rgbToColour, SEAT_COLOURS, WEATHER_COLOURS } from './palette.js';

/** One colour drawn, and what it means. */
export interface ColourMeaning {
  colour: number;
  /** What the colour says (entries that say the same thing share it). */
  meaning: string;
  /** Where it is drawn (the constant's name). */
  where: string;
}

/** The least distance (CIE76 ΔE in L*a*b*) between two colours of different meanings. */
export const MIN_COLOUR_DISTANCE = 20;

const rgb = (c: readonly number[]): number => rgbToColour(c);

/** Every colour of the map, its overlays and the legend, with its meaning. */
export function colourMeanings(): ColourMeaning[] {
  const E = ENTITY_COLOURS;
  const O = OVERLAY_COLOURS;
  const W = WEATHER_COLOURS;
  const out: ColourMeaning[] = [];
  const add = (meaning: string, entries: Record<string, number>) => {
    for (const [where, colour] of Object.entries(entries)) out.push({ colour, meaning, where });
  };
  add('the player', { 'ENTITY_COLOURS.player': E.player });
  add('sees (an agent that sees the player, a line of sight that is clear, how far the selected agent sees)', { 'ENTITY_COLOURS.agentSees': E.agentSees, 'ENTITY_COLOURS.sightLine': E.sightLine, 'ENTITY_COLOURS.seenRay': E.seenRay, 'ENTITY_COLOURS.sightRange': E.sightRange });
  add('an agent (not seeing the player), and where it faces', { 'ENTITY_COLOURS.agent': E.agent, 'ENTITY_COLOURS.facingRay': E.facingRay });
  add('another entity', { 'ENTITY_COLOURS.other': E.other });
  // In a room, seat 1 is drawn as the player is; every other seat has a colour of its own (ring and label).
  add('the player', { 'SEAT_COLOURS[0]': SEAT_COLOURS[0]! });
  for (let k = 1; k < SEAT_COLOURS.length; k++) add(seatMeaning(k), { [`SEAT_COLOURS[${k}]`]: SEAT_COLOURS[k]! });
  add('falling: it walked off an edge and is in the air', { FALLING_COLOUR });
  add('what the view shows (the overview inset\'s rectangle)', { OVERVIEW_VIEW_COLOUR });
  add('where a sent agent will walk: its planned path and its goal', { PLANNED_PATH_COLOUR });
  add('selected (and the entity the keyboard points at, to select)', { 'ENTITY_COLOURS.selection': E.selection, 'ENTITY_COLOURS.tile': E.tile, 'ENTITY_COLOURS.pointed': E.pointed });
  add('does not see: a blocked line of sight and where it stopped', { 'ENTITY_COLOURS.unseenRay': E.unseenRay, 'ENTITY_COLOURS.stopMark': E.stopMark });
  add('no floor here', { BACKGROUND_RGB: rgb(BACKGROUND_RGB), 'OVERLAY_COLOURS.pineyHidden': O.pineyHidden });
  add('a missing cell (inside the grid, no tiles)', { MISSING_RGB: rgb(MISSING_RGB) });
  add('floor height (the ground ramp)', Object.fromEntries(GROUND_RAMP.map(([t, c]) => [`GROUND_RAMP@${t}`, rgb(c)])));
  add('the edges of the world\'s pieces (grids, halved cells, triangles, faces)', { 'OVERLAY_COLOURS.rugratsGrid': O.rugratsGrid, 'OVERLAY_COLOURS.rugratsHalves': O.rugratsHalves, 'OVERLAY_COLOURS.llamaGrid': O.llamaGrid, 'OVERLAY_COLOURS.colbinFloors': O.colbinFloors, 'OVERLAY_COLOURS.gtaFaces': O.gtaFaces, 'OVERLAY_COLOURS.pineyChips': O.pineyChips });
  add('a stack of floors', { 'OVERLAY_COLOURS.rugratsStack': O.rugratsStack });
  add('a border between visibility regions', { REGION_BORDER });
  add('a wall', { 'OVERLAY_COLOURS.colbinWall': O.colbinWall, 'OVERLAY_COLOURS.colbinWallEdge': O.colbinWallEdge });
  add('the wall grid', { 'OVERLAY_COLOURS.colbinGrid': O.colbinGrid });
  add('a collision sphere', { 'OVERLAY_COLOURS.gtaSphere': O.gtaSphere, 'OVERLAY_COLOURS.gtaSphereEdge': O.gtaSphereEdge });
  add('a collision box', { 'OVERLAY_COLOURS.gtaBox': O.gtaBox, 'OVERLAY_COLOURS.gtaBoxEdge': O.gtaBoxEdge });
  add('a hill', { 'OVERLAY_COLOURS.pineyHill': O.pineyHill });
  add('plants (trees, covers, grass)', { 'OVERLAY_COLOURS.pineyCover': O.pineyCover, 'PINEY_OBJECT_COLOURS.tree': PINEY_OBJECT_COLOURS['tree']! });
  add('water', { 'OVERLAY_COLOURS.pineyWater': O.pineyWater, 'OVERLAY_COLOURS.pineyWaterEdge': O.pineyWaterEdge, 'PINEY_OBJECT_COLOURS.lake': PINEY_OBJECT_COLOURS['lake']! });
  add('a label', { 'OVERLAY_COLOURS.pineyStart': O.pineyStart });
  for (const [k, c] of Object.entries(PINEY_OBJECT_COLOURS)) if (k !== 'tree' && k !== 'lake') add(`object: ${k}`, { [`PINEY_OBJECT_COLOURS.${k}`]: c });
  for (const [m, c] of LLAMA_MATERIAL_TINTS) add(`Llama material ${m}`, { [`LLAMA_MATERIAL_TINTS.${m}`]: rgb(c) });
  for (const [m, t] of GTA_SURFACE_TINTS) add(t.meaning, { [`GTA_SURFACE_TINTS.${m}`]: rgb(t.rgb) });
  add('rain', { 'WEATHER_COLOURS.rain': W.rain, 'WEATHER_COLOURS.splash': W.splash });
  add('snow', { 'WEATHER_COLOURS.snow': W.snow });
  add('embers', { 'WEATHER_COLOURS.ember': W.ember });
  add('fireflies', { 'WEATHER_COLOURS.firefly': W.firefly, 'WEATHER_COLOURS.fireflyTrail': W.fireflyTrail });
  add('digital glyphs', { 'WEATHER_COLOURS.glyph': W.glyph });
  add('light: a lens flare, a bolt', { 'WEATHER_COLOURS.lensFlare': W.lensFlare, 'WEATHER_COLOURS.bolt': W.bolt, 'WEATHER_COLOURS.boltGlow': W.boltGlow });
  add('smoke, haze', { 'WEATHER_COLOURS.smoke': W.smoke, 'WEATHER_COLOURS.haze': W.haze });
  add('the hawk', { 'WEATHER_COLOURS.bird': W.bird });
  add('the traveller', { 'WEATHER_COLOURS.traveller': W.traveller, 'WEATHER_COLOURS.travellerOutline': W.travellerOutline, 'WEATHER_COLOURS.hum': W.hum });
  add('a sound in 3D', { 'WEATHER_COLOURS.sound3d': W.sound3d });
  add('other sprites', { 'WEATHER_COLOURS.other': W.other });
  add('agents that see a place (the heat map)', Object.fromEntries(HEAT_RAMP.map((c, i) => [`HEAT_RAMP[${i}]`, rgb(c)])));
  return out;
}

/** A colour in CIE L*a*b* (D65), from 0xRRGGBB. */
export function lab(c: number): [number, number, number] {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const r = lin((c >> 16) & 255);
  const g = lin((c >> 8) & 255);
  const b = lin(c & 255);
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (t * 24389) / 27 / 116 + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** The CIE76 distance between two colours. */
export function colourDistance(a: number, b: number): number {
  const p = lab(a);
  const q = lab(b);
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/** What seat `k`'s colour means (seat 0's is the player's). */
export function seatMeaning(k: number): string {
  return k === 0 ? 'the player' : `player ${k + 1} in a room (its ring and label)`;
}

/**
 * The meanings of the marks the simulation itself puts on every world (the player and the other seats of a
 * room, the agents, who sees whom, the selection, the keyboard's pointer, a falling body, a sent agent's planned path): each of their
 * colours is kept MIN_COLOUR_DISTANCE from every colour of another meaning, anywhere. Green says "sees", yellow "selected", red "does not see", on every world.
 */
export const MARK_MEANINGS: readonly string[] = [
  'the player',
  ...SEAT_COLOURS.slice(1).map((_, i) => seatMeaning(i + 1)),
  'falling: it walked off an edge and is in the air',
  'sees (an agent that sees the player, a line of sight that is clear, how far the selected agent sees)',
  'an agent (not seeing the player), and where it faces',
  'selected (and the entity the keyboard points at, to select)',
  'does not see: a blocked line of sight and where it stopped',
  'where a sent agent will walk: its planned path and its goal',
];

/**
 * The pairs of entries of different meanings that clash: the same colour (0xRRGGBB) for two meanings, or a
 * mark's colour (MARK_MEANINGS) closer than `min` to a colour of another meaning. None: one meaning per colour.
 */
export function colourClashes(entries: readonly ColourMeaning[] = colourMeanings(), min = MIN_COLOUR_DISTANCE): [ColourMeaning, ColourMeaning, number][] {
  const out: [ColourMeaning, ColourMeaning, number][] = [];
  for (let i = 0; i < entries.length; i++)
    for (let j = i + 1; j < entries.length; j++) {
      const a = entries[i]!;
      const b = entries[j]!;
      if (a.meaning === b.meaning) continue;
      const d = colourDistance(a.colour, b.colour);
      const mark = MARK_MEANINGS.includes(a.meaning) || MARK_MEANINGS.includes(b.meaning);
      if (a.colour === b.colour || (mark && d < min)) out.push([a, b, d]);
    }
  return out;
}
