/**
 * The navigation system: agents with a Goal walk the graph to it in a real simulation (gravity, movement,
 * ground contact, triggers), every step arriving as the graph promised (no re-plans), and they arrive; the
 * run's replay verifies on one thread and on two (system threads); a re-plan happens when an agent is pushed
 * off its way; ctx.nav refuses a goal that is not a position; and the built-in systems are what they were.
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
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { Goal, GoalStatus } from '../../src/nav/navigator.js';
// @ts-expect-error: a plain JavaScript module shared with the Bun run
import { navScenario, runNav } from '../engines/nav-scenario.mjs';

const FRAMES = 900;

describe('the navigation system', () => {
  it('is not one of the built-in systems (every earlier scenario runs as it did)', () => {
    expect(DEFAULT_SYSTEMS.map((s) => s.name)).not.toContain('navigation');
    expect(R.navigationSystem.priority).toBeLessThan(49);
  });

  for (const id of ['colbin-demo', 'rugrats-demo', 'llama-demo']) {
    it(`${id}: agents walk to their goals, every step arriving as the graph promised`, async () => {
      const { world } = await openBuiltinWorld(id);
      const run = runNav(R, world, FRAMES) as { hashes: string[]; counts: { going: number; arrived: number; unreachable: number; replans: number } };
      expect(run.counts.arrived).toBeGreaterThanOrEqual(3);
      expect(run.counts.replans).toBe(0);
      // The agents moved: the state changed frame after frame.
      expect(new Set(run.hashes.slice(0, 100)).size).toBeGreaterThan(90);
    }, 120_000);
  }

  it("the run's replay verifies on one thread and on two, with the same hash every frame", async () => {
    const opened = await openBuiltinWorld('colbin-demo');
    const scenario = navScenario(R) as R.ScenarioDef;
    const settings = { ...defaultSettingsFor(opened.world, { agents: 0 }), scenario: scenario.name };
    const sim = simulationFromSettings(opened.world, settings, scenario);
    const rec = new ReplayRecorder(sim, worldIdentity(opened.world, opened.bytes, 'builtin:colbin-demo'), 120);
    const hashes = [sim.hashHex()];
    for (let f = 1; f <= 600; f++) {
      rec.step(0);
      hashes.push(sim.hashHex());
    }
    const rp = readReplay(rec.finish());
    const goal = sim.ecs.store(Goal);
    let arrived = 0;
    for (let e = 1; e <= sim.ecs.maxId; e++) if (goal.status[e] === GoalStatus.arrived) arrived++;
    expect(arrived).toBeGreaterThan(0);

    const one = verifyReplay(rp, simulationFromSettings((await openBuiltinWorld('colbin-demo')).world, settings, scenario));
    expect(one.divergence).toBeUndefined();
    expect(one.ok).toBe(true);
    expect(one.finalHash).toBe(hashes[600]);

    const pool = await SystemPool.create(opened.source, 2, { minIdsPerThread: 1 });
    try {
      const w2 = (await openBuiltinWorld('colbin-demo')).world;
      const two = verifyReplay(rp, simulationFromSettings(w2, settings, scenario, undefined, pool));
      expect(two.divergence).toBeUndefined();
      expect(two.ok).toBe(true);
      expect(two.finalHash).toBe(hashes[600]);
    } finally {
      await pool.close();
    }
  }, 300_000);

  it('an agent pushed off its way chooses again (a re-plan) and still arrives', async () => {
    const { world } = await openBuiltinWorld('colbin-demo');
    const scenario = navScenario(R, 1) as R.ScenarioDef;
    const sim = simulationFromSettings(world, { ...defaultSettingsFor(world, { agents: 0 }), scenario: scenario.name }, scenario);
    const goal = sim.ecs.store(Goal);
    const e = [...Array(sim.ecs.maxId + 1).keys()].find((k) => k > 0 && sim.ecs.has(k, goal))!;
    const g = R.navCacheFor(world).graph;
    sim.step(0);
    expect(goal.active[e]).toBe(1);
    // Carried ten cells away mid-step (steering corrects a small push by itself): the step cannot arrive in its frames.
    for (let f = 0; f < 5; f++) sim.step(0);
    const p = sim.ecs.components.Position;
    const far = R.nodePosition(g, (goal.target[e]! + 10 * g.grid.n0) % g.nodeCount);
    p.x[e] = far[0] + g.grid.cell / 4;
    p.y[e] = far[1];
    p.z[e] = far[2];
    let frames = 0;
    while (goal.active[e] === 1 && frames++ < 20_000) sim.step(0);
    expect(goal.replans[e]).toBeGreaterThan(0);
    expect([GoalStatus.arrived, GoalStatus.unreachable]).toContain(goal.status[e]);
    expect(g.nodeCount).toBeGreaterThan(0);
  }, 120_000);

  it('ctx.nav refuses a goal that is not a position of three finite numbers', async () => {
    const { world } = await openBuiltinWorld('rugrats-hand');
    const scenario = navScenario(R, 1) as R.ScenarioDef;
    const sim = simulationFromSettings(world, { ...defaultSettingsFor(world, { agents: 0 }), scenario: scenario.name }, scenario);
    const nav = R.navCacheFor(world);
    expect(nav.graph.nodeCount).toBeGreaterThan(0);
    const ctxNav = (sim as unknown as { ctx: R.SystemContext }).ctx.nav;
    expect(() => ctxNav.setGoal(1, [NaN, 0, 0])).toThrow(/not a position of three finite numbers/);
    expect(ctxNav.findPath(R.nodePosition(nav.graph, 0), R.nodePosition(nav.graph, 0))?.cost).toBe(0);
  });

  it('ctx.nav.findPath goes by the coarse layer between far places, and finds the cheapest path when asked', async () => {
    const { world } = await openBuiltinWorld('rugrats-demo');
    const scenario = navScenario(R, 1) as R.ScenarioDef;
    const sim = simulationFromSettings(world, { ...defaultSettingsFor(world, { agents: 0 }), scenario: scenario.name }, scenario);
    const ctxNav = (sim as unknown as { ctx: R.SystemContext }).ctx.nav;
    const g = ctxNav.graph();
    const fast = new R.PathSearch(g);
    const cheapest = new R.PathSearch(g, { cheapest: true });
    // The first of a fixed run of pairs whose default path costs more than the cheapest.
    let seen = 0;
    for (let k = 1; k < 400 && seen === 0; k++) {
      const a = R.nodePosition(g, (k * 7919) % g.nodeCount);
      const b = R.nodePosition(g, (k * 104729) % g.nodeCount);
      const p = R.findPath(g, a, b, fast);
      const q = R.findPath(g, a, b, cheapest);
      if (!p || !q || p.cost === q.cost) continue;
      seen++;
      expect(ctxNav.findPath(a, b)?.nodes).toEqual(p.nodes);
      expect(ctxNav.findPath(a, b, { cheapest: true })?.nodes).toEqual(q.nodes);
      expect(ctxNav.findPath(a, b, { cheapest: true })!.cost).toBeLessThan(p.cost);
    }
    expect(seen).toBe(1);
  });
});
