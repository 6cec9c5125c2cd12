/**
 * The netplay relay: a WebSocket server of rooms that forwards players' inputs and checksums and never
 * simulates. Its input log is the room's truth: the first value logged for a player's frame wins, a resend
 * that differs is forwarded with the logged value and announced to the room (`changed`). It keeps the latest
 * keyframe for spectators that join later (`catchup`), and when a player's connection ends it tells the room
 * from which frame that player idles (`left`).
 *
 * Every client is bounded (message size, rate, the join deadline, the protocol's windows); anything out of
 * bounds closes that client with a reason and never the relay. For tests and demos it can impair what it sends:
 * input forwards and pongs are dropped with a probability, and everything is delayed by delay ± jitter, drawn
 * from seeded streams (one per recipient, so a recipient's pattern does not depend on other clients' timing).
 * The clock and timers used here are the relay's own and never feed a simulation.
 */
import seedrandom from 'seedrandom';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  encodeRelayMessage,
  JOIN_TIMEOUT_MS,
  MAX_CATCHUP_LENGTH,
  MAX_AHEAD_OF_CONFIRMED,
  MAX_INPUT_LEAD,
  MAX_KEYFRAME_LENGTH,
  MAX_LEFT_INPUTS,
  MAX_LOG_FRAMES,
  MAX_MESSAGE_LENGTH,
  MAX_SPECTATORS,
  MAX_STATES_PER_CLIENT,
  parseClientMessage,
  ProtocolError,
  RATE_BURST,
  RATE_PER_SECOND,
  type ClientMessage,
  type InputMessage,
  type JoinMessage,
  type Keyframe,
  type KeyframeMessage,
  type NetplayConfig,
  type RelayMessage,
  type Role,
  type StateMessage,
} from '../netplay/protocol.js';

/** Most clients connected to one relay at once (players, spectators and connections not yet joined). */
export const DEFAULT_MAX_CLIENTS = 256;
/** Most rooms by default. */
export const DEFAULT_MAX_ROOMS = 64;
/** Distinct frames a player may change after sending them before the relay closes it. */
export const MAX_CHANGED_FRAMES = 64;
/** How often the relay pings every connection; one that has not answered the previous ping is dropped. */
const HEARTBEAT_MS = 15_000;
/**
 * Most bytes waiting in a client's socket (it reads too slowly, or not at all) before the relay drops it: room
 * for a whole catchup and more, never memory without limit.
 */
export const MAX_BUFFERED_BYTES = MAX_CATCHUP_LENGTH + 4 * 1024 * 1024;
/**
 * A client's byte budget (token bucket): BYTES_PER_SECOND sustained, a burst of two whole keyframes. Honest
 * clients send a keyframe every keyframeInterval frames and far fewer bytes; this stops one client from making
 * the relay parse megabytes without end.
 */
export const BYTES_PER_SECOND = 2 * 1024 * 1024;
export const BYTES_BURST = 2 * MAX_KEYFRAME_LENGTH;
/** Most input forwards and pongs an impaired relay holds back for one client; beyond it they count as lost. */
export const MAX_DELAYED_MESSAGES = 4096;

/** How the relay is started. */
export interface RelayOptions {
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: any free one). */
  port?: number;
  /** Most rooms at once (default 64). */
  maxRooms?: number;
  /** Most connections at once (default 256). */
  maxClients?: number;
  /** Every message the relay sends is delayed by delayMs ± jitterMs, uniform (default 0). */
  delayMs?: number;
  jitterMs?: number;
  /** Probability that an input forward or a pong is dropped (default 0). */
  loss?: number;
  /** Seed of the impairment streams (default 1). */
  seed?: number | string;
  /** Called with one event per room opened or closed, client refused, player left. */
  log?: (event: RelayEvent) => void;
}

/** One line of the relay's log. */
export interface RelayEvent {
  event: 'listening' | 'room-open' | 'room-close' | 'refused' | 'left' | 'internal';
  /** The line for people. */
  message: string;
  room?: string;
  client?: number;
  reason?: string;
}

/** Counters since the relay started. */
export interface RelayStats {
  rooms: number;
  clients: number;
  /** Messages received from clients. */
  received: number;
  /** Messages handed to sockets (after impairment). */
  sent: number;
  /** Input forwards and pongs dropped by impairment. */
  dropped: number;
  /** Clients closed for a broken rule. */
  refused: number;
}

/** A running relay (`startRelay`). */
export interface Relay {
  /** ws://HOST:PORT */
  url: string;
  /** Closes every connection and the server. */
  close(): Promise<void>;
  /** Counters since the relay started: rooms, clients, messages, refusals. */
  stats(): RelayStats;
}

interface Pending {
  due: number;
  text: string;
}

interface Client {
  id: number;
  ws: WebSocket;
  closed: boolean;
  alive: boolean;
  room: Room | null;
  role: Role | null;
  /** Player seat, or −1. */
  seat: number;
  tokens: number;
  /** Bytes it may still send now (BYTES_PER_SECOND, BYTES_BURST). */
  byteTokens: number;
  refilledAt: number;
  joinTimer: NodeJS.Timeout | null;
  rng: (() => number) | null;
  queue: Pending[];
  timer: NodeJS.Timeout | null;
  /** Latest due time of a control message: nothing queued later may overtake it. */
  barrier: number;
  /** Latest due time of anything queued: a control message is not sent before what was queued earlier. */
  lastDue: number;
}

interface Room {
  name: string;
  config: NetplayConfig;
  players: number;
  seats: (Client | null)[];
  spectators: Set<Client>;
  /** Spectators ever joined (names their impairment streams). */
  spectatorSerial: number;
  started: boolean;
  /** Per player: the last logged frame. */
  logged: number[];
  /** Per player, after its connection ended: the first frame it idles (its inputs are 0 from there). */
  leftFrom: (number | null)[];
  /** Per player: a ring of MAX_LOG_FRAMES button words, frame f at f % MAX_LOG_FRAMES. */
  log: Uint8Array[];
  /** The oldest frame still in the log. */
  logStart: number;
  keyframe: Keyframe | null;
  /** Per player: the frames it changed after sending them. */
  changed: Set<number>[];
  /** Per player: `state` messages it has sent (at most MAX_STATES_PER_CLIENT). */
  statesSent: number[];
}

/** Starts a relay; resolves once it listens. */
export function startRelay(options: RelayOptions = {}): Promise<Relay> {
  const host = options.host ?? '127.0.0.1';
  const maxRooms = options.maxRooms ?? DEFAULT_MAX_ROOMS;
  const maxClients = options.maxClients ?? DEFAULT_MAX_CLIENTS;
  const delayMs = options.delayMs ?? 0;
  const jitterMs = options.jitterMs ?? 0;
  const loss = options.loss ?? 0;
  const seed = String(options.seed ?? 1);
  const impaired = delayMs > 0 || jitterMs > 0 || loss > 0;
  const log = options.log ?? (() => {});
  const rooms = new Map<string, Room>();
  const clients = new Set<Client>();
  const stats = { received: 0, sent: 0, dropped: 0, refused: 0 };
  let nextId = 1;

  const emit = (e: RelayEvent) => {
    try {
      log(e);
    } catch {
      // a failing logger must not stop the relay
    }
  };

  // --- sending ----------------------------------------------------------------------------------------

  /** Hands `text` to the socket; a client that lets too much pile up there is dropped. */
  const write = (c: Client, text: string) => {
    c.ws.send(text);
    stats.sent++;
    if (c.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      stats.refused++;
      emit({ event: 'refused', client: c.id, room: c.room?.name, reason: 'reads too slowly', message: `client ${c.id} dropped: it reads too slowly (${c.ws.bufferedAmount} bytes waiting)` });
      c.ws.terminate();
      depart(c);
    }
  };

  const flush = (c: Client) => {
    c.timer = null;
    const now = Date.now();
    while (c.queue.length && c.queue[0]!.due <= now && !c.closed) write(c, c.queue.shift()!.text);
    if (c.queue.length && !c.closed) c.timer = setTimeout(() => guard(c, () => flush(c)), Math.max(0, c.queue[0]!.due - now));
  };

  /** Sends `text` to `c` through the impairment: `droppable` for input forwards and pongs. */
  const deliver = (c: Client, text: string, droppable: boolean) => {
    if (c.closed) return;
    if (!impaired || !c.rng) {
      write(c, text);
      return;
    }
    if (droppable && ((loss > 0 && c.rng() < loss) || c.queue.length >= MAX_DELAYED_MESSAGES)) {
      stats.dropped++;
      return;
    }
    const now = Date.now();
    let due = now + Math.max(0, delayMs + (jitterMs > 0 ? (c.rng() * 2 - 1) * jitterMs : 0));
    if (droppable) due = Math.max(due, c.barrier);
    else c.barrier = due = Math.max(due, c.lastDue);
    c.lastDue = Math.max(c.lastDue, due);
    let i = c.queue.length;
    while (i > 0 && c.queue[i - 1]!.due > due) i--;
    c.queue.splice(i, 0, { due, text });
    if (i === 0) {
      if (c.timer) clearTimeout(c.timer);
      c.timer = setTimeout(() => guard(c, () => flush(c)), Math.max(0, due - now));
    }
  };

  const send = (c: Client, m: RelayMessage) => deliver(c, encodeRelayMessage(m), m.t === 'input' || m.t === 'pong');

  const members = (room: Room): Client[] => [...room.seats.filter((s): s is Client => s !== null), ...room.spectators];

  const broadcast = (room: Room, m: RelayMessage, except?: Client) => {
    const text = encodeRelayMessage(m);
    const droppable = m.t === 'input';
    for (const c of members(room)) if (c !== except) deliver(c, text, droppable);
  };

  // --- leaving and refusing ---------------------------------------------------------------------------

  const closeRoomIfEmpty = (room: Room) => {
    if (members(room).length > 0 || rooms.get(room.name) !== room) return;
    rooms.delete(room.name);
    emit({ event: 'room-close', room: room.name, message: `room ${JSON.stringify(room.name)} closed (${rooms.size} open)` });
  };

  /** The client leaves its room (once): a player's seat idles from its next frame, or frees before the start. */
  const depart = (c: Client) => {
    if (c.closed) return;
    c.closed = true;
    clients.delete(c);
    if (c.joinTimer) clearTimeout(c.joinTimer);
    if (c.timer) clearTimeout(c.timer);
    c.queue.length = 0;
    const room = c.room;
    if (!room) return;
    if (c.role === 'spectator') room.spectators.delete(c);
    else if (room.seats[c.seat] === c) {
      room.seats[c.seat] = null;
      if (room.started) {
        const k = c.seat;
        const from = room.logged[k]! + 1;
        room.leftFrom[k] = from;
        broadcast(room, leftMessage(room, k));
        emit({ event: 'left', room: room.name, client: c.id, message: `room ${JSON.stringify(room.name)}: player ${k} left; idle from frame ${from}` });
      }
    }
    closeRoomIfEmpty(room);
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
    emit({ event: 'refused', client: c.id, room: c.room?.name, reason, message: `client ${c.id} (${where}) refused: ${reason}` });
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

  // --- the input log ----------------------------------------------------------------------------------

  const readLog = (room: Room, k: number, from: number, to: number): number[] => {
    const out: number[] = [];
    const ring = room.log[k]!;
    for (let f = Math.max(from, room.logStart); f <= to; f++) out.push(ring[f % MAX_LOG_FRAMES]!);
    return out;
  };

  /** Player k left: idle from its next frame; its last logged inputs still in the log, up to MAX_LEFT_INPUTS. */
  const leftMessage = (room: Room, k: number): RelayMessage => {
    const from = room.leftFrom[k]!;
    const f0 = Math.min(from, Math.max(room.logStart, from - MAX_LEFT_INPUTS, 1));
    return { t: 'left', p: k, from, f0, b: readLog(room, k, f0, from - 1) };
  };

  /** The frame up to which the relay has every player's input (players that left idle for ever after). */
  const confirmedFrame = (room: Room, k = -1, lastK = 0): number => {
    let min = Infinity;
    let max = 0;
    for (let j = 0; j < room.players; j++) {
      const logged = j === k ? Math.max(room.logged[j]!, lastK) : room.logged[j]!;
      max = Math.max(max, logged);
      if (room.leftFrom[j] === null) min = Math.min(min, logged);
    }
    return min === Infinity ? max : min;
  };

  /** Drops inputs nobody can need: before the latest keyframe (keeping each player's last MAX_LEFT_INPUTS), and past the log's size. */
  const trimLog = (room: Room) => {
    const confirmed = confirmedFrame(room);
    if (room.keyframe) room.logStart = Math.max(room.logStart, Math.min(room.keyframe.f + 1, confirmed - MAX_LEFT_INPUTS + 1));
    const newest = Math.max(...room.logged);
    room.logStart = Math.max(room.logStart, newest - MAX_LOG_FRAMES + 1);
  };

  // --- messages ---------------------------------------------------------------------------------------

  const join = (c: Client, m: JoinMessage) => {
    if (c.room) throw new ProtocolError('join: this connection has already joined');
    let room = rooms.get(m.room);
    const quoted = JSON.stringify(m.room);
    if (m.role === 'player') {
      if (room?.started) throw new ProtocolError(`join: room ${quoted} has started; join it as a spectator`);
      if (!room) {
        if (!m.config) throw new ProtocolError(`join.config: missing (the first player of room ${quoted} gives the config)`);
        if (rooms.size >= maxRooms) throw new ProtocolError(`join: the relay holds its most rooms (${maxRooms})`);
        const players = m.config.settings.players;
        room = {
          name: m.room,
          config: m.config,
          players,
          seats: new Array<Client | null>(players).fill(null),
          spectators: new Set(),
          spectatorSerial: 0,
          started: false,
          logged: new Array<number>(players).fill(0),
          leftFrom: new Array<number | null>(players).fill(null),
          log: Array.from({ length: players }, () => new Uint8Array(MAX_LOG_FRAMES)),
          logStart: 1,
          keyframe: null,
          changed: Array.from({ length: players }, () => new Set<number>()),
          statesSent: new Array<number>(players).fill(0),
        };
        rooms.set(m.room, room);
        emit({ event: 'room-open', room: m.room, client: c.id, message: `room ${quoted} opened for ${players} player${players === 1 ? '' : 's'} (${rooms.size} open)` });
      }
      const seat = room.seats.indexOf(null);
      c.seat = seat;
      room.seats[seat] = c;
      c.rng = seedrandom(`${seed}/${m.room}/player ${seat}`);
    } else {
      if (!room) throw new ProtocolError(`join: no room ${quoted} to watch`);
      if (room.spectators.size >= MAX_SPECTATORS) throw new ProtocolError(`join: room ${quoted} has its most spectators (${MAX_SPECTATORS})`);
      if (room.started) {
        const from = room.keyframe ? room.keyframe.f + 1 : 1;
        if (room.logStart > from) {
          throw new ProtocolError(`join: room ${quoted} cannot be caught up until its next keyframe (the relay keeps ${MAX_LOG_FRAMES} frames of inputs)`);
        }
      }
      c.seat = -1;
      room.spectators.add(c);
      c.rng = seedrandom(`${seed}/${m.room}/spectator ${room.spectatorSerial++}`);
    }
    c.room = room;
    c.role = m.role;
    if (c.joinTimer) clearTimeout(c.joinTimer);
    c.joinTimer = null;
    send(c, { t: 'joined', room: room.name, role: m.role, player: c.seat, players: room.players, config: room.config });
    if (m.role === 'player' && !room.seats.includes(null)) {
      room.started = true;
      broadcast(room, { t: 'start' });
      // spectators that joined before the start get their (empty) catch-up too: a session follows live inputs only after one
      for (const x of room.spectators) send(x, { t: 'catchup', keyframe: null, from: 1, inputs: room.logged.map((last, j) => readLog(room, j, 1, last)) });
    } else if (m.role === 'spectator' && room.started) {
      send(c, { t: 'start' });
      const from = room.keyframe ? room.keyframe.f + 1 : 1;
      const inputs = room.logged.map((last, j) => readLog(room, j, from, last));
      send(c, { t: 'catchup', keyframe: room.keyframe, from, inputs });
      for (let k = 0; k < room.players; k++) {
        if (room.leftFrom[k] !== null) send(c, leftMessage(room, k));
      }
    }
  };

  const input = (c: Client, room: Room, m: InputMessage) => {
    const k = c.seat;
    if (room.players !== m.ack.length) {
      throw new ProtocolError(`input.ack: expected ${room.players} items (one per player), got ${m.ack.length}`);
    }
    const logged = room.logged[k]!;
    const last = m.f + m.b.length - 1;
    if (m.f > logged + 1) throw new ProtocolError(`input.f: frame ${m.f} leaves a gap (player ${k}'s inputs are logged up to frame ${logged})`);
    if (last > logged + MAX_INPUT_LEAD) throw new ProtocolError(`input.f: frames up to ${last} reach more than ${MAX_INPUT_LEAD} past the logged frame ${logged}`);
    const confirmedBefore = confirmedFrame(room);
    if (last > confirmedBefore + MAX_AHEAD_OF_CONFIRMED) {
      throw new ProtocolError(`input.f: frames up to ${last} run more than ${MAX_AHEAD_OF_CONFIRMED} ahead of the room's confirmed frame ${confirmedBefore}`);
    }
    const confirmed = confirmedFrame(room, k, last);
    m.c.forEach(([f], i) => {
      if (f > confirmed) throw new ProtocolError(`input.c[${i}]: frame ${f} is not confirmed (the room's confirmed frame is ${confirmed})`);
      if (f % room.config.checkInterval !== 0) throw new ProtocolError(`input.c[${i}]: frame ${f} is not a multiple of the check interval ${room.config.checkInterval}`);
    });
    const ring = room.log[k]!;
    const changedNow: number[] = [];
    for (let f = Math.max(m.f, room.logStart); f <= Math.min(last, logged); f++) {
      if (ring[f % MAX_LOG_FRAMES] !== m.b[f - m.f] && !room.changed[k]!.has(f)) changedNow.push(f);
    }
    if (room.changed[k]!.size + changedNow.length > MAX_CHANGED_FRAMES) {
      throw new ProtocolError(`input.b: more than ${MAX_CHANGED_FRAMES} frames changed after they were sent`);
    }
    if (last > logged) {
      room.logStart = Math.max(room.logStart, last - MAX_LOG_FRAMES + 1);
      for (let f = logged + 1; f <= last; f++) ring[f % MAX_LOG_FRAMES] = m.b[f - m.f]!;
      room.logged[k] = last;
    }
    for (const f of changedNow) {
      room.changed[k]!.add(f);
      broadcast(room, { t: 'changed', p: k, f });
    }
    trimLog(room);
    const first = Math.max(m.f, room.logStart);
    if (first <= last) broadcast(room, { t: 'input', p: k, f: first, b: readLog(room, k, first, last), ack: m.ack, c: m.c, at: m.at }, c);
  };

  const keyframe = (c: Client, room: Room, m: KeyframeMessage) => {
    const lowest = room.seats.findIndex((s) => s !== null);
    if (c.seat !== lowest) throw new ProtocolError(`keyframe: sent by player ${c.seat}, but player ${lowest} is the room's lowest-numbered player`);
    if (m.f % room.config.keyframeInterval !== 0) throw new ProtocolError(`keyframe.f: frame ${m.f} is not a multiple of the keyframe interval ${room.config.keyframeInterval}`);
    const confirmed = confirmedFrame(room);
    if (m.f > confirmed) throw new ProtocolError(`keyframe.f: frame ${m.f} is not confirmed (the room's confirmed frame is ${confirmed})`);
    if (room.keyframe && m.f <= room.keyframe.f) return; // an older one: the newer is kept
    room.keyframe = { f: m.f, hash: m.hash, data: m.data };
    trimLog(room);
  };

  /** A player's state at a checked frame, sent when it found a desync there: forwarded to everyone else, never dropped. */
  const state = (c: Client, room: Room, m: StateMessage) => {
    const k = c.seat;
    if (room.statesSent[k]! >= MAX_STATES_PER_CLIENT) throw new ProtocolError(`state: more than ${MAX_STATES_PER_CLIENT} states sent`);
    if (m.f % room.config.checkInterval !== 0) throw new ProtocolError(`state.f: frame ${m.f} is not a multiple of the check interval ${room.config.checkInterval}`);
    const confirmed = confirmedFrame(room);
    if (m.f > confirmed) throw new ProtocolError(`state.f: frame ${m.f} is not confirmed (the room's confirmed frame is ${confirmed})`);
    room.statesSent[k]!++;
    broadcast(room, { t: 'state', p: k, f: m.f, hash: m.hash, data: m.data }, c);
  };

  const handle = (c: Client, m: ClientMessage) => {
    if (m.t === 'join') return join(c, m);
    const room = c.room;
    if (!room) throw new ProtocolError(`${m.t}: the first message must be join`);
    switch (m.t) {
      case 'ping':
        send(c, { t: 'pong', id: m.id });
        return;
      case 'input':
        if (c.role !== 'player') throw new ProtocolError('input: spectators send no inputs');
        if (!room.started) throw new ProtocolError('input: the room has not started');
        return input(c, room, m);
      case 'keyframe':
        if (c.role !== 'player') throw new ProtocolError('keyframe: spectators send no keyframes');
        if (!room.started) throw new ProtocolError('keyframe: the room has not started');
        return keyframe(c, room, m);
      case 'state':
        if (c.role !== 'player') throw new ProtocolError('state: spectators send no states');
        if (!room.started) throw new ProtocolError('state: the room has not started');
        return state(c, room, m);
    }
  };

  const receive = (c: Client, data: RawData, isBinary: boolean) => {
    if (c.closed) return;
    stats.received++;
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
    if (bytes.length > MAX_MESSAGE_LENGTH && !/^\s*\{\s*"t"\s*:\s*"(keyframe|state)"/.test(bytes.subarray(0, 64).toString('latin1'))) {
      throw new ProtocolError(`message: ${bytes.length} bytes, more than ${MAX_MESSAGE_LENGTH} (only a keyframe or a state may be longer)`, 1009);
    }
    handle(c, parseClientMessage(bytes.toString('utf8')));
  };

  // --- the server -------------------------------------------------------------------------------------

  return new Promise<Relay>((resolve, reject) => {
    const wss = new WebSocketServer({ host, port: options.port ?? 0, maxPayload: MAX_KEYFRAME_LENGTH, closeTimeout: 5000 } as ConstructorParameters<typeof WebSocketServer>[0]);
    let listening = false;
    wss.on('error', (e) => {
      if (!listening) reject(e);
      else emit({ event: 'internal', message: `server error: ${e.message}` });
    });
    wss.on('connection', (ws) => {
      const c: Client = {
        id: nextId++,
        ws,
        closed: false,
        alive: true,
        room: null,
        role: null,
        seat: -1,
        tokens: RATE_BURST,
        byteTokens: BYTES_BURST,
        refilledAt: Date.now(),
        joinTimer: null,
        rng: null,
        queue: [],
        timer: null,
        barrier: 0,
        lastDue: 0,
      };
      // ws reports what it refuses itself (a payload over maxPayload, bad UTF-8, a bad frame) and then closes
      ws.on('error', (e) => {
        if (c.closed) return;
        stats.refused++;
        emit({ event: 'refused', client: c.id, room: c.room?.name, reason: e.message, message: `client ${c.id} refused by the WebSocket layer: ${e.message}` });
      });
      ws.on('close', () => guard(c, () => depart(c)));
      ws.on('pong', () => (c.alive = true));
      ws.on('message', (data, isBinary) => guard(c, () => receive(c, data, isBinary)));
      if (clients.size >= maxClients) {
        refuse(c, `relay: full (${maxClients} connections)`);
        return;
      }
      clients.add(c);
      c.joinTimer = setTimeout(() => guard(c, () => refuse(c, `join: none within ${JOIN_TIMEOUT_MS / 1000} s of connecting`)), JOIN_TIMEOUT_MS);
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
    wss.on('listening', () => {
      listening = true;
      const a = wss.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      const url = `ws://${host.includes(':') ? `[${host}]` : host}:${port}`;
      emit({ event: 'listening', message: `listening on ${url}` });
      resolve({
        url,
        stats: () => ({ rooms: rooms.size, clients: clients.size, ...stats }),
        close: () =>
          new Promise<void>((done) => {
            clearInterval(heartbeat);
            for (const c of [...clients]) {
              depart(c);
              c.ws.close(1001, 'relay closing');
            }
            for (const ws of wss.clients) ws.terminate();
            wss.close(() => done());
          }),
      });
    });
  });
}
