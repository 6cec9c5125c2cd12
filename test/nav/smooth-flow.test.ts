/**
 * Smoothing and flow fields. A smoothed path keeps its first and last points, drops only points a straight
 * walk skips, and every one of its steps is walked by the movement rules to the bit (so the whole smoothed path
 * is walked); it is never longer than the path. A flow field's next steps lead every node to the goal at the
 * cost a cheapest findPath finds, and it leaves exactly the nodes findPath finds no path from.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import type { CollisionWorld, Vec3 } from '../../src/worlds/world.js';
import { buildNavGraph, edgeCost, nodePosition, type NavGraph } from '../../src/nav/graph.js';
import { findPath, PathSearch } from '../../src/nav/path.js';
import { smoothPath, walksStraight } from '../../src/nav/smooth.js';
import { flowField, reverseEdges } from '../../src/nav/flow-field.js';
import { defaultNavBody, newWalker, walkBudget, walkTo, type NavBody } from '../../src/nav/walk.js';
import { FlatWorld } from '../sim/flat-world.js';
import { boxesArb, generatedGraph } from './generated-worlds.js';

/** Octile length of a polyline on the grid's axes (what a body steered per axis walks). */
function walkedLength(g: NavGraph, pts: readonly Vec3[]): number {
  const { a0, a1 } = g.grid;
  let s = 0;
  for (let k = 1; k < pts.length; k++) {
    const d0 = Math.abs(pts[k]![a0] - pts[k - 1]![a0]);
    const d1 = Math.abs(pts[k]![a1] - pts[k - 1]![a1]);
    s += Math.max(d0, d1) + (Math.SQRT2 - 1) * Math.min(d0, d1);
  }
  return s;
}

function checkSmoothing(world: CollisionWorld, body: NavBody, g: NavGraph, points: readonly Vec3[]): Vec3[] {
  const sm = smoothPath(world, body, points);
  expect(sm[0]).toEqual(points[0]);
  expect(sm[sm.length - 1]).toEqual(points[points.length - 1]);
  // A subsequence of the path's points.
  let k = 0;
  for (const p of sm) {
    while (k < points.length && !(points[k]![0] === p[0] && points[k]![1] === p[1] && points[k]![2] === p[2])) k++;
    expect(k).toBeLessThan(points.length);
  }
  // Walked straight, step by step, by one walker carried along (as an agent walks it).
  const w = newWalker(world, body, sm[0]!);
  for (let i = 1; i < sm.length; i++) {
    const { a0, a1 } = g.grid;
    expect(walkTo(w, sm[i]![a0], sm[i]![a1], walkBudget(Math.max(Math.abs(sm[i]![a0] - sm[i - 1]![a0]), Math.abs(sm[i]![a1] - sm[i - 1]![a1])), body.speed))).toBe(true);
    expect(w.pos).toEqual(sm[i]);
    expect(walksStraight(newWalker(world, body, sm[i - 1]!), sm[i - 1]!, sm[i]!)).toBe(true);
  }
  expect(walkedLength(g, sm)).toBeLessThanOrEqual(walkedLength(g, points) + 1e-9);
  return sm;
}

function checkFlow(g: NavGraph, goal: number, search: PathSearch): { reached: number; unreachable: number } {
  const f = flowField(g, goal, reverseEdges(g));
  let reached = 0;
  let unreachable = 0;
  const to = nodePosition(g, goal);
  for (let a = 0; a < g.nodeCount; a += Math.max(1, Math.floor(g.nodeCount / 60))) {
    const p = findPath(g, nodePosition(g, a), to, search);
    // findPath starts from the node nearest the point: the node itself, unless another level of its cell is as near.
    if (p !== null && p.nodes[0] !== a) continue;
    if (f.cost[a] === Infinity) {
      expect(p).toBeNull();
      expect(f.next[a]).toBe(-1);
      unreachable++;
      continue;
    }
    expect(p).not.toBeNull();
    expect(f.cost[a]).toBe(p!.cost);
    let c = 0;
    let at = a;
    for (let steps = 0; at !== goal; steps++) {
      expect(steps).toBeLessThan(g.nodeCount);
      const b = f.next[at]!;
      c += edgeCost(g, g.cellOf[at]!, g.cellOf[b]!);
      at = b;
    }
    expect(c).toBe(f.cost[a]);
    reached++;
  }
  return { reached, unreachable };
}


describe('path smoothing', () => {
  it('in an open square, a path between corners becomes one straight walk', () => {
    const world = new FlatWorld({ size: 40, boxes: [], integer: true });
    const body: NavBody = { radius: 1, height: 2, step: 0, speed: 1 };
    const g = buildNavGraph(world, body, { cell: 4 });
    const p = findPath(g, [2, 0, 2], [38, 0, 22])!;
    expect(p.points.length).toBeGreaterThan(5);
    expect(checkSmoothing(world, body, g, p.points)).toEqual([p.points[0], p.points[p.points.length - 1]]);
  });

  it('on generated worlds: only corners the body walks are cut, and the result is walked to the bit', () => {
    let cut = 0;
    fc.assert(
      fc.property(boxesArb, fc.nat(), fc.nat(), fc.boolean(), (boxes, a, b, integer) => {
        const { world, body, g } = generatedGraph(boxes, integer);
        if (g.nodeCount === 0) return;
        const p = findPath(g, nodePosition(g, a % g.nodeCount), nodePosition(g, b % g.nodeCount));
        if (p === null) return;
        if (checkSmoothing(world, body, g, p.points).length < p.points.length) cut++;
      }),
      { numRuns: 120, seed: 1205 },
    );
    expect(cut).toBeGreaterThan(10);
  });

  for (const [id, cell] of [['rugrats-hand', undefined], ['llama-demo', undefined], ['colbin-demo', undefined], ['gta-town', 8], ['piney-default', 4096]] as const) {
    it(`${id}: smoothed paths across the world are walked to the bit`, async () => {
      const { world } = await openBuiltinWorld(id);
      const body = defaultNavBody(world);
      const g = buildNavGraph(world, body, cell === undefined ? {} : { cell });
      const search = new PathSearch(g);
      let cut = 0;
      for (let k = 0; k < 6; k++) {
        const p = findPath(g, nodePosition(g, Math.floor((k * g.nodeCount) / 6)), nodePosition(g, g.nodeCount - 1 - k * 7), search);
        if (p === null) continue;
        if (checkSmoothing(world, body, g, p.points).length < p.points.length) cut++;
      }
      expect(cut).toBeGreaterThan(0);
    }, 120_000);
  }
});

describe('flow fields', () => {
  it('on generated worlds: every node follows its next steps to the goal at findPath cost; the rest have no path', () => {
    let none = 0;
    fc.assert(
      fc.property(boxesArb, fc.nat(), (boxes, goal) => {
        const world = new FlatWorld({ size: 40, boxes, integer: true });
        const g = buildNavGraph(world, { radius: 1, height: 2, step: 0, speed: 1 }, { cell: 4 });
        if (g.nodeCount === 0) return;
        none += checkFlow(g, goal % g.nodeCount, new PathSearch(g, { cheapest: true })).unreachable;
      }),
      { numRuns: 60, seed: 99 },
    );
    expect(none).toBeGreaterThan(0);
  });

  for (const id of ['rugrats-demo', 'llama-demo', 'colbin-demo']) {
    it(`${id}: the same toward goals across the world`, async () => {
      const { world } = await openBuiltinWorld(id);
      const g = buildNavGraph(world, defaultNavBody(world));
      const search = new PathSearch(g, { cheapest: true });
      let reached = 0;
      for (const goal of [0, Math.floor(g.nodeCount / 2), g.nodeCount - 1]) reached += checkFlow(g, goal, search).reached;
      expect(reached).toBeGreaterThan(20);
    }, 120_000);
  }

  it('refuses a goal that is not a node', () => {
    const g = buildNavGraph(new FlatWorld({ size: 20, boxes: [] }), { radius: 1, height: 2, step: 0, speed: 1 }, { cell: 4 });
    expect(() => flowField(g, g.nodeCount)).toThrow(/flow field goal \d+ is not a node/);
    expect(() => flowField(g, -1)).toThrow(RangeError);
  });
});
