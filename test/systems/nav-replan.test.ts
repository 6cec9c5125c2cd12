/**
 * Re-planning from where an agent stands: on the COLBIN yard, whose slab (2.5 m up) is a floor above the
 * yard's, an agent walking across the slab toward a goal in the yard is shoved off the slab's side by a system
 * of the scenario (so the shove is part of the run, and of its replay). It falls to the yard, under the slab.
 * The node it was walking to is on the slab, where no step from the yard leads: the navigation system must
 * choose again on its first frame standing in the yard, from the yard's node there, and not walk on under the
 * slab toward a node it cannot reach. It still arrives, and the run's replay verifies on one thread and on two.
 */
import { describe, expect, it } from 'vitest';
import * as R from '../../src/core.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { SystemPool } from '../../src/node/system-pool.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { readReplay } from '../../src/replay/format.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { worldIdentity } from '../../src/replay/world-identity.js';
import { simulationFromSettings, defaultSettingsFor } from '../../src/scenarios/builtin.js';
import { Goal, GoalStatus } from '../../src/nav/navigator.js';
import { fallSpeeds } from '../../src/systems/gravity.js';
import type { CollisionWorld, Vec3 } from '../../src/worlds/world.js';

/** On the COLBIN yard (−y up): the slab's west node of its z = 352 row, a yard node far east, the frame of the shove. */
const START: Vec3 = [-480, -320, 352];
const GOAL: Vec3 = [480, 0, 352];
const SHOVE_FRAME = 20;
/** Where the shove puts the agent: beyond the slab's north edge (z = 512), at the slab's height, so it falls. */
const SHOVE_Z = 600;

function shoveScenario(): R.ScenarioDef {
  const send = R.defineSystem({
    name: 'send-and-shove',
    priority: 40,
    create(host) {
      const pos = host.ecs.components.Position;
      const goal = host.ecs.store(Goal);
      const q = host.ecs.defineQuery('shoved', [pos, goal]);
      return (ctx) => {
        for (const e of ctx.ecs.entities(q)) {
          if (ctx.frame === 1) ctx.nav.setGoal(e, GOAL);
          if (ctx.frame === SHOVE_FRAME) pos.z[e] = SHOVE_Z;
        }
      };
    },
  });
  return R.defineScenario({
    name: 'shove',
    version: '1',
    description: 'an agent shoved off the slab on its way',
    components: [Goal],
    systems: [...R.DEFAULT_SYSTEMS, R.navigationSystem, send],
    place(sim) {
      sim.spawnPlayer();
      const c = sim.ecs.components;
      const goal = sim.ecs.store(Goal);
      const e = sim.ecs.spawn([c.Position, c.Velocity, c.BodySize, c.Motion, c.Heading, goal]);
      [c.Position.x[e], c.Position.y[e], c.Position.z[e]] = START;
      const body = R.defaultNavBody(sim.world);
      c.BodySize.radius[e] = body.radius;
      c.BodySize.height[e] = body.height;
      c.BodySize.step[e] = body.step;
      c.Motion.contact[e] = -1;
      goal.target[e] = -1;
    },
  });
}

function makeSim(world: CollisionWorld, threads?: SystemPool) {
  const scenario = shoveScenario();
  const settings = { ...defaultSettingsFor(world, { agents: 0 }), scenario: scenario.name };
  return { sim: simulationFromSettings(world, settings, scenario, undefined, threads), scenario, settings };
}

describe('re-planning from where an agent stands', () => {
  it('an agent shoved off the slab chooses again on its first frame standing in the yard below, and arrives', async () => {
    const { world } = await openBuiltinWorld('colbin-demo');
    const g = R.navCacheFor(world).graph;
    const up = world.up.axis;
    const { sim } = makeSim(world);
    const goal = sim.ecs.store(Goal);
    const p = sim.ecs.components.Position;
    const fall = fallSpeeds(sim.ecs);
    const e = sim.ecs.maxId;
    expect(R.nearestNode(g, START, up)).toBeGreaterThanOrEqual(0);
    for (let f = 1; f < SHOVE_FRAME; f++) sim.step(0);
    // Walking along the slab, toward a node of the slab.
    expect(goal.status[e]).toBe(GoalStatus.going);
    expect(g.pos[3 * goal.target[e]! + up]).toBe(START[up]);
    sim.step(0);
    expect(p.z[e]).toBeGreaterThan(512); // off the slab's north edge
    // It falls, and lands on the yard.
    let frames = 0;
    while (!(fall[e] === 0 && p.y[e] === 0) && frames++ < 300) sim.step(0);
    expect(p.y[e]).toBe(0);
    const landed = R.nearestNode(g, [p.x[e]!, p.y[e]!, p.z[e]!], up);
    expect(g.pos[3 * landed + up]).toBe(0);
    sim.step(0);
    // Its first frame standing in the yard: it walks to a node of the yard, chosen from where it stands (here the
    // very frame of the shove already chose again: the body was put where no step leads to the slab's node).
    const t = goal.target[e]!;
    expect(t, 'a node to walk to').toBeGreaterThanOrEqual(0);
    expect(g.pos[3 * t + up], 'the node it walks to is on the yard, not on the slab above').toBe(0);
    expect(goal.replans[e]).toBeGreaterThan(0);
    const replans = goal.replans[e]!;
    frames = 0;
    while (goal.status[e] === GoalStatus.going && frames++ < 3000) sim.step(0);
    expect(goal.status[e]).toBe(GoalStatus.arrived);
    expect([p.x[e], p.y[e], p.z[e]]).toEqual(GOAL);
    // Once on its way again, every step arrived: no further re-plan.
    expect(goal.replans[e]).toBe(replans);
    expect(landed).toBeGreaterThanOrEqual(0);
  }, 120_000);

  it("the shoved agent's run records a replay that verifies to the bit on one thread and on two", async () => {
    const opened = await openBuiltinWorld('colbin-demo');
    const { sim, scenario, settings } = makeSim(opened.world);
    const goal = sim.ecs.store(Goal);
    const rec = new ReplayRecorder(sim, worldIdentity(opened.world, opened.bytes, 'builtin:colbin-demo'), 100);
    for (let f = 1; f <= 400; f++) rec.step(0);
    expect(goal.status[sim.ecs.maxId]).toBe(GoalStatus.arrived);
    expect(goal.replans[sim.ecs.maxId]).toBeGreaterThan(0);
    const finalHash = sim.hashHex();
    const rp = readReplay(rec.finish());
    const one = verifyReplay(rp, simulationFromSettings((await openBuiltinWorld('colbin-demo')).world, settings, scenario));
    expect(one.divergence).toBeUndefined();
    expect(one.ok).toBe(true);
    expect(one.finalHash).toBe(finalHash);
    const pool = await SystemPool.create(opened.source, 2, { minIdsPerThread: 1 });
    try {
      const two = verifyReplay(rp, makeSim((await openBuiltinWorld('colbin-demo')).world, pool).sim);
      expect(two.divergence).toBeUndefined();
      expect(two.ok).toBe(true);
      expect(two.finalHash).toBe(finalHash);
    } finally {
      await pool.close();
    }
  }, 300_000);
});
