/**
 * The buttons that make room for the map (compact-layout.ts keeps the rules): the panels' button over the map
 * shows or hides the side panels, the menu button of a narrow window shows or folds the bars of controls, and
 * touching the map folds an open menu. The state is written as attributes on the body, which the page's CSS
 * draws; the host is told after each change (the map's box may have changed size), and a button used gives the
 * keyboard back to the map.
 */
import { CompactLayout, NARROW_QUERY, type LayoutShown } from './compact-layout.js';

export interface LayoutElements {
  body: HTMLElement;
  /** The map's box: a press in it folds an open menu. */
  view: HTMLElement;
  panelsButton: HTMLButtonElement;
  menuButton: HTMLButtonElement;
}

/** What the toggles ask of the page. */
export interface LayoutHost {
  /** The layout changed (the map's box may have a new size). */
  changed(): void;
  focusMap(): void;
}

export class LayoutToggles {
  private readonly layout: CompactLayout;

  constructor(
    private readonly el: LayoutElements,
    private readonly host: LayoutHost,
  ) {
    const mq = window.matchMedia(NARROW_QUERY);
    this.layout = new CompactLayout(mq.matches);
    mq.addEventListener('change', () => {
      this.layout.setNarrow(mq.matches);
      this.apply();
    });
    el.panelsButton.addEventListener('click', () => {
      this.layout.togglePanels();
      this.apply();
      host.focusMap();
    });
    el.menuButton.addEventListener('click', () => {
      this.layout.toggleMenu();
      this.apply();
      host.focusMap();
    });
    // A press on the map while the menu is open only folds the menu (the map then grows under the finger, so
    // the press would land elsewhere than aimed): it is kept from the map's own handlers.
    el.view.addEventListener(
      'pointerdown',
      (e) => {
        if (e.target === el.panelsButton || !this.layout.mapTouched()) return;
        e.stopPropagation();
        this.apply();
      },
      { capture: true },
    );
    this.apply();
  }

  /** What is shown now. */
  get shown(): LayoutShown {
    return this.layout.shown;
  }

  private apply(): void {
    const { body, panelsButton, menuButton } = this.el;
    for (const [name, value] of Object.entries(this.layout.attributes())) {
      if (value === null) body.removeAttribute(name);
      else body.setAttribute(name, value);
    }
    const s = this.layout.shown;
    panelsButton.setAttribute('aria-expanded', String(s.panels));
    menuButton.setAttribute('aria-expanded', String(s.controls));
    this.host.changed();
  }
}
