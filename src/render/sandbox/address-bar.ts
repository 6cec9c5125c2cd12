/**
 * The address bar shows the view's link: written when the view changes, and every URL_FRAMES drawn frames
 * for what changes by itself (the camera following, a replay playing), never more often (browsers limit the
 * rate of history.replaceState), and only when the text differs.
 */

/** Drawn frames between two writes of the link into the address bar. */
export const URL_FRAMES = 30;

export class AddressBar {
  private frames = 0;
  private last = '';

  /** Counts a drawn frame; true when the link is due to be written again. */
  frameDrawn(): boolean {
    return ++this.frames >= URL_FRAMES;
  }

  /** Writes the query string (when it changed); returns it. */
  write(query: string): string {
    this.frames = 0;
    if (query !== this.last) {
      this.last = query;
      history.replaceState(null, '', `${location.pathname}${query}`);
    }
    return query;
  }
}
