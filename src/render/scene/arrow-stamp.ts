/**
 * The geometry of the agents' arrows when they are drawn as pre-drawn stamps (the canvas renderer): the
 * arrow's outline, its facing rounded to one of a fixed number of directions, its size rounded to whole
 * device pixels, and the square cell of a stamp sheet that holds it at every direction. Presentation only:
 * nothing here reads or writes simulation state, and the rounding never goes back into it.
 */

/** The arrowhead's outline in a 32-unit square around its centre, pointing along +x: tip, back corner, notch, back corner. */
export const ARROW_POINTS: readonly number[] = [14, 0, -12, -12, -6, 0, -12, 12];

/** How many directions a stamp sheet holds (5.625° apart: a step moves the tip of a 22-pixel arrow by 1 pixel). */
export const STAMP_DIRECTIONS = 64;

/** The farthest point of the outline from its centre, in the 32-unit square (the back corners). */
const ARROW_REACH = Math.hypot(12, 12);

/**
 * The direction of (dx, dy) as the nearest of the sheet's directions: 0 is +x, counted towards +y (the
 * screen's clockwise). A zero vector, or one with a non-finite part, is direction 0.
 */
export function directionIndex(dx: number, dy: number): number {
  if (!Number.isFinite(dx) || !Number.isFinite(dy) || (dx === 0 && dy === 0)) return 0;
  // Presentation only, so Math.atan2 is fine here.
  const k = Math.round((Math.atan2(dy, dx) * STAMP_DIRECTIONS) / (2 * Math.PI));
  return ((k % STAMP_DIRECTIONS) + STAMP_DIRECTIONS) % STAMP_DIRECTIONS;
}

/** The angle in radians a direction index stands for. */
export function directionAngle(index: number): number {
  return (index * 2 * Math.PI) / STAMP_DIRECTIONS;
}

/** An arrow's size in whole device pixels (at least 1) for a size of `pixels` device pixels. */
export function stampSize(pixels: number): number {
  return Number.isFinite(pixels) ? Math.max(1, Math.round(pixels)) : 1;
}

/**
 * The side in device pixels of the square cell that holds an arrow `size` device pixels across (the 32-unit
 * square scaled to it) at any rotation, with an outline `outline` device pixels wide and a pixel to spare
 * for the anti-aliased edge on each side.
 */
export function stampCell(size: number, outline: number): number {
  return 2 * Math.ceil((ARROW_REACH * size) / 32 + outline / 2 + 1);
}

/** The outline's points for an arrow `size` device pixels across facing direction `index`, around (cx, cy). */
export function arrowOutline(size: number, index: number, cx: number, cy: number, out: number[] = new Array<number>(8)): number[] {
  const a = directionAngle(index);
  const ux = Math.cos(a);
  const uy = Math.sin(a);
  const h = size / 32;
  for (let k = 0; k < 8; k += 2) {
    const dx = ARROW_POINTS[k]! * h;
    const dy = ARROW_POINTS[k + 1]! * h;
    out[k] = cx + ux * dx - uy * dy;
    out[k + 1] = cy + uy * dx + ux * dy;
  }
  return out;
}

/** The subset of a 2D canvas context (or a path recorder) that `traceArrow` draws with. */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
}

/** Traces the arrowhead pointing along +x, `size` units across, around (cx, cy): one closed path, not filled. */
export function traceArrow(c: PathSink, cx: number, cy: number, size: number): void {
  const h = size / 32;
  c.moveTo(cx + ARROW_POINTS[0]! * h, cy + ARROW_POINTS[1]! * h);
  for (let k = 2; k < 8; k += 2) c.lineTo(cx + ARROW_POINTS[k]! * h, cy + ARROW_POINTS[k + 1]! * h);
  c.closePath();
}
