/**
 * The inspector panel: under "here", the point under the cursor and the world's ground answer there; under the
 * selection, what the world's own data say about the clicked tile, or the clicked entity's components,
 * behaviour and sight (refreshed as it lives). Each section leads with one line of plain words (plain-words.ts:
 * what it is, heights in metres, materials by name, who sees whom) and folds the format's own detail (native
 * units, ids, statuses) under "format detail". Text is rebuilt only when it changes.
 */
import type { EntityInfo, ProbeAnswer, TileInfo } from '../scene/inspect.js';
import { entityPlainParts, hoverPlain, plainText, type PlainPart } from '../scene/plain-words.js';
import type { CollisionWorld } from '../../worlds/world.js';
import type { MapPlane } from '../scene/projection.js';
import { el, rowsTable } from './dom.js';

const AXES = ['x', 'y', 'z'] as const;
const n = (v: number | null): string => (v === null ? 'none' : Number.isInteger(v) ? String(v) : v.toFixed(3));

/** The hover rows: native coordinates and the ground answer. */
export function hoverRows(p: ProbeAnswer, plane: MapPlane): [string, string][] {
  const a = AXES[plane.ax];
  const b = AXES[plane.ay];
  const u = AXES[plane.up];
  const g = p.ground;
  return [
    ['point', `${a} ${n(p.point[plane.ax])}, ${b} ${n(p.point[plane.ay])}`],
    ['asked at', `${u} ${n(p.point[plane.up])} (${AXES.map((k, i) => `${k} ${n(p.point[i]!)}`).join(', ')})`],
    ['floor', g.hasFloor ? `${n(g.floor)} (${u})` : g.floor !== null ? `${n(g.floor)}, but not open here (status ${g.status})` : 'none'],
    ['ceiling', n(g.ceiling)],
    ['id', g.id >= 0 ? `${g.id}: ${p.idName}` : 'none'],
    ['material', `${g.material}${p.materialName ? ` (${p.materialName})` : ''}`],
    ['status', String(g.status)],
  ];
}

export interface SelectionView {
  tile: TileInfo | null;
  entity: EntityInfo | null;
  /** For an entity: the bodies in range it sees and does not see (the view's rays, cast now). */
  sees: { sees: number[]; blocked: number[]; range: number } | null;
  /** Whether the selected entity's path trail is drawn. */
  trail?: boolean;
  /** Whether the session takes navigation orders (the send button is offered). */
  canSend?: boolean;
}

/** The world the answers are about (its kind, up axis and scale: heights in metres) and its player. */
export interface InspectedWorld {
  world: Pick<CollisionWorld, 'kind' | 'up' | 'scale'>;
  player: number;
}

/** A section: its heading, the plain line (text, or parts whose bodies are links), and the format's rows folded under "format detail". */
function section(cls: string, title: string, plain: string | readonly PlainPart[], rows: [string, string][]): HTMLElement {
  const s = el('div', `section ${cls}`);
  const details = el('details', 'detail');
  details.append(el('summary', '', 'format detail'), rowsTable(rows));
  const p = el('p', 'plain');
  if (typeof plain === 'string') p.textContent = plain;
  else {
    for (const part of plain) {
      if (typeof part === 'string') p.append(part);
      else {
        const b = el('button', 'ref', part.text);
        if ('entity' in part) {
          b.dataset['entity'] = String(part.entity);
          b.title = `select ${part.text}`;
        } else {
          b.dataset['more'] = String(part.more);
          b.title = 'list them all';
        }
        p.append(b);
      }
    }
  }
  s.append(el('h2', '', title), p, details);
  return s;
}

export class InspectorPanel {
  private key = '';
  /** The selected entity's lists are shown whole (its "N more" was followed). */
  private listAll = false;
  private listedFor = -1;
  /** Above the sections, kept across rebuilds (so that a click on it always lands): the trail and send buttons. */
  private readonly trailButton: HTMLButtonElement;
  /** A body named in the plain line was followed: select it. */
  onSelect: (id: number) => void = () => undefined;
  /** The trail button: show (true) or hide the selected entity's path trail. */
  onTrail: (on: boolean) => void = () => undefined;
  private trailOn = false;
  /** The send button: the next click or tap on the map sends the selected agent there (a Shift+click does at once). */
  private readonly sendButton: HTMLButtonElement;
  /** The send button was pressed: the next click on the map is where the selected agent goes. */
  sendArmed = false;

  constructor(private readonly box: HTMLElement) {
    this.trailButton = el('button', 'trail') as HTMLButtonElement;
    this.trailButton.addEventListener('click', () => this.onTrail(!this.trailOn));
    this.sendButton = el('button', 'send') as HTMLButtonElement;
    // On the press, as the links below do; a click that no press came before (a keyboard's) acts on its own.
    // Not told apart by the click's `detail`, which a synthetic click may leave at 0 after its press.
    let pressed = false;
    this.sendButton.addEventListener('keydown', () => {
      pressed = false;
    });
    this.sendButton.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0) return;
      ev.preventDefault();
      pressed = true;
      this.armSend(!this.sendArmed);
    });
    this.sendButton.addEventListener('click', () => {
      if (pressed) pressed = false;
      else this.armSend(!this.sendArmed);
    });
    this.armSend(false);
    // The sections are rebuilt as the selection lives (its rows change every frame): a link acts on the press
    // (a click's release could land on a rebuilt copy), and on a keyboard's click (detail 0).
    const follow = (ev: Event) => {
      const t = (ev.target as HTMLElement | null)?.closest<HTMLElement>('button.ref');
      if (!t) return;
      ev.preventDefault();
      if (t.dataset['entity'] !== undefined) this.onSelect(Number(t.dataset['entity']));
      else {
        this.listAll = true;
        this.key = '';
      }
    };
    box.addEventListener('pointerdown', (ev) => {
      if ((ev as PointerEvent).button === 0) follow(ev);
    });
    box.addEventListener('click', (ev) => {
      if ((ev as MouseEvent).detail === 0) follow(ev);
    });
  }

  update(hover: ProbeAnswer | null, plane: MapPlane | null, sel: SelectionView, about: InspectedWorld | null = null): void {
    const parts: HTMLElement[] = [];
    const keyParts: string[] = [];
    if (hover && plane) {
      const rows = hoverRows(hover, plane);
      const plain = about ? hoverPlain(about.world, hover) : '';
      keyParts.push(JSON.stringify(rows), plain);
      parts.push(section('hover', 'here (hover)', plain, rows));
    }
    if (sel.tile) {
      keyParts.push(JSON.stringify(sel.tile.rows), sel.tile.title, sel.tile.plain);
      parts.push(section('tile', sel.tile.title, sel.tile.plain, sel.tile.rows));
    }
    if (sel.entity) {
      const e = sel.entity;
      const rows: [string, string][] = [['role', e.role]];
      if (e.behaviour) rows.push(['behaviour', e.behaviour]);
      if (e.sight) rows.push(['sight', `range ${n(e.sight.range)}, watches ${e.sight.target || 'nobody'}${e.sight.target ? (e.sight.visible ? ' (sees it)' : ' (does not see it)') : ''}`]);
      if (sel.sees) {
        rows.push(['sees now', sel.sees.sees.length ? sel.sees.sees.join(', ') : 'nobody in range']);
        rows.push(['blocked', sel.sees.blocked.length ? sel.sees.blocked.join(', ') : 'none']);
      }
      for (const c of e.components) rows.push([c.name, c.fields.map(([k, v]) => `${k} ${n(v)}`).join(', ')]);
      if (e.id !== this.listedFor) {
        this.listedFor = e.id;
        this.listAll = false;
      }
      const plain = entityPlainParts(e, about?.player ?? -1, sel.sees, this.listAll);
      keyParts.push(JSON.stringify(rows), plainText(plain), String(this.listAll));
      parts.push(section('entity', `entity ${e.id}`, plain, rows));
    }
    this.trailOn = sel.trail === true;
    this.trailButton.textContent = this.trailOn ? 'Hide path trail' : 'Show path trail';
    this.trailButton.setAttribute('aria-pressed', String(this.trailOn));
    this.trailButton.hidden = !sel.entity;
    // Offered for a body navigation walks (one with a Goal), not for the player or a world object.
    const sendable = sel.entity !== null && sel.canSend === true && sel.entity.components.some((c) => c.name === 'Goal');
    if (!sendable) this.armSend(false);
    this.sendButton.hidden = !sendable;
    if (parts.length === 0) {
      keyParts.push('empty');
      parts.push(el('div', 'section', 'Hover the map to read the ground; click an entity or a tile to inspect it.'));
    }
    const key = keyParts.join('|');
    if (key === this.key) return;
    this.key = key;
    // A fold the user opened stays open as its section is rebuilt (an entity's rows change every frame).
    const open = new Set(Array.from(this.box.querySelectorAll<HTMLDetailsElement>('.section > details[open]')).map((d) => d.parentElement!.className));
    for (const p of parts) {
      const d = p.querySelector('details');
      if (d && open.has(p.className)) d.open = true;
    }
    // The buttons stay in place, first: a press on one while the sections are rebuilt still ends in its click,
    // and the hover section, which goes as the pointer leaves the map for a button, is below them (were they
    // below it, they would move up from under the pointer on its way).
    for (const c of Array.from(this.box.children)) if (c !== this.trailButton && c !== this.sendButton) c.remove();
    if (this.trailButton.parentElement !== this.box) this.box.append(this.trailButton, this.sendButton);
    this.box.append(...parts);
  }

  /** The send button pressed (true: the next click on the map sends) or released. */
  armSend(on: boolean): void {
    this.sendArmed = on;
    this.sendButton.textContent = on ? 'Click the map: where to?' : 'Send it somewhere';
    this.sendButton.setAttribute('aria-pressed', String(on));
  }
}
