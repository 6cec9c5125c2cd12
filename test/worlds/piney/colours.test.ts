import { describe, expect, it } from 'vitest';
import { eeFromInt } from '../../../src/numeric/ee-float.js';
import { generateField } from '../../../src/worlds/piney/generate.js';
import { CELLS } from '../../../src/worlds/piney/field-state.js';
import {
  coverHeights, faceNormals, fieldLight, meshHeight, tileHeights, vertexColours, vertexNormals, type FieldLight,
} from '../../../src/worlds/piney/colours.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

const AREA14 = { seed: 1420855, fieldType: 10, weather: 0, ground: 1, object: 1, event: 14, protect: false };

describe('ground tile heights', () => {
  it('store s16 fptosi(4096·h / scale)', () => {
    expect(meshHeight(eeFromInt(50), 0x44160000)).toBe(341);
    expect(meshHeight(eeFromInt(7), 0x44160000)).toBe(47);
    expect(meshHeight(eeFromInt(766), 0x44160000)).toBe(5229);
    // 4096 · 5000 / 300 overflows 16 bits and wraps as the game's s16 store does.
    expect(meshHeight(eeFromInt(5000), 0x43960000)).toBe(((68266 << 16) >> 16));
  });
  it('tile (5, 7) of story area 14 has exactly the reference\'s vertex heights', () => {
    const f = generateField(AREA14, defaultPineyTables(), 'lake');
    const reference = [47, 341, 375, 232, 375, 341, 375, 232, 266, 122, 266, 232, 382, 47, 273, 375, 273, 47, 273, 375, 163, 266, 163, 375];
    expect(new Set(tileHeights(f.map, 5, 7))).toEqual(new Set(reference));
  });
  it('a cover reads the 2 × 2 corners of its quadrant\'s cell', () => {
    const map = new Uint32Array(CELLS * CELLS);
    map[(2 * 3 + 1) * CELLS + 2 * 4 + 1] = eeFromInt(30);
    expect([...coverHeights(map, 3, 4, 3)]).toEqual([Math.trunc((4096 * 30) / 300), 0, 0, 0]);
    expect([...coverHeights(map, 3, 4, 0)]).toEqual([0, 0, 0, Math.trunc((4096 * 30) / 300)]);
  });
});

describe('lighting', () => {
  it('keeps the game\'s slip: a vertex averages quad (x + 1, y − 1), not quad (x, y − 1)', () => {
    const map = new Uint32Array(CELLS * CELLS);
    const faces = faceNormals(map);
    const base = vertexNormals(faces);
    const bent = (cx: number, cy: number) => {
      const f = faces.slice();
      const at = ((cx * CELLS + cy) * 2 + 0) * 3;
      f[at] = 0x3f000000; // tilt the T0 face of that quad
      return vertexNormals(f);
    };
    const v = (n: Uint32Array) => [...n.subarray((10 * CELLS + 10) * 3, (10 * CELLS + 10) * 3 + 3)];
    expect(v(bent(11, 9))).not.toEqual(v(base));
    expect(v(bent(10, 9))).toEqual(v(base));
  });
  it('a surface facing away from the light gets the ambient only; facing it, more', () => {
    const map = new Uint32Array(CELLS * CELLS);
    const normals = vertexNormals(faceNormals(map));
    const t = defaultPineyTables();
    const light = fieldLight(t, 10, 0);
    const away: FieldLight = { ...light, direction: [0, 0, 0x3f800000] };
    const towards: FieldLight = { ...light, direction: [0, 0, 0xbf800000] };
    const a = vertexColours(normals, away);
    const b = vertexColours(normals, towards);
    // 128 · 0x6e / 255 = 55.2, 128 · 0x78 / 255 = 60.2, 128 · 0x94 / 255 = 74.3
    expect([a[0], a[1], a[2]]).toEqual([55, 60, 74]);
    for (let k = 0; k < 3; k++) expect(b[k]!).toBeGreaterThan(a[k]!);
  });
  it('colours story area 14 within a few levels of the reference\'s tile (5, 7) vertices (an approximation)', () => {
    const f = generateField(AREA14, defaultPineyTables(), 'lake');
    const c = vertexColours(vertexNormals(faceNormals(f.map)), fieldLight(defaultPineyTables(), 10, 0));
    const at = (x: number, y: number) => [...c.subarray((x * CELLS + y) * 3, (x * CELLS + y) * 3 + 3)];
    const ref: [number, number, number[]][] = [[10, 15, [151, 153, 160]], [10, 14, [147, 149, 157]], [11, 15, [150, 152, 159]]];
    for (const [x, y, rgb] of ref) at(x, y).forEach((v, k) => expect(Math.abs(v - rgb[k]!)).toBeLessThanOrEqual(6));
  });
});
