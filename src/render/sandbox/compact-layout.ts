/**
 * How the page makes room for the map on small windows. Below `NARROW_WIDTH` the side panels are collapsed
 * unless asked for (they then slide over the map instead of taking a column of it), and the two bars of
 * controls fold behind a menu button, leaving one thin row. Wider, the panels are a column, shown unless
 * closed, and the bars are shown whole.
 *
 * The page's CSS draws each of these states from the window's width (a media query at the same width) and two
 * attributes on the body, `data-panels` ("open", "closed", or absent for the width's default) and `data-menu`
 * ("open" or absent); this module keeps the user's choices and says what the attributes are and what is shown.
 */

/** Windows narrower than this (CSS pixels) get the compact layout; the page's CSS has the same width. */
export const NARROW_WIDTH = 900;

/** The media query of narrow windows (the CSS's own, so that the page and this module never disagree). */
export const NARROW_QUERY = `(max-width: ${NARROW_WIDTH - 0.02}px)`;

/** The user's choice for the side panels: shown, hidden, or none yet (the width decides). */
export type PanelsChoice = 'open' | 'closed' | null;

/** What the page shows in a layout. */
export interface LayoutShown {
  /** The window is narrower than `NARROW_WIDTH`. */
  narrow: boolean;
  /** The side panels are shown (a column when wide, over the map when narrow). */
  panels: boolean;
  /** Every control of the two bars is shown (always when wide; when narrow, while the menu is open). */
  controls: boolean;
}

export class CompactLayout {
  private panelsChoice: PanelsChoice = null;
  private menuOpen = false;

  /** `narrow`: whether the window is narrower than `NARROW_WIDTH` (`NARROW_QUERY` matches). */
  constructor(private narrow: boolean) {}

  get shown(): LayoutShown {
    const narrow = this.narrow;
    return { narrow, panels: this.panelsChoice === null ? !narrow : this.panelsChoice === 'open', controls: !narrow || this.menuOpen };
  }

  /** The window's width changed sides of `NARROW_WIDTH` (or not). The panels' choice stays; the menu closes when the window widens. */
  setNarrow(narrow: boolean): void {
    this.narrow = narrow;
    if (!narrow) this.menuOpen = false;
  }

  /** The panels' button: shows them if hidden, hides them if shown (a choice kept across widths). */
  togglePanels(): void {
    this.panelsChoice = this.shown.panels ? 'closed' : 'open';
  }

  /** The menu button (narrow windows only; it is not shown on wide ones). */
  toggleMenu(): void {
    this.menuOpen = this.narrow && !this.menuOpen;
  }

  /** The map was touched or clicked: an open menu gets out of its way. Returns whether that changed anything. */
  mapTouched(): boolean {
    if (!this.menuOpen) return false;
    this.menuOpen = false;
    return true;
  }

  /** The body's attributes for the CSS (null: the attribute is removed). */
  attributes(): { 'data-panels': PanelsChoice; 'data-menu': 'open' | null } {
    return { 'data-panels': this.panelsChoice, 'data-menu': this.menuOpen ? 'open' : null };
  }
}
