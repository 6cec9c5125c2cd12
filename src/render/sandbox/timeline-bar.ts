/**
 * The timeline above the scrubber: frame-number labels, a tick per keyframe, how far a replay has been checked
 * ahead of playback, and the first divergent frame in red (scene/timeline.ts does the numbers). A live run's
 * timeline grows every frame: its bar spans a round length a little past the last frame, and its marks are
 * drawn again when that span or the keyframes change, so the page does not rebuild them (nor lay the page
 * out) every frame.
 */
import { liveSpan, timelineMarks } from '../scene/timeline.js';
import { el } from './dom.js';

export interface TimelineInput {
  length: number;
  keyframes: readonly number[];
  /** The first divergent frame found (by playback or by the check ahead), −1 none. */
  divergence: number;
  /** Frames checked ahead so far. */
  checked: number;
  /** A live run's record (growing; nothing to check ahead). */
  live?: boolean;
}

export class TimelineBar {
  private key = '';
  private coarse = '';

  constructor(private readonly marks: HTMLElement) {}

  /** The marks are drawn again on the next update (the bar's width may have changed). */
  invalidate(): void {
    this.key = '';
    this.coarse = '';
  }

  /** Draws the marks when something changed; `null` clears them (no timeline). */
  update(input: TimelineInput | null): void {
    // Nothing shown (null) needs no width: reading it would make the browser lay the page out again every
    // frame. A live run's bar spans a round length past its last frame (`liveSpan`), so its marks are drawn
    // again only when that span or its keyframes change, not every frame.
    const length = input?.live ? liveSpan(input.length) : (input?.length ?? 0);
    const coarse = input ? `${length}:${input.keyframes.length}:${input.divergence}:${input.checked}` : '';
    if (input?.live && coarse === this.coarse) return;
    this.coarse = coarse;
    const width = input ? this.marks.clientWidth : 0;
    const key = input ? `${width}:${coarse}` : '';
    if (key === this.key) return;
    this.key = key;
    if (input && input.live) input = { ...input, length };
    this.marks.replaceChildren();
    if (!input || width <= 0) return;
    const m = timelineMarks(input.length, input.keyframes, input.divergence, width);
    const checked = el('div', 'checked');
    checked.style.width = `${input.length > 0 ? (Math.min(input.checked, input.length) / input.length) * width : 0}px`;
    checked.title = `${input.checked} of ${input.length} frames checked`;
    if (!input.live) this.marks.append(checked);
    for (const k of m.keyframes) {
      const t = el('div', 'tick');
      t.style.left = `${k.x}px`;
      t.dataset['frame'] = String(k.frame);
      t.title = `keyframe ${k.frame}`;
      this.marks.append(t);
    }
    for (const l of m.labels) {
      const t = el('div', 'label', l.text);
      t.style.left = `${l.x}px`;
      t.dataset['frame'] = String(l.frame);
      this.marks.append(t);
    }
    if (m.divergence) {
      const d = el('div', 'divergence');
      d.style.left = `${m.divergence.x}px`;
      d.dataset['frame'] = String(m.divergence.frame);
      d.title = `frame ${m.divergence.frame} does not match the recorded hash`;
      this.marks.append(d);
    }
  }
}
