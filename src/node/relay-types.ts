/**
 * The relay's public shapes: what it reports (events, stats, the running relay). What it keeps per client and
 * per room is in relay-state.ts, apart, so that these declarations need no WebSocket library's types.
 */

/** One line of the relay's log. Every string in it is printable (what clients sent is escaped). */
export interface RelayEvent {
  /**
   * `limits` (at start: the descriptors and the connections they allow), `listening`, `room-open`, `joined`
   * (a client seated as a player or a spectator), `room-start`, `room-close`, `refused` (a client closed for a broken rule, a deadline or a limit), `left`
   * (a player's seat idles), `keyframe-refused` (a keyframe not kept: a player's checksum of its frame differs),
   * `internal` (a fault of the relay's own, the client closed).
   */
  event: 'limits' | 'listening' | 'room-open' | 'joined' | 'room-start' | 'room-close' | 'refused' | 'left' | 'keyframe-refused' | 'internal';
  /** The line for people. */
  message: string;
  room?: string;
  client?: number;
  reason?: string;
}

/** Counters since the relay started. */
export interface RelayStats {
  rooms: number;
  /** WebSocket connections (joined or not). */
  clients: number;
  /** Sockets, in any state (handshakes in progress too). */
  sockets: number;
  /** Messages received from clients. */
  received: number;
  /** Messages handed to sockets (after impairment). */
  sent: number;
  /** Input forwards and pongs dropped by impairment. */
  dropped: number;
  /** Clients closed for a broken rule, a deadline or a limit. */
  refused: number;
  /** Sockets turned away before their handshake (over a per-address or the handshake limit, or too slow). */
  turnedAway: number;
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
