/**
 * The button presses of the headless default run: a fixed, seeded pattern standing in for a player at the
 * keyboard. It is outside data (recorded in the replay like any input), so it may be anything; it is
 * deterministic only so that two default runs give the same replay.
 */
import { Buttons } from '../systems/input.js';

/** The moves the stand-in player picks from: walk, walk turning left/right, stand, walk back. */
const MOVES = [Buttons.Up, Buttons.Up | Buttons.Left, Buttons.Up, Buttons.Up | Buttons.Right, 0, Buttons.Down, Buttons.Up | Buttons.Action];

/** A 32-bit integer mix (lowbias32): turns a segment number into an unrelated word. */
function mix(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Frames per segment of one move. */
export const DEMO_SEGMENT_FRAMES = 45;

/**
 * The buttons (Buttons bits) the headless default run presses at `frame`: a fixed pattern of walks, turns and
 * stops, 45 frames per move, chosen by `seed`. Deterministic, so two default runs give the same replay.
 */
export function demoButtons(frame: number, seed = 0): number {
  const seg = Math.floor(Math.max(0, frame - 1) / DEMO_SEGMENT_FRAMES);
  return MOVES[mix((seg ^ mix(seed)) >>> 0) % MOVES.length]!;
}
