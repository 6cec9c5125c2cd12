/**
 * Sessions against a hostile peer and a silent relay, over the in-memory relay driven tick by tick (the
 * sessions' clock is the tick count, so nothing here depends on real time): a peer that never acknowledges
 * anything holds back neither the honest player nor a referee (an honest player used to send its newest
 * inputs only as they were acknowledged, and stalled); a relay that falls silent ends every session, seated or
 * waiting, player or spectator, with a line saying so; a session that was not ticked for a while (a hidden
 * tab) is not told its relay fell silent when it merely did not ask.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SILENCE_TIMEOUT_MS } from '../../src/netplay/heartbeat.js';
import { bot, Match } from './harness.js';

const TICK_MS = 1000 / 60;

describe('netplay sessions against a hostile peer and a silent relay', () => {
  it('a peer that never acks: the honest player and a referee still reach the last frame, on one hash', () => {
    const m = new Match({ players: 2, delay: 2, jitter: 1, loss: 0.05, seed: 4 });
    const honest = m.add('player', { lastFrame: 900 }, bot(1));
    const liar = m.add('player', { lastFrame: 900 }, bot(2));
    const referee = m.add('spectator', { lastFrame: 900 });
    m.net.tamper = (seat, msg) => (seat === 1 && msg.t === 'input' ? { ...msg, ack: (msg.ack as number[]).map(() => 0) } : msg);
    const ticks = m.runUntil(() => [honest, liar, referee].every((c) => c.session.stats.confirmedFrame >= 900), 900 * 4);
    expect(ticks).toBeLessThan(900 * 4);
    for (const f of [300, 600, 900]) {
      expect(liar.hashes.get(f)).toBe(honest.hashes.get(f));
      expect(referee.hashes.get(f)).toBe(honest.hashes.get(f));
    }
    expect(honest.desyncs).toEqual([]);
  });

  it('a relay that falls silent ends every session after its silence timeout, seated or waiting, player or spectator', () => {
    const silence = 2000;
    const running = new Match({ players: 2, delay: 1, seed: 2 });
    const a = running.add('player', { silenceTimeoutMs: silence }, bot(1));
    const b = running.add('player', { silenceTimeoutMs: silence }, bot(2));
    const s = running.add('spectator', { silenceTimeoutMs: silence });
    const waiting = new Match({ players: 2, delay: 1, seed: 3 });
    const w = waiting.add('player', { silenceTimeoutMs: silence }, bot(3));
    running.runUntil(() => a.session.stats.confirmedFrame >= 120, 1000);
    waiting.runUntil(() => w.session.stats.state === 'waiting', 1000);
    expect(w.session.stats.state).toBe('waiting');
    // the relay freezes: its clock runs, it delivers nothing more
    for (const net of [running.net, waiting.net]) net.step = () => void net.tick++;
    const from = running.net.tick;
    const limit = Math.ceil(silence / TICK_MS) * 3;
    running.runUntil(() => [a, b, s].every((c) => c.session.stats.state === 'closed'), limit);
    waiting.runUntil(() => w.session.stats.state === 'closed', limit);
    for (const c of [a, b, s, w]) {
      expect(c.session.stats.state).toBe('closed');
      expect(c.session.stats.closeReason).toMatch(/^the relay has been silent for [23] s \(no message and no answer to pings; the silence timeout is 2 s\)$/);
    }
    // ended within the timeout, the second that confirms it and the half second between pings
    expect((running.net.tick - from) * TICK_MS).toBeLessThan(silence + 1000 + 500 + 100);
  });

  it(`a session not ticked for longer than the silence timeout (${DEFAULT_SILENCE_TIMEOUT_MS / 1000} s by default) goes on when ticked again`, () => {
    const m = new Match({ players: 2, delay: 1, seed: 5 });
    const a = m.add('player', { lastFrame: 600 }, bot(1));
    const hidden = m.add('player', { lastFrame: 600 }, bot(2));
    m.runUntil(() => a.session.stats.confirmedFrame >= 120, 1000);
    // 30 s of ticks in which the hidden client's session is not ticked: its inbox fills, it sends nothing
    for (let t = 0; t < 1800; t++) {
      m.net.step();
      a.session.setLocalInput(0);
      a.session.tick();
    }
    expect(hidden.session.stats.state).toBe('running');
    m.runUntil(() => [a, hidden].every((c) => c.session.stats.confirmedFrame >= 600), 4000);
    expect(hidden.session.stats.state).toBe('running');
    expect(hidden.hashes.get(600)).toBe(a.hashes.get(600));
  });
});
