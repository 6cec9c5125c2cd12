import { constants, openSync, writeSync, closeSync } from 'node:fs';
import { parseArgs, parseNumber, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { inFile, printJson, print, readInputFile } from '../io.js';
import { loadPineyTables } from '../../worlds/piney/tables.js';
import { defaultPineyTables } from '../../node/assets.js';
import { pineySite } from '../../systems/piney-ambient/site.js';
import { Scheduler } from '../../ecs/scheduler.js';
import { FieldRand } from '../../rng/fieldrand.js';
import { CcRand } from '../../rng/ccrand.js';
import { RandomStreams } from '../../rng/streams.js';
import { createEventBus } from '../../ecs/events.js';
import { eeFromNumber } from '../../numeric/ee-float.js';
import { installAmbient } from '../../systems/piney-ambient/install.js';
import { OP_KIND_NAMES } from '../../systems/piney-ambient/ops.js';
import type { V4 } from '../../systems/piney-ambient/ee-vec.js';

const usage = `usage:
  retrosim ambient --seed S --type T --row B [--hacked] [--server N] --frames N [--trace out.jsonl] [--json]
                   [--ground G] [--object O] [--cc-init C] [--entry-draws n,n,..] [--fires x,y,z;x,y,z..]
                   [--fire-nodes x,y,z;..]
                   [--sun x,y,z] [--parity-offset P] [--menu FROM,COUNT] [--tables FILE] [--event N] [--protect]

Generates the Piney field (seed S, field type T 0-10, background row B 0-9) with its weather and ambient
tasks on the frame scheduler and runs N frames (frame 1 is Play(0): the entry task's draws; frame 2 draws
nothing; frame 3 is the first WORLD::Draw).
  --hacked           the field is hacked (WORLD_MAN +0xf0 == 3)
  --server N         ccGame.server: 0-4 the five servers (default 0); others have no TOBJ gate
  --ground/--object  the layout's settings 0-2 (default 0)
  --event N, --protect  a story area (ccGame.field) and its protect flag, for the layout
  --tables FILE      the field generator's tables JSON (default assets/piney/field-tables.json, whose object
                     tables are synthetic: the layout's draw count then differs from the game's)
  --cc-init C        ccInitRand's count at the set-up step (default 0)
  --entry-draws      the entry task's fieldrand moduli on its first slice (game data; default none)
  --fires            type 7's fire places (game data; default none)
  --fire-nodes       or type 7's fire nodes relative to each animated object (animation data; default none)
  --sun              the lens flare's sun dummy, relative to the player (game data; default none)
  --parity-offset P  added to the frame clock the fires' parity reads (default 0)
  --menu FROM,COUNT  put the tasks to sleep from frame FROM for COUNT frames
  --trace FILE       one JSON line per frame: {"frame","fieldrand","ccrand","ops":[...]} (cumulative counts;
                     floats are u32 bit patterns; while asleep, the last list again)
--json prints the summary as one line: op counts by kind, fieldrand and ccRand states, the field's weather.
Limits: --frames at most 1,000,000.`;

const MAX_FRAMES = 1_000_000;

function parsePoint(raw: string, what: string): V4 {
  const parts = raw.split(',');
  if (parts.length !== 3) throw new UsageError(`${what} must be x,y,z, got ${JSON.stringify(raw)}`);
  const [x, y, z] = parts.map((p) => parseNumber(p, what, { type: 'number', min: -1e9, max: 1e9 }));
  return [eeFromNumber(x!), eeFromNumber(y!), eeFromNumber(z!), 0x3f800000];
}

function parseList(raw: string, what: string, max: number): number[] {
  if (raw.trim() === '') return [];
  const out = raw.split(',').map((p) => parseNumber(p, what, { type: 'int', min: 0, max: 0xffffffff }));
  if (out.length > max) throw new UsageError(`${what} has more than ${max} entries`);
  return out;
}

export const command: Command = {
  summary: "run a Piney field's weather and ambient tasks frame by frame (fieldrand/ccRand order, op lists)",
  usage,
  run(argv) {
    const { positionals, options } = parseArgs(argv, {
      seed: { type: 'int', min: 0, max: 0xffffffff },
      type: { type: 'int', min: 0, max: 10 },
      row: { type: 'int', min: 0, max: 9 },
      hacked: { type: 'flag' },
      server: { type: 'int', min: -1, max: 255 },
      frames: { type: 'int', min: 0, max: MAX_FRAMES },
      trace: { type: 'string' },
      json: { type: 'flag' },
      ground: { type: 'int', min: 0, max: 2 },
      object: { type: 'int', min: 0, max: 2 },
      'cc-init': { type: 'int', min: 0, max: 100_000_000 },
      'entry-draws': { type: 'string' },
      fires: { type: 'string' },
      'fire-nodes': { type: 'string' },
      sun: { type: 'string' },
      'parity-offset': { type: 'int', min: 0, max: 1 },
      menu: { type: 'string' },
      tables: { type: 'string' },
      event: { type: 'int', min: 0, max: 0xffff },
      protect: { type: 'flag' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    for (const need of ['seed', 'type', 'row', 'frames'] as const) {
      if (options[need] === undefined) throw new UsageError(`ambient needs --${need}`);
    }
    const seed = options.seed as number;
    const type = options.type as number;
    const row = options.row as number;
    const frames = options.frames as number;
    const hacked = options.hacked === true;
    const server = (options.server as number | undefined) ?? 0;
    const entryDraws = parseList((options['entry-draws'] as string | undefined) ?? '', '--entry-draws', 100_000);
    for (const n of entryDraws) if (n === 0) throw new UsageError('--entry-draws moduli must be at least 1');
    const firesRaw = (options.fires as string | undefined) ?? '';
    const fires = firesRaw.trim() === '' ? [] : firesRaw.split(';').map((p) => parsePoint(p, '--fires'));
    if (fires.length > 1600) throw new UsageError('--fires has more than 1600 places (one per chip)');
    const nodesRaw = (options['fire-nodes'] as string | undefined) ?? '';
    const fireNodes = nodesRaw.trim() === '' ? undefined : nodesRaw.split(';').map((p) => parsePoint(p, '--fire-nodes'));
    if (fireNodes && fireNodes.length > 16) throw new UsageError('--fire-nodes has more than 16 nodes');
    if (fireNodes && fires.length) throw new UsageError('give --fires or --fire-nodes, not both');
    const sun = options.sun === undefined ? null : parsePoint(options.sun as string, '--sun');
    let menu: [number, number] | null = null;
    if (options.menu !== undefined) {
      const m = parseList(options.menu as string, '--menu', 2);
      if (m.length !== 2) throw new UsageError('--menu must be FROM,COUNT');
      menu = [m[0]!, m[1]!];
    }

    const tables = options.tables === undefined ? defaultPineyTables() : inFile(options.tables as string, () => loadPineyTables(readInputFile(options.tables as string)));
    const rng = { fieldrand: new FieldRand(), ccrand: new CcRand(), streams: new RandomStreams(seed) };
    const scheduler = new Scheduler(rng, createEventBus());
    let inst;
    try {
      const ground = (options.ground as number | undefined) ?? 0;
      const object = (options.object as number | undefined) ?? 0;
      const event = (options.event as number | undefined) ?? 0;
      const site = pineySite({ seed, type, row, ground, object, event, protect: options.protect === true }, tables);
      inst = installAmbient(scheduler, {
        site,
        seed,
        type,
        row,
        hacked,
        server,
        ground,
        object,
        ccInit: (options['cc-init'] as number | undefined) ?? 0,
        entryDraws,
        ...(fires.length ? { fires } : {}),
        ...(fireNodes ? { fireNodes } : {}),
        sun,
        parityOffset: (options['parity-offset'] as number | undefined) ?? 0,
      });
    } catch (e) {
      if (e instanceof RangeError || (e instanceof Error && e.name === 'NoSiteError')) throw new UsageError(`cannot generate this field: ${e.message}`);
      throw e;
    }
    const rt = inst.runtime;

    const trace = options.trace as string | undefined;
    let fd = -1;
    if (trace !== undefined) {
      try {
        // A symlink planted at the trace's path is refused, not written through.
        fd = openSync(trace, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), 0o666);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new UsageError(`${trace}: ${code === 'ELOOP' ? 'is a symbolic link; refusing to write through it' : `cannot write (${code ?? 'error'})`}`);
      }
    }
    const counts: Record<string, number> = {};
    for (const n of OP_KIND_NAMES) if (n) counts[n] = 0;
    let asleepFrames = 0;
    let buffered: string[] = [];
    const flush = (): void => {
      if (fd >= 0 && buffered.length) writeSync(fd, buffered.join(''));
      buffered = [];
    };
    try {
      for (let i = 1; i <= frames; i++) {
        if (menu && i === menu[0]) rt.sleep();
        if (menu && i === menu[0] + menu[1]) rt.wake();
        scheduler.step();
        const out = rt.frameOutput(scheduler.frame);
        if (!out.fresh && i > 2) asleepFrames++;
        out.ops.counts(counts);
        if (fd >= 0) {
          buffered.push(
            JSON.stringify({ frame: scheduler.frame, fieldrand: rng.fieldrand.count, ccrand: rng.ccrand.draws, ops: out.ops.toArray() }) + '\n',
          );
          if (buffered.length >= 256) flush();
        }
      }
      flush();
    } finally {
      if (fd >= 0) closeSync(fd);
    }

    const w = inst.state.weather;
    const summary = {
      seed,
      type,
      row,
      hacked,
      server,
      weather: w.weather,
      time: w.time,
      lensFlare: w.lensFlare,
      frames,
      asleepFrames,
      afterInit: inst.afterInit,
      afterGenerate: inst.afterGenerate,
      counts,
      fieldrand: rng.fieldrand.save(),
      ccrand: { draws: rng.ccrand.draws },
      made: {
        snow: inst.state.snow?.count ?? 0,
        smoke2d: inst.state.smoke !== null,
        drops: inst.state.rain ? 50 : 0,
        thunder: inst.state.thunder !== null,
        fires: inst.state.fires.length,
        fireflies: inst.state.fireflies.length,
        roamers: inst.state.roamers.length,
        tobj: inst.state.tobj ? inst.state.tobj.server : null,
        bird: inst.state.bird !== null,
        haze: inst.state.haze,
      },
    };
    if (options.json) {
      printJson(summary);
    } else {
      print(`field seed ${seed} type ${type} row ${row}${hacked ? ' hacked' : ''} server ${server}: weather ${w.weather} time ${w.time}${w.lensFlare ? ' lens flare' : ''}`);
      print(`fieldrand after Init ${inst.afterInit}, after Generate ${inst.afterGenerate}`);
      print(`${frames} frames: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
      print(`fieldrand seed ${rng.fieldrand.seed} count ${rng.fieldrand.count}; ccRand draws ${rng.ccrand.draws}`);
    }
    return 0;
  },
};
