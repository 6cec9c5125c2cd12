/**
 * The coarse layer a default path search keeps to, on random directed graphs over a grid (up to three floors a
 * cell, each node with at most one edge a direction, one-way edges common): a region lies in one block of
 * REGION_CELLS × REGION_CELLS cells, and two nodes of a block share a region exactly when each walks to the
 * other inside the block; every region's way out to each neighbouring region leads, edge by edge, from every
 * one of its nodes into that neighbour at the cheapest cost of doing so inside the region; and a default search
 * finds a path exactly when one exists, made of the graph's edges, never cheaper than the cheapest, and the
 * cheapest when asked.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NAV_DIRECTIONS, edgeCost, type NavGraph } from '../../src/nav/graph.js';
import { MAX_WAYS_PER_NODE, regionsOf, REGION_CELLS } from '../../src/nav/regions.js';
import { PathSearch, pathCost } from '../../src/nav/path.js';

interface Spec {
  n0: number;
  n1: number;
  floors: number[];
  links: number[];
}

/** A grid of n0 × n1 cells, `floors[c]` nodes in cell c, and from each node in each direction an edge to one of the neighbouring cell's nodes, or none. */
function graphOf({ n0, n1, floors, links }: Spec): NavGraph {
  const cellOf: number[] = [];
  const cellStart = new Uint32Array(n0 * n1 + 1);
  for (let c = 0; c < n0 * n1; c++) {
    for (let f = 0; f < floors[c]!; f++) cellOf.push(c);
    cellStart[c + 1] = cellOf.length;
  }
  const edgeStart = new Uint32Array(cellOf.length + 1);
  const edgeTo: number[] = [];
  let draw = 0;
  for (let v = 0; v < cellOf.length; v++) {
    const i = cellOf[v]! % n0, j = Math.floor(cellOf[v]! / n0);
    for (const [di, dj] of NAV_DIRECTIONS) {
      const x = links[draw++ % links.length]!;
      const ni = i + di, nj = j + dj;
      if (ni < 0 || nj < 0 || ni >= n0 || nj >= n1) continue;
      const d = ni + nj * n0;
      const count = cellStart[d + 1]! - cellStart[d]!;
      // x = 0: no edge; else an edge to the cell's node x − 1 (when it has one).
      if (x > 0 && x <= count) edgeTo.push(cellStart[d]! + x - 1);
    }
    edgeStart[v + 1] = edgeTo.length;
  }
  return {
    kind: 'rugrats', tag: 'random', body: { radius: 1, height: 1, step: 0, speed: 1 },
    grid: { a0: 0, a1: 2, origin0: 0, origin1: 0, cell: 1, n0, n1 },
    nodeCount: cellOf.length, cellOf: Uint32Array.from(cellOf), pos: new Float64Array(3 * cellOf.length), cellStart,
    edgeStart, edgeTo: Uint32Array.from(edgeTo),
  } as unknown as NavGraph;
}

const specs = fc.record({ n0: fc.integer({ min: 1, max: 20 }), n1: fc.integer({ min: 1, max: 20 }) }).chain(({ n0, n1 }) =>
  fc.record({
    n0: fc.constant(n0),
    n1: fc.constant(n1),
    floors: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n0 * n1, maxLength: n0 * n1 }),
    // Mostly edges to a cell's first node, some to other floors, some missing.
    links: fc.array(fc.constantFrom(0, 1, 1, 1, 1, 1, 2, 3), { minLength: 1, maxLength: 200 }),
  }),
);

/**
 * n0 × n1 cells of 8 floors: floors 0–3 walk along the axes on their own floor (a region of 64 nodes a block
 * each), and step diagonally down to floor 4 + d of the diagonal neighbour d, a dead end (a region of its own).
 */
function deadEnds(n0: number, n1: number): NavGraph {
  const cellOf: number[] = [];
  const cellStart = new Uint32Array(n0 * n1 + 1);
  for (let c = 0; c < n0 * n1; c++) {
    for (let f = 0; f < 8; f++) cellOf.push(c);
    cellStart[c + 1] = cellOf.length;
  }
  const edgeStart = new Uint32Array(cellOf.length + 1);
  const edgeTo: number[] = [];
  for (let v = 0; v < cellOf.length; v++) {
    const c = cellOf[v]!, f = v - cellStart[c]!;
    const i = c % n0, j = Math.floor(c / n0);
    if (f < 4) {
      NAV_DIRECTIONS.forEach(([di, dj], d) => {
        const ni = i + di, nj = j + dj;
        if (ni < 0 || nj < 0 || ni >= n0 || nj >= n1) return;
        edgeTo.push(cellStart[ni + nj * n0]! + (d < 4 ? f : d));
      });
    }
    edgeStart[v + 1] = edgeTo.length;
  }
  return {
    kind: 'rugrats', tag: 'dead ends', body: { radius: 1, height: 1, step: 0, speed: 1 },
    grid: { a0: 0, a1: 2, origin0: 0, origin1: 0, cell: 1, n0, n1 },
    nodeCount: cellOf.length, cellOf: Uint32Array.from(cellOf), pos: new Float64Array(3 * cellOf.length), cellStart,
    edgeStart, edgeTo: Uint32Array.from(edgeTo),
  } as unknown as NavGraph;
}

/** Grids wide enough for nodes 32 cells or more apart (where a default search goes by the coarse layer). */
const wideSpecs = fc.record({ n0: fc.integer({ min: 40, max: 64 }), n1: fc.integer({ min: 1, max: 32 }) }).chain(({ n0, n1 }) =>
  fc.record({
    n0: fc.constant(n0),
    n1: fc.constant(n1),
    floors: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n0 * n1, maxLength: n0 * n1 }),
    links: fc.array(fc.constantFrom(0, 1, 1, 1, 1, 1, 1, 2), { minLength: 1, maxLength: 300 }),
  }),
);

/** The cheapest cost from `from` to every node (Dial's algorithm: buckets by cost, as costs are 5 and 7). */
function cheapestCosts(g: NavGraph, from: number): Float64Array {
  const d = new Float64Array(g.nodeCount).fill(Infinity);
  const buckets: number[][] = [[from]];
  d[from] = 0;
  for (let c = 0; c < buckets.length; c++) {
    for (const a of buckets[c] ?? []) {
      if (d[a] !== c) continue;
      for (let k = g.edgeStart[a]!; k < g.edgeStart[a + 1]!; k++) {
        const w = g.edgeTo[k]!;
        const dw = c + edgeCost(g, g.cellOf[a]!, g.cellOf[w]!);
        if (dw < d[w]!) {
          d[w] = dw;
          (buckets[dw] ??= []).push(w);
        }
      }
    }
  }
  return d;
}

const blockOf = (g: NavGraph, v: number) => {
  const c = g.cellOf[v]!;
  return `${Math.floor((c % g.grid.n0) / REGION_CELLS)},${Math.floor(Math.floor(c / g.grid.n0) / REGION_CELLS)}`;
};

/** The nodes `from` reaches along edges whose both ends pass `keep`. */
function reached(g: NavGraph, from: number, keep: (v: number) => boolean): Set<number> {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) {
    const v = queue.shift()!;
    for (let k = g.edgeStart[v]!; k < g.edgeStart[v + 1]!; k++) {
      const w = g.edgeTo[k]!;
      if (keep(w) && !seen.has(w)) {
        seen.add(w);
        queue.push(w);
      }
    }
  }
  return seen;
}

/**
 * The cheapest cost from `from` to each node, along edges whose target passes `keep` (Dijkstra by a plain scan
 * of `among`, the nodes that may pass: every node by default).
 */
function cheapest(g: NavGraph, from: number, keep: (v: number) => boolean = () => true, among?: readonly number[]): Float64Array {
  const d = new Float64Array(g.nodeCount).fill(Infinity);
  const done = new Uint8Array(g.nodeCount);
  const scan = among ?? Array.from({ length: g.nodeCount }, (_, v) => v);
  d[from] = 0;
  for (;;) {
    let a = -1;
    for (const v of scan) if (!done[v] && d[v]! < Infinity && (a < 0 || d[v]! < d[a]!)) a = v;
    if (a < 0) return d;
    done[a] = 1;
    for (let k = g.edgeStart[a]!; k < g.edgeStart[a + 1]!; k++) {
      const w = g.edgeTo[k]!;
      if (keep(w)) d[w] = Math.min(d[w]!, d[a]! + edgeCost(g, g.cellOf[a]!, g.cellOf[w]!));
    }
  }
}

describe('regions', () => {
  it('lie in one block each, and join exactly the nodes that walk to each other inside their block', () => {
    fc.assert(
      fc.property(specs, (spec) => {
        const g = graphOf(spec);
        const R = regionsOf(g);
        const block = Array.from({ length: g.nodeCount }, (_, v) => blockOf(g, v));
        const inside = block.map((b, u) => reached(g, u, (v) => block[v] === b));
        // (Counted, not asserted pair by pair: a thousand nodes make a million pairs.)
        const wrong: string[] = [];
        for (let u = 0; u < g.nodeCount; u++) {
          for (let v = 0; v < g.nodeCount; v++) {
            const same = R.component[v] === R.component[u];
            const should = block[v] === block[u] && inside[u]!.has(v) && inside[v]!.has(u);
            if (same !== should && wrong.length < 5) wrong.push(`nodes ${u} and ${v}: ${same ? 'one region' : 'two regions'}`);
          }
        }
        expect(wrong).toEqual([]);
      }),
      { numRuns: 60, seed: 61206 },
    );
  });

  it("ways out lead every node of a region into each neighbouring region, edge by edge, at the cheapest cost inside the region", () => {
    let ways = 0;
    fc.assert(
      fc.property(specs, (spec) => {
        const g = graphOf(spec);
        const R = regionsOf(g);
        const members = Array.from({ length: R.count }, () => [] as number[]);
        for (let v = 0; v < g.nodeCount; v++) members[R.component[v]!]!.push(v);
        for (let v = 0; v < g.nodeCount; v++) {
          const r = R.component[v]!;
          for (let k = R.nextStart[r]!; k < R.nextStart[r + 1]!; k++) {
            const to = R.next[k]!;
            // The cheapest way inside r to a node of `to`: Dijkstra through r's nodes, stopping at `to`'s.
            const d = cheapest(g, v, (w) => R.component[w] === r || R.component[w] === to, [...members[r]!, ...members[to]!]);
            let best = Infinity;
            for (const w of members[to]!) best = Math.min(best, d[w]!);
            // Walk the table: each step an edge, inside r until it steps into `to`.
            let at = v, cost = 0, steps = 0;
            while (R.component[at] === r) {
              // The way out names one of the node's own edges.
              const slot = R.hop[R.hopStart[k]! + R.local[at]!]!;
              expect(slot).toBeLessThan(g.edgeStart[at + 1]! - g.edgeStart[at]!);
              const w = g.edgeTo[g.edgeStart[at]! + slot]!;
              cost += edgeCost(g, g.cellOf[at]!, g.cellOf[w]!);
              at = w;
              expect(++steps).toBeLessThanOrEqual(g.nodeCount);
            }
            expect(R.component[at]).toBe(to);
            // Dijkstra's cost may pass through `to` and back into r; the table's never does, and is no dearer.
            expect(cost).toBeGreaterThanOrEqual(best);
            const inside = cheapest(g, v, (w) => R.component[w] === r, members[r]!);
            let insideBest = Infinity;
            for (const w of members[r]!) {
              if (inside[w] === Infinity) continue;
              for (let e = g.edgeStart[w]!; e < g.edgeStart[w + 1]!; e++) if (R.component[g.edgeTo[e]!] === to) insideBest = Math.min(insideBest, inside[w]! + edgeCost(g, g.cellOf[w]!, g.cellOf[g.edgeTo[e]!]!));
            }
            expect(cost).toBe(insideBest);
            ways++;
          }
        }
      }),
      { numRuns: 60, seed: 61207 },
    );
    expect(ways).toBeGreaterThan(100);
  });

  it('a default search finds a path exactly when one exists, along edges, at its edges\' cost, going by the coarse layer between far nodes; a cheapest one finds the cheapest', () => {
    let coarse = 0, fallbacks = 0, dearer = 0;
    fc.assert(
      fc.property(wideSpecs, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }), (spec, ends) => {
        const g = graphOf(spec);
        if (g.nodeCount === 0) return;
        const fast = new PathSearch(g);
        const cheapestSearch = new PathSearch(g, { cheapest: true });
        // Ends from the grid's left and right quarters (most far apart), or anywhere.
        const left: number[] = [], right: number[] = [];
        for (let v = 0; v < g.nodeCount; v++) {
          const i = g.cellOf[v]! % g.grid.n0;
          if (4 * i < g.grid.n0) left.push(v);
          else if (4 * i >= 3 * g.grid.n0) right.push(v);
        }
        for (const [a, b] of ends) {
          const far = left.length > 0 && right.length > 0 && a % 4 !== 0;
          const s = far ? left[a % left.length]! : a % g.nodeCount;
          const t = far ? right[b % right.length]! : b % g.nodeCount;
          const d = cheapestCosts(g, s);
          for (const search of [fast, cheapestSearch]) {
            const nodes = search.search(s, t);
            expect(nodes !== null).toBe(d[t] !== Infinity);
            if (nodes === null) continue;
            expect(nodes[0]).toBe(s);
            expect(nodes[nodes.length - 1]).toBe(t);
            for (let k = 1; k < nodes.length; k++) expect(Array.from(g.edgeTo.subarray(g.edgeStart[nodes[k - 1]!]!, g.edgeStart[nodes[k - 1]! + 1]!))).toContain(nodes[k]);
            expect(search.cost).toBe(pathCost(g, nodes));
            expect(search.cost).toBeGreaterThanOrEqual(d[t]!);
            if (search.cheapest) expect(search.cost).toBe(d[t]);
            else if (search.cost > d[t]!) dearer++;
          }
        }
        coarse += fast.coarseSearches;
        fallbacks += fast.coarseFallbacks;
        expect(cheapestSearch.coarseSearches).toBe(0);
      }),
      { numRuns: 120, seed: 61208 },
    );
    // The property saw many searches by the coarse layer, none of which fell back to the whole graph, and
    // some of whose paths cost more than the cheapest.
    expect(coarse).toBeGreaterThan(100);
    expect(fallbacks).toBe(0);
    expect(dearer).toBeGreaterThan(0);
  });

  it('a graph whose ways out would be too big gets none, and its searches go by the whole graph', () => {
    const g = deadEnds(40, 8);
    const R = regionsOf(g);
    // Four regions of 64 nodes a block, each bordering about 200 one-node regions: over 32 entries a node.
    expect(R.ways).toBe(false);
    expect(R.hop.length).toBe(0);
    const fast = new PathSearch(g);
    const s = 0, t = g.nodeCount - 8 * 8; // floor 0 of the first cell and of the last column's first cell
    const nodes = fast.search(s, t)!;
    expect(nodes).not.toBeNull();
    expect(fast.coarseSearches).toBe(0);
    expect(fast.cost).toBe(cheapestCosts(g, s)[t]);
  });
});
