/**
 * What the top-down view shows at a map point: the floor's height ("higher is more"), the id of the surface
 * (tile, polygon, triangle, face) and its material. By default the world's own `ground` query from just
 * under the top of the bounds; formats whose query answers only for points inside the open space
 * (Rugrats: a point above the level is "outside") or whose data are a grid (Piney) read their data
 * directly, through the same exported routines their queries use.
 */
import { newGroundResult, type CollisionWorld, type Vec3 } from '../../worlds/world.js';
import type { RugratsWorld } from '../../worlds/rugrats/collision-world.js';
import { CELL_MISSING, floorAt, locateCell, stackForPoint } from '../../worlds/rugrats/query.js';
import { FLAG_LAST } from '../../worlds/rugrats/layout.js';
import type { PineyWorld } from '../../worlds/piney/collision-world.js';
import { CELL_UNITS, CELLS } from '../../worlds/piney/field-state.js';
import { pineyColours } from '../../worlds/piney/scene.js';
import { mapPlaneOf, worldAt, type MapPlane } from './projection.js';

/** What the ground is at a map point, for drawing. */
export interface GroundSample {
  /** Floor height, higher is more; NaN for no floor. */
  height: number;
  /** The surface's id (-1 none). */
  id: number;
  material: number;
  /** Inside the world's grid but with no data there (a Rugrats cell with no tiles). */
  missing: boolean;
  /** How many floors are stacked at the point (1 for formats without stacks). */
  stack: number;
}

/** Reads the ground at map point (x, y) into `out` and returns it. */
export type GroundSampler = (x: number, y: number, out: GroundSample) => GroundSample;

export function newGroundSample(): GroundSample {
  return { height: NaN, id: -1, material: 0, missing: false, stack: 0 };
}

/** The height just inside the top of the bounds along up, where the downward query starts. */
export function queryHeight(world: CollisionWorld, plane: MapPlane): number {
  const lo = world.bounds.min[plane.up];
  const hi = world.bounds.max[plane.up];
  const pad = world.integer ? 1 : Math.max(1e-3, Math.abs(hi - lo) * 1e-4);
  return plane.upSign > 0 ? hi - pad : lo + pad;
}

/**
 * Where the sandbox's inspector and picture ask from: for float worlds just above the top of the bounds
 * (a floor at the very top is then at or below the point, whatever the format's tolerance), for integer
 * worlds `queryHeight` (inside the bounds: their queries answer only there).
 */
export function probeHeight(world: CollisionWorld, plane: MapPlane = mapPlaneOf(world)): number {
  if (world.integer) return queryHeight(world, plane);
  const lo = world.bounds.min[plane.up];
  const hi = world.bounds.max[plane.up];
  const pad = Math.max(1e-3, Math.abs(hi - lo) * 1e-4);
  return plane.upSign > 0 ? hi + pad : lo - pad;
}

/** Any world: its `ground` query, straight down from `top` (by default just under the top of the bounds). */
export function querySampler(world: CollisionWorld, top: number = queryHeight(world, mapPlaneOf(world))): GroundSampler {
  const plane = mapPlaneOf(world);
  const pos: Vec3 = [0, 0, 0];
  const g = newGroundResult();
  return (x, y, out) => {
    if (world.integer) {
      x = Math.floor(x);
      y = Math.floor(y);
    }
    world.ground(worldAt(plane, x, y, top, pos), g);
    const has = Number.isFinite(g.floor);
    out.height = has ? plane.upSign * g.floor : NaN;
    out.id = has ? g.id : -1;
    out.material = has ? g.material : 0;
    out.missing = false;
    out.stack = has ? 1 : 0;
    return out;
  };
}

/**
 * Rugrats: the cell under the point, the stack of its half (diagonal halves are two stacks), and of that
 * stack the highest floor (PlayStation y points down, so the least y). A cell inside the bounds with no
 * tiles is "missing".
 */
export function rugratsSampler(world: RugratsWorld): GroundSampler {
  const ix = world.index;
  const y = ix.minY;
  return (mx, mz, out) => {
    const x = Math.floor(mx);
    const z = Math.floor(mz);
    out.height = NaN;
    out.id = -1;
    out.material = 0;
    out.stack = 0;
    const cell = locateCell(ix, x, y, z);
    out.missing = cell === CELL_MISSING;
    if (cell < 0) return out;
    let t = stackForPoint(ix, cell, x, z);
    if (t < 0) return out;
    let best = Infinity;
    for (let k = 0; k < 256 && t < ix.tileFlags.length; k++, t++) {
      const f = floorAt(ix, t, x, z);
      if (f < best) {
        best = f;
        out.id = t;
      }
      out.stack++;
      if (ix.tileFlags[t]! & FLAG_LAST) break;
    }
    out.height = -best;
    return out;
  };
}

/**
 * Piney: the field's height map (80 × 80 vertices 600 units apart, x-major, wrapping: the field is a torus),
 * interpolated between the four vertices around the point so slopes shade smoothly. (The collision's own
 * GetHeight splits each cell into triangles; for a picture the bilinear blend is close enough.)
 */
export function pineySampler(world: PineyWorld): GroundSampler {
  const h = world.heights;
  const plane = mapPlaneOf(world);
  const at = (i: number, j: number) => h[(((i % CELLS) + CELLS) % CELLS) * CELLS + (((j % CELLS) + CELLS) % CELLS)]!;
  return (mx, my, out) => {
    const x = mx / CELL_UNITS;
    const y = (plane.ySign * my) / CELL_UNITS;
    out.missing = false;
    out.material = 0;
    if (!(x >= 0 && x < CELLS && y >= 0 && y < CELLS)) {
      out.height = NaN;
      out.id = -1;
      out.stack = 0;
      return out;
    }
    const i = Math.floor(x);
    const j = Math.floor(y);
    const fx = x - i;
    const fy = y - j;
    const top = at(i, j) + (at(i + 1, j) - at(i, j)) * fx;
    const bottom = at(i, j + 1) + (at(i + 1, j + 1) - at(i, j + 1)) * fx;
    out.height = top + (bottom - top) * fy;
    // One continuous surface: no edges drawn between cells (the field's own colours and light show it).
    out.id = 0;
    out.stack = 1;
    return out;
  };
}

/**
 * The ground sampler the view uses for a world: Rugrats' highest floor of each cell's stack, Piney's heights blended
 * between the cell's vertices, and the world's `ground` query straight down for the other formats (from `top`
 * along up when given, else from just under the top of the bounds).
 */
export function samplerFor(world: CollisionWorld, top?: number): GroundSampler {
  switch (world.kind) {
    case 'rugrats':
      return rugratsSampler(world as RugratsWorld);
    case 'piney':
      return pineySampler(world as PineyWorld);
    default:
      return querySampler(world, top);
  }
}

/** A world's own ground colours at a map point, when it has them; false where it has none. */
export type GroundColour = (x: number, y: number, out: number[]) => boolean;

/** Piney: the field's lit vertex colours (pineyColours, RGB per cell, x-major). */
export function pineyColour(world: PineyWorld): GroundColour {
  const rgb = pineyColours(world);
  const plane = mapPlaneOf(world);
  return (mx, my, out) => {
    const i = Math.floor(mx / CELL_UNITS);
    const j = Math.floor((plane.ySign * my) / CELL_UNITS);
    if (!(i >= 0 && i < CELLS && j >= 0 && j < CELLS)) return false;
    const k = (i * CELLS + j) * 3;
    out[0] = rgb[k]!;
    out[1] = rgb[k + 1]!;
    out[2] = rgb[k + 2]!;
    return true;
  };
}

/**
 * A world's own ground colours used by default instead of the ground palette: none (the Piney field's lit
 * colours, `pineyColour`, are grey and low in contrast seen from above, and the legend could not show them as
 * a ramp of heights).
 */
export function colourFor(_world: CollisionWorld): GroundColour | undefined {
  return undefined;
}
