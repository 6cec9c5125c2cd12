/**
 * Paths on a navigation graph: A* over whole-number costs (5 along an axis, 7 diagonally) with the octile
 * heuristic on cells (5 × the longer side + 2 × the shorter), which is consistent: it never drops by more than
 * an edge costs. The open set is a binary heap ordered by (f, h, node): the lowest estimate first, on a tie the
 * node nearer the goal, then the lower node index, so every engine expands the same nodes in the same order
 * and returns the same path.
 */
import type { Vec3 } from '../worlds/world.js';
import { DIAGONAL_COST, STRAIGHT_COST, edgeCost, nearestNode, nodePosition, type NavGraph } from './graph.js';

/** A path found on a graph: its nodes from start to goal, their positions, and its cost. */
export interface NavPath {
  /** The nodes, start first, goal last (one node when start is the goal). */
  readonly nodes: readonly number[];
  /** Each node's position (native units): the places the body walks to, in order. */
  readonly points: readonly Vec3[];
  /** The sum of the edges' costs (5 along an axis, 7 diagonally). */
  readonly cost: number;
}

/** The octile distance between two cells in edge costs: never more than the cheapest path between them. */
export function octile(g: NavGraph, c: number, d: number): number {
  const n0 = g.grid.n0;
  const di = Math.abs((c % n0) - (d % n0));
  const dj = Math.abs(Math.floor(c / n0) - Math.floor(d / n0));
  return di > dj ? STRAIGHT_COST * di + (DIAGONAL_COST - STRAIGHT_COST) * dj : STRAIGHT_COST * dj + (DIAGONAL_COST - STRAIGHT_COST) * di;
}

/**
 * Reusable search state for one graph (typed arrays sized to its nodes, a generation stamp so that a search
 * clears nothing): make one per graph and pass it to `findNodePath` to search without allocating.
 */
export class PathSearch {
  readonly gCost: Float64Array;
  readonly parent: Int32Array;
  readonly stamp: Uint32Array;
  readonly closed: Uint32Array;
  private heapNode: Int32Array;
  private heapF: Float64Array;
  private heapH: Float64Array;
  private size = 0;
  private gen = 0;
  /** Nodes taken from the open set by the last search. */
  expanded = 0;

  constructor(readonly graph: NavGraph) {
    const n = graph.nodeCount;
    this.gCost = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.closed = new Uint32Array(n);
    this.heapNode = new Int32Array(Math.max(16, n));
    this.heapF = new Float64Array(Math.max(16, n));
    this.heapH = new Float64Array(Math.max(16, n));
  }

  /** The cheapest path's nodes from `start` to `goal` (indices of the graph), or null when none. */
  search(start: number, goal: number): number[] | null {
    const g = this.graph;
    if (!(start >= 0 && start < g.nodeCount && goal >= 0 && goal < g.nodeCount)) return null;
    this.gen++;
    if (this.gen === 0xffffffff) {
      this.stamp.fill(0);
      this.closed.fill(0);
      this.gen = 1;
    }
    const gen = this.gen;
    const goalCell = g.cellOf[goal]!;
    this.size = 0;
    this.expanded = 0;
    this.gCost[start] = 0;
    this.parent[start] = -1;
    this.stamp[start] = gen;
    const h0 = octile(g, g.cellOf[start]!, goalCell);
    this.push(start, h0, h0);
    while (this.size > 0) {
      const a = this.pop();
      if (this.closed[a] === gen) continue;
      this.closed[a] = gen;
      this.expanded++;
      if (a === goal) break;
      const ga = this.gCost[a]!;
      const ca = g.cellOf[a]!;
      for (let k = g.edgeStart[a]!; k < g.edgeStart[a + 1]!; k++) {
        const b = g.edgeTo[k]!;
        if (this.closed[b] === gen) continue;
        const cb = g.cellOf[b]!;
        const gb = ga + edgeCost(g, ca, cb);
        if (this.stamp[b] !== gen || gb < this.gCost[b]!) {
          this.stamp[b] = gen;
          this.gCost[b] = gb;
          this.parent[b] = a;
          const h = octile(g, cb, goalCell);
          this.push(b, gb + h, h);
        }
      }
    }
    if (this.closed[goal] !== gen) return null;
    const nodes: number[] = [];
    for (let a = goal; a !== -1; a = this.parent[a]!) nodes.push(a);
    return nodes.reverse();
  }

  /** Whether heap entry x comes before entry y: lower f, then lower h, then lower node. */
  private before(x: number, y: number): boolean {
    const fx = this.heapF[x]!, fy = this.heapF[y]!;
    if (fx !== fy) return fx < fy;
    const hx = this.heapH[x]!, hy = this.heapH[y]!;
    if (hx !== hy) return hx < hy;
    return this.heapNode[x]! < this.heapNode[y]!;
  }

  private push(node: number, f: number, h: number): void {
    if (this.size === this.heapNode.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.heapNode = grow(this.heapNode, (n) => new Int32Array(n));
      this.heapF = grow(this.heapF, (n) => new Float64Array(n));
      this.heapH = grow(this.heapH, (n) => new Float64Array(n));
    }
    let i = this.size++;
    this.heapNode[i] = node;
    this.heapF[i] = f;
    this.heapH[i] = h;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private pop(): number {
    const top = this.heapNode[0]!;
    const last = --this.size;
    if (last > 0) {
      this.heapNode[0] = this.heapNode[last]!;
      this.heapF[0] = this.heapF[last]!;
      this.heapH[0] = this.heapH[last]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= last) break;
        const r = l + 1;
        const m = r < last && this.before(r, l) ? r : l;
        if (!this.before(m, i)) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }

  private swap(i: number, j: number): void {
    const n = this.heapNode[i]!, f = this.heapF[i]!, h = this.heapH[i]!;
    this.heapNode[i] = this.heapNode[j]!;
    this.heapF[i] = this.heapF[j]!;
    this.heapH[i] = this.heapH[j]!;
    this.heapNode[j] = n;
    this.heapF[j] = f;
    this.heapH[j] = h;
  }
}

/** The cost of a path given by its nodes (the sum of its edges' costs). */
export function pathCost(g: NavGraph, nodes: readonly number[]): number {
  let c = 0;
  for (let k = 1; k < nodes.length; k++) c += edgeCost(g, g.cellOf[nodes[k - 1]!]!, g.cellOf[nodes[k]!]!);
  return c;
}

/**
 * The cheapest path from the node nearest `from` to the node nearest `to` (`nearestNode`: the cell holding
 * the point, the floor nearest its height), or null when either point has no node or no path joins them. The
 * body walks it by going to each point in turn as the navigation system steers; the first point is the
 * start node, in the same cell as `from`.
 */
export function findPath(g: NavGraph, from: Readonly<Vec3>, to: Readonly<Vec3>, search: PathSearch = new PathSearch(g)): NavPath | null {
  if (search.graph !== g) throw new RangeError('findPath: the search state belongs to another graph');
  const up = (3 - g.grid.a0 - g.grid.a1) as 0 | 1 | 2;
  for (const p of [from, to]) {
    if (!Array.isArray(p) || p.length !== 3 || !p.every((v) => typeof v === 'number' && Number.isFinite(v))) throw new RangeError(`findPath: ${JSON.stringify(p)} is not a position of three finite numbers`);
  }
  const s = nearestNode(g, from, up);
  const t = nearestNode(g, to, up);
  if (s < 0 || t < 0) return null;
  const nodes = search.search(s, t);
  if (nodes === null) return null;
  return { nodes, points: nodes.map((n) => nodePosition(g, n)), cost: pathCost(g, nodes) };
}
