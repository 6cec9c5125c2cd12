/**
 * A coarse layer over a navigation graph: the grid cut into blocks of `REGION_CELLS` × `REGION_CELLS` cells,
 * and each block's nodes cut into regions, the strongly connected components of the edges inside the block
 * (a body walks between any two places of a region without leaving the block). Regions are joined where an
 * edge of the graph joins them.
 *
 * A default path search first finds a chain of regions from the start's to the goal's (`CorridorSearch`),
 * then searches the graph only inside that chain. Since a region's places all reach one another inside it,
 * and each step of the chain is an edge, the chain always holds a path: the search inside it never fails.
 */
import { edgeCost, type NavGraph } from './graph.js';
import { strongComponents, type NavReach } from './reach.js';

/** A block's side in cells (4 m on the GTA town's half-metre cells). */
export const REGION_CELLS = 8;

/**
 * A graph's regions: its nodes' regions (`component`), the edges between regions (`nextStart`, `next`), each
 * region's centre cell, and for each edge between regions a way out: from every node of the region, the next
 * node on the cheapest walk inside it to the neighbouring region.
 */
export interface NavRegions extends NavReach {
  /** Region r's centre: the mean of its nodes' cells along each axis, rounded down. */
  readonly centreI: Int32Array;
  readonly centreJ: Int32Array;
  /** Node v's place among its region's nodes (ascending node order). */
  readonly local: Int32Array;
  /**
   * For the k-th edge between regions (from region r to `next[k]`): from r's node v of place p, the way out
   * takes v's edge number `hop[hopStart[k] + p]` (0 for its first edge), to a node of r, or of `next[k]` from
   * a node with an edge into it.
   */
  readonly hopStart: Uint32Array;
  readonly hop: Uint8Array;
  /**
   * Whether the ways out were worked out: false when they would take more than `MAX_WAYS_PER_NODE` entries a
   * node (a graph whose regions each border dozens of others); a search then uses the whole graph.
   */
  readonly ways: boolean;
}

/**
 * The most ways-out entries a node may cost (a byte each; the shipped worlds take 6–8). A graph that parses can
 * ask for nearly 200 (each block's few strongly joined nodes beside many one-way dead ends): such a graph
 * gets no ways out rather than a table many times its own size.
 */
export const MAX_WAYS_PER_NODE = 32;

const cache = new WeakMap<NavGraph, NavRegions>();

/** The regions of `g` (computed once per graph and kept while the graph lives). */
export function regionsOf(g: NavGraph): NavRegions {
  let r = cache.get(g);
  if (!r) {
    r = computeRegions(g);
    cache.set(g, r);
  }
  return r;
}

function computeRegions(g: NavGraph): NavRegions {
  const n = g.nodeCount;
  const n0 = g.grid.n0;
  const blocks0 = Math.ceil(n0 / REGION_CELLS);
  const block = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    const c = g.cellOf[v]!;
    block[v] = Math.floor((c % n0) / REGION_CELLS) + Math.floor(Math.floor(c / n0) / REGION_CELLS) * blocks0;
  }
  const comps = strongComponents(g, block);
  const sumI = new Float64Array(comps.count);
  const sumJ = new Float64Array(comps.count);
  const size = new Float64Array(comps.count);
  for (let v = 0; v < n; v++) {
    const c = g.cellOf[v]!;
    const r = comps.component[v]!;
    sumI[r]! += c % n0;
    sumJ[r]! += Math.floor(c / n0);
    size[r]!++;
  }
  const centreI = new Int32Array(comps.count);
  const centreJ = new Int32Array(comps.count);
  for (let r = 0; r < comps.count; r++) {
    centreI[r] = Math.floor(sumI[r]! / size[r]!);
    centreJ[r] = Math.floor(sumJ[r]! / size[r]!);
  }
  return { ...comps, centreI, centreJ, ...waysOut(g, comps, size) };
}

/**
 * Each region's ways out (see `NavRegions.hop`): per edge between regions, Dijkstra inside the region from the
 * nodes with an edge into the neighbour (each starting at that edge's cost: the cheapest, the first in
 * direction order on a tie) backward along the region's edges, the least (cost, place) first. Every node of
 * a region reaches every other inside it, so every node gets a next node.
 */
function waysOut(g: NavGraph, comps: NavReach, size: Float64Array): { local: Int32Array; hopStart: Uint32Array; hop: Uint8Array; ways: boolean } {
  const n = g.nodeCount;
  const { component, count, nextStart, next } = comps;
  // The regions' nodes, ascending within each region.
  const nodeStart = new Uint32Array(count + 1);
  for (let r = 0; r < count; r++) nodeStart[r + 1] = nodeStart[r]! + size[r]!;
  const nodes = new Int32Array(n);
  const local = new Int32Array(n);
  const fill = new Uint32Array(count);
  for (let v = 0; v < n; v++) {
    const r = component[v]!;
    local[v] = fill[r]!;
    nodes[nodeStart[r]! + fill[r]!++] = v;
  }
  // The table's size first, in exact doubles (a Uint32 could wrap on a hostile graph).
  let entries = 0;
  for (let r = 0; r < count; r++) entries += (nextStart[r + 1]! - nextStart[r]!) * size[r]!;
  // (and an edge's number must fit a byte: a graph of this format has at most 8 a node)
  let degree = 0;
  for (let v = 0; v < n; v++) degree = Math.max(degree, g.edgeStart[v + 1]! - g.edgeStart[v]!);
  if (entries > MAX_WAYS_PER_NODE * n || degree >= NO_WAY) return { local, hopStart: new Uint32Array(1), hop: new Uint8Array(0), ways: false };
  const hopStart = new Uint32Array(next.length + 1);
  for (let r = 0; r < count; r++) for (let k = nextStart[r]!; k < nextStart[r + 1]!; k++) hopStart[k + 1] = hopStart[k]! + size[r]!;
  const hop = new Uint8Array(entries).fill(NO_WAY);
  let biggest = 0, mostEdges = 0;
  for (let r = 0; r < count; r++) {
    biggest = Math.max(biggest, size[r]!);
    let edges = 0;
    for (let v = nodeStart[r]!; v < nodeStart[r + 1]!; v++) edges += g.edgeStart[nodes[v]! + 1]! - g.edgeStart[nodes[v]!]!;
    mostEdges = Math.max(mostEdges, edges);
  }
  // Scratch sized to the biggest region: its edges reversed (by place, with the edge's number among its
  // source's edges), costs, and a heap of (cost, place): keys cost × key + place, exact in doubles.
  const key = Math.max(1, biggest);
  const revStart = new Uint32Array(biggest + 1);
  const revFrom = new Int32Array(mostEdges);
  const revSlot = new Uint8Array(mostEdges);
  const revCost = new Uint8Array(mostEdges);
  const dist = new Float64Array(biggest);
  const done = new Uint8Array(biggest);
  const heapKey = new Float64Array(biggest + mostEdges);
  for (let r = 0; r < count; r++) {
    const base = nodeStart[r]!, m = size[r]!;
    // The region's inside edges, reversed: for each place, the places with an edge to it.
    revStart.fill(0, 0, m + 1);
    for (let p = 0; p < m; p++) {
      const v = nodes[base + p]!;
      for (let e = g.edgeStart[v]!; e < g.edgeStart[v + 1]!; e++) if (component[g.edgeTo[e]!] === r) revStart[local[g.edgeTo[e]!]! + 1]!++;
    }
    for (let p = 0; p < m; p++) revStart[p + 1]! += revStart[p]!;
    const at = revStart.slice(0, m);
    for (let p = 0; p < m; p++) {
      const v = nodes[base + p]!;
      for (let e = g.edgeStart[v]!; e < g.edgeStart[v + 1]!; e++) {
        const w = g.edgeTo[e]!;
        if (component[w] !== r) continue;
        const q = local[w]!;
        revFrom[at[q]!] = p;
        revSlot[at[q]!] = e - g.edgeStart[v]!;
        revCost[at[q]!++] = edgeCost(g, g.cellOf[v]!, g.cellOf[w]!);
      }
    }
    for (let k = nextStart[r]!; k < nextStart[r + 1]!; k++) {
      const to = next[k]!, out = hopStart[k]!;
      let heap = 0;
      for (let p = 0; p < m; p++) {
        done[p] = 0;
        dist[p] = Infinity;
        const v = nodes[base + p]!;
        for (let e = g.edgeStart[v]!; e < g.edgeStart[v + 1]!; e++) {
          const w = g.edgeTo[e]!;
          if (component[w] !== to) continue;
          const c = edgeCost(g, g.cellOf[v]!, g.cellOf[w]!);
          if (c < dist[p]!) {
            dist[p] = c;
            hop[out + p] = e - g.edgeStart[v]!;
          }
        }
        if (dist[p]! < Infinity) heap = heapPush(heapKey, heap, dist[p]! * key + p);
      }
      while (heap > 0) {
        const least = heapKey[0]!;
        heap = heapPop(heapKey, heap);
        const p = least % key;
        if (done[p]) continue;
        done[p] = 1;
        for (let e = revStart[p]!; e < revStart[p + 1]!; e++) {
          const x = revFrom[e]!;
          const d = dist[p]! + revCost[e]!;
          if (!done[x] && d < dist[x]!) {
            dist[x] = d;
            hop[out + x] = revSlot[e]!;
            heap = heapPush(heapKey, heap, d * key + x);
          }
        }
      }
    }
  }
  return { local, hopStart, hop, ways: true };
}

/** A hop not set (a node with no way out: none, as every node of a region reaches the others). */
export const NO_WAY = 255;

/** Pushes `key` on the binary min-heap `h` of `size` entries: the new size. */
function heapPush(h: Float64Array, size: number, key: number): number {
  let i = size;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (h[p]! <= key) break;
    h[i] = h[p]!;
    i = p;
  }
  h[i] = key;
  return size + 1;
}

/** Removes the least key of the heap `h` of `size` entries: the new size. */
function heapPop(h: Float64Array, size: number): number {
  const last = h[--size]!;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    const m = l + 1 < size && h[l + 1]! < h[l]! ? l + 1 : l;
    if (h[m]! >= last) break;
    h[i] = h[m]!;
    i = m;
  }
  if (size > 0) h[i] = last;
  return size;
}
