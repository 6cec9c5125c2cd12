/**
 * The components a search uses to say "no path" without searching: on random directed graphs (chains, cycles,
 * one-way drops, isolated nodes), `canReach` answers exactly what a breadth-first search of the edges answers,
 * for every pair, and components are numbered so that an edge never leads to a later one.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { NavGraph } from '../../src/nav/graph.js';
import { canReach, reachOf } from '../../src/nav/reach.js';

/** A graph of `n` nodes with the given edges (only what reachability reads: the node count and the edges). */
function graphOf(n: number, edges: readonly [number, number][]): NavGraph {
  const sorted = [...edges].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const edgeStart = new Uint32Array(n + 1);
  for (const [a] of sorted) edgeStart[a + 1]!++;
  for (let v = 0; v < n; v++) edgeStart[v + 1]! += edgeStart[v]!;
  return { nodeCount: n, edgeStart, edgeTo: Uint32Array.from(sorted.map((e) => e[1])) } as unknown as NavGraph;
}

function bfs(g: NavGraph, from: number): Set<number> {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) {
    const v = queue.shift()!;
    for (let k = g.edgeStart[v]!; k < g.edgeStart[v + 1]!; k++) {
      const w = g.edgeTo[k]!;
      if (!seen.has(w)) {
        seen.add(w);
        queue.push(w);
      }
    }
  }
  return seen;
}

const graphs = fc.integer({ min: 1, max: 40 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    edges: fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })), { maxLength: 3 * n }),
  }),
);

describe('reachability from components', () => {
  it('canReach agrees with a breadth-first search for every pair of nodes', () => {
    fc.assert(
      fc.property(graphs, ({ n, edges }) => {
        const g = graphOf(n, edges);
        const r = reachOf(g);
        const seen = new Uint32Array(r.count);
        const queue = new Int32Array(r.count);
        let stamp = 0;
        for (let s = 0; s < n; s++) {
          const reached = bfs(g, s);
          for (let t = 0; t < n; t++) expect(canReach(r, s, t, seen, queue, ++stamp)).toBe(reached.has(t));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('components: nodes share one exactly when each reaches the other, and an edge never leads to a later one', () => {
    fc.assert(
      fc.property(graphs, ({ n, edges }) => {
        const g = graphOf(n, edges);
        const r = reachOf(g);
        const reach = Array.from({ length: n }, (_, s) => bfs(g, s));
        for (let s = 0; s < n; s++) {
          for (let t = 0; t < n; t++) expect(r.component[s] === r.component[t]).toBe(reach[s]!.has(t) && reach[t]!.has(s));
        }
        for (const [a, b] of edges) expect(r.component[b]!).toBeLessThanOrEqual(r.component[a]!);
        expect(reachOf(g)).toBe(r);
      }),
      { numRuns: 300 },
    );
  });
});
