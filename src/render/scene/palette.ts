/**
 * Every colour the view draws with, in one place, each with the name the legend gives it: the view and the
 * legend read the same constants, so the legend cannot drift from the picture. Colours are 0xRRGGBB.
 */

/** Entities and their sight. */
export const ENTITY_COLOURS = {
  /** The player's arrow, drawn last (on top of everything) with a halo. */
  player: 0xff3d00,
  playerHalo: 0xffffff,
  /** An agent that sees the player (its Sight says visible). */
  agentSees: 0x76ff03,
  /** An agent that does not see the player. */
  agent: 0x80deea,
  /** Entities that are neither the player nor agents. */
  other: 0xbdbdbd,
  /** The ring around the selected entity. */
  selection: 0xffd54f,
  /** The ring around the entity the keyboard points at (N), before Enter selects it: the selection's colour (drawn thinner and wider). */
  pointed: 0xffd54f,
  /** A watcher's line to the player it sees. */
  sightLine: 0x76ff03,
  /** A ray along an agent's facing, stopped where the world blocks it. */
  facingRay: 0x80deea,
  /** The selected agent's rays: to an agent it sees, to one it does not, and where the blocked ray stopped. */
  seenRay: 0x00e676,
  unseenRay: 0xff4081,
  stopMark: 0xf50057,
  /** The selected agent's sight range: a faint disc and its rim. */
  sightRange: 0x00e676,
  /** The highlight of a selected tile, cell, triangle, wall or face. */
  tile: 0xffd54f,
} as const;

/** The Piney weather as the view draws it. */
export const WEATHER_COLOURS = {
  rain: 0x4fc3f7,
  splash: 0x4fc3f7,
  snow: 0xffffff,
  ember: 0xffa726,
  firefly: 0xccff90,
  fireflyTrail: 0xe6ee9c,
  glyph: 0x69f0ae,
  lensFlare: 0xfff9c4,
  bolt: 0xfffde7,
  boltGlow: 0x7c4dff,
  smoke: 0x9e9e9e,
  bird: 0x212121,
  /** The traveller (TOBJ): Δ's airship and the others. */
  traveller: 0xe040fb,
  travellerOutline: 0x4a148c,
  /** The traveller's hum: rings sized by its volume. */
  hum: 0xce93d8,
  haze: 0xcfd8dc,
  sound3d: 0x90a4ae,
  other: 0xe0e0e0,
} as const;

/** The visibility heat map: no agent sees the cell (transparent) up to many do. */
export const HEAT_RAMP: readonly (readonly [number, number, number])[] = [
  [49, 54, 149],
  [69, 117, 180],
  [116, 173, 209],
  [254, 224, 144],
  [253, 174, 97],
  [244, 109, 67],
  [215, 48, 39],
];

/** The colour of `t` in 0..1 along the heat ramp (RGB bytes). */
export function heatColour(t: number, out: number[] = [0, 0, 0]): number[] {
  const n = HEAT_RAMP.length - 1;
  const x = Math.max(0, Math.min(1, Number.isFinite(t) ? t : 0)) * n;
  const i = Math.min(n - 1, Math.floor(x));
  const f = x - i;
  const a = HEAT_RAMP[i]!;
  const b = HEAT_RAMP[i + 1]!;
  for (let k = 0; k < 3; k++) out[k] = Math.round(a[k]! + (b[k]! - a[k]!) * f);
  return out;
}

/** 0xRRGGBB as a CSS colour. */
export function cssColour(c: number): string {
  return `#${(c & 0xffffff).toString(16).padStart(6, '0')}`;
}

/** RGB bytes as 0xRRGGBB. */
export function rgbToColour(rgb: readonly number[]): number {
  return ((rgb[0]! & 255) << 16) | ((rgb[1]! & 255) << 8) | (rgb[2]! & 255);
}

/** The overview inset's rectangle: the part of the world the view shows (not a selection: yellow is that). */
export const OVERVIEW_VIEW_COLOUR = 0xf5f5f5;

/** The mark of a falling body (a ring with a downward tick): it walked off a floor's edge and is in the air. */
export const FALLING_COLOUR = 0x999922;

/** The selected agent's planned path: where navigation will walk it (a purple no other meaning uses). */
export const PLANNED_PATH_COLOUR = 0xaa00ff;

/**
 * Each player's colour in a room of several (seat 0 keeps the one-player colour); each seat's colour means
 * that seat only (colour-meanings.ts checks them against every other colour).
 */
export const SEAT_COLOURS: readonly number[] = [ENTITY_COLOURS.player, 0x2962ff, 0xbbdd00, 0xff22bb];
