/**
 * Which nodes of a navigation graph can reach which: its strongly connected components (places a body can
 * walk between both ways) and the edges between them (drops that do not climb back). A search for a goal
 * the start cannot reach would otherwise visit every node the start reaches before saying so (the whole
 * town on the GTA world, a hundred thousand nodes); with these, it says so after a walk over the
 * components, a few hundred at most on the shipped worlds.
 */
import type { NavGraph } from './graph.js';

/** A graph's components and the edges between them. */
export interface NavReach {
  /** Node n's component, 0 .. count − 1 (numbered as Tarjan's algorithm closes them, from node 0 up). */
  readonly component: Int32Array;
  /** How many components. */
  readonly count: number;
  /** Component c's successors are next[nextStart[c] .. nextStart[c + 1] − 1], ascending, without repeats. */
  readonly nextStart: Uint32Array;
  readonly next: Int32Array;
}

const reaches = new WeakMap<NavGraph, NavReach>();

/** The components of `g` (computed once per graph and kept while the graph lives). */
export function reachOf(g: NavGraph): NavReach {
  let r = reaches.get(g);
  if (!r) {
    r = strongComponents(g);
    reaches.set(g, r);
  }
  return r;
}

/**
 * The strongly connected components of `g` and the edges between them: Tarjan's algorithm without recursion
 * (a call stack of typed arrays), then the condensation's edges. With `group` (a number per node), Tarjan
 * follows only the edges inside a group, so each component lies in one group; the condensation still takes
 * every edge.
 */
export function strongComponents(g: NavGraph, group?: Int32Array): NavReach {
  const n = g.nodeCount;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const component = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callNode = new Int32Array(n);
  const callEdge = new Uint32Array(n);
  let sp = 0, cp = 0, counter = 0, count = 0;
  for (let root = 0; root < n; root++) {
    if (index[root]! >= 0) continue;
    callNode[0] = root;
    callEdge[0] = g.edgeStart[root]!;
    cp = 1;
    index[root] = low[root] = counter++;
    stack[sp++] = root;
    onStack[root] = 1;
    while (cp > 0) {
      const v = callNode[cp - 1]!;
      const k = callEdge[cp - 1]!;
      if (k < g.edgeStart[v + 1]!) {
        callEdge[cp - 1] = k + 1;
        const w = g.edgeTo[k]!;
        if (group !== undefined && group[w] !== group[v]) continue;
        if (index[w]! < 0) {
          index[w] = low[w] = counter++;
          stack[sp++] = w;
          onStack[w] = 1;
          callNode[cp] = w;
          callEdge[cp] = g.edgeStart[w]!;
          cp++;
        } else if (onStack[w] && index[w]! < low[v]!) low[v] = index[w]!;
        continue;
      }
      cp--;
      if (cp > 0) {
        const u = callNode[cp - 1]!;
        if (low[v]! < low[u]!) low[u] = low[v]!;
      }
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack[--sp]!;
          onStack[w] = 0;
          component[w] = count;
        } while (w !== v);
        count++;
      }
    }
  }
  // The condensation: each component's successors, sorted, repeats dropped (typed arrays: a graph may have
  // tens of millions of edges between components).
  const outStart = new Float64Array(count + 1);
  for (let v = 0; v < n; v++) {
    const cv = component[v]!;
    for (let k = g.edgeStart[v]!; k < g.edgeStart[v + 1]!; k++) if (component[g.edgeTo[k]!] !== cv) outStart[cv + 1]!++;
  }
  for (let c = 0; c < count; c++) outStart[c + 1]! += outStart[c]!;
  const targets = new Int32Array(outStart[count]!);
  const fill = outStart.slice(0, count);
  for (let v = 0; v < n; v++) {
    const cv = component[v]!;
    for (let k = g.edgeStart[v]!; k < g.edgeStart[v + 1]!; k++) {
      const cw = component[g.edgeTo[k]!]!;
      if (cw !== cv) targets[fill[cv]!++] = cw;
    }
  }
  const nextStart = new Uint32Array(count + 1);
  let kept = 0;
  for (let c = 0; c < count; c++) {
    const from = outStart[c]!, to = outStart[c + 1]!;
    targets.subarray(from, to).sort();
    for (let k = from; k < to; k++) if (k === from || targets[k] !== targets[k - 1]) targets[kept++] = targets[k]!;
    nextStart[c + 1] = kept;
  }
  return { component, count, nextStart, next: targets.slice(0, kept) };
}

/**
 * Whether a body at node `from` can walk to node `to` along the graph's edges. `seen` and `queue` are
 * scratch arrays of at least `count` entries; `seen` holds `stamp` for the components visited (the caller
 * changes the stamp between calls, so nothing is cleared).
 */
export function canReach(r: NavReach, from: number, to: number, seen: Uint32Array, queue: Int32Array, stamp: number): boolean {
  const a = r.component[from]!;
  const b = r.component[to]!;
  if (a === b) return true;
  // Tarjan closes a component after every component it reaches: a later number cannot be reached.
  if (b > a) return false;
  let head = 0, tail = 0;
  queue[tail++] = a;
  seen[a] = stamp;
  while (head < tail) {
    const c = queue[head++]!;
    for (let k = r.nextStart[c]!; k < r.nextStart[c + 1]!; k++) {
      const d = r.next[k]!;
      if (d === b) return true;
      // Components numbered below b are closed before it, so none of them reaches it.
      if (d < b || seen[d] === stamp) continue;
      seen[d] = stamp;
      queue[tail++] = d;
    }
  }
  return false;
}
