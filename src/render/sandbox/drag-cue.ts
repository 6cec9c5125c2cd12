/**
 * Whether the drop cue shows, without any DOM: it shows while files are dragged over the window and hides when
 * they leave it, are dropped, or the drag ends. Drag events fire on every element the pointer crosses (the
 * enter of the next one before the leave of the last), so the cue counts entries rather than trusting one
 * leave; a drag of text or a link from the page itself shows nothing.
 */
export class DragCue {
  private depth = 0;
  /** Whether the cue shows now. */
  shown = false;

  /** A drag entered an element; `files` when it carries files. Returns whether the cue shows. */
  enter(files: boolean): boolean {
    if (files) {
      this.depth++;
      this.shown = true;
    }
    return this.shown;
  }

  /** A drag moved over the page (`files` as for enter): shows the cue if an entry was missed. */
  over(files: boolean): boolean {
    if (files && !this.shown) {
      this.depth = 1;
      this.shown = true;
    }
    return this.shown;
  }

  /** A drag left an element: the cue hides once it has left them all (the window). */
  leave(): boolean {
    if (this.depth > 0) this.depth--;
    if (this.depth === 0) this.shown = false;
    return this.shown;
  }

  /** Dropped, ended, or given up with Escape: the cue hides. */
  end(): boolean {
    this.depth = 0;
    this.shown = false;
    return false;
  }
}
