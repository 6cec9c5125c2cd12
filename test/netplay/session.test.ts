import { describe, expect, it } from 'vitest';
import { verifyReplay } from '../../src/replay/verify.js';
import { stepPlayers } from '../../src/netplay/compat.js';
import { build, bot, Match, testConfig } from './harness.js';

const FRAMES = 240;

function twoPlayers(delay: number, loss: number, seed = 1, frames = FRAMES): Match {
  const m = new Match({ players: 2, delay, jitter: delay > 0 ? 2 : 0, loss, seed });
  m.add('player', { lastFrame: frames }, bot(seed * 7 + 1));
  m.add('player', { lastFrame: frames }, bot(seed * 7 + 2));
  return m;
}

/** The hash of every frame of a plain simulation stepped with the inputs the relay logged. */
function plainHashes(m: Match, frames: number): string[] {
  const sim = build(testConfig(m.net.log.length));
  const out = [sim.hashHex()];
  const inputs = new Uint32Array(m.net.log.length);
  for (let f = 1; f <= frames; f++) {
    m.net.log.forEach((l, p) => (inputs[p] = l[f - 1]!));
    stepPlayers(sim, inputs);
    out.push(sim.hashHex());
  }
  return out;
}

describe('netplay session over an impaired in-memory relay', () => {
  for (const delay of [0, 5, 10]) {
    it(`two players, ${delay} ticks of delay and 5% loss: same confirmed hashes, replays identical and verifying`, () => {
      const m = twoPlayers(delay, 0.05);
      const [a, b] = m.clients as [any, any];
      const ticks = m.runUntil(() => m.clients.every((c) => c.session.stats.confirmedFrame >= FRAMES && c.session.stats.frame >= FRAMES), FRAMES * 4);
      expect(ticks).toBeLessThan(FRAMES * 4);
      const plain = plainHashes(m, FRAMES);
      for (let f = 1; f <= FRAMES; f++) {
        expect(a.hashes.get(f), `frame ${f}`).toBe(plain[f]);
        expect(b.hashes.get(f), `frame ${f}`).toBe(plain[f]);
      }
      for (const c of m.clients) {
        expect(c.desyncs).toEqual([]);
        expect(c.session.stats.state).toBe('running');
        expect(c.session.stats.frame).toBe(FRAMES);
      }
      if (delay > 0) expect(a.session.stats.rollbacks + b.session.stats.rollbacks).toBeGreaterThan(0);
      const ra = a.session.replay();
      const rb = b.session.replay();
      expect(Buffer.from(ra).equals(Buffer.from(rb))).toBe(true);
      const v = verifyReplay(ra, build(testConfig(2)));
      expect(v.ok).toBe(true);
      expect(v.frames).toBe(FRAMES);
    });
  }
});
