/**
 * Flow-field steps without the field: the nodes that `flowField(g, goal).next` names along an agent's way,
 * found by a search that stops as soon as they are certain, for agents whose goals are too many to keep a
 * field each.
 *
 * The field's step from a node c is the first edge c → b, in `NAV_DIRECTIONS` order, with cost(b) + edge =
 * cost(c), where cost is the cheapest walk to the goal. An A* from the goal over the reversed edges toward the
 * agent's node n, with the octile distance to n as its heuristic (consistent, so a node's cost is exact when it
 * leaves the heap), run until the heap's least f passes cost(n), leaves every node that lies on a cheapest way
 * from n settled (such a node x has f = cost(x) + octile(x, n) ≤ cost(x) + the walk from n to x = cost(n)).
 * So along any cheapest way from n, each node's step is its first edge to a settled node whose cost plus the
 * edge is its own: an unsettled neighbour b cannot tie (if it did, it would lie on a cheapest way from n and be
 * settled). One search gives the whole way from n to the goal (`way`).
 *
 * A node that cannot reach the goal is answered at once when the two lie in different components of the
 * graph taken undirected (made once); otherwise the search runs until the heap is empty. Whole-number costs,
 * exact comparisons: the same steps as the field on every engine.
 */
import { edgeCost, type NavGraph } from './graph.js';
import type { ReverseEdges } from './flow-field.js';
import { DIAGONAL_COST, STRAIGHT_COST } from './graph.js';

/** Reusable state for the search on one graph (arrays sized to its nodes; a generation stamp clears nothing). */
export class FlowStepSearch {
  private readonly cost: Float64Array;
  private readonly stamp: Uint32Array;
  private readonly closed: Uint32Array;
  private readonly ci: Int32Array;
  private readonly cj: Int32Array;
  private component: Int32Array | null = null;
  private heapNode: Int32Array;
  private heapF: Float64Array;
  private gen = 0;

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
    let first = -1;
    this.way(goal, n, (c, b) => {
      if (c === n) first = b;
    });
    return first;
  }

  /**
   * Each step of the field's way from `n` to `goal`: `step(c, b)` for c = n, then b, and so on until b is the
   * goal; one `step(n, −1)` when the goal cannot be reached from n; nothing when n is the goal. Throws a
   * RangeError for a node or goal that is not a node.
   */
  way(goal: number, n: number, step: (c: number, b: number) => void): void {
    const g = this.graph;
    const count = g.nodeCount;
    if (!(Number.isInteger(goal) && goal >= 0 && goal < count)) throw new RangeError(`flow step goal ${goal} is not a node of the graph's ${count}`);
    if (!(Number.isInteger(n) && n >= 0 && n < count)) throw new RangeError(`flow step node ${n} is not a node of the graph's ${count}`);
    if (n === goal) return;
    const comp = (this.component ??= components(g));
    if (comp[n] !== comp[goal] || g.edgeStart[n] === g.edgeStart[n + 1]) {
      step(n, -1);
      return;
    }
    const { ci, cj, cost, stamp, closed } = this;
    const ni = ci[n]!, nj = cj[n]!;
    const h = (x: number): number => {
      const di = ci[x]! > ni ? ci[x]! - ni : ni - ci[x]!;
      const dj = cj[x]! > nj ? cj[x]! - nj : nj - cj[x]!;
      return di > dj ? STRAIGHT_COST * di + (DIAGONAL_COST - STRAIGHT_COST) * dj : STRAIGHT_COST * dj + (DIAGONAL_COST - STRAIGHT_COST) * di;
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
    // cost(n) once n is settled; the search goes on while the least f is not above it.
    let best = Infinity;
    const rs = this.reverse.start, rf = this.reverse.from;
    while (size > 0) {
      if (this.heapF[0]! > best) break;
      const x = pop();
      if (closed[x] === gen) continue;
      closed[x] = gen;
      const cx = cost[x]!;
      if (x === n) best = cx;
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
    if (best === Infinity) {
      step(n, -1);
      return;
    }
    // Along the way: each node's first edge to a settled node whose cost plus the edge is its own.
    for (let c = n; c !== goal; ) {
      let b = -1;
      const cc = g.cellOf[c]!;
      for (let k = g.edgeStart[c]!; k < g.edgeStart[c + 1]!; k++) {
        const t = g.edgeTo[k]!;
        if (closed[t] === gen && cost[t]! + edgeCost(g, cc, g.cellOf[t]!) === cost[c]) {
          b = t;
          break;
        }
      }
      if (b < 0) throw new Error(`flow step: node ${c} on the way from ${n} to ${goal} has no settled step (a bug)`);
      step(c, b);
      c = b;
    }
  }
}

/** Each node's component in the graph taken undirected (the lowest node of the component names it). */
function components(g: NavGraph): Int32Array {
  const n = g.nodeCount;
  const parent = new Int32Array(n);
  for (let a = 0; a < n; a++) parent[a] = a;
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]!]!;
      a = parent[a]!;
    }
    return a;
  };
  for (let a = 0; a < n; a++) {
    for (let k = g.edgeStart[a]!; k < g.edgeStart[a + 1]!; k++) {
      const ra = find(a), rb = find(g.edgeTo[k]!);
      if (ra !== rb) parent[ra > rb ? ra : rb] = ra > rb ? rb : ra;
    }
  }
  for (let a = 0; a < n; a++) parent[a] = find(a);
  return parent;
}
