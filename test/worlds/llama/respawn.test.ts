import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../../src/ecs/events.js';
import { LlamaWorld } from '../../../src/worlds/llama/collision-world.js';
import { DEMO_CELLS, demoLevel } from '../../../src/worlds/llama/demo-levels.js';
import { buildLevel } from '../../../src/worlds/llama/level-builder.js';
import { LlamaRespawner } from '../../../src/worlds/llama/respawn.js';

function demoWorld(): LlamaWorld {
  const b = buildLevel(demoLevel());
  return new LlamaWorld(b.trak, b.map, 'demo');
}

describe('llama death plane and respawn', () => {
  it('a fall onto the death plane emits death and respawns at the start, then at the checkpoint', () => {
    const world = demoWorld();
    const events = createEventBus();
    const deaths: { frame: number; entity: number }[] = [];
    events.on('death', (e) => deaths.push(e));
    const rs = new LlamaRespawner(world);
    const body = { radius: 0.2, height: 0.75 };
    const pit: [number, number, number] = [DEMO_CELLS.pit[0] + 0.5, 0, DEMO_CELLS.pit[1] + 0.5];
    const r = world.move(body, pit, [0, -3, 0]);
    expect(rs.afterMove({ frame: 7, events }, 3, r)).toEqual(world.spawnPoint());
    expect(deaths).toEqual([{ frame: 7, entity: 3 }]);
    rs.setCheckpoint(3, [4.5, 0, 4.5]);
    expect(rs.afterMove({ frame: 8, events }, 3, world.move(body, pit, [0, -3, 0]))).toEqual([4.5, 0, 4.5]);
    // An ordinary landing is no death.
    expect(rs.afterMove({ frame: 9, events }, 3, world.move(body, [0.5, 0.2, 0.5], [0, -0.3, 0]))).toBeNull();
    expect(deaths.length).toBe(2);
  });

  it('checkpoints are state: hashed in entity order, saved and restored', () => {
    const rs = new LlamaRespawner(demoWorld());
    rs.setCheckpoint(5, [1, 2, 3]);
    rs.setCheckpoint(2, [4, 5, 6]);
    expect(rs.hashState()).toEqual([2, 4, 5, 6, 5, 1, 2, 3]);
    const s = rs.save();
    rs.setCheckpoint(2, [0, 0, 0]);
    rs.restore(s);
    expect(rs.hashState()).toEqual([2, 4, 5, 6, 5, 1, 2, 3]);
  });

  it('the world saves and restores its swap states', () => {
    const w = demoWorld();
    w.setSwap(0, true);
    const s = w.saveState();
    w.setSwap(0, false);
    w.restoreState(s);
    expect(w.swapStates()).toEqual([1]);
    expect(() => w.restoreState({})).toThrow(RangeError);
  });
});
