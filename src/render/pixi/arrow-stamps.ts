/**
 * The agents' arrows on the canvas renderer, as stamps: for each arrow size (whole device pixels) and outline
 * width a sheet is drawn once with the 2D API, the arrow in each colour (a row) at each of the sheet's
 * directions (a column), and read back as pixels; each frame the arrows in view are composed from those
 * pixels into a screen-sized layer (scene/stamp-layer.ts) that redraws only the tiles where an arrow
 * changed, only those rows of tiles are uploaded to the layer's canvas, and the layer is drawn with one
 * `drawImage`. A software canvas pays several microseconds for each drawing call and for each anti-aliased
 * path, so 1,000 arrows drawn one by one cost several milliseconds a frame; this costs a fraction of one.
 * Sheets are kept per size, at most `MAX_SHEETS` of them (the oldest is dropped first).
 */
import { arrowOutline, STAMP_DIRECTIONS, stampCell } from '../scene/arrow-stamp.js';
import { StampLayer, type StampSheetPixels } from '../scene/stamp-layer.js';

/** How many sheets (sizes × outline widths) are kept before the oldest is dropped. */
export const MAX_SHEETS = 24;

function css(colour: number): string {
  return `#${(colour & 0xffffff).toString(16).padStart(6, '0')}`;
}

/** The arrow sheets, drawn on demand per size and outline width. */
export class ArrowSheets {
  private readonly sheets = new Map<string, StampSheetPixels>();
  private readonly pts: number[] = new Array<number>(8);
  private nextId = 1;

  /** `colours` are the rows' fill colours (0xRRGGBB); the outline, when there is one, is black at 85%, under the fill. */
  constructor(private readonly colours: readonly number[]) {}

  /** How many sheets are kept now. */
  get count(): number {
    return this.sheets.size;
  }

  /** The sheet for arrows `size` device pixels across with an outline `outline` device pixels wide (0: none). */
  sheet(size: number, outline: number): StampSheetPixels {
    const key = `${size}:${outline}`;
    const had = this.sheets.get(key);
    if (had) return had;
    const cell = stampCell(size, outline);
    const width = cell * STAMP_DIRECTIONS;
    const height = cell * this.colours.length;
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const c = canvas.getContext('2d', { willReadFrequently: true })!;
    c.lineJoin = 'round';
    const p = this.pts;
    for (let row = 0; row < this.colours.length; row++) {
      c.fillStyle = css(this.colours[row]!);
      for (let d = 0; d < STAMP_DIRECTIONS; d++) {
        arrowOutline(size, d, d * cell + cell / 2, row * cell + cell / 2, p);
        c.beginPath();
        c.moveTo(p[0]!, p[1]!);
        c.lineTo(p[2]!, p[3]!);
        c.lineTo(p[4]!, p[5]!);
        c.lineTo(p[6]!, p[7]!);
        c.closePath();
        // The outline first, under the fill: on an arrow a few pixels across it would cover most of the
        // colour if drawn over it.
        if (outline > 0) {
          c.strokeStyle = 'rgba(0,0,0,0.85)';
          c.lineWidth = outline;
          c.stroke();
        }
        c.fill();
      }
    }
    const data = c.getImageData(0, 0, width, height).data;
    const s: StampSheetPixels = { id: this.nextId++, pixels: new Uint32Array(data.buffer, data.byteOffset, width * height), width, cell };
    if (this.sheets.size >= MAX_SHEETS) this.sheets.delete(this.sheets.keys().next().value!);
    this.sheets.set(key, s);
    return s;
  }
}

/** A stamp layer with the canvas it is uploaded to. */
export class StampCanvas {
  readonly layer: StampLayer;
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private image: ImageData | null = null;

  /** `capacity`: the most stamps a frame and one more than the largest id. */
  constructor(capacity: number) {
    this.layer = new StampLayer(capacity);
    this.canvas = document.createElement('canvas');
    this.canvas.width = 1;
    this.canvas.height = 1;
    this.ctx = this.canvas.getContext('2d')!;
  }

  /** Sizes the layer and its canvas to `width` × `height` pixels. */
  resize(width: number, height: number): void {
    const l = this.layer;
    if (l.width === width && l.height === height && this.image) return;
    l.resize(width, height);
    this.canvas.width = Math.max(1, l.width);
    this.canvas.height = Math.max(1, l.height);
    this.image = l.width > 0 && l.height > 0 ? new ImageData(new Uint8ClampedArray(l.pixels.buffer), l.width, l.height) : null;
  }

  /** Copies what the layer's last frame changed to the canvas. */
  upload(): void {
    const l = this.layer;
    if (!this.image) return;
    const s = l.spans;
    for (let k = 0; k < l.spanCount; k++) this.ctx.putImageData(this.image, 0, 0, s[4 * k]!, s[4 * k + 1]!, s[4 * k + 2]!, s[4 * k + 3]!);
  }
}
