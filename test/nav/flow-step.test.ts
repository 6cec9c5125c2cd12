/**
 * One flow-field step without the field (flow-step.ts, and `flowStep` of the navigator, which answers from a
 * kept field or from the search): for every node of the graph and goals drawn across it, the same next node as
 * `flowField(g, goal).next`, on generated worlds (a floor with boxes, whose graphs have nodes that cannot
 * reach the goal) and on every shipped world kind; the search state is reused from one question to the next.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { buildNavGraph, type NavGraph } from '../../src/nav/graph.js';
import { flowField, reverseEdges } from '../../src/nav/flow-field.js';
import { FlowStepSearch } from '../../src/nav/flow-step.js';
import { flowStep, navCacheFor, SEARCHES_BEFORE_FIELD } from '../../src/nav/navigator.js';
import { defaultNavBody } from '../../src/nav/walk.js';
import { boxesArb, generatedGraph } from './generated-worlds.js';

/** Checks every node's step toward `goal` (and the whole way from every `wayEvery`-th node); returns how many nodes had a step and how many had none. */
function checkGoal(g: NavGraph, search: FlowStepSearch, goal: number, wayEvery = 1): [number, number] {
  const field = flowField(g, goal);
  let steps = 0;
  let none = 0;
  for (let n = 0; n < g.nodeCount; n++) {
    const s = search.next(goal, n);
    expect(s, `node ${n} toward ${goal}`).toBe(field.next[n]);
    if (s >= 0) steps++;
    else none++;
    // The whole way from n: each step the field's, ending at the goal (or one −1 where there is none).
    if (n % wayEvery !== 0) continue;
    let last = n;
    let length = 0;
    search.way(goal, n, (c, b) => {
      expect(c).toBe(last);
      expect(b).toBe(field.next[c]);
      last = b;
      length++;
    });
    if (n === goal) expect(length).toBe(0);
    else if (s < 0) expect([last, length]).toEqual([-1, 1]);
    else expect(last).toBe(goal);
  }
  return [steps, none];
}


describe('a flow-field step without the field', () => {
  it('on generated worlds: the field’s next node from every node', () => {
    let steps = 0;
    let none = 0;
    fc.assert(
      fc.property(boxesArb, fc.nat(), fc.nat(), fc.boolean(), (boxes, a, b, integer) => {
        const { g } = generatedGraph(boxes, integer);
        if (g.nodeCount === 0) return;
        const search = new FlowStepSearch(g, reverseEdges(g));
        for (const goal of [a % g.nodeCount, b % g.nodeCount]) {
          const [s, n] = checkGoal(g, search, goal);
          steps += s;
          none += n;
        }
      }),
      { numRuns: 60, seed: 20261205 },
    );
    // Both answers were seen: steps, and nodes with none (the goal itself, and nodes cut off from it).
    expect(steps).toBeGreaterThan(1000);
    expect(none).toBeGreaterThan(200);
  });

  // Every world kind; the GTA town on coarser cells (its full graph has 103,618 nodes).
  const SHIPPED: [string, number | undefined][] = [['rugrats-hand', undefined], ['llama-demo', undefined], ['colbin-demo', undefined], ['gta-town', 8], ['piney-default', undefined]];
  for (const [id, cell] of SHIPPED) {
    it(`${id}: the field’s next node from every node, toward goals drawn across the world`, async () => {
      const { world } = await openBuiltinWorld(id);
      const g = buildNavGraph(world, defaultNavBody(world), cell === undefined ? {} : { cell });
      expect(g.nodeCount).toBeGreaterThan(10);
      const search = new FlowStepSearch(g, reverseEdges(g));
      let seed = 7;
      const draw = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed % g.nodeCount);
      let steps = 0;
      for (let k = 0; k < (id === 'piney-default' ? 2 : 4); k++) steps += checkGoal(g, search, draw(), id === 'piney-default' ? 64 : 16)[0];
      expect(steps).toBeGreaterThan(0);
    });
  }

  it('the navigator’s flowStep answers as the field, from its kept steps, its searches and the fields it keeps', async () => {
    const { world } = await openBuiltinWorld('colbin-demo');
    const cache = navCacheFor(world);
    const g = cache.graph;
    expect(cache.fields.size).toBe(0);
    for (let k = 0; k < 12; k++) {
      const goal = (k * 37) % g.nodeCount;
      const field = flowField(g, goal);
      // Far nodes first and near ones after (answered from kept steps), then all of them again.
      for (let n = g.nodeCount - 1; n >= 0; n--) expect(flowStep(cache, goal, n)).toBe(field.next[n]);
      for (let n = 0; n < g.nodeCount; n++) expect(flowStep(cache, goal, n)).toBe(field.next[n]);
    }
    // Goals searched for more than SEARCHES_BEFORE_FIELD times had their fields kept (and answered the same).
    expect(g.nodeCount).toBeGreaterThan(SEARCHES_BEFORE_FIELD);
    expect(cache.fields.size).toBeGreaterThan(0);
  });

  it('refuses a goal or node that is not a node', async () => {
    const { world } = await openBuiltinWorld('llama-demo');
    const g = buildNavGraph(world, defaultNavBody(world));
    const search = new FlowStepSearch(g, reverseEdges(g));
    expect(() => search.next(g.nodeCount, 0)).toThrow(/flow step goal .* is not a node/);
    expect(() => search.next(0, -1)).toThrow(/flow step node -1 is not a node/);
  });
});
