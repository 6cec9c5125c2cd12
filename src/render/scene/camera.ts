/**
 * The view's camera on the map plane: a centre (map units), a zoom (screen pixels per map unit), the screen
 * size in CSS pixels, and what it is doing: framing the whole world (the first view, kept framed through
 * resizes until the user moves it), following an entity, or left where the user put it.
 *
 * Panning or zooming by hand ends the framing; panning ends following; `follow()` resumes it. Every change
 * bumps `revision`, so layers cached for a view know when to draw again.
 */

/** The margin, in screen pixels, kept around a framed world. */
export const FRAME_MARGIN = 24;
/** How far out from the framed view one may zoom (the framed zoom divided by this). */
export const ZOOM_OUT_LIMIT = 4;
/** How far in one may zoom at least (the framed zoom times this). */
export const ZOOM_IN_LIMIT = 64;

/**
 * Screen pixels per metre a world opens at, at least: an agent walking 1.5 m/s then moves about 9 pixels a
 * second and its body is drawn larger than the smallest arrow. A world whose whole view is closer than this
 * (the small levels) opens whole; a large one (the Piney field, the GTA town) opens at this zoom about the
 * player, the rest one `0` (Overview) away.
 */
export const OPENING_PIXELS_PER_METRE = 6;

/** A closer view for a framed world too large to read whole: at least `zoom`, centred on `at`, inside the world. */
export interface CloserView {
  /** Screen pixels per map unit, at least. */
  zoom: number;
  /** The map point to centre on (moved inwards so the view stays inside the framed rectangle). */
  at: readonly [number, number];
}

/** Where a view `half` wide (map units) centres near `at` and stays inside [lo, lo + size]; the middle if it is wider. */
export function centreInside(at: number, lo: number, size: number, half: number): number {
  if (!Number.isFinite(at) || 2 * half >= size) return lo + size / 2;
  return Math.max(lo + half, Math.min(lo + size - half, at));
}

/** The view's camera: centre, zoom, screen size and whether it frames, follows or stays where it was put. */
export class Camera {
  private x = 0;
  private y = 0;
  private z = 1;
  /** Bumped by every change of centre, zoom or size. */
  revision = 0;
  following = false;
  /** True while the camera shows the rectangle last framed, untouched by the user (resizes frame it again). */
  framed = false;
  minZoom = 1e-6;
  maxZoom = 1e6;
  /** The zoom at which the last framed rectangle fits. */
  fitZoom = 1;
  private frameRect: [number, number, number, number] | null = null;
  private frameMargin = 0;
  private frameCloser: CloserView | null = null;

  constructor(
    public width: number,
    public height: number,
  ) {}

  get cx(): number {
    return this.x;
  }
  set cx(v: number) {
    if (v !== this.x) this.revision++;
    this.x = v;
  }
  get cy(): number {
    return this.y;
  }
  set cy(v: number) {
    if (v !== this.y) this.revision++;
    this.y = v;
  }
  get zoom(): number {
    return this.z;
  }
  set zoom(v: number) {
    if (v !== this.z) this.revision++;
    this.z = v;
  }

  /**
   * Frames a map rectangle: the largest zoom that shows it whole with `margin` pixels to spare on every side,
   * centred, and zoom limits around it (a quarter of it out, at least 64 times in). With `closer`, when that
   * zoom is less than `closer.zoom`, it zooms to that instead, about `closer.at` (the opening view of a large
   * world). Either is "framed": kept through resizes until the user moves the camera.
   */
  fit(x: number, y: number, w: number, h: number, margin = 0, closer: CloserView | null = null): void {
    this.frameRect = [x, y, w, h];
    this.frameMargin = margin;
    this.frameCloser = closer;
    const sw = Math.max(1, this.width - 2 * margin);
    const sh = Math.max(1, this.height - 2 * margin);
    const z = Math.min(sw / Math.max(w, 1e-9), sh / Math.max(h, 1e-9));
    this.fitZoom = z;
    this.minZoom = z / ZOOM_OUT_LIMIT;
    this.maxZoom = Math.max(this.maxZoomFloor, z * ZOOM_IN_LIMIT);
    this.zoom = z;
    this.cx = x + w / 2;
    this.cy = y + h / 2;
    if (closer && Number.isFinite(closer.zoom) && closer.zoom > z) {
      this.zoom = Math.min(this.maxZoom, closer.zoom);
      this.cx = centreInside(closer.at[0], x, w, this.width / 2 / this.zoom);
      this.cy = centreInside(closer.at[1], y, h, this.height / 2 / this.zoom);
    }
    this.framed = true;
    this.following = false;
  }

  /** A floor for the zoom-in limit (screen pixels per map unit) set by the owner, e.g. from the world's scale. */
  maxZoomFloor = 0;

  /** Frames the last framed rectangle again (after a resize, or on request). */
  refit(): void {
    if (this.frameRect) this.fit(...this.frameRect, this.frameMargin, this.frameCloser);
  }

  /** Sets the screen size in CSS pixels; a camera still framing its rectangle frames it again. */
  resize(width: number, height: number): void {
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    this.revision++;
    if (this.framed) this.refit();
  }

  /** Centres on a point if following. */
  track(x: number, y: number): void {
    if (!this.following || !Number.isFinite(x) || !Number.isFinite(y)) return;
    this.cx = x;
    this.cy = y;
  }

  /** Moves the view by screen pixels (a drag): stops following and framing. */
  panPixels(dx: number, dy: number): void {
    if (!Number.isFinite(dx) || !Number.isFinite(dy)) return;
    this.cx -= dx / this.zoom;
    this.cy -= dy / this.zoom;
    this.following = false;
    this.framed = false;
  }

  /** Centres on a map point (a click on the overview): stops following and framing. */
  centreOn(x: number, y: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    this.cx = x;
    this.cy = y;
    this.following = false;
    this.framed = false;
  }

  /** Zooms by `factor` keeping the map point under screen (sx, sy) in place (unless following). */
  zoomAt(factor: number, sx = this.width / 2, sy = this.height / 2): void {
    if (!(factor > 0) || !Number.isFinite(factor)) return;
    const [mx, my] = this.toMap(sx, sy);
    this.zoom = Math.min(this.maxZoom, Math.max(this.minZoom, this.zoom * factor));
    this.framed = false;
    if (!this.following) {
      this.cx = mx - (sx - this.width / 2) / this.zoom;
      this.cy = my - (sy - this.height / 2) / this.zoom;
    }
  }

  /** A view given by a link: centre and zoom (clamped to the limits); ends framing and following. */
  setView(cx: number, cy: number, zoom: number): void {
    if (Number.isFinite(cx)) this.cx = cx;
    if (Number.isFinite(cy)) this.cy = cy;
    if (zoom > 0 && Number.isFinite(zoom)) this.zoom = Math.min(this.maxZoom, Math.max(this.minZoom, zoom));
    this.framed = false;
    this.following = false;
  }

  /** Follows again (the owner calls `track` with the followed entity's place each frame). */
  follow(): void {
    this.following = true;
    this.framed = false;
  }

  /** A map point's screen position (CSS pixels). */
  toScreen(x: number, y: number): [number, number] {
    return [(x - this.cx) * this.zoom + this.width / 2, (y - this.cy) * this.zoom + this.height / 2];
  }

  /** The map point at a screen position (CSS pixels). */
  toMap(sx: number, sy: number): [number, number] {
    return [(sx - this.width / 2) / this.zoom + this.cx, (sy - this.height / 2) / this.zoom + this.cy];
  }

  /** The map rectangle on screen: x0, y0, x1, y1. */
  visibleRect(): [number, number, number, number] {
    const hw = this.width / 2 / this.zoom;
    const hh = this.height / 2 / this.zoom;
    return [this.cx - hw, this.cy - hh, this.cx + hw, this.cy + hh];
  }
}
