/**
 * Who gets in, and what a connection may send before the relay knows what it is. Sockets are counted from
 * the moment they connect, per remote address (an IPv6 one by its /64 prefix) and in all: a socket over its
 * address's share, or over the handshakes the relay takes at once, is answered with an HTTP status line
 * naming the limit and closed, before it costs more than its descriptor for a moment. A socket has
 * `handshakeTimeoutMs` to complete its WebSocket handshake. After it, the bytes of each message are counted
 * as they arrive, before the message is whole: a connection that has not joined (or a spectator) may send
 * messages of MAX_UNJOINED_MESSAGE bytes, a player keyframes of MAX_PAYLOAD; one that sends more is closed
 * while its message is still short, so nobody makes the relay hold megabytes it has not agreed to take.
 */
import type { Socket } from 'node:net';
import { printable } from '../netplay/printable.js';
import { MESSAGE_SLACK, seconds, type RelayLimits } from './relay-limits.js';
import type { RelayEvent } from './relay-types.js';

/** Refusal answers written at once at most; beyond, a turned-away socket is closed without one. */
const MAX_ANSWERING = 64;
/** How long a turned-away socket is given to read its answer before it is closed, ms. */
const ANSWER_MS = 1000;
/** One log line per address and reason at most this often, ms (a flood is counted, not logged line by line). */
const LOG_EVERY_MS = 10_000;

/**
 * The key a remote address is counted under: an IPv4 address (also when mapped into IPv6) as it is, an IPv6
 * address by its /64 prefix ("2001:db8:0:1::/64").
 */
export function addressKey(remote: string | undefined): string {
  if (!remote) return 'unknown';
  const v4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(remote);
  if (v4) return v4[1]!;
  if (!remote.includes(':')) return remote;
  const bare = remote.split('%')[0]!.toLowerCase();
  const [head = '', tail] = bare.split('::') as [string, string | undefined];
  const groups = (s: string) => (s === '' ? [] : s.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? front : [...front, ...new Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${all.slice(0, 4).map((g) => (Number.parseInt(g, 16) || 0).toString(16)).join(':')}::/64`;
}

interface Tracked {
  key: string;
  timer: NodeJS.Timeout | null;
  upgraded: boolean;
}

/** The bytes of the message a connection is sending, counted as they arrive, against its current limit. */
export interface InboundCount {
  bytes: number;
  limit: number;
  /** Called when the count passes the limit (and the slack of one read). */
  over: ((bytes: number) => void) | null;
}

export class Admission {
  private readonly perAddress = new Map<string, number>();
  private readonly tracked = new WeakMap<Socket, Tracked>();
  private readonly turned = new WeakSet<Socket>();
  private readonly logged = new Map<string, { at: number; since: number }>();
  private answering = 0;
  /** Sockets admitted and not yet closed. */
  sockets = 0;
  /** Of them, those whose handshake has not completed. */
  handshakes = 0;

  constructor(
    private readonly limits: RelayLimits,
    private readonly stats: { turnedAway: number },
    private readonly emit: (e: RelayEvent) => void,
  ) {}

  /** A socket connected: counted, with its handshake deadline, or turned away with an answer naming the limit. */
  admit(socket: Socket): void {
    const key = addressKey(socket.remoteAddress);
    const n = this.perAddress.get(key) ?? 0;
    if (n >= this.limits.maxPerAddress) return this.turnAway(socket, key, 429, `${n} connections from ${key} already (the most from one address)`);
    if (this.handshakes >= this.limits.maxHandshakes) return this.turnAway(socket, key, 503, `${this.handshakes} handshakes in progress (the most at once)`);
    this.perAddress.set(key, n + 1);
    this.sockets++;
    this.handshakes++;
    const t: Tracked = { key, timer: null, upgraded: false };
    t.timer = setTimeout(() => {
      t.timer = null;
      this.stats.turnedAway++;
      this.note(key, 'handshake', `a socket from ${key} closed: no WebSocket handshake within ${seconds(this.limits.handshakeTimeoutMs)} of connecting`);
      socket.destroy();
    }, this.limits.handshakeTimeoutMs);
    this.tracked.set(socket, t);
    socket.once('close', () => {
      if (t.timer) clearTimeout(t.timer);
      if (!t.upgraded) this.handshakes--;
      this.sockets--;
      const left = (this.perAddress.get(key) ?? 1) - 1;
      if (left > 0) this.perAddress.set(key, left);
      else this.perAddress.delete(key);
    });
  }

  /** The socket's handshake is done: false when it was turned away or is unknown (then it must not be upgraded). */
  upgraded(socket: Socket): boolean {
    const t = this.tracked.get(socket);
    if (!t || t.upgraded || this.turned.has(socket) || socket.destroyed) return false;
    if (t.timer) clearTimeout(t.timer);
    t.timer = null;
    t.upgraded = true;
    this.handshakes--;
    return true;
  }

  /** Whether the socket was turned away (its requests get no answer but the one it was given). */
  isTurnedAway(socket: Socket): boolean {
    return this.turned.has(socket);
  }

  /** The key the socket's address counts under. */
  keyOf(socket: Socket): string {
    return this.tracked.get(socket)?.key ?? addressKey(socket.remoteAddress);
  }

  /**
   * Counts what arrives on an upgraded socket against `count.limit`; the owner restarts the count at each
   * whole message. Listening after the WebSocket layer, a read that ends one message and begins the next is
   * counted whole after the restart: the count runs ahead of the message by one read at most (MESSAGE_SLACK).
   */
  countInbound(socket: Socket, count: InboundCount): void {
    socket.on('data', (chunk: Buffer) => {
      count.bytes += chunk.length;
      if (count.bytes > count.limit + MESSAGE_SLACK) count.over?.(count.bytes);
    });
  }

  private turnAway(socket: Socket, key: string, status: 429 | 503, reason: string): void {
    this.turned.add(socket);
    this.stats.turnedAway++;
    this.note(key, String(status), `a socket from ${key} turned away: ${reason}`);
    if (this.answering >= MAX_ANSWERING) {
      socket.destroy();
      return;
    }
    this.answering++;
    const timer = setTimeout(() => socket.destroy(), ANSWER_MS);
    socket.once('close', () => {
      clearTimeout(timer);
      this.answering--;
    });
    socket.on('error', () => {});
    socket.end(`HTTP/1.1 ${status} retrosim relay: ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }

  /** Logs a refusal before the handshake: the first of its kind per address, then at most every LOG_EVERY_MS with a count. */
  private note(key: string, kind: string, message: string): void {
    const now = Date.now();
    const id = `${key} ${kind}`;
    const last = this.logged.get(id);
    if (last && now - last.at < LOG_EVERY_MS) {
      last.since++;
      return;
    }
    const more = last && last.since > 0 ? ` (and ${last.since} more since the last line)` : '';
    this.logged.set(id, { at: now, since: 0 });
    if (this.logged.size > 4096) this.logged.delete(this.logged.keys().next().value as string);
    this.emit({ event: 'refused', reason: printable(message), message: printable(message + more) });
  }
}
