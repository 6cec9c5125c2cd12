/**
 * Bots: seeded policies that press a player's buttons, one word per display frame. They are deterministic
 * from (seed, player) and the number of calls (no clocks, no Math.random), so a bot run is reproducible; the
 * frame a press lands on still depends on the network (input delay, pacing). Browser-safe.
 */
import { Buttons } from '../systems/input.js';

/** A bot policy's name. */
export type BotPolicy = 'wander' | 'idle';

/** The bot policies, for argument checks and usage text. */
export const BOT_POLICIES: readonly BotPolicy[] = Object.freeze(['wander', 'idle']);

/** A bot: each call returns the buttons to hold for the next display frame. */
export type Bot = () => number;

/**
 * A bot of `policy` for `player` from `seed`. `wander` holds a heading (forward, sometimes turning left or
 * right, now and then backing up or standing still) for a seeded number of frames (10–90), then picks again;
 * `idle` presses nothing.
 *
 * @example
 * const bot = makeBot('wander', 7, session.stats.player);
 * session.setLocalInput(bot());
 */
export function makeBot(policy: BotPolicy, seed: number, player: number): Bot {
  if (policy === 'idle') return () => 0;
  if (policy !== 'wander') throw new RangeError(`unknown bot policy ${JSON.stringify(policy)} (known: ${BOT_POLICIES.join(', ')})`);
  const next = splitmix32(mix(seed >>> 0, player >>> 0));
  let held = 0;
  let left = 0;
  return () => {
    if (left <= 0) {
      held = pick(next());
      left = 10 + (next() % 81);
    }
    left--;
    return held;
  };
}

/** The next held buttons from one draw: mostly walking forward, turning a third of the time. */
function pick(r: number): number {
  const move = r % 100;
  const turn = (r >>> 8) % 3;
  const walk = move < 70 ? Buttons.Up : move < 80 ? Buttons.Down : 0;
  return walk | (turn === 1 ? Buttons.Left : turn === 2 ? Buttons.Right : 0);
}

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x7f4a7c15, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small integer generator (splitmix32): unsigned 32-bit draws. */
function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}
