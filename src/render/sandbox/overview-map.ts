/**
 * The overview inset: the whole world's ground drawn small at the top of the side panel, the camera's
 * rectangle on it, the player as a dot; a click (or a drag) in it moves the camera there. Drawn again only
 * when the camera or the player's place on it changes.
 */
import type { GroundRaster } from '../scene/ground-raster.js';
import { rasterCanvas } from '../pixi/raster-canvas.js';
import { cameraRectInInset, insetLayout, insetToMap, mapToInset, type InsetLayout } from '../scene/overview-inset.js';
import { cssColour, ENTITY_COLOURS, OVERVIEW_VIEW_COLOUR } from '../scene/palette.js';
import type { MapRect } from '../scene/projection.js';

/** The inset's longer side, CSS pixels: the side panel's width (less its padding), at most 200. */
export function insetSize(panelWidth: number): number {
  return Math.round(Math.max(80, Math.min(200, panelWidth - 18)));
}

export class OverviewMap {
  private source: HTMLCanvasElement | null = null;
  layout: InsetLayout | null = null;
  private key = '';
  private rect: MapRect | null = null;
  private dpr = 1;

  constructor(readonly canvas: HTMLCanvasElement) {}

  /** A new world: its raster and map rectangle, the inset `size` CSS pixels on its longer side. */
  setWorld(raster: GroundRaster, rect: MapRect, size: number): void {
    this.source = rasterCanvas(raster);
    this.rect = rect;
    this.resize(size);
  }

  resize(size: number): void {
    if (!this.rect) return;
    const r = this.rect;
    const aspect = r.width / Math.max(r.height, 1e-9);
    const w = Math.round(aspect >= 1 ? size : Math.max(40, size * aspect));
    const h = Math.round(aspect >= 1 ? Math.max(40, size / aspect) : size);
    this.dpr = Math.max(1, window.devicePixelRatio || 1);
    this.canvas.width = Math.round(w * this.dpr);
    this.canvas.height = Math.round(h * this.dpr);
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${h}px`;
    this.layout = insetLayout(r, w, h, 3);
    this.key = '';
  }

  /** Draws the inset for the camera's visible rectangle and the player's map point. */
  draw(visible: readonly [number, number, number, number], player: readonly [number, number]): void {
    const l = this.layout;
    if (!l || !this.source || !this.rect) return;
    const [px, py] = Number.isFinite(player[0]) ? mapToInset(l, player[0], player[1]) : [NaN, NaN];
    const cr = cameraRectInInset(l, visible);
    const key = `${cr.map((v) => Math.round(v * 2)).join(',')}:${Math.round(px)}:${Math.round(py)}`;
    if (key === this.key) return;
    this.key = key;
    const g = this.canvas.getContext('2d')!;
    g.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    g.clearRect(0, 0, this.canvas.width, this.canvas.height);
    g.imageSmoothingEnabled = true;
    g.drawImage(this.source, l.offsetX, l.offsetY, l.width, l.height);
    g.strokeStyle = cssColour(OVERVIEW_VIEW_COLOUR);
    g.lineWidth = 1.5;
    g.strokeRect(cr[0], cr[1], Math.max(2, cr[2]), Math.max(2, cr[3]));
    if (Number.isFinite(px)) {
      g.fillStyle = cssColour(ENTITY_COLOURS.player);
      g.beginPath();
      g.arc(px, py, 3, 0, 2 * Math.PI);
      g.fill();
      g.strokeStyle = '#fff';
      g.lineWidth = 1;
      g.stroke();
    }
  }

  /** The map point under an offset (CSS pixels) in the inset. */
  mapAt(x: number, y: number): [number, number] | null {
    return this.layout ? insetToMap(this.layout, x, y) : null;
  }
}
