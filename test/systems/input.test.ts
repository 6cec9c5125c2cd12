import { describe, expect, it } from 'vitest';
import { cosAngle, sinAngle } from '../../src/ecs/angle.js';
import { Buttons, inputSystem, PLAYER_SPEED_FACTOR, PLAYER_TURN_PER_FRAME } from '../../src/systems/input.js';
import { walkSpeed } from '../../src/systems/movement.js';
import { Simulation } from '../../src/sim/simulation.js';
import { FlatWorld } from '../sim/flat-world.js';
import { testSettings } from '../sim/helpers.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';

function inputOnly(world = new FlatWorld()) {
  return simulationFromSettings(world, testSettings({ agents: 0 }), { name: 'input-only', version: '1', description: '', systems: [inputSystem] });
}

describe('input system', () => {
  it('copies the buttons into the player controller, keeping last frame\'s', () => {
    const sim = inputOnly();
    const { Controller } = sim.ecs.components;
    sim.step(Buttons.Up);
    sim.step(Buttons.Left | Buttons.Action);
    expect(Controller.buttons[sim.player]).toBe(Buttons.Left | Buttons.Action);
    expect(Controller.previous[sim.player]).toBe(Buttons.Up);
  });

  it('masks undefined bits', () => {
    const sim = inputOnly();
    sim.step(0xffffff00 | Buttons.Down);
    expect(sim.ecs.components.Controller.buttons[sim.player]).toBe(Buttons.Down);
  });

  it('turns left and right by a fixed step, wrapping the angle', () => {
    const sim = inputOnly();
    const { Heading } = sim.ecs.components;
    sim.step(Buttons.Right);
    expect(Heading.angle[sim.player]).toBe(65536 - PLAYER_TURN_PER_FRAME);
    sim.step(Buttons.Left);
    sim.step(Buttons.Left);
    expect(Heading.angle[sim.player]).toBe(PLAYER_TURN_PER_FRAME);
    sim.step(Buttons.Left | Buttons.Right);
    expect(Heading.angle[sim.player]).toBe(PLAYER_TURN_PER_FRAME);
  });

  it('walks forward and back along the heading across the ground plane, and stops with no button', () => {
    const world = new FlatWorld();
    const sim = inputOnly(world);
    const { Velocity, Heading } = sim.ecs.components;
    const p = sim.player;
    sim.step(Buttons.Left);
    const a = Heading.angle[p]!;
    sim.step(Buttons.Up);
    const speed = walkSpeed(world) * PLAYER_SPEED_FACTOR;
    expect(Velocity.x[p]).toBe(speed * cosAngle(a));
    expect(Velocity.z[p]).toBe(speed * sinAngle(a));
    expect(Velocity.y[p]).toBe(0); // y is up in this world
    sim.step(Buttons.Down);
    expect(Velocity.x[p]).toBe(-speed * cosAngle(a));
    sim.step(0);
    expect([Velocity.x[p], Velocity.y[p], Velocity.z[p]]).toEqual([0, 0, 0]);
    expect(Object.is(Velocity.x[p], -0)).toBe(false);
  });

  it('gives whole-unit velocities in integer worlds', () => {
    const sim = inputOnly(new FlatWorld({ integer: true, scale: 1000, size: 100000, boxes: [] }));
    const { Velocity } = sim.ecs.components;
    for (let i = 0; i < 20; i++) {
      sim.step(Buttons.Up | Buttons.Left);
      expect(Number.isInteger(Velocity.x[sim.player])).toBe(true);
      expect(Number.isInteger(Velocity.z[sim.player])).toBe(true);
    }
  });
});
