/**
 * A layer of small pre-drawn images ("stamps": the agents' arrows) composed in JavaScript into a pixel
 * buffer, redrawn only where something changed. Each frame the caller lists its stamps (an id, a sheet, a
 * cell of it, a whole-pixel place); the layer compares them with the last frame's, marks the tiles that a
 * changed, new or gone stamp covers (where it was and where it is), clears those tiles and draws into them,
 * clipped to them, every stamp that covers them, in the order listed. The result is the same, pixel for
 * pixel, as drawing every stamp into an empty buffer in that order, at a fraction of the cost when few move
 * (at the whole-field view of a field with 1,000 agents, about one in twenty changes a pixel a frame).
 *
 * Pixels are RGBA bytes as ImageData holds them (not premultiplied), read as little-endian 32-bit words;
 * stamps are drawn over each other with source-over. Presentation only: nothing here touches simulation
 * state. No allocation per frame once the buffers have their size.
 */

/** A sheet of stamps: `cell`-pixel square cells in a grid `columns` wide, `pixels` row by row. */
export interface StampSheetPixels {
  /** A number that tells sheets apart (a new sheet gets a new one). */
  readonly id: number;
  readonly pixels: Uint32Array;
  /** The sheet's width in pixels (`columns * cell`). */
  readonly width: number;
  readonly cell: number;
}

/** The side of a tile in pixels: the unit of the redrawn area. */
export const STAMP_TILE = 32;

/** Above this share of the tiles dirty, the whole layer is drawn again (cheaper than going tile by tile). */
const FULL_REDRAW_SHARE = 0.5;

/** Draws `src` (RGBA, not premultiplied) over `dst` with source-over. */
export function blendOver(src: number, dst: number): number {
  const sa = src >>> 24;
  if (sa === 0) return dst;
  const da = dst >>> 24;
  if (sa === 255 || da === 0) return src;
  // Out alpha (scaled by 255) and each channel weighted by its alpha, not premultiplied again.
  const dw = da * (255 - sa);
  const oa255 = sa * 255 + dw;
  const ch = (shift: number) => {
    const s = (src >>> shift) & 0xff;
    const d = (dst >>> shift) & 0xff;
    return Math.round((s * sa * 255 + d * dw) / oa255);
  };
  const oa = Math.round(oa255 / 255);
  return ((oa << 24) | (ch(16) << 16) | (ch(8) << 8) | ch(0)) >>> 0;
}

export class StampLayer {
  /** Width and height in pixels. */
  width = 0;
  height = 0;
  /** The layer's pixels (RGBA as ImageData holds them), `width * height`. */
  pixels: Uint32Array<ArrayBuffer> = new Uint32Array(0);
  /** The areas changed by the last `end()`, as [x, y, width, height] × `spanCount` (whole rows of tiles). */
  spans = new Int32Array(4);
  spanCount = 0;
  /** Stamps listed this frame, and how many of them changed since the last (for the figures and tests). */
  listed = 0;
  changed = 0;
  /** Whether the last `end()` drew everything again. */
  fullRedraw = false;
  /** The rectangle the listed stamps cover, within the layer ([x0, x1) × [y0, y1); empty when x1 <= x0). */
  x0 = 0;
  y0 = 0;
  x1 = 0;
  y1 = 0;

  // The stamps of this frame, in the order listed.
  private readonly ids: Int32Array;
  private readonly sheetOf: (StampSheetPixels | null)[];
  private readonly sx: Int32Array;
  private readonly sy: Int32Array;
  private readonly col: Int32Array;
  private readonly row: Int32Array;
  // Per id: what it drew last (the frame number, then its sheet, cell and place).
  private readonly drawnAt: Int32Array;
  private readonly lastSheet: Int32Array;
  private readonly lastCell: Int32Array;
  private readonly lastKey: Int32Array;
  private readonly lastX: Int32Array;
  private readonly lastY: Int32Array;
  private readonly lastIds: Int32Array;
  private lastCount = 0;
  private frame = 0;
  private tilesX = 0;
  private tilesY = 0;
  private dirty = new Uint8Array(0);
  private dirtyCount = 0;
  private everything = true;

  /** `capacity`: the most stamps a frame and one more than the largest id. */
  constructor(readonly capacity: number) {
    this.ids = new Int32Array(capacity);
    this.sheetOf = new Array<StampSheetPixels | null>(capacity).fill(null);
    this.sx = new Int32Array(capacity);
    this.sy = new Int32Array(capacity);
    this.col = new Int32Array(capacity);
    this.row = new Int32Array(capacity);
    this.drawnAt = new Int32Array(capacity).fill(-1);
    this.lastSheet = new Int32Array(capacity);
    this.lastCell = new Int32Array(capacity);
    this.lastKey = new Int32Array(capacity);
    this.lastX = new Int32Array(capacity);
    this.lastY = new Int32Array(capacity);
    this.lastIds = new Int32Array(capacity);
  }

  /** Sizes the layer (a new size clears it and draws everything at the next `end()`). */
  resize(width: number, height: number): void {
    width = Math.max(0, Math.floor(width));
    height = Math.max(0, Math.floor(height));
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    this.pixels = new Uint32Array(width * height);
    this.tilesX = Math.ceil(width / STAMP_TILE);
    this.tilesY = Math.ceil(height / STAMP_TILE);
    this.dirty = new Uint8Array(this.tilesX * this.tilesY);
    this.spans = new Int32Array(4 * Math.max(1, this.tilesY));
    this.everything = true;
  }

  /** Draws everything again at the next `end()`. */
  invalidate(): void {
    this.everything = true;
  }

  /** Starts a frame's list. */
  begin(): void {
    this.listed = 0;
    this.changed = 0;
    this.x0 = this.width;
    this.y0 = this.height;
    this.x1 = 0;
    this.y1 = 0;
  }

  /** Lists a stamp: cell (`column`, `row`) of `sheet` with its top-left corner at pixel (x, y). */
  add(id: number, sheet: StampSheetPixels, column: number, row: number, x: number, y: number): void {
    const n = this.listed;
    if (n >= this.capacity || id < 0 || id >= this.capacity || this.drawnAt[id] === this.frame + 1) return;
    this.ids[n] = id;
    this.sheetOf[n] = sheet;
    this.col[n] = column;
    this.row[n] = row;
    this.sx[n] = x;
    this.sy[n] = y;
    this.listed = n + 1;
    const c = sheet.cell;
    if (x < this.x0) this.x0 = Math.max(0, x);
    if (y < this.y0) this.y0 = Math.max(0, y);
    if (x + c > this.x1) this.x1 = Math.min(this.width, x + c);
    if (y + c > this.y1) this.y1 = Math.min(this.height, y + c);
    // Marks this id as listed in the frame being built (so an id listed twice counts once).
    const key = row * 65536 + column;
    const was = this.drawnAt[id] === this.frame;
    const same = was && this.lastSheet[id] === sheet.id && this.lastKey[id] === key && this.lastX[id] === x && this.lastY[id] === y;
    if (!same) {
      this.changed++;
      if (!this.everything) {
        if (was) this.markRect(this.lastX[id]!, this.lastY[id]!, this.lastCell[id]!);
        this.markRect(x, y, sheet.cell);
      }
    }
    this.drawnAt[id] = this.frame + 1;
    this.lastSheet[id] = sheet.id;
    this.lastCell[id] = sheet.cell;
    this.lastKey[id] = key;
    this.lastX[id] = x;
    this.lastY[id] = y;
  }

  /** Ends the frame: redraws the tiles that changed and lists them in `spans`. */
  end(): void {
    const next = this.frame + 1;
    // Stamps drawn last frame and not listed now: where they were is dirty.
    for (let k = 0; k < this.lastCount; k++) {
      const id = this.lastIds[k]!;
      if (this.drawnAt[id] === this.frame) {
        this.changed++;
        if (!this.everything) this.markRect(this.lastX[id]!, this.lastY[id]!, this.lastCell[id]!);
        this.drawnAt[id] = -1;
      }
    }
    for (let k = 0; k < this.listed; k++) this.lastIds[k] = this.ids[k]!;
    this.lastCount = this.listed;
    this.frame = next;
    this.fullRedraw = this.everything || this.dirtyCount > FULL_REDRAW_SHARE * this.dirty.length;
    if (this.fullRedraw) this.redrawAll();
    else this.redrawDirty();
    this.everything = false;
    this.dirty.fill(0);
    this.dirtyCount = 0;
    for (let k = 0; k < this.listed; k++) this.sheetOf[k] = null;
  }

  private markRect(x: number, y: number, size: number): void {
    const tx0 = Math.max(0, Math.floor(x / STAMP_TILE));
    const ty0 = Math.max(0, Math.floor(y / STAMP_TILE));
    const tx1 = Math.min(this.tilesX - 1, Math.floor((x + size - 1) / STAMP_TILE));
    const ty1 = Math.min(this.tilesY - 1, Math.floor((y + size - 1) / STAMP_TILE));
    for (let ty = ty0; ty <= ty1; ty++) {
      for (let tx = tx0; tx <= tx1; tx++) {
        const t = ty * this.tilesX + tx;
        if (!this.dirty[t]) {
          this.dirty[t] = 1;
          this.dirtyCount++;
        }
      }
    }
  }

  private redrawAll(): void {
    this.pixels.fill(0);
    for (let k = 0; k < this.listed; k++) this.drawClipped(k, 0, 0, this.width, this.height);
    this.spanCount = 0;
    if (this.width > 0 && this.height > 0) {
      this.spans[0] = 0;
      this.spans[1] = 0;
      this.spans[2] = this.width;
      this.spans[3] = this.height;
      this.spanCount = 1;
    }
  }

  private redrawDirty(): void {
    const T = STAMP_TILE;
    const W = this.width;
    const px = this.pixels;
    // Clear the dirty tiles, and note each row of tiles' span of them.
    this.spanCount = 0;
    for (let ty = 0; ty < this.tilesY; ty++) {
      let first = -1;
      let last = -1;
      for (let tx = 0; tx < this.tilesX; tx++) {
        if (!this.dirty[ty * this.tilesX + tx]) continue;
        if (first < 0) first = tx;
        last = tx;
        const x0 = tx * T;
        const x1 = Math.min(W, x0 + T);
        const y1 = Math.min(this.height, ty * T + T);
        for (let y = ty * T; y < y1; y++) px.fill(0, y * W + x0, y * W + x1);
      }
      if (first < 0) continue;
      const s = 4 * this.spanCount++;
      this.spans[s] = first * T;
      this.spans[s + 1] = ty * T;
      this.spans[s + 2] = Math.min(W, (last + 1) * T) - first * T;
      this.spans[s + 3] = Math.min(this.height, ty * T + T) - ty * T;
    }
    // Every stamp over a dirty tile, clipped to it, in the order listed.
    for (let k = 0; k < this.listed; k++) {
      const c = this.sheetOf[k]!.cell;
      const x = this.sx[k]!;
      const y = this.sy[k]!;
      const tx0 = Math.max(0, Math.floor(x / T));
      const ty0 = Math.max(0, Math.floor(y / T));
      const tx1 = Math.min(this.tilesX - 1, Math.floor((x + c - 1) / T));
      const ty1 = Math.min(this.tilesY - 1, Math.floor((y + c - 1) / T));
      for (let ty = ty0; ty <= ty1; ty++) {
        for (let tx = tx0; tx <= tx1; tx++) {
          if (this.dirty[ty * this.tilesX + tx]) this.drawClipped(k, tx * T, ty * T, Math.min(W, tx * T + T), Math.min(this.height, ty * T + T));
        }
      }
    }
  }

  /** Draws stamp k into the pixels, clipped to [x0, x1) × [y0, y1). */
  private drawClipped(k: number, x0: number, y0: number, x1: number, y1: number): void {
    const sheet = this.sheetOf[k]!;
    const c = sheet.cell;
    const x = this.sx[k]!;
    const y = this.sy[k]!;
    const ax = Math.max(x0, x);
    const ay = Math.max(y0, y);
    const bx = Math.min(x1, x + c);
    const by = Math.min(y1, y + c);
    if (ax >= bx || ay >= by) return;
    const src = sheet.pixels;
    const sw = sheet.width;
    const ox = this.col[k]! * c - x;
    const oy = this.row[k]! * c - y;
    const px = this.pixels;
    const W = this.width;
    for (let py = ay; py < by; py++) {
      let si = (py + oy) * sw + ax + ox;
      let di = py * W + ax;
      for (let qx = ax; qx < bx; qx++, si++, di++) {
        const s = src[si]!;
        const sa = s >>> 24;
        if (sa === 0) continue;
        const d = px[di]!;
        px[di] = sa === 255 || d >>> 24 === 0 ? s : blendOver(s, d);
      }
    }
  }
}
