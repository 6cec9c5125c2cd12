/**
 * The overview inset's geometry: the whole world drawn small in a box in a corner of the view, the camera's
 * rectangle on it, and the map point under a click in the box (to jump there). Pure numbers, no drawing.
 */
import type { MapRect } from './projection.js';

/** How a map rectangle sits in an inset box: inset pixel = (map − origin) × scale + offset. */
export interface InsetLayout {
  scale: number;
  /** Map point at the box's pixel `offset`. */
  originX: number;
  originY: number;
  offsetX: number;
  offsetY: number;
  /** The map's drawn size in the box, pixels. */
  width: number;
  height: number;
}

/** Fits `rect` into a `boxW` × `boxH` box with `pad` pixels around, centred, aspect kept. */
export function insetLayout(rect: MapRect, boxW: number, boxH: number, pad = 4): InsetLayout {
  const w = Math.max(rect.width, 1e-9);
  const h = Math.max(rect.height, 1e-9);
  const scale = Math.min(Math.max(1, boxW - 2 * pad) / w, Math.max(1, boxH - 2 * pad) / h);
  const width = w * scale;
  const height = h * scale;
  return { scale, originX: rect.x, originY: rect.y, offsetX: (boxW - width) / 2, offsetY: (boxH - height) / 2, width, height };
}

export function insetToMap(l: InsetLayout, px: number, py: number): [number, number] {
  return [(px - l.offsetX) / l.scale + l.originX, (py - l.offsetY) / l.scale + l.originY];
}

export function mapToInset(l: InsetLayout, x: number, y: number): [number, number] {
  return [(x - l.originX) * l.scale + l.offsetX, (y - l.originY) * l.scale + l.offsetY];
}

/** The camera's visible map rectangle (x0, y0, x1, y1) in inset pixels: x, y, width, height. */
export function cameraRectInInset(l: InsetLayout, visible: readonly [number, number, number, number]): [number, number, number, number] {
  const [x0, y0] = mapToInset(l, visible[0], visible[1]);
  const [x1, y1] = mapToInset(l, visible[2], visible[3]);
  return [Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0)];
}
