/**
 * `npm run nav-images [-- --out DIR]`: the pictures of docs/navigation.md. Each shipped world drawn from above
 * with its navigation graph for the default body over it (render/scene/nav-picture.ts) and one example path,
 * found by `findPath` and smoothed by `smoothPath`, written as PNG files (pngjs, as `retrosim world png`) named
 * nav-<world>.png in DIR (default docs/images).
 *
 * The GTA town's whole graph has about 100,000 nodes and takes over a minute to build, and the Piney field's
 * 8,649 nodes drawn at this size are a solid mass: their pictures are a square part of each (`PARTS`), whose
 * graph is the whole graph's nodes and edges within that square (a cell's standing places and walks depend on
 * that cell and its neighbour alone), built from the world's own walkability source.
 *
 * Prints one line per picture: nodes, edges by kind, path, build and draw times, size in bytes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { openBuiltinWorld } from '../src/node/open-world.js';
import { buildFromSource, buildNavGraph, nodePosition, type NavGraph } from '../src/nav/graph.js';
import { walkSourceOf, type NavGrid, type WalkSource } from '../src/nav/walk-source.js';
import { defaultNavBody } from '../src/nav/walk.js';
import { findPath, octile, PathSearch, type NavPath } from '../src/nav/path.js';
import { smoothPath } from '../src/nav/smooth.js';
import { navPicture } from '../src/render/scene/nav-picture.js';
import { mapPlaneOf, mapRectOf, mapX, mapY, type MapRect } from '../src/render/scene/projection.js';
import type { CollisionWorld } from '../src/worlds/world.js';

/** The shipped worlds pictured, in the order of docs/navigation.md. */
export const NAV_IMAGE_WORLDS = ['rugrats-demo', 'llama-demo', 'colbin-demo', 'gta-town', 'piney-default'] as const;

/** The most pixels along a picture's longer side: the two largest graphs' pictures are kept under 300 KB. */
const MOST_PIXELS: Readonly<Record<string, number>> = { 'gta-town': 448, 'piney-default': 400 };

/**
 * The parts pictured of the two largest worlds: the first cell along each axis of the world's grid, and cells
 * per side. The GTA town: a 56 m square near its middle (its buildings, boxes and ramp); the Piney field: a
 * 246 m square (a quarter of the field) with the lake and two hills.
 */
export const PARTS: Readonly<Record<string, { i0: number; j0: number; cells: number }>> = {
  'gta-town': { i0: 89, j0: 105, cells: 112 },
  'piney-default': { i0: 35, j0: 23, cells: 48 },
};

/**
 * The walkability source of cells i0 .. i0 + cells − 1, j0 .. j0 + cells − 1 of `src`'s grid, as a grid of
 * its own: every answer is `src`'s for the same cell, so its graph is `src`'s graph within the square.
 */
export function partSource(src: WalkSource, i0: number, j0: number, cells: number): WalkSource {
  const g = src.grid;
  if (i0 < 0 || j0 < 0 || i0 + cells > g.n0 || j0 + cells > g.n1) throw new RangeError(`cells ${i0}+${cells}, ${j0}+${cells} leave the ${g.n0} × ${g.n1} grid`);
  const grid: NavGrid = { ...g, origin0: g.origin0 + i0 * g.cell, origin1: g.origin1 + j0 * g.cell, n0: cells, n1: cells };
  return {
    world: src.world,
    body: src.body,
    grid,
    stands: (i, j) => src.stands(i + i0, j + j0),
    step: (from, i, j) => src.step(from, i + i0, j + j0),
  };
}

/**
 * The example path: of the paths between nodes k·n/16 and m·n/16 (k, m in 0..15), the one that goes most out of
 * its way (its cost less the octile distance between its ends: what it walks around), then the costliest. Each
 * is the cheapest path (a picture of the graph shows what the graph allows, not the coarse layer's choice).
 */
export function examplePath(g: NavGraph): NavPath | null {
  const search = new PathSearch(g, { cheapest: true });
  let best: NavPath | null = null;
  let bestDetour = -1;
  for (let k = 0; k < 16; k++) {
    for (let m = 0; m < 16; m++) {
      if (k === m) continue;
      const a = Math.floor((k * g.nodeCount) / 16);
      const b = Math.floor((m * g.nodeCount) / 16);
      const p = findPath(g, nodePosition(g, a), nodePosition(g, b), search);
      if (!p) continue;
      const detour = p.cost - octile(g, g.cellOf[p.nodes[0]!]!, g.cellOf[p.nodes[p.nodes.length - 1]!]!);
      if (detour > bestDetour || (detour === bestDetour && p.cost > best!.cost)) {
        best = p;
        bestDetour = detour;
      }
    }
  }
  return best;
}

/**
 * The picture's size: at most 512 pixels, and a whole number of pixels per cell as near as the map's length
 * allows, so that the graph's pattern repeats pixel for pixel (and the PNG stays small).
 */
export function pictureSize(world: CollisionWorld, grid: NavGrid, rect?: MapRect, most = 512): number {
  const r = rect ?? mapRectOf(mapPlaneOf(world), world.bounds)!;
  const cells = Math.max(r.width, r.height) / grid.cell;
  return Math.floor(Math.max(1, Math.floor(most / cells)) * cells);
}

/** The map rectangle of a grid square (native map units). */
function gridRect(world: CollisionWorld, grid: NavGrid): MapRect {
  const plane = mapPlaneOf(world);
  const corners = [[grid.origin0, grid.origin1], [grid.origin0 + grid.n0 * grid.cell, grid.origin1 + grid.n1 * grid.cell]].map(([u, v]) => {
    const p = [0, 0, 0];
    p[grid.a0] = u!;
    p[grid.a1] = v!;
    return [mapX(plane, p), mapY(plane, p)] as const;
  });
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  return { x: Math.min(...xs), y: Math.min(...ys), width: Math.abs(xs[1]! - xs[0]!), height: Math.abs(ys[1]! - ys[0]!) };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const o = args.indexOf('--out');
  const dir = o >= 0 ? args[o + 1] : 'docs/images';
  if (!dir) throw new Error('--out needs a folder');
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  for (const id of NAV_IMAGE_WORLDS) {
    const { world } = await openBuiltinWorld(id);
    const body = defaultNavBody(world);
    const t0 = performance.now();
    let graph: NavGraph;
    let region: MapRect | undefined;
    let title = `${id}, navigation graph`;
    const part = PARTS[id];
    if (part) {
      const src = partSource(walkSourceOf(world, body), part.i0, part.j0, part.cells);
      graph = buildFromSource(src, `${world.name} part`);
      region = gridRect(world, src.grid);
      title = `${id}, a ${+((part.cells * src.grid.cell) / world.scale).toFixed(1)} m square`;
    } else graph = buildNavGraph(world, body);
    const built = performance.now() - t0;
    const path = examplePath(graph);
    const smoothed = path ? smoothPath(world, body, path.points) : undefined;
    const t1 = performance.now();
    const pic = navPicture(world, graph, { size: pictureSize(world, graph.grid, region, MOST_PIXELS[id] ?? 512), title, ...(region ? { region } : {}), ...(path ? { path: path.points } : {}), ...(smoothed ? { smoothed } : {}) });
    const png = new PNG({ width: pic.width, height: pic.height });
    png.data.set(pic.rgba);
    const bytes = PNG.sync.write(png, { colorType: 2, deflateLevel: 9 });
    const out = join(dir, `nav-${id}.png`);
    writeFileSync(out, bytes);
    const drawn = performance.now() - t1;
    const e = pic.edges;
    console.log(`${id} -> ${out}: ${pic.width} × ${pic.height} px, ${bytes.length} bytes; ${graph.nodeCount} nodes, ${e.level} level, ${e.climb} climbing, ${e.drop} dropping edges; path ${path ? `${path.points.length} points, cost ${path.cost}, ${smoothed!.length} smoothed` : 'none'}; graph ${(built / 1000).toFixed(1)} s, path and picture ${(drawn / 1000).toFixed(1)} s`);
  }
  console.log(`all in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  });
}
