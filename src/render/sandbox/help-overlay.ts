/** The help overlay (`?` or H): every key, mouse and touch action, from the shortcut table. */
import { el } from './dom.js';
import { helpRows } from './shortcuts.js';

const GROUPS: Readonly<Record<string, string>> = { play: 'play', replay: 'replays', view: 'view', mouse: 'mouse', touch: 'touch', page: 'page' };

export function fillHelp(box: HTMLElement): void {
  box.replaceChildren();
  box.append(el('h2', '', 'Keys, mouse and touch'));
  const t = el('table');
  let group = '';
  for (const s of helpRows()) {
    if (s.group !== group) {
      group = s.group;
      const tr = el('tr');
      const th = el('th', '', GROUPS[group] ?? group);
      th.colSpan = 2;
      tr.append(th);
      t.append(tr);
    }
    const tr = el('tr', 'shortcut');
    tr.append(el('td', 'keys', s.keys), el('td', 'does', s.does));
    t.append(tr);
  }
  box.append(t, el('p', '', 'Esc or ? closes this.'));
}
