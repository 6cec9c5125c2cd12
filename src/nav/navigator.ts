/**
 * Navigation in a simulation: the `Goal` component (where an agent is going and how far it got), the graphs
 * of each world kept once per world and body, the flow fields kept per goal, and the `Navigator` a scenario's
 * systems use as `ctx.nav` (send an agent somewhere, stop it, ask for a path).
 *
 * Everything an agent's walk depends on is in its `Goal` component (hashed and saved with the other
 * components); the graphs and flow fields are caches, functions of the world and the goal alone, so a
 * simulation restored from a snapshot walks on exactly as the one that saved it.
 */
import { defineComponent, type ComponentOf } from '../ecs/components.js';
import type { EcsWorld } from '../ecs/ecs-world.js';
import type { CollisionWorld, Vec3 } from '../worlds/world.js';
import { buildNavGraph, nearestNode, type NavGraph } from './graph.js';
import { findPath, PathSearch, type NavPath, type PathSearchOptions } from './path.js';
import { flowField, reverseEdges, type FlowField, type ReverseEdges } from './flow-field.js';
import { FlowStepSearch } from './flow-step.js';
import { defaultNavBody, type NavBody } from './walk.js';

/**
 * Where an agent is going. `x, y, z`: the goal (native units); `active`: 1 while it is going; `status`:
 * `GoalStatus`; `target`: the graph node it walks to now (−1: to be chosen); `frames`: frames on the way to
 * `target`; `replans`: how many times it had to choose again because a step did not arrive.
 */
export const Goal = defineComponent('Goal', { x: 'f64', y: 'f64', z: 'f64', active: 'u8', status: 'u8', target: 'i32', frames: 'i32', replans: 'u32' });

/** The `Goal.status` values. */
export const GoalStatus = Object.freeze({
  /** No goal given. */
  idle: 0,
  /** Going to the goal. */
  going: 1,
  /** Standing at the goal's node. */
  arrived: 2,
  /** No path from where it stands to the goal (or either is off the graph). */
  unreachable: 3,
});

/** A graph and the caches made from it: its reversed edges, its flow fields by goal node, a search state. */
export interface NavCache {
  readonly graph: NavGraph;
  readonly reverse: ReverseEdges;
  /** Flow fields by goal node (at most `MAX_FLOW_FIELDS`, the oldest dropped first). */
  readonly fields: Map<number, FlowField>;
  readonly search: PathSearch;
}

/** How many flow fields a graph keeps (each is 12 bytes a node). */
export const MAX_FLOW_FIELDS = 64;

const caches = new WeakMap<CollisionWorld, Map<string, NavCache>>();

function bodyKey(b: NavBody): string {
  return `${b.radius},${b.height},${b.step},${b.speed}`;
}

/**
 * The navigation graph of `world` for `body` (default: `defaultNavBody`), built the first time it is asked
 * for and kept with the world (a replay, a rollback or another simulation on the same world object shares
 * it). `graph` gives one built before (read from a `.nav` file): it must have been built for this kind of
 * world and this body.
 */
export function navCacheFor(world: CollisionWorld, body: NavBody = defaultNavBody(world), graph?: NavGraph): NavCache {
  let m = caches.get(world);
  if (!m) {
    m = new Map();
    caches.set(world, m);
  }
  const key = bodyKey(body);
  let c = m.get(key);
  if (!c || (graph !== undefined && c.graph !== graph)) {
    if (graph !== undefined && (graph.kind !== world.kind || bodyKey(graph.body) !== key)) {
      throw new RangeError(`nav graph for a ${graph.kind} world and body ${bodyKey(graph.body)} does not fit the ${world.kind} world ${world.name} and body ${key}`);
    }
    const g = graph ?? buildNavGraph(world, body);
    c = { graph: g, reverse: reverseEdges(g), fields: new Map(), search: new PathSearch(g) };
    m.set(key, c);
  }
  return c;
}

/** Whether `world`'s graph for `body` was built or given already (`navCacheFor` would not build it). */
export function hasNavCache(world: CollisionWorld, body: NavBody = defaultNavBody(world)): boolean {
  return caches.get(world)?.has(bodyKey(body)) === true;
}

/** The flow field toward `goal` of a cache's graph, made once and kept (see `MAX_FLOW_FIELDS`). */
export function cachedFlowField(c: NavCache, goal: number): FlowField {
  let f = c.fields.get(goal);
  if (!f) {
    f = flowField(c.graph, goal, c.reverse);
    if (c.fields.size >= MAX_FLOW_FIELDS) c.fields.delete(c.fields.keys().next().value!);
    c.fields.set(goal, f);
  }
  return f;
}

/** Searches toward one goal (without a kept field) after which its whole flow field is made and kept. */
export const SEARCHES_BEFORE_FIELD = 32;

interface StepState {
  readonly search: FlowStepSearch;
  /** Searches made per goal node with no field kept (cleared past `MAX_KEPT`). */
  readonly searched: Map<number, number>;
  /** Steps found by the searches, by goal × nodes + node (cleared past `MAX_KEPT`). */
  readonly steps: Map<number, number>;
}
const MAX_KEPT = 1 << 20;
const stepStates = new WeakMap<NavCache, StepState>();

/**
 * The flow field's next node from node `n` toward node `goal` (`flowField(graph, goal).next[n]`: −1 at the
 * goal and where it cannot be reached). From the kept field when there is one; else from the steps kept from
 * an earlier search toward that goal; else from a search that finds the field's whole way from n to the goal
 * and stops there (flow-step.ts), whose steps are kept; past `SEARCHES_BEFORE_FIELD` searches toward one goal
 * (many agents going there) its field is made and kept. Either way the same node: which one answers is a
 * matter of speed only.
 */
export function flowStep(c: NavCache, goal: number, n: number): number {
  const f = c.fields.get(goal);
  if (f) return f.next[n]!;
  let st = stepStates.get(c);
  if (!st) {
    st = { search: new FlowStepSearch(c.graph, c.reverse), searched: new Map(), steps: new Map() };
    stepStates.set(c, st);
  }
  const key = goal * c.graph.nodeCount + n;
  const kept = st.steps.get(key);
  if (kept !== undefined) return kept;
  if (n === goal) return -1;
  const k = (st.searched.get(goal) ?? 0) + 1;
  if (k >= SEARCHES_BEFORE_FIELD) {
    st.searched.delete(goal);
    return cachedFlowField(c, goal).next[n]!;
  }
  if (st.searched.size >= MAX_KEPT) st.searched.clear();
  st.searched.set(goal, k);
  if (st.steps.size >= MAX_KEPT) st.steps.clear();
  const steps = st.steps;
  const base = goal * c.graph.nodeCount;
  let first = -1;
  st.search.way(goal, n, (from, to) => {
    steps.set(base + from, to);
    if (from === n) first = to;
  });
  return first;
}

/** What systems see as `ctx.nav`: paths on the world's graph, and agents sent to goals. */
export interface Navigator {
  /** The world's navigation graph for the agents' body (built on first use). */
  graph(): NavGraph;
  /**
   * A path between two points (see `findPath`), or null: through the graph's coarse layer where they are
   * `COARSE_FROM_CELLS` or more apart, the cheapest with `{ cheapest: true }`.
   */
  findPath(from: Readonly<Vec3>, to: Readonly<Vec3>, options?: PathSearchOptions): NavPath | null;
  /** Sends entity `e` (which has the `Goal` component) to `to`; it chooses its way at its next navigation frame. */
  setGoal(e: number, to: Readonly<Vec3>): void;
  /** Stops entity `e` where it is (its goal is dropped, its status idle). */
  clearGoal(e: number): void;
  /** Entity `e`'s `GoalStatus`. */
  status(e: number): number;
}

/** The navigator of a simulation's ECS world and collision world (the `Goal` component must be part of it for setGoal). */
export function navigatorFor(ecs: EcsWorld, world: CollisionWorld): Navigator {
  let goal: ComponentOf<typeof Goal.schema> | null = null;
  const goals = () => (goal ??= ecs.store(Goal));
  const cache = () => navCacheFor(world);
  // The cheapest search's state, made when first asked for.
  let cheapest: PathSearch | null = null;
  return {
    graph: () => cache().graph,
    findPath: (from, to, options) => {
      const c = cache();
      if (options?.cheapest !== true) return findPath(c.graph, from, to, c.search);
      if (cheapest === null || cheapest.graph !== c.graph) cheapest = new PathSearch(c.graph, { cheapest: true });
      return findPath(c.graph, from, to, cheapest);
    },
    setGoal(e, to) {
      if (!Array.isArray(to) || to.length !== 3 || !to.every((v) => typeof v === 'number' && Number.isFinite(v))) throw new RangeError(`setGoal: ${JSON.stringify(to)} is not a position of three finite numbers`);
      const g = goals();
      g.x[e] = to[0];
      g.y[e] = to[1];
      g.z[e] = to[2];
      g.active[e] = 1;
      g.status[e] = GoalStatus.going;
      g.target[e] = -1;
      g.frames[e] = 0;
    },
    clearGoal(e) {
      const g = goals();
      g.active[e] = 0;
      g.status[e] = GoalStatus.idle;
      g.target[e] = -1;
      g.frames[e] = 0;
    },
    status: (e) => goals().status[e]!,
  };
}

/** The node nearest a goal position on the cache's graph (−1 off the graph). */
export function goalNode(c: NavCache, x: number, y: number, z: number): number {
  const g = c.graph;
  return nearestNode(g, [x, y, z], (3 - g.grid.a0 - g.grid.a1) as 0 | 1 | 2);
}
