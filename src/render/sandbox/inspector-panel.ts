/**
 * The inspector panel: under "here", the point under the cursor and the world's ground answer there; under the
 * selection, what the world's own data say about the clicked tile, or the clicked entity's components,
 * behaviour and sight (refreshed as it lives). Each section leads with one line of plain words (plain-words.ts:
 * what it is, heights in metres, materials by name, who sees whom) and folds the format's own detail (native
 * units, ids, statuses) under "format detail". Text is rebuilt only when it changes.
 */
import type { EntityInfo, ProbeAnswer, TileInfo } from '../scene/inspect.js';
import { entityPlain, hoverPlain } from '../scene/plain-words.js';
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
}

/** The world the answers are about (its kind, up axis and scale: heights in metres) and its player. */
export interface InspectedWorld {
  world: Pick<CollisionWorld, 'kind' | 'up' | 'scale'>;
  player: number;
}

/** A section: its heading, the plain line, and the format's rows folded under "format detail". */
function section(cls: string, title: string, plain: string, rows: [string, string][]): HTMLElement {
  const s = el('div', `section ${cls}`);
  const details = el('details', 'detail');
  details.append(el('summary', '', 'format detail'), rowsTable(rows));
  s.append(el('h2', '', title), el('p', 'plain', plain), details);
  return s;
}

export class InspectorPanel {
  private key = '';

  constructor(private readonly box: HTMLElement) {}

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
      const plain = entityPlain(e, about?.player ?? -1, sel.sees);
      keyParts.push(JSON.stringify(rows), plain);
      parts.push(section('entity', `entity ${e.id}`, plain, rows));
    }
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
    this.box.replaceChildren(...parts);
  }
}
