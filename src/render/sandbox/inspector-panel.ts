/**
 * The inspector panel: under "here", the point under the cursor in native units and the world's ground
 * answer there; under the selection, what the world's own data say about the clicked tile, or the clicked
 * entity's components, behaviour and sight (refreshed as it lives). Text is rebuilt only when it changes.
 */
import type { EntityInfo, ProbeAnswer, TileInfo } from '../scene/inspect.js';
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

export class InspectorPanel {
  private key = '';

  constructor(private readonly box: HTMLElement) {}

  update(hover: ProbeAnswer | null, plane: MapPlane | null, sel: SelectionView): void {
    const parts: HTMLElement[] = [];
    const keyParts: string[] = [];
    if (hover && plane) {
      const rows = hoverRows(hover, plane);
      keyParts.push(JSON.stringify(rows));
      const s = el('div', 'section hover');
      s.append(el('h2', '', 'here (hover)'), rowsTable(rows));
      parts.push(s);
    }
    if (sel.tile) {
      keyParts.push(JSON.stringify(sel.tile.rows), sel.tile.title);
      const s = el('div', 'section tile');
      s.append(el('h2', '', sel.tile.title), rowsTable(sel.tile.rows));
      parts.push(s);
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
      keyParts.push(JSON.stringify(rows));
      const s = el('div', 'section entity');
      s.append(el('h2', '', `entity ${e.id}`), rowsTable(rows));
      parts.push(s);
    }
    if (parts.length === 0) {
      keyParts.push('empty');
      parts.push(el('div', 'section', 'Hover the map to read the ground; click an entity or a tile to inspect it.'));
    }
    const key = keyParts.join('|');
    if (key === this.key) return;
    this.key = key;
    this.box.replaceChildren(...parts);
  }
}
