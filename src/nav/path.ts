/**
 * Paths on a navigation graph: A* over whole-number costs (5 along an axis, 7 diagonally) with the octile
 * heuristic on cells (5 × the longer side + 2 × the shorter), which is consistent: it never drops by more than
 * an edge costs.
 *
 * By default a search between places at least `COARSE_FROM_CELLS` apart keeps to a coarse layer
 * (`regions.ts`): it finds a chain of regions, blocks of 8 × 8
 * cells cut where the body cannot walk round inside them, from the start's to the goal's (A* over the regions),
 * walks each region's precomputed cheapest way out into the next, and searches only the goal's region with
 * A*. It is not always the cheapest path: the chain follows the regions' centres and each way out is the
 * cheapest to the next region, not toward the goal. On the shipped worlds such paths cost a few percent more
 * than the cheapest and, smoothed, are as long (the figures are in the navigation guide); on the GTA town a
 * query takes a tenth of the time, since on a grid an A* takes every node whose estimate is below the cheapest
 * cost, and where a wall bends the path even a little that is the whole band of equally short grid paths
 * around the straight line, thousands of nodes. Ask for `{ cheapest: true }` for the cheapest path (A* over
 * the whole graph).
 *
 * The open set is a binary heap ordered by (key, h, node): the lowest key first, on a tie the node nearer the
 * goal, then the lower node index, so every engine expands the same nodes in the same order and returns the
 * same path.
 */
import type { Vec3 } from '../worlds/world.js';
import { DIAGONAL_COST, STRAIGHT_COST, edgeCost, nearestNode, nodePosition, type NavGraph } from './graph.js';
import { canReach, reachOf, type NavReach } from './reach.js';
import { NO_WAY, regionsOf, type NavRegions } from './regions.js';
import { CorridorSearch } from './corridor.js';

/** A path found on a graph: its nodes from start to goal, their positions, and its cost. */
export interface NavPath {
  /** The nodes, start first, goal last (one node when start is the goal). */
  readonly nodes: readonly number[];
  /** Each node's position (native units): the places the body walks to, in order. */
  readonly points: readonly Vec3[];
  /** The sum of the edges' costs (5 along an axis, 7 diagonally). */
  readonly cost: number;
}

/**
 * A default search keeps to the coarse layer when start and goal are at least this many cells apart along
 * either axis; nearer, A* over the whole graph is about as fast and finds the cheapest path.
 */
export const COARSE_FROM_CELLS = 32;

/** Options of a `PathSearch`. */
export interface PathSearchOptions {
  /** Search for the cheapest path (A* over the whole graph): slower where many grid paths are equally short. Default false: through the coarse layer of regions. */
  cheapest?: boolean;
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
 *
 * A goal the start cannot reach is answered from the graph's components (`reachOf`) without searching. The
 * open set keeps (f, h) as one exact number, f × K + h with K above any h, beside the node: the same order as
 * comparing f, then h, then the node.
 */
export class PathSearch {
  readonly gCost: Float64Array;
  readonly parent: Int32Array;
  readonly stamp: Uint32Array;
  readonly closed: Uint32Array;
  /** Each node's cell along the grid's two axes (the heuristic and edge costs without a division). */
  private readonly cellI: Int32Array;
  private readonly cellJ: Int32Array;
  /** Above any octile distance on the grid. */
  private readonly keyScale: number;
  private heapKey: Float64Array;
  private heapNode: Int32Array;
  private gen = 0;
  private readonly reach: NavReach;
  private readonly reachSeen: Uint32Array;
  private readonly reachQueue: Int32Array;
  /** Whether this search returns the cheapest path (`PathSearchOptions.cheapest`). */
  readonly cheapest: boolean;
  /**
   * The coarse layer a default search keeps to, made on its first search between far places (none for a
   * cheapest search), which regions a search may enter, and a path's nodes along the layer before they are
   * copied into the array returned.
   */
  private regions: NavRegions | null = null;
  private corridor: CorridorSearch | null = null;
  private allowed = new Uint32Array(0);
  private trail = new Int32Array(0);
  /** Searches that went by the coarse layer, and of those, how many fell back to the whole graph (none should). */
  coarseSearches = 0;
  coarseFallbacks = 0;
  /** Nodes taken from the open set by the last search. */
  expanded = 0;
  /** The cost of the last path found (the sum of its edges' costs). */
  cost = 0;

  constructor(readonly graph: NavGraph, options: PathSearchOptions = {}) {
    this.cheapest = options.cheapest === true;
    const n = graph.nodeCount;
    const n0 = graph.grid.n0;
    this.gCost = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.closed = new Uint32Array(n);
    this.cellI = new Int32Array(n);
    this.cellJ = new Int32Array(n);
    for (let v = 0; v < n; v++) {
      const c = graph.cellOf[v]!;
      this.cellI[v] = c % n0;
      this.cellJ[v] = Math.floor(c / n0);
    }
    // f < DIAGONAL_COST × (n + the grid's side) and K ≤ DIAGONAL_COST × 2²² + 1: f × K + h stays below 2⁵³.
    this.keyScale = DIAGONAL_COST * Math.max(n0, graph.grid.n1) + 1;
    this.heapKey = new Float64Array(Math.max(16, n));
    this.heapNode = new Int32Array(Math.max(16, n));
    this.reach = reachOf(graph);
    this.reachSeen = new Uint32Array(this.reach.count);
    this.reachQueue = new Int32Array(this.reach.count);
  }

  /** The coarse layer, made the first time it is asked for; null when it has no ways out (see `NavRegions.ways`). */
  private coarse(): NavRegions | null {
    if (this.regions === null) {
      const g = this.graph;
      this.regions = regionsOf(g);
      this.corridor = new CorridorSearch(this.regions, Math.max(g.grid.n0, g.grid.n1));
      this.allowed = new Uint32Array(this.regions.count);
      this.trail = new Int32Array(g.nodeCount);
    }
    return this.regions.ways ? this.regions : null;
  }

  /** A new generation stamp (clearing the stamps when they wrap round). */
  private nextGen(): number {
    if (++this.gen === 0xffffffff) {
      this.stamp.fill(0);
      this.closed.fill(0);
      this.reachSeen.fill(0);
      this.allowed.fill(0);
      this.gen = 1;
    }
    return this.gen;
  }

  /**
   * A path's nodes from `start` to `goal` (indices of the graph), or null when none: the cheapest when the
   * search was made with `cheapest`, else through the coarse layer (see the module's description).
   */
  search(start: number, goal: number): number[] | null {
    const g = this.graph;
    if (!(start >= 0 && start < g.nodeCount && goal >= 0 && goal < g.nodeCount)) return null;
    let gen = this.nextGen();
    this.expanded = 0;
    if (!canReach(this.reach, start, goal, this.reachSeen, this.reachQueue, gen)) return null;
    const R = !this.cheapest && apart(this.cellI, this.cellJ, start, goal) >= COARSE_FROM_CELLS ? this.coarse() : null;
    if (R !== null && R.component[start] !== R.component[goal]) {
      // The chain of regions always holds a path (see regions.ts); searching the whole graph is the fallback.
      this.coarseSearches++;
      const length = this.corridor!.find(R.component[start]!, R.component[goal]!);
      const nodes = length > 0 ? this.throughChain(R, start, goal, length, gen) : null;
      if (nodes !== null) return nodes;
      this.coarseFallbacks++;
      gen = this.nextGen();
    }
    if (!this.run(start, goal, gen, false)) return null;
    this.cost = this.gCost[goal]!;
    return this.nodesTo(goal);
  }

  /**
   * The path along the corridor's last chain (`length` regions, goal's first): each region's way out to the
   * next, then A* inside the goal's region. Null only if the tables did not lead on (they always do).
   */
  private throughChain(R: NavRegions, start: number, goal: number, length: number, gen: number): number[] | null {
    const { component, nextStart, next, hopStart, hop, local } = R;
    const { graph: g, cellI, cellJ } = this;
    const chain = this.corridor!.chain;
    // The nodes go into `trail` first (a reused array), and into a new array of the path's length at the end.
    const trail = this.trail;
    let count = 0;
    trail[count++] = start;
    let v = start;
    let cost = 0;
    for (let i = length - 1; i > 0; i--) {
      const a = chain[i]!, b = chain[i - 1]!;
      let k = nextStart[a]!;
      while (k < nextStart[a + 1]! - 1 && next[k] !== b) k++;
      if (next[k] !== b) return null;
      const out = hopStart[k]!;
      while (component[v] === a) {
        const slot = hop[out + local[v]!]!;
        const e = g.edgeStart[v]! + slot;
        if (slot === NO_WAY || e >= g.edgeStart[v + 1]! || count >= g.nodeCount) return null;
        const w = g.edgeTo[e]!;
        cost += cellI[v] !== cellI[w] && cellJ[v] !== cellJ[w] ? DIAGONAL_COST : STRAIGHT_COST;
        trail[count++] = w;
        v = w;
      }
    }
    this.allowed[chain[0]!] = gen;
    if (!this.run(v, goal, gen, true)) return null;
    this.cost = cost + this.gCost[goal]!;
    // The goal region's part, from its end back to v (already in the trail).
    let tail = 0;
    for (let a = goal; a !== v; a = this.parent[a]!) tail++;
    if (count + tail > g.nodeCount) return null;
    const nodes = new Array<number>(count + tail);
    for (let k = 0; k < count; k++) nodes[k] = trail[k]!;
    for (let a = goal, k = count + tail - 1; a !== v; a = this.parent[a]!, k--) nodes[k] = a;
    return nodes;
  }

  /** The path's nodes found by the last `run`, start first. */
  private nodesTo(goal: number): number[] {
    let count = 0;
    for (let a = goal; a !== -1; a = this.parent[a]!) count++;
    const nodes = new Array<number>(count);
    for (let a = goal, k = count - 1; a !== -1; a = this.parent[a]!, k--) nodes[k] = a;
    return nodes;
  }

  /** A* from `start` to `goal` with stamp `gen`, inside the allowed regions when `inCorridor`: whether it reached the goal. */
  private run(start: number, goal: number, gen: number, inCorridor: boolean): boolean {
    const g = this.graph;
    const region = this.regions?.component, allowed = this.allowed;
    const { gCost, parent, stamp, closed, cellI, cellJ, keyScale } = this;
    const edgeStart = g.edgeStart, edgeTo = g.edgeTo;
    const ti = cellI[goal]!, tj = cellJ[goal]!;
    gCost[start] = 0;
    parent[start] = -1;
    stamp[start] = gen;
    const h0 = octileCells(cellI[start]! - ti, cellJ[start]! - tj);
    let heapKey = this.heapKey, heapNode = this.heapNode;
    heapKey[0] = h0 * keyScale + h0;
    heapNode[0] = start;
    let size = 1;
    while (size > 0) {
      // Pop the least (key, node): the last entry sifted down from the top.
      const a = heapNode[0]!;
      const last = --size;
      if (last > 0) {
        const lk = heapKey[last]!, ln = heapNode[last]!;
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          if (l >= last) break;
          const r = l + 1;
          const m = r < last && (heapKey[r]! < heapKey[l]! || (heapKey[r] === heapKey[l] && heapNode[r]! < heapNode[l]!)) ? r : l;
          if (!(heapKey[m]! < lk || (heapKey[m] === lk && heapNode[m]! < ln))) break;
          heapKey[i] = heapKey[m]!;
          heapNode[i] = heapNode[m]!;
          i = m;
        }
        heapKey[i] = lk;
        heapNode[i] = ln;
      }
      if (closed[a] === gen) continue;
      closed[a] = gen;
      this.expanded++;
      if (a === goal) break;
      const ga = gCost[a]!, ai = cellI[a]!, aj = cellJ[a]!;
      for (let k = edgeStart[a]!, end = edgeStart[a + 1]!; k < end; k++) {
        const b = edgeTo[k]!;
        if (closed[b] === gen || (inCorridor && allowed[region![b]!] !== gen)) continue;
        const bi = cellI[b]!, bj = cellJ[b]!;
        const gb = ga + (bi !== ai && bj !== aj ? DIAGONAL_COST : STRAIGHT_COST);
        if (stamp[b] !== gen || gb < gCost[b]!) {
          stamp[b] = gen;
          gCost[b] = gb;
          parent[b] = a;
          const h = octileCells(bi - ti, bj - tj);
          const key = (gb + h) * keyScale + h;
          if (size === heapNode.length) {
            heapKey = this.heapKey = grown(heapKey, new Float64Array(size * 2));
            heapNode = this.heapNode = grown(heapNode, new Int32Array(size * 2));
          }
          // Push: sift up from the end.
          let i = size++;
          while (i > 0) {
            const p = (i - 1) >> 1;
            if (!(key < heapKey[p]! || (key === heapKey[p] && b < heapNode[p]!))) break;
            heapKey[i] = heapKey[p]!;
            heapNode[i] = heapNode[p]!;
            i = p;
          }
          heapKey[i] = key;
          heapNode[i] = b;
        }
      }
    }
    return closed[goal] === gen;
  }
}

/** `to` holding `from`'s entries first. */
function grown<T extends Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** How many cells apart two nodes are along the axis where they are farther apart. */
function apart(cellI: Int32Array, cellJ: Int32Array, a: number, b: number): number {
  return Math.max(Math.abs(cellI[a]! - cellI[b]!), Math.abs(cellJ[a]! - cellJ[b]!));
}

/** The octile distance of a cell offset (di, dj) in edge costs. */
function octileCells(di: number, dj: number): number {
  if (di < 0) di = -di;
  if (dj < 0) dj = -dj;
  return di > dj ? STRAIGHT_COST * di + (DIAGONAL_COST - STRAIGHT_COST) * dj : STRAIGHT_COST * dj + (DIAGONAL_COST - STRAIGHT_COST) * di;
}

/** The cost of a path given by its nodes (the sum of its edges' costs). */
export function pathCost(g: NavGraph, nodes: readonly number[]): number {
  let c = 0;
  for (let k = 1; k < nodes.length; k++) c += edgeCost(g, g.cellOf[nodes[k - 1]!]!, g.cellOf[nodes[k]!]!);
  return c;
}

/**
 * A path from the node nearest `from` to the node nearest `to` (`nearestNode`: the cell holding the point, the
 * floor nearest its height), or null when either point has no node or no path joins them: the cheapest when
 * `search` was made with `cheapest`, else found through the graph's coarse layer (see `PathSearchOptions`). The
 * body walks it by going to each point in turn as the navigation system steers; the first point is the
 * start node, in the same cell as `from`.
 */
export function findPath(g: NavGraph, from: Readonly<Vec3>, to: Readonly<Vec3>, search: PathSearch = new PathSearch(g)): NavPath | null {
  if (search.graph !== g) throw new RangeError('findPath: the search state belongs to another graph');
  const up = (3 - g.grid.a0 - g.grid.a1) as 0 | 1 | 2;
  checkPosition(from);
  checkPosition(to);
  const s = nearestNode(g, from, up);
  const t = nearestNode(g, to, up);
  if (s < 0 || t < 0) return null;
  const nodes = search.search(s, t);
  if (nodes === null) return null;
  const points: Vec3[] = new Array<Vec3>(nodes.length);
  for (let k = 0; k < nodes.length; k++) points[k] = nodePosition(g, nodes[k]!);
  return { nodes, points, cost: search.cost };
}

function checkPosition(p: Readonly<Vec3>): void {
  let ok = Array.isArray(p) && p.length === 3;
  for (let k = 0; ok && k < 3; k++) ok = typeof p[k] === 'number' && Number.isFinite(p[k]);
  if (!ok) throw new RangeError(`findPath: ${JSON.stringify(p)} is not a position of three finite numbers`);
}
