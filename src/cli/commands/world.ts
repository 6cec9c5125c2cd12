/**
 * `retrosim world`: any world file, through loadWorld (the format is found by content), in its native units.
 */
import { expectPositionals, numArg, parseArgs, UsageError, type OptionSpec } from '../args.js';
import type { ParsedArgs } from '../args.js';
import type { Command } from '../command.js';
import { print, printJson } from '../io.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadWorldBytes, type LoadWorldOptions } from '../../worlds/load.js';
import { builtinWorld, builtinWorldId, variantFileName, variantSpecBytes } from '../../worlds/builtin.js';
import { defaultPineyTables, packageRoot } from '../../node/assets.js';
import { loadWorldFile, type OpenedWorldFile } from '../../node/world-files.js';
import { worldFilePath } from '../../node/open-world.js';
import { newGroundResult, newMoveResult, newSegmentResult, type Body, type Vec3 } from '../../worlds/world.js';
import { readInputFile } from '../io.js';
import { runWorldWrite } from '../world/write.js';
import { runWorldExport } from '../world/export.js';
import { runWorldPng } from '../world/png.js';
import { cellMap, cellMapText, CELL_LEGEND } from '../../render/scene/cell-map.js';

const usage = `usage:
  retrosim world info FILE [--map FILE | --trak FILE] [--json]
  retrosim world ground FILE x y z [--json]
  retrosim world segment FILE x0 y0 z0 x1 y1 z1 [--json]
  retrosim world move FILE x y z dx dy dz [--radius R] [--height H] [--step S] [--steps N] [--json]
  retrosim world write FILE --out OUT [--keep-layout] [--trak FILE] [--json]
  retrosim world export FILE --out OUT.glb|OUT.gltf|OUT.obj [--max-triangles N] [--map FILE | --trak FILE] [--json]
  retrosim world png FILE --out OUT.png [--size N] [--agents N [--frames F]] [--json]
  retrosim world map FILE [--cells N] [--json]

FILE is a built-in world's id (piney-default, rugrats-demo, llama-demo, gta-town, ...: see docs/worlds.md; a
file of that name in the current folder wins) or any world file: a Piney field spec (.json), COLBIN, GTA COL, a Llama TRAK or MAP, a Rugrats COL. The format is
recognised by the file's content, not its name. A Llama world's partner file (TRAK <-> MAP) is found beside it
by the same stem unless --map/--trak names it; a GTA COL takes <stem>.placements.json beside it when present.
Numbers are in the world's native units and axes (see "info": up, scale, integer).
  info     kind, name, bounds, up axis, scale, whether integer, the spawn point and the files read
  ground   the floor and ceiling at the point (floor at or below it along up), material and id
  segment  the first hit from (x0 y0 z0) to (x1 y1 z1): fraction, point, normal, what was hit
  move     a body (feet at x y z) moved by (dx dy dz), N times, by the world's own rules; the body defaults
           to 0.3 m radius, 1 m high, 0.3 m step, in native units (--radius/--height/--step override)
  write    parse the file and write it with its format's writer: the canonical layout, or with --keep-layout
           the original one (section order, padding, gaps, extra chunks, JSON spacing), byte-identical for an
           unchanged world; the ways the canonical layout differs from the input are listed either way (a
           Llama MAP is read with its TRAK: --trak, or the sibling with the same stem)
  export   the collision geometry as triangles for Blender: glTF (.glb, or .gltf with the buffer inside) or
           OBJ (+ OUT.mtl); metres, +Y up, one part per kind (floors, ceilings, walls, spheres, boxes, mesh,
           shadow hidden, terrain, objects), named materials, and the id world ground reports as _FLOOR_ID;
           counted first: a world that would export more than --max-triangles (default 1048576) is refused
  png      a top-down picture: heights shaded, edges between surfaces and the format's walls, boxes and
           objects drawn, materials tinted as in the sandbox, a scale bar and a legend; --size pixels along
           the longer side (default 512); --agents N runs the world's default scenario with N agents for
           --frames F frames (default 0) and draws them with their sight
  map      which cell holds what, as text: the ground probed from above at the middle of each cell of a grid
           over the world (--cells N along its first horizontal axis; a Llama level: one cell per tile), each
           cell a height digit, X a death floor, E an exit floor, blank no ground, S the spawn point
--json prints one line of JSON (non-finite numbers as null):
  info:    {"kind","name","bounds":{"min","max"},"up":{"axis","sign"},"scale","integer","spawn","files"}
  ground:  {"hasFloor","floor","ceiling","material","id","status"}
  segment: {"hit","fraction","point","normal","id","material","what","status"}
  move:    {"position","grounded","steps","contacts":[{"step","kind","normal","id","material"}]}
  write:   {"kind","file","out","bytes","identical","keepLayout","differences":[{"offset","reason"}]}
  export:  {"kind","file","files","format","triangles","parts":[{"group","name","hidden","triangles"}],"materials",
           "bounds":{"min","max"},"floorId"}
  png:     {"kind","file","out","width","height","bytes","agents","frames","scaleBarMetres","legend"}
  map:     {"kind","axes","origin","cell","columns","rows","heights","spawn","lines","legend"}`;

const SPEC: Record<string, OptionSpec> = {
  json: { type: 'flag' },
  map: { type: 'string' },
  trak: { type: 'string' },
  radius: { type: 'number', min: 0 },
  height: { type: 'number', min: 0 },
  step: { type: 'number', min: 0 },
  steps: { type: 'int', min: 1, max: 1_000_000 },
  out: { type: 'string' },
  size: { type: 'int', min: 64, max: 2048 },
  agents: { type: 'int', min: 0, max: 100_000 },
  frames: { type: 'int', min: 0, max: 100_000 },
  'keep-layout': { type: 'flag' },
  cells: { type: 'int', min: 1, max: 256 },
  'max-triangles': { type: 'int', min: 1, max: Number.MAX_SAFE_INTEGER },
};

/** JSON has no NaN or Infinity: those become null. */
function finite(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}
const vec = (v: ArrayLike<number>) => [finite(v[0]!), finite(v[1]!), finite(v[2]!)];

/** The file a world named on the command line stands for (a built-in id's file in the package). */
function fileOf(given: string, o: ParsedArgs['options']): string {
  return worldFilePath(given, typeof o['map'] === 'string' ? o['map'] : undefined);
}

/** Opens the world named on the command line: a built-in id (see `builtinWorldId`) or a file, with its partners. */
export function openWorld(given: string, o: ParsedArgs["options"]): OpenedWorldFile {
  const id = builtinWorldId(given, existsSync, typeof o['map'] === 'string' ? o['map'] : undefined);
  const variant = id !== undefined ? builtinWorld(id) : undefined;
  if (variant?.variant) {
    // A variant of the Piney field: its spec made from the shipped one, as everywhere the id is named.
    const bytes = variantSpecBytes(readInputFile(resolve(packageRoot(), variant.file)), variant);
    const options: LoadWorldOptions = { pineyTables: defaultPineyTables() };
    return { world: loadWorldBytes(bytes, variantFileName(variant), options), bytes, partners: [], options };
  }
  const path = fileOf(given, o);
  const options: LoadWorldOptions = {};
  if (typeof o['map'] === 'string') options.map = readInputFile(o['map']);
  if (typeof o['trak'] === 'string') options.trak = readInputFile(o['trak']);
  readInputFile(path); // a missing or huge file is a usage error, as in every command
  return loadWorldFile(path, options);
}

function nums(p: string[], from: number, names: string[]): number[] {
  return names.map((n, i) => numArg(p[from + i]!, n));
}

export const command: Command = {
  summary: 'any world file (format by content): info, ground, segment, move; write it back, export it, draw it',
  usage,
  run(argv) {
    const { positionals: p, options: o } = parseArgs(argv, SPEC);
    const sub = p[0];
    const json = o['json'] === true;
    if (o['max-triangles'] !== undefined && sub !== 'export') throw new UsageError('--max-triangles is an option of world export');
    if (sub === 'info') {
      expectPositionals(p, ['info', 'FILE']);
      const f = openWorld(p[1]!, o);
      const w = f.world;
      const out = {
        kind: w.kind,
        name: w.name,
        bounds: { min: vec(w.bounds.min), max: vec(w.bounds.max) },
        up: { axis: w.up.axis, sign: w.up.sign },
        scale: w.scale,
        integer: w.integer,
        spawn: vec(w.spawnPoint()),
        files: [fileOf(p[1]!, o), ...f.partners],
      };
      if (json) printJson(out);
      else {
        print(`${out.kind} world ${out.name}: bounds ${JSON.stringify(out.bounds.min)}..${JSON.stringify(out.bounds.max)}, up axis ${out.up.axis} sign ${out.up.sign}`);
        print(`scale ${out.scale} units/m, ${out.integer ? 'integer' : 'float'} coordinates, spawn ${JSON.stringify(out.spawn)}`);
        print(`files: ${out.files.join(', ')}`);
      }
      return 0;
    }
    if (sub === 'ground') {
      expectPositionals(p, ['ground', 'FILE', 'x', 'y', 'z']);
      const w = openWorld(p[1]!, o).world;
      const [x, y, z] = nums(p, 2, ['x', 'y', 'z']);
      const g = w.ground([x!, y!, z!], newGroundResult());
      const out = { hasFloor: g.hasFloor, floor: finite(g.floor), ceiling: finite(g.ceiling), material: g.material, id: g.id, status: g.status };
      if (json) printJson(out);
      else print(`${out.hasFloor ? `floor ${out.floor}` : 'no floor'}, ceiling ${out.ceiling ?? 'none'}, material ${out.material}, id ${out.id}, status ${out.status}`);
      return 0;
    }
    if (sub === 'segment') {
      expectPositionals(p, ['segment', 'FILE', 'x0', 'y0', 'z0', 'x1', 'y1', 'z1']);
      const w = openWorld(p[1]!, o).world;
      const [x0, y0, z0, x1, y1, z1] = nums(p, 2, ['x0', 'y0', 'z0', 'x1', 'y1', 'z1']);
      const r = w.segment([x0!, y0!, z0!], [x1!, y1!, z1!], newSegmentResult());
      const out = { hit: r.hit, fraction: finite(r.fraction), point: vec(r.point), normal: vec(r.normal), id: r.id, material: r.material, what: r.what, status: r.status };
      if (json) printJson(out);
      else print(r.hit ? `hit ${out.what || 'something'} ${out.id} at fraction ${out.fraction}, point ${JSON.stringify(out.point)}, normal ${JSON.stringify(out.normal)}` : 'clear');
      return 0;
    }
    if (sub === 'move') {
      expectPositionals(p, ['move', 'FILE', 'x', 'y', 'z', 'dx', 'dy', 'dz']);
      const w = openWorld(p[1]!, o).world;
      const [x, y, z, dx, dy, dz] = nums(p, 2, ['x', 'y', 'z', 'dx', 'dy', 'dz']);
      const s = w.scale > 0 && Number.isFinite(w.scale) ? w.scale : 1;
      const size = (v: number) => (w.integer ? Math.max(1, Math.round(v * s)) : v * s);
      const body: Body = {
        radius: (o['radius'] as number | undefined) ?? size(0.3),
        height: (o['height'] as number | undefined) ?? size(1),
        stepHeight: (o['step'] as number | undefined) ?? size(0.3),
      };
      const steps = (o['steps'] as number | undefined) ?? 1;
      const pos: Vec3 = [x!, y!, z!];
      const delta: Vec3 = [dx!, dy!, dz!];
      const r = newMoveResult();
      const contacts: { step: number; kind: string; normal: (number | null)[]; id: number; material: number }[] = [];
      for (let i = 0; i < steps; i++) {
        r.contacts.length = 0;
        w.move(body, pos, delta, r);
        pos[0] = r.position[0];
        pos[1] = r.position[1];
        pos[2] = r.position[2];
        for (const c of r.contacts) if (contacts.length < 10_000) contacts.push({ step: i + 1, kind: c.kind, normal: vec(c.normal), id: c.id, material: c.material });
      }
      const out = { position: vec(pos), grounded: r.grounded, steps, contacts };
      if (json) printJson(out);
      else {
        print(`position ${JSON.stringify(out.position)}, ${out.grounded ? 'standing' : 'not standing'} after ${steps} step(s)`);
        for (const c of contacts) print(`  step ${c.step}: ${c.kind} ${c.id} normal ${JSON.stringify(c.normal)}`);
      }
      return 0;
    }
    if (sub === 'map') {
      expectPositionals(p, ['map', 'FILE']);
      const f = openWorld(p[1]!, o);
      const m = cellMap(f.world, o['cells'] as number | undefined);
      if (json) printJson({ kind: f.world.kind, axes: m.axes, origin: m.origin, cell: m.cell, columns: m.columns, rows: m.rows, heights: m.heights.map(finite), spawn: m.spawn, lines: m.lines, legend: CELL_LEGEND });
      else print(cellMapText(m, p[1]!));
      return 0;
    }
    if (sub === 'png') {
      expectPositionals(p, ['png', 'FILE']);
      return runWorldPng(fileOf(p[1]!, o), openWorld(p[1]!, o), o);
    }
    if (sub === 'export') {
      expectPositionals(p, ['export', 'FILE']);
      return runWorldExport(fileOf(p[1]!, o), openWorld(p[1]!, o), o);
    }
    if (sub === 'write') {
      expectPositionals(p, ['write', 'FILE']);
      return runWorldWrite(fileOf(p[1]!, o), o);
    }
    throw new UsageError(sub === undefined ? 'world needs a subcommand: info, ground, segment, move, write, export, png or map' : `unknown world subcommand ${JSON.stringify(sub)}`);
  },
};
