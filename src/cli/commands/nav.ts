/**
 * `retrosim nav`: navigation graphs. `nav build WORLD` builds a world's graph for the default body and saves
 * it (a `.nav` file); `nav path WORLD x y z x y z` finds the cheapest path between two points on it (read from
 * the saved graph when there is one, else built).
 */
import { existsSync } from 'node:fs';
import { basename, extname, join, dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { numArg, parseArgs, UsageError, type OptionSpec } from '../args.js';
import type { Command } from '../command.js';
import { print, printJson, readInputFile, writeOutputFile } from '../io.js';
import { inFile } from '../../binary/format-error.js';
import { builtinWorldId } from '../../worlds/builtin.js';
import { buildNavGraph, graphSummary, type NavGraph } from '../../nav/graph.js';
import { navGraphHash, parseNavGraph, writeNavGraph } from '../../nav/graph-file.js';
import { findPath, PathSearch } from '../../nav/path.js';
import { smoothPath } from '../../nav/smooth.js';
import { defaultNavBody } from '../../nav/walk.js';
import { navGridOf } from '../../nav/walk-source.js';
import type { CollisionWorld, Vec3 } from '../../worlds/world.js';
import { openWorld } from './world.js';

const usage = `usage:
  retrosim nav build WORLD [--cell N] [--out FILE] [--map FILE] [--json]
  retrosim nav path WORLD X Y Z X Y Z [--graph FILE] [--cell N] [--smooth] [--cheapest] [--map FILE] [--json]

WORLD is a built-in world (rugrats-demo, llama-demo, colbin-demo, gta-town, piney-default, ...) or any world
file. The graph is the default body's (a person: radius 0.3 m, height 1 m, step 0.3 m, walking 1.5 m/s) on a
grid of cells of --cell native units (default: 0.25 m in Rugrats, 0.5 m in Llama, COLBIN and GTA, 6 m on the
Piney field; a whole even number in integer worlds, a power of two in the others).
  build  builds the graph and writes it to --out (default: WORLD's name with .nav, beside a world file, in the
         current folder for a built-in world). Prints nodes, edges, cells, the seconds it took and the hash.
         --json: {"world","kind","file","nodes","edges","cells","cellsWithNodes","cell","seconds","hash"}
  path   a path from the first point to the second (native units), from the node nearest each: the cheapest
         when they are under 32 cells apart, else through the graph's coarse layer (a few percent dearer,
         much faster on a large world); --cheapest always searches for the cheapest.
         The graph is read from --graph, else from the default file of build when it exists, else built.
         --smooth cuts the corners the body walks straight. --json:
         {"world","found","cost","points":[[x,y,z],...],"length"} (length: metres along the points)`;

const SPEC: Record<string, OptionSpec> = {
  json: { type: 'flag' },
  smooth: { type: 'flag' },
  cheapest: { type: 'flag' },
  cell: { type: 'number', min: 1e-6, max: 1e9 },
  out: { type: 'string' },
  graph: { type: 'string' },
  map: { type: 'string' },
  trak: { type: 'string' },
};

/** Where `nav build` writes a world's graph by default. */
function defaultGraphPath(given: string, map: string | undefined): string {
  const stem = basename(given, extname(given)).replace(/\.field$/, '');
  if (builtinWorldId(given, existsSync, map) !== undefined) return `${given}.nav`;
  return join(dirname(given), `${stem}.nav`);
}

/** The world's grid cell from --cell, a usage error when the world cannot take it. */
function cellOf(world: CollisionWorld, cell: unknown): number | undefined {
  if (cell === undefined) return undefined;
  try {
    return navGridOf(world, cell as number).cell;
  } catch (e) {
    throw new UsageError(`--cell ${String(cell)}: ${(e as Error).message}`);
  }
}

/** A graph read from `path`, checked to be one of `world` (its kind and grid). */
function readGraph(path: string, world: CollisionWorld, cell: number | undefined): NavGraph {
  const g = inFile(path, () => parseNavGraph(readInputFile(path)));
  const grid = navGridOf(world, cell ?? g.grid.cell);
  const same = g.kind === world.kind && g.grid.cell === grid.cell && g.grid.origin0 === grid.origin0 && g.grid.origin1 === grid.origin1 && g.grid.n0 === grid.n0 && g.grid.n1 === grid.n1;
  if (!same && g.kind === world.kind && g.grid.cell !== grid.cell) {
    throw new Error(`${path}: the graph is on cells of ${g.grid.cell}, not the ${grid.cell} asked for (build one with --cell ${grid.cell} --out FILE and give it with --graph FILE, or leave --cell out)`);
  }
  if (!same) throw new Error(`${path}: the graph is of another world (a ${g.kind} grid of ${g.grid.n0} × ${g.grid.n1} cells of ${g.grid.cell}), not of ${world.name}`);
  return g;
}

/** Metres along a polyline. */
function lengthOf(world: CollisionWorld, pts: readonly Vec3[]): number {
  let s = 0;
  for (let k = 1; k < pts.length; k++) {
    const a = pts[k - 1]!, b = pts[k]!;
    s += Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
  }
  return s / (world.scale > 0 ? world.scale : 1);
}

export const command: Command = {
  summary: 'navigation graphs: build one for a world, find a path on it',
  usage,
  run(argv) {
    const [which, ...rest] = argv;
    const { positionals: p, options: o } = parseArgs(rest, SPEC);
    if (which !== 'build' && which !== 'path') throw new UsageError(which === undefined ? 'nav needs build or path' : `unknown nav command ${JSON.stringify(which)} (build or path)`);
    const given = p[0];
    if (given === undefined) throw new UsageError(`nav ${which} needs a WORLD`);
    const map = typeof o['map'] === 'string' ? o['map'] : undefined;
    if (which === 'build') {
      if (p.length > 1) throw new UsageError(`nav build takes one WORLD (got ${JSON.stringify(p[1])})`);
      const opened = openWorld(given, o);
      const world = opened.world;
      const cell = cellOf(world, o['cell']);
      const t0 = performance.now();
      const g = buildNavGraph(world, defaultNavBody(world), cell === undefined ? { tag: world.name } : { cell, tag: world.name });
      const seconds = (performance.now() - t0) / 1000;
      const file = typeof o['out'] === 'string' ? o['out'] : defaultGraphPath(given, map);
      writeOutputFile(file, writeNavGraph(g), existsSync(given) ? given : undefined);
      const s = graphSummary(g);
      const out = { world: world.name, kind: world.kind, file, nodes: s.nodes, edges: s.edges, cells: s.cells, cellsWithNodes: s.cellsWithNodes, cell: g.grid.cell, seconds: Number(seconds.toFixed(3)), hash: navGraphHash(g) };
      if (o['json']) printJson(out);
      else print(`${file}: ${out.nodes} nodes, ${out.edges} edges on ${out.cells} cells of ${out.cell} (${out.cellsWithNodes} with a node), built in ${out.seconds} s, hash ${out.hash}`);
      return 0;
    }
    if (p.length !== 7) throw new UsageError(`nav path needs WORLD and two points X Y Z X Y Z (got ${p.length - 1} numbers)`);
    const nums = p.slice(1).map((v, k) => numArg(v, `${k < 3 ? 'from' : 'to'} ${'xyz'[k % 3]}`));
    const from: Vec3 = [nums[0]!, nums[1]!, nums[2]!];
    const to: Vec3 = [nums[3]!, nums[4]!, nums[5]!];
    const opened = openWorld(given, o);
    const world = opened.world;
    const cell = cellOf(world, o['cell']);
    const saved = typeof o['graph'] === 'string' ? o['graph'] : defaultGraphPath(given, map);
    const g = typeof o['graph'] === 'string' || existsSync(saved) ? readGraph(saved, world, cell) : buildNavGraph(world, defaultNavBody(world), cell === undefined ? {} : { cell });
    const path = findPath(g, from, to, new PathSearch(g, { cheapest: o['cheapest'] === true }));
    const points = path === null ? [] : o['smooth'] ? smoothPath(world, g.body, path.points) : path.points.map((q) => [...q] as Vec3);
    const out = { world: world.name, found: path !== null, cost: path?.cost ?? null, points, length: Number(lengthOf(world, points).toFixed(6)) };
    if (o['json']) printJson(out);
    else if (path === null) print(`no path from ${from.join(' ')} to ${to.join(' ')} on ${world.name}`);
    else print(`${points.length} points, cost ${out.cost}, ${out.length} m:\n${points.map((q) => q.join(' ')).join('\n')}`);
    return 0;
  },
};
