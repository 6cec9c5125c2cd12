/**
 * A small software painter on an RGBA buffer, for pictures drawn without a canvas (Node): alpha-blended pixels,
 * one-pixel lines, filled and stroked polygons (even-odd scanlines), circles and text in the pixel font.
 * Coordinates are pixels; everything is clipped to the image.
 */
import { glyph, GLYPH_H, GLYPH_W } from './pixel-font.js';

/** An RGBA picture being drawn. */
export class Painter {
  readonly rgba: Uint8ClampedArray;

  constructor(
    readonly width: number,
    readonly height: number,
    background: readonly [number, number, number] = [0, 0, 0],
  ) {
    this.rgba = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      this.rgba[i * 4] = background[0];
      this.rgba[i * 4 + 1] = background[1];
      this.rgba[i * 4 + 2] = background[2];
      this.rgba[i * 4 + 3] = 255;
    }
  }

  /** Blends colour 0xRRGGBB with weight `alpha` into pixel (x, y). */
  pixel(x: number, y: number, colour: number, alpha = 1): void {
    x = Math.floor(x);
    y = Math.floor(y);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || !(alpha > 0)) return;
    const o = (y * this.width + x) * 4;
    const a = alpha >= 1 ? 1 : alpha;
    const d = this.rgba;
    d[o] = d[o]! + (((colour >> 16) & 255) - d[o]!) * a;
    d[o + 1] = d[o + 1]! + (((colour >> 8) & 255) - d[o + 1]!) * a;
    d[o + 2] = d[o + 2]! + ((colour & 255) - d[o + 2]!) * a;
  }

  /** Copies an RGBA image in at (x, y). */
  blit(src: Uint8ClampedArray, w: number, h: number, x: number, y: number): void {
    for (let j = 0; j < h; j++) {
      const ty = y + j;
      if (ty < 0 || ty >= this.height) continue;
      for (let i = 0; i < w; i++) {
        const tx = x + i;
        if (tx < 0 || tx >= this.width) continue;
        const s = (j * w + i) * 4, t = (ty * this.width + tx) * 4;
        this.rgba[t] = src[s]!;
        this.rgba[t + 1] = src[s + 1]!;
        this.rgba[t + 2] = src[s + 2]!;
        this.rgba[t + 3] = 255;
      }
    }
  }

  /** A one-pixel line (a DDA over the longer axis; at most 4 × the image's size steps). */
  line(x0: number, y0: number, x1: number, y1: number, colour: number, alpha = 1): void {
    if (![x0, y0, x1, y1].every(Number.isFinite)) return;
    // Clip the segment's box against the image first, so a line far outside costs nothing.
    if ((x0 < 0 && x1 < 0) || (y0 < 0 && y1 < 0) || (x0 >= this.width && x1 >= this.width) || (y0 >= this.height && y1 >= this.height)) return;
    const n = Math.min(4 * (this.width + this.height), Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
    if (n <= 0) {
      this.pixel(x0, y0, colour, alpha);
      return;
    }
    let px = NaN, py = NaN;
    for (let k = 0; k <= n; k++) {
      const x = Math.floor(x0 + ((x1 - x0) * k) / n), y = Math.floor(y0 + ((y1 - y0) * k) / n);
      if (x === px && y === py) continue;
      px = x;
      py = y;
      this.pixel(x, y, colour, alpha);
    }
  }

  /** A polygon (flat x, y list): filled by even-odd scanlines, then stroked. */
  polygon(points: readonly number[], fill: number | null, fillAlpha: number, stroke: number | null, strokeAlpha: number): void {
    const n = points.length >> 1;
    if (n < 2) return;
    if (fill !== null && n >= 3) {
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < n; i++) {
        lo = Math.min(lo, points[i * 2 + 1]!);
        hi = Math.max(hi, points[i * 2 + 1]!);
      }
      const y0 = Math.max(0, Math.floor(lo)), y1 = Math.min(this.height - 1, Math.ceil(hi));
      const xs: number[] = [];
      for (let y = y0; y <= y1; y++) {
        const cy = y + 0.5;
        xs.length = 0;
        for (let i = 0; i < n; i++) {
          const ax = points[i * 2]!, ay = points[i * 2 + 1]!, bx = points[((i + 1) % n) * 2]!, by = points[((i + 1) % n) * 2 + 1]!;
          if ((ay <= cy && by > cy) || (by <= cy && ay > cy)) xs.push(ax + ((cy - ay) * (bx - ax)) / (by - ay));
        }
        xs.sort((a, b) => a - b);
        for (let k = 0; k + 1 < xs.length; k += 2) {
          const a = Math.max(0, Math.ceil(xs[k]! - 0.5)), b = Math.min(this.width - 1, Math.floor(xs[k + 1]! - 0.5));
          for (let x = a; x <= b; x++) this.pixel(x, y, fill, fillAlpha);
        }
      }
    }
    if (stroke !== null) for (let i = 0; i < n; i++) this.line(points[i * 2]!, points[i * 2 + 1]!, points[((i + 1) % n) * 2]!, points[((i + 1) % n) * 2 + 1]!, stroke, strokeAlpha);
  }

  /** A circle of radius r (pixels): filled, then its outline. */
  circle(cx: number, cy: number, r: number, fill: number | null, fillAlpha: number, stroke: number | null, strokeAlpha: number): void {
    if (![cx, cy, r].every(Number.isFinite) || r < 0) return;
    const R = Math.min(r, 4 * (this.width + this.height));
    if (fill !== null) {
      for (let y = Math.max(0, Math.floor(cy - R)); y <= Math.min(this.height - 1, Math.ceil(cy + R)); y++) {
        const dy = y + 0.5 - cy;
        const w = R * R - dy * dy;
        if (w < 0) continue;
        const half = Math.sqrt(w);
        for (let x = Math.max(0, Math.ceil(cx - half - 0.5)); x <= Math.min(this.width - 1, Math.floor(cx + half - 0.5)); x++) this.pixel(x, y, fill, fillAlpha);
      }
    }
    if (stroke !== null) {
      const steps = Math.max(8, Math.min(2048, Math.ceil(2 * Math.PI * R)));
      let px = cx + R, py = cy;
      for (let k = 1; k <= steps; k++) {
        const a = (2 * Math.PI * k) / steps;
        const x = cx + R * Math.cos(a), y = cy + R * Math.sin(a);
        this.line(px, py, x, y, stroke, strokeAlpha);
        px = x;
        py = y;
      }
    }
  }

  /** A filled rectangle. */
  rect(x: number, y: number, w: number, h: number, colour: number, alpha = 1): void {
    for (let j = Math.max(0, Math.floor(y)); j < Math.min(this.height, Math.floor(y + h)); j++) {
      for (let i = Math.max(0, Math.floor(x)); i < Math.min(this.width, Math.floor(x + w)); i++) this.pixel(i, j, colour, alpha);
    }
  }

  /** Text in the pixel font, top-left at (x, y), `scale` pixels per font pixel. */
  text(x: number, y: number, s: string, colour: number, scale = 1): void {
    let cx = x;
    for (const ch of s) {
      const rows = glyph(ch);
      for (let r = 0; r < GLYPH_H; r++) {
        for (let c = 0; c < GLYPH_W; c++) if (rows[r]! & (1 << (GLYPH_W - 1 - c))) this.rect(cx + c * scale, y + r * scale, scale, scale, colour);
      }
      cx += (GLYPH_W + 1) * scale;
    }
  }
}
