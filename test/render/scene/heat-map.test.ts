/**
 * The visibility heat map: each cell's count is the number of agents that see a person standing at its
 * centre (eye to eye within range, the world's segment clear), whether the pass runs in one go or a small
 * budget at a time; passes start every `interval` frames, and again when the simulation goes back in time.
 */
import { describe, expect, test } from 'vitest';
import { VisibilityHeatMap } from '../../../src/render/scene/heat-map.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { eyeHeight } from '../../../src/systems/los-system.js';
import { Buttons } from '../../../src/systems/input.js';
import { opener } from '../helpers.js';

describe('visibility heat map', () => {
  test.each(['rugrats-demo', 'colbin-demo', 'llama-demo', 'gta-town'])('%s: counts equal a brute-force count of the agents that see each cell', async (id) => {
    const s = await SandboxSession.create(opener(id), { agents: 40 });
    for (let f = 0; f < 20; f++) s.stepLive(Buttons.Up);
    const sim = s.sim;
    const hm = new VisibilityHeatMap(sim.world, { cells: 24 });
    const g = hm.finish(sim);
    expect(g.frame).toBe(sim.frame);
    const c = sim.ecs.components;
    const P = [c.Position.x, c.Position.y, c.Position.z];
    const up = sim.world.up.axis;
    const agents: number[] = [];
    for (let e = 0; e <= sim.ecs.maxId; e++) if (sim.ecs.alive[e] && sim.ecs.has(e, c.Agent)) agents.push(e);
    let nonzero = 0;
    let rays = 0;
    for (let j = 0; j < g.rows; j++) {
      for (let i = 0; i < g.cols; i++) {
        const t = hm.targetOf(i, j);
        const k = j * g.cols + i;
        if (!t) {
          expect(g.counts[k]).toBe(0);
          continue;
        }
        let n = 0;
        for (const a of agents) {
          const eye = [0, 1, 2].map((ax) => P[ax]![a]! + (ax === up ? sim.world.up.sign * eyeHeight(sim.world, c.BodySize.height[a]!) : 0));
          const d = (t[0] - eye[0]!) ** 2 + (t[1] - eye[1]!) ** 2 + (t[2] - eye[2]!) ** 2;
          if (!(d <= c.Sight.range[a]! ** 2)) continue;
          rays++;
          if (sim.world.segmentFraction(eye[0]!, eye[1]!, eye[2]!, t[0], t[1], t[2]) < 0) n++;
        }
        expect(g.counts[k], `cell ${i}, ${j}`).toBe(n);
        if (n > 0) nonzero++;
      }
    }
    expect(g.rays).toBe(rays);
    expect(nonzero).toBeGreaterThan(0);
    expect(g.max).toBe(Math.max(...g.counts));
  });

  test('a small budget spreads the pass over calls and gives the same grid; passes follow the interval', async () => {
    const s = await SandboxSession.create(opener('colbin-demo'), { agents: 30 });
    const sim = s.sim;
    const one = new VisibilityHeatMap(sim.world, { cells: 20 }).finish(sim);
    const hm = new VisibilityHeatMap(sim.world, { cells: 20, budget: 7, interval: 10 });
    let calls = 0;
    while (!hm.update(sim)) calls++;
    expect(calls).toBeGreaterThan(3);
    expect(Array.from(hm.grid!.counts)).toEqual(Array.from(one.counts));
    // Within the interval, no new pass starts; after it, one does (for the frame it starts on).
    for (let f = 0; f < 9; f++) {
      s.stepLive(0);
      expect(hm.update(sim)).toBe(false);
      expect(hm.grid!.frame).toBe(0);
    }
    s.stepLive(0);
    while (!hm.update(sim));
    expect(hm.grid!.frame).toBe(10);
    // Back in time (a seek, a restart): the grid is dropped and the next pass starts at once.
    await s.restart();
    hm.update(s.sim);
    expect(hm.grid).toBeNull();
    while (!hm.update(s.sim));
    expect(hm.grid!.frame).toBe(0);
  });
});

test('the default grid keeps a pass affordable: no cell smaller than a sixth of the sight range, 12 to 96 a side', async () => {
  const { heatCellsFor, HEAT_CELLS, HEAT_MIN_CELLS } = await import('../../../src/render/scene/heat-map.js');
  const got: Record<string, number> = {};
  for (const id of ['piney-default', 'rugrats-demo', 'llama-demo', 'colbin-demo', 'gta-town']) {
    const w = (await opener(id)()).world;
    const n = heatCellsFor(w);
    expect(n).toBeGreaterThanOrEqual(HEAT_MIN_CELLS);
    expect(n).toBeLessThanOrEqual(HEAT_CELLS);
    got[id] = n;
  }
  expect(got['piney-default']).toBe(96);
  expect(got['gta-town']).toBe(96);
  expect(got['rugrats-demo']).toBe(12);
});
