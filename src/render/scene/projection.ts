/**
 * The top-down view's map plane: the two horizontal axes of a world (those that are not `up`) as map x and
 * map y, in the world's native units. Map y runs down the screen; for z-up worlds (Piney, GTA) the second
 * axis is negated so the view is the usual map (north up) rather than its mirror image, and for y-up or
 * y-down worlds (Rugrats, Llama, COLBIN) z is kept as is (z towards the viewer in a y-up right-handed frame).
 */
import type { Bounds, CollisionWorld, Vec3 } from '../../worlds/world.js';

/**
 * How a world maps onto the top-down view: which world axes are map x and map y (the two that are not up), and
 * the up axis. Map y runs down the screen; for z-up worlds it is the negated world axis, so north is up.
 */
export interface MapPlane {
  /** World axis shown as map x, and as map y. */
  readonly ax: 0 | 1 | 2;
  readonly ay: 0 | 1 | 2;
  /** −1 when map y is the negated world axis. */
  readonly ySign: 1 | -1;
  /** The world's up axis and its sign. */
  readonly up: 0 | 1 | 2;
  readonly upSign: 1 | -1;
}

/** The map plane of a world, from its up axis. */
export function mapPlaneOf(world: Pick<CollisionWorld, 'up'>): MapPlane {
  const up = world.up.axis;
  const [ax, ay]: [0 | 1 | 2, 0 | 1 | 2] = up === 0 ? [1, 2] : up === 1 ? [0, 2] : [0, 1];
  return { ax, ay, ySign: up === 2 ? -1 : 1, up, upSign: world.up.sign };
}

export function mapX(p: MapPlane, v: ArrayLike<number>): number {
  return v[p.ax]!;
}

export function mapY(p: MapPlane, v: ArrayLike<number>): number {
  return p.ySign * v[p.ay]!;
}

/** A world position for map (x, y) at height `h` along the up axis (its native coordinate, not signed). */
export function worldAt(p: MapPlane, x: number, y: number, h: number, out: Vec3 = [0, 0, 0]): Vec3 {
  out[p.ax] = x;
  out[p.ay] = p.ySign * y;
  out[p.up] = h;
  return out;
}

/** A rectangle on the map plane, in native units: corner (x, y) and size. */
export interface MapRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The world's bounds on the map, or null when they are not finite. */
export function mapRectOf(p: MapPlane, b: Bounds): MapRect | null {
  const xs = [mapX(p, b.min), mapX(p, b.max)];
  const ys = [mapY(p, b.min), mapY(p, b.max)];
  const x0 = Math.min(xs[0]!, xs[1]!);
  const y0 = Math.min(ys[0]!, ys[1]!);
  const r = { x: x0, y: y0, width: Math.max(xs[0]!, xs[1]!) - x0, height: Math.max(ys[0]!, ys[1]!) - y0 };
  return [r.x, r.y, r.width, r.height].every(Number.isFinite) ? r : null;
}

/** Height of a position as "higher is more": the up coordinate times its sign. */
export function heightOf(p: MapPlane, v: ArrayLike<number>): number {
  return p.upSign * v[p.up]!;
}
