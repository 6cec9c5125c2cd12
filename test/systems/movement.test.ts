import { describe, expect, it } from 'vitest';
import { horizontalAxes, movementSystem, walkSpeed, WALK_METRES_PER_FRAME } from '../../src/systems/movement.js';
import { Simulation } from '../../src/sim/simulation.js';
import type { CollisionWorld, MoveResult } from '../../src/worlds/world.js';
import { FlatWorld } from '../sim/flat-world.js';
import { testSettings } from '../sim/helpers.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';

function movementOnly(world: CollisionWorld, agents = 0) {
  return simulationFromSettings(world, testSettings({ agents }), { name: 'movement-only', version: '1', description: '', systems: [movementSystem] });
}

describe('movement system', () => {
  it('moves a body by its velocity through world.move', () => {
    const world = new FlatWorld({ boxes: [] });
    const sim = movementOnly(world);
    const { Position, Velocity, Motion } = sim.ecs.components;
    const p = sim.player;
    Velocity.x[p] = 1.5;
    Velocity.z[p] = -0.5;
    const [x, z] = [Position.x[p]!, Position.z[p]!];
    sim.step(0);
    expect(Position.x[p]).toBe(x + 1.5);
    expect(Position.z[p]).toBe(z - 0.5);
    expect(Motion.grounded[p]).toBe(1);
    expect(Motion.hitWall[p]).toBe(0);
    expect(world.moves).toBe(1);
  });

  it('records wall contacts: the flag, the wall id and a count of blocked moves', () => {
    const sim = movementOnly(new FlatWorld({ boxes: [{ minX: 8, minZ: 0, maxX: 9, maxZ: 100 }] }));
    const { Position, Velocity, Motion } = sim.ecs.components;
    const p = sim.player;
    Velocity.x[p] = 1;
    for (let i = 0; i < 5; i++) sim.step(0);
    expect(Position.x[p]! + sim.ecs.components.BodySize.radius[p]!).toBeLessThanOrEqual(8);
    expect(Motion.hitWall[p]).toBe(1);
    expect(Motion.contact[p]).toBe(1);
    expect(Motion.blocked[p]).toBeGreaterThan(0);
    Velocity.x[p] = -1;
    sim.step(0);
    expect(Motion.hitWall[p]).toBe(0);
  });

  it('leaves a body in place when the world answers with a non-finite position', () => {
    const flat = new FlatWorld({ boxes: [] });
    const broken = Object.create(flat) as CollisionWorld;
    broken.move = (_b, _f, _d, out?: MoveResult) => {
      const r = out ?? { position: [0, 0, 0], grounded: false, contacts: [] };
      r.position[0] = NaN;
      r.position[1] = Infinity;
      r.position[2] = 0;
      r.grounded = false;
      return r;
    };
    const sim = movementOnly(broken);
    const { Position, Velocity } = sim.ecs.components;
    const p = sim.player;
    const before = [Position.x[p], Position.y[p], Position.z[p]];
    Velocity.x[p] = 1;
    sim.step(0);
    expect([Position.x[p], Position.y[p], Position.z[p]]).toEqual(before);
    expect(sim.ecs.components.Motion.grounded[p]).toBe(0);
  });

  it('picks the ground plane from the up axis and speeds from the world scale', () => {
    const w = (axis: 0 | 1 | 2, scale: number, integer: boolean) => ({ up: { axis, sign: 1 }, scale, integer }) as unknown as CollisionWorld;
    expect(horizontalAxes(w(0, 1, false))).toEqual([1, 2]);
    expect(horizontalAxes(w(1, 1, false))).toEqual([0, 2]);
    expect(horizontalAxes(w(2, 1, false))).toEqual([0, 1]);
    expect(walkSpeed(w(1, 100, false))).toBe(100 * WALK_METRES_PER_FRAME);
    expect(walkSpeed(w(1, 4096, true))).toBe(Math.round(4096 * WALK_METRES_PER_FRAME));
    expect(walkSpeed(w(1, 1, true))).toBe(1);
    expect(walkSpeed(w(1, NaN, false))).toBe(WALK_METRES_PER_FRAME);
  });
});

describe('movement events', () => {
  it('leaves exit and death contacts to the triggers system: no events of its own, and listeners change nothing', () => {
    const flat = new FlatWorld({ boxes: [] });
    const exiting = Object.create(flat) as FlatWorld;
    exiting.move = (b, f, d, out) => {
      const r = flat.move(b, f, d, out);
      if (f[0] + d[0] > 20) r.contacts.push({ kind: 'exit', normal: [0, 0, 0], id: 7, material: 0 });
      if (f[0] + d[0] > 30) r.contacts.push({ kind: 'death', normal: [0, 0, 0], id: 8, material: 0 });
      return r;
    };
    const sim = movementOnly(exiting);
    const quiet = movementOnly(exiting);
    const seen: string[] = [];
    sim.events.on('exit', (e) => seen.push(`exit ${e.entity} ${e.id} @${e.frame}`));
    sim.events.on('death', (e) => seen.push(`death ${e.entity} @${e.frame}`));
    for (const s of [sim, quiet]) s.ecs.components.Velocity.x[s.player] = 10;
    for (let f = 1; f <= 3; f++) {
      sim.step(0);
      quiet.step(0);
    }
    // The contacts were there (the body crossed x = 30), but raising them once per visit is triggers.ts's job.
    expect(sim.ecs.components.Position.x[sim.player]).toBeGreaterThan(30);
    expect(seen).toEqual([]);
    expect(sim.hashHex()).toBe(quiet.hashHex());
  });
});
