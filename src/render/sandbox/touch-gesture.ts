/**
 * Touch on the map, as pure arithmetic on finger positions (CSS pixels): one finger drags the map, two fingers
 * pinch (zoom about the point between them, which also pans as they move together), and a finger put down and
 * lifted without moving past a small slop is a tap. The DOM layer (map-pointer.ts) feeds it pointer events of
 * type 'touch' and applies the steps it returns to the camera; nothing here reads a clock, so a slow tap is
 * still a tap and the tests need no timing.
 *
 * A gesture lasts from the first finger down to the last finger up. Once it has moved past the slop or has had
 * two fingers, it is no longer a tap. Fingers beyond the first two are ignored; when one of a pinch's two
 * fingers lifts, the other one drags on from where it is (no jump).
 */

/** Finger travel (CSS pixels, from where it went down) past which a touch is a drag, not a tap. */
export const TAP_SLOP = 10;

/** Finger spans (CSS pixels) below this are too close to measure a pinch's scale by. */
export const MIN_PINCH_SPAN = 8;

/**
 * A change of view: pan by (dx, dy) screen pixels first, then zoom by `scale` about screen (cx, cy). Applied
 * in this order, the map point under the last pinch centre ends under the new one at the new scale.
 */
export interface GestureStep {
  dx: number;
  dy: number;
  scale: number;
  cx: number;
  cy: number;
}

/** A finger of the gesture: where it is now and where it went down. */
interface Finger {
  x: number;
  y: number;
  x0: number;
  y0: number;
}

/** The centre and span of two fingers. */
export function pinchOf(a: { x: number; y: number }, b: { x: number; y: number }): { cx: number; cy: number; span: number } {
  return { cx: (a.x + b.x) / 2, cy: (a.y + b.y) / 2, span: Math.hypot(b.x - a.x, b.y - a.y) };
}

/** The step from one two-finger position to the next: the centre's move, and the span's ratio (1 when too close to tell). */
export function pinchStep(before: { cx: number; cy: number; span: number }, after: { cx: number; cy: number; span: number }): GestureStep {
  const scale = before.span >= MIN_PINCH_SPAN && after.span >= MIN_PINCH_SPAN ? after.span / before.span : 1;
  return { dx: after.cx - before.cx, dy: after.cy - before.cy, scale, cx: after.cx, cy: after.cy };
}

const finite = (...v: number[]) => v.every(Number.isFinite);

/** One touch gesture on the map, from its first finger down to its last finger up. */
export class TouchGesture {
  /** The fingers down, in the order they went down (ids of the pointer events). */
  private readonly fingers = new Map<number, Finger>();
  /** Whether the gesture is still a tap candidate (one finger, not moved past the slop). */
  private tapping = false;
  /** Whether the one-finger drag has begun (moved past the slop, or left over from a pinch). */
  private dragging = false;

  /** How many fingers are down (including ignored ones). */
  get count(): number {
    return this.fingers.size;
  }

  /** Whether the gesture is following any finger. */
  get active(): boolean {
    return this.fingers.size > 0;
  }

  /** A finger went down. The first one may become a tap; a second one makes a pinch. */
  down(id: number, x: number, y: number): void {
    if (!finite(x, y) || this.fingers.has(id)) return;
    this.tapping = this.fingers.size === 0;
    if (this.fingers.size === 0) this.dragging = false;
    this.fingers.set(id, { x, y, x0: x, y0: y });
  }

  /** A finger moved: the step to apply to the view, or null (a finger not followed, or still within the tap's slop). */
  move(id: number, x: number, y: number): GestureStep | null {
    const f = this.fingers.get(id);
    if (!f || !finite(x, y)) return null;
    const [a, b] = this.pair();
    if (f !== a && f !== b) {
      f.x = x;
      f.y = y;
      return null;
    }
    if (a && b) {
      const before = pinchOf(a, b);
      f.x = x;
      f.y = y;
      return pinchStep(before, pinchOf(a, b));
    }
    // One finger: nothing until it leaves the slop, then the whole way from where it was last shown.
    const px = f.x;
    const py = f.y;
    f.x = x;
    f.y = y;
    if (!this.dragging) {
      if (Math.hypot(x - f.x0, y - f.y0) < TAP_SLOP) return null;
      this.dragging = true;
      this.tapping = false;
      return { dx: x - f.x0, dy: y - f.y0, scale: 1, cx: x, cy: y };
    }
    return { dx: x - px, dy: y - py, scale: 1, cx: x, cy: y };
  }

  /** A finger lifted (at x, y): a tap's point when it ends a tap, else null. */
  up(id: number, x: number, y: number): [number, number] | null {
    const f = this.fingers.get(id);
    if (!f) return null;
    const tap = this.tapping && this.fingers.size === 1 && finite(x, y) && Math.hypot(x - f.x0, y - f.y0) < TAP_SLOP;
    this.remove(id);
    return tap ? [f.x0, f.y0] : null;
  }

  /** A finger was taken away by the browser (pointercancel): no tap, and the rest go on. */
  cancel(id: number): void {
    if (!this.fingers.has(id)) return;
    this.tapping = false;
    this.remove(id);
  }

  private remove(id: number): void {
    const [a, b] = this.pair();
    const f = this.fingers.get(id);
    const pinching = b !== undefined && (f === a || f === b);
    this.fingers.delete(id);
    this.tapping = false;
    // A pinch that loses a finger goes on as a drag (or a new pinch with the next finger) from where the fingers are.
    if (this.fingers.size === 0) this.dragging = false;
    else if (pinching) this.dragging = true;
  }

  /** The two fingers followed: the first two down that are still down. */
  private pair(): [Finger | undefined, Finger | undefined] {
    const it = this.fingers.values();
    return [it.next().value, it.next().value];
  }
}
