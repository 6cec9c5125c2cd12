/**
 * The relay's limits: what each client, each remote address and the whole relay may hold, and how long each
 * stage of a connection may take. Every number here is in docs/netplay.md ("What the relay and the peers can
 * and cannot do"); the options of `startRelay` change the ones marked so (tests use small ones).
 */
import { JOIN_TIMEOUT_MS, MAX_CATCHUP_LENGTH, MAX_KEYFRAME_LENGTH, MAX_MESSAGE_LENGTH } from '../netplay/protocol.js';
import type { RelayEvent } from './relay-types.js';

/** Most WebSocket connections at once (players, spectators and connections not yet joined); option `maxClients`. */
export const DEFAULT_MAX_CLIENTS = 256;
/** Most rooms at once; option `maxRooms`. */
export const DEFAULT_MAX_ROOMS = 64;
/**
 * Most sockets from one remote address at once, in any state (handshaking, joined or not); option
 * `maxPerAddress`. An IPv6 address counts by its /64 prefix (what one host is usually given).
 */
export const DEFAULT_MAX_PER_ADDRESS = 16;
/** Most rooms opened from one remote address that are open at once; option `maxRoomsPerAddress`. */
export const DEFAULT_MAX_ROOMS_PER_ADDRESS = 4;
/** Most sockets whose WebSocket handshake has not completed, from every address together. */
export const MAX_HANDSHAKES = 64;
/** A socket's WebSocket handshake must complete within this many milliseconds of connecting; option `handshakeTimeoutMs`. */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 5_000;
/** A room must start (every seat taken) within this many milliseconds of opening; option `startTimeoutMs`. */
export const DEFAULT_START_TIMEOUT_MS = 120_000;
/**
 * A player of a started room whose logged frame holds the room back (no other player's is lower) and has
 * not advanced for this many milliseconds is dropped, its seat idling as when it disconnects; option
 * `inputTimeoutMs`.
 */
export const DEFAULT_INPUT_TIMEOUT_MS = 20_000;
/** How often the relay pings every connection; one that has not answered the previous ping is dropped. */
export const HEARTBEAT_MS = 15_000;
/**
 * Most bytes waiting to be read by one client that are its own (a keyframe shared by a room's spectators
 * counts once for the relay, not per client): a client that lets more pile up is dropped. Option
 * `maxUnreadBytes`.
 */
export const DEFAULT_MAX_UNREAD_BYTES = 4 * 1024 * 1024;
/** Descriptors kept out of the connections' reach, for the relay's own files and the system's. */
export const DESCRIPTOR_RESERVE = 64;
/** Distinct frames a player may change after sending them before the relay closes it. */
export const MAX_CHANGED_FRAMES = 64;
/**
 * A client's byte budget (token bucket): BYTES_PER_SECOND sustained, a burst of two whole keyframes. Honest
 * clients send a keyframe every keyframeInterval frames and far fewer bytes; this stops one client from making
 * the relay parse megabytes without end.
 */
export const BYTES_PER_SECOND = 2 * 1024 * 1024;
/** A client's byte burst: two whole keyframes. */
export const BYTES_BURST = 2 * MAX_KEYFRAME_LENGTH;
/** Most input forwards and pongs an impaired relay holds back for one client; beyond it they count as lost. */
export const MAX_DELAYED_MESSAGES = 4096;
/** Longest message a connection may send before its join, or as a spectator (players: a keyframe). */
export const MAX_UNJOINED_MESSAGE = MAX_MESSAGE_LENGTH;
/**
 * How far a message in progress may run past its limit before the relay closes the connection: one read of
 * the socket (64 KiB) and a frame header, since bytes are counted as they arrive, before a message ends.
 */
export const MESSAGE_SLACK = 64 * 1024 + 14;
/** Longest message the WebSocket layer takes at all (a player's keyframe or state). */
export const MAX_PAYLOAD = MAX_KEYFRAME_LENGTH;
export { JOIN_TIMEOUT_MS, MAX_CATCHUP_LENGTH };

/** How the relay is started. */
export interface RelayOptions {
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: any free one). */
  port?: number;
  /** Most rooms at once (default 64). */
  maxRooms?: number;
  /** Most WebSocket connections at once (default 256; fewer when the descriptor limit is low). */
  maxClients?: number;
  /** Most sockets from one remote address, an IPv6 one by its /64 (default 16). */
  maxPerAddress?: number;
  /** Most open rooms opened from one remote address (default 4). */
  maxRoomsPerAddress?: number;
  /** Milliseconds a socket has to complete its WebSocket handshake (default 5 000). */
  handshakeTimeoutMs?: number;
  /** Milliseconds a connection has to send its `join` (default 10 000). */
  joinTimeoutMs?: number;
  /** Milliseconds a room has to start (default 120 000). */
  startTimeoutMs?: number;
  /** Milliseconds a player holding its room back may go without a new frame (default 20 000). */
  inputTimeoutMs?: number;
  /** Most bytes of its own a client may leave unread before it is dropped (default 4 MiB). */
  maxUnreadBytes?: number;
  /** Every message the relay sends is delayed by delayMs ± jitterMs, uniform (default 0). */
  delayMs?: number;
  jitterMs?: number;
  /** Probability that an input forward or a pong is dropped (default 0). */
  loss?: number;
  /** Seed of the impairment streams (default 1). */
  seed?: number | string;
  /** Called with one event per room opened, started or closed, client refused, player left, keyframe not kept. */
  log?: (event: RelayEvent) => void;
}

/** The limits a relay runs with, every default filled in. */
export interface RelayLimits {
  maxRooms: number;
  maxClients: number;
  maxHandshakes: number;
  maxPerAddress: number;
  maxRoomsPerAddress: number;
  handshakeTimeoutMs: number;
  joinTimeoutMs: number;
  startTimeoutMs: number;
  inputTimeoutMs: number;
  maxUnreadBytes: number;
}

function positive(v: number | undefined, name: string, fallback: number): number {
  const n = v ?? fallback;
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`relay option ${name} must be a positive integer, not ${n}`);
  return n;
}

/**
 * The limits of `options` under a soft descriptor limit of `descriptors`: DESCRIPTOR_RESERVE are kept for the
 * relay itself, a quarter of the rest at most (MAX_HANDSHAKES) for handshakes in progress, and the rest at
 * most (`maxClients`) for connections, so that sockets never take the descriptors away from the relay.
 */
export function resolveLimits(options: RelayOptions, descriptors: number): RelayLimits {
  const budget = Math.max(2, descriptors - DESCRIPTOR_RESERVE);
  const maxHandshakes = Math.max(1, Math.min(MAX_HANDSHAKES, Math.floor(budget / 4)));
  return {
    maxRooms: positive(options.maxRooms, 'maxRooms', DEFAULT_MAX_ROOMS),
    maxClients: Math.max(1, Math.min(positive(options.maxClients, 'maxClients', DEFAULT_MAX_CLIENTS), budget - maxHandshakes)),
    maxHandshakes,
    maxPerAddress: positive(options.maxPerAddress, 'maxPerAddress', DEFAULT_MAX_PER_ADDRESS),
    maxRoomsPerAddress: positive(options.maxRoomsPerAddress, 'maxRoomsPerAddress', DEFAULT_MAX_ROOMS_PER_ADDRESS),
    handshakeTimeoutMs: positive(options.handshakeTimeoutMs, 'handshakeTimeoutMs', DEFAULT_HANDSHAKE_TIMEOUT_MS),
    joinTimeoutMs: positive(options.joinTimeoutMs, 'joinTimeoutMs', JOIN_TIMEOUT_MS),
    startTimeoutMs: positive(options.startTimeoutMs, 'startTimeoutMs', DEFAULT_START_TIMEOUT_MS),
    inputTimeoutMs: positive(options.inputTimeoutMs, 'inputTimeoutMs', DEFAULT_INPUT_TIMEOUT_MS),
    maxUnreadBytes: positive(options.maxUnreadBytes, 'maxUnreadBytes', DEFAULT_MAX_UNREAD_BYTES),
  };
}

/** Seconds, as limits are named in refusals ("10 s", "0.3 s"). */
export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
