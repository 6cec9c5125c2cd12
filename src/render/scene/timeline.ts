/**
 * The replay timeline's geometry and steps: where a frame sits on a bar of a given width, frame-number labels
 * at round intervals, a tick per keyframe, the divergence marker, and the playback speeds (0.25× to 8×).
 * Pure numbers; the page draws them.
 */
import { LINK_SPEEDS } from './view-link.js';

/** The playback speeds, slowest first. */
export const SPEEDS: readonly number[] = LINK_SPEEDS;

/** The next faster speed (the fastest stays). */
export function faster(speed: number): number {
  return SPEEDS.find((s) => s > speed) ?? SPEEDS[SPEEDS.length - 1]!;
}

/** The next slower speed (the slowest stays). */
export function slower(speed: number): number {
  for (let i = SPEEDS.length - 1; i >= 0; i--) if (SPEEDS[i]! < speed) return SPEEDS[i]!;
  return SPEEDS[0]!;
}

/** A speed as it is shown: "0.25×", "1×", "8×". */
export function speedLabel(speed: number): string {
  return `${speed}×`;
}

/** The round lengths a live run's bar spans: these times a power of ten. */
const LIVE_STEPS = [1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];

/**
 * What a live run's bar spans when the run has `length` frames: the least round length (1, 1.25, 1.5, 2, 2.5, 3,
 * 4, 5, 6 or 8 times a power of ten, at least 100) above it, so that the last frame sits at 75% of the bar or
 * more and the marks change only when it passes such a length.
 */
export function liveSpan(length: number): number {
  const n = Math.max(100, Math.floor(length) + 1);
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of LIVE_STEPS) if (m * p >= n) return m * p;
  return 10 * p;
}

/** The x of frame `f` on a bar `width` pixels wide for a replay of `length` frames (frame 0 at x 0). */
export function frameToX(f: number, length: number, width: number): number {
  if (!(length > 0)) return 0;
  return (Math.max(0, Math.min(length, f)) / length) * width;
}

/** The frame at x on the bar (nearest whole frame, clamped). */
export function xToFrame(x: number, length: number, width: number): number {
  if (!(length > 0) || !(width > 0)) return 0;
  return Math.max(0, Math.min(length, Math.round((x / width) * length)));
}

/** A round step between labels so that labels are at least `minPixels` apart: 1, 2 or 5 × 10^k frames. */
export function labelStep(length: number, width: number, minPixels = 64): number {
  if (!(length > 0) || !(width > 0)) return 1;
  const want = (minPixels / width) * length;
  let step = 1;
  for (;;) {
    for (const m of [1, 2, 5]) if (step * m >= want) return step * m;
    step *= 10;
  }
}

export interface TimelineMarks {
  /** Frame-number labels at round frames (0 and the end included). */
  labels: { frame: number; x: number; text: string }[];
  /** A tick per keyframe. */
  keyframes: { frame: number; x: number }[];
  /** The divergence frame's x, or null when every frame matched (so far). */
  divergence: { frame: number; x: number } | null;
}

/** The marks of a timeline: labels, keyframe ticks, and the divergence marker. */
export function timelineMarks(length: number, keyframes: readonly number[], divergence: number, width: number, minPixels = 64): TimelineMarks {
  const step = labelStep(length, width, minPixels);
  const labels: TimelineMarks['labels'] = [];
  for (let f = 0; f < length; f += step) labels.push({ frame: f, x: frameToX(f, length, width), text: String(f) });
  // The end, unless it would crowd the last round label.
  const last = labels[labels.length - 1];
  const end = { frame: length, x: frameToX(length, length, width), text: String(length) };
  if (!last || labels.length === 1 || end.x - last.x >= minPixels / 2) labels.push(end);
  else labels[labels.length - 1] = end;
  return {
    labels,
    keyframes: keyframes.filter((f) => f >= 0 && f <= length).map((f) => ({ frame: f, x: frameToX(f, length, width) })),
    divergence: divergence >= 0 ? { frame: divergence, x: frameToX(divergence, length, width) } : null,
  };
}
