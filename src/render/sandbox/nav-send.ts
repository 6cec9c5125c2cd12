/**
 * Sending the selected agent somewhere from the map (a Shift+click): the clicked point becomes a node of the
 * world's navigation graph (`nodeNearClick`: the clicked cell's, on the floor nearest the agent's height, else
 * the nearest within two cells), and the session sends the
 * agent there with a navigation order, an input of the run like a key press (session.ts, nav-orders.ts). A
 * world whose graph is not built yet has it built a slice at a time while the page goes on (`NavSender.pump`,
 * each animation frame), and the send goes out when it is whole. Says in a line what it did, or why it could
 * not. No DOM or pixi here.
 */
import { Goal, GoalStatus, hasNavCache, navCacheFor } from '../../nav/navigator.js';
import { nearestNode, NavGraphBuilder, type NavGraph } from '../../nav/graph.js';
import { canReach, reachOf } from '../../nav/reach.js';
import { walkSourceOf } from '../../nav/walk-source.js';
import { defaultNavBody } from '../../nav/walk.js';
import type { CollisionWorld, Vec3 } from '../../worlds/world.js';
import { worldAt, type MapPlane } from '../scene/projection.js';
import type { Selection } from './inspection.js';
import type { SandboxSession } from './session.js';

/** What a send did: the agent and node (null when nothing was sent yet), and the line the page shows. */
export interface SendOutcome {
  sent: { entity: number; node: number } | null;
  text: string;
}

/** A send waiting for its world's graph. */
interface Waiting {
  readonly session: SandboxSession;
  readonly world: CollisionWorld;
  readonly entity: number;
  readonly mx: number;
  readonly my: number;
  readonly plane: MapPlane;
  readonly builder: NavGraphBuilder;
  /** The tenth of the build last told (so the line changes ten times, not every frame). */
  told: number;
  /** Pumps (animation frames) the build has had so far. */
  frames: number;
}

/** Graph units (a cell's standing places or a node's walks) done between two looks at the page's clock. */
const UNITS_PER_LOOK = 8;

/**
 * The sends of one page: a send on a world whose graph is built goes out at once; otherwise the graph is
 * built in slices (`pump`) and the send waits for it (a newer send replaces a waiting one; the build goes on).
 */
export class NavSender {
  private waiting: Waiting | null = null;
  /** Graphs built whole for a send so far, and the animation frames the last one took (it never stops the page). */
  builds = 0;
  lastBuildFrames = 0;

  /** How far the graph a send waits for is built (0..1), or null when none waits. */
  get building(): number | null {
    return this.waiting ? this.waiting.builder.progress : null;
  }

  /** Sends the selected agent of `s` toward map point (mx, my), or starts building the graph the send needs. */
  send(s: SandboxSession, sel: Selection, mx: number, my: number, plane: MapPlane): SendOutcome {
    const entity = agentOf(s, sel);
    if (typeof entity === 'string') return { sent: null, text: entity };
    const world = s.sim.world;
    if (hasNavCache(world)) {
      this.waiting = null;
      return sendNow(s, entity, mx, my, plane);
    }
    const same = this.waiting?.world === world ? this.waiting.builder : null;
    const builder = same ?? new NavGraphBuilder(walkSourceOf(world, defaultNavBody(world)), world.name);
    const cells = builder.cells;
    this.waiting = { session: s, world, entity, mx, my, plane, builder, told: -1, frames: same ? this.waiting!.frames : 0 };
    return { sent: null, text: `Building this world's navigation graph first (${cells.toLocaleString('en')} cells, ${Math.floor(builder.progress * 100)} %); the run goes on, and agent ${entity} is sent when it is built.` };
  }

  /**
   * Builds the waiting send's graph on until `enough()` says the frame's share is spent; once it is whole,
   * the send goes out. A send from a session no longer `shown` is forgotten. Returns a line to show (progress every tenth, or what the send did), else null.
   */
  pump(shown: SandboxSession | null, enough: () => boolean): SendOutcome | null {
    const w = this.waiting;
    if (!w) return null;
    if (w.session !== shown) {
      // another world or run is shown: the send is forgotten (its graph, half built, with it)
      this.waiting = null;
      return null;
    }
    w.frames++;
    let g = null;
    do g = w.builder.advance(UNITS_PER_LOOK);
    while (g === null && !enough());
    if (g === null) {
      const tenth = Math.floor(w.builder.progress * 10);
      if (tenth === w.told) return null;
      w.told = tenth;
      return { sent: null, text: `Building this world's navigation graph: ${tenth * 10} % of ${w.builder.cells.toLocaleString('en')} cells; agent ${w.entity} is sent when it is built.` };
    }
    this.waiting = null;
    this.builds++;
    this.lastBuildFrames = w.frames;
    navCacheFor(w.world, defaultNavBody(w.world), g);
    const refused = agentOf(w.session, { kind: 'entity', id: w.entity });
    if (typeof refused === 'string') return { sent: null, text: `The navigation graph is built, but the send did not go: ${refused}` };
    return sendNow(w.session, w.entity, w.mx, w.my, w.plane);
  }
}

/** The selected agent, or why the selection cannot be sent from this session. */
function agentOf(s: SandboxSession, sel: Selection): number | string {
  if (sel?.kind !== 'entity') return 'Select an agent first (click it), then Shift+click where it should go.';
  if (!s.canSend) {
    return s.mode === 'replay'
      ? 'A replay is shown: go live to send an agent.'
      : `Sending an agent needs the "navigate" scenario (this world runs "${s.sim.scenario.name}"): add scenario=navigate to the page's address.`;
  }
  const e = sel.id;
  const ecs = s.sim.ecs;
  if (e <= 0 || e >= ecs.capacity || ecs.alive[e] !== 1 || !ecs.has(e, ecs.store(Goal))) return `Entity ${e} is not an agent navigation walks: select an agent to send it.`;
  return e;
}

/** Sends agent `e` to the node nearest map point (mx, my) at its height; the graph is built. */
function sendNow(s: SandboxSession, e: number, mx: number, my: number, plane: MapPlane): SendOutcome {
  const sim = s.sim;
  const g = navCacheFor(sim.world).graph;
  const c = sim.ecs.components;
  const h = [c.Position.x[e]!, c.Position.y[e]!, c.Position.z[e]!][plane.up]!;
  const node = nodeNearClick(g, worldAt(plane, mx, my, h), plane.up);
  if (node < 0) return { sent: null, text: 'No walkable place there (it is off the navigation graph): Shift+click on a floor.' };
  // An agent that stands on the graph and cannot reach the node would only be marked unreachable: say so now.
  const from = nearestNode(g, [c.Position.x[e]!, c.Position.y[e]!, c.Position.z[e]!], plane.up);
  if (from >= 0) {
    const r = reachOf(g);
    if (!canReach(r, from, node, new Uint32Array(r.count), new Int32Array(r.count), 1)) {
      return { sent: null, text: `Agent ${e} has no way from where it stands to there (a ledge it cannot climb, a part of the world apart): Shift+click a place it can walk to.` };
    }
  }
  s.sendAgent(e, node);
  return { sent: { entity: e, node }, text: `Agent ${e} is sent there: it walks its planned path (purple) as the run goes on.` };
}

/** How many cells around the clicked one a click looks for a node when its own cell has none. */
export const CLICK_NODE_CELLS = 2;

/**
 * The node for a click at `p`: the clicked cell's (on the floor nearest p's height), else the node nearest p
 * across the cells within CLICK_NODE_CELLS of it (floor right beside a wall, where a body cannot stand, has no
 * node of its own). Ties go to the first found, cells in row order: the same click gives the same node.
 */
export function nodeNearClick(g: NavGraph, p: Readonly<Vec3>, up: 0 | 1 | 2): number {
  const own = nearestNode(g, p, up);
  if (own >= 0) return own;
  const { a0, a1, origin0, origin1, cell, n0, n1 } = g.grid;
  const i = Math.floor((p[a0] - origin0) / cell);
  const j = Math.floor((p[a1] - origin1) / cell);
  let best = -1;
  let bestD = Infinity;
  for (let dj = -CLICK_NODE_CELLS; dj <= CLICK_NODE_CELLS; dj++) {
    for (let di = -CLICK_NODE_CELLS; di <= CLICK_NODE_CELLS; di++) {
      const ci = i + di, cj = j + dj;
      if (ci < 0 || cj < 0 || ci >= n0 || cj >= n1) continue;
      const c = ci + cj * n0;
      for (let n = g.cellStart[c]!; n < g.cellStart[c + 1]!; n++) {
        const d0 = g.pos[3 * n + a0]! - p[a0], d1 = g.pos[3 * n + a1]! - p[a1], du = g.pos[3 * n + up]! - p[up];
        const d = d0 * d0 + d1 * d1 + du * du;
        if (d < bestD) {
          bestD = d;
          best = n;
        }
      }
    }
  }
  return best;
}

/**
 * Sends the selected agent of `s` toward map point (mx, my) on a world whose graph may be built here and now
 * (the page stops while it is): what a script or a test calls; the page goes through a `NavSender`.
 */
export function sendSelectedTo(s: SandboxSession, sel: Selection, mx: number, my: number, plane: MapPlane): SendOutcome {
  const e = agentOf(s, sel);
  return typeof e === 'string' ? { sent: null, text: e } : sendNow(s, e, mx, my, plane);
}

/**
 * What became of agent `sent.entity` sent to `sent.node`, once something did: "arrived", "found no way on", or
 * gone; null while it is still on its way (or its goal was changed by another send). The page replaces the
 * "is sent there" line with it.
 */
export function sendNews(s: SandboxSession, sent: { entity: number; node: number }): string | null {
  const ecs = s.sim.ecs;
  const e = sent.entity;
  if (e <= 0 || e >= ecs.capacity || ecs.alive[e] !== 1) return `Agent ${e} is gone.`;
  const goal = ecs.store(Goal);
  if (!hasNavCache(s.sim.world)) return null;
  // Sent elsewhere since (its goal is another node's place): that send's line is the page's now.
  const g = navCacheFor(s.sim.world).graph;
  if (goal.x[e] !== g.pos[3 * sent.node] || goal.y[e] !== g.pos[3 * sent.node + 1] || goal.z[e] !== g.pos[3 * sent.node + 2]) return null;
  if (goal.status[e] === GoalStatus.arrived) return `Agent ${e} arrived, and wanders on from there.`;
  if (goal.status[e] === GoalStatus.unreachable) return `Agent ${e} found no way on to where it was sent (it was pushed or fell somewhere apart).`;
  return null;
}
