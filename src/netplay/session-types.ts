/**
 * The public shapes of a NetplaySession: its options, its stats, its desync report and its events.
 */
import type { SimSnapshot, Simulation } from '../sim/simulation.js';
import type { NetplayConfig, RuntimeIdentity } from './protocol.js';
import type { NetplayTransport } from './transport.js';
import type { DesyncStateComparison } from './desync-states.js';

/** Options of a NetplaySession. */
export interface NetplaySessionOptions {
  /** The pipe to the relay. */
  transport: NetplayTransport;
  /** Builds a fresh simulation of the room's config (called twice for a player, once for a spectator). */
  build: (config: NetplayConfig) => Simulation;
  /** A player sends inputs; a spectator only follows and checks. */
  role: 'player' | 'spectator';
  /** The room's name. */
  room: string;
  /** The room's config, given by the player that creates the room (later clients adopt the room's). */
  config?: NetplayConfig;
  /** Frames between setting a local input and the frame it applies to (default: the room's, else 2). */
  inputDelay?: number;
  /** Most frames simulated past the confirmed frame (default 8). */
  maxPrediction?: number;
  /** Frames between exchanged checksums when creating a room without `config.checkInterval` (default 10). */
  checkInterval?: number;
  /**
   * A display name sent with `join`: at most 32 characters, none a control or bidirectional character (the
   * relay tells every client of the room each seat's name).
   */
  name?: string;
  /** The session stops advancing at this frame (default: never). Lets every client end on the same frame. */
  lastFrame?: number;
  /** Most confirmed frames a spectator simulates in one tick while catching up (default 64). */
  catchupPerTick?: number;
  /** Milliseconds clock for ping, pacing and silence (default `performance.now`); never read inside a step. */
  now?: () => number;
  /**
   * The runtime this client runs, sent with `join`; the relay seats it only in a room of the same runtime
   * (default: this runtime's version alone, kind "version"; Node programs pass `nodeRuntimeIdentity()`).
   */
  runtime?: RuntimeIdentity;
  /**
   * The content hash of the scenario module graph this client brings, sent with `join` ("0x" + 16 hex digits);
   * none when it plays built-in scenarios only. The relay seats it only in a room that plays that graph.
   */
  scenarioGraph?: string;
  /**
   * Once seated, the session pings its relay twice a second; when nothing at all has arrived for this many
   * milliseconds since a ping went out, it closes, saying the relay has been silent (default 20 000,
   * 1 000–3 600 000). It must exceed any delay the relay adds.
   */
  silenceTimeoutMs?: number;
}

/** What `session.stats` holds. */
export interface NetplayStats {
  /** The frame the session has simulated up to (for a spectator, the confirmed frame). */
  frame: number;
  /** The newest frame every player's input is known for (and simulated by the confirmed simulation). */
  confirmedFrame: number;
  rollbacks: number;
  /** Frames re-simulated by the longest rollback. */
  maxRollback: number;
  /** How many frames this client is ahead of the slowest peer (estimated with half the ping). */
  framesAhead: number;
  /** Smoothed round trip to the relay, ms (0 before the first pong). */
  pingMs: number;
  inputDelay: number;
  /** Ticks that simulated nothing: prediction window full, or time sync letting a slower peer catch up. */
  waits: number;
  desyncs: number;
  /** This client's seat (−1 for a spectator or before `joined`). */
  player: number;
  players: number;
  state: 'joining' | 'waiting' | 'running' | 'closed';
  /** Why the session closed, once closed. */
  closeReason?: string;
  /** Each seat's player's name as the relay last said ('' when it gave none; null: the seat is free or not yet known). */
  names: (string | null)[];
  /** The seats whose player said its page is hidden (their inputs may come late). */
  hidden: number[];
  /**
   * The seats this player's last tick waited for: their inputs hold back the confirmed frame (the prediction
   * window is full) or they are behind (time sync). Empty when the last tick simulated a frame.
   */
  waitingFor: number[];
}

/** A desync: a confirmed frame where a peer's state (or its input history) differs from ours. */
export interface DesyncReport {
  frame: number;
  /** The seats of the players that differ from us. */
  players: number[];
  /** What was found: a checksum mismatch, a relay `changed` notice, or an input that changed on resend. */
  cause: 'checksum' | 'changed' | 'input';
  /** Our hash of that frame ("0x" + 16 hex digits), when known. */
  ours: string | null;
  /** The peers' hashes of that frame, by seat. */
  theirs: Record<number, string>;
  /**
   * The hash sections that differ from any peer whose state arrived (`states`); `['unknown']` until one does.
   * Players send their state of a desynced check frame once, so the report fills in a moment after the event
   * (the `desyncStates` event says when).
   */
  sections: string[];
  /** Our snapshot at that frame (or the nearest kept, see its `frame`), for `replay`'s snapshot diff. */
  snapshot: SimSnapshot | null;
  /** Each peer's state at that frame compared with ours, by seat, as their `state` messages arrive. */
  states: Record<number, DesyncStateComparison>;
}

/** The events of a NetplaySession. */
export interface NetplayEvents {
  desync: DesyncReport;
  /** A peer's state for the reported desync arrived and was compared: the report now names the sections. */
  desyncStates: { report: DesyncReport; player: number; comparison: DesyncStateComparison };
  confirmed: { frame: number; hash: string };
  left: { player: number; from: number };
  /** The relay said who holds each seat (a player took one, or one came free before the start). */
  seats: { names: (string | null)[] };
  /** A peer's page was hidden (`hidden` true) or shown again. */
  away: { player: number; hidden: boolean };
  state: NetplayStats['state'];
  closed: { reason: string };
}
