/**
 * Flow fields: one search from a goal answers, for every node of the graph, how far the goal is and which
 * neighbour to walk to next, so that many agents sharing a goal need no search of their own. Dijkstra over
 * the reversed edges (edges are directed: the cost is of walking toward the goal), with whole-number costs and
 * a heap ordered by (cost, node); each node's next step is the first edge, in `NAV_DIRECTIONS` order, on a
 * cheapest way. The same field on every engine.
 */
import type { Vec3 } from '../worlds/world.js';
import { edgeCost, nearestNode, type NavGraph } from './graph.js';

/** The reversed edges of a graph: for each node, the nodes with an edge to it. */
export interface ReverseEdges {
  /** Node n's incoming edges are from[start[n] .. start[n + 1] − 1], ascending. */
  readonly start: Uint32Array;
  readonly from: Uint32Array;
}

/** The reversed edges of `g` (built in one pass, sources ascending). */
export function reverseEdges(g: NavGraph): ReverseEdges {
  const n = g.nodeCount;
  const count = new Uint32Array(n + 1);
  for (let k = 0; k < g.edgeTo.length; k++) count[g.edgeTo[k]! + 1]!++;
  for (let a = 0; a < n; a++) count[a + 1]! += count[a]!;
  const start = count.slice();
  const fill = count.slice(0, n);
  const from = new Uint32Array(g.edgeTo.length);
  for (let a = 0; a < n; a++) {
    for (let k = g.edgeStart[a]!; k < g.edgeStart[a + 1]!; k++) {
      const b = g.edgeTo[k]!;
      from[fill[b]!++] = a;
    }
  }
  return { start, from };
}

/** A flow field toward one goal node. */
export interface FlowField {
  /** The goal node. */
  readonly goal: number;
  /** Each node's cost to the goal (Infinity when it cannot reach it). */
  readonly cost: Float64Array;
  /** Each node's next node toward the goal (−1 at the goal and where the goal cannot be reached). */
  readonly next: Int32Array;
}

/**
 * The flow field of `g` toward node `goal` (`reverse`: the graph's `reverseEdges`, made once and shared by
 * every field of the graph). Throws a RangeError for a goal that is not a node.
 */
export function flowField(g: NavGraph, goal: number, reverse: ReverseEdges = reverseEdges(g)): FlowField {
  const n = g.nodeCount;
  if (!(Number.isInteger(goal) && goal >= 0 && goal < n)) throw new RangeError(`flow field goal ${goal} is not a node of the graph's ${n}`);
  const cost = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  // Binary heap of (cost, node), the lower cost first, then the lower node.
  let hc = new Float64Array(Math.max(16, n));
  let hn = new Int32Array(Math.max(16, n));
  let size = 0;
  const less = (i: number, j: number) => hc[i]! < hc[j]! || (hc[i] === hc[j] && hn[i]! < hn[j]!);
  const swap = (i: number, j: number) => {
    const c = hc[i]!, d = hn[i]!;
    hc[i] = hc[j]!;
    hn[i] = hn[j]!;
    hc[j] = c;
    hn[j] = d;
  };
  const push = (c: number, node: number) => {
    if (size === hc.length) {
      const c2 = new Float64Array(size * 2);
      c2.set(hc);
      hc = c2;
      const n2 = new Int32Array(size * 2);
      n2.set(hn);
      hn = n2;
    }
    let i = size++;
    hc[i] = c;
    hn[i] = node;
    while (i > 0 && less(i, (i - 1) >> 1)) {
      swap(i, (i - 1) >> 1);
      i = (i - 1) >> 1;
    }
  };
  const pop = (): number => {
    const top = hn[0]!;
    size--;
    if (size > 0) {
      hc[0] = hc[size]!;
      hn[0] = hn[size]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const m = l + 1 < size && less(l + 1, l) ? l + 1 : l;
        if (!less(m, i)) break;
        swap(i, m);
        i = m;
      }
    }
    return top;
  };
  cost[goal] = 0;
  push(0, goal);
  while (size > 0) {
    const b = pop();
    if (done[b]) continue;
    done[b] = 1;
    const cb = cost[b]!;
    for (let k = reverse.start[b]!; k < reverse.start[b + 1]!; k++) {
      const a = reverse.from[k]!;
      if (done[a]) continue;
      const c = cb + edgeCost(g, g.cellOf[a]!, g.cellOf[b]!);
      if (c < cost[a]!) {
        cost[a] = c;
        push(c, a);
      }
    }
  }
  const next = new Int32Array(n).fill(-1);
  for (let a = 0; a < n; a++) {
    if (a === goal || cost[a] === Infinity) continue;
    for (let k = g.edgeStart[a]!; k < g.edgeStart[a + 1]!; k++) {
      const b = g.edgeTo[k]!;
      if (cost[b]! + edgeCost(g, g.cellOf[a]!, g.cellOf[b]!) === cost[a]) {
        next[a] = b;
        break;
      }
    }
  }
  return { goal, cost, next };
}

/** The flow field toward the node nearest `to` (see `nearestNode`), or null when it has no node. */
export function flowFieldTo(g: NavGraph, to: Readonly<Vec3>, reverse?: ReverseEdges): FlowField | null {
  const goal = nearestNode(g, to, (3 - g.grid.a0 - g.grid.a1) as 0 | 1 | 2);
  return goal < 0 ? null : flowField(g, goal, reverse);
}
