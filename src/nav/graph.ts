/**
 * The navigation graph of a world for one body: a node per place the body stands (a cell's centre on one of
 * its floors), an edge from a node to a neighbouring cell's node when the body, walking as the navigation
 * system steers it, arrives there to the bit (`WalkSource.step`). Built once, cell by cell and direction by
 * direction in a fixed order, from exact comparisons of the world's own answers: the same graph on every
 * engine.
 *
 * Edges are directed (a step down a ledge need not climb back) and cost 5 along an axis, 7 diagonally (whole
 * numbers, so that sums are exact and A* has one answer).
 */
import type { CollisionWorld, Vec3, WorldKind } from '../worlds/world.js';
import { cellCentre, walkSourceOf, MAX_NAV_LEVELS, type NavGrid, type WalkSource } from './walk-source.js';
import type { NavBody } from './walk.js';

/** The eight neighbour directions, in the fixed order edges are tried and stored: axes first, then diagonals. */
export const NAV_DIRECTIONS: readonly (readonly [number, number])[] = Object.freeze([
  [1, 0], [-1, 0], [0, 1], [0, -1],
  [1, 1], [1, -1], [-1, 1], [-1, -1],
].map((d) => Object.freeze(d as [number, number])));

/** An edge's cost along an axis. */
export const STRAIGHT_COST = 5;
/** An edge's cost along a diagonal (7 / 5 = 1.4, just under √2). */
export const DIAGONAL_COST = 7;

/** A navigation graph: nodes (standing places) by cell, and the directed edges a body walks. */
export interface NavGraph {
  /** The kind of world it was built on. */
  readonly kind: WorldKind;
  /** A free label of the world (its name or identity), saved with the graph. */
  readonly tag: string;
  readonly grid: NavGrid;
  readonly body: NavBody;
  /** How many nodes. */
  readonly nodeCount: number;
  /** Node n's cell: i + j × n0. Ascending over the nodes. */
  readonly cellOf: Uint32Array;
  /** Node n's position at 3n .. 3n + 2 (native units). */
  readonly pos: Float64Array;
  /** Cell c's nodes are cellStart[c] .. cellStart[c + 1] − 1 (highest floor first). */
  readonly cellStart: Uint32Array;
  /** Node n's edges are edgeTo[edgeStart[n] .. edgeStart[n + 1] − 1], in `NAV_DIRECTIONS` order. */
  readonly edgeStart: Uint32Array;
  /** Each edge's target node. */
  readonly edgeTo: Uint32Array;
}

/** Options of `buildNavGraph`. */
export interface NavBuildOptions {
  /** A cell's side in native units (default: the kind's `NAV_CELL_METRES`). */
  cell?: number;
  /** The label saved with the graph (default: the world's name). */
  tag?: string;
}

/** The position of node `n` as a new Vec3. */
export function nodePosition(g: NavGraph, n: number): Vec3 {
  return [g.pos[3 * n]!, g.pos[3 * n + 1]!, g.pos[3 * n + 2]!];
}

/** The cell (i, j) of node `n`. */
export function nodeCell(g: NavGraph, n: number): [number, number] {
  const c = g.cellOf[n]!;
  return [c % g.grid.n0, Math.floor(c / g.grid.n0)];
}

/** The cost of the edge from cell c to the neighbouring cell d (5 along an axis, 7 diagonally). */
export function edgeCost(g: NavGraph, c: number, d: number): number {
  const n0 = g.grid.n0;
  return c % n0 !== d % n0 && Math.floor(c / n0) !== Math.floor(d / n0) ? DIAGONAL_COST : STRAIGHT_COST;
}

/**
 * Builds the navigation graph of `world` for `body` through the world's walkability source (`walkSourceOf`):
 * every cell's standing places, then from each, in `NAV_DIRECTIONS` order, a walk to each neighbouring cell.
 * Throws a RangeError for a body or grid the world cannot take.
 */
export function buildNavGraph(world: CollisionWorld, body: NavBody, options: NavBuildOptions = {}): NavGraph {
  return buildFromSource(walkSourceOf(world, body, options.cell), options.tag ?? world.name);
}

/** `buildNavGraph` from a walkability source. */
export function buildFromSource(src: WalkSource, tag: string): NavGraph {
  const b = new NavGraphBuilder(src, tag);
  for (;;) {
    const g = b.advance(Infinity);
    if (g !== null) return g;
  }
}

/**
 * A navigation graph built a slice at a time, so that a page can go on drawing while a large world's graph
 * is made: `advance(work)` does about `work` units (a cell's standing places, or one node's walks to its
 * neighbours) and returns the graph once it is whole. The graph is `buildFromSource`'s, to the bit, whatever
 * the slices.
 */
export class NavGraphBuilder {
  /** The grid's cells. */
  readonly cells: number;
  private readonly cellStart: Uint32Array;
  private readonly cellOf: number[] = [];
  private readonly pos: number[] = [];
  private edgeStart: Uint32Array | null = null;
  private readonly edgeTo: number[] = [];
  private readonly from: Vec3 = [0, 0, 0];
  /** The next cell whose standing places are asked for (`cells` once all were). */
  private c = 0;
  /** The next node whose edges are walked. */
  private a = 0;
  private done: NavGraph | null = null;

  constructor(
    private readonly src: WalkSource,
    private readonly tag: string,
  ) {
    this.cells = src.grid.n0 * src.grid.n1;
    this.cellStart = new Uint32Array(this.cells + 1);
  }

  /** How far the build is, 0 to 1: the standing places count for the first tenth, the walks for the rest. */
  get progress(): number {
    if (this.done) return 1;
    if (this.edgeStart === null) return (0.1 * this.c) / Math.max(1, this.cells);
    return 0.1 + (0.9 * this.a) / Math.max(1, this.cellOf.length);
  }

  /** Does about `work` units more (at least one); the graph once whole, else null. */
  advance(work: number): NavGraph | null {
    if (this.done) return this.done;
    const { grid } = this.src;
    const { cellStart, cellOf, pos, cells } = this;
    let left = Math.max(1, work);
    while (this.c < cells && left > 0) {
      const c = this.c++;
      left--;
      cellStart[c] = cellOf.length;
      const stands = this.src.stands(c % grid.n0, Math.floor(c / grid.n0));
      for (const p of stands.slice(0, MAX_NAV_LEVELS)) {
        cellOf.push(c);
        pos.push(p[0], p[1], p[2]);
      }
    }
    if (this.c < cells) return null;
    const n = cellOf.length;
    if (this.edgeStart === null) {
      cellStart[cells] = n;
      this.edgeStart = new Uint32Array(n + 1);
    }
    const { edgeStart, edgeTo, from } = this;
    while (this.a < n && left > 0) {
      const a = this.a++;
      left--;
      edgeStart[a] = edgeTo.length;
      const c = cellOf[a]!;
      const i = c % grid.n0;
      const j = Math.floor(c / grid.n0);
      from[0] = pos[3 * a]!;
      from[1] = pos[3 * a + 1]!;
      from[2] = pos[3 * a + 2]!;
      for (const [di, dj] of NAV_DIRECTIONS) {
        const ni = i + di;
        const nj = j + dj;
        if (ni < 0 || nj < 0 || ni >= grid.n0 || nj >= grid.n1) continue;
        const d = ni + nj * grid.n0;
        if (cellStart[d] === cellStart[d + 1]) continue;
        const at = this.src.step(from, ni, nj);
        if (at === null) continue;
        for (let b = cellStart[d]!; b < cellStart[d + 1]!; b++) {
          if (pos[3 * b] === at[0] && pos[3 * b + 1] === at[1] && pos[3 * b + 2] === at[2]) {
            edgeTo.push(b);
            break;
          }
        }
      }
    }
    if (this.a < n) return null;
    edgeStart[n] = edgeTo.length;
    const src = this.src;
    this.done = {
      kind: src.world.kind,
      tag: this.tag,
      grid,
      body: { radius: src.body.radius, height: src.body.height, step: src.body.step, speed: src.body.speed },
      nodeCount: n,
      cellOf: Uint32Array.from(cellOf),
      pos: Float64Array.from(pos),
      cellStart,
      edgeStart,
      edgeTo: Uint32Array.from(edgeTo),
    };
    return this.done;
  }
}

/** The node of cell `c` whose position is `p` to the bit, or −1. */
export function nodeAt(g: NavGraph, c: number, p: Readonly<Vec3>): number {
  for (let b = g.cellStart[c]!; b < g.cellStart[c + 1]!; b++) {
    if (g.pos[3 * b] === p[0] && g.pos[3 * b + 1] === p[1] && g.pos[3 * b + 2] === p[2]) return b;
  }
  return -1;
}

/**
 * The node nearest a point: in the cell that holds it, the node whose height is nearest (the higher on a
 * tie); −1 when the point is outside the grid or its cell has no node.
 */
export function nearestNode(g: NavGraph, p: Readonly<Vec3>, upAxis: 0 | 1 | 2): number {
  const { a0, a1, origin0, origin1, cell, n0, n1 } = g.grid;
  const i = Math.floor((p[a0] - origin0) / cell);
  const j = Math.floor((p[a1] - origin1) / cell);
  if (!(i >= 0 && j >= 0 && i < n0 && j < n1)) return -1;
  const c = i + j * n0;
  let best = -1;
  let bestD = Infinity;
  for (let b = g.cellStart[c]!; b < g.cellStart[c + 1]!; b++) {
    const d = Math.abs(g.pos[3 * b + upAxis]! - p[upAxis]);
    if (d < bestD) {
      bestD = d;
      best = b;
    }
  }
  return best;
}

/** The centre of cell (i, j) on the grid's two axes. */
export function gridCentre(grid: NavGrid, i: number, j: number): [number, number] {
  return [cellCentre(grid.origin0, grid.cell, i), cellCentre(grid.origin1, grid.cell, j)];
}

/** A short count of a graph, for logs and the CLI: nodes, edges, cells and how many cells have a node. */
export function graphSummary(g: NavGraph): { nodes: number; edges: number; cells: number; cellsWithNodes: number } {
  let used = 0;
  const cells = g.grid.n0 * g.grid.n1;
  for (let c = 0; c < cells; c++) if (g.cellStart[c + 1]! > g.cellStart[c]!) used++;
  return { nodes: g.nodeCount, edges: g.edgeTo.length, cells, cellsWithNodes: used };
}
