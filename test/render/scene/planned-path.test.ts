import { describe, expect, test } from 'vitest';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { plannedPath } from '../../../src/render/scene/planned-path.js';
import { mapPlaneOf, mapX, mapY } from '../../../src/render/scene/projection.js';
import { GoalStatus, Goal, navCacheFor } from '../../../src/nav/navigator.js';
import { nodePosition } from '../../../src/nav/graph.js';
import { opener } from '../helpers.js';

describe("the selected agent's planned path", () => {
  test('from the agent along graph edges to its goal, the very nodes it then walks; none once it arrived', async () => {
    const s = await SandboxSession.create(opener('colbin-demo'), { agents: 3, scenario: 'navigate' });
    const sim = s.sim;
    const plane = mapPlaneOf(sim.world);
    const g = navCacheFor(sim.world).graph;
    const e = 1 + sim.players.length; // the first agent (the players come first)
    expect(sim.ecs.has(e, sim.ecs.components.Agent)).toBe(true);
    expect(plannedPath(sim, e, plane)).toBeNull();
    const node = g.nodeCount - 1;
    s.sendAgent(e, node);
    s.stepLive(0);
    s.stepLive(0);
    const goal = sim.ecs.store(Goal);
    expect(goal.status[e]).toBe(GoalStatus.going);
    const path = plannedPath(sim, e, plane)!;
    expect(path).not.toBeNull();
    const c = sim.ecs.components;
    const here = [c.Position.x[e]!, c.Position.y[e]!, c.Position.z[e]!];
    expect([path[0], path[1]]).toEqual([mapX(plane, here), mapY(plane, here)]);
    const to = nodePosition(g, node);
    expect(path.slice(-2)).toEqual([mapX(plane, to), mapY(plane, to)]);
    // Each node of the path (after the agent's own point) is a node the agent stands on, in that order.
    const nodes: [number, number][] = [];
    for (let k = 2; k < path.length; k += 2) nodes.push([path[k]!, path[k + 1]!]);
    expect(nodes.length).toBeGreaterThan(2);
    let i = 0;
    for (let f = 0; f < 4000 && goal.status[e] === GoalStatus.going; f++) {
      s.stepLive(0);
      const x = mapX(plane, [c.Position.x[e]!, c.Position.y[e]!, c.Position.z[e]!]);
      const y = mapY(plane, [c.Position.x[e]!, c.Position.y[e]!, c.Position.z[e]!]);
      if (i < nodes.length && x === nodes[i]![0] && y === nodes[i]![1]) i++;
    }
    expect(goal.status[e]).toBe(GoalStatus.arrived);
    expect(i).toBe(nodes.length);
    expect(plannedPath(sim, e, plane)).toBeNull();
  }, 120_000);

  test('a scenario without navigation has no planned path', async () => {
    const s = await SandboxSession.create(opener('colbin-demo'), { agents: 3 });
    expect(plannedPath(s.sim, 2, mapPlaneOf(s.sim.world))).toBeNull();
  });
});
