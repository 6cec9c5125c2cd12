/**
 * The static layers (the ground raster, the format's overlay, the time of day's tint) drawn once per zoom
 * level into tiles of screen pixels and kept: each frame only blits the tiles in view, and a tile is drawn
 * again only when the camera brings in one not yet drawn at that zoom (a pan, a zoom, a resize). Tiles are
 * drawn with the canvas 2D API at the screen's device resolution, so the overlay's edges, arcs and grid lines
 * are vectors one device pixel wide (axis-aligned ones on pixel centres), not magnified samples.
 *
 * Map → device pixels: d = m × k + offset, k = zoom × devicePixelRatio; tile (i, j) covers device pixels
 * [i·T, (i + 1)·T) × [j·T, (j + 1)·T) of that plane. The offset is rounded to whole device pixels, so tiles
 * blit without resampling; the map container uses the same offset.
 */
import { CanvasSource, Container, Sprite, Texture } from 'pixi.js';
import type { GroundRaster } from '../scene/ground-raster.js';
import { rasterCanvas } from './raster-canvas.js';
import type { Overlay, Shape } from '../scene/overlays.js';
import type { Tint } from '../scene/weather-look.js';
import { cssColour } from '../scene/palette.js';

/** Device pixels along a tile's side. */
export const TILE_PIXELS = 512;
/** Tiles kept at least (all zoom levels together; two screens' worth when more), least recently used dropped first. */
export const MAX_TILES = 48;
/** The overlay is indexed in this many chunks along each side of the map. */
const CHUNKS = 16;

interface Chunk {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  fills: Shape[];
  lines: Map<string, { colour: number; alpha: number; segments: number[] }>;
}

interface Tile {
  key: string;
  canvas: HTMLCanvasElement;
  texture: Texture;
  sprite: Sprite;
  used: number;
}

export interface GroundTilesOptions {
  /** Smooth (linear) magnification of the raster: continuous surfaces; nearest for tiled grids. */
  smooth: boolean;
  /** The time of day's veil over the ground (alpha 0 for none). */
  tint: Tint;
}

export class GroundTiles {
  readonly layer = new Container();
  private readonly source: HTMLCanvasElement;
  private readonly chunks: Chunk[] = [];
  private readonly tiles = new Map<string, Tile>();
  private overlayOn = true;
  private use = 0;
  /** Tiles kept at most (MAX_TILES, or two screens' worth). */
  private limit = MAX_TILES;
  /** Tiles drawn by the last `update` (for the HUD and tests). */
  drawnLastUpdate = 0;
  /** Tiles drawn since the view was made. */
  drawnTotal = 0;
  /** The device offset of the map plane used by the last update. */
  offsetX = 0;
  offsetY = 0;
  /** Device pixels per map unit of the last update. */
  k = 1;

  constructor(
    private readonly raster: GroundRaster,
    overlay: Overlay,
    private readonly rect: { x: number; y: number; width: number; height: number },
    private readonly options: GroundTilesOptions,
  ) {
    // The raster as a canvas: the source every tile samples.
    this.source = rasterCanvas(raster);
    this.index(overlay);
  }

  private index(o: Overlay): void {
    const r = this.rect;
    const cw = Math.max(r.width, 1e-9) / CHUNKS;
    const ch = Math.max(r.height, 1e-9) / CHUNKS;
    const chunkOf = (x0: number, y0: number, x1: number, y1: number): Chunk => {
      const cx = Math.max(0, Math.min(CHUNKS - 1, Math.floor(((x0 + x1) / 2 - r.x) / cw)));
      const cy = Math.max(0, Math.min(CHUNKS - 1, Math.floor(((y0 + y1) / 2 - r.y) / ch)));
      const k = cy * CHUNKS + cx;
      let c = this.chunks[k];
      if (!c) this.chunks[k] = c = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, fills: [], lines: new Map() };
      c.x0 = Math.min(c.x0, x0);
      c.y0 = Math.min(c.y0, y0);
      c.x1 = Math.max(c.x1, x1);
      c.y1 = Math.max(c.y1, y1);
      return c;
    };
    for (const sh of o.shapes) {
      if (sh.kind === 'lines') {
        const key = `${sh.colour}:${sh.alpha}`;
        for (let i = 0; i + 3 < sh.segments.length; i += 4) {
          const ax = sh.segments[i]!;
          const ay = sh.segments[i + 1]!;
          const bx = sh.segments[i + 2]!;
          const by = sh.segments[i + 3]!;
          const c = chunkOf(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
          let l = c.lines.get(key);
          if (!l) c.lines.set(key, (l = { colour: sh.colour, alpha: sh.alpha, segments: [] }));
          l.segments.push(ax, ay, bx, by);
        }
      } else if (sh.kind === 'poly') {
        if (sh.points.length < 6) continue;
        let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
        for (let i = 0; i + 1 < sh.points.length; i += 2) {
          x0 = Math.min(x0, sh.points[i]!);
          x1 = Math.max(x1, sh.points[i]!);
          y0 = Math.min(y0, sh.points[i + 1]!);
          y1 = Math.max(y1, sh.points[i + 1]!);
        }
        chunkOf(x0, y0, x1, y1).fills.push(sh);
      } else chunkOf(sh.x - sh.r, sh.y - sh.r, sh.x + sh.r, sh.y + sh.r).fills.push(sh);
    }
  }

  setOverlayVisible(on: boolean): void {
    this.overlayOn = on;
  }

  /** Tiles currently kept. */
  get size(): number {
    return this.tiles.size;
  }

  /**
   * Shows the tiles covering the screen for zoom `zoom` (CSS pixels per map unit), device pixel ratio `dpr`
   * and the given device offset, drawing those not yet drawn. `width`/`height` are the screen's CSS size.
   */
  update(zoom: number, dpr: number, offsetX: number, offsetY: number, width: number, height: number): void {
    const k = zoom * dpr;
    this.k = k;
    this.offsetX = offsetX;
    this.offsetY = offsetY;
    const T = TILE_PIXELS;
    const now = ++this.use;
    // The device-pixel extent of the screen on the map plane, and of the world.
    const sx0 = -offsetX;
    const sy0 = -offsetY;
    const sx1 = width * dpr - offsetX;
    const sy1 = height * dpr - offsetY;
    const r = this.rect;
    const wx0 = r.x * k;
    const wy0 = r.y * k;
    const wx1 = (r.x + r.width) * k;
    const wy1 = (r.y + r.height) * k;
    const i0 = Math.floor(Math.max(sx0, wx0) / T);
    const i1 = Math.floor((Math.min(sx1, wx1) - 1e-9) / T);
    const j0 = Math.floor(Math.max(sy0, wy0) / T);
    const j1 = Math.floor((Math.min(sy1, wy1) - 1e-9) / T);
    for (const t of this.tiles.values()) t.sprite.visible = false;
    let drawn = 0;
    const zk = `${k}:${this.overlayOn ? 1 : 0}`;
    const inView = i1 >= i0 && j1 >= j0 ? (i1 - i0 + 1) * (j1 - j0 + 1) : 0;
    // Keep at least the tiles of two screens (a large high-density screen needs more than MAX_TILES).
    this.limit = Math.max(MAX_TILES, 2 * inView);
    if (inView > 0) {
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1; i++) {
          const key = `${zk}:${i}:${j}`;
          let t = this.tiles.get(key);
          if (!t) {
            t = this.make(key);
            this.draw(t, i, j, k);
            drawn++;
          }
          t.used = now;
          t.sprite.visible = true;
          t.sprite.position.set((i * T + offsetX) / dpr, (j * T + offsetY) / dpr);
          t.sprite.scale.set(1 / dpr);
        }
      }
    }
    this.drawnLastUpdate = drawn;
    this.drawnTotal += drawn;
    this.evict(now);
  }

  private make(key: string): Tile {
    const canvas = document.createElement('canvas');
    canvas.width = TILE_PIXELS;
    canvas.height = TILE_PIXELS;
    const texture = new Texture({ source: new CanvasSource({ resource: canvas, scaleMode: 'nearest' }) });
    const sprite = new Sprite(texture);
    sprite.roundPixels = true;
    // Opaque where the world is; the renderer's background shows elsewhere.
    this.layer.addChild(sprite);
    const t = { key, canvas, texture, sprite, used: 0 };
    this.tiles.set(key, t);
    return t;
  }

  private evict(now: number): void {
    if (this.tiles.size <= this.limit) return;
    const old = [...this.tiles.values()].filter((t) => t.used !== now).sort((a, b) => a.used - b.used);
    for (const t of old) {
      if (this.tiles.size <= this.limit) break;
      this.tiles.delete(t.key);
      this.layer.removeChild(t.sprite);
      t.sprite.destroy();
      t.texture.destroy(true);
    }
  }

  /** Draws tile (i, j) at k device pixels per map unit. */
  private draw(t: Tile, i: number, j: number, k: number): void {
    const T = TILE_PIXELS;
    const ctx = t.canvas.getContext('2d')!;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, T, T);
    const r = this.raster;
    // The raster's source pixels that fall in this tile, widened to whole pixels, and where they land.
    const ox = i * T;
    const oy = j * T;
    const px = r.unit * k;
    const s0 = Math.max(0, Math.floor((ox / k - r.x0) / r.unit));
    const s1 = Math.min(r.width, Math.ceil(((ox + T) / k - r.x0) / r.unit));
    const t0 = Math.max(0, Math.floor((oy / k - r.y0) / r.unit));
    const t1 = Math.min(r.height, Math.ceil(((oy + T) / k - r.y0) / r.unit));
    if (s1 > s0 && t1 > t0) {
      ctx.imageSmoothingEnabled = this.options.smooth && px > 1;
      if (ctx.imageSmoothingEnabled) ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(this.source, s0, t0, s1 - s0, t1 - t0, r.x0 * k + s0 * px - ox, r.y0 * k + t0 * px - oy, (s1 - s0) * px, (t1 - t0) * px);
    }
    if (this.overlayOn) this.drawOverlay(ctx, ox, oy, k);
    const tint = this.options.tint;
    if (tint.alpha > 0) {
      ctx.globalAlpha = tint.alpha;
      ctx.fillStyle = cssColour(tint.colour);
      // Only over the world: the background outside stays as it is.
      const x0 = Math.max(0, this.rect.x * k - ox);
      const y0 = Math.max(0, this.rect.y * k - oy);
      const x1 = Math.min(T, (this.rect.x + this.rect.width) * k - ox);
      const y1 = Math.min(T, (this.rect.y + this.rect.height) * k - oy);
      if (x1 > x0 && y1 > y0) ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
      ctx.globalAlpha = 1;
    }
    t.texture.source.update();
  }

  private drawOverlay(ctx: CanvasRenderingContext2D, ox: number, oy: number, k: number): void {
    const T = TILE_PIXELS;
    // Map rectangle of the tile, with a pixel's margin for strokes on its edge.
    const mx0 = (ox - 2) / k;
    const my0 = (oy - 2) / k;
    const mx1 = (ox + T + 2) / k;
    const my1 = (oy + T + 2) / k;
    const X = (x: number) => x * k - ox;
    const Y = (y: number) => y * k - oy;
    // Only over the world: shapes that reach past its bounds (a COLBIN wall grid larger than the level) stop at its edge.
    const r = this.rect;
    ctx.save();
    ctx.beginPath();
    ctx.rect(Math.floor(X(r.x)), Math.floor(Y(r.y)), Math.ceil(X(r.x + r.width)) - Math.floor(X(r.x)), Math.ceil(Y(r.y + r.height)) - Math.floor(Y(r.y)));
    ctx.clip();
    ctx.lineWidth = 1;
    ctx.lineJoin = 'round';
    const live = this.chunks.filter((c) => c && c.x1 >= mx0 && c.x0 <= mx1 && c.y1 >= my0 && c.y0 <= my1);
    // Fills first, then their outlines, then the line sets (grids, edges) on top.
    for (const pass of ['fill', 'stroke'] as const) {
      for (const c of live) {
        for (const sh of c.fills) {
          const colour = pass === 'fill' ? (sh.kind === 'lines' ? null : sh.fill) : sh.kind === 'lines' ? null : sh.stroke;
          if (colour === null || sh.kind === 'lines') continue;
          ctx.beginPath();
          if (sh.kind === 'poly') {
            ctx.moveTo(X(sh.points[0]!), Y(sh.points[1]!));
            for (let q = 2; q + 1 < sh.points.length; q += 2) ctx.lineTo(X(sh.points[q]!), Y(sh.points[q + 1]!));
            ctx.closePath();
          } else ctx.arc(X(sh.x), Y(sh.y), Math.max(0.5, sh.r * k), 0, 2 * Math.PI);
          ctx.globalAlpha = pass === 'fill' ? sh.fillAlpha : sh.strokeAlpha;
          if (pass === 'fill') {
            ctx.fillStyle = cssColour(colour);
            ctx.fill();
          } else {
            ctx.strokeStyle = cssColour(colour);
            ctx.stroke();
          }
        }
      }
    }
    const sets = new Map<string, { colour: number; alpha: number; lists: number[][] }>();
    for (const c of live) {
      for (const [key, l] of c.lines) {
        let s = sets.get(key);
        if (!s) sets.set(key, (s = { colour: l.colour, alpha: l.alpha, lists: [] }));
        s.lists.push(l.segments);
      }
    }
    for (const s of sets.values()) {
      ctx.beginPath();
      for (const seg of s.lists) {
        for (let q = 0; q + 3 < seg.length; q += 4) {
          let ax = X(seg[q]!);
          let ay = Y(seg[q + 1]!);
          let bx = X(seg[q + 2]!);
          let by = Y(seg[q + 3]!);
          if ((ax < -2 && bx < -2) || (ax > T + 2 && bx > T + 2) || (ay < -2 && by < -2) || (ay > T + 2 && by > T + 2)) continue;
          // Axis-aligned lines on pixel centres: one sharp device pixel, not two half-lit ones.
          if (ax === bx) ax = bx = Math.floor(ax) + 0.5;
          if (ay === by) ay = by = Math.floor(ay) + 0.5;
          ctx.moveTo(ax, ay);
          ctx.lineTo(bx, by);
        }
      }
      ctx.globalAlpha = s.alpha;
      ctx.strokeStyle = cssColour(s.colour);
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    ctx.restore();
  }

  /** Frees every tile and the raster's canvas. */
  destroy(): void {
    for (const t of this.tiles.values()) {
      t.sprite.destroy();
      t.texture.destroy(true);
    }
    this.tiles.clear();
    this.layer.destroy({ children: true });
  }
}
