/**
 * The first screen's welcome, at the top of the side panel: what this is in one line, an "Open file…" button
 * and the hint that files can be dropped anywhere. It goes once the user hides it (remembered in this browser)
 * or opens a file (for this visit).
 *
 * In a narrow window (compact-layout.ts), where the side panel is folded away, the welcome is a card over the
 * map instead, so the first screen still says what this is and what to do; and on a touch screen its keys'
 * line speaks of the pad and of fingers instead of keys and the mouse.
 */
import { NARROW_QUERY } from './compact-layout.js';

/** What to do, on a touch screen. */
export const TOUCH_TEXT = 'Walk with the arrows at the bottom left, tap anything to inspect it, drag to pan, pinch to zoom.';

/** The key under which the browser remembers that the welcome was hidden. */
export const WELCOME_HIDDEN_KEY = 'retrosim.welcome.hidden';

/** The browser's storage, or null where it is refused (private modes, sandboxed frames). */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export interface WelcomeElements {
  box: HTMLElement;
  open: HTMLElement;
  close: HTMLElement;
  /** The line saying what to do (keys, or touch). */
  keys: HTMLElement;
  /** Where the welcome sits in a wide window (first in it), and the map's box it sits over in a narrow one. */
  side: HTMLElement;
  view: HTMLElement;
}

export class Welcome {
  constructor(
    private readonly el: WelcomeElements,
    openFile: () => void,
  ) {
    let hidden = false;
    try {
      hidden = storage()?.getItem(WELCOME_HIDDEN_KEY) === '1';
    } catch {
      // Storage refused: the welcome shows.
    }
    el.box.hidden = hidden;
    const narrow = window.matchMedia(NARROW_QUERY);
    const place = () => {
      if (narrow.matches && el.box.parentElement !== el.view) el.view.appendChild(el.box);
      else if (!narrow.matches && el.box.parentElement !== el.side) el.side.prepend(el.box);
      el.box.classList.toggle('over-map', narrow.matches);
    };
    narrow.addEventListener('change', place);
    place();
    const touchText = () => {
      el.keys.textContent = TOUCH_TEXT;
    };
    if (window.matchMedia('(pointer: coarse)').matches) touchText();
    window.addEventListener('pointerdown', (e) => {
      if (e.pointerType === 'touch') touchText();
    }, { capture: true });
    el.open.addEventListener('click', () => openFile());
    el.close.addEventListener('click', () => {
      this.hide();
      try {
        storage()?.setItem(WELCOME_HIDDEN_KEY, '1');
      } catch {
        // Not remembered: it shows again next visit.
      }
    });
  }

  get shown(): boolean {
    return !this.el.box.hidden;
  }

  hide(): void {
    this.el.box.hidden = true;
  }
}
