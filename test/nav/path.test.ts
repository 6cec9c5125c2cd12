/**
 * findPath: every path it returns is walked by the movement system's rules step by step, arriving at each of
 * its points to the bit; it returns a path exactly when a brute-force search of the walk relation (no graph,
 * no heuristic: a breadth-first search asking the walkability source itself) reaches the goal; its cost is the
 * sum of its edges, and the cheapest (Dijkstra over the graph) when asked for; and it is the same path after
 * the graph is written and read back.
 * Property tests on small generated worlds (a floor with boxes), and on the small shipped worlds.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import type { CollisionWorld, Vec3 } from '../../src/worlds/world.js';
import { buildNavGraph, edgeCost, NAV_DIRECTIONS, nodePosition, type NavGraph } from '../../src/nav/graph.js';
import { parseNavGraph, writeNavGraph } from '../../src/nav/graph-file.js';
import { findPath, octile, PathSearch, pathCost } from '../../src/nav/path.js';
import { walkSourceOf, type WalkSource } from '../../src/nav/walk-source.js';
import { defaultNavBody, newWalker, walkBudget, walkTo, type NavBody } from '../../src/nav/walk.js';
import { boxesArb, generatedGraph } from './generated-worlds.js';

/** Walks a path's points in turn from its first, as the navigation system steers: whether it arrives at each to the bit. */
function walksPath(world: CollisionWorld, body: NavBody, g: NavGraph, points: readonly Vec3[]): boolean {
  const { a0, a1, cell } = g.grid;
  const w = newWalker(world, body, points[0]!);
  for (let k = 1; k < points.length; k++) {
    const p = points[k]!;
    if (!walkTo(w, p[a0], p[a1], walkBudget(2 * cell, body.speed))) return false;
    if (w.pos[0] !== p[0] || w.pos[1] !== p[1] || w.pos[2] !== p[2]) return false;
  }
  return true;
}

/** The positions reachable from `start` through the walk relation itself (breadth first, positions to the bit). */
function bruteReach(src: WalkSource, start: Vec3): Set<string> {
  const { grid } = src;
  const key = (p: Vec3) => `${p[0]},${p[1]},${p[2]}`;
  const seen = new Set([key(start)]);
  const standsIn = new Map<number, Set<string>>();
  const stands = (i: number, j: number) => {
    const c = i + j * grid.n0;
    if (!standsIn.has(c)) standsIn.set(c, new Set(src.stands(i, j).map(key)));
    return standsIn.get(c)!;
  };
  const queue = [start];
  while (queue.length) {
    const p = queue.shift()!;
    const i = Math.round((p[grid.a0] - grid.origin0 - grid.cell / 2) / grid.cell);
    const j = Math.round((p[grid.a1] - grid.origin1 - grid.cell / 2) / grid.cell);
    for (const [di, dj] of NAV_DIRECTIONS) {
      const ni = i + di, nj = j + dj;
      if (ni < 0 || nj < 0 || ni >= grid.n0 || nj >= grid.n1) continue;
      const q = src.step(p, ni, nj);
      // Only places where the body stands count (the graph's nodes are those).
      if (q === null || !stands(ni, nj).has(key(q))) continue;
      if (!seen.has(key(q))) {
        seen.add(key(q));
        queue.push(q);
      }
    }
  }
  return seen;
}

/** The cheapest cost from node s to every node: Dijkstra by a plain scan (no heap, no heuristic). */
function dijkstra(g: NavGraph, s: number): Float64Array {
  const d = new Float64Array(g.nodeCount).fill(Infinity);
  const done = new Uint8Array(g.nodeCount);
  d[s] = 0;
  for (;;) {
    let a = -1;
    for (let k = 0; k < g.nodeCount; k++) if (!done[k] && d[k]! < Infinity && (a < 0 || d[k]! < d[a]!)) a = k;
    if (a < 0) return d;
    done[a] = 1;
    for (let e = g.edgeStart[a]!; e < g.edgeStart[a + 1]!; e++) {
      const b = g.edgeTo[e]!;
      const c = d[a]! + edgeCost(g, g.cellOf[a]!, g.cellOf[b]!);
      if (c < d[b]!) d[b] = c;
    }
  }
}

/** Checks findPath between nodes s and t against the walk, the brute-force search and Dijkstra, by a default search and a cheapest one. */
function checkPair(world: CollisionWorld, body: NavBody, g: NavGraph, src: WalkSource, s: number, t: number, search: PathSearch, reach?: Set<string>): boolean {
  const from = nodePosition(g, s);
  const to = nodePosition(g, t);
  const r = reach ?? bruteReach(src, from);
  const reachable = r.has(`${to[0]},${to[1]},${to[2]}`);
  const d = dijkstra(g, s);
  const cheapest = cheapestSearches.get(g) ?? new PathSearch(g, { cheapest: true });
  cheapestSearches.set(g, cheapest);
  for (const sr of [search, cheapest]) {
    const p = findPath(g, from, to, sr);
    expect(p !== null).toBe(reachable);
    if (p === null) {
      expect(d[t]).toBe(Infinity);
      continue;
    }
    expect(p.nodes[0]).toBe(s);
    expect(p.nodes[p.nodes.length - 1]).toBe(t);
    // The cheapest when asked; else never cheaper than the cheapest (its cost is its edges', checked below).
    if (sr.cheapest) expect(p.cost).toBe(d[t]);
    expect(p.cost).toBeGreaterThanOrEqual(d[t]!);
    expect(p.cost).toBe(pathCost(g, p.nodes));
    expect(p.cost).toBeGreaterThanOrEqual(octile(g, g.cellOf[s]!, g.cellOf[t]!));
    expect(walksPath(world, body, g, p.points)).toBe(true);
  }
  return reachable;
}
const cheapestSearches = new WeakMap<NavGraph, PathSearch>();

describe('findPath', () => {
  it('on generated worlds: paths are walked to the bit, exist exactly when a brute-force search reaches the goal, and are the cheapest when asked', () => {
    let found = 0;
    let none = 0;
    fc.assert(
      fc.property(boxesArb, fc.nat(), fc.nat(), fc.boolean(), (boxes, a, b, integer) => {
        const { world, body, g } = generatedGraph(boxes, integer);
        if (g.nodeCount === 0) return;
        const src = walkSourceOf(world, body, 4);
        const s = a % g.nodeCount;
        const t = b % g.nodeCount;
        if (checkPair(world, body, g, src, s, t, new PathSearch(g))) found++;
        else none++;
      }),
      { numRuns: 150, seed: 20261205 },
    );
    // The generated worlds gave both answers (the property saw paths and their absence).
    expect(found).toBeGreaterThan(20);
    expect(none).toBeGreaterThan(5);
  });

  // Every world kind; the GTA town and the Piney field on coarser cells, so that the brute-force searches stay short.
  const SHIPPED: [string, number | undefined][] = [['rugrats-hand', undefined], ['llama-demo', undefined], ['colbin-demo', undefined], ['gta-town', 8], ['piney-default', 4096]];
  for (const [id, cell] of SHIPPED) {
    it(`${id}: the same, for pairs of nodes drawn across the world`, async () => {
      const { world } = await openBuiltinWorld(id);
      const body = defaultNavBody(world);
      const g = buildNavGraph(world, body, cell === undefined ? {} : { cell });
      const src = walkSourceOf(world, body, cell);
      const search = new PathSearch(g);
      const reaches = new Map<number, Set<string>>();
      let found = 0;
      fc.assert(
        fc.property(fc.nat(), fc.nat(), (a, b) => {
          const s = (a % (cell === undefined ? 6 : 2)) * Math.floor(g.nodeCount / 6);
          const t = b % g.nodeCount;
          if (!reaches.has(s)) reaches.set(s, bruteReach(src, nodePosition(g, s)));
          if (checkPair(world, body, g, src, s, t, search, reaches.get(s))) found++;
        }),
        { numRuns: cell === undefined ? 40 : 16, seed: 7 },
      );
      expect(found).toBeGreaterThan(3);
    }, 300_000);
  }

  it('piney-default: paths by the coarse layer (nodes 32 cells or more apart) are walked to the bit, and never cheaper than the cheapest', async () => {
    const { world } = await openBuiltinWorld('piney-default');
    const body = defaultNavBody(world);
    const g = buildNavGraph(world, body);
    const fast = new PathSearch(g);
    const cheapest = new PathSearch(g, { cheapest: true });
    let walked = 0;
    for (let k = 0; k < 16; k++) {
      // From the field's first rows to its last: far apart along j.
      const a = nodePosition(g, (k * 131) % Math.floor(g.nodeCount / 5));
      const b = nodePosition(g, g.nodeCount - 1 - ((k * 173) % Math.floor(g.nodeCount / 5)));
      const p = findPath(g, a, b, fast);
      const q = findPath(g, a, b, cheapest);
      expect(p === null).toBe(q === null);
      if (p === null || q === null) continue;
      expect(p.cost).toBeGreaterThanOrEqual(q.cost);
      expect(p.cost).toBe(pathCost(g, p.nodes));
      expect(walksPath(world, body, g, p.points)).toBe(true);
      walked++;
    }
    expect(walked).toBeGreaterThanOrEqual(8);
    expect(fast.coarseSearches).toBeGreaterThanOrEqual(walked);
    expect(fast.coarseFallbacks).toBe(0);
  }, 300_000);

  it('gives the same path after the graph is written and read back, and the same path again', async () => {
    const { world } = await openBuiltinWorld('colbin-demo');
    const g = buildNavGraph(world, defaultNavBody(world));
    const back = parseNavGraph(writeNavGraph(g));
    const a = nodePosition(g, 0);
    const b = nodePosition(g, g.nodeCount - 1);
    const p = findPath(g, a, b)!;
    expect(p).not.toBeNull();
    expect(findPath(back, a, b)).toEqual(p);
    expect(findPath(g, a, b)).toEqual(p);
  });

  it('answers null off the grid, and refuses positions that are not three finite numbers', async () => {
    const { world } = await openBuiltinWorld('rugrats-hand');
    const g = buildNavGraph(world, defaultNavBody(world));
    expect(findPath(g, [-1e9, 0, 0], nodePosition(g, 0))).toBeNull();
    expect(() => findPath(g, [NaN, 0, 0], nodePosition(g, 0))).toThrow(/not a position of three finite numbers/);
    expect(() => findPath(g, nodePosition(g, 0), [1, 2] as unknown as Vec3)).toThrow(RangeError);
  });
});
