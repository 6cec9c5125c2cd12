import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  getWeather,
  getTime,
  checkLensFlare,
  initDraws,
  lensFlareDummy,
} from '../../../src/systems/piney-ambient/weather.js';
import { initDrawCount } from '../../../src/worlds/piney/generate.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

// The reference sheet's tables (piney-ambient.md §1.1), written out row by row for rows 0..9.
const WEATHER: Record<number, number[]> = {
  0: [0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
  4: [0, 0, 0, 1, 2, 2, 3, 3, 0, 0],
  5: [4, 4, 4, 4, 5, 5, 5, 5, 5, 5],
};
const TIME: Record<number, number[]> = {
  0: [0, 1, 2, 0, 2, 2, 2, 2, 2, 2],
  4: [0, 1, 2, 0, 0, 2, 0, 2, 2, 2],
  5: [0, 1, 2, 0, 0, 2, 2, 2, 2, 2],
};
const GROUP = [0, 0, 0, 0, 4, 5, 5, 4, 4, 4, 4];

describe('GetWeather, GetTime, CheckLensFlare', () => {
  it('match the reference tables for every field type and background row', () => {
    for (let t = 0; t <= 10; t++) {
      for (let b = 0; b <= 9; b++) {
        expect(getWeather(t, b), `weather ${t},${b}`).toBe(WEATHER[GROUP[t]!]![b]);
        expect(getTime(t, b), `time ${t},${b}`).toBe(TIME[GROUP[t]!]![b]);
      }
    }
  });

  it('the lens flare: not hacked, weather 0, 1 or 4, day or evening', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 9 }), fc.boolean(), (t, b, hacked) => {
        const w = getWeather(t, b);
        const tm = getTime(t, b);
        expect(checkLensFlare(t, b, hacked)).toBe(!hacked && [0, 1, 4].includes(w) && tm <= 1);
      }),
    );
    expect(checkLensFlare(5, 0, false)).toBe(true);
    expect(checkLensFlare(5, 4, false)).toBe(false);
    expect(checkLensFlare(0, 0, true)).toBe(false);
  });

  it('names the sun dummy by type and row, none for type 4 or past the type rows', () => {
    expect(lensFlareDummy(0, 0)).toBe('DMY_sfalig_1point');
    expect(lensFlareDummy(10, 6)).toBe('DMY_sfp7lig_7point');
    expect(lensFlareDummy(3, 4)).toBeNull();
    expect(lensFlareDummy(4, 0)).toBeNull();
    expect(lensFlareDummy(7, 7)).toBeNull();
  });
});

describe('WORLD::Init draw counts', () => {
  it('match the reference test values', () => {
    expect(initDraws(0, 0)).toBe(112);
    expect(initDraws(2, 9)).toBe(21);
    expect(initDraws(5, 3)).toBe(721);
    expect(initDraws(6, 4)).toBe(1621);
    expect(initDraws(4, 0)).toBe(0);
    expect(initDraws(7, 0)).toBe(0);
    expect(initDraws(10, 9)).toBe(0);
  });

  it('agree with the field generator tables for every type and row', () => {
    const tables = defaultPineyTables();
    for (let t = 0; t <= 10; t++) for (let b = 0; b <= 9; b++) expect(initDraws(t, b), `${t},${b}`).toBe(initDrawCount(tables, t, b));
  });
});
