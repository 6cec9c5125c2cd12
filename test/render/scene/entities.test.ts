import { expect, test } from 'vitest';
import { cosAngle, sinAngle } from '../../../src/ecs/angle.js';
import { newEntityFrame, readEntities } from '../../../src/render/scene/entities.js';
import { mapPlaneOf } from '../../../src/render/scene/projection.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { Buttons } from '../../../src/systems/input.js';
import { opener } from '../helpers.js';

test.each(['piney-default', 'colbin-demo'])('%s: entities read from the components, the player marked, facing on the map', async (id) => {
  const s = await SandboxSession.create(opener(id), { agents: 12 });
  for (let f = 0; f < 20; f++) s.stepLive(Buttons.Up | Buttons.Left);
  const sim = s.sim;
  const plane = mapPlaneOf(sim.world);
  const e = readEntities(sim, plane, newEntityFrame(sim.ecs.components.capacity), { ids: new Uint32Array(2) });
  expect(e.count).toBe(1 + sim.agentsPlaced);
  expect(Array.from(e.player.subarray(0, e.count)).filter((p) => p === 1).length).toBe(1);
  expect(Array.from(e.agent.subarray(0, e.count)).filter((a) => a === 1).length).toBe(sim.agentsPlaced);
  const P = [sim.ecs.components.Position.x, sim.ecs.components.Position.y, sim.ecs.components.Position.z];
  for (let i = 0; i < e.count; i++) {
    const id2 = e.ids[i]!;
    if (i > 0) expect(id2).toBeGreaterThan(e.ids[i - 1]!);
    expect(e.x[i]).toBe(P[plane.ax]![id2]);
    expect(e.y[i] === plane.ySign * P[plane.ay]![id2]!).toBe(true);
    const a = sim.ecs.components.Heading.angle[id2]!;
    expect(e.dirX[i]).toBe(cosAngle(a));
    expect(e.dirY[i] === plane.ySign * sinAngle(a)).toBe(true);
    expect(e.radius[i]).toBe(sim.ecs.components.BodySize.radius[id2]);
  }
});
