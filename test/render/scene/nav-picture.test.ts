/**
 * Navigation pictures (render/scene/nav-picture.ts, the docs' nav-*.png through scripts/nav-images.ts): on the
 * COLBIN demo's graph, each node's pixel has the node colour, each edge is drawn from its node to the midpoint
 * in the colour of what it does (level, climbs, drops), so a one-way edge is a half line; a path is drawn;
 * a part of a world pictured has, node for node and edge for edge, the whole graph's nodes and edges there.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openBuiltinWorld } from '../../../src/node/open-world.js';
import { buildFromSource, buildNavGraph, nodePosition, type NavGraph } from '../../../src/nav/graph.js';
import { walkSourceOf } from '../../../src/nav/walk-source.js';
import { defaultNavBody } from '../../../src/nav/walk.js';
import { findPath } from '../../../src/nav/path.js';
import { smoothPath } from '../../../src/nav/smooth.js';
import { edgeSlope, NAV_PICTURE_COLOURS as C, navPicture, type NavPicture } from '../../../src/render/scene/nav-picture.js';
import { mapPlaneOf, mapX, mapY } from '../../../src/render/scene/projection.js';
import type { CollisionWorld } from '../../../src/worlds/world.js';
import { examplePath, partSource, pictureSize } from '../../../scripts/nav-images.js';

let world: CollisionWorld;
let g: NavGraph;
let pic: NavPicture;

const colourAt = (p: NavPicture, x: number, y: number): number => {
  const o = (Math.floor(y) * p.width + Math.floor(x)) * 4;
  return (p.rgba[o]! << 16) | (p.rgba[o + 1]! << 8) | p.rgba[o + 2]!;
};

/** Node n's pixel (fractional). */
const nodePixel = (p: NavPicture, n: number): [number, number] => {
  const plane = mapPlaneOf(world);
  const v = nodePosition(g, n);
  return p.toPixel(mapX(plane, v), mapY(plane, v));
};

const hasEdge = (a: number, b: number): boolean => {
  for (let k = g.edgeStart[a]!; k < g.edgeStart[a + 1]!; k++) if (g.edgeTo[k] === b) return true;
  return false;
};

/** Whether node n is the only one of its cell (no floor above or below it). */
const alone = (n: number): boolean => g.cellStart[g.cellOf[n]! + 1]! - g.cellStart[g.cellOf[n]!]! === 1;

/** Whether (x, y) is at least `d` pixels from every node. */
const awayFromNodes = (p: NavPicture, x: number, y: number, d: number): boolean => {
  for (let n = 0; n < g.nodeCount; n++) {
    const [nx, ny] = nodePixel(p, n);
    if (Math.abs(nx - x) < d && Math.abs(ny - y) < d) return false;
  }
  return true;
};

beforeAll(async () => {
  world = (await openBuiltinWorld('colbin-demo')).world;
  g = buildNavGraph(world, defaultNavBody(world));
  pic = navPicture(world, g, { size: 494 });
});

describe('navigation pictures', () => {
  it('every node is drawn in the node colour at its own pixel', () => {
    expect(g.nodeCount).toBeGreaterThan(100);
    for (let n = 0; n < g.nodeCount; n++) {
      const [x, y] = nodePixel(pic, n);
      expect(colourAt(pic, x, y), `node ${n}`).toBe(C.node);
    }
    // the legend lists the node colour and the edges' colours the graph has
    const labels = pic.legend.map((l) => l.label);
    expect(labels).toEqual(expect.arrayContaining(['node', 'level edge', 'climbs', 'drops']));
    expect(pic.edges.level + pic.edges.climb + pic.edges.drop).toBe(g.edgeTo.length);
  });

  it("an edge along an axis is drawn up to its midpoint in its kind's colour; a one-way edge is half a line", () => {
    let twoWay = 0;
    let oneWay = 0;
    for (let a = 0; a < g.nodeCount; a++) {
      for (let k = g.edgeStart[a]!; k < g.edgeStart[a + 1]!; k++) {
        const b = g.edgeTo[k]!;
        const [xa, ya] = nodePixel(pic, a);
        const [xb, yb] = nodePixel(pic, b);
        if (xa !== xb && ya !== yb) continue; // diagonals cross one another at their midpoints
        if (!alone(a) || !alone(b)) continue; // another floor's edges lie over these
        const mx = (xa + xb) / 2, my = (ya + yb) / 2;
        if (!awayFromNodes(pic, mx, my, 3)) continue;
        const kind = edgeSlope(g, world, a, b);
        if (hasEdge(b, a) && edgeSlope(g, world, b, a) === kind) {
          // both halves in one colour: the midpoint has it
          expect(colourAt(pic, mx, my), `edge ${a} -> ${b} at its midpoint`).toBe(C[kind]);
          twoWay++;
        } else if (!hasEdge(b, a)) {
          // a quarter of the way from a: drawn; a quarter of the way from b: not this edge's colour, nor any edge's
          const qa = colourAt(pic, xa + (xb - xa) / 4, ya + (yb - ya) / 4);
          const qb = colourAt(pic, xb + (xa - xb) / 4, yb + (ya - yb) / 4);
          expect(qa, `one-way edge ${a} -> ${b} near a`).toBe(C[kind]);
          expect([C.level, C.climb, C.drop], `one-way edge ${a} -> ${b} near b`).not.toContain(qb);
          oneWay++;
        }
      }
    }
    expect(twoWay).toBeGreaterThan(200);
    expect(oneWay).toBeGreaterThan(0);
  });

  it('edges climb and drop by the heights of their ends', () => {
    const plane = mapPlaneOf(world);
    const h = (n: number) => plane.upSign * g.pos[3 * n + plane.up]!;
    for (let a = 0; a < g.nodeCount; a++) {
      for (let k = g.edgeStart[a]!; k < g.edgeStart[a + 1]!; k++) {
        const b = g.edgeTo[k]!;
        const d = h(b) - h(a);
        expect(edgeSlope(g, world, a, b)).toBe(d > g.body.step / 4 ? 'climb' : d < -g.body.step / 4 ? 'drop' : 'level');
      }
    }
  });

  it('a path and its smoothed form are drawn, and listed in the legend; the same input gives the same pixels', () => {
    const path = examplePath(g)!;
    expect(path.points.length).toBeGreaterThan(4);
    const smoothed = smoothPath(world, g.body, path.points);
    const drawn = navPicture(world, g, { size: 494, path: path.points, smoothed });
    expect(drawn.legend.map((l) => l.label)).toEqual(expect.arrayContaining(['path (A*)', 'smoothed']));
    const plane = mapPlaneOf(world);
    // each smoothed leg's midpoint is drawn in the smoothed colour (it is drawn over the path)
    for (let i = 0; i + 1 < smoothed.length; i++) {
      const [x0, y0] = drawn.toPixel(mapX(plane, smoothed[i]!), mapY(plane, smoothed[i]!));
      const [x1, y1] = drawn.toPixel(mapX(plane, smoothed[i + 1]!), mapY(plane, smoothed[i + 1]!));
      const near = [-1, 0, 1].flatMap((dx) => [-1, 0, 1].map((dy) => colourAt(drawn, (x0 + x1) / 2 + dx, (y0 + y1) / 2 + dy)));
      expect(near, `smoothed leg ${i}`).toContain(C.smoothed);
    }
    let pathPixels = 0;
    for (let i = 0; i < drawn.rgba.length; i += 4) if (((drawn.rgba[i]! << 16) | (drawn.rgba[i + 1]! << 8) | drawn.rgba[i + 2]!) === C.path) pathPixels++;
    expect(pathPixels).toBeGreaterThan(path.points.length * 5);
    expect(Buffer.from(navPicture(world, g, { size: 494, path: path.points, smoothed }).rgba).equals(Buffer.from(drawn.rgba))).toBe(true);
  });

  it("a part of a world: the whole graph's nodes and edges within the square, drawn in that square", () => {
    const src = walkSourceOf(world, g.body);
    const part = buildFromSource(partSource(src, 5, 7, 12), 'part');
    const whole = new Map<string, number>();
    for (let n = 0; n < g.nodeCount; n++) whole.set(nodePosition(g, n).join(','), n);
    let inside = 0;
    for (let a = 0; a < part.nodeCount; a++) {
      const wa = whole.get(nodePosition(part, a).join(','));
      expect(wa, `part node ${a}`).toBeDefined();
      const outs = new Set<number>();
      for (let k = part.edgeStart[a]!; k < part.edgeStart[a + 1]!; k++) outs.add(whole.get(nodePosition(part, part.edgeTo[k]!).join(','))!);
      // every edge of the whole graph from this node to a node of the part is the part's, and no other
      const expected = new Set<number>();
      for (let k = g.edgeStart[wa!]!; k < g.edgeStart[wa! + 1]!; k++) {
        const [i, j] = [g.cellOf[g.edgeTo[k]!]! % g.grid.n0, Math.floor(g.cellOf[g.edgeTo[k]!]! / g.grid.n0)];
        if (i >= 5 && i < 17 && j >= 7 && j < 19) expected.add(g.edgeTo[k]!);
      }
      expect(outs).toEqual(expected);
      inside++;
    }
    let wholeInside = 0;
    for (let n = 0; n < g.nodeCount; n++) {
      const c = g.cellOf[n]!;
      const [i, j] = [c % g.grid.n0, Math.floor(c / g.grid.n0)];
      if (i >= 5 && i < 17 && j >= 7 && j < 19) wholeInside++;
    }
    expect(inside).toBe(wholeInside);
    expect(inside).toBeGreaterThan(50);
    expect(() => partSource(src, 20, 20, 12)).toThrow(/leave the 26 × 26 grid/);
    // 12 cells at a whole number of pixels each
    expect(pictureSize(world, part.grid, { x: 0, y: 0, width: 12 * g.grid.cell, height: 12 * g.grid.cell })).toBe(504);
  });
});
