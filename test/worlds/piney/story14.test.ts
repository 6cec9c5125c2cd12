import { describe, expect, it } from 'vitest';
import { generateField, mapFnv } from '../../../src/worlds/piney/generate.js';
import { getHeight } from '../../../src/worlds/piney/get-height.js';
import { eeFromNumber } from '../../../src/numeric/ee-float.js';
import type { FieldParams } from '../../../src/worlds/piney/field-state.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

// Story area 14, "Bursting Passed Over Aqua Field" (reference 5.1 A and 5.2).
const AREA14: FieldParams = { seed: 1420855, fieldType: 10, weather: 0, ground: 1, object: 1, event: 14, protect: false };
const hex = (v: number) => '0x' + (v >>> 0).toString(16).padStart(8, '0');

describe('story area 14 (seed 1420855, type 10, weather 0, ground 1, object 1)', () => {
  it('after MakeField and the story flat: 6400 draws, the first heights and the map hash', () => {
    const f = generateField(AREA14, defaultPineyTables(), 'makefield');
    expect(f.initDraws).toBe(0);
    expect(f.rng.count).toBe(6400);
    expect([...f.map.subarray(0, 4)].map(hex)).toEqual(['0x42200000', '0x40a00000', '0x41f00000', '0x40400000']);
    expect(mapFnv(f.map)).toBe('0x7fd25f4c83a7e14d');
  });

  it('after the hills: count 6570, seed 1458021437, the hill list, the highest point 766 and the hash', () => {
    const f = generateField(AREA14, defaultPineyTables(), 'hills');
    expect(f.rng.count).toBe(6570);
    expect(f.rng.seed).toBe(1458021437);
    expect(f.hills.map((h) => [h.x, h.y, h.size])).toEqual([
      [22, 11, 24], [48, 45, 16], [48, 1, 12], [40, 65, 12], [60, 9, 16], [26, 59, 14],
    ]);
    expect(hex(Math.max(...f.map))).toBe('0x443f8000');
    expect(mapFnv(f.map)).toBe('0xf8d894c6d04908d5');
  });

  it('after the entrance: count 6580, chip (13, 19), dungeon position (17400, 24000) and the hash', () => {
    const f = generateField(AREA14, defaultPineyTables(), 'entrance');
    expect(f.rng.count).toBe(6580);
    expect(f.entrance).toEqual([13, 19]);
    expect(f.dungeonPos!.map(hex)).toEqual(['0x4687f000', '0x46bb8000', '0x00000000']);
    expect(mapFnv(f.map)).toBe('0x575e001869d82c38');
  });

  it('after the lake: count 6583, seed 3001965418, lake chip (25, 19) and the hash', () => {
    const f = generateField(AREA14, defaultPineyTables(), 'lake');
    expect(f.rng.count).toBe(6583);
    expect(f.rng.seed).toBe(3001965418);
    expect(f.lake).toEqual([25, 19]);
    const lake = f.objects.find((o) => o.kind === 'lake')!;
    expect(lake.row.clump).toBe('CMP_sfp4lak1');
    expect(lake.index).toBe(0);
    expect(mapFnv(f.map)).toBe('0xad6df38f49da519a');
  });

  it('the truncating sqrt.s of volumes 3–4 gives the same layout (no distance lands within an ulp of 8000)', () => {
    const f = generateField({ ...AREA14, distSqrt: 'sqrt.s' }, defaultPineyTables(), 'lake');
    expect(f.rng.count).toBe(6583);
    expect(mapFnv(f.map)).toBe('0xad6df38f49da519a');
  });

  it('GetHeight at (1000, 2000), (24600, 24600) and (16200, 23100)', () => {
    const f = generateField(AREA14, defaultPineyTables(), 'lake');
    const q = (x: number, y: number) => hex(getHeight(f.map, f.check3, eeFromNumber(x), eeFromNumber(y)));
    expect(q(1000, 2000)).toBe('0x4222ab40');
    expect(q(24600, 24600)).toBe('0x39800000');
    expect(q(16200, 23100)).toBe(hex(0xc3fa0000));
  });
});
