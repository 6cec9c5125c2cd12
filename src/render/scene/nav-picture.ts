/**
 * A world's navigation graph drawn over its picture (picture.ts): every node as a dot, every directed edge as a
 * line from its node to the midpoint toward its target, coloured by whether it climbs, drops or stays level (so
 * a two-way edge is a whole line and a one-way edge, such as a drop from a ledge, a half line), and optionally
 * a path (the nodes `findPath` returns) and the same path smoothed (`smoothPath`), with start and goal marked.
 * Pure: the same world, graph and path give the same pixels (the docs' pictures, test/render/scene).
 */
import type { NavGraph } from '../../nav/graph.js';
import type { CollisionWorld, Vec3 } from '../../worlds/world.js';
import { heightOf, mapPlaneOf, mapX, mapY, type MapRect } from './projection.js';
import type { Painter } from './painter.js';
import { worldPicture, type WorldPicture } from './picture.js';

/** The colours of a navigation picture, each with one meaning (its legend). */
export const NAV_PICTURE_COLOURS = Object.freeze({
  /** A node: a place the body stands. */
  node: 0xffffff,
  /** An edge whose ends are at the same height (within a quarter of the body's step). */
  level: 0x00bcd4,
  /** An edge that climbs more than that. */
  climb: 0xffab00,
  /** An edge that drops more than that. */
  drop: 0xff1744,
  /** The path `findPath` found, node by node. */
  path: 0xffee58,
  /** The same path smoothed: the points the body walks straight between. */
  smoothed: 0xd500f9,
});

/** The colour the map is dimmed toward under the graph (the picture's background). */
const DIM_RGB = 0x10141a;

/** What an edge does, by the heights of its ends. */
export type EdgeSlope = 'level' | 'climb' | 'drop';

/**
 * Whether the edge from node `a` to node `b` climbs, drops or stays level: the difference of their heights
 * ("higher is more", whatever the world's up axis) against a quarter of the graph body's step height.
 */
export function edgeSlope(g: NavGraph, world: Pick<CollisionWorld, 'up'>, a: number, b: number): EdgeSlope {
  const plane = mapPlaneOf(world);
  const ha = heightOf(plane, g.pos.subarray(3 * a, 3 * a + 3));
  const hb = heightOf(plane, g.pos.subarray(3 * b, 3 * b + 3));
  const tol = g.body.step / 4;
  return hb - ha > tol ? 'climb' : ha - hb > tol ? 'drop' : 'level';
}

/** Options of navPicture. */
export interface NavPictureOptions {
  /** Pixels along the longer side of the map (default 512). */
  size?: number;
  /** The part of the map drawn (native map units); the world's bounds by default. */
  region?: MapRect;
  /** The footer's title (default: the world's kind and name). */
  title?: string;
  /** A path's points (`NavPath.points`), drawn node to node. */
  path?: readonly Readonly<Vec3>[];
  /** The same path smoothed (`smoothPath`), drawn over it. */
  smoothed?: readonly Readonly<Vec3>[];
}

/** A navigation picture: the world picture, and how many edges of each kind were drawn. */
export interface NavPicture extends WorldPicture {
  edges: Record<EdgeSlope, number>;
}

/** Draws `world` with its navigation graph `g` over it (see the module comment). */
export function navPicture(world: CollisionWorld, g: NavGraph, options: NavPictureOptions = {}): NavPicture {
  const plane = mapPlaneOf(world);
  const C = NAV_PICTURE_COLOURS;
  const edges: Record<EdgeSlope, number> = { level: 0, climb: 0, drop: 0 };
  for (let a = 0; a < g.nodeCount; a++) for (let k = g.edgeStart[a]!; k < g.edgeStart[a + 1]!; k++) edges[edgeSlope(g, world, a, g.edgeTo[k]!)]++;
  const legend = [
    { label: 'node', colour: C.node },
    { label: 'level edge', colour: C.level },
    ...(edges.climb ? [{ label: 'climbs', colour: C.climb }] : []),
    ...(edges.drop ? [{ label: 'drops', colour: C.drop }] : []),
    ...(options.path ? [{ label: 'path (A*)', colour: C.path }] : []),
    ...(options.smoothed ? [{ label: 'smoothed', colour: C.smoothed }] : []),
  ];
  const draw = (p: Painter, toPixel: (x: number, y: number) => [number, number], unit: number): void => {
    // A node's dot: 3 pixels wide when a cell is 8 pixels or more, 2 from 4, else 1 (the pixel it falls in is always one).
    const cellPx = g.grid.cell / unit;
    const dot = cellPx >= 8 ? 3 : cellPx >= 4 ? 2 : 1;
    const at = (n: number): [number, number] => {
      const v = g.pos.subarray(3 * n, 3 * n + 3);
      return toPixel(mapX(plane, v), mapY(plane, v));
    };
    // The map dimmed by half, so the graph reads over any ground; edges first (each from its node to the
    // midpoint), then the paths, then the nodes on top.
    p.rect(0, 0, p.width, p.height, DIM_RGB, 0.5);
    for (let a = 0; a < g.nodeCount; a++) {
      const [x0, y0] = at(a);
      for (let k = g.edgeStart[a]!; k < g.edgeStart[a + 1]!; k++) {
        const b = g.edgeTo[k]!;
        const [x1, y1] = at(b);
        p.line(x0, y0, (x0 + x1) / 2, (y0 + y1) / 2, C[edgeSlope(g, world, a, b)]);
      }
    }
    const polyline = (pts: readonly Readonly<Vec3>[], colour: number, thick: number) => {
      const px = pts.map((v) => toPixel(mapX(plane, v), mapY(plane, v)));
      for (let i = 0; i + 1 < px.length; i++) {
        const [x0, y0] = px[i]!;
        const [x1, y1] = px[i + 1]!;
        for (let dx = -thick; dx <= thick; dx++) for (let dy = -thick; dy <= thick; dy++) p.line(x0 + dx, y0 + dy, x1 + dx, y1 + dy, colour);
      }
    };
    if (options.path) polyline(options.path, C.path, 1);
    if (options.smoothed) polyline(options.smoothed, C.smoothed, 0);
    for (let a = 0; a < g.nodeCount; a++) {
      const [x, y] = at(a);
      p.rect(Math.floor(x) - (dot === 3 ? 1 : 0), Math.floor(y) - (dot === 3 ? 1 : 0), dot, dot, C.node);
    }
    const ends = options.smoothed ?? options.path;
    if (ends && ends.length > 0) {
      for (const v of [ends[0]!, ends[ends.length - 1]!]) {
        const [x, y] = toPixel(mapX(plane, v), mapY(plane, v));
        p.circle(x, y, 4, null, 0, C.path, 1);
      }
    }
  };
  const pic = worldPicture(world, {
    ...(options.size !== undefined ? { size: options.size } : {}),
    ...(options.region ? { region: options.region } : {}),
    ...(options.title !== undefined ? { title: options.title } : {}),
    layer: { legend, draw },
  });
  return { ...pic, edges };
}
