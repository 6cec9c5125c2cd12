/**
 * A ground raster as a canvas: the source the ground tiles and the overview inset sample with drawImage
 * (browser only; the raster itself is pure scene data).
 */
import type { GroundRaster } from '../scene/ground-raster.js';

/** A canvas of the raster's size holding its pixels. */
export function rasterCanvas(raster: GroundRaster): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = raster.width;
  c.height = raster.height;
  const ctx = c.getContext('2d')!;
  const img = ctx.createImageData(raster.width, raster.height);
  img.data.set(raster.rgba);
  ctx.putImageData(img, 0, 0);
  return c;
}
