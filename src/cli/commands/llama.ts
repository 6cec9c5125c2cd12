import { expectPositionals, numArg, parseArgs, UsageError, type OptionSpec } from '../args.js';
import type { ParsedArgs } from '../args.js';
import type { Command } from '../command.js';
import { inFile, print, printJson, readInputFile, writeOutputFile } from '../io.js';
import { checkLevel } from '../../worlds/llama/check.js';
import { LlamaWorld } from '../../worlds/llama/collision-world.js';
import type { LlamaConventions } from '../../worlds/llama/conventions.js';
import { parseMap } from '../../worlds/llama/map-parse.js';
import { asLevelDescription, buildLevel, type LevelDescription } from '../../worlds/llama/level-builder.js';
import { parseTrak } from '../../worlds/llama/trak-parse.js';
import { positionCellOf } from '../../worlds/llama/conventions.js';
import { cameraMask, cellRegion } from '../../worlds/llama/regions.js';
import { newMoveResult, type Vec3 } from '../../worlds/world.js';
import { checkJsonDepth } from '../../binary/json-depth.js';
import { DEFAULT_LIMITS } from '../../limits.js';

const usage = `usage:
  retrosim llama info TRAK MAP [options] [--json]
  retrosim llama ground TRAK MAP x y z [options] [--json]
  retrosim llama move TRAK MAP x y z dx dy dz [--radius R] [--height H] [--steps N] [options] [--json]
  retrosim llama check TRAK MAP [options] [--json]
  retrosim llama regions TRAK MAP x z [--json]
  retrosim llama build LEVEL.json OUT.trak OUT.map [--json]

Llama (Croc-2-engine) tile-grid levels. TRAK and MAP are .trak/.map files (chunks cut from a WAD) or the
same whole .wad given twice. Positions are game space: x east, y up, z = grid row, 1 unit = one tile.
  info    grid, tiles, models, polygons, swaps, regions, bounds and the spawn point
  ground  the floor at or below the point (only tiles listed in its cell count) and the ceiling above it
  move    a body (feet at x y z) moved by (dx dy dz), N times: walls push it out, no step-up, lands on
          floors; contacts name the tile and material (exit floor 16 → "exit", death plane 30 → "death")
  check   every broken rule that crashes the game or corrupts the level, with tile and cell (exit 1 if any
          error)
  regions the cells a camera at (x, z) can see: its cell's region mask (mask 0 or outside the grid: all)
  build   writes the TRAK and MAP of a readable level description (see docs/formats/llama.md;
          assets/worlds/llama/*.level.json are examples)
options:
  --swaps LIST          turn these swaps (comma-separated indices) to their alternative model first
  --plane-sign 1|-1     plane equation n·p = d (1, default) or n·p + d = 0 (-1)
  --normal-scale 127|128  collision normals stored ×127 (default) or ×128
  --rotation-sense 1|-1 rotation 1024 turns local +z to +x (1, default) or to −x (-1)
  --radius R, --height H  the body (default 0.2 and 0.75)
--json prints one line of JSON:
  info:   {"name","width","height","tiles","models","wfpc","swaps","swapTiles","polygons":{"floors","ceilings",
           "walls"},"regionsUsed","bounds":{"min","max"},"spawn","conventions"}
  ground: {"hasFloor","floor","ceiling","material","tile","cell"} (null for none)
  move:   {"position","grounded","steps","contacts":[{"step","kind","normal","tile","material"}]}
  check:  {"ok","errors","warnings","problems":[{"rule","severity","tile","cell","polygon"?,"detail"}]}
  regions: {"cell","region","mask","visible":[cell indices]}
  build:  {"trak":{"path","bytes"},"map":{"path","bytes"},"tiles","models"}`;

const COMMON: Record<string, OptionSpec> = {
  json: { type: 'flag' },
  swaps: { type: 'string' },
  'plane-sign': { type: 'int', min: -1, max: 1 },
  'normal-scale': { type: 'int', min: 127, max: 128 },
  'rotation-sense': { type: 'int', min: -1, max: 1 },
  radius: { type: 'number', min: 0, max: 8 },
  height: { type: 'number', min: 0, max: 64 },
  steps: { type: 'int', min: 1, max: 100000 },
};

function conventionsOf(o: ParsedArgs["options"]): Partial<LlamaConventions> {
  const c: Partial<LlamaConventions> = {};
  const sign = (name: string): 1 | -1 | undefined => {
    const v = o[name];
    if (v === undefined) return undefined;
    if (v !== 1 && v !== -1) throw new UsageError(`--${name} must be 1 or -1`);
    return v;
  };
  const ps = sign('plane-sign');
  if (ps !== undefined) c.planeSign = ps;
  const rs = sign('rotation-sense');
  if (rs !== undefined) c.rotationSense = rs;
  if (o['normal-scale'] !== undefined) c.normalScale = o['normal-scale'] as 127 | 128;
  if (o['radius'] !== undefined) c.bodyRadius = o['radius'] as number;
  if (o['height'] !== undefined) c.bodyHeight = o['height'] as number;
  return c;
}

function load(trakPath: string, mapPath: string, o: ParsedArgs["options"]): LlamaWorld {
  const trak = inFile(trakPath, () => parseTrak(readInputFile(trakPath)));
  const map = inFile(mapPath, () => parseMap(readInputFile(mapPath), trak.models.map((m) => m.vertices.length / 6)));
  const name = mapPath.split(/[\\/]/).pop()!;
  const world = new LlamaWorld(trak, map, name, conventionsOf(o));
  const swaps = o['swaps'];
  if (typeof swaps === 'string' && swaps.trim() !== '') {
    for (const part of swaps.split(',')) {
      const i = numArg(part, '--swaps entry');
      if (!Number.isInteger(i) || i < 0 || i >= world.swapCount) throw new UsageError(`--swaps: ${part} is not a swap index (the level has ${world.swapCount})`);
      world.setSwap(i, true);
    }
  }
  return world;
}

const fmt = (v: number): string => (Number.isNaN(v) ? 'none' : String(v));

function info(argv: string[]): number {
  const { positionals, options } = parseArgs(argv, COMMON);
  const [t, m] = expectPositionals(positionals, ['TRAK', 'MAP']);
  const w = load(t!, m!, options);
  const c = w.collision;
  let floors = 0, ceilings = 0, walls = 0;
  for (const model of w.trak.models) {
    floors += model.floorCount;
    ceilings += model.ceilingCount;
    walls += model.wallCount;
  }
  const used = [...new Set(Array.from(w.map.cellRegions))].sort((a, b) => a - b);
  const out = {
    name: w.name,
    width: c.width,
    height: c.height,
    tiles: c.tileCount,
    models: w.trak.models.length,
    wfpc: '0x' + w.map.wfpc.toString(16),
    swaps: w.swapCount,
    swapTiles: Array.from(c.swapTile),
    polygons: { floors, ceilings, walls },
    regionsUsed: used,
    bounds: w.bounds,
    spawn: w.spawnPoint(),
    conventions: w.conventions,
  };
  if (options['json']) printJson(out);
  else {
    print(`${out.name}: ${out.width}×${out.height} cells, ${out.tiles} tiles, ${out.models} models, WFPC ${out.wfpc}`);
    print(`collision polygons in the models: ${floors} floors, ${ceilings} ceilings, ${walls} walls`);
    print(`tile swaps: ${out.swaps}${out.swaps ? ` (tiles ${out.swapTiles.join(', ')})` : ''}`);
    print(`regions used: ${used.join(', ')}`);
    print(`bounds: min ${out.bounds.min.join(' ')}  max ${out.bounds.max.join(' ')}`);
    print(`spawn: ${out.spawn.join(' ')}`);
  }
  return 0;
}

function ground(argv: string[]): number {
  const { positionals, options } = parseArgs(argv, COMMON);
  const [t, m, xs, ys, zs] = expectPositionals(positionals, ['TRAK', 'MAP', 'x', 'y', 'z']);
  const w = load(t!, m!, options);
  const p: Vec3 = [numArg(xs!, 'x'), numArg(ys!, 'y'), numArg(zs!, 'z')];
  const g = w.ground(p);
  const out = { hasFloor: g.hasFloor, floor: g.floor, ceiling: g.ceiling, material: g.material, tile: g.id, cell: positionCellOf(p[0], p[2], w.collision.width, w.collision.height) };
  if (options['json']) printJson(out);
  else print(`floor ${fmt(out.floor)} (material ${out.material}, tile ${out.tile}), ceiling ${fmt(out.ceiling)}, cell ${out.cell}`);
  return 0;
}

function move(argv: string[]): number {
  const { positionals, options } = parseArgs(argv, COMMON);
  const names = ['TRAK', 'MAP', 'x', 'y', 'z', 'dx', 'dy', 'dz'];
  const p = expectPositionals(positionals, names);
  const w = load(p[0]!, p[1]!, options);
  const v = p.slice(2).map((s, i) => numArg(s, names[i + 2]!));
  const body = { radius: w.conventions.bodyRadius, height: w.conventions.bodyHeight };
  let pos: Vec3 = [v[0]!, v[1]!, v[2]!];
  const delta: Vec3 = [v[3]!, v[4]!, v[5]!];
  const steps = (options['steps'] as number | undefined) ?? 1;
  const contacts: { step: number; kind: string; normal: Vec3; tile: number; material: number }[] = [];
  const r = newMoveResult();
  for (let s = 1; s <= steps; s++) {
    w.move(body, pos, delta, r);
    for (const c of r.contacts) contacts.push({ step: s, kind: c.kind, normal: [...c.normal] as Vec3, tile: c.id, material: c.material });
    pos = [r.position[0], r.position[1], r.position[2]];
  }
  const out = { position: pos, grounded: r.grounded, steps, contacts };
  if (options['json']) printJson(out);
  else {
    print(`position ${pos.join(' ')}${r.grounded ? ' (grounded)' : ''} after ${steps} step(s)`);
    for (const c of contacts) print(`  step ${c.step}: ${c.kind} tile ${c.tile} material ${c.material} normal ${c.normal.map((x) => +x.toFixed(6)).join(' ')}`);
  }
  return 0;
}

function check(argv: string[]): number {
  const { positionals, options } = parseArgs(argv, COMMON);
  const [t, m] = expectPositionals(positionals, ['TRAK', 'MAP']);
  const trak = inFile(t!, () => parseTrak(readInputFile(t!)));
  const map = inFile(m!, () => parseMap(readInputFile(m!), trak.models.map((x) => x.vertices.length / 6)));
  const report = checkLevel(trak, map, conventionsOf(options));
  if (options['json']) printJson(report);
  else {
    for (const p of report.problems) {
      print(`${p.severity} ${p.rule}: tile ${p.tile}, cell ${p.cell}${p.polygon !== undefined ? `, polygon ${p.polygon}` : ''}: ${p.detail}`);
    }
    print(report.ok ? `ok (${report.warnings} warning(s))` : `${report.errors} error(s), ${report.warnings} warning(s)`);
  }
  return report.ok ? 0 : 1;
}

function regions(argv: string[]): number {
  const { positionals, options } = parseArgs(argv, COMMON);
  const [t, m, xs, zs] = expectPositionals(positionals, ['TRAK', 'MAP', 'x', 'z']);
  const w = load(t!, m!, options);
  const x = numArg(xs!, 'x'), z = numArg(zs!, 'z');
  const cell = positionCellOf(x, z, w.map.width, w.map.height);
  const vis = w.visibleCells(x, z);
  const visible: number[] = [];
  for (let c = 0; c < vis.length; c++) if (vis[c]) visible.push(c);
  const out = { cell, region: cellRegion(w.map, cell), mask: '0x' + cameraMask(w.map, cell).toString(16), visible };
  if (options['json']) printJson(out);
  else print(`cell ${cell} (region ${out.region}, mask ${out.mask}) sees ${visible.length} of ${vis.length} cells: ${visible.join(' ')}`);
  return 0;
}

function build(argv: string[]): number {
  const { positionals, options } = parseArgs(argv, { json: { type: 'flag' } });
  const [descPath, trakPath, mapPath] = expectPositionals(positionals, ['LEVEL.json', 'OUT.trak', 'OUT.map']);
  let desc: LevelDescription;
  let built: ReturnType<typeof buildLevel>;
  try {
    const text = new TextDecoder().decode(readInputFile(descPath!));
    inFile(descPath!, () => checkJsonDepth(text, DEFAULT_LIMITS.jsonDepth, 'llama level description'));
    desc = asLevelDescription(JSON.parse(text));
    built = inFile(descPath!, () => buildLevel(desc));
  } catch (e) {
    if (e instanceof SyntaxError || e instanceof RangeError) throw new UsageError(`${descPath}: ${e.message}`);
    throw e;
  }
  writeOutputFile(trakPath!, built.trakBytes);
  writeOutputFile(mapPath!, built.mapBytes);
  const out = { trak: { path: trakPath, bytes: built.trakBytes.length }, map: { path: mapPath, bytes: built.mapBytes.length }, tiles: desc.tiles.length, models: desc.models.length };
  if (options['json']) printJson(out);
  else print(`${trakPath}: ${out.trak.bytes} bytes, ${mapPath}: ${out.map.bytes} bytes (${out.tiles} tiles, ${out.models} models)`);
  return 0;
}

export const command: Command = {
  summary: 'Llama tile-grid levels: info, floor/ceiling queries, body moves, level check, build',
  usage,
  run(argv: string[]): number {
    const [sub, ...rest] = argv;
    switch (sub) {
      case 'info':
        return info(rest);
      case 'ground':
        return ground(rest);
      case 'move':
        return move(rest);
      case 'check':
        return check(rest);
      case 'regions':
        return regions(rest);
      case 'build':
        return build(rest);
      default:
        throw new UsageError(sub === undefined ? 'llama needs a subcommand: info, ground, move, check, regions or build' : `unknown llama subcommand ${JSON.stringify(sub)} (info, ground, move, check, regions, build)`);
    }
  },
};
