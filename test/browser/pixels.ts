/** Pixel checks on screenshots (PNG bytes), with tolerances: renderers differ by antialiasing. */
import { PNG } from 'pngjs';

export interface Image {
  width: number;
  height: number;
  data: Uint8Array;
}

export function decodePng(bytes: Uint8Array): Image {
  const png = PNG.sync.read(Buffer.from(bytes));
  return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength) };
}

/** Share of pixels farther than `tolerance` (per channel, max) from `rgb`. */
export function shareUnlike(img: Image, rgb: readonly [number, number, number], tolerance = 12): number {
  let n = 0;
  const d = img.data;
  for (let i = 0; i < d.length; i += 4) {
    if (Math.max(Math.abs(d[i]! - rgb[0]), Math.abs(d[i + 1]! - rgb[1]), Math.abs(d[i + 2]! - rgb[2])) > tolerance) n++;
  }
  return n / (img.width * img.height);
}

/** Distinct colours after dropping the low 3 bits of each channel (so antialiasing noise does not count). */
export function distinctColours(img: Image): number {
  const seen = new Set<number>();
  const d = img.data;
  for (let i = 0; i < d.length; i += 4) seen.add(((d[i]! >> 3) << 10) | ((d[i + 1]! >> 3) << 5) | (d[i + 2]! >> 3));
  return seen.size;
}

/** Mean absolute difference per channel (0..255) between two images of the same size. */
export function meanAbsDiff(a: Image, b: Image): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`images differ in size: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  let s = 0;
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    for (let c = 0; c < 3; c++) s += Math.abs(a.data[i + c]! - b.data[i + c]!);
    n += 3;
  }
  return s / n;
}

/** Mean colour of `block` × `block` tiles, for comparisons that ignore pixel-level differences. */
export function blockMeans(img: Image, block: number): { cols: number; rows: number; rgb: Float64Array } {
  const cols = Math.floor(img.width / block);
  const rows = Math.floor(img.height / block);
  const rgb = new Float64Array(cols * rows * 3);
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < cols; bx++) {
      const o = (by * cols + bx) * 3;
      for (let y = by * block; y < (by + 1) * block; y++) {
        for (let x = bx * block; x < (bx + 1) * block; x++) {
          const i = (y * img.width + x) * 4;
          for (let c = 0; c < 3; c++) rgb[o + c]! += img.data[i + c]!;
        }
      }
      for (let c = 0; c < 3; c++) rgb[o + c]! /= block * block;
    }
  }
  return { cols, rows, rgb };
}

/** Pixels whose colour differs by more than `threshold` in some channel. */
export function countDiffering(a: Image, b: Image, threshold: number): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error('images differ in size');
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.max(Math.abs(a.data[i]! - b.data[i]!), Math.abs(a.data[i + 1]! - b.data[i + 1]!), Math.abs(a.data[i + 2]! - b.data[i + 2]!)) > threshold) n++;
  }
  return n;
}

/**
 * Pixels within `tol` (per channel) of colour `c` (0xRRGGBB), in the whole image or, when `r` is above 0, in the
 * box of half-size `r` around (x, y), clipped to the image.
 */
export function countColour(img: Image, c: number, tol: number, x = 0, y = 0, r = 0): number {
  const rgb = [(c >> 16) & 255, (c >> 8) & 255, c & 255];
  const [x0, x1, y0, y1] = r ? [Math.max(0, x - r), Math.min(img.width - 1, x + r), Math.max(0, y - r), Math.min(img.height - 1, y + r)] : [0, img.width - 1, 0, img.height - 1];
  let n = 0;
  for (let yy = y0; yy <= y1; yy++) {
    for (let xx = x0; xx <= x1; xx++) {
      const i = (yy * img.width + xx) * 4;
      if (Math.abs(img.data[i]! - rgb[0]!) <= tol && Math.abs(img.data[i + 1]! - rgb[1]!) <= tol && Math.abs(img.data[i + 2]! - rgb[2]!) <= tol) n++;
    }
  }
  return n;
}

/**
 * The share of an image covered by distinct structure: pixels in flat patches (the same colour, within 4 per
 * channel, as the pixels right of and below them) whose colour is neither the page's background nor the
 * image's most common colour (the plain floor), by more than 24 in some channel. Flat blocks of a few colours
 * (walls, raised floors, slopes) count; a smooth gradient, noise and thin lines do not.
 */
export function structureShare(img: Image, background: readonly [number, number, number] = [16, 20, 26]): number {
  const d = img.data;
  const w = img.width;
  const counts = new Map<number, number>();
  for (let i = 0; i < d.length; i += 4) {
    const key = ((d[i]! >> 3) << 10) | ((d[i + 1]! >> 3) << 5) | (d[i + 2]! >> 3);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let common = 0;
  let most = -1;
  for (const [k, n] of counts) {
    const c = [(k >> 10) << 3, ((k >> 5) & 31) << 3, (k & 31) << 3];
    if (Math.max(Math.abs(c[0]! - background[0]), Math.abs(c[1]! - background[1]), Math.abs(c[2]! - background[2])) <= 8) continue;
    if (n > most) [common, most] = [k, n];
  }
  const floor = [(common >> 10) << 3, ((common >> 5) & 31) << 3, (common & 31) << 3];
  const far = (i: number, c: readonly number[], t: number) => Math.max(Math.abs(d[i]! - c[0]!), Math.abs(d[i + 1]! - c[1]!), Math.abs(d[i + 2]! - c[2]!)) > t;
  const same = (i: number, j: number) => Math.max(Math.abs(d[i]! - d[j]!), Math.abs(d[i + 1]! - d[j + 1]!), Math.abs(d[i + 2]! - d[j + 2]!)) <= 4;
  let n = 0;
  for (let y = 0; y + 1 < img.height; y++)
    for (let x = 0; x + 1 < w; x++) {
      const i = (y * w + x) * 4;
      if (same(i, i + 4) && same(i, i + w * 4) && far(i, background, 12) && far(i, floor, 24)) n++;
    }
  return n / (img.width * img.height);
}
