/**
 * The view's camera on the map plane: a centre (map units), a zoom (screen pixels per map unit) and whether it
 * follows the player. Panning stops following; `follow()` resumes it.
 */
export class Camera {
  cx = 0;
  cy = 0;
  zoom = 1;
  following = true;
  minZoom = 1e-6;
  maxZoom = 1e6;

  constructor(
    public width: number,
    public height: number,
  ) {}

  /** Fits a map rectangle into the screen (with a margin) and sets the zoom limits around it. */
  fit(x: number, y: number, w: number, h: number, margin = 0.05): void {
    const sw = Math.max(1, this.width * (1 - 2 * margin));
    const sh = Math.max(1, this.height * (1 - 2 * margin));
    this.zoom = Math.min(sw / Math.max(w, 1e-9), sh / Math.max(h, 1e-9));
    this.minZoom = this.zoom / 8;
    this.maxZoom = this.zoom * 256;
    this.cx = x + w / 2;
    this.cy = y + h / 2;
  }

  /** Sets the screen size in pixels (the centre and zoom stay). */
  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
  }

  /** Centres on a point if following. */
  track(x: number, y: number): void {
    if (!this.following || !Number.isFinite(x) || !Number.isFinite(y)) return;
    this.cx = x;
    this.cy = y;
  }

  /** Moves the view by screen pixels (a drag), and stops following. */
  panPixels(dx: number, dy: number): void {
    this.cx -= dx / this.zoom;
    this.cy -= dy / this.zoom;
    this.following = false;
  }

  /** Zooms by `factor` keeping the map point under screen (sx, sy) in place. */
  zoomAt(factor: number, sx = this.width / 2, sy = this.height / 2): void {
    const [mx, my] = this.toMap(sx, sy);
    this.zoom = Math.min(this.maxZoom, Math.max(this.minZoom, this.zoom * factor));
    // Keep (mx, my) under (sx, sy) unless following (then the player stays centred).
    if (!this.following) {
      this.cx = mx - (sx - this.width / 2) / this.zoom;
      this.cy = my - (sy - this.height / 2) / this.zoom;
    }
  }

  /** Follows the player again (after a pan). */
  follow(): void {
    this.following = true;
  }

  /** The screen pixel of a map point. */
  toScreen(x: number, y: number): [number, number] {
    return [(x - this.cx) * this.zoom + this.width / 2, (y - this.cy) * this.zoom + this.height / 2];
  }

  /** The map point under a screen pixel. */
  toMap(sx: number, sy: number): [number, number] {
    return [(sx - this.width / 2) / this.zoom + this.cx, (sy - this.height / 2) / this.zoom + this.cy];
  }
}
