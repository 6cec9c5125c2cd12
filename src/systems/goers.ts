/**
 * Goers: bodies that walk to places by navigation, rest there a while, then go on to another (the "wander"
 * scenario's `goers` parameter). The places are a few nodes of the world's navigation graph spread along its
 * node order (`GOER_PLACES` of them, so that the goers share a few flow fields); each trip's place is drawn
 * from the "goals" stream, goers in ascending id. A goer's trips and rest are in its `Goer` component (hashed
 * and saved like any other), its walk in its `Goal`: the run replays to the bit.
 */
import { defineComponent } from '../ecs/components.js';
import { Goal, GoalStatus } from '../nav/navigator.js';
import { nodePosition, type NavGraph } from '../nav/graph.js';
import { AscendingIds } from './ascending-ids.js';
import type { SystemDef, SystemHost, SystemContext } from './system.js';

/** A goer: `rest`, frames it still wanders before its next trip; `trips`, the places it arrived at. */
export const Goer = defineComponent('Goer', { rest: 'i32', trips: 'u32' });

/** The stream the goers' places are drawn from. */
export const GOALS_STREAM = 'goals';
/** How many places the goers walk between. */
export const GOER_PLACES = 8;
/** Frames a goer rests after a trip (one second) before it sets out again, and after a place it could not reach. */
export const GOER_REST_FRAMES = 60;

/** Place k of `GOER_PLACES` on a graph: the node at (2k + 1) / (2 × GOER_PLACES) of the node order. */
export function goerPlace(g: NavGraph, k: number): number {
  return Math.floor(((2 * k + 1) * g.nodeCount) / (2 * GOER_PLACES));
}

/**
 * The goers system (priority 40, before the wander and navigation systems): each goer (`Goer` and `Goal`) not
 * on its way counts its rest down; a trip that just ended (arrived, counted in `trips`, or unreachable) starts
 * a rest of `GOER_REST_FRAMES`; a goer rested sets out for a place drawn from the "goals" stream
 * (`ctx.nav.setGoal`). While it rests it stands; on its way, the navigation system steers it.
 */
export const goersSystem: SystemDef = {
  name: 'goers',
  priority: 40,
  create(host: SystemHost) {
    const ecs = host.ecs;
    const goal = ecs.store(Goal);
    const goer = ecs.store(Goer);
    const q = ecs.defineQuery('goers', [goer, goal]);
    const ascending = new AscendingIds();
    return (ctx: SystemContext) => {
      const ids = ascending.of(ecs.entities(q), ecs.structureId);
      for (let i = 0; i < ids.length; i++) {
        const e = ids[i]!;
        if (goal.active[e] === 1) continue;
        if (goer.rest[e]! > 0) {
          goer.rest[e]!--;
          continue;
        }
        const status = goal.status[e]!;
        if (status === GoalStatus.arrived || status === GoalStatus.unreachable) {
          if (status === GoalStatus.arrived) goer.trips[e] = (goer.trips[e]! + 1) >>> 0;
          ctx.nav.clearGoal(e);
          goer.rest[e] = GOER_REST_FRAMES;
          continue;
        }
        const g = ctx.nav.graph();
        if (g.nodeCount === 0) continue;
        // Looked up per use, not kept: restoring a snapshot replaces the stream objects.
        const k = ctx.rng.streams.get(GOALS_STREAM).int(GOER_PLACES);
        ctx.nav.setGoal(e, nodePosition(g, goerPlace(g, k)));
      }
    };
  },
};
