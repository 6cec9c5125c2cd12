/**
 * Walking relative to the screen: with it on, ↑ walks up the screen, → to the right, and so on (diagonals
 * too), whichever way the player faces. The simulation's own controls stay what they are (up and down walk
 * along the player's heading, left and right turn it), so the mode only chooses those buttons each frame:
 * turn toward the direction asked, and walk once the heading is within an eighth of a turn of it. The
 * buttons chosen are the frame's input, recorded in a replay like any other, so a replay of a run walked this
 * way verifies as any other does.
 *
 * Integer maths only (a table of the eight directions): the same keys and heading give the same buttons on
 * every engine. No DOM here: Node tests drive it.
 */
import { Buttons } from '../../systems/input.js';

/** A full turn in the simulation's angle units (ANGLE_UNITS_PER_TURN). */
const TURN = 65536;
/** How close (angle units) the heading must be to the direction asked to stop turning: half a frame's turn. */
export const AIM_TOLERANCE = 256;
/** How close (angle units) the heading must be to walk: an eighth of a turn. */
export const WALK_WITHIN = TURN / 8;

const MOVE = Buttons.Up | Buttons.Down | Buttons.Left | Buttons.Right;

/**
 * The heading (angle units, the world's two horizontal axes as the input system reads them) that points the
 * way `keys` ask on the screen, or null when they ask for no direction (none held, or opposite keys only).
 * `ySign` is the map plane's: +1 when the world's second horizontal axis runs down the screen, −1 when up.
 */
export function screenHeading(keys: number, ySign: 1 | -1): number | null {
  const right = (keys & Buttons.Right ? 1 : 0) - (keys & Buttons.Left ? 1 : 0);
  const down = (keys & Buttons.Down ? 1 : 0) - (keys & Buttons.Up ? 1 : 0);
  if (right === 0 && down === 0) return null;
  // The direction across the world: x to the right, the second axis down the screen times ySign.
  const along = down * ySign;
  // Eighths of a turn, counter-clockwise from +x (angle = atan2(along, right)).
  const EIGHTHS: Readonly<Record<string, number>> = { '1,0': 0, '1,1': 1, '0,1': 2, '-1,1': 3, '-1,0': 4, '-1,-1': 5, '0,-1': 6, '1,-1': 7 };
  return (EIGHTHS[`${right},${along}`]! * TURN) / 8;
}

/**
 * The simulation's buttons for one frame of screen-relative walking: `keys` held (Up, Down, Left, Right as
 * screen directions; Action and Jump pass through), the player's `heading` now.
 */
export function screenWalkButtons(keys: number, heading: number, ySign: 1 | -1): number {
  const rest = keys & ~MOVE;
  const target = screenHeading(keys, ySign);
  if (target === null) return rest;
  // The turn from the heading to the target, −half to +half a turn (Left raises the angle).
  const diff = ((((target - heading) % TURN) + TURN + TURN / 2) % TURN) - TURN / 2;
  let b = rest;
  if (diff > AIM_TOLERANCE) b |= Buttons.Left;
  else if (diff < -AIM_TOLERANCE) b |= Buttons.Right;
  if (Math.abs(diff) <= WALK_WITHIN) b |= Buttons.Up;
  return b;
}

/** What `walkButtons` reads of the session and the view shown. */
export interface WalkSubject {
  sim: { player: number; ecs: { components: { Heading: { angle: ArrayLike<number> } } } };
}

/**
 * The page's buttons for the frame about to run: the keys as they are, or with screen-relative walking on,
 * the buttons that walk this page's player the way the keys point on the screen (its heading read now). In a
 * room `you` is this page's seat's entity (the simulation's `player` is seat 1's).
 */
export function walkButtons(keys: number, screen: boolean, s: WalkSubject | null, plane: { ySign: 1 | -1 } | null | undefined, you?: number): number {
  if (!screen || !s || !plane) return keys;
  return screenWalkButtons(keys, s.sim.ecs.components.Heading.angle[you ?? s.sim.player] ?? 0, plane.ySign);
}
