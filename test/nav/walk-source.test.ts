/**
 * The walkability source: on every world kind, the places it says a body stands are places a frame of
 * standing leaves unchanged, and the walks it says arrive are the walks a simulation makes: an entity moved
 * by the simulation's own gravity, movement and ground-contact systems, steered by a system of the test's,
 * ends each walk at the same position, to the bit, after the same number of frames.
 */
import { describe, expect, it } from 'vitest';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { defineScenario } from '../../src/sim/scenario.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { defineSystem } from '../../src/systems/system.js';
import { simulationFromSettings, defaultSettingsFor } from '../../src/scenarios/builtin.js';
import type { CollisionWorld, Vec3 } from '../../src/worlds/world.js';
import { cellCentre, gridCell, navGridOf, walkSourceOf, type WalkSource } from '../../src/nav/walk-source.js';
import { defaultNavBody, newWalker, steer, walkBudget, walkFrame, type NavBody } from '../../src/nav/walk.js';
import { NAV_DIRECTIONS } from '../../src/nav/graph.js';
import { MATERIAL_DEATH } from '../../src/worlds/llama/materials.js';

const WORLDS = ['rugrats-hand', 'rugrats-demo', 'llama-demo', 'colbin-demo', 'gta-town', 'piney-default'];

/** Up to `want` walks (a standing place and the neighbouring cell it arrives in) near the world's spawn point. */
function walksNear(src: WalkSource, want: number): { from: Vec3; i: number; j: number; to: Vec3 }[] {
  const { grid, world } = src;
  const s = world.spawnPoint();
  const si = Math.min(grid.n0 - 1, Math.max(0, Math.floor((s[grid.a0] - grid.origin0) / grid.cell)));
  const sj = Math.min(grid.n1 - 1, Math.max(0, Math.floor((s[grid.a1] - grid.origin1) / grid.cell)));
  const out: { from: Vec3; i: number; j: number; to: Vec3 }[] = [];
  for (let r = 0; r < 12 && out.length < want; r++) {
    for (let di = -r; di <= r && out.length < want; di++) {
      for (let dj = -r; dj <= r && out.length < want; dj++) {
        if (Math.max(Math.abs(di), Math.abs(dj)) !== r) continue;
        const i = si + di, j = sj + dj;
        if (i < 0 || j < 0 || i >= grid.n0 || j >= grid.n1) continue;
        for (const from of src.stands(i, j)) {
          for (const [ei, ej] of NAV_DIRECTIONS) {
            const ni = i + ei, nj = j + ej;
            if (ni < 0 || nj < 0 || ni >= grid.n0 || nj >= grid.n1) continue;
            const to = src.step(from, ni, nj);
            if (to !== null && out.length < want) out.push({ from, i: ni, j: nj, to });
          }
        }
      }
    }
  }
  return out;
}

/** Walks an entity of a real simulation from `from` toward the centre of (i, j): the position and frames at arrival. */
function simulateWalk(world: CollisionWorld, body: NavBody, src: WalkSource, from: Vec3, i: number, j: number): { pos: Vec3; frames: number } {
  const { grid } = src;
  const t0 = cellCentre(grid.origin0, grid.cell, i);
  const t1 = cellCentre(grid.origin1, grid.cell, j);
  let walker = 0;
  const steering = defineSystem({
    name: 'test-steer',
    priority: 45,
    create: (host) => (ctx) => {
      const { Position, Velocity } = ctx.ecs.components;
      const p = [Position.x, Position.y, Position.z];
      const v = [Velocity.x, Velocity.y, Velocity.z];
      v[grid.a0]![walker] = steer(t0 - p[grid.a0]![walker]!, body.speed);
      v[grid.a1]![walker] = steer(t1 - p[grid.a1]![walker]!, body.speed);
      void host;
    },
  });
  const scenario = defineScenario({
    name: 'nav-walk-check',
    version: '1',
    description: 'one walker steered to a cell centre',
    systems: [...DEFAULT_SYSTEMS, steering],
    place(sim) {
      const c = sim.ecs.components;
      walker = sim.ecs.spawn([c.Position, c.Velocity, c.BodySize, c.Motion]);
      c.Position.x[walker] = from[0];
      c.Position.y[walker] = from[1];
      c.Position.z[walker] = from[2];
      c.BodySize.radius[walker] = body.radius;
      c.BodySize.height[walker] = body.height;
      c.BodySize.step[walker] = body.step;
      c.Motion.contact[walker] = -1;
    },
  });
  const sim = simulationFromSettings(world, { ...defaultSettingsFor(world, { agents: 0 }), scenario: scenario.name }, scenario);
  const { Position } = sim.ecs.components;
  const fall = sim.ecs.components.byName.get('retrosim:fall')!.fields['speed'] as Float64Array;
  const budget = walkBudget(grid.cell * 2, body.speed);
  let frames = 0;
  const pos = (): Vec3 => [Position.x[walker]!, Position.y[walker]!, Position.z[walker]!];
  while (frames < budget) {
    const p = pos();
    if (p[grid.a0] === t0 && p[grid.a1] === t1 && fall[walker] === 0) break;
    sim.step(0);
    frames++;
  }
  return { pos: pos(), frames };
}

describe('the walkability source', () => {
  it('a cell size is a whole even number in integer worlds and a power of two in others', async () => {
    const rug = (await openBuiltinWorld('rugrats-hand')).world;
    const gta = (await openBuiltinWorld('gta-town')).world;
    expect(gridCell(rug, 255)).toBe(256);
    expect(gridCell(rug, 1)).toBe(2);
    expect(gridCell(gta, 0.7)).toBe(0.5);
    expect(gridCell(gta, 6)).toBe(4);
    expect(() => gridCell(gta, 0)).toThrow(/cell size 0/);
    expect(() => navGridOf(gta, 1e-4)).toThrow(/passes the limit/);
    expect(() => walkSourceOf(rug, { ...defaultNavBody(rug), speed: 2.5 })).toThrow(/speed 2.5 must be a whole number/);
    expect(() => walkSourceOf(gta, { ...defaultNavBody(gta), radius: NaN })).toThrow(/radius NaN/);
  });

  it('no standing place is on a death floor and no walk crosses one (the triggers system would respawn the body)', async () => {
    const { world } = await openBuiltinWorld('llama-demo');
    const body = defaultNavBody(world);
    const src = walkSourceOf(world, body);
    const { grid } = src;
    let stands = 0;
    for (let i = 0; i < grid.n0; i++) {
      for (let j = 0; j < grid.n1; j++) {
        for (const p of src.stands(i, j)) {
          stands++;
          const w = newWalker(world, body, p);
          walkFrame(w, p[grid.a0], p[grid.a1]);
          expect(w.out.contacts.map((c) => c.kind)).not.toContain('death');
          expect(world.ground([p[0], p[1] + 0.01, p[2]]).material).not.toBe(MATERIAL_DEATH);
        }
      }
    }
    expect(stands).toBeGreaterThan(grid.n0 * grid.n1 * 0.8);
  });

  for (const id of WORLDS) {
    it(`${id}: standing places stay put, and every walk it promises is the simulation's walk, to the bit`, async () => {
      const { world } = await openBuiltinWorld(id);
      const body = defaultNavBody(world);
      const src = walkSourceOf(world, body);
      const walks = walksNear(src, 6);
      expect(walks.length).toBe(6);
      for (const w of walks) {
        // A frame of standing still leaves a standing place where it is.
        const stay = newWalker(world, body, w.from);
        expect(walkFrame(stay, w.from[src.grid.a0], w.from[src.grid.a1])).toBe(true);
        expect(stay.pos).toEqual(w.from);
        expect(stay.fall).toBe(0);
        // The step arrives where the simulation's systems take the body.
        const sim = simulateWalk(world, body, src, w.from, w.i, w.j);
        expect(sim.pos).toEqual(w.to);
        expect(sim.frames).toBeGreaterThan(0);
        expect(src.step(w.from, w.i, w.j)).toEqual(w.to);
      }
    }, 60_000);
  }
});
