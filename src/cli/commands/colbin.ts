import { expectPositionals, numArg, parseArgs, UsageError, type OptionSpec } from '../args.js';
import type { Command } from '../command.js';
import { inFile, print, printJson, readInputFile } from '../io.js';
import { parseColbin } from '../../worlds/colbin/parse.js';
import { checkGrid } from '../../worlds/colbin/check.js';
import { describeColbin } from '../../worlds/colbin/describe.js';
import { ColbinWorld } from '../../worlds/colbin/collision-world.js';
import type { Body, Vec3 } from '../../worlds/world.js';

const usage = `usage:
  retrosim colbin info FILE [--list] [--json]
  retrosim colbin ground FILE X Y Z [--up -1|1] [--json]
  retrosim colbin move FILE X Y Z DX DY DZ [--radius R] [--height H] [--half HX,HY,HZ] [--step S] [--touch-separates] [--up -1|1] [--json]
  retrosim colbin segment FILE X0 Y0 Z0 X1 Y1 Z1 [--up -1|1] [--json]
  retrosim colbin check FILE [--json]

COLBIN collision files (psyqo Madnight engine), versions 1 and 2. Coordinates are native x128 units
(128 per engine metre); up is −Y unless --up 1 is given.
  info     header, counts, grid, bounds, which half extent is thinnest; --list adds every floor and wall as floats
  ground   the floor at or below the point and the nearest ceiling above it, with triangle indices
  move     moves a body (a box: --half, or --radius R and --height H, default 32 and 128) by the delta, pushed
           out of walls by the engine's fixed-point SAT, feet put on the floor (probing --step above, default 32);
           --touch-separates: a body exactly touching a wall is not pushed (the engine pushes it along another axis)
  segment  the first floor triangle or wall hit from the first point to the second
  check    lists walls that the file's own grid leaves out of cells they overlap (exit 1 when any)
--json prints one JSON object.`;

const up: OptionSpec = { type: 'int', min: -1, max: 1 };

function loadWorld(path: string, upOpt: unknown, touchSeparates = false): ColbinWorld {
  if (upOpt === 0) throw new UsageError('--up must be -1 or 1');
  const bytes = readInputFile(path);
  return inFile(path, () => new ColbinWorld(parseColbin(bytes), path, { upSign: upOpt === 1 ? 1 : -1, wallResponse: touchSeparates ? 'touch-separates' : 'engine' }));
}

function vec(args: string[], at: number, names: string[]): Vec3 {
  return [numArg(args[at]!, names[0]!), numArg(args[at + 1]!, names[1]!), numArg(args[at + 2]!, names[2]!)];
}

export const command: Command = {
  summary: 'inspect and query COLBIN collision files (info, ground, move, segment, check)',
  usage,
  run(argv) {
    const [which, ...rest] = argv;
    switch (which) {
      case 'info': {
        const { positionals, options } = parseArgs(rest, { json: { type: 'flag' }, list: { type: 'flag' } });
        const [path] = expectPositionals(positionals, ['FILE']);
        const bytes = readInputFile(path!);
        const file = inFile(path!, () => parseColbin(bytes));
        const world = new ColbinWorld(file, path!);
        const d = describeColbin(file, options.list ? Infinity : 0);
        const info = {
          file: path,
          bytes: bytes.length,
          version: d.version,
          floorCount: d.floorCount,
          wallCount: d.wallCount,
          grid: d.grid,
          bounds: world.bounds,
          up: world.up,
          scale: world.scale,
          thinAxisCounts: d.thinAxisCounts,
          ...(options.list ? { floors: d.floors, walls: d.walls } : {}),
        };
        if (options.json) printJson(info);
        else {
          print(`${path}: COLBIN version ${d.version}, ${bytes.length} bytes`);
          print(`  ${d.floorCount} floor triangles, ${d.wallCount} wall OBBs (thinnest half extent at index 0/1/2: ${d.thinAxisCounts.join('/')})`);
          if (d.grid) print(`  grid ${d.grid.width} × ${d.grid.height} cells of ${d.grid.cellSize} at (${d.grid.originX}, ${d.grid.originZ}), ${d.grid.references} wall references`);
          else print('  no grid (version 1)');
          print(`  bounds [${world.bounds.min.join(', ')}] .. [${world.bounds.max.join(', ')}] (x128 units, −Y up)`);
          if (options.list) {
            d.floors.forEach((f, i) => print(`  floor ${i}: ${f.vertices.map((v) => `(${v.join(', ')})`).join(' ')} n (${f.normal.join(', ')})`));
            d.walls.forEach((w, i) => print(`  wall ${i}: centre (${w.center.join(', ')}) half (${w.halfExtents.join(', ')}) axes ${w.axes.map((a) => `(${a.join(', ')})`).join(' ')}`));
          }
        }
        return 0;
      }
      case 'ground': {
        const { positionals, options } = parseArgs(rest, { json: { type: 'flag' }, up });
        const p = expectPositionals(positionals, ['FILE', 'X', 'Y', 'Z']);
        const world = loadWorld(p[0]!, options.up);
        const g = world.ground(vec(p, 1, ['X', 'Y', 'Z']));
        const out = {
          hasFloor: g.hasFloor,
          floor: g.hasFloor ? g.floor : null,
          floorId: g.id,
          ceiling: Number.isNaN(g.ceiling) ? null : g.ceiling,
          ceilingId: world.lastCeilingId(),
        };
        if (options.json) printJson(out);
        else print(`floor ${out.hasFloor ? `${out.floor} (triangle ${out.floorId})` : 'none'}, ceiling ${out.ceiling === null ? 'none' : `${out.ceiling} (triangle ${out.ceilingId})`}`);
        return 0;
      }
      case 'move': {
        const { positionals, options } = parseArgs(rest, {
          json: { type: 'flag' },
          up,
          radius: { type: 'number', min: 0, max: 2 ** 30 },
          height: { type: 'number', min: 0, max: 2 ** 30 },
          half: { type: 'string' },
          step: { type: 'number', min: 0, max: 2 ** 30 },
          'touch-separates': { type: 'flag' },
        });
        const p = expectPositionals(positionals, ['FILE', 'X', 'Y', 'Z', 'DX', 'DY', 'DZ']);
        const world = loadWorld(p[0]!, options.up, options['touch-separates'] === true);
        const body: Body = { radius: (options.radius as number | undefined) ?? 32, height: (options.height as number | undefined) ?? 128 };
        if (options.half !== undefined) {
          const parts = String(options.half).split(',');
          if (parts.length !== 3) throw new UsageError('--half needs three numbers HX,HY,HZ');
          body.halfExtents = [numArg(parts[0]!, '--half x'), numArg(parts[1]!, '--half y'), numArg(parts[2]!, '--half z')];
        }
        if (options.step !== undefined) body.stepHeight = options.step as number;
        const r = world.move(body, vec(p, 1, ['X', 'Y', 'Z']), vec(p, 4, ['DX', 'DY', 'DZ']));
        if (options.json) printJson(r);
        else {
          print(`position ${r.position.join(' ')}${r.grounded ? ' (grounded)' : ' (not grounded)'}`);
          for (const c of r.contacts) print(`  ${c.kind} ${c.id} normal (${c.normal.join(', ')})`);
        }
        return 0;
      }
      case 'segment': {
        const { positionals, options } = parseArgs(rest, { json: { type: 'flag' }, up });
        const p = expectPositionals(positionals, ['FILE', 'X0', 'Y0', 'Z0', 'X1', 'Y1', 'Z1']);
        const world = loadWorld(p[0]!, options.up);
        const s = world.segment(vec(p, 1, ['X0', 'Y0', 'Z0']), vec(p, 4, ['X1', 'Y1', 'Z1']));
        if (options.json) printJson(s);
        else print(s.hit ? `hit ${s.what} ${s.id} at fraction ${s.fraction}, point (${s.point.join(', ')}), normal (${s.normal.join(', ')})` : 'clear');
        return 0;
      }
      case 'check': {
        const { positionals, options } = parseArgs(rest, { json: { type: 'flag' } });
        const [path] = expectPositionals(positionals, ['FILE']);
        const file = inFile(path!, () => parseColbin(readInputFile(path!)));
        const c = checkGrid(file);
        const h = file.grid?.height ?? 1;
        const out = {
          file: path,
          hasGrid: c.hasGrid,
          ok: c.missing.length === 0,
          wallCount: file.wallCount,
          missingRefs: c.missingRefs,
          missing: c.missing.map((m) => ({ wall: m.wall, cells: m.cells.map((cell) => ({ cell, gx: Math.floor(cell / h), gz: cell % h })) })),
        };
        if (options.json) printJson(out);
        else if (!c.hasGrid) print(`${path}: version 1, no grid to check`);
        else if (out.ok) print(`${path}: every wall is listed in every grid cell it overlaps`);
        else {
          print(`${path}: ${out.missing.length} of ${file.wallCount} walls are missing from ${c.missingRefs} grid cells they overlap`);
          for (const m of out.missing) print(`  wall ${m.wall}: cells ${m.cells.map((x) => `(${x.gx}, ${x.gz})`).join(' ') || '(the grid has no cells)'}`);
        }
        return out.ok ? 0 : 1;
      }
      default:
        throw new UsageError(which === undefined ? 'colbin needs a subcommand: info, ground, move, segment or check' : `unknown colbin subcommand ${JSON.stringify(which)}`);
    }
  },
};
