/**
 * The ground seen from above, as an RGBA image: the world's own `ground` query asked at the centre of each
 * pixel from just under the top of its bounds, so every format is drawn by the same collision code the
 * simulation uses. Floors are coloured by the ground palette (ground-palette.ts: a ramp over the world's own
 * distribution of heights, materials tinted in it; the legend reads the same palette) and lit from the
 * north-west by the slope between neighbours; the edge between two different surfaces (tile, polygon, triangle or face ids) is
 * darkened so the pieces read at a glance; materials are tinted (materialTintFor: Llama's exit floors and
 * death planes, GTA's surfaces). Pixels with no floor are the background colour.
 *
 * Pure data in, pixels out (no pixi.js): Node tests check it.
 */
import type { CollisionWorld } from '../../worlds/world.js';
import { groundPalette, rampColour, type GroundPalette, type MaterialTint } from './ground-palette.js';
import { colourFor, newGroundSample, samplerFor, type GroundSampler } from './ground-sampler.js';
import { mapPlaneOf, mapRectOf, type MapRect } from './projection.js';
import { MATERIAL_DEATH, MATERIAL_EXIT, MATERIAL_SPECIAL_A, MATERIAL_SPECIAL_B } from '../../worlds/llama/materials.js';

/** The ground seen from above as an RGBA image, with the height, surface id and material under each pixel. */
export interface GroundRaster {
  width: number;
  height: number;
  /** Map units per pixel (the same along both axes). */
  unit: number;
  /** Map position of the top-left corner of pixel (0, 0). */
  x0: number;
  y0: number;
  /** RGBA bytes, row-major from the top-left. */
  rgba: Uint8ClampedArray;
  /** Floor height per pixel as "higher is more" (NaN where there is no floor). */
  heights: Float64Array;
  /** The surface id per pixel (-1 none). */
  ids: Int32Array;
  /** The material per pixel (0 none). */
  materials: Int32Array;
  /** Pixels that have a floor. */
  filled: number;
  /** The colour function every floor pixel was drawn with (before the slope's light); the legend reads it too. */
  palette: GroundPalette;
}

export const BACKGROUND_RGB: readonly [number, number, number] = [16, 20, 26];
/** The ground ramp's ends (ground-palette.ts): low ground deep indigo, high ground sand. */
export const GROUND_LOW_RGB = rampColour(0) as unknown as readonly [number, number, number];
export const GROUND_HIGH_RGB = rampColour(1) as unknown as readonly [number, number, number];

/**
 * Llama's materials the game acts on (src/worlds/llama/materials.ts): exit floors green, the two special
 * materials yellow and orange, death planes red.
 */
export const LLAMA_MATERIAL_TINTS: ReadonlyMap<number, readonly [number, number, number]> = new Map([
  [MATERIAL_EXIT, [200, 100, 255]],
  [MATERIAL_SPECIAL_A, [150, 120, 240]],
  [MATERIAL_SPECIAL_B, [230, 140, 60]],
  [MATERIAL_DEATH, [150, 30, 110]],
]);

/** A world's tint for a material: a colour and how strongly (0..1) it replaces the ground colour, or null for none. */
export type { MaterialTint };

/**
 * Material tints by world: Llama's named materials strongly; GTA's surface materials (road, grass, ...) lightly,
 * a palette colour each, so surfaces tell apart; none for worlds without materials. Material numbers mean
 * different things in each format, so a tint is never shared between them.
 */
export function materialTintFor(world: CollisionWorld): MaterialTint {
  if (world.kind === 'llama') {
    return (m) => {
      const rgb = LLAMA_MATERIAL_TINTS.get(m);
      return rgb ? { rgb, weight: 2 / 3 } : null;
    };
  }
  if (world.kind === 'gta') {
    return (m) => {
      const t = GTA_SURFACE_TINTS.get(m);
      return t ? { rgb: t.rgb, weight: GTA_TINT_WEIGHT } : null;
    };
  }
  return () => null;
}

/** How much of a GTA floor's colour its surface's tint replaces (enough that grass reads as grass at any height). */
export const GTA_TINT_WEIGHT = 0.6;

/**
 * GTA surfaces' tints, by the surface numbers the inspector names (plain-words.ts GTA_SURFACES): each the
 * colour of what it is, and each meaning one thing on the map (grass is the plants' green, never the water's
 * blue). The default surface and unnamed numbers keep the ground's own colour.
 */
export const GTA_SURFACE_TINTS: ReadonlyMap<number, { rgb: readonly [number, number, number]; meaning: string }> = new Map([
  [1, { rgb: [58, 60, 66], meaning: 'tarmac' }],
  [4, { rgb: [176, 174, 168], meaning: 'concrete' }],
  [9, { rgb: [74, 128, 48], meaning: 'plants (trees, covers, grass)' }],
  [14, { rgb: [150, 96, 40], meaning: 'wood' }],
] as const);

/** Options of rasterizeGround. */
export interface RasterOptions {
  /** Pixels along the longer side of the bounds. */
  maxSize?: number;
  /** What to draw at a map point; the world's default sampler (ground-sampler.ts) otherwise. */
  sampler?: GroundSampler;
  /**
   * Per-world colours instead of the ground palette, for a map point (e.g. the Piney field's lit colours,
   * `pineyColour`); none by default, so the legend's ramp is what is drawn.
   */
  colourAt?: (x: number, y: number, out: number[]) => boolean;
  /**
   * Darken the pixels where the surface id changes, so pieces read without an overlay (default true). The
   * sandbox turns it off and draws the edges as vector lines at the screen's resolution instead.
   */
  edges?: boolean;
  /**
   * The part of the map to draw, in native map units (`MapRect`: map x and y as `mapPlaneOf` gives them); the
   * world's bounds by default. A picture of part of a large world (the GTA town) draws only that part.
   */
  rect?: MapRect;
}

/** Missing cells (inside the grid, no data): a dull red, so holes in a level stand out from its outside. */
export const MISSING_RGB: readonly [number, number, number] = [70, 28, 32];

/**
 * Draws the ground of a world from above: the world's own `ground` query at each pixel's centre, from just under
 * the top of its bounds, shaded by height and slope, with the edges between surfaces darkened and materials
 * tinted. Pure data (no pixi.js). At most 2048 pixels along the longer side (default 384).
 */
export function rasterizeGround(world: CollisionWorld, options: RasterOptions = {}): GroundRaster {
  const plane = mapPlaneOf(world);
  const given = options.rect;
  if (given && ![given.x, given.y, given.width, given.height].every(Number.isFinite)) throw new RangeError(`rasterizeGround: rect ${JSON.stringify(given)} is not finite`);
  if (given && !(given.width > 0 && given.height > 0)) throw new RangeError(`rasterizeGround: rect ${given.width} × ${given.height} has no area`);
  const rect: MapRect = given ?? mapRectOf(plane, world.bounds) ?? { x: 0, y: 0, width: 1, height: 1 };
  const maxSize = Math.max(8, Math.min(2048, Math.floor(options.maxSize ?? 384)));
  const long = Math.max(rect.width, rect.height, 1e-9);
  const unit = long / maxSize;
  const width = Math.max(1, Math.min(maxSize, Math.ceil(rect.width / unit)));
  const height = Math.max(1, Math.min(maxSize, Math.ceil(rect.height / unit)));
  const n = width * height;
  const heights = new Float64Array(n).fill(NaN);
  const ids = new Int32Array(n).fill(-1);
  const materials = new Int32Array(n);
  const missing = new Uint8Array(n);
  const sampler = options.sampler ?? samplerFor(world);
  const s = newGroundSample();
  let filled = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      sampler(rect.x + (i + 0.5) * unit, rect.y + (j + 0.5) * unit, s);
      const k = j * width + i;
      if (Number.isFinite(s.height)) {
        heights[k] = s.height;
        ids[k] = s.id;
        materials[k] = s.material;
        filled++;
        if (s.height < lo) lo = s.height;
        if (s.height > hi) hi = s.height;
      } else if (s.missing) missing[k] = 1;
    }
  }
  const rgba = new Uint8ClampedArray(n * 4);
  const span = hi > lo ? hi - lo : 1;
  const colourAt = options.colourAt ?? colourFor(world);
  const palette = groundPalette(heights, materialTintFor(world));
  const edges = options.edges ?? true;
  const colour = [0, 0, 0];
  // Slope light: the height difference to the north-west neighbour, relative to a pixel's width.
  const slopeScale = 0.9 / Math.max(unit, 1e-9);
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const k = j * width + i;
      const o = k * 4;
      const h = heights[k]!;
      if (!Number.isFinite(h)) {
        const bg = missing[k] ? MISSING_RGB : BACKGROUND_RGB;
        rgba[o] = bg[0];
        rgba[o + 1] = bg[1];
        rgba[o + 2] = bg[2];
        rgba[o + 3] = 255;
        continue;
      }
      let r: number, gg: number, b: number;
      const px = rect.x + (i + 0.5) * unit;
      const py = rect.y + (j + 0.5) * unit;
      if (colourAt && colourAt(px, py, colour)) {
        // The world's own colour, brighter on high ground so the heights read too.
        const t = (h - lo) / span;
        const k = 0.7 + 0.6 * t;
        r = colour[0]! * k;
        gg = colour[1]! * k;
        b = colour[2]! * k;
      } else {
        // The ground palette: the same function the legend's swatches come from (materials tinted in it).
        palette.colour(h, materials[k]!, colour);
        r = colour[0]!;
        gg = colour[1]!;
        b = colour[2]!;
      }
      const nw = i > 0 && j > 0 ? heights[k - width - 1]! : NaN;
      let light = 1;
      if (Number.isFinite(nw)) light += Math.max(-0.45, Math.min(0.45, (h - nw) * slopeScale));
      const left = i > 0 ? ids[k - 1]! : ids[k]!;
      const up = j > 0 ? ids[k - width]! : ids[k]!;
      if (edges && (left !== ids[k] || up !== ids[k])) light *= 0.72;
      rgba[o] = r * light;
      rgba[o + 1] = gg * light;
      rgba[o + 2] = b * light;
      rgba[o + 3] = 255;
    }
  }
  return { width, height, unit, x0: rect.x, y0: rect.y, rgba, heights, ids, materials, filled, palette };
}
