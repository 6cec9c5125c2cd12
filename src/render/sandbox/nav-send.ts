/**
 * Sending the selected agent somewhere from the map (a Shift+click): the clicked point becomes the node of the
 * world's navigation graph nearest it (on the floor nearest the agent's height), and the session sends the
 * agent there with a navigation order, an input of the run like a key press (session.ts, nav-orders.ts). Says
 * in a line what it did, or why it could not. No DOM or pixi here.
 */
import { Goal, navCacheFor } from '../../nav/navigator.js';
import { nearestNode } from '../../nav/graph.js';
import { navGridOf } from '../../nav/walk-source.js';
import type { CollisionWorld } from '../../worlds/world.js';
import { worldAt, type MapPlane } from '../scene/projection.js';
import type { Selection } from './inspection.js';
import type { SandboxSession } from './session.js';

/**
 * Grids of more cells than this ask before the first send builds their graph, since the page stops while it
 * is built (about a millisecond a cell: on a loaded machine the Piney field's 8,649 took 13 s, the GTA town's
 * 103,041 took 84 s).
 */
export const ASK_BEFORE_CELLS = 4000;

/** Worlds whose graph the user agreed to build (or that were small enough not to ask). */
const agreed = new WeakSet<CollisionWorld>();

/** What a send did: the agent and node (null when nothing was sent), and the line the page shows. */
export interface SendOutcome {
  sent: { entity: number; node: number } | null;
  text: string;
}

/** Sends the selected agent of `s` toward map point (mx, my) (see the module's description). */
export function sendSelectedTo(s: SandboxSession, sel: Selection, mx: number, my: number, plane: MapPlane): SendOutcome {
  const no = (text: string): SendOutcome => ({ sent: null, text });
  if (sel?.kind !== 'entity') return no('Select an agent first (click it), then Shift+click where it should go.');
  if (!s.canSend) {
    return no(
      s.mode === 'replay'
        ? 'A replay is shown: go live to send an agent.'
        : `Sending an agent needs the "navigate" scenario (this world runs "${s.sim.scenario.name}"): add scenario=navigate to the page's address.`,
    );
  }
  const sim = s.sim;
  const e = sel.id;
  const ecs = sim.ecs;
  if (e <= 0 || e >= ecs.capacity || ecs.alive[e] !== 1 || !ecs.has(e, ecs.store(Goal))) return no(`Entity ${e} is not an agent navigation walks: select an agent to send it.`);
  if (!agreed.has(sim.world)) {
    const grid = navGridOf(sim.world);
    const cells = grid.n0 * grid.n1;
    agreed.add(sim.world);
    if (cells > ASK_BEFORE_CELLS) {
      return no(`This world's navigation graph is built on the first send: ${cells.toLocaleString('en')} cells, about ${Math.round(cells / 1000)} s during which the page stops. Send again to build it and send.`);
    }
  }
  const g = navCacheFor(sim.world).graph;
  const c = ecs.components;
  const h = [c.Position.x[e]!, c.Position.y[e]!, c.Position.z[e]!][plane.up]!;
  const node = nearestNode(g, worldAt(plane, mx, my, h), plane.up);
  if (node < 0) return no('No walkable place there (it is off the navigation graph): Shift+click on a floor.');
  s.sendAgent(e, node);
  return { sent: { entity: e, node }, text: `Agent ${e} is sent there: it walks its planned path (purple) as the run goes on.` };
}
