/**
 * The "Play together" panel (DOM only): the relay and room fields, the seats, Create / Join / Leave, the link
 * to give the other players, the room's status rows, Download replay, and the desync banner with its
 * Download report. What the buttons do is the room control's; what the rows say is room-report.ts's.
 */
import { $, rowsTable } from './dom.js';
import type { RoomControl } from './room-control.js';
import type { RoomLink } from './room-link.js';

export interface PlayPanelActions {
  create(relay: string, room: string, players: number, name: string): void;
  join(relay: string, room: string, name: string): void;
  leave(): void;
  downloadReplay(): void;
  downloadReport(): void;
  focusMap(): void;
}

/** What the panel shows. */
export interface PlayPanelView {
  inRoom: boolean;
  /** The link that joins the room ('' none). */
  link: string;
  /** A sentence under the buttons: a refusal, or what the others need ('' none). */
  note: string;
  rows: [string, string][];
  /** The seat's colour, for the "you" row's swatch. */
  colour: string;
  canDownloadReplay: boolean;
  /** The desync banner's sentence ('' hidden). */
  desync: string;
  /** The room's short events to show over the map now (oldest first), each with its seat's colour ('' none). */
  events: { kind: string; text: string; colour: string }[];
}

export class PlayPanel {
  readonly box = $<HTMLDetailsElement>('play-together');
  private readonly relay = $<HTMLInputElement>('play-relay');
  private readonly room = $<HTMLInputElement>('play-room');
  private readonly players = $<HTMLSelectElement>('play-players');
  private readonly name = $<HTMLInputElement>('play-name');
  private readonly relayHelp = $('play-relay-help');
  private readonly open = $<HTMLAnchorElement>('play-open');
  private readonly events = $('play-events');
  private readonly create = $<HTMLButtonElement>('play-create');
  private readonly join = $<HTMLButtonElement>('play-join');
  private readonly leave = $<HTMLButtonElement>('play-leave');
  private readonly note = $('play-note');
  private readonly linkRow = $('play-link-row');
  private readonly link = $<HTMLInputElement>('play-link');
  private readonly status = $('play-status');
  private readonly replay = $<HTMLButtonElement>('play-replay');
  private readonly banner = $('play-desync');
  private readonly bannerText = $('play-desync-text');
  private lastKey = '';

  constructor(defaults: { relay?: string; room?: string; players?: number; name?: string }, a: PlayPanelActions) {
    this.relay.value = defaults.relay ?? DEFAULT_RELAY;
    this.name.value = defaults.name ?? savedName();
    this.name.addEventListener('change', () => saveName(this.name.value));
    if (defaults.room) this.room.value = defaults.room;
    if (defaults.players) this.players.value = String(defaults.players);
    this.create.addEventListener('click', () => a.create(this.relay.value, this.room.value, Number(this.players.value), this.name.value));
    this.join.addEventListener('click', () => a.join(this.relay.value, this.room.value, this.name.value));
    $('play-relay-copy').addEventListener('click', () => void navigator.clipboard?.writeText($('play-relay-cmd').textContent ?? '').catch(() => undefined));
    this.leave.addEventListener('click', () => {
      a.leave();
      a.focusMap();
    });
    this.replay.addEventListener('click', () => a.downloadReplay());
    $('play-report').addEventListener('click', () => a.downloadReport());
    $('play-copy').addEventListener('click', () => {
      this.link.select();
      void navigator.clipboard?.writeText(this.link.value).catch(() => undefined);
    });
  }

  /** The player's name as typed. */
  get playerName(): string {
    return this.name.value;
  }

  /** The room's name field (a fresh name goes there when creating). */
  set roomName(name: string) {
    this.room.value = name;
  }

  show(v: PlayPanelView): void {
    const key = JSON.stringify(v);
    if (key === this.lastKey) return;
    this.lastKey = key;
    for (const e of [this.relay, this.room, this.players, this.name, this.create, this.join]) e.disabled = v.inRoom;
    this.relayHelp.hidden = v.inRoom;
    this.open.href = v.link || '#';
    this.leave.hidden = !v.inRoom;
    this.note.textContent = v.note;
    this.note.hidden = !v.note;
    this.linkRow.hidden = !v.link;
    this.link.value = v.link;
    this.status.replaceChildren(...(v.rows.length ? [rowsTable(v.rows)] : []));
    const you = this.status.querySelector('tr:nth-child(2) td:last-child') as HTMLElement | null;
    if (you && v.rows[1]?.[0] === 'you') you.style.color = v.colour;
    this.replay.hidden = !v.canDownloadReplay;
    this.events.replaceChildren(
      ...v.events.map((e) => {
        const li = document.createElement('li');
        li.textContent = e.text;
        li.dataset['kind'] = e.kind;
        if (e.colour) li.style.borderLeftColor = e.colour;
        return li;
      }),
    );
    this.bannerText.textContent = v.desync;
    this.banner.hidden = !v.desync;
    document.body.dataset['room'] = v.inRoom ? 'on' : 'off';
  }
}

const NAME_KEY = 'retrosim.playerName';

/** The name this browser played under last ('' none, or no storage). */
function savedName(): string {
  try {
    return localStorage.getItem(NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

function saveName(name: string): void {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // no storage (a private window may refuse it): the name lasts this page only
  }
}

/** The relay the panel offers when the link names none: where the command it shows listens. */
export const DEFAULT_RELAY = 'ws://127.0.0.1:8787';

/** The panel over the page's room control, filled from the link; a link with relay= and room= joins that room now. */
export function openPlayPanel(rooms: RoomControl, link: RoomLink, focusMap: () => void): PlayPanel {
  const panel: PlayPanel = new PlayPanel(link, {
    create: (relay, name, players, player) => {
      saveName(player);
      rooms.playerName = player;
      const r = rooms.create(relay, name, players);
      if (r) panel.roomName = r;
    },
    join: (relay, name, player) => {
      saveName(player);
      rooms.playerName = player;
      rooms.join(relay, name);
    },
    leave: () => rooms.leave(),
    downloadReplay: () => rooms.downloadReplay(),
    downloadReport: () => rooms.downloadReport(),
    focusMap,
  });
  if (link.relay && link.room) {
    panel.box.open = true;
    // the link joins at once, under the name this browser used last
    rooms.playerName = panel.playerName;
    rooms.join(link.relay, link.room);
  }
  return panel;
}
