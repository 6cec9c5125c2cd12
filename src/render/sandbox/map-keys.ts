/**
 * Inspecting from the keyboard, while the map has the keys: N points at the next entity in view (Shift+N the
 * previous), ringed in the keyboard's colour, and Enter inspects it as a click on it would. Escape (the page's
 * key) then clears the selection as usual.
 */
import type { WorldView } from '../pixi/world-view.js';
import type { Selection } from './inspection.js';

/**
 * The entity to point at next: the first id after `current` in `ids` (ascending), or before it when `dir` is
 * −1, wrapping round; −1 when there is none.
 */
export function cyclePointed(ids: readonly number[], current: number, dir: 1 | -1): number {
  if (!ids.length) return -1;
  if (dir > 0) return ids.find((id) => id > current) ?? ids[0]!;
  for (let k = ids.length - 1; k >= 0; k--) if (ids[k]! < current) return ids[k]!;
  return ids[ids.length - 1]!;
}

/** The ids of the entities drawn inside the view, ascending. */
export function entitiesInView(v: WorldView): number[] {
  const e = v.entities;
  const [x0, y0, x1, y1] = v.camera.visibleRect();
  const out: number[] = [];
  for (let i = 0; i < e.count; i++) if (e.x[i]! >= x0 && e.x[i]! <= x1 && e.y[i]! >= y0 && e.y[i]! <= y1) out.push(e.ids[i]!);
  return out.sort((a, b) => a - b);
}

/** What the map's keys need of the page. */
export interface MapKeysHost {
  view(): WorldView | null;
  select(sel: Selection): void;
  /** The map drawn again (the ring moved). */
  draw(): void;
}

/** The class the map has while Tab brought the keys to it (the page's CSS outlines it then). */
export const TABBED_CLASS = 'tabbed';

export function bindMapKeys(canvas: HTMLElement, host: MapKeysHost): void {
  // The outline says "the keys are here" when Tab brought them, not each time the page gives them back.
  let tabbing = false;
  window.addEventListener('keydown', (e) => {
    if (e.key === 'Tab') tabbing = true;
  }, { capture: true });
  window.addEventListener('pointerdown', () => {
    tabbing = false;
  }, { capture: true });
  canvas.addEventListener('focus', () => {
    canvas.classList.toggle(TABBED_CLASS, tabbing);
    tabbing = false;
  });
  canvas.addEventListener('blur', () => canvas.classList.remove(TABBED_CLASS));
  canvas.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const v = host.view();
    if (!v) return;
    if (e.key === 'n' || e.key === 'N') {
      e.preventDefault();
      v.pointed = cyclePointed(entitiesInView(v), v.pointed, e.key === 'N' ? -1 : 1);
      host.draw();
    } else if (e.key === 'Enter' && v.pointed >= 0) {
      e.preventDefault();
      host.select({ kind: 'entity', id: v.pointed });
      v.pointed = -1;
      host.draw();
    }
  });
}
