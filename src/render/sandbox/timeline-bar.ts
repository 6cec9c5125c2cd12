/**
 * The replay timeline above the scrubber: frame-number labels, a tick per keyframe, how far the replay has
 * been checked ahead of playback, and the first divergent frame in red (scene/timeline.ts does the numbers).
 */
import { timelineMarks } from '../scene/timeline.js';
import { el } from './dom.js';

export interface TimelineInput {
  length: number;
  keyframes: readonly number[];
  /** The first divergent frame found (by playback or by the check ahead), −1 none. */
  divergence: number;
  /** Frames checked ahead so far. */
  checked: number;
}

export class TimelineBar {
  private key = '';

  constructor(private readonly marks: HTMLElement) {}

  /** Draws the marks when something changed; `null` clears them (live mode). */
  update(input: TimelineInput | null): void {
    // Live (null) needs no width: reading it would make the browser lay the page out again every frame.
    const width = input ? this.marks.clientWidth : 0;
    const key = input ? `${width}:${input.length}:${input.keyframes.length}:${input.divergence}:${input.checked}` : '';
    if (key === this.key) return;
    this.key = key;
    this.marks.replaceChildren();
    if (!input || width <= 0) return;
    const m = timelineMarks(input.length, input.keyframes, input.divergence, width);
    const checked = el('div', 'checked');
    checked.style.width = `${input.length > 0 ? (Math.min(input.checked, input.length) / input.length) * width : 0}px`;
    checked.title = `${input.checked} of ${input.length} frames checked`;
    this.marks.append(checked);
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
