/**
 * The page's keys: a key of the shortcut table (shortcuts.ts) runs its action unless a menu or a text field
 * has the keyboard; and every control in the bars gives the keyboard back to the map once used: a button or a
 * checkbox when clicked, a menu when chosen from (its own change handler) or closed with Escape, the scrubber
 * when let go, any of them on Escape. Otherwise the next arrow key would change the menu instead of walking.
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

/** The bars' controls that keep the keyboard while focused (menus, the scrubber, checkboxes, buttons). */
function isControl(t: EventTarget | null): boolean {
  return t instanceof HTMLSelectElement || t instanceof HTMLInputElement || t instanceof HTMLButtonElement;
}

/** The button or checkbox a click landed in (a click on a button's icon targets the icon). */
function clickedControl(t: EventTarget | null): boolean {
  const c = t instanceof Element ? t.closest('button, input') : null;
  return c instanceof HTMLButtonElement || (c instanceof HTMLInputElement && c.type === 'checkbox');
}

/**
 * A control used in one of `bars` gives the keyboard back to the map: a click on a button or a checkbox, Escape
 * on any control, the scrubber let go.
 */
export function returnKeysToMap(bars: readonly HTMLElement[], focusMap: () => void): void {
  // An open menu takes Escape's key-down in Chromium (it closes the menu) and the page sees only the key-up;
  // Firefox passes both. Either one, on a control, gives the keys back.
  const escape = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && isControl(e.target)) focusMap();
  };
  for (const bar of bars) {
    bar.addEventListener('click', (e) => {
      if (clickedControl(e.target)) focusMap();
    });
    bar.addEventListener('keydown', escape);
    bar.addEventListener('keyup', escape);
    // A click on the scrubber's thumb changes nothing, so no change event comes to give the keys back.
    bar.addEventListener('pointerup', (e) => {
      if (e.target instanceof HTMLInputElement && e.target.type === 'range') focusMap();
    });
  }
}
