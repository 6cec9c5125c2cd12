/**
 * What the relay sends, and what it lets wait: each client's messages go through the seeded impairment (input
 * forwards and pongs dropped with a probability, everything delayed by delay ± jitter, never a control message
 * overtaken), and into its socket. A large message for many clients (a room's keyframe in its spectators'
 * catch-ups, a state forwarded to a room) is one buffer in memory, sent to each as a fragment of its message,
 * not a copy per client. What a client leaves unread is bounded: counting only its own bytes (not the shared
 * ones), a client with more than `maxUnreadBytes` waiting is dropped.
 */
import { encodeRelayMessage, MAX_MESSAGE_LENGTH, type RelayMessage } from '../netplay/protocol.js';
import { MAX_DELAYED_MESSAGES } from './relay-limits.js';
import type { Client, KeptKeyframe, Part, Payload, Room } from './relay-state.js';

/** What sending needs from the relay. */
export interface SendingContext {
  impaired: boolean;
  delayMs: number;
  jitterMs: number;
  loss: number;
  maxUnreadBytes: number;
  stats: { sent: number; dropped: number };
  /** Runs `f` for client `c`; whatever it throws closes that client. */
  guard(c: Client, f: () => void): void;
  /** Drops a client that reads too slowly (`reason` says how far behind). */
  drop(c: Client, reason: string): void;
}

/** The relay's sending, for one relay. */
export interface Sending {
  /** Sends `m` to `c` through the impairment. */
  send(c: Client, m: RelayMessage): void;
  /** Sends `m` to every member of `room` but `except`. */
  broadcast(room: Room, m: RelayMessage, except?: Client): void;
  /** Sends a spectator its catch-up: the kept keyframe (shared) and every logged input from `from`. */
  catchup(c: Client, keyframe: KeptKeyframe | null, from: number, inputs: number[][]): void;
  /** A room's players still connected, then its spectators. */
  members(room: Room): Client[];
  /** Bytes of its own waiting in `c`'s socket (shared bytes not counted). */
  unread(c: Client): number;
}

export function createSending(ctx: SendingContext): Sending {
  const unread = (c: Client): number => {
    const buffered = c.ws.bufferedAmount;
    const drained = c.written - buffered;
    c.shared = c.shared.filter((s) => s.end > drained);
    let shared = 0;
    for (const s of c.shared) shared += Math.min(s.length, s.end - drained);
    return Math.max(0, buffered - shared);
  };

  /** Hands `payload` to the socket; a client that lets too much of its own pile up there is dropped. */
  const write = (c: Client, payload: Payload) => {
    if (typeof payload === 'string') {
      c.ws.send(payload);
      c.written += Buffer.byteLength(payload);
    } else {
      payload.forEach((p, i) => {
        c.ws.send(p.bytes, { binary: false, fin: i === payload.length - 1 });
        c.written += p.bytes.length;
        if (p.shared) c.shared.push({ end: c.written, length: p.bytes.length });
      });
    }
    ctx.stats.sent++;
    const own = unread(c);
    if (own > ctx.maxUnreadBytes) ctx.drop(c, `it reads too slowly (${own} bytes of its own waiting, more than ${ctx.maxUnreadBytes})`);
  };

  const flush = (c: Client) => {
    c.timer = null;
    const now = Date.now();
    while (c.queue.length && c.queue[0]!.due <= now && !c.closed) write(c, c.queue.shift()!.payload);
    if (c.queue.length && !c.closed) c.timer = setTimeout(() => ctx.guard(c, () => flush(c)), Math.max(0, c.queue[0]!.due - now));
  };

  /** Sends `payload` to `c` through the impairment: `droppable` for input forwards and pongs. */
  const deliver = (c: Client, payload: Payload, droppable: boolean) => {
    if (c.closed) return;
    if (!ctx.impaired || !c.rng) {
      write(c, payload);
      return;
    }
    if (droppable && ((ctx.loss > 0 && c.rng() < ctx.loss) || c.queue.length >= MAX_DELAYED_MESSAGES)) {
      ctx.stats.dropped++;
      return;
    }
    const now = Date.now();
    let due = now + Math.max(0, ctx.delayMs + (ctx.jitterMs > 0 ? (c.rng() * 2 - 1) * ctx.jitterMs : 0));
    if (droppable) due = Math.max(due, c.barrier);
    else c.barrier = due = Math.max(due, c.lastDue);
    c.lastDue = Math.max(c.lastDue, due);
    let i = c.queue.length;
    while (i > 0 && c.queue[i - 1]!.due > due) i--;
    c.queue.splice(i, 0, { due, payload });
    if (i === 0) {
      if (c.timer) clearTimeout(c.timer);
      c.timer = setTimeout(() => ctx.guard(c, () => flush(c)), Math.max(0, due - now));
    }
  };

  const members = (room: Room): Client[] => [...room.seats.filter((s): s is Client => s !== null), ...room.spectators];

  return {
    send: (c, m) => deliver(c, encodeRelayMessage(m), m.t === 'input' || m.t === 'pong'),
    broadcast(room, m, except) {
      const text = encodeRelayMessage(m);
      // a long message (a state) is one buffer for the whole room, not a copy per member
      const payload: Payload = text.length > MAX_MESSAGE_LENGTH ? [{ bytes: Buffer.from(text), shared: true }] : text;
      const droppable = m.t === 'input';
      for (const c of members(room)) if (c !== except) deliver(c, payload, droppable);
    },
    catchup(c, keyframe, from, inputs) {
      if (!keyframe) return deliver(c, encodeRelayMessage({ t: 'catchup', keyframe: null, from, inputs }), false);
      const parts: Part[] = [
        { bytes: Buffer.from('{"t":"catchup","keyframe":'), shared: false },
        { bytes: keyframe.json, shared: true },
        { bytes: Buffer.from(`,"from":${from},"inputs":${JSON.stringify(inputs)}}`), shared: false },
      ];
      deliver(c, parts, false);
    },
    members,
    unread,
  };
}
