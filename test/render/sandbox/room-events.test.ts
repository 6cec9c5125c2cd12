/**
 * The room's short events (src/render/sandbox/room-events.ts), with the times the test chooses: joins and
 * leaves name the seat counted from 1 and the player's name, a wait is told once it lasts, naming the peer,
 * rollbacks are summed, a desync and a hidden tab each say who; only the recent few are shown.
 */
import { describe, expect, test } from 'vitest';
import { EVENT_SHOW_MS, MAX_EVENTS_SHOWN, ROLLBACK_EVERY_MS, RoomEvents, WAIT_NOTICE_MS } from '../../../src/render/sandbox/room-events.js';
import type { DesyncReport, NetplayStats } from '../../../src/netplay/session.js';
import { seatLabels } from '../../../src/render/scene/seat-labels.js';

const stats = (over: Partial<NetplayStats> = {}): NetplayStats => ({ frame: 120, confirmedFrame: 114, rollbacks: 0, maxRollback: 0, framesAhead: 0, pingMs: 40, inputDelay: 2, waits: 0, desyncs: 0, player: 1, players: 3, state: 'running', names: ['Ada', 'Bea', ''], hidden: [], waitingFor: [], ...over });

describe('room events', () => {
  test('joins, leaves, waits, rollbacks, desyncs and hidden tabs, each one sentence naming the seat', () => {
    let t = 1000;
    const ev = new RoomEvents(() => t);
    ev.seats(['Ada', null, null], 1);
    ev.seats(['Ada', 'Bea', null], 1);
    ev.seats(['Ada', 'Bea', ''], 1);
    expect(ev.all.map((e) => [e.kind, e.seat, e.text])).toEqual([
      ['join', 0, 'player 1 (Ada) joined'],
      ['join', 1, 'you joined as player 2 (Bea)'],
      ['join', 2, 'player 3 joined'],
    ]);
    ev.seats(['Ada', 'Bea', null], 1);
    expect(ev.all.at(-1)).toMatchObject({ kind: 'leave', seat: 2, text: 'player 3 left' });

    // a wait is an event only once it lasts WAIT_NOTICE_MS for the same peers, and only once
    const n = ev.all.length;
    ev.observe(stats({ waitingFor: [0] }));
    t += WAIT_NOTICE_MS - 1;
    ev.observe(stats({ waitingFor: [0] }));
    expect(ev.all.length).toBe(n);
    t += 1;
    ev.observe(stats({ waitingFor: [0] }));
    t += 100;
    ev.observe(stats({ waitingFor: [0] }));
    expect(ev.all.slice(n).map((e) => e.text)).toEqual(['waiting for player 1 (Ada)']);
    // a frame simulated in between: a short wait is no event
    ev.observe(stats());
    ev.observe(stats({ waitingFor: [2] }));
    t += 10;
    ev.observe(stats());
    expect(ev.all.length).toBe(n + 1);
    // one wait, whichever peers it waits for tick by tick: told once it lasts, naming those waited for then
    ev.observe(stats({ waitingFor: [0] }));
    t += WAIT_NOTICE_MS / 2;
    ev.observe(stats({ waitingFor: [0, 2] }));
    t += WAIT_NOTICE_MS / 2;
    ev.observe(stats({ waitingFor: [0, 2] }));
    ev.observe(stats());
    expect(ev.all.slice(n + 1).map((e) => e.text)).toEqual(['waiting for player 1 (Ada) and player 3']);

    // rollbacks: one event, then summed until ROLLBACK_EVERY_MS has passed
    ev.observe(stats({ rollbacks: 1, maxRollback: 3 }));
    ev.observe(stats({ rollbacks: 4, maxRollback: 5 }));
    expect(ev.all.filter((e) => e.kind === 'rollback').map((e) => e.text)).toEqual(['rolled back once (a late move corrected; longest so far 3 frames)']);
    t += ROLLBACK_EVERY_MS;
    ev.observe(stats({ rollbacks: 4, maxRollback: 5 }));
    expect(ev.all.filter((e) => e.kind === 'rollback').at(-1)!.text).toBe('rolled back 3 times (a late move corrected; longest so far 5 frames)');

    ev.away(0, true);
    ev.away(0, false);
    ev.left(0, 640);
    ev.desync({ frame: 130, players: [0], cause: 'checksum', ours: null, theirs: {}, sections: [], snapshot: null, states: {} } satisfies DesyncReport);
    expect(ev.all.slice(-4).map((e) => e.text)).toEqual([
      "player 1 (Ada)'s tab is hidden: its moves may come late",
      "player 1 (Ada)'s tab is shown again",
      'player 1 (Ada) left: its seat stands still from frame 640',
      'desync at frame 130 with player 1 (Ada)',
    ]);
    // only the last few recent ones are shown
    expect(ev.shown().length).toBe(MAX_EVENTS_SHOWN);
    t += EVENT_SHOW_MS;
    expect(ev.shown()).toEqual([]);
  });

  test('each seat is labelled from the viewer: "you" is its own seat, not seat 0', () => {
    expect(seatLabels(3, 1, { names: ['Ada', 'Bea', ''], hidden: [2] })).toEqual(['player 1 (Ada)', 'you (Bea)', 'player 3, tab hidden']);
    expect(seatLabels(2, 0, null)).toEqual(['you', 'player 2']);
  });
});
