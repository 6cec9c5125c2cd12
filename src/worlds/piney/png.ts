/**
 * A top-down picture of a field: heights in grey (black 0, white the highest), hidden chips darkened, the
 * objects' footprints in a colour per kind, hill outlines, and the start marked. Drawing only.
 */
import { PNG } from 'pngjs';
import { eeToNumber } from '../../numeric/ee-float.js';
import { CELLS, CHIPS, type ObjectKindName, type PineyField } from './field-state.js';

/** Pixels per 600-unit cell. */
export const PNG_CELL_PIXELS = 6;

export const KIND_COLOURS: Record<ObjectKindName, [number, number, number]> = {
  entrance: [230, 40, 40],
  key: [250, 210, 40],
  sub: [240, 140, 40],
  base: [200, 60, 200],
  tree: [40, 170, 60],
  lake: [50, 110, 240],
};

/**
 * A top-down PNG of a field (the file's bytes): heights in grey, hidden chips darkened, object footprints in a
 * colour per kind, hill outlines, the start marked; `cellPixels` pixels per 600-unit cell.
 */
export function fieldPng(f: PineyField, cellPixels = PNG_CELL_PIXELS): Uint8Array {
  const side = CELLS * cellPixels;
  const png = new PNG({ width: side, height: side });
  const data = png.data;
  let top = 1;
  for (let i = 0; i < f.map.length; i++) top = Math.max(top, eeToNumber(f.map[i]!));
  // Image x = field x, image y = field y flipped so +y points up the picture.
  const put = (px: number, py: number, r: number, g: number, b: number) => {
    if (px < 0 || py < 0 || px >= side || py >= side) return;
    const at = ((side - 1 - py) * side + px) * 4;
    data[at] = r;
    data[at + 1] = g;
    data[at + 2] = b;
    data[at + 3] = 255;
  };
  const fillCell = (cx: number, cy: number, w: number, h: number, c: readonly number[]) => {
    for (let px = cx * cellPixels; px < (cx + w) * cellPixels; px++) {
      for (let py = cy * cellPixels; py < (cy + h) * cellPixels; py++) put(px, py, c[0]!, c[1]!, c[2]!);
    }
  };
  for (let x = 0; x < CELLS; x++) {
    for (let y = 0; y < CELLS; y++) {
      const v = Math.round((eeToNumber(f.map[x * CELLS + y]!) / top) * 255);
      const hidden = f.check3[(x >> 1) * CHIPS + (y >> 1)] !== 0;
      const g = hidden ? v >> 2 : v;
      fillCell(x, y, 1, 1, [g, g, g]);
    }
  }
  for (const o of f.objects) {
    const c = KIND_COLOURS[o.kind];
    fillCell(2 * o.x, 2 * o.y, 2 * o.w, 2 * o.h, c);
  }
  for (const h of f.hills) {
    // The hill as written: from the even cell, size cells each way (wrapping).
    const x0 = 2 * (h.x >> 1);
    const y0 = 2 * (h.y >> 1);
    for (let k = 0; k < h.size * cellPixels; k++) {
      for (const [px, py] of [[x0 * cellPixels + k, y0 * cellPixels], [x0 * cellPixels + k, (y0 + h.size) * cellPixels - 1], [x0 * cellPixels, y0 * cellPixels + k], [(x0 + h.size) * cellPixels - 1, y0 * cellPixels + k]] as const) {
        put(px % side, py % side, 120, 200, 255);
      }
    }
  }
  if (f.start) {
    const [sx, sy] = f.start;
    fillCell(2 * sx, 2 * sy, 2, 2, [255, 255, 255]);
    fillCell(2 * sx + 0.5, 2 * sy + 0.5, 1, 1, [0, 0, 0]);
  }
  const buf = PNG.sync.write(png);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}
