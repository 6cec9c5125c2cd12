/**
 * The selected entity's path trail: its map position at each simulation frame drawn, the last TRAIL_POINTS of
 * them, in a ring of reused arrays. A new entity, or a frame before the last (a seek back, a restart), starts a
 * new trail; a frame drawn twice adds nothing. No DOM and no pixi here.
 */

/** Most points a trail keeps (10 s at 60 frames a second). */
export const TRAIL_POINTS = 600;

export class PathTrail {
  /** The entity the trail follows (−1 none). */
  id = -1;
  private lastFrame = -1;
  private readonly xs = new Float64Array(TRAIL_POINTS);
  private readonly ys = new Float64Array(TRAIL_POINTS);
  private head = 0;
  /** Points kept. */
  count = 0;

  /** Entity `id` at map (x, y) on simulation frame `frame`. */
  add(id: number, frame: number, x: number, y: number): void {
    if (id !== this.id || frame < this.lastFrame) this.clear(id);
    if (frame === this.lastFrame || !Number.isFinite(x) || !Number.isFinite(y)) return;
    this.lastFrame = frame;
    this.xs[this.head] = x;
    this.ys[this.head] = y;
    this.head = (this.head + 1) % TRAIL_POINTS;
    this.count = Math.min(this.count + 1, TRAIL_POINTS);
  }

  /** Forgets every point (and follows `id` from now on). */
  clear(id = -1): void {
    this.id = id;
    this.lastFrame = -1;
    this.head = 0;
    this.count = 0;
  }

  /** The k-th point, oldest first (k in 0..count−1). */
  point(k: number): [number, number] {
    const i = (this.head - this.count + k + TRAIL_POINTS) % TRAIL_POINTS;
    return [this.xs[i]!, this.ys[i]!];
  }
}
