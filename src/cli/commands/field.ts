import { parseArgs, parseNumber, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { inFile, print, printJson, readInputFile, writeOutputFile } from '../io.js';
import { worldFilePath } from '../../node/open-world.js';
import { eeFromNumber, eeToNumber } from '../../numeric/ee-float.js';
import { FIELD_STAGES, type FieldParams, type FieldStage } from '../../worlds/piney/field-state.js';
import { generateField } from '../../worlds/piney/generate.js';
import { getHeight } from '../../worlds/piney/get-height.js';
import { loadPineyTables } from '../../worlds/piney/tables.js';
import { defaultPineyTables } from '../../node/assets.js';
import { parsePineyFieldSpec } from '../../worlds/piney/spec.js';
import { fieldSummary } from '../../worlds/piney/summary.js';
import { fieldPng } from '../../worlds/piney/png.js';

const STAGES = FIELD_STAGES.filter((s): s is Exclude<FieldStage, 'init'> => s !== 'init');

const usage = `usage:
  retrosim field --seed S --type T --weather W --ground G --object O [--event E] [--protect]
                 [--tables FILE] [--stop-after STEP] [--skip-init] [--sqrt sqrtf|sqrt.s]
                 [--height "X,Y[;X,Y...]"] [--objects] [--png OUT.png] [--json]
  retrosim field --spec FIELD.json [same options]     (FIELD.json may be the built-in world piney-default)

Generates a .hack (Piney) field from its seed, bit for bit as the game's WORLD::Init + WORLD::Generate,
and prints its state after STEP (${STAGES.join(', ')}; default start).
  --type 0-10, --weather 0-9 (background row), --ground 0-2, --object 0-2, --event story area (0 random)
  --protect       the story area's protect flag       --skip-init   skip WORLD::Init's draws
  --tables FILE   object tables JSON (default assets/piney/field-tables.json: public values + SYNTHETIC
                  object tables; drop in the real ones for the game's own objects, cover and start)
  --sqrt          ccGetDist's root: sqrtf (volumes 1-2, default) or sqrt.s (volumes 3-4)
  --height        GetHeight at these points (EE bits and value)
  --objects       list every object      --png OUT.png  write a top-down picture
--json prints {"stage","randcnt","seed","initDraws","hills":[[x,y,size],...],"mapFnv","entrance":[x,y]|null,
"dungeonPos","lake":[x,y]|null,"start":[x,y]|null,"startPos","objects":{"entrance","key","sub","base","tree",
"lake"},"objectCount","covers","tablesSynthetic"} plus "heights" and "objectList" when asked.`;

function hex(v: number): string {
  return '0x' + (v >>> 0).toString(16).padStart(8, '0');
}

export const command: Command = {
  summary: 'generate a .hack field (Piney) bit-exactly and print or draw it',
  usage,
  run(argv) {
    const { positionals, options } = parseArgs(argv, {
      seed: { type: 'int', min: 0, max: 0xffffffff },
      type: { type: 'int', min: 0, max: 10 },
      weather: { type: 'int', min: 0, max: 9 },
      ground: { type: 'int', min: 0, max: 2 },
      object: { type: 'int', min: 0, max: 2 },
      event: { type: 'int', min: 0, max: 0xffff },
      protect: { type: 'flag' },
      'skip-init': { type: 'flag' },
      spec: { type: 'string' },
      tables: { type: 'string' },
      'stop-after': { type: 'string' },
      sqrt: { type: 'string' },
      height: { type: 'string' },
      objects: { type: 'flag' },
      png: { type: 'string' },
      json: { type: 'flag' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    let params: FieldParams;
    if (options.spec !== undefined) {
      const spec = worldFilePath(options.spec as string);
      params = inFile(spec, () => parsePineyFieldSpec(readInputFile(spec)));
      for (const [k, p] of [['seed', 'seed'], ['type', 'fieldType'], ['weather', 'weather'], ['ground', 'ground'], ['object', 'object'], ['event', 'event']] as const) {
        if (options[k] !== undefined) (params as unknown as Record<string, number>)[p] = options[k] as number;
      }
      if (options.protect) params.protect = true;
    } else {
      for (const k of ['seed', 'type', 'weather', 'ground', 'object']) {
        if (options[k] === undefined) throw new UsageError(`field needs --${k} (or --spec FILE)`);
      }
      params = {
        seed: options.seed as number,
        fieldType: options.type as number,
        weather: options.weather as number,
        ground: options.ground as number,
        object: options.object as number,
        event: (options.event as number | undefined) ?? 0,
        protect: options.protect === true,
      };
    }
    if (options['skip-init']) params.skipInit = true;
    if (options.sqrt !== undefined) {
      if (options.sqrt !== 'sqrtf' && options.sqrt !== 'sqrt.s') throw new UsageError('--sqrt must be sqrtf or sqrt.s');
      params.distSqrt = options.sqrt;
    }
    const stop = (options['stop-after'] as string | undefined) ?? 'start';
    if (!(STAGES as readonly string[]).includes(stop)) throw new UsageError(`--stop-after must be one of ${STAGES.join(', ')}`);
    const points: [number, number][] = [];
    if (options.height !== undefined) {
      for (const part of (options.height as string).split(';')) {
        const xy = part.split(',');
        if (xy.length !== 2) throw new UsageError(`--height wants "X,Y[;X,Y...]", got ${JSON.stringify(part)}`);
        points.push([parseNumber(xy[0]!, '--height X'), parseNumber(xy[1]!, '--height Y')]);
      }
    }
    const tables = options.tables !== undefined ? inFile(options.tables as string, () => loadPineyTables(readInputFile(options.tables as string))) : defaultPineyTables();
    const f = generateField(params, tables, stop as FieldStage);
    const summary: Record<string, unknown> = { ...fieldSummary(f) };
    if (points.length) {
      summary.heights = points.map(([x, y]) => {
        const z = getHeight(f.map, f.check3, eeFromNumber(x), eeFromNumber(y));
        return { x, y, bits: hex(z), value: eeToNumber(z) };
      });
    }
    if (options.objects) {
      summary.objectList = f.objects.map((o) => ({
        kind: o.kind, index: o.index, clump: o.row.clump, x: o.x, y: o.y, w: o.w, h: o.h,
        pos: [eeToNumber(o.wx), eeToNumber(o.wy), eeToNumber(o.z)], z: hex(o.z), level: o.level,
      }));
    }
    if (options.png !== undefined) {
      writeOutputFile(options.png as string, fieldPng(f));
      summary.png = options.png;
    }
    if (options.json) {
      printJson(summary);
      return 0;
    }
    const s = fieldSummary(f);
    print(`field seed ${params.seed} type ${params.fieldType} weather ${params.weather} ground ${params.ground} object ${params.object} event ${params.event}${params.protect ? ' (protected)' : ''}`);
    print(`after ${s.stage}: randcnt ${s.randcnt}, seed ${s.seed} (Init drew ${s.initDraws})`);
    print(`map FNV-1a 64 ${s.mapFnv}`);
    print(`hills (x, y, size): ${s.hills.map((h) => `(${h.join(', ')})`).join(' ') || 'none'}`);
    print(`entrance ${s.entrance ? `chip (${s.entrance.join(', ')})` : 'none'}; lake ${s.lake ? `chip (${s.lake.join(', ')})` : 'none'}; start ${s.start ? `chip (${s.start.join(', ')})` : 'not yet'}`);
    print(`objects ${s.objectCount}: ${Object.entries(s.objects).map(([k, n]) => `${k} ${n}`).join(', ')}; covers ${s.covers}`);
    if (s.tablesSynthetic) print('note: the object tables are synthetic; objects, cover and start differ from the game\'s');
    for (const h of (summary.heights as { x: number; y: number; bits: string; value: number }[] | undefined) ?? []) {
      print(`GetHeight(${h.x}, ${h.y}) = ${h.value} (${h.bits})`);
    }
    if (options.png !== undefined) print(`wrote ${options.png as string}`);
    return 0;
  },
};
