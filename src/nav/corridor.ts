/**
 * The chain of regions a default path search keeps to (`regions.ts`): an A* over the regions, each step
 * costing the octile distance between the regions' centres (at least 1), with the octile distance to the
 * goal region's centre as its heuristic (consistent, as the octile distance keeps the triangle inequality).
 * The open set is ordered by (f, h, region), as the graph's search is: the same chain on every engine.
 */
import { DIAGONAL_COST, STRAIGHT_COST } from './graph.js';
import type { NavRegions } from './regions.js';

/** Reusable state of the region search for one graph's regions: typed arrays, a generation stamp. */
export class CorridorSearch {
  private readonly gCost: Float64Array;
  private readonly parent: Int32Array;
  private readonly stamp: Uint32Array;
  private readonly closed: Uint32Array;
  private readonly heapKey: Float64Array;
  private readonly heapNode: Int32Array;
  private readonly keyScale: number;
  private gen = 0;
  /** Regions taken from the open set by the last search. */
  expanded = 0;

  constructor(readonly regions: NavRegions, gridSide: number) {
    const n = regions.count;
    this.gCost = new Float64Array(n);
    this.parent = new Int32Array(n);
    this.stamp = new Uint32Array(n);
    this.closed = new Uint32Array(n);
    // Each region is pushed at most once per edge into it, and once as the start.
    this.heapKey = new Float64Array(regions.next.length + 1);
    this.heapNode = new Int32Array(regions.next.length + 1);
    this.keyScale = DIAGONAL_COST * gridSide + 1;
    this.chain = new Int32Array(n);
  }

  /** The last chain found, goal region first (`find` returns its length). */
  readonly chain: Int32Array;

  /** The cheapest chain of regions from region `from` to region `to` into `chain` (goal first): its length, 0 when none. */
  find(from: number, to: number): number {
    const R = this.regions;
    if (++this.gen === 0xffffffff) {
      this.stamp.fill(0);
      this.closed.fill(0);
      this.gen = 1;
    }
    const gen = this.gen;
    const { gCost, parent, stamp, closed, heapKey, heapNode, keyScale } = this;
    const { centreI, centreJ, nextStart, next } = R;
    const ti = centreI[to]!, tj = centreJ[to]!;
    this.expanded = 0;
    gCost[from] = 0;
    parent[from] = -1;
    stamp[from] = gen;
    const h0 = octile(centreI[from]! - ti, centreJ[from]! - tj);
    heapKey[0] = h0 * keyScale + h0;
    heapNode[0] = from;
    let size = 1;
    while (size > 0) {
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
      if (a === to) break;
      const ga = gCost[a]!, ai = centreI[a]!, aj = centreJ[a]!;
      for (let k = nextStart[a]!, end = nextStart[a + 1]!; k < end; k++) {
        const b = next[k]!;
        if (closed[b] === gen) continue;
        const bi = centreI[b]!, bj = centreJ[b]!;
        const gb = ga + Math.max(1, octile(bi - ai, bj - aj));
        if (stamp[b] !== gen || gb < gCost[b]!) {
          stamp[b] = gen;
          gCost[b] = gb;
          parent[b] = a;
          const h = octile(bi - ti, bj - tj);
          const key = (gb + h) * keyScale + h;
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
    if (closed[to] !== gen) return 0;
    let length = 0;
    for (let r = to; r !== -1; r = parent[r]!) this.chain[length++] = r;
    return length;
  }
}

/** The octile distance of a cell offset in edge costs. */
function octile(di: number, dj: number): number {
  if (di < 0) di = -di;
  if (dj < 0) dj = -dj;
  return di > dj ? STRAIGHT_COST * di + (DIAGONAL_COST - STRAIGHT_COST) * dj : STRAIGHT_COST * dj + (DIAGONAL_COST - STRAIGHT_COST) * di;
}
