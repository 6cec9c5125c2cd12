import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadPineyWorld, type PineyWorld } from '../../../src/worlds/piney/collision-world.js';
import { pineyColours, pineyScene } from '../../../src/worlds/piney/scene.js';
import { defaultPineyTables } from '../../../src/node/assets.js';

const specBytes = new Uint8Array(readFileSync(new URL('../../../assets/worlds/piney/default.field.json', import.meta.url)));
const world: PineyWorld = loadPineyWorld(specBytes, 'default.field.json', defaultPineyTables());

describe('the field as drawing data', () => {
  it('exposes the scene for the renderer: the lake water at (30600, 23400, 0), the entrance first, covers on open chips', () => {
    const s = pineyScene(world);
    expect(s.water).toEqual([30600, 23400, 0]);
    expect(s.objects[0]).toMatchObject({ kind: 'entrance', position: [17400, 24000, 0] });
    expect(s.objects).toHaveLength(107);
    expect(s.covers.length).toBe(world.field.coverCount);
    for (const c of s.covers) expect(s.hidden[c.chip[0] * 40 + c.chip[1]]).toBe(0);
    expect(s.groundMesh).toBe('MDL_sfp5tur1');
    expect(s.startPosition).toEqual([24600, 24600, 0]);
  });

  it('exposes the lit colours for the renderer (RGB per cell, deterministic)', () => {
    const c = pineyColours(world);
    expect(c.length).toBe(80 * 80 * 3);
    expect(pineyColours(loadPineyWorld(specBytes, 'again', defaultPineyTables()))).toEqual(c);
  });
});
