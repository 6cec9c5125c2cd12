import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { arrowOutline, directionAngle, directionIndex, STAMP_DIRECTIONS, stampCell, stampSize, traceArrow } from '../../../src/render/scene/arrow-stamp.js';
import { blendOver, STAMP_TILE, StampLayer, type StampSheetPixels } from '../../../src/render/scene/stamp-layer.js';

const rgba = (r: number, g: number, b: number, a: number) => ((a << 24) | (b << 16) | (g << 8) | r) >>> 0;
const parts = (p: number) => [p & 0xff, (p >>> 8) & 0xff, (p >>> 16) & 0xff, p >>> 24];

/** A sheet of `columns` × `rows` cells of `cell` pixels, each cell a different pattern with soft edges. */
function sheet(id: number, cell: number, columns: number, rows: number): StampSheetPixels {
  const width = cell * columns;
  const pixels = new Uint32Array(width * cell * rows);
  for (let y = 0; y < cell * rows; y++) {
    for (let x = 0; x < width; x++) {
      const cx = (x % cell) - cell / 2 + 0.5;
      const cy = (y % cell) - cell / 2 + 0.5;
      const d = Math.hypot(cx, cy) / (cell / 2);
      const a = d >= 1 ? 0 : d > 0.6 ? Math.round(255 * (1 - d) * 2.5) : 255;
      pixels[y * width + x] = rgba((x * 37 + id * 11) & 0xff, (y * 53) & 0xff, ((x ^ y) * 7) & 0xff, Math.min(255, a));
    }
  }
  return { id, pixels, width, cell };
}

/** The first index where two pictures differ, −1 when they are the same. */
function firstDiff(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) return 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

interface Stamp {
  id: number;
  sheet: number;
  column: number;
  row: number;
  x: number;
  y: number;
}

/** Every stamp drawn into an empty layer (a fresh layer, so always the full redraw). */
function fresh(w: number, h: number, sheets: StampSheetPixels[], list: Stamp[]): Uint32Array {
  const l = new StampLayer(64);
  l.resize(w, h);
  l.begin();
  for (const s of list) l.add(s.id, sheets[s.sheet]!, s.column, s.row, s.x, s.y);
  l.end();
  expect(l.fullRedraw).toBe(true);
  return l.pixels;
}

/** The same stamps drawn one by one with blendOver, clipped to the layer: the reference picture. */
function reference(w: number, h: number, sheets: StampSheetPixels[], list: Stamp[]): Uint32Array {
  const out = new Uint32Array(w * h);
  const seen = new Set<number>();
  for (const s of list) {
    if (seen.has(s.id)) continue;
    seen.add(s.id);
    const sh = sheets[s.sheet]!;
    for (let y = 0; y < sh.cell; y++) {
      for (let x = 0; x < sh.cell; x++) {
        const px = s.x + x;
        const py = s.y + y;
        if (px < 0 || py < 0 || px >= w || py >= h) continue;
        out[py * w + px] = blendOver(sh.pixels[(s.row * sh.cell + y) * sh.width + s.column * sh.cell + x]!, out[py * w + px]!);
      }
    }
  }
  return out;
}

test('blendOver: an opaque source replaces, a clear one keeps, and a blend matches source-over in floating point', () => {
  expect(blendOver(rgba(1, 2, 3, 255), rgba(9, 9, 9, 200))).toBe(rgba(1, 2, 3, 255));
  expect(blendOver(rgba(1, 2, 3, 0), rgba(9, 9, 9, 200))).toBe(rgba(9, 9, 9, 200));
  expect(blendOver(rgba(1, 2, 3, 77), 0)).toBe(rgba(1, 2, 3, 77));
  let ran = 0;
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 8, maxLength: 8 }), (v) => {
      const [sr, sg, sb, sa, dr, dg, db, da] = v as [number, number, number, number, number, number, number, number];
      fc.pre(sa > 0 && sa < 255 && da > 0);
      ran++;
      const o = parts(blendOver(rgba(sr, sg, sb, sa), rgba(dr, dg, db, da)));
      const a = sa / 255 + (da / 255) * (1 - sa / 255);
      expect(Math.abs(o[3]! - a * 255)).toBeLessThanOrEqual(0.5 + 1e-9);
      const ch = (s: number, d: number) => ((s * sa) / 255 + ((d * da) / 255) * (1 - sa / 255)) / a;
      expect(Math.abs(o[0]! - ch(sr, dr))).toBeLessThanOrEqual(0.5 + 1e-9);
      expect(Math.abs(o[1]! - ch(sg, dg))).toBeLessThanOrEqual(0.5 + 1e-9);
      expect(Math.abs(o[2]! - ch(sb, db))).toBeLessThanOrEqual(0.5 + 1e-9);
    }),
    { numRuns: 400 },
  );
  expect(ran).toBeGreaterThan(300);
});

test('a full redraw is the stamps drawn one by one in the order listed, clipped to the layer (an id listed twice counts once)', () => {
  const sheets = [sheet(1, 10, 4, 3), sheet(2, 14, 4, 3)];
  const list: Stamp[] = [
    { id: 3, sheet: 0, column: 1, row: 2, x: 5, y: 5 },
    { id: 7, sheet: 1, column: 3, row: 0, x: 9, y: 8 },
    { id: 3, sheet: 1, column: 0, row: 0, x: 40, y: 40 },
    { id: 9, sheet: 0, column: 2, row: 1, x: -4, y: 60 },
  ];
  const got = fresh(70, 66, sheets, list);
  expect(Array.from(got)).toEqual(Array.from(reference(70, 66, sheets, list)));
  // Something was drawn where each kept stamp is, and nothing where the repeated id would have gone.
  expect(got[10 * 70 + 10]! >>> 24).toBeGreaterThan(0);
  expect(got[47 * 70 + 47]).toBe(0);
});

test('frame after frame, the layer redrawn only where stamps changed equals a full redraw, and its spans hold every changed pixel', () => {
  const W = 150;
  const H = 110;
  const sheets = [sheet(1, 10, 4, 3), sheet(2, 18, 4, 3), sheet(3, 6, 4, 3)];
  const stamp = fc.record({
    id: fc.integer({ min: 0, max: 40 }),
    sheet: fc.integer({ min: 0, max: 2 }),
    column: fc.integer({ min: 0, max: 3 }),
    row: fc.integer({ min: 0, max: 2 }),
    x: fc.integer({ min: -20, max: W + 5 }),
    y: fc.integer({ min: -20, max: H + 5 }),
  });
  // A first list, then frames that each change a few stamps (move, turn, recolour, drop, add) or many.
  const step = fc.record({ changes: fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), stamp, fc.integer({ min: 0, max: 3 })), { maxLength: 12 }) });
  let frames = 0;
  let partial = 0;
  fc.assert(
    fc.property(fc.array(stamp, { minLength: 1, maxLength: 50 }), fc.array(step, { minLength: 1, maxLength: 6 }), (first, steps) => {
      const layer = new StampLayer(64);
      layer.resize(W, H);
      const uploaded = new Uint32Array(W * H);
      let list = first.slice();
      const run = () => {
        layer.begin();
        for (const s of list) layer.add(s.id, sheets[s.sheet]!, s.column, s.row, s.x, s.y);
        layer.end();
        // What the canvas would get: only the spans.
        for (let k = 0; k < layer.spanCount; k++) {
          const [x, y, w, h] = Array.from(layer.spans.subarray(4 * k, 4 * k + 4));
          for (let py = y!; py < y! + h!; py++) for (let px = x!; px < x! + w!; px++) uploaded[py * W + px] = layer.pixels[py * W + px]!;
        }
        const want = reference(W, H, sheets, list);
        expect(firstDiff(layer.pixels, want)).toBe(-1);
        expect(firstDiff(uploaded, want)).toBe(-1);
        frames++;
        if (!layer.fullRedraw) partial++;
      };
      run();
      for (const st of steps) {
        list = list.slice();
        for (const [at, s, kind] of st.changes) {
          const k = at % Math.max(1, list.length);
          if (kind === 0 && list.length) list[k] = { ...list[k]!, x: list[k]!.x + (s.x % 3) - 1, y: list[k]!.y + (s.y % 3) - 1 };
          else if (kind === 1 && list.length) list[k] = { ...list[k]!, column: s.column, row: s.row, sheet: s.sheet };
          else if (kind === 2 && list.length) list.splice(k, 1);
          else list.push(s);
        }
        run();
      }
    }),
    { numRuns: 150 },
  );
  expect(frames).toBeGreaterThan(300);
  // Most of the frames went tile by tile (the path this is about), not by a full redraw.
  expect(partial).toBeGreaterThan(frames / 3);
});

test('unchanged stamps change nothing: no span, no redraw; one moved stamp redraws only the tiles it was and is on', () => {
  const sh = sheet(1, 10, 4, 3);
  const layer = new StampLayer(2000);
  layer.resize(640, 480);
  const place = (i: number, dx: number) => layer.add(i, sh, i % 4, i % 3, ((i * 37) % 600) + dx, (i * 53) % 440);
  for (let f = 0; f < 3; f++) {
    layer.begin();
    for (let i = 0; i < 1000; i++) place(i, 0);
    layer.end();
  }
  expect(layer.changed).toBe(0);
  expect(layer.spanCount).toBe(0);
  layer.begin();
  for (let i = 0; i < 1000; i++) place(i, i === 500 ? 1 : 0);
  layer.end();
  expect(layer.changed).toBe(1);
  expect(layer.fullRedraw).toBe(false);
  const area = Array.from({ length: layer.spanCount }, (_, k) => layer.spans[4 * k + 2]! * layer.spans[4 * k + 3]!).reduce((a, b) => a + b, 0);
  expect(area).toBeGreaterThan(0);
  expect(area).toBeLessThanOrEqual(4 * STAMP_TILE * STAMP_TILE);
  // The listed stamps' rectangle is within the layer and holds them all.
  expect([layer.x0, layer.y0]).toEqual([0, 0]);
  expect(layer.x1).toBeLessThanOrEqual(640);
  expect(layer.y1).toBeLessThanOrEqual(480);
});

test('directions: each stands for its own angle, any vector goes to the nearest, and the zero vector to 0', () => {
  for (let k = 0; k < STAMP_DIRECTIONS; k++) expect(directionIndex(Math.cos(directionAngle(k)), Math.sin(directionAngle(k)))).toBe(k);
  expect(directionIndex(0, 0)).toBe(0);
  expect(directionIndex(NaN, 1)).toBe(0);
  const step = (2 * Math.PI) / STAMP_DIRECTIONS;
  fc.assert(
    fc.property(fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.double({ min: -1e3, max: 1e3, noNaN: true }), (dx, dy) => {
      fc.pre(Math.hypot(dx, dy) > 1e-9);
      const k = directionIndex(dx, dy);
      expect(k).toBeGreaterThanOrEqual(0);
      expect(k).toBeLessThan(STAMP_DIRECTIONS);
      const a = Math.atan2(dy, dx);
      const diff = Math.abs(((a - directionAngle(k) + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
      expect(diff).toBeLessThanOrEqual(step / 2 + 1e-9);
    }),
  );
});

test('a stamp cell holds its arrow at every direction with its outline and a pixel to spare', () => {
  expect(stampSize(5.6)).toBe(6);
  expect(stampSize(0.2)).toBe(1);
  expect(stampSize(NaN)).toBe(1);
  for (const size of [1, 6, 7, 13, 22, 33, 44, 66]) {
    for (const outline of [0, 1, 2, 3]) {
      const c = stampCell(size, outline);
      expect(c % 2).toBe(0);
      for (let d = 0; d < STAMP_DIRECTIONS; d++) {
        const p = arrowOutline(size, d, c / 2, c / 2);
        for (const v of p) {
          expect(v - outline / 2).toBeGreaterThanOrEqual(1 - 1e-9);
          expect(v + outline / 2).toBeLessThanOrEqual(c - 1 + 1e-9);
        }
      }
    }
  }
  // The tip points along the direction.
  const p = arrowOutline(32, 16, 0, 0);
  expect(p[0]).toBeCloseTo(0, 9);
  expect(p[1]).toBeCloseTo(14, 9);
});

describe('traceArrow', () => {
  it('traces the same outline as a stamp facing +x, closed, at any size and centre (property)', () => {
    let ran = 0;
    fc.assert(
      fc.property(fc.double({ min: 1, max: 200, noNaN: true }), fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.double({ min: -1e4, max: 1e4, noNaN: true }), (size, cx, cy) => {
        const path: number[] = [];
        let closed = 0;
        traceArrow({ moveTo: (x, y) => path.push(x, y), lineTo: (x, y) => path.push(x, y), closePath: () => closed++ }, cx, cy, size);
        const want = arrowOutline(size, 0, cx, cy);
        expect(path.length).toBe(8);
        for (let k = 0; k < 8; k++) expect(path[k]).toBeCloseTo(want[k]!, 9);
        expect(closed).toBe(1);
        ran++;
      }),
    );
    expect(ran).toBe(100);
  });
});
