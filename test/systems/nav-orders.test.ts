/**
 * Navigation orders in the input word: the two words of an order carry the entity and the node exactly, leave
 * the buttons free, and are the only words beyond the buttons an input may hold; the order system sends the
 * agent named and ignores an order that names no agent, a node off the graph, or a second half without a first.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { createSimulation } from '../../src/scenarios/builtin.js';
import { Goal, GoalStatus, navCacheFor } from '../../src/nav/navigator.js';
import { nodePosition } from '../../src/nav/graph.js';
import { BUTTON_MASK } from '../../src/systems/input.js';
import { ControllerState } from '../../src/ecs/components.js';
import { Behaviour } from '../../src/systems/controller.js';
import { findPath } from '../../src/nav/path.js';
import { isInputWord, NAV_ORDER_MAX, navOrderPart, navOrderWords, recordedInputWord } from '../../src/systems/nav-orders.js';

describe('navigation order words', () => {
  it('carry the entity and the node exactly, with any buttons beside them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: NAV_ORDER_MAX }), fc.integer({ min: 0, max: NAV_ORDER_MAX }), fc.integer({ min: 0, max: BUTTON_MASK }), (e, n, b) => {
        const [w1, w2] = navOrderWords(e, n);
        const a = navOrderPart((w1 | b) >>> 0)!;
        const c = navOrderPart((w2 | b) >>> 0)!;
        expect(a).toEqual({ second: false, value: e });
        expect(c).toEqual({ second: true, value: n });
        expect(((w1 | b) >>> 0) & BUTTON_MASK).toBe(b);
        for (const w of [w1, w2, (w1 | b) >>> 0, (w2 | b) >>> 0]) {
          expect(isInputWord(w)).toBe(true);
          expect(recordedInputWord(w)).toBe(w);
        }
      }),
    );
  });

  it('a word with bits beyond the buttons and no order flag is no input word, and a record keeps only its buttons', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0x40, max: 0x7fffffff }), (w) => {
        expect(isInputWord(w)).toBe(false);
        expect(navOrderPart(w)).toBeNull();
        expect(recordedInputWord(w)).toBe(w & BUTTON_MASK);
      }),
    );
    for (const w of [-1, 0x100000000, 1.5, NaN]) expect(isInputWord(w)).toBe(false);
    expect(() => navOrderWords(NAV_ORDER_MAX + 1, 0)).toThrow(/entity 16777216 is not a whole number in 0\.\.16777215/);
    expect(() => navOrderWords(0, Number.NaN)).toThrow(/node NaN is not a whole number/);
  });
});

describe('the navigation order system', () => {
  it('sends the agent named; an order naming no agent, a node off the graph, or a lone second half does nothing', async () => {
    const { world } = await openBuiltinWorld('colbin-demo');
    const sim = createSimulation(world, { scenario: 'navigate', agents: 3 });
    const goal = sim.ecs.store(Goal);
    const g = navCacheFor(world).graph;
    const agent = 1 + sim.players.length;
    // the player is no agent: nothing happens to anyone
    for (const w of navOrderWords(sim.player, 0)) sim.step(w);
    for (let e = 1; e <= sim.ecs.maxId; e++) expect(goal.status[e]).toBe(GoalStatus.idle);
    // a node off the graph, an id past every entity
    for (const w of navOrderWords(agent, g.nodeCount)) sim.step(w);
    for (const w of navOrderWords(NAV_ORDER_MAX, 0)) sim.step(w);
    // a second half alone
    sim.step(navOrderWords(agent, 0)[1]);
    expect(goal.status[agent]).toBe(GoalStatus.idle);
    // a first half, buttons, then the second: the agent is sent to the node's position
    const node = Math.floor(g.nodeCount / 3);
    const [w1, w2] = navOrderWords(agent, node);
    sim.step(w1);
    expect(goal.status[agent]).toBe(GoalStatus.idle);
    sim.step(w2);
    expect(goal.status[agent]).toBe(GoalStatus.going);
    expect([goal.x[agent], goal.y[agent], goal.z[agent]]).toEqual(nodePosition(g, node));
  });

  it('every agent sent arrives where a path leads, whatever its behaviour (a patrol or a chase no longer steers it away)', async () => {
    const { world } = await openBuiltinWorld('colbin-demo');
    const sim = createSimulation(world, { scenario: 'navigate', agents: 16 });
    for (let f = 0; f < 3; f++) sim.step(0);
    const goal = sim.ecs.store(Goal);
    const behaviour = sim.ecs.store(ControllerState).behaviour;
    const c = sim.ecs.components;
    const g = navCacheFor(world).graph;
    // each to a node of its own, spread over the graph (one node for all would crowd them, and bodies push)
    const sent: number[] = [];
    for (let e = 1; e <= sim.ecs.maxId; e++) {
      if (sim.ecs.alive[e] !== 1 || !sim.ecs.has(e, goal)) continue;
      const node = Math.floor((g.nodeCount * (e + 1)) / (sim.ecs.maxId + 3));
      const from = [c.Position.x[e]!, c.Position.y[e]!, c.Position.z[e]!] as [number, number, number];
      if (findPath(g, from, nodePosition(g, node)) === null) continue;
      for (const w of navOrderWords(e, node)) sim.step(w);
      sent.push(e);
    }
    const kinds = new Set(sent.map((e) => behaviour[e]));
    expect(kinds.has(Behaviour.Patrol) || kinds.has(Behaviour.Chase), 'a patrolling or chasing agent among those sent').toBe(true);
    expect(sent.length).toBeGreaterThanOrEqual(8);
    for (let f = 0; f < 1500 && sent.some((e) => goal.status[e] !== GoalStatus.arrived); f++) sim.step(0);
    expect(sent.filter((e) => goal.status[e] !== GoalStatus.arrived).map((e) => `agent ${e} (behaviour ${behaviour[e]}, status ${goal.status[e]})`)).toEqual([]);
  }, 120_000);

  it('a scenario without the order system runs an order word as its buttons alone', async () => {
    const { world } = await openBuiltinWorld('colbin-demo');
    const a = createSimulation(world, { agents: 3 });
    const b = createSimulation(world, { agents: 3 });
    const [w1, w2] = navOrderWords(2, 5);
    a.step((w1 | 1) >>> 0);
    a.step((w2 | 1) >>> 0);
    b.step(1);
    b.step(1);
    expect(a.hashHex()).toBe(b.hashHex());
  });
});
