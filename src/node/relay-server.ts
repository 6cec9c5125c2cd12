/**
 * The netplay relay: a WebSocket server of rooms that forwards players' inputs and checksums and never
 * simulates. Its input log is the room's truth: the first value logged for a player's frame wins, a resend that
 * differs is forwarded with the logged value and announced to the room (`changed`). It keeps the latest
 * keyframe every player's checksum agrees with, for spectators that join later (`catchup`), and when a
 * player's connection ends it tells the room from which frame that player idles (`left`).
 *
 * Everything is bounded, and nothing waits for ever: sockets per remote address and in all, the handshake,
 * the join and the room's start each within a deadline, what a connection may send before the relay knows
 * its role, what each client may leave unread, a silent connection (heartbeat) and a player that holds its
 * room back without new frames. Anything out of bounds closes that client with a reason and never the relay
 * (relay-limits.ts has the numbers; relay-admission.ts, relay-rooms.ts and relay-sending.ts the rules).
 *
 * For tests and demos it can impair what it sends: input forwards and pongs are dropped with a probability,
 * and everything is delayed by delay ± jitter, drawn from seeded streams (one per recipient, so a recipient's
 * pattern does not depend on other clients' timing). The clock and timers used here are the relay's own and
 * never feed a simulation. Every string of its log is printable: what clients sent is escaped.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { encodeRelayMessage, parseClientMessage, ProtocolError, RATE_BURST, RATE_PER_SECOND, type ClientMessage } from '../netplay/protocol.js';
import { printable } from '../netplay/printable.js';
import { descriptorLimits } from './fd-limit.js';
import { Admission, type InboundCount } from './relay-admission.js';
import { BYTES_BURST, BYTES_PER_SECOND, HEARTBEAT_MS, MAX_PAYLOAD, MAX_UNJOINED_MESSAGE, resolveLimits, seconds, type RelayOptions } from './relay-limits.js';
import { Rooms } from './relay-rooms.js';
import { createSending } from './relay-sending.js';
import type { Relay, RelayEvent } from './relay-types.js';
import type { Client } from './relay-state.js';

export type { Relay, RelayEvent, RelayStats } from './relay-types.js';
export type { RelayOptions } from './relay-limits.js';

/** Starts a relay; resolves once it listens. */
export function startRelay(options: RelayOptions = {}): Promise<Relay> {
  const host = options.host ?? '127.0.0.1';
  // Node raised the soft limit to the hard one when it started; the connections are sized to what it is
  const fds = descriptorLimits();
  const limits = resolveLimits(options, fds ? Math.min(fds.soft, 1 << 30) : Number.MAX_SAFE_INTEGER);
  const delayMs = options.delayMs ?? 0;
  const jitterMs = options.jitterMs ?? 0;
  const loss = options.loss ?? 0;
  const seed = String(options.seed ?? 1);
  const log = options.log ?? (() => {});
  const clients = new Set<Client>();
  const stats = { received: 0, sent: 0, dropped: 0, refused: 0, turnedAway: 0 };
  const inbound = new WeakMap<Client, InboundCount>();
  let nextId = 1;

  const emit = (e: RelayEvent) => {
    try {
      // what clients sent reaches a log or a terminal only escaped
      const clean: RelayEvent = { ...e, message: printable(e.message) };
      if (e.reason !== undefined) clean.reason = printable(e.reason);
      if (e.room !== undefined) clean.room = printable(e.room);
      log(clean);
    } catch {
      // a failing logger must not stop the relay
    }
  };

  // --- leaving and refusing ---------------------------------------------------------------------------

  /** The client leaves (once): out of the relay's count and its room. */
  const depart = (c: Client) => {
    if (c.closed) return;
    c.closed = true;
    clients.delete(c);
    if (c.joinTimer) clearTimeout(c.joinTimer);
    if (c.timer) clearTimeout(c.timer);
    c.queue.length = 0;
    rooms.leave(c);
  };

  const shortReason = (reason: string): string => {
    let r = reason;
    while (Buffer.byteLength(r) > 123) r = r.slice(0, -2) + '…';
    return r;
  };

  const refuse = (c: Client, reason: string, code: 1008 | 1009 | 1011 = 1008) => {
    if (c.closed) return;
    stats.refused++;
    const where = c.room ? `room ${JSON.stringify(c.room.name)} ${c.role === 'player' ? `player ${c.seat}` : 'spectator'}` : 'connection';
    emit({ event: 'refused', client: c.id, ...(c.room ? { room: c.room.name } : {}), reason, message: `client ${c.id} (${where}, ${c.address}) refused: ${reason}` });
    // The reason goes out at once, past any impairment: the connection is closing.
    try {
      if (c.ws.readyState === c.ws.OPEN) {
        c.ws.send(encodeRelayMessage({ t: 'error', reason }));
        stats.sent++;
        c.ws.close(code, shortReason(reason));
      }
    } catch {
      c.ws.terminate();
    }
    depart(c);
  };

  /** Runs `f` for client `c`; whatever it throws closes that client, never the relay. */
  function guard(c: Client, f: () => void): void {
    try {
      f();
    } catch (e) {
      if (e instanceof ProtocolError) refuse(c, e.message, e.code);
      else {
        emit({ event: 'internal', client: c.id, message: `client ${c.id}: internal error: ${(e as Error)?.stack ?? String(e)}` });
        refuse(c, 'internal error in the relay', 1011);
      }
    }
  }

  const sending = createSending({
    impaired: delayMs > 0 || jitterMs > 0 || loss > 0,
    delayMs,
    jitterMs,
    loss,
    maxUnreadBytes: limits.maxUnreadBytes,
    stats,
    guard,
    drop: (c, reason) => {
      stats.refused++;
      emit({ event: 'refused', client: c.id, ...(c.room ? { room: c.room.name } : {}), reason: 'reads too slowly', message: `client ${c.id} (${c.address}) dropped: ${reason}` });
      c.ws.terminate();
      depart(c);
    },
  });

  const rooms = new Rooms({
    limits,
    seed,
    sending,
    emit,
    refuse,
    setMessageLimit: (c, bytes) => {
      const count = inbound.get(c);
      if (count) count.limit = bytes;
    },
  });

  // --- messages ---------------------------------------------------------------------------------------

  const handle = (c: Client, m: ClientMessage) => {
    if (m.t === 'join') return rooms.join(c, m);
    const room = c.room;
    if (!room) throw new ProtocolError(`${m.t}: the first message must be join`);
    switch (m.t) {
      case 'ping':
        sending.send(c, { t: 'pong', id: m.id });
        return;
      case 'input':
        if (c.role !== 'player') throw new ProtocolError('input: spectators send no inputs');
        if (!room.started) throw new ProtocolError('input: the room has not started');
        return rooms.input(c, room, m);
      case 'keyframe':
        if (c.role !== 'player') throw new ProtocolError('keyframe: spectators send no keyframes');
        if (!room.started) throw new ProtocolError('keyframe: the room has not started');
        return rooms.keyframe(c, room, m);
      case 'state':
        if (c.role !== 'player') throw new ProtocolError('state: spectators send no states');
        if (!room.started) throw new ProtocolError('state: the room has not started');
        return rooms.state(c, room, m);
      case 'away':
        if (c.role !== 'player') throw new ProtocolError('away: spectators send no away');
        sending.broadcast(room, { t: 'away', p: c.seat, hidden: m.hidden }, c);
        return;
    }
  };

  const receive = (c: Client, data: RawData, isBinary: boolean) => {
    if (c.closed) return;
    stats.received++;
    const count = inbound.get(c);
    if (count) count.bytes = 0;
    const now = Date.now();
    const elapsed = now - c.refilledAt;
    c.refilledAt = now;
    c.tokens = Math.min(RATE_BURST, c.tokens + (elapsed * RATE_PER_SECOND) / 1000);
    if (c.tokens < 1) throw new ProtocolError(`rate: more than ${RATE_BURST} messages at once (${RATE_PER_SECOND} a second sustained)`);
    c.tokens -= 1;
    if (isBinary) throw new ProtocolError('message: binary messages are not part of the protocol');
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    c.byteTokens = Math.min(BYTES_BURST, c.byteTokens + (elapsed * BYTES_PER_SECOND) / 1000);
    if (c.byteTokens < bytes.length) throw new ProtocolError(`rate: more than ${BYTES_BURST} bytes at once (${BYTES_PER_SECOND} a second sustained)`);
    c.byteTokens -= bytes.length;
    if (bytes.length > MAX_UNJOINED_MESSAGE && !/^\s*\{\s*"t"\s*:\s*"(keyframe|state)"/.test(bytes.subarray(0, 64).toString('latin1'))) {
      throw new ProtocolError(`message: ${bytes.length} bytes, more than ${MAX_UNJOINED_MESSAGE} (only a keyframe or a state may be longer)`, 1009);
    }
    handle(c, parseClientMessage(bytes.toString('utf8')));
  };

  // --- the server -------------------------------------------------------------------------------------

  const admission = new Admission(limits, stats, emit);

  const connected = (ws: WebSocket, socket: Socket, count: InboundCount) => {
    const c: Client = {
      id: nextId++,
      ws,
      address: admission.keyOf(socket),
      closed: false,
      alive: true,
      room: null,
      role: null,
      seat: -1,
      name: '',
      tokens: RATE_BURST,
      byteTokens: BYTES_BURST,
      refilledAt: Date.now(),
      joinTimer: null,
      rng: null,
      queue: [],
      timer: null,
      barrier: 0,
      lastDue: 0,
      written: 0,
      shared: [],
    };
    inbound.set(c, count);
    count.over = (bytes) => {
      // past the limit while the message is still arriving: closed before the rest is buffered
      if (c.closed) return void socket.destroy();
      const who = c.role === null ? 'before its join' : c.role === 'spectator' ? 'from a spectator' : 'from a player';
      guard(c, () => refuse(c, `message: more than ${count.limit} bytes ${who} (${bytes} arrived of a message not yet whole)`, 1009));
    };
    // ws reports what it refuses itself (a payload over maxPayload, bad UTF-8, a bad frame) and then closes
    ws.on('error', (e) => {
      if (c.closed) return;
      stats.refused++;
      emit({ event: 'refused', client: c.id, ...(c.room ? { room: c.room.name } : {}), reason: e.message, message: `client ${c.id} refused by the WebSocket layer: ${e.message}` });
    });
    ws.on('close', () => guard(c, () => depart(c)));
    ws.on('pong', () => (c.alive = true));
    ws.on('message', (data, isBinary) => guard(c, () => receive(c, data, isBinary)));
    if (clients.size >= limits.maxClients) {
      refuse(c, `relay: full (${limits.maxClients} connections)`);
      return;
    }
    clients.add(c);
    c.joinTimer = setTimeout(() => guard(c, () => refuse(c, `join: none within ${seconds(limits.joinTimeoutMs)} of connecting`)), limits.joinTimeoutMs);
  };

  return new Promise<Relay>((resolve, reject) => {
    const server = createServer((req, res) => {
      if (admission.isTurnedAway(req.socket)) return void res.destroy();
      res.writeHead(426, { 'content-type': 'text/plain', connection: 'close' });
      res.end('retrosim relay: netplay over WebSocket only\n');
    });
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD, perMessageDeflate: false, closeTimeout: 5000 } as ConstructorParameters<typeof WebSocketServer>[0]);
    server.on('connection', (socket: Socket) => admission.admit(socket));
    server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      if (!admission.upgraded(socket)) return void socket.destroy();
      socket.on('error', () => {});
      const count: InboundCount = { bytes: 0, limit: MAX_UNJOINED_MESSAGE, over: null };
      wss.handleUpgrade(req, socket, head, (ws) => {
        // counted from here (the WebSocket layer has just begun to listen, `head` still unread): what it
        // buffers of a message never runs past the count by more than one read
        admission.countInbound(socket, count);
        connected(ws, socket, count);
      });
    });
    let listening = false;
    server.on('error', (e) => {
      if (!listening) reject(e);
      else emit({ event: 'internal', message: `server error: ${e.message}` });
    });
    const heartbeat = setInterval(() => {
      for (const c of clients) {
        guard(c, () => {
          if (!c.alive) {
            c.ws.terminate();
            depart(c);
            return;
          }
          c.alive = false;
          c.ws.ping();
        });
      }
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const sweepMs = Math.max(50, Math.min(1000, Math.floor(Math.min(limits.startTimeoutMs, limits.inputTimeoutMs) / 4)));
    const sweeper = setInterval(() => {
      try {
        rooms.sweep(Date.now());
      } catch (e) {
        emit({ event: 'internal', message: `sweep: internal error: ${(e as Error)?.stack ?? String(e)}` });
      }
    }, sweepMs);
    sweeper.unref();
    server.listen(options.port ?? 0, host, () => {
      listening = true;
      const a = server.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      const url = `ws://${host.includes(':') ? `[${host}]` : host}:${port}`;
      const fdLine = fds ? `descriptors: soft limit ${fds.soft}, hard ${fds.hard}` : 'descriptors: limit unknown';
      emit({ event: 'limits', message: `${fdLine}; at most ${limits.maxClients} connections, ${limits.maxHandshakes} handshakes, ${limits.maxPerAddress} sockets and ${limits.maxRoomsPerAddress} rooms per address, ${limits.maxRooms} rooms` });
      emit({ event: 'listening', message: `listening on ${url}` });
      resolve({
        url,
        stats: () => ({ rooms: rooms.rooms.size, clients: clients.size, sockets: admission.sockets, ...stats }),
        close: () =>
          new Promise<void>((done) => {
            clearInterval(heartbeat);
            clearInterval(sweeper);
            for (const c of [...clients]) {
              depart(c);
              c.ws.close(1001, 'relay closing');
            }
            for (const ws of wss.clients) ws.terminate();
            wss.close();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
