/**
 * Navigation orders carried by player 0's input word, so that "send this agent there" is an input like a key
 * press: recorded in a live run and in its replay, played back to the bit. An order takes two frames: the
 * first word names the agent, the second the navigation graph node it is sent to. Both words have bit 31 set
 * (`NAV_ORDER_FLAG`); bit 30 says which half; bits 6..29 hold the agent's entity id or the node; bits 0..5 stay
 * the player's buttons, so the player walks on while an order goes out.
 *
 * The half received is kept in the `NavOrder` component of player 0 (hashed and saved like any other), so a
 * seek or a rollback between the two frames goes on exactly as the run did. The order system only acts in a
 * scenario that lists it (see the "navigate" scenario); the input system reads the buttons alone.
 */
import { defineComponent } from '../ecs/components.js';
import { Goal } from '../nav/navigator.js';
import { nodePosition } from '../nav/graph.js';
import { BUTTON_MASK } from './input.js';
import type { SystemDef, SystemHost, SystemContext } from './system.js';

/** Bit 31 of an input word: the word carries half of a navigation order. */
export const NAV_ORDER_FLAG = 0x80000000;
/** Bit 30 of an order word: 0 for the first half (the agent), 1 for the second (the node). */
export const NAV_ORDER_SECOND = 0x40000000;
/** The largest entity id or node index an order word carries (24 bits). */
export const NAV_ORDER_MAX = 0xffffff;
const SHIFT = 6;

/**
 * The two input words that send entity `entity` to node `node` of the navigation graph (OR the player's
 * buttons into each). Throws a RangeError for an id or a node that is not a whole number in 0..`NAV_ORDER_MAX`.
 */
export function navOrderWords(entity: number, node: number): [number, number] {
  for (const [what, v] of [['entity', entity], ['node', node]] as const) {
    if (!Number.isInteger(v) || v < 0 || v > NAV_ORDER_MAX) throw new RangeError(`navigation order: ${what} ${String(v)} is not a whole number in 0..${NAV_ORDER_MAX}`);
  }
  return [(NAV_ORDER_FLAG | (entity << SHIFT)) >>> 0, (NAV_ORDER_FLAG | NAV_ORDER_SECOND | (node << SHIFT)) >>> 0];
}

/**
 * What an input word carries of a navigation order: null for a word of buttons alone, else which half
 * (`second`) and its value (the entity id in the first half, the node in the second).
 */
export function navOrderPart(word: number): { second: boolean; value: number } | null {
  const w = word >>> 0;
  if ((w & NAV_ORDER_FLAG) === 0) return null;
  return { second: (w & NAV_ORDER_SECOND) !== 0, value: (w & ~(NAV_ORDER_FLAG | NAV_ORDER_SECOND)) >>> SHIFT };
}

/** Whether `word` is a valid input word: buttons alone, or an order word with buttons. */
export function isInputWord(word: number): boolean {
  return Number.isInteger(word) && word >= 0 && word <= 0xffffffff && ((word & ~BUTTON_MASK) === 0 || (word & NAV_ORDER_FLAG) !== 0);
}

/** An input word as a run records it: an order word whole, anything else cut to its buttons. */
export function recordedInputWord(word: number): number {
  const w = word >>> 0;
  return (w & NAV_ORDER_FLAG) !== 0 ? w : w & BUTTON_MASK;
}

/**
 * Player 0's half-received order: `armed` 1 once the first word came, `entity` the agent it named. On player
 * 0's entity (the "navigate" scenario puts it there).
 */
export const NavOrder = defineComponent('NavOrder', { entity: 'i32', armed: 'u8' });

/**
 * The navigation order system (priority 34, right after the input system): reads player 0's word; a second
 * half after a first sends the agent named (it must have the `Goal` component) to the node's position with
 * `ctx.nav.setGoal`. An order naming no such agent, or a node off the graph, does nothing.
 */
export const navOrderSystem: SystemDef = {
  name: 'nav-orders',
  priority: 34,
  create(host: SystemHost) {
    const ecs = host.ecs;
    const order = ecs.store(NavOrder);
    const goal = ecs.store(Goal);
    return (ctx: SystemContext) => {
      const p = ctx.player;
      const part = navOrderPart(ctx.input);
      if (p <= 0 || part === null || !ecs.has(p, order)) return;
      const v = part.value;
      if (!part.second) {
        order.entity[p] = v;
        order.armed[p] = 1;
        return;
      }
      if (order.armed[p] !== 1) return;
      const e = order.entity[p]!;
      order.armed[p] = 0;
      order.entity[p] = 0;
      if (e <= 0 || e >= ecs.capacity || ecs.alive[e] !== 1 || !ecs.has(e, goal)) return;
      const g = ctx.nav.graph();
      if (v >= g.nodeCount) return;
      ctx.nav.setGoal(e, nodePosition(g, v));
    };
  },
};
