/** Bots: deterministic from (seed, player), only defined buttons, headings held for 10–90 frames. */
import { describe, expect, it } from 'vitest';
import { makeBot } from '../../src/netplay/bots.js';
import { BUTTON_MASK } from '../../src/systems/input.js';

const run = (seed: number, player: number, n = 2000) => {
  const bot = makeBot('wander', seed, player);
  return Array.from({ length: n }, () => bot());
};

describe('netplay bots', () => {
  it('wander is the same for the same seed and player, and differs by player and seed', () => {
    const a = run(1, 0);
    expect(run(1, 0)).toEqual(a);
    expect(run(1, 1)).not.toEqual(a);
    expect(run(2, 0)).not.toEqual(a);
  });

  it('wander presses only defined buttons, moves most of the time, and holds each choice 10 to 90 frames', () => {
    const a = run(5, 1);
    expect(a.every((b) => (b & ~BUTTON_MASK) === 0)).toBe(true);
    expect(a.filter((b) => b !== 0).length).toBeGreaterThan(a.length / 2);
    expect(new Set(a).size).toBeGreaterThan(3);
    // runs of one value are at least 10 frames (two equal picks in a row make a longer run)
    let run_ = 1;
    const runs: number[] = [];
    for (let i = 1; i < a.length; i++) {
      if (a[i] === a[i - 1]) run_++;
      else {
        runs.push(run_);
        run_ = 1;
      }
    }
    expect(runs.slice(1).every((r) => r >= 10)).toBe(true);
  });

  it('idle presses nothing; an unknown policy is refused', () => {
    const idle = makeBot('idle', 1, 0);
    expect([idle(), idle(), idle()]).toEqual([0, 0, 0]);
    expect(() => makeBot('dance' as never, 1, 0)).toThrow('unknown bot policy "dance" (known: wander, idle)');
  });
});
