/**
 * The selected entity's rays: every other body within its sight range (nearest first, at most the capacity),
 * eye to eye by the line-of-sight system's rule, each ray's answer the world's own segment test, and a blocked
 * ray's stop point on the segment.
 */
import { describe, expect, test } from 'vitest';
import { newEntityFrame, readEntities } from '../../../src/render/scene/entities.js';
import { mapPlaneOf, mapX, mapY } from '../../../src/render/scene/projection.js';
import { SightProbe } from '../../../src/render/scene/sight-probe.js';
import { SandboxSession } from '../../../src/render/sandbox/session.js';
import { eyeHeight } from '../../../src/systems/los-system.js';
import { Buttons } from '../../../src/systems/input.js';
import { opener } from '../helpers.js';

describe('sight probe', () => {
  test.each(['rugrats-demo', 'colbin-demo', 'llama-demo', 'gta-town', 'piney-default'])('%s: rays to the bodies in range, answered by the world\'s segment test', async (id) => {
    const s = await SandboxSession.create(opener(id), { agents: id === 'piney-default' ? 400 : 60 });
    for (let f = 0; f < 30; f++) s.stepLive(Buttons.Up);
    const sim = s.sim;
    const plane = mapPlaneOf(sim.world);
    const e = readEntities(sim, plane, newEntityFrame(sim.ecs.components.capacity), { ids: new Uint32Array(8) });
    const c = sim.ecs.components;
    const P = [c.Position.x, c.Position.y, c.Position.z];
    const up = sim.world.up.axis;
    const eye = (x: number, a: number) => P[a]![x]! + (a === up ? sim.world.up.sign * eyeHeight(sim.world, c.BodySize.height[x]!) : 0);
    const probe = new SightProbe(16);
    let rays = 0;
    let blocked = 0;
    for (let i = 0; i < e.count; i += 3) {
      const from = e.ids[i]!;
      const n = probe.probe(sim, plane, from, e.ids, e.count);
      const r = c.Sight.range[from]! > 0 ? c.Sight.range[from]! : probe.range;
      // Brute force: every other body in range, by distance.
      const inRange: { id: number; d: number }[] = [];
      for (let j = 0; j < e.count; j++) {
        const o = e.ids[j]!;
        if (o === from) continue;
        const d = [0, 1, 2].reduce((sum, a) => sum + (eye(o, a) - eye(from, a)) ** 2, 0);
        if (d <= r * r) inRange.push({ id: o, d });
      }
      inRange.sort((a, b) => a.d - b.d);
      expect(n).toBe(Math.min(16, inRange.length));
      for (let k = 0; k < n; k++) {
        const t = probe.target[k]!;
        // Nearest first (ties may come in either order).
        expect(Math.abs(inRange.findIndex((q) => q.id === t) - k)).toBeLessThanOrEqual(inRange.filter((q) => q.d === inRange[k]!.d).length);
        const f = sim.world.segmentFraction(eye(from, 0), eye(from, 1), eye(from, 2), eye(t, 0), eye(t, 1), eye(t, 2));
        expect(probe.visible[k]).toBe(f < 0 ? 1 : 0);
        const to = [eye(t, 0), eye(t, 1), eye(t, 2)];
        expect(probe.toX[k]).toBe(mapX(plane, to));
        expect(probe.toY[k]).toBe(mapY(plane, to));
        if (!probe.visible[k]) {
          blocked++;
          expect(probe.fraction[k]).toBeCloseTo(Math.max(0, Math.min(1, f)), 12);
          expect(probe.stopX[k]).toBeCloseTo(probe.fromX + (probe.toX[k]! - probe.fromX) * probe.fraction[k]!, 6);
        }
        rays++;
      }
      const lists = probe.lists();
      expect(lists.sees.length + lists.blocked.length).toBe(n);
    }
    expect(rays).toBeGreaterThan(10);
    if (id === 'rugrats-demo' || id === 'colbin-demo') expect(blocked).toBeGreaterThan(0);
  });

  test('nothing is cast from an entity that is not alive or has no body', async () => {
    const s = await SandboxSession.create(opener('colbin-demo'), { agents: 5 });
    const sim = s.sim;
    const plane = mapPlaneOf(sim.world);
    const e = readEntities(sim, plane, newEntityFrame(sim.ecs.components.capacity), { ids: new Uint32Array(8) });
    const probe = new SightProbe();
    expect(probe.probe(sim, plane, 4000, e.ids, e.count)).toBe(0);
    expect(probe.probe(sim, plane, -1, e.ids, e.count)).toBe(0);
    expect(probe.from).toBe(-1);
  });
});
