/**
 * The page's keys: a key of the shortcut table (shortcuts.ts) runs its action unless a menu or a text field
 * has the keyboard; and every button or checkbox in the bars gives the keyboard back to the map once used.
 */
import { actionForKey, type PageAction } from './shortcuts.js';

export function bindPageKeys(target: Window, run: (a: PageAction) => void): void {
  target.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const a = actionForKey(e.key);
    if (!a) return;
    e.preventDefault();
    run(a);
  });
}

/** A click on a button or a checkbox in one of `bars` gives the keyboard back to the map. */
export function returnKeysToMap(bars: readonly HTMLElement[], focusMap: () => void): void {
  for (const bar of bars) {
    bar.addEventListener('click', (e) => {
      if (e.target instanceof HTMLButtonElement || (e.target instanceof HTMLInputElement && e.target.type === 'checkbox')) focusMap();
    });
  }
}
