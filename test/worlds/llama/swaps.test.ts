import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/binary/format-error.js';
import { LlamaWorld } from '../../../src/worlds/llama/collision-world.js';
import { DEMO_CELLS, demoLevel } from '../../../src/worlds/llama/demo-levels.js';
import { buildLevel } from '../../../src/worlds/llama/level-builder.js';
import { MATERIAL_SPECIAL_A, MATERIAL_SPECIAL_B } from '../../../src/worlds/llama/materials.js';
import { flatQuad } from '../../../src/worlds/llama/demo-levels.js';

function demoWorld(): LlamaWorld {
  const b = buildLevel(demoLevel());
  return new LlamaWorld(b.trak, b.map, 'demo');
}

describe('llama tile swaps as world run-time state', () => {
  it('a swap turned on opens the door and off closes it again', () => {
    const world = demoWorld();
    const x = DEMO_CELLS.door[0] + 0.5, z = DEMO_CELLS.door[1] + 0.5;
    const blocked = (): boolean => world.segmentFraction(x, 0.5, z - 0.4, x, 0.5, z + 0.4) >= 0;
    expect(blocked()).toBe(true);
    world.setSwap(0, true);
    expect(blocked()).toBe(false);
    world.setSwap(0, false);
    expect(blocked()).toBe(true);
    expect(() => world.setSwap(3, true)).toThrow(RangeError);
  });

  it('swap states go into the world hash and survive save/restore', () => {
    const w = demoWorld();
    expect(w.hashState()).toEqual([0]);
    w.setSwap(0, true);
    expect(w.hashState()).toEqual([1]);
    const s = w.saveState();
    w.setSwap(0, false);
    w.restoreState(s);
    expect(w.swapStates()).toEqual([1]);
    expect(() => w.restoreState({})).toThrow(FormatError);
    expect(() => w.restoreState({})).toThrow(/missing swaps/);
  });
});

describe('llama materials 17 and 18', () => {
  for (const m of [MATERIAL_SPECIAL_A, MATERIAL_SPECIAL_B]) {
    it(`material ${m} collides normally, and not at all under WFPC 0x8000000`, () => {
      const desc = { name: 'm', width: 1, height: 1, models: [{ floors: [flatQuad(0), flatQuad(0.5, -0.5, 0.5, -0.5, 0.5, m)] }], tiles: [{ model: 0, col: 0, row: 0 }] };
      const b = buildLevel(desc);
      const w = new LlamaWorld(b.trak, b.map, 'm');
      expect(w.ground([0.5, 1, 0.5]).floor).toBe(0.5);
      expect(w.ground([0.5, 1, 0.5]).material).toBe(m);
      const b2 = buildLevel({ ...desc, wfpc: 0x8000000 });
      const w2 = new LlamaWorld(b2.trak, b2.map, 'm');
      expect(w2.ground([0.5, 1, 0.5]).floor).toBe(0);
      expect(w2.ground([0.5, 1, 0.5]).material).toBe(0);
      // Other materials are not affected by the flag.
      const b3 = buildLevel({ ...desc, wfpc: 0x8000000, models: [{ floors: [flatQuad(0), flatQuad(0.5, -0.5, 0.5, -0.5, 0.5, 19)] }] });
      expect(new LlamaWorld(b3.trak, b3.map, 'm').ground([0.5, 1, 0.5]).floor).toBe(0.5);
    });
  }
});
