/**
 * The selected agent's planned path: where an agent sent somewhere by navigation (its `Goal` active) will walk
 * from here, as the navigation system walks it: from where it stands to the node it walks to now, then node by
 * node along the flow field toward its goal's node. Read from the simulation between frames, never written
 * (the flow field is the one the navigation system keeps for that goal, a function of the world and the goal
 * alone). No DOM and no pixi here.
 */
import { Goal, cachedFlowField, goalNode, navCacheFor } from '../../nav/navigator.js';
import type { Simulation } from '../../sim/simulation.js';
import { mapX, mapY, type MapPlane } from './projection.js';

/** Most nodes a planned path lists (a longer walk is drawn up to there). */
export const PLANNED_PATH_NODES = 4096;

/**
 * The planned path of entity `e` as map points (x0, y0, x1, y1, ...: its position first, its goal's node
 * last), or null when it is going nowhere (no `Goal` component in the scenario, or no active goal).
 */
export function plannedPath(sim: Simulation, e: number, plane: MapPlane): number[] | null {
  const ecs = sim.ecs;
  if (!ecs.components.byName.has(Goal.name) || e <= 0 || e >= ecs.capacity || ecs.alive[e] !== 1) return null;
  const goal = ecs.store(Goal);
  if (!ecs.has(e, goal) || goal.active[e] !== 1) return null;
  const c = ecs.components;
  const here = [c.Position.x[e]!, c.Position.y[e]!, c.Position.z[e]!];
  const out = [mapX(plane, here), mapY(plane, here)];
  const cache = navCacheFor(sim.world);
  const g = cache.graph;
  const gn = goalNode(cache, goal.x[e]!, goal.y[e]!, goal.z[e]!);
  const at = (n: number) => {
    const v = [g.pos[3 * n]!, g.pos[3 * n + 1]!, g.pos[3 * n + 2]!];
    out.push(mapX(plane, v), mapY(plane, v));
  };
  let n = goal.target[e]!;
  if (n < 0 || gn < 0) {
    if (gn >= 0) at(gn);
    return out;
  }
  const next = cachedFlowField(cache, gn).next;
  for (let k = 0; k < PLANNED_PATH_NODES && n >= 0; k++) {
    at(n);
    if (n === gn) break;
    n = next[n]!;
  }
  return out;
}
