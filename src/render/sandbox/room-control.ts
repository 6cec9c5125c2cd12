/**
 * The page's side of "Play together": Create (a room playing the world and settings on screen, under a fresh
 * name unless one is given), Join (a room by name, or straight from a link with `relay=` and `room=`), Leave;
 * one room tick per simulation frame; what the panel and the desync banner show; the replay and the desync
 * report to download. The page says how to open a room's world and how to show its simulation.
 */
import { checkName, type NetplayConfig } from '../../netplay/protocol.js';
import type { RoomSeats } from '../scene/seat-labels.js';
import type { NetplayTransport } from '../../netplay/transport.js';
import type { OpenedWorld } from '../../replay/world-identity.js';
import type { Simulation } from '../../sim/simulation.js';
import { download } from './dom.js';
import type { PlayPanelView } from './play-panel.js';
import { PlayRoom } from './play-room.js';
import { roomConfig, shareNote, type ShownRun } from './room-config.js';
import { checkRelayUrl, checkRoomName, formatRoomLink, freshRoomName } from './room-link.js';
import { desyncReportJson, desyncText, playersPresent, roomStatusRows, seatCss } from './room-report.js';

export interface RoomControlHost {
  /** The world and settings on screen (null: none yet). */
  shownRun(): ShownRun | null;
  /** Opens the room's world on screen if needed, and two fresh copies of it for the session. */
  prepare(config: NetplayConfig): Promise<OpenedWorld[]>;
  /** The room's predicted simulation is there: show it, the camera on `seat`'s entity, each seat's player named as `seats` says. */
  show(sim: Simulation, opened: OpenedWorld, seat: number, seats: () => RoomSeats | null): void;
  /** The room was left or closed: the page goes back to the world on its own. */
  ended(): void;
  connect(url: string): NetplayTransport;
  /** The page's address without its query. */
  pageAddress(): string;
  random(bytes: Uint8Array): Uint8Array;
}

export class RoomControl {
  room: PlayRoom | null = null;
  private relay = '';
  private name = '';
  private note = '';
  constructor(
    private readonly host: RoomControlHost,
    /** The frame every player stops at (the link's `frames=`). */
    readonly lastFrame?: number,
  ) {}

  /** In a room (until Leave, also after it closed). */
  get active(): boolean {
    return this.room !== null;
  }

  /** The player's name for the next room ('' none): the others see it beside this page's seat. */
  playerName = '';

  /** Creates a room; returns its name ('' when refused: the note says why). */
  create(relay: string, name: string, players: number): string {
    const run = this.host.shownRun();
    if (!run) return this.refuse('no world is open yet');
    let config: NetplayConfig;
    try {
      config = roomConfig(run, players);
    } catch (e) {
      return this.refuse((e as Error).message);
    }
    const room = this.enter(relay, name.trim() || freshRoomName(this.host.random), config);
    if (room) this.note = shareNote(run.world);
    return room;
  }

  /** Joins a room by name; returns its name ('' when refused). */
  join(relay: string, name: string): string {
    if (!name.trim()) return this.refuse('give the room’s name (or open the link a player shared)');
    return this.enter(relay, name);
  }

  private refuse(why: string): string {
    this.note = `Cannot play together: ${why}.`;
    return '';
  }

  private enter(relay: string, name: string, config?: NetplayConfig): string {
    if (this.room) return this.refuse('leave this room first');
    const player = this.playerName.trim();
    try {
      this.relay = checkRelayUrl(relay);
      this.name = checkRoomName(name);
      checkName(player, 'your name');
    } catch (e) {
      return this.refuse((e as Error).message);
    }
    this.note = '';
    const room: PlayRoom = new PlayRoom({
      transport: this.host.connect(this.relay),
      room: this.name,
      ...(config ? { config } : {}),
      ...(this.lastFrame !== undefined ? { lastFrame: this.lastFrame } : {}),
      prepare: (c) => this.host.prepare(c),
      ...(player ? { name: player } : {}),
      ready: (sim, opened) => this.host.show(sim, opened, room.stats.player, () => this.seats()),
    });
    this.room = room;
    return this.name;
  }

  leave(): void {
    const r = this.room;
    if (!r) return;
    r.leave();
    this.room = null;
    this.note = '';
    this.host.ended();
  }

  /** One simulation frame: the room's tick with the local buttons (false: nothing to tick, the page steps its own world). */
  step(buttons: number): boolean {
    if (!this.room) return false;
    this.room.step(buttons);
    return true;
  }

  /** The page was hidden (true) or shown again: the room's others are told. */
  setHidden(hidden: boolean): void {
    this.room?.setHidden(hidden);
  }

  /** Who holds each seat of the room, as its session knows it (null: in no room). */
  seats(): RoomSeats | null {
    const s = this.room?.stats;
    return s ? { names: s.names, hidden: s.hidden } : null;
  }

  get link(): string {
    return this.room ? formatRoomLink(this.host.pageAddress(), this.relay, this.name, this.lastFrame) : '';
  }

  /** What the panel shows now. */
  view(): PlayPanelView {
    const r = this.room;
    if (!r) return { inRoom: false, link: '', note: this.note, rows: [], colour: '', canDownloadReplay: false, desync: '', events: [] };
    const s = r.stats;
    const d = r.desyncs[0];
    return {
      inRoom: true,
      link: this.link,
      note: this.note,
      rows: roomStatusRows(s, r.phase, playersPresent(s, r.left), this.lastFrame),
      colour: s.player >= 0 ? seatCss(s.player) : '',
      canDownloadReplay: s.confirmedFrame > 0,
      desync: d ? desyncText(d, s) : '',
      events: r.events.shown().map((e) => ({ kind: e.kind, text: e.text, colour: e.seat >= 0 ? seatCss(e.seat) : '' })),
    };
  }

  downloadReplay(): void {
    const r = this.room;
    if (!r || r.stats.confirmedFrame === 0) return;
    download(r.replay(), `${this.name}-session.rsr`);
  }

  downloadReport(): void {
    const d = this.room?.desyncs[0];
    if (d) download(new TextEncoder().encode(desyncReportJson(d, this.name)), `${this.name}-desync-${d.frame}.json`, 'application/json');
  }
}
