/**
 * The room's short events, as the page shows them over the map for a few seconds: a player joined (with its
 * name) or left, the page waits for a peer (which one), rollbacks, a desync, a peer's page hidden or shown.
 * Fed by the session's events and by its stats each frame; rollbacks and waits are summed so that a slow link
 * does not fill the screen. No DOM here: Node tests run it with the times they choose.
 */
import type { DesyncReport, NetplayStats } from '../../netplay/session.js';
import { seatWords } from '../../netplay/seat-words.js';

/** How long an event stays on screen, ms. */
export const EVENT_SHOW_MS = 6000;
/** Most events on screen at once (the newest). */
export const MAX_EVENTS_SHOWN = 4;
/** A wait for the same peers this long without a frame simulated is an event, ms. */
export const WAIT_NOTICE_MS = 500;
/** Rollbacks are summed into one event at most this often, ms. */
export const ROLLBACK_EVERY_MS = 3000;

/** One event: when (the page's clock, ms), what kind, and its sentence. */
export interface RoomEvent {
  at: number;
  kind: 'join' | 'leave' | 'wait' | 'rollback' | 'desync' | 'hidden';
  /** The seat it is about (−1: none). */
  seat: number;
  text: string;
}

export class RoomEvents {
  /** Every event so far (the last 64). */
  readonly all: RoomEvent[] = [];
  private names: (string | null)[] = [];
  private waitingSince = -1;
  private waitTold = false;
  private rollbacks = 0;
  private rollbacksTold = 0;
  private longest = 0;
  private rollbackAt = -Infinity;

  constructor(private readonly now: () => number) {}

  private add(kind: RoomEvent['kind'], seat: number, text: string): void {
    this.all.push({ at: this.now(), kind, seat, text });
    if (this.all.length > 64) this.all.shift();
  }

  /** The relay said who holds each seat: who sat down, and who got up before the start. */
  seats(names: readonly (string | null)[], me: number): void {
    const before = this.names;
    this.names = [...names];
    for (let k = 0; k < names.length; k++) {
      const was = before[k] ?? null;
      const is = names[k] ?? null;
      if (was === null && is !== null) this.add('join', k, k === me ? `you joined as ${seatWords(k, names)}` : `${seatWords(k, names)} joined`);
      else if (was !== null && is === null) this.add('leave', k, `${seatWords(k, before)} left`);
    }
  }

  /** A player left a started room. */
  left(player: number, from: number): void {
    this.add('leave', player, `${seatWords(player, this.names)} left: its seat stands still from frame ${from}`);
  }

  /** A peer's page was hidden or shown again. */
  away(player: number, hidden: boolean): void {
    this.add('hidden', player, hidden ? `${seatWords(player, this.names)}'s tab is hidden: its moves may come late` : `${seatWords(player, this.names)}'s tab is shown again`);
  }

  desync(r: DesyncReport): void {
    const who = r.players.length ? r.players.map((p) => seatWords(p, this.names)).join(' and ') : 'a player';
    this.add('desync', r.players[0] ?? -1, `desync at frame ${r.frame} with ${who}`);
  }

  /** The session's stats after a frame's ticks: a long wait and the rollbacks since the last event. */
  observe(s: NetplayStats): void {
    if (s.names.length) this.names = [...s.names];
    // one wait: ticks that simulate nothing, one after another, whichever peers they wait for
    if (!s.waitingFor.length) {
      this.waitingSince = -1;
      this.waitTold = false;
    } else if (this.waitingSince < 0) {
      this.waitingSince = this.now();
    } else if (!this.waitTold && this.now() - this.waitingSince >= WAIT_NOTICE_MS) {
      this.waitTold = true;
      this.add('wait', s.waitingFor[0]!, `waiting for ${s.waitingFor.map((p) => seatWords(p, this.names)).join(' and ')}`);
    }
    if (s.rollbacks > this.rollbacks) {
      this.rollbacks = s.rollbacks;
      this.longest = s.maxRollback;
    }
    if (this.rollbacks > this.rollbacksTold && this.now() - this.rollbackAt >= ROLLBACK_EVERY_MS) {
      const n = this.rollbacks - this.rollbacksTold;
      this.rollbacksTold = this.rollbacks;
      this.rollbackAt = this.now();
      this.add('rollback', -1, `rolled back ${n === 1 ? 'once' : `${n} times`} (a late move corrected; longest so far ${this.longest} frames)`);
    }
  }

  /** The events to show now: those younger than EVENT_SHOW_MS, at most MAX_EVENTS_SHOWN, oldest first. */
  shown(): RoomEvent[] {
    const t = this.now();
    return this.all.filter((e) => t - e.at < EVENT_SHOW_MS).slice(-MAX_EVENTS_SHOWN);
  }
}
