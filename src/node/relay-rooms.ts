/**
 * The relay's rooms: who may join one (the room's runtime and scenario module graph, its seats, the rooms an
 * address may open), its input log (the first value logged for a player's frame wins, a resend that differs is
 * announced as `changed`), the keyframe late spectators start from (kept only once every connected player's
 * checksum of its frame agrees with it), and the deadlines that keep a room from holding the relay for
 * nothing: a room that does not start in time closes, and a player that holds its started room back without a
 * new frame for too long is dropped, its seat idling as when it disconnects.
 */
import seedrandom from 'seedrandom';
import {
  MAX_AHEAD_OF_CONFIRMED,
  MAX_INPUT_LEAD,
  MAX_LEFT_INPUTS,
  MAX_LOG_FRAMES,
  MAX_SPECTATORS,
  MAX_STATES_PER_CLIENT,
  ProtocolError,
  type InputMessage,
  type JoinMessage,
  type KeyframeMessage,
  type RelayMessage,
  type RuntimeIdentity,
  type StateMessage,
} from '../netplay/protocol.js';
import { printable } from '../netplay/printable.js';
import { MAX_CHANGED_FRAMES, MAX_PAYLOAD, MAX_UNJOINED_MESSAGE, seconds, type RelayLimits } from './relay-limits.js';
import type { Sending } from './relay-sending.js';
import type { RelayEvent } from './relay-types.js';
import type { Client, Room } from './relay-state.js';

/** Keyframe frames whose players' checksums are kept while a keyframe may still come for them. */
const CHECKED_FRAMES_KEPT = 4;

/** What the rooms need from the relay. */
export interface RoomsContext {
  limits: RelayLimits;
  seed: string;
  sending: Sending;
  emit(e: RelayEvent): void;
  /** Closes `c` with `reason` (sent to it first), leaving its room. */
  refuse(c: Client, reason: string, code?: 1008 | 1009 | 1011): void;
  /** The most bytes `c`'s next messages may have, now that its role is known. */
  setMessageLimit(c: Client, bytes: number): void;
}

/** A name as a line quotes it: JSON-quoted and printable. */
const quote = (s: string): string => printable(JSON.stringify(s));

/** A runtime as a refusal names it. */
function describeRuntime(r: RuntimeIdentity): string {
  const hash = r.hash ? r.hash.slice(0, 16) : '';
  return r.kind === 'files' ? `${r.version} (files ${hash})` : r.kind === 'build' ? `${r.version} (browser build ${hash})` : `${r.version} (no hash named)`;
}

/** Whether a client of runtime `b` may join a room of runtime `a`: one version, and one hash when both name one of a kind. */
export function sameRuntime(a: RuntimeIdentity, b: RuntimeIdentity): boolean {
  return a.version === b.version && (a.kind !== b.kind || a.kind === 'version' || a.hash === b.hash);
}

export class Rooms {
  readonly rooms = new Map<string, Room>();
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly ctx: RoomsContext) {}

  // --- the input log ----------------------------------------------------------------------------------

  private readLog(room: Room, k: number, from: number, to: number): number[] {
    const out: number[] = [];
    const ring = room.log[k]!;
    for (let f = Math.max(from, room.logStart); f <= to; f++) out.push(ring[f % MAX_LOG_FRAMES]!);
    return out;
  }

  /** Player k left: idle from its next frame; its last logged inputs still in the log, up to MAX_LEFT_INPUTS. */
  private leftMessage(room: Room, k: number): RelayMessage {
    const from = room.leftFrom[k]!;
    const f0 = Math.min(from, Math.max(room.logStart, from - MAX_LEFT_INPUTS, 1));
    return { t: 'left', p: k, from, f0, b: this.readLog(room, k, f0, from - 1) };
  }

  /** The frame up to which the relay has every player's input (players that left idle for ever after). */
  private confirmedFrame(room: Room, k = -1, lastK = 0): number {
    let min = Infinity;
    let max = 0;
    for (let j = 0; j < room.players; j++) {
      const logged = j === k ? Math.max(room.logged[j]!, lastK) : room.logged[j]!;
      max = Math.max(max, logged);
      if (room.leftFrom[j] === null) min = Math.min(min, logged);
    }
    return min === Infinity ? max : min;
  }

  /** Drops inputs nobody can need: before the latest keyframe (keeping each player's last MAX_LEFT_INPUTS), and past the log's size. */
  private trimLog(room: Room): void {
    const confirmed = this.confirmedFrame(room);
    if (room.keyframe) room.logStart = Math.max(room.logStart, Math.min(room.keyframe.f + 1, confirmed - MAX_LEFT_INPUTS + 1));
    const newest = Math.max(...room.logged);
    room.logStart = Math.max(room.logStart, newest - MAX_LOG_FRAMES + 1);
  }

  // --- joining ----------------------------------------------------------------------------------------

  /** Refuses a join whose runtime or scenario module graph is not the room's. */
  private checkSameCode(room: Room, m: JoinMessage): void {
    if (!sameRuntime(room.runtime, m.runtime)) {
      throw new ProtocolError(`join.runtime: the room runs ${describeRuntime(room.runtime)}, this client ${describeRuntime(m.runtime)}: only the room's runtime may join it`);
    }
    const s = room.config.scenario;
    const module = s.source.startsWith('file:') || s.modules !== undefined;
    const what = `scenario ${quote(s.name)} ${printable(s.version)} from the module ${printable(s.source.replace(/^file:/, ''))}`;
    if (module && m.scenario === undefined) throw new ProtocolError(`join.scenario: the room plays ${what} (module graph ${printable(s.contentHash)}); this client brings none: give that module with --scenario FILE`);
    if (module && m.scenario !== s.contentHash) throw new ProtocolError(`join.scenario: the room plays ${what} with module graph ${printable(s.contentHash)}; this client's module graph is ${m.scenario}`);
    if (!module && m.scenario !== undefined) throw new ProtocolError(`join.scenario: the room plays the built-in scenario ${quote(s.name)}; this client brings a module (graph ${m.scenario})`);
  }

  private open(c: Client, m: JoinMessage): Room {
    const quoted = JSON.stringify(m.room);
    const { limits } = this.ctx;
    if (!m.config) throw new ProtocolError(`join.config: missing (the first player of room ${quoted} gives the config)`);
    if (this.rooms.size >= limits.maxRooms) throw new ProtocolError(`join: the relay holds its most rooms (${limits.maxRooms})`);
    const held = this.perAddress.get(c.address) ?? 0;
    if (held >= limits.maxRoomsPerAddress) throw new ProtocolError(`join: ${held} rooms opened from this address are open (the most per address); join one of them, or wait until one closes`);
    const s = m.config.scenario;
    if (m.scenario !== undefined && m.scenario !== s.contentHash) throw new ProtocolError(`join.scenario: this client's module graph ${m.scenario} is not the one its config names (${printable(s.contentHash)})`);
    const players = m.config.settings.players;
    const room: Room = {
      name: m.room,
      config: m.config,
      runtime: m.runtime,
      address: c.address,
      openedAt: Date.now(),
      players,
      seats: new Array<Client | null>(players).fill(null),
      spectators: new Set(),
      spectatorSerial: 0,
      started: false,
      logged: new Array<number>(players).fill(0),
      advancedAt: new Array<number>(players).fill(0),
      leftFrom: new Array<number | null>(players).fill(null),
      log: Array.from({ length: players }, () => new Uint8Array(MAX_LOG_FRAMES)),
      logStart: 1,
      keyframe: null,
      candidate: null,
      checks: new Map(),
      changed: Array.from({ length: players }, () => new Set<number>()),
      statesSent: new Array<number>(players).fill(0),
    };
    this.rooms.set(m.room, room);
    this.perAddress.set(c.address, held + 1);
    this.ctx.emit({ event: 'room-open', room: m.room, client: c.id, message: `room ${quoted} opened for ${players} player${players === 1 ? '' : 's'} (${this.rooms.size} open)` });
    return room;
  }

  join(c: Client, m: JoinMessage): void {
    if (c.room) throw new ProtocolError('join: this connection has already joined');
    const { sending } = this.ctx;
    let room = this.rooms.get(m.room);
    const quoted = JSON.stringify(m.room);
    if (room) this.checkSameCode(room, m);
    if (m.role === 'player') {
      if (room?.started) throw new ProtocolError(`join: room ${quoted} has started; join it as a spectator`);
      room ??= this.open(c, m);
      const seat = room.seats.indexOf(null);
      c.seat = seat;
      room.seats[seat] = c;
      c.rng = seedrandom(`${this.ctx.seed}/${m.room}/player ${seat}`);
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
      c.rng = seedrandom(`${this.ctx.seed}/${m.room}/spectator ${room.spectatorSerial++}`);
    }
    c.room = room;
    c.role = m.role;
    if (c.joinTimer) clearTimeout(c.joinTimer);
    c.joinTimer = null;
    // a player may send keyframes and states from now on; a spectator only short messages
    this.ctx.setMessageLimit(c, m.role === 'player' ? MAX_PAYLOAD : MAX_UNJOINED_MESSAGE);
    c.name = m.name ?? '';
    sending.send(c, { t: 'joined', room: room.name, role: m.role, player: c.seat, players: room.players, config: room.config });
    this.ctx.emit({ event: 'joined', room: room.name, client: c.id, message: `client ${c.id} (${c.address}) joined room ${quoted} as ${m.role === 'player' ? `player ${c.seat}` : 'a spectator'}${c.name ? ` named ${quote(c.name)}` : ''}` });
    // who holds each seat: to everyone when a player sits down, to a spectator when it arrives
    const seats = { t: 'seats' as const, names: room.seats.map((s) => (s ? s.name : null)) };
    if (m.role === 'player') sending.broadcast(room, seats);
    else sending.send(c, seats);
    if (m.role === 'player' && !room.seats.includes(null)) {
      room.started = true;
      room.advancedAt.fill(Date.now());
      this.ctx.emit({ event: 'room-start', room: room.name, message: `room ${quoted} started with ${room.players} player${room.players === 1 ? '' : 's'}` });
      sending.broadcast(room, { t: 'start' });
      // spectators that joined before the start get their (empty) catch-up too: a session follows live inputs only after one
      for (const x of room.spectators) sending.catchup(x, null, 1, room.logged.map((last, j) => this.readLog(room, j, 1, last)));
    } else if (m.role === 'spectator' && room.started) {
      sending.send(c, { t: 'start' });
      const from = room.keyframe ? room.keyframe.f + 1 : 1;
      sending.catchup(c, room.keyframe, from, room.logged.map((last, j) => this.readLog(room, j, from, last)));
      for (let k = 0; k < room.players; k++) {
        if (room.leftFrom[k] !== null) sending.send(c, this.leftMessage(room, k));
      }
    }
  }

  // --- playing ----------------------------------------------------------------------------------------

  input(c: Client, room: Room, m: InputMessage): void {
    const k = c.seat;
    if (room.players !== m.ack.length) {
      throw new ProtocolError(`input.ack: expected ${room.players} items (one per player), got ${m.ack.length}`);
    }
    const logged = room.logged[k]!;
    const last = m.f + m.b.length - 1;
    if (m.f > logged + 1) throw new ProtocolError(`input.f: frame ${m.f} leaves a gap (player ${k}'s inputs are logged up to frame ${logged})`);
    if (last > logged + MAX_INPUT_LEAD) throw new ProtocolError(`input.f: frames up to ${last} reach more than ${MAX_INPUT_LEAD} past the logged frame ${logged}`);
    const confirmedBefore = this.confirmedFrame(room);
    if (last > confirmedBefore + MAX_AHEAD_OF_CONFIRMED) {
      throw new ProtocolError(`input.f: frames up to ${last} run more than ${MAX_AHEAD_OF_CONFIRMED} ahead of the room's confirmed frame ${confirmedBefore}`);
    }
    const confirmed = this.confirmedFrame(room, k, last);
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
      room.advancedAt[k] = Date.now();
    }
    const { sending } = this.ctx;
    for (const f of changedNow) {
      room.changed[k]!.add(f);
      sending.broadcast(room, { t: 'changed', p: k, f });
    }
    this.recordChecks(room, k, m.c);
    this.trimLog(room);
    const first = Math.max(m.f, room.logStart);
    if (first <= last) sending.broadcast(room, { t: 'input', p: k, f: first, b: this.readLog(room, k, first, last), ack: m.ack, c: m.c, at: m.at }, c);
    if (room.candidate) this.weighCandidate(room);
  }

  /** Keeps each player's first checksum of the keyframe frames a keyframe may still come for. */
  private recordChecks(room: Room, k: number, checks: InputMessage['c']): void {
    const kept = room.keyframe?.f ?? 0;
    for (const [f, h] of checks) {
      if (f <= kept || f % room.config.keyframeInterval !== 0) continue;
      let row = room.checks.get(f);
      if (!row) {
        row = new Array<string | undefined>(room.players).fill(undefined);
        room.checks.set(f, row);
        while (room.checks.size > CHECKED_FRAMES_KEPT) room.checks.delete(Math.min(...room.checks.keys()));
      }
      row[k] ??= h;
    }
  }

  keyframe(c: Client, room: Room, m: KeyframeMessage): void {
    const lowest = room.seats.findIndex((s) => s !== null);
    if (c.seat !== lowest) throw new ProtocolError(`keyframe: sent by player ${c.seat}, but player ${lowest} is the room's lowest-numbered player`);
    if (m.f % room.config.keyframeInterval !== 0) throw new ProtocolError(`keyframe.f: frame ${m.f} is not a multiple of the keyframe interval ${room.config.keyframeInterval}`);
    const confirmed = this.confirmedFrame(room);
    if (m.f > confirmed) throw new ProtocolError(`keyframe.f: frame ${m.f} is not confirmed (the room's confirmed frame is ${confirmed})`);
    if ((room.keyframe && m.f <= room.keyframe.f) || (room.candidate && m.f <= room.candidate.f)) return; // an older one: the newer is kept
    room.candidate = { f: m.f, hash: m.hash, json: Buffer.from(JSON.stringify({ f: m.f, hash: m.hash, data: m.data })), sender: c };
    this.weighCandidate(room);
  }

  /**
   * Keeps the waiting keyframe once every connected player's checksum of its frame is its hash. One that
   * differs from its own sender's checksum closes the sender (it sent a state it does not hold); one that
   * differs from another player's is not kept, and the log names both (the players find that desync
   * themselves, from their checksums).
   */
  private weighCandidate(room: Room): void {
    const kf = room.candidate!;
    const row = room.checks.get(kf.f);
    let all = true;
    for (let j = 0; j < room.players; j++) {
      if (room.seats[j] === null) continue;
      const h = row?.[j];
      if (h === undefined) {
        all = false;
        continue;
      }
      if (h === kf.hash) continue;
      room.candidate = null;
      const from = kf.sender.seat;
      if (room.seats[from] === kf.sender && j === from) {
        this.ctx.refuse(kf.sender, `keyframe: frame ${kf.f} hashes ${kf.hash}, but this player's own checksum of frame ${kf.f} is ${h}`);
      } else {
        this.ctx.emit({ event: 'keyframe-refused', room: room.name, client: kf.sender.id, message: `room ${JSON.stringify(room.name)}: the keyframe of frame ${kf.f} from player ${from} (hash ${kf.hash}) is not kept: player ${j}'s checksum of that frame is ${h}` });
      }
      return;
    }
    if (!all) return;
    room.keyframe = { f: kf.f, hash: kf.hash, json: kf.json };
    room.candidate = null;
    for (const f of [...room.checks.keys()]) if (f <= kf.f) room.checks.delete(f);
    this.trimLog(room);
  }

  /** A player's state at a checked frame, sent when it found a desync there: forwarded to everyone else, never dropped. */
  state(c: Client, room: Room, m: StateMessage): void {
    const k = c.seat;
    if (room.statesSent[k]! >= MAX_STATES_PER_CLIENT) throw new ProtocolError(`state: more than ${MAX_STATES_PER_CLIENT} states sent`);
    if (m.f % room.config.checkInterval !== 0) throw new ProtocolError(`state.f: frame ${m.f} is not a multiple of the check interval ${room.config.checkInterval}`);
    const confirmed = this.confirmedFrame(room);
    if (m.f > confirmed) throw new ProtocolError(`state.f: frame ${m.f} is not confirmed (the room's confirmed frame is ${confirmed})`);
    room.statesSent[k]!++;
    this.ctx.sending.broadcast(room, { t: 'state', p: k, f: m.f, hash: m.hash, data: m.data }, c);
  }

  // --- leaving and deadlines --------------------------------------------------------------------------

  /** The client leaves its room (once): a player's seat idles from its next frame, or frees before the start. */
  leave(c: Client): void {
    const room = c.room;
    if (!room) return;
    if (c.role === 'spectator') room.spectators.delete(c);
    else if (room.seats[c.seat] === c) {
      room.seats[c.seat] = null;
      if (room.started) {
        const k = c.seat;
        const from = room.logged[k]! + 1;
        room.leftFrom[k] = from;
        this.ctx.sending.broadcast(room, this.leftMessage(room, k));
        this.ctx.emit({ event: 'left', room: room.name, client: c.id, message: `room ${JSON.stringify(room.name)}: player ${k} left; idle from frame ${from}` });
        // the keyframe waiting may have waited for this player's checksum only
        if (room.candidate && !room.seats.every((s) => s === null)) this.weighCandidate(room);
      } else this.ctx.sending.broadcast(room, { t: 'seats', names: room.seats.map((s) => (s ? s.name : null)) });
    }
    this.closeIfEmpty(room);
  }

  private closeIfEmpty(room: Room): void {
    if (this.ctx.sending.members(room).length > 0 || this.rooms.get(room.name) !== room) return;
    this.rooms.delete(room.name);
    const held = (this.perAddress.get(room.address) ?? 1) - 1;
    if (held > 0) this.perAddress.set(room.address, held);
    else this.perAddress.delete(room.address);
    this.ctx.emit({ event: 'room-close', room: room.name, message: `room ${JSON.stringify(room.name)} closed (${this.rooms.size} open)` });
  }

  /**
   * The deadlines: a room not started within startTimeoutMs closes (each member told why); in a started room,
   * a connected player whose logged frame is the room's confirmed frame (it holds the room back) and has not
   * advanced for inputTimeoutMs is dropped.
   */
  sweep(now: number): void {
    const { limits } = this.ctx;
    for (const room of [...this.rooms.values()]) {
      const quoted = JSON.stringify(room.name);
      if (!room.started) {
        if (now - room.openedAt < limits.startTimeoutMs) continue;
        const taken = room.seats.filter((s) => s !== null).length;
        for (const c of this.ctx.sending.members(room)) this.ctx.refuse(c, `join: room ${quoted} did not start within ${seconds(limits.startTimeoutMs)} of opening (${taken} of ${room.players} seats taken)`);
        continue;
      }
      const confirmed = this.confirmedFrame(room);
      for (let k = 0; k < room.players; k++) {
        const c = room.seats[k];
        if (!c || room.logged[k]! > confirmed || now - room.advancedAt[k]! < limits.inputTimeoutMs) continue;
        this.ctx.refuse(c, `input: no new frame for ${seconds(now - room.advancedAt[k]!)} while the room waits for this player (its inputs are logged up to frame ${room.logged[k]}; the most is ${seconds(limits.inputTimeoutMs)})`);
      }
    }
  }
}
