/**
 * The first screen's welcome, at the top of the side panel: what this is in one line, an "Open file…" button
 * and the hint that files can be dropped anywhere. It goes once the user hides it (remembered in this browser)
 * or opens a file (for this visit).
 */

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
