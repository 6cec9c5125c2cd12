/**
 * A room the page plays in: the NetplaySession (role player) over a transport, the two fresh worlds it builds
 * its simulations on (opened when the relay's `joined` names the room's config, before the session may read
 * it), one session tick per simulation frame with the keyboard's buttons, and what the page and its tests
 * read back: every confirmed frame's hash, the desync reports, the session's stats and replay.
 *
 * No DOM here: Node tests run it over an in-memory relay.
 */
import { parseRelayMessage, type NetplayConfig } from '../../netplay/protocol.js';
import { NetplaySession, type DesyncReport, type NetplayStats } from '../../netplay/session.js';
import type { NetplayTransport } from '../../netplay/transport.js';
import type { OpenedWorld } from '../../replay/world-identity.js';
import type { Simulation } from '../../sim/simulation.js';
import { buildRoomSimulation } from './room-config.js';
import { pageRuntime } from './build-identity.js';
import { RoomEvents } from './room-events.js';

/** Confirmed hashes kept for reading back (an hour at 60 Hz); older ones are dropped. */
export const MAX_KEPT_HASHES = 216_000;

export interface PlayRoomOptions {
  transport: NetplayTransport;
  room: string;
  /** The room's config when creating it (later players adopt the room's). */
  config?: NetplayConfig;
  /** Every player stops at this frame. */
  lastFrame?: number;
  /**
   * Two fresh worlds for the room's config (the page shows that world first); rejects with a one-line reason
   * when this page cannot have it.
   */
  prepare(config: NetplayConfig): Promise<OpenedWorld[]>;
  /** The simulation the player sees exists now (on `opened`). */
  ready?(sim: Simulation, opened: OpenedWorld): void;
  now?: () => number;
  /** The player's name, told to the others (checked by the protocol's `checkName`). */
  name?: string;
}

/** Where the page's side of the room is: before the relay answers, opening the room's world, then playing. */
export type RoomPhase = 'connecting' | 'opening' | 'playing';

export class PlayRoom {
  readonly session: NetplaySession;
  phase: RoomPhase = 'connecting';
  /** The hash of each confirmed frame: `hashes[i]` is frame `hashOffset + i + 1`'s. */
  readonly hashes: string[] = [];
  hashOffset = 0;
  readonly desyncs: DesyncReport[] = [];
  /** Players that left the room. */
  left = 0;
  /** The room's config, once the relay named it. */
  config: NetplayConfig | null = null;
  /** The short events the page shows over the map (who joined, left, waits, rollbacks, desyncs, hidden tabs). */
  readonly events: RoomEvents;
  private worlds: OpenedWorld[] = [];
  private readonly built = new Map<Simulation, OpenedWorld>();
  private shown = false;

  constructor(private readonly o: PlayRoomOptions) {
    const t = o.transport;
    // The session reads its messages only in tick(): seeing `joined` here stops the ticks until the worlds are open.
    const tee: NetplayTransport = {
      send: (text) => t.send(text),
      onMessage: (cb) =>
        t.onMessage((text) => {
          if (this.phase === 'connecting') this.peek(text);
          cb(text);
        }),
      onClose: (cb) => t.onClose(cb),
      close: () => t.close(),
    };
    this.session = new NetplaySession({
      transport: tee,
      role: 'player',
      room: o.room,
      build: (config) => this.build(config),
      ...(o.config ? { config: o.config } : {}),
      ...(o.lastFrame !== undefined ? { lastFrame: o.lastFrame } : {}),
      ...(o.now ? { now: o.now } : {}),
      ...(o.name ? { name: o.name } : {}),
      runtime: pageRuntime(),
    });
    this.events = new RoomEvents(o.now ?? (() => performance.now()));
    this.session.on('confirmed', ({ frame, hash }) => {
      if (frame !== this.hashOffset + this.hashes.length + 1) return;
      this.hashes.push(hash);
      if (this.hashes.length > MAX_KEPT_HASHES) {
        this.hashes.shift();
        this.hashOffset++;
      }
    });
    this.session.on('desync', (r) => {
      this.desyncs.push(r);
      this.events.desync(r);
    });
    this.session.on('left', ({ player, from }) => {
      this.left++;
      this.events.left(player, from);
    });
    this.session.on('seats', ({ names }) => this.events.seats(names, this.session.stats.player));
    this.session.on('away', ({ player, hidden }) => this.events.away(player, hidden));
  }

  private peek(text: string): void {
    let m;
    try {
      m = parseRelayMessage(text);
    } catch {
      return; // the session refuses it with its reason
    }
    if (m.t !== 'joined') return;
    this.phase = 'opening';
    this.config = m.config;
    this.o.prepare(m.config).then(
      (worlds) => {
        this.worlds = worlds;
        if (this.session.stats.state !== 'closed') this.phase = 'playing';
      },
      (e: unknown) => this.session.close(e instanceof Error ? e.message : String(e)),
    );
  }

  private build(config: NetplayConfig): Simulation {
    const opened = this.worlds.shift();
    if (!opened) throw new Error('no world opened for the room');
    const sim = buildRoomSimulation(config, opened);
    this.built.set(sim, opened);
    return sim;
  }

  get stats(): NetplayStats {
    return this.session.stats;
  }

  get closed(): boolean {
    return this.session.stats.state === 'closed';
  }

  /** The hash of confirmed frame `f` (null: not confirmed yet, or no longer kept). */
  hashOf(f: number): string | null {
    return this.hashes[f - this.hashOffset - 1] ?? null;
  }

  /** One simulation frame's tick with the local player's buttons. False while the room's world is being opened. */
  step(buttons: number): boolean {
    if (this.phase === 'opening' || this.closed) return false;
    this.session.setLocalInput(buttons);
    this.session.tick();
    this.events.observe(this.session.stats);
    const sim = this.session.simulation;
    if (!this.shown && sim) {
      this.shown = true;
      this.o.ready?.(sim, this.built.get(sim)!);
    }
    return true;
  }

  /** The session replay (format 4) of every confirmed frame; ends its recording. */
  replay(): Uint8Array {
    return this.session.replay();
  }

  /** The page was hidden (true) or shown again: the others are told. */
  setHidden(hidden: boolean): void {
    this.session.setHidden(hidden);
  }

  leave(): void {
    this.session.close('left the room');
  }
}
