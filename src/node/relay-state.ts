/**
 * What the relay keeps per client and per room (internal: not part of the package's API, as its types come
 * from the WebSocket library).
 */
import type { WebSocket } from 'ws';
import type { Keyframe, NetplayConfig, Role, RuntimeIdentity } from '../netplay/protocol.js';

/** A part of one text message, sent as a fragment; `shared` when the same bytes go to other clients too. */
export interface Part {
  bytes: Buffer;
  shared: boolean;
}

/**
 * What is sent to one client: a text, or one text message in parts (fragments), some of them shared with other
 * clients (a room's keyframe in its spectators' catch-ups, a state forwarded to a room): those bytes are in
 * memory once, whoever has yet to read them.
 */
export type Payload = string | Part[];

export interface Pending {
  due: number;
  payload: Payload;
}

/** A span of a client's output that is shared: it ends `end` bytes into everything sent to it, `length` long. */
export interface SharedSpan {
  end: number;
  length: number;
}

export interface Client {
  id: number;
  ws: WebSocket;
  /** The remote address's key (an IPv6 address by its /64). */
  address: string;
  closed: boolean;
  alive: boolean;
  room: Room | null;
  role: Role | null;
  /** Player seat, or −1. */
  seat: number;
  /** The name its join gave ('' none): printable, at most MAX_NAME_LENGTH characters. */
  name: string;
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
  /** Payload bytes handed to its socket since it connected. */
  written: number;
  /** Shared spans still possibly waiting in its socket. */
  shared: SharedSpan[];
}

/** A keyframe as the relay keeps it: its frame and hash, and its JSON (`{"f":…,"hash":…,"data":…}`) once, shared. */
export interface KeptKeyframe extends Omit<Keyframe, 'data'> {
  json: Buffer;
}

export interface Room {
  name: string;
  config: NetplayConfig;
  /** The runtime of the client that opened it: every other must be the same. */
  runtime: RuntimeIdentity;
  /** The address (key) it was opened from, counted against that address's rooms. */
  address: string;
  /** When it opened (the relay's clock, ms). */
  openedAt: number;
  players: number;
  seats: (Client | null)[];
  spectators: Set<Client>;
  /** Spectators ever joined (names their impairment streams). */
  spectatorSerial: number;
  started: boolean;
  /** Per player: the last logged frame. */
  logged: number[];
  /** Per player: when its logged frame last advanced (or the room started). */
  advancedAt: number[];
  /** Per player, after its connection ended: the first frame it idles (its inputs are 0 from there). */
  leftFrom: (number | null)[];
  /** Per player: a ring of MAX_LOG_FRAMES button words, frame f at f % MAX_LOG_FRAMES. */
  log: Uint8Array[];
  /** The oldest frame still in the log. */
  logStart: number;
  /** The latest keyframe every player's checksum agreed with: what late spectators start from. */
  keyframe: KeptKeyframe | null;
  /** A newer keyframe waiting for the players' checksums of its frame. */
  candidate: (KeptKeyframe & { sender: Client }) | null;
  /** Per keyframe frame not yet kept: each player's first checksum of it. */
  checks: Map<number, (string | undefined)[]>;
  /** Per player: the frames it changed after sending them. */
  changed: Set<number>[];
  /** Per player: `state` messages it has sent (at most MAX_STATES_PER_CLIENT). */
  statesSent: number[];
}
