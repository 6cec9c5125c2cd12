import { describe, expect, it } from 'vitest';
import { RandomStreams } from '../../src/rng/streams.js';
import { WANDER_MIN_FRAMES, WANDER_SPAN_FRAMES, WANDER_STREAM, wanderSystem } from '../../src/systems/wander.js';
import { Simulation } from '../../src/sim/simulation.js';
import { FlatWorld } from '../sim/flat-world.js';
import { testSettings } from '../sim/helpers.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';

function wanderOnly(agents: number) {
  return simulationFromSettings(new FlatWorld({ boxes: [] }), testSettings({ agents, streamSeed: 'w' }), { name: 'wander-only', version: '1', description: '', systems: [wanderSystem] });
}

function agentIds(sim: Simulation): number[] {
  const ids: number[] = [];
  for (let e = 1; e <= sim.ecs.maxId; e++) if (sim.ecs.has(e, sim.ecs.components.Agent)) ids.push(e);
  return ids;
}

describe('wander system', () => {
  it('agents draw heading then timer from the wander stream in ascending id order, whatever the query order', () => {
    const sim = wanderOnly(12);
    const c = sim.ecs.components;
    // Scramble the query's order: remove two agents, let a frame commit it, and bring two back on recycled ids.
    sim.ecs.despawn(4);
    sim.ecs.despawn(9);
    sim.step(0);
    const used = sim.rng.streams.get(WANDER_STREAM).draws;
    for (let k = 0; k < 2; k++) {
      const e = sim.ecs.spawn([c.Position, c.Velocity, c.Heading, c.BodySize, c.Agent, c.Motion]);
      c.Agent.speed[e] = 1;
    }
    for (const e of agentIds(sim)) c.Agent.timer[e] = 1; // everyone picks anew on the next frame
    sim.step(0);
    // An independent copy of the stream, advanced past the draws already made.
    const ref = new RandomStreams('w').get(WANDER_STREAM);
    for (let i = 0; i < used; i++) ref.next();
    for (const e of agentIds(sim)) {
      expect(c.Heading.angle[e], `agent ${e}`).toBe(ref.int(65536));
      expect(c.Agent.timer[e]).toBe(WANDER_MIN_FRAMES + ref.int(WANDER_SPAN_FRAMES));
    }
  });

  it('keeps walking until the timer runs out, then picks again', () => {
    const sim = wanderOnly(3);
    const c = sim.ecs.components;
    sim.step(0);
    const [a] = agentIds(sim);
    const t = c.Agent.timer[a!]!;
    expect(t).toBeGreaterThanOrEqual(WANDER_MIN_FRAMES);
    expect(t).toBeLessThan(WANDER_MIN_FRAMES + WANDER_SPAN_FRAMES);
    const draws = sim.rng.streams.get(WANDER_STREAM).draws;
    for (let i = 0; i < t - 1; i++) sim.step(0);
    expect(c.Agent.timer[a!]).toBe(1);
    const heading = c.Heading.angle[a!];
    expect(sim.rng.streams.get(WANDER_STREAM).draws).toBeGreaterThanOrEqual(draws);
    sim.step(0);
    expect(c.Agent.timer[a!]).toBeGreaterThanOrEqual(WANDER_MIN_FRAMES);
    expect(c.Heading.angle[a!] === heading && c.Agent.timer[a!] === t).toBe(false);
  });

  it('an agent that hit a wall picks a new heading at once', () => {
    const sim = wanderOnly(2);
    const c = sim.ecs.components;
    sim.step(0);
    const [a, b] = agentIds(sim);
    c.Motion.hitWall[a!] = 1;
    const before = sim.rng.streams.get(WANDER_STREAM).draws;
    sim.step(0);
    expect(sim.rng.streams.get(WANDER_STREAM).draws).toBe(before + 2);
    expect(c.Agent.timer[b!]).toBeGreaterThan(0);
  });

  it('sets the velocity from heading and speed, across the ground plane only', () => {
    const sim = wanderOnly(5);
    const c = sim.ecs.components;
    sim.step(0);
    for (const e of agentIds(sim)) {
      const vx = c.Velocity.x[e]!;
      const vz = c.Velocity.z[e]!;
      expect(c.Velocity.y[e]).toBe(0);
      expect(Math.abs(vx * vx + vz * vz - c.Agent.speed[e]! ** 2)).toBeLessThan(1e-12);
    }
  });
});
