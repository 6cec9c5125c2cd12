/**
 * WORLD_MAN's weather tables: GetWeather (main 0x0019f190), GetTime (0x0019ef50) and CheckLensFlare
 * (0x0019f0d0), read by field type and background row b (WORLD_MAN +0x0c), and which pictures a field has.
 */

export const WEATHER_FINE = 0;
export const WEATHER_CLOUDY = 1;
export const WEATHER_RAIN = 2;
export const WEATHER_STORM = 3;
export const WEATHER_LIGHT_SNOW = 4;
export const WEATHER_HEAVY_SNOW = 5;

export const TIME_DAY = 0;
export const TIME_EVENING = 1;
export const TIME_NIGHT = 2;

/** The field types (0..10) and background rows (0..9) the tables know. */
export const FIELD_TYPES = 11;
export const BACKGROUND_ROWS = 10;

/** WORLD_MAN +0xf0's value when the field is hacked (SetHackFlag). */
export const HACK_FLAG = 3;

/** GetWeather: 0 fine, 1 cloudy, 2 rain, 3 storm, 4 light snow, 5 heavy snow. */
export function getWeather(type: number, row: number): number {
  switch (type) {
    case 0:
    case 1:
    case 2:
    case 3:
      return row === 3 ? 1 : 0;
    case 4:
    case 7:
    case 8:
    case 9:
    case 10:
      if (row === 3) return 1;
      if (row === 4 || row === 5) return 2;
      if (row === 6 || row === 7) return 3;
      return 0;
    case 5:
    case 6:
      return row <= 3 ? 4 : 5;
    default:
      return 0;
  }
}

/** GetTime: 0 day, 1 evening, 2 night. */
export function getTime(type: number, row: number): number {
  if (row === 1) return 1;
  switch (type) {
    case 4:
    case 7:
    case 8:
    case 9:
    case 10:
      return row === 0 || row === 3 || row === 4 || row === 6 ? 0 : 2;
    case 5:
    case 6:
      return row === 0 || row === 3 || row === 4 ? 0 : 2;
    default:
      return row === 0 || row === 3 ? 0 : 2;
  }
}

/** CheckLensFlare: not hacked, weather fine, cloudy or light snow, day or evening. */
export function checkLensFlare(type: number, row: number, hacked: boolean): boolean {
  const w = getWeather(type, row);
  const t = getTime(type, row);
  return !hacked && (w === 0 || w === 1 || w === 4) && (t === 0 || t === 1);
}

/** The lens flare sun dummy's stem by field type (the table at gcmn 0x006588f0); type 4 has none. */
const FLARE_STEMS: readonly (string | null)[] = [
  'sfalig',
  'sfblig',
  'sfclig',
  'sfdlig',
  null,
  'sfglig',
  'sfhlig',
  'sfilig',
  'sfklig',
  'sfmlig',
  'sfp7lig',
];

/**
 * The background dummy the lens flare takes as its sun, `DMY_<stem>_<b+1>point`, or null where the table
 * has none (type 4, or a row past the type's: 4 rows for types 0-3, 7 for the others).
 */
export function lensFlareDummy(type: number, row: number): string | null {
  const stem = FLARE_STEMS[type] ?? null;
  if (stem === null) return null;
  const rows = type <= 3 ? 4 : 7;
  return row >= 0 && row < rows ? `DMY_${stem}_${row + 1}point` : null;
}

/** The field's weather state as the drawing reads it. */
export interface FieldWeather {
  type: number;
  row: number;
  hacked: boolean;
  weather: number;
  time: number;
  lensFlare: boolean;
}

export function fieldWeather(type: number, row: number, hacked: boolean): FieldWeather {
  return {
    type,
    row,
    hacked,
    weather: getWeather(type, row),
    time: getTime(type, row),
    lensFlare: checkLensFlare(type, row, hacked),
  };
}

/** fieldrand draws of one SNOW by kind: a light flake 7, a heavy flake 8, an ember 7. */
export const SNOW_DRAWS = [7, 8, 7] as const;
/** The 2D smoke's creation: the sleep, then five puffs of four. */
export const SMOKE2D_DRAWS = 21;
/** SetRainEffect: 50 drops of two. */
export const RAIN_DRAWS = 100;
/** One FIREFLY (13) and one type-9 FIREFLY2 roamer (11). */
export const FIREFLY_DRAWS = 13;
export const ROAMER_DRAWS = 11;

/**
 * How many fieldrand draws WORLD::Init takes for a field: 200 heavy flakes (weather 5) or 100 light ones
 * (weather 4), 16 embers for type 0, and the 2D smoke for types 2, 3, 5, 6.
 */
export function initDraws(type: number, row: number): number {
  const w = getWeather(type, row);
  let n = 0;
  if (w === 5) n += 200 * SNOW_DRAWS[1];
  else if (w === 4) n += 100 * SNOW_DRAWS[0];
  if (type === 0) n += 16 * SNOW_DRAWS[2];
  if (type === 2 || type === 3 || type === 5 || type === 6) n += SMOKE2D_DRAWS;
  return n;
}
