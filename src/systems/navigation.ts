/**
 * The navigation system (priority 45, before gravity and movement): every agent with an active `Goal` walks
 * the world's navigation graph toward it. At a node (standing on it to the bit, not falling) it takes the next
 * node of the flow field toward its goal's node, and steers there as the graph was built (each horizontal axis
 * clamped to the graph body's speed), so each step arrives as the graph promised; at the goal's node it stops
 * (`GoalStatus.arrived`). A step that does not arrive within its frames (the agent was pushed, respawned or
 * stopped) makes it choose again from the node nearest it (`Goal.replans`); with no way on, its status is
 * `GoalStatus.unreachable`. An agent that stands where no step leads to its node (it fell off a ledge to
 * another floor, or was pushed into a cell whose node has no edge to it) chooses again at once, from where it
 * stands, rather than walking on toward a node it cannot reach (also counted in `Goal.replans`).
 *
 * Not one of `DEFAULT_SYSTEMS`: a scenario opts in with `navigationSystem` in its systems and `Goal` in its
 * components, so every other scenario's replays and hashes are what they were.
 */
import type { SystemDef, SystemHost, SystemContext } from './system.js';
import { fallSpeeds } from './gravity.js';
import { Goal, GoalStatus, flowStep, goalNode, navCacheFor } from '../nav/navigator.js';
import { steer, walkBudget } from '../nav/walk.js';
import { nearestNode } from '../nav/graph.js';

/** The navigation system: agents with an active `Goal` follow the graph to it (see the module's description). */
export const navigationSystem: SystemDef = {
  name: 'navigation',
  // Before gravity (49) and movement (50): the velocity it sets is this frame's.
  priority: 45,
  create(host: SystemHost) {
    const ecs = host.ecs;
    const world = host.world;
    const c = ecs.components;
    const goal = ecs.store(Goal);
    const q = ecs.defineQuery('navigation', [c.Position, c.Velocity, goal]);
    const fall = fallSpeeds(ecs);
    const pos = [c.Position.x, c.Position.y, c.Position.z] as const;
    const vel = [c.Velocity.x, c.Velocity.y, c.Velocity.z] as const;
    const up = world.up.axis;
    return (_ctx: SystemContext) => {
      const ents = ecs.entities(q);
      // The graph is asked for only once an agent is going somewhere (it may take seconds to build).
      let going = false;
      for (let k = 0; k < ents.length && !going; k++) going = goal.active[ents[k]!] === 1;
      if (!going) return;
      const cache = navCacheFor(world);
      const g = cache.graph;
      const { a0, a1 } = g.grid;
      const speed = g.body.speed;
      const budget = walkBudget(2 * g.grid.cell, speed);
      const p0 = pos[a0], p1 = pos[a1], pu = pos[up];
      const v0 = vel[a0], v1 = vel[a1];
      const at: [number, number, number] = [0, 0, 0];
      for (let k = 0; k < ents.length; k++) {
        const e = ents[k]!;
        if (goal.active[e] !== 1) continue;
        let t = goal.target[e]!;
        // Standing on the node it walked to: choose the next one.
        if (t >= 0 && fall[e] === 0 && p0[e] === g.pos[3 * t + a0] && p1[e] === g.pos[3 * t + a1]) {
          if (pu[e] !== g.pos[3 * t + up]) t = -1;
          else t = nextNode(e, t);
        } else if (t >= 0 && fall[e] === 0 && offItsStep(e, t)) {
          // Standing where no step leads to its node (it fell to another floor, or was pushed or carried):
          // choose again from where it stands, now.
          goal.replans[e] = (goal.replans[e]! + 1) >>> 0;
          t = -1;
        } else if (t >= 0 && goal.frames[e]! >= budget) {
          // The step did not arrive: choose again from where it is.
          goal.replans[e] = (goal.replans[e]! + 1) >>> 0;
          t = -1;
        }
        if (t === -1 && goal.active[e] === 1) {
          at[0] = c.Position.x[e]!;
          at[1] = c.Position.y[e]!;
          at[2] = c.Position.z[e]!;
          const n = nearestNode(g, at, up);
          if (n < 0) t = stop(e, GoalStatus.unreachable);
          else if (fall[e] === 0 && at[0] === g.pos[3 * n] && at[1] === g.pos[3 * n + 1] && at[2] === g.pos[3 * n + 2]) t = nextNode(e, n);
          else t = n;
        }
        if (goal.active[e] !== 1) continue;
        if (t !== goal.target[e]) {
          goal.target[e] = t;
          goal.frames[e] = 0;
        }
        goal.frames[e]!++;
        v0[e] = steer(g.pos[3 * t + a0]! - p0[e]!, speed);
        v1[e] = steer(g.pos[3 * t + a1]! - p1[e]!, speed);
      }

      /**
       * Whether e, standing, is off its way to node t: the node of its cell nearest its height is neither t
       * nor a node with an edge to t. A cell without a node says nothing (the step's frame budget decides).
       */
      function offItsStep(e: number, t: number): boolean {
        at[0] = c.Position.x[e]!;
        at[1] = c.Position.y[e]!;
        at[2] = c.Position.z[e]!;
        const n = nearestNode(g, at, up);
        if (n < 0 || n === t) return false;
        for (let k = g.edgeStart[n]!; k < g.edgeStart[n + 1]!; k++) if (g.edgeTo[k] === t) return false;
        return true;
      }

      /** At node n: the next node toward e's goal, or the end of its walk (−2). */
      function nextNode(e: number, n: number): number {
        const gn = goalNode(cache, goal.x[e]!, goal.y[e]!, goal.z[e]!);
        if (gn < 0) return stop(e, GoalStatus.unreachable);
        if (n === gn) return stop(e, GoalStatus.arrived);
        const next = flowStep(cache, gn, n);
        return next < 0 ? stop(e, GoalStatus.unreachable) : next;
      }

      /** Ends e's walk with `status`, standing still. */
      function stop(e: number, status: number): number {
        goal.active[e] = 0;
        goal.status[e] = status;
        goal.target[e] = -1;
        goal.frames[e] = 0;
        v0[e] = 0;
        v1[e] = 0;
        return -2;
      }
    };
  },
};
