/**
 * What the Piney weather looks like on the map, in words and colours: each drawn item's kind with a human name
 * (the game's sprite names, such as EFF_sfp8rai7, mean nothing to a reader), the traveller's name by server,
 * the time of day of the field's background row and the tint the view lays over the ground for it.
 *
 * Pure data (no pixi.js); the view, the legend and the status panel read it.
 */
import { ambientOf } from '../../scenarios/piney-field.js';
import { TIME_DAY, TIME_EVENING, TIME_NIGHT } from '../../systems/piney-ambient/weather.js';
import type { AmbientItem } from './ambient-ops.js';
import { WEATHER_COLOURS } from './palette.js';

/** The kinds of weather item the view tells apart. */
export type WeatherKind =
  | 'rain'
  | 'splash'
  | 'bolt'
  | 'snow'
  | 'ember'
  | 'firefly'
  | 'firefly-trail'
  | 'glyph'
  | 'lens-flare'
  | 'smoke'
  | 'bird'
  | 'traveller'
  | 'hum'
  | 'haze'
  | 'sound3d'
  | 'other';

/** A weather kind's human name, colour and how the view draws it. */
export interface WeatherKindLook {
  label: string;
  colour: number;
  symbol: 'streak' | 'dot' | 'ring' | 'bolt' | 'diamond' | 'chevron' | 'puff';
}

export const WEATHER_KINDS: Readonly<Record<WeatherKind, WeatherKindLook>> = {
  rain: { label: 'rain drops', colour: WEATHER_COLOURS.rain, symbol: 'streak' },
  splash: { label: 'splashes', colour: WEATHER_COLOURS.splash, symbol: 'ring' },
  bolt: { label: 'lightning bolt', colour: WEATHER_COLOURS.bolt, symbol: 'bolt' },
  snow: { label: 'snow', colour: WEATHER_COLOURS.snow, symbol: 'dot' },
  ember: { label: 'embers', colour: WEATHER_COLOURS.ember, symbol: 'dot' },
  firefly: { label: 'fireflies', colour: WEATHER_COLOURS.firefly, symbol: 'dot' },
  'firefly-trail': { label: "fireflies' trails", colour: WEATHER_COLOURS.fireflyTrail, symbol: 'dot' },
  glyph: { label: 'digital glyphs (hacked field)', colour: WEATHER_COLOURS.glyph, symbol: 'dot' },
  'lens-flare': { label: 'lens flare', colour: WEATHER_COLOURS.lensFlare, symbol: 'ring' },
  smoke: { label: 'smoke puffs', colour: WEATHER_COLOURS.smoke, symbol: 'puff' },
  bird: { label: 'the hawk', colour: WEATHER_COLOURS.bird, symbol: 'chevron' },
  traveller: { label: 'the traveller', colour: WEATHER_COLOURS.traveller, symbol: 'diamond' },
  hum: { label: "the traveller's hum (louder, larger)", colour: WEATHER_COLOURS.hum, symbol: 'ring' },
  haze: { label: 'heat haze', colour: WEATHER_COLOURS.haze, symbol: 'puff' },
  sound3d: { label: 'steam hiss (a sound in 3D)', colour: WEATHER_COLOURS.sound3d, symbol: 'ring' },
  other: { label: 'other sprites', colour: WEATHER_COLOURS.other, symbol: 'dot' },
};

/**
 * A sprite's or model's kind from its name (the operation list's names: EFF_sfp8rai1-4 and 7-10 rain,
 * EFF_sfp8rai6 the splash, EFF_sfp8thu1-4 the bolt, EFF_sfg8sno / sfh8sno snow, EFF_sfa8fir1 embers,
 * EFF_sfpfir_1 and _2 fireflies and their trails, EFF_sfzdigi glyphs, EFF_sflenz the lens flare).
 */
export function weatherKindOfName(kind: AmbientItem['kind'], name: string): WeatherKind {
  if (kind === 'smoke') return 'smoke';
  if (kind === 'hum') return 'hum';
  if (kind === 'sound3d') return 'sound3d';
  if (kind === 'model') {
    if (name === 'bird') return 'bird';
    if (name.startsWith('tobj')) return 'traveller';
    if (name === 'haze') return 'haze';
    return 'other';
  }
  if (name.includes('sfp8rai6')) return 'splash';
  if (name.includes('rai')) return 'rain';
  if (name.includes('thu')) return 'bolt';
  if (name.includes('sno')) return 'snow';
  if (name.includes('sfa8fir')) return 'ember';
  if (name.includes('sfpfir_2')) return 'firefly-trail';
  if (name.includes('sfpfir')) return 'firefly';
  if (name.includes('digi')) return 'glyph';
  if (name.includes('lenz')) return 'lens-flare';
  return 'other';
}

/** A drawable weather item's kind (`weatherKindOfName` of its kind and name). */
export function weatherKindOf(item: Pick<AmbientItem, 'kind' | 'name'>): WeatherKind {
  return weatherKindOfName(item.kind, item.name);
}

/** The travellers by server (TOBJ): Δ's airship, Θ's balloon, Λ's whale, Σ's, Ω's sleigh. */
export const TRAVELLER_NAMES: readonly string[] = ["Δ's airship", "Θ's balloon", "Λ's whale", "Σ's traveller", "Ω's sleigh"];

export function travellerName(server: number): string {
  return TRAVELLER_NAMES[server] ?? `server ${server}'s traveller`;
}

/** The operation list's counts (by sprite or model name) as human counts by kind, in a fixed order. */
export function weatherCounts(counts: Readonly<Record<string, number>>): { kind: WeatherKind; label: string; count: number }[] {
  const byKind = new Map<WeatherKind, number>();
  for (const [name, n] of Object.entries(counts)) {
    const kind = name === 'smoke' ? 'smoke' : name === 'hum' ? 'hum' : weatherKindOfName(name === 'bird' || name.startsWith('tobj') || name === 'haze' || name === 'model' ? 'model' : 'sprite', name);
    byKind.set(kind, (byKind.get(kind) ?? 0) + n);
  }
  const order = Object.keys(WEATHER_KINDS) as WeatherKind[];
  return order.filter((k) => byKind.has(k)).map((k) => ({ kind: k, label: WEATHER_KINDS[k].label, count: byKind.get(k)! }));
}

/** Time of day by name. */
export type TimeOfDay = 'day' | 'evening' | 'night';

/** The tint laid over the ground for a time of day (alpha 0: none). */
export interface Tint {
  colour: number;
  alpha: number;
}

/** Night is a deep blue veil, evening a light amber one; day has none. */
export const TIME_TINTS: Readonly<Record<TimeOfDay, Tint>> = {
  day: { colour: 0x000000, alpha: 0 },
  evening: { colour: 0x6d3c14, alpha: 0.22 },
  night: { colour: 0x050a26, alpha: 0.55 },
};

/** The weather names GetWeather's numbers stand for. */
export const WEATHER_NAMES: readonly string[] = ['fine', 'cloudy', 'rain', 'storm', 'light snow', 'heavy snow'];

/** What the view needs of a simulation's field weather (null when its scenario installed none). */
export interface FieldAmbience {
  type: number;
  row: number;
  weather: string;
  time: TimeOfDay;
  tint: Tint;
  traveller: string | null;
  hacked: boolean;
}

export function timeOfDayName(t: number): TimeOfDay {
  return t === TIME_NIGHT ? 'night' : t === TIME_EVENING ? 'evening' : t === TIME_DAY ? 'day' : 'day';
}

/** The field weather a simulation runs, read (never changed) from the scenario's ambient state. */
export function fieldAmbience(sim: object): FieldAmbience | null {
  const a = ambientOf(sim);
  if (!a) return null;
  const w = a.state.weather;
  const time = timeOfDayName(w.time);
  return {
    type: w.type,
    row: w.row,
    weather: WEATHER_NAMES[w.weather] ?? `weather ${w.weather}`,
    time,
    tint: TIME_TINTS[time],
    traveller: a.state.tobj ? travellerName(a.state.tobj.server) : null,
    hacked: w.hacked,
  };
}

/**
 * Where a sky item (the bolt, the traveller) is drawn when it lies outside the view: pulled in along the line
 * from the view's centre to the item until it is `inset` pixels inside the edge, so it is always seen while
 * shown. Screen coordinates in and out; `clamped` says whether it was moved.
 */
export function clampToView(sx: number, sy: number, width: number, height: number, inset: number): { x: number; y: number; clamped: boolean } {
  const cx = width / 2;
  const cy = height / 2;
  const hw = Math.max(1, width / 2 - inset);
  const hh = Math.max(1, height / 2 - inset);
  const dx = sx - cx;
  const dy = sy - cy;
  const k = Math.max(Math.abs(dx) / hw, Math.abs(dy) / hh);
  if (!(k > 1) || !Number.isFinite(k)) return { x: sx, y: sy, clamped: false };
  return { x: cx + dx / k, y: cy + dy / k, clamped: true };
}
