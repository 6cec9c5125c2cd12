/**
 * A session's heartbeat with its relay: a `ping` every PING_EVERY ticks once the relay has seated it (players
 * and spectators alike, waiting for the start or playing), the round trip measured from the pongs, and the
 * silence that ends a session: the relay answers every ping, so when nothing at all has arrived for the
 * silence timeout since a ping went out unanswered, the relay (or the way to it) is gone, frozen or cut,
 * even though the connection still looks open.
 *
 * The clock is the session's (`now`); it never feeds a simulation. Silence is counted from a ping the
 * session sent, never from the last message alone: a session that was not ticked for a while (a hidden
 * browser tab) sent nothing, so it is not told its relay went silent when it merely did not ask. And a silence
 * is confirmed CONFIRM_MS after it is first seen: a process that stalled (a loaded machine) may have messages
 * waiting unread in its socket when it first looks; by the confirmation they have arrived.
 */

/** Ticks between pings (about twice a second at 60 ticks a second). */
export const PING_EVERY = 30;
/** Pings whose pongs are still awaited; older ones are forgotten (a lost pong costs nothing but its sample). */
const MAX_PENDING_PINGS = 4;
/** How long a session waits without hearing from its relay before it closes, by default (milliseconds). */
export const DEFAULT_SILENCE_TIMEOUT_MS = 20_000;
/** How long after a silence is first seen it is confirmed, ms. */
const CONFIRM_MS = 1000;
/** Range of a session's silence timeout (milliseconds). */
export const SILENCE_TIMEOUT_RANGE = Object.freeze({ min: 1_000, max: 3_600_000 });

export class Heartbeat {
  private seq = 0;
  private readonly pings = new Map<number, number>();
  /** When the first ping since the last message heard went out; null while the relay answers. */
  private quietSince: number | null = null;
  /** When the silence was first seen to reach the timeout; null until then. */
  private suspectAt: number | null = null;
  /** Smoothed round trip, ms (0 before the first pong). */
  rttMs = 0;

  constructor(
    private readonly now: () => number,
    readonly silenceMs: number,
  ) {}

  /** Something arrived from the relay. */
  heard(): void {
    this.quietSince = null;
    this.suspectAt = null;
  }

  /** A ping's id, recorded as sent now. */
  ping(): number {
    const id = ++this.seq;
    const t = this.now();
    this.pings.set(id, t);
    while (this.pings.size > MAX_PENDING_PINGS) this.pings.delete(this.pings.keys().next().value as number);
    this.quietSince ??= t;
    return id;
  }

  /** A pong arrived: the round trip of its ping, if still awaited. */
  pong(id: number): void {
    const sent = this.pings.get(id);
    if (sent === undefined) return;
    this.pings.delete(id);
    const rtt = Math.max(0, this.now() - sent);
    this.rttMs = this.rttMs === 0 ? rtt : this.rttMs * 0.75 + rtt * 0.25;
  }

  /**
   * Milliseconds the relay has been silent since it was asked, once that has reached the timeout and stayed
   * so for CONFIRM_MS; else null.
   */
  silent(): number | null {
    if (this.quietSince === null) return null;
    const now = this.now();
    const quiet = now - this.quietSince;
    if (quiet < this.silenceMs) return null;
    this.suspectAt ??= now;
    return now - this.suspectAt >= CONFIRM_MS ? quiet : null;
  }

  /** Pings awaiting their pong (bounded). */
  get pending(): number {
    return this.pings.size;
  }
}
