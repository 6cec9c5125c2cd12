import { describe, expect, it } from 'vitest';
import { Scheduler, type SimRng } from '../../../src/ecs/scheduler.js';
import { CcRand } from '../../../src/rng/ccrand.js';
import { FieldRand } from '../../../src/rng/fieldrand.js';
import { RandomStreams } from '../../../src/rng/streams.js';
import { createEventBus } from '../../../src/ecs/events.js';
import { LlamaWorld } from '../../../src/worlds/llama/collision-world.js';
import { DEMO_CELLS, demoLevel } from '../../../src/worlds/llama/demo-levels.js';
import { buildLevel } from '../../../src/worlds/llama/level-builder.js';
import { SwapTask } from '../../../src/worlds/llama/swaps.js';
import { MATERIAL_SPECIAL_A, MATERIAL_SPECIAL_B } from '../../../src/worlds/llama/materials.js';
import { flatQuad } from '../../../src/worlds/llama/demo-levels.js';

function demoWorld(): LlamaWorld {
  const b = buildLevel(demoLevel());
  return new LlamaWorld(b.trak, b.map, 'demo');
}

describe('llama tile swaps as simulation state', () => {
  it('a queued command switches the door in its frame, run by the scheduler', () => {
    const world = demoWorld();
    const task = new SwapTask(world);
    const rng: SimRng = { fieldrand: new FieldRand(0), ccrand: new CcRand(), streams: new RandomStreams(1) };
    const sched = new Scheduler(rng, createEventBus());
    sched.addTask('llama swaps', 10, task);
    task.queue({ frame: 3, swap: 0, on: true });
    task.queue({ frame: 5, swap: 0, on: false });
    const x = DEMO_CELLS.door[0] + 0.5, z = DEMO_CELLS.door[1] + 0.5;
    const blocked = (): boolean => world.segmentFraction(x, 0.5, z - 0.4, x, 0.5, z + 0.4) >= 0;
    const seen: boolean[] = [];
    for (let f = 1; f <= 6; f++) {
      sched.step();
      seen.push(blocked());
    }
    expect(seen).toEqual([true, true, false, false, true, true]);
    expect(task.pendingCount).toBe(0);
  });

  it('swap states and pending commands go into the hash and survive save/restore', () => {
    const world = demoWorld();
    const task = new SwapTask(world);
    const h0 = task.hashState();
    task.queue({ frame: 2, swap: 0, on: true });
    const h1 = task.hashState();
    expect(h1).not.toEqual(h0);
    const saved = task.save();
    task.run({ frame: 2 });
    expect(world.swapStates()).toEqual([1]);
    expect(world.hashState()).toEqual([1]);
    expect(task.hashState()).not.toEqual(h1);
    task.restore(saved);
    expect(world.swapStates()).toEqual([0]);
    expect(task.hashState()).toEqual(h1);
    expect(() => task.queue({ frame: 1, swap: 3, on: true })).toThrow(RangeError);
  });

  it('commands of one frame apply in queue order, the later winning', () => {
    const world = demoWorld();
    const task = new SwapTask(world);
    task.queue({ frame: 4, swap: 0, on: true });
    task.queue({ frame: 4, swap: 0, on: false });
    task.queue({ frame: 1, swap: 0, on: true });
    task.run({ frame: 1 });
    expect(world.swapStates()).toEqual([1]);
    task.run({ frame: 4 });
    expect(world.swapStates()).toEqual([0]);
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
