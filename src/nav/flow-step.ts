/**
 * One step of a flow field without the field: the node that `flowField(g, goal).next[n]` names, found by a
 * search that stops as soon as that step is certain, for agents whose goals are too many to keep a field each.
 *
 * The field's step from n is the first edge n → b, in `NAV_DIRECTIONS` order, with cost(b) + edge = cost(n),
 * where cost is the cheapest walk to the goal; cost(n) is the least of cost(b) + edge over n's edges. So the
 * search needs cost(b) exactly for every b that could reach that least sum, and nothing else: an A* from the
 * goal over the reversed edges toward n's neighbours, with the heuristic min over b of (octile(x, b) + edge to
 * b), consistent as a least of consistent ones, so a node's cost is exact when it leaves the heap. It stops
 * when the heap's least f is above the best sum found (no neighbour still in the heap can reach it: its cost
 * plus its edge is at least its f) or when the heap is empty (the neighbours not reached cannot reach the
 * goal). Whole-number costs, exact comparisons: the same answer as the field on every engine.
 */
import { edgeCost, type NavGraph } from './graph.js';
import type { ReverseEdges } from './flow-field.js';
import { DIAGONAL_COST, STRAIGHT_COST } from './graph.js';

/** The most edges a node has (one per direction). */
const MAX_EDGES = 8;

/** Reusable state for `flowStep` on one graph (arrays sized to its nodes; a generation stamp clears nothing). */
export class FlowStepSearch {
  private readonly cost: Float64Array;
  private readonly stamp: Uint32Array;
  private readonly closed: Uint32Array;
  private readonly ci: Int32Array;
  private readonly cj: Int32Array;
  private heapNode: Int32Array;
  private heapF: Float64Array;
  private gen = 0;
  private readonly ti = new Int32Array(MAX_EDGES);
  private readonly tj = new Int32Array(MAX_EDGES);
  private readonly te = new Int32Array(MAX_EDGES);

  constructor(
    readonly graph: NavGraph,
    readonly reverse: ReverseEdges,
  ) {
    const n = graph.nodeCount;
    this.cost = new Float64Array(n);
    this.stamp = new Uint32Array(n);
    this.closed = new Uint32Array(n);
    this.ci = new Int32Array(n);
    this.cj = new Int32Array(n);
    const n0 = graph.grid.n0;
    for (let a = 0; a < n; a++) {
      this.ci[a] = graph.cellOf[a]! % n0;
      this.cj[a] = Math.floor(graph.cellOf[a]! / n0);
    }
    this.heapNode = new Int32Array(64);
    this.heapF = new Float64Array(64);
  }

  /**
   * The flow field's next node from `n` toward `goal` (as `flowField(graph, goal).next[n]`): −1 at the goal
   * and where the goal cannot be reached. Throws a RangeError for a node or goal that is not a node.
   */
  next(goal: number, n: number): number {
    const g = this.graph;
    const count = g.nodeCount;
    if (!(Number.isInteger(goal) && goal >= 0 && goal < count)) throw new RangeError(`flow step goal ${goal} is not a node of the graph's ${count}`);
    if (!(Number.isInteger(n) && n >= 0 && n < count)) throw new RangeError(`flow step node ${n} is not a node of the graph's ${count}`);
    if (n === goal) return -1;
    const e0 = g.edgeStart[n]!;
    const e1 = g.edgeStart[n + 1]!;
    const targets = e1 - e0;
    if (targets === 0) return -1;
    const { ti, tj, te, ci, cj, cost, stamp, closed } = this;
    const cellN = g.cellOf[n]!;
    for (let k = 0; k < targets; k++) {
      const b = g.edgeTo[e0 + k]!;
      ti[k] = ci[b]!;
      tj[k] = cj[b]!;
      te[k] = edgeCost(g, cellN, g.cellOf[b]!);
    }
    // The heuristic: the least, over n's neighbours b, of octile(x, b) + the edge n → b.
    const h = (x: number): number => {
      let best = Infinity;
      const xi = ci[x]!, xj = cj[x]!;
      for (let k = 0; k < targets; k++) {
        const di = xi > ti[k]! ? xi - ti[k]! : ti[k]! - xi;
        const dj = xj > tj[k]! ? xj - tj[k]! : tj[k]! - xj;
        const o = di > dj ? STRAIGHT_COST * di + (DIAGONAL_COST - STRAIGHT_COST) * dj : STRAIGHT_COST * dj + (DIAGONAL_COST - STRAIGHT_COST) * di;
        const v = o + te[k]!;
        if (v < best) best = v;
      }
      return best;
    };
    let gen = ++this.gen;
    if (gen === 0xffffffff) {
      stamp.fill(0);
      closed.fill(0);
      this.gen = gen = 1;
    }
    let size = 0;
    const push = (node: number, f: number): void => {
      if (size === this.heapNode.length) {
        const hn = new Int32Array(size * 2);
        hn.set(this.heapNode);
        this.heapNode = hn;
        const hf = new Float64Array(size * 2);
        hf.set(this.heapF);
        this.heapF = hf;
      }
      const hn = this.heapNode, hf = this.heapF;
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (hf[p]! <= f) break;
        hn[i] = hn[p]!;
        hf[i] = hf[p]!;
        i = p;
      }
      hn[i] = node;
      hf[i] = f;
    };
    const pop = (): number => {
      const hn = this.heapNode, hf = this.heapF;
      const top = hn[0]!;
      size--;
      if (size > 0) {
        const node = hn[size]!, f = hf[size]!;
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          if (l >= size) break;
          const m = l + 1 < size && hf[l + 1]! < hf[l]! ? l + 1 : l;
          if (hf[m]! >= f) break;
          hn[i] = hn[m]!;
          hf[i] = hf[m]!;
          i = m;
        }
        hn[i] = node;
        hf[i] = f;
      }
      return top;
    };
    cost[goal] = 0;
    stamp[goal] = gen;
    push(goal, h(goal));
    // The least cost(b) + edge over the neighbours settled so far.
    let best = Infinity;
    const rs = this.reverse.start, rf = this.reverse.from;
    while (size > 0) {
      if (this.heapF[0]! > best) break;
      const x = pop();
      if (closed[x] === gen) continue;
      closed[x] = gen;
      const cx = cost[x]!;
      for (let k = 0; k < targets; k++) {
        if (g.edgeTo[e0 + k] === x && cx + te[k]! < best) best = cx + te[k]!;
      }
      const cellX = g.cellOf[x]!;
      for (let r = rs[x]!; r < rs[x + 1]!; r++) {
        const a = rf[r]!;
        if (closed[a] === gen) continue;
        const c = cx + edgeCost(g, g.cellOf[a]!, cellX);
        if (stamp[a] !== gen || c < cost[a]!) {
          stamp[a] = gen;
          cost[a] = c;
          push(a, c + h(a));
        }
      }
    }
    if (best === Infinity) return -1;
    // The first edge, in order, on a cheapest way (its target settled with cost + edge = best).
    for (let k = 0; k < targets; k++) {
      const b = g.edgeTo[e0 + k]!;
      if (closed[b] === gen && cost[b]! + te[k]! === best) return b;
    }
    return -1;
  }
}
