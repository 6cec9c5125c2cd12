/**
 * A line chart as a PNG (pngjs): one measure against one parameter, a line per series through the mean
 * at each x, every job's value as a dot, axes with round tick values, a title and a legend. Drawn into an
 * RGBA buffer pixel by pixel with the 5×7 font of pixel-font.ts, so it needs nothing but pngjs.
 */
import { PNG } from 'pngjs';
import { glyph, GLYPH_HEIGHT, GLYPH_WIDTH, textWidth } from './pixel-font.js';
import { formatNumber } from './table.js';

export interface ChartSeries {
  name: string;
  /** Every job's (x, y). */
  points: [number, number][];
}

export interface ChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
  width?: number;
  height?: number;
}

type Rgb = readonly [number, number, number];

/** Line colours, in series order (then again from the start). */
export const PALETTE: readonly Rgb[] = [
  [31, 119, 180],
  [214, 39, 40],
  [44, 160, 44],
  [255, 127, 14],
  [148, 103, 189],
  [140, 86, 75],
  [227, 119, 194],
  [23, 190, 207],
];

const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [40, 40, 40];
const GRID: Rgb = [225, 225, 225];

/** Round tick values covering [lo, hi], about `n` of them (steps of 1, 2 or 5 times a power of ten). */
export function niceTicks(lo: number, hi: number, n = 6): number[] {
  if (!(hi > lo)) {
    const d = lo === 0 ? 1 : Math.abs(lo) / 2;
    return niceTicks(lo - d, lo + d, n);
  }
  const raw = (hi - lo) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.floor(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : Number(v.toPrecision(12)));
  if (out[out.length - 1]! < hi) out.push(Number((out[out.length - 1]! + step).toPrecision(12)));
  return out;
}

/** The mean y at each distinct x of a series, in x order. */
export function meansByX(points: readonly [number, number][]): [number, number][] {
  const m = new Map<number, [number, number]>();
  for (const [x, y] of points) {
    const s = m.get(x) ?? [0, 0];
    s[0] += y;
    s[1]++;
    m.set(x, s);
  }
  return [...m.entries()].sort((a, b) => a[0] - b[0]).map(([x, [sum, n]]) => [x, sum / n]);
}

class Canvas {
  readonly data: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Uint8Array(width * height * 4);
    this.rect(0, 0, width, height, WHITE);
  }

  px(x: number, y: number, c: Rgb): void {
    x = Math.round(x);
    y = Math.round(y);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const o = (y * this.width + x) * 4;
    this.data[o] = c[0];
    this.data[o + 1] = c[1];
    this.data[o + 2] = c[2];
    this.data[o + 3] = 255;
  }

  rect(x: number, y: number, w: number, h: number, c: Rgb): void {
    for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) this.px(x + i, y + j, c);
  }

  line(x0: number, y0: number, x1: number, y1: number, c: Rgb, thick = 1): void {
    const steps = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
    const r = Math.floor(thick / 2);
    for (let s = 0; s <= steps; s++) {
      const x = x0 + ((x1 - x0) * s) / steps;
      const y = y0 + ((y1 - y0) * s) / steps;
      for (let dy = -r; dy <= thick - 1 - r; dy++) for (let dx = -r; dx <= thick - 1 - r; dx++) this.px(x + dx, y + dy, c);
    }
  }

  text(x: number, y: number, s: string, c: Rgb, scale = 1): void {
    let cx = Math.round(x);
    for (const ch of s) {
      const rows = glyph(ch);
      for (let row = 0; row < GLYPH_HEIGHT; row++) {
        for (let col = 0; col < GLYPH_WIDTH; col++) if ((rows[row]! >> (GLYPH_WIDTH - 1 - col)) & 1) this.rect(cx + col * scale, Math.round(y) + row * scale, scale, scale, c);
      }
      cx += (GLYPH_WIDTH + 1) * scale;
    }
  }

  /** Text turned a quarter left (for the y axis label), its baseline at x, starting at y going up. */
  textUp(x: number, y: number, s: string, c: Rgb): void {
    let cy = Math.round(y);
    for (const ch of s) {
      const rows = glyph(ch);
      for (let row = 0; row < GLYPH_HEIGHT; row++) for (let col = 0; col < GLYPH_WIDTH; col++) if ((rows[row]! >> (GLYPH_WIDTH - 1 - col)) & 1) this.px(x + row, cy - col, c);
      cy -= GLYPH_WIDTH + 1;
    }
  }
}

/** Draws the chart; returns the PNG file's bytes. */
export function drawChart(spec: ChartSpec): Uint8Array {
  const W = spec.width ?? 900;
  const H = spec.height ?? 540;
  const legendW = Math.min(260, 40 + Math.max(0, ...spec.series.map((s) => textWidth(s.name))));
  const left = 80, right = spec.series.length > 1 ? legendW + 20 : 30, top = 50, bottom = 60;
  const pw = W - left - right, ph = H - top - bottom;
  const cv = new Canvas(W, H);
  const all = spec.series.flatMap((s) => s.points);
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const xt = niceTicks(Math.min(...xs), Math.max(...xs));
  const yt = niceTicks(Math.min(0, ...ys), Math.max(...ys));
  const x0 = xt[0]!, x1 = xt[xt.length - 1]!, y0 = yt[0]!, y1 = yt[yt.length - 1]!;
  const sx = (x: number) => left + ((x - x0) / (x1 - x0)) * pw;
  const sy = (y: number) => top + ph - ((y - y0) / (y1 - y0)) * ph;

  for (const t of yt) {
    const y = sy(t);
    cv.line(left, y, left + pw, y, GRID);
    const label = formatNumber(t);
    cv.text(left - 8 - textWidth(label), y - 3, label, INK);
  }
  for (const t of xt) {
    const x = sx(t);
    cv.line(x, top, x, top + ph, GRID);
    const label = formatNumber(t);
    cv.text(x - textWidth(label) / 2, top + ph + 8, label, INK);
  }
  cv.line(left, top, left, top + ph, INK);
  cv.line(left, top + ph, left + pw, top + ph, INK);

  spec.series.forEach((s, i) => {
    const c = PALETTE[i % PALETTE.length]!;
    const light: Rgb = [Math.round((c[0] + 510) / 3), Math.round((c[1] + 510) / 3), Math.round((c[2] + 510) / 3)];
    for (const [x, y] of s.points) cv.rect(sx(x) - 2, sy(y) - 2, 5, 5, light);
    const m = meansByX(s.points);
    for (let k = 1; k < m.length; k++) cv.line(sx(m[k - 1]![0]), sy(m[k - 1]![1]), sx(m[k]![0]), sy(m[k]![1]), c, 2);
    for (const [x, y] of m) cv.rect(sx(x) - 3, sy(y) - 3, 7, 7, c);
    if (spec.series.length > 1) {
      const ly = top + 10 + i * 16;
      cv.rect(W - legendW, ly, 14, 7, c);
      cv.text(W - legendW + 22, ly, s.name, INK);
    }
  });

  cv.text((W - textWidth(spec.title, 2)) / 2, 14, spec.title, INK, 2);
  cv.text(left + (pw - textWidth(spec.xLabel)) / 2, H - 22, spec.xLabel, INK);
  cv.textUp(16, top + (ph + textWidth(spec.yLabel)) / 2, spec.yLabel, INK);

  const png = new PNG({ width: W, height: H });
  png.data.set(cv.data);
  const buf = PNG.sync.write(png);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}
