/**
 * The fuzz targets: every parser of the project, each with its corpus (the project's synthetic files and,
 * for GTA, the real fixtures when they are present) and, for worlds, queries at hostile positions.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FuzzTarget } from './engine.js';
import { crc32 } from '../../src/binary/crc32.js';
import type { CollisionWorld, Vec3 } from '../../src/worlds/world.js';
import { defaultPineyTables } from '../../src/node/assets.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';

/** The repository root (this file is compiled to dist/scripts/fuzz/). */
const root = fileURLToPath(new URL('../../../', import.meta.url));

function read(rel: string): Uint8Array {
  const b = readFileSync(root + rel);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

function filesIn(rel: string, ext: string): Uint8Array[] {
  const dir = root + rel;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => read(`${rel}/${f}`));
}

/** Every query of the CollisionWorld contract at every hostile position, in both segment directions. */
function exerciseWorld(w: CollisionWorld, positions: readonly (readonly [number, number, number])[]): void {
  const body = { radius: w.scale * 0.3, height: w.scale * 1.7 };
  for (const p of positions) {
    const v = [p[0], p[1], p[2]] as Vec3;
    w.ground(v);
    const spawn = w.spawnPoint();
    w.segment(spawn, v);
    w.segment(v, spawn);
    w.segmentFraction(v[0], v[1], v[2], spawn[0], spawn[1], spawn[2]);
    w.move(body, v, [1, 1, 1]);
    w.move(body, spawn, v);
    w.sampleOpen(p[0], p[1]);
  }
}

export const TARGETS: Record<string, () => Promise<FuzzTarget>> = {
  'rugrats-col': async () => {
    const { loadRugratsWorld } = await import('../../src/worlds/rugrats/index.js');
    return {
      name: 'rugrats-col',
      corpus: () => filesIn('assets/worlds/rugrats', '.col'),
      parse: (b) => loadRugratsWorld(b, 'fuzz'),
      query: (w, ps) => exerciseWorld(w as CollisionWorld, ps),
    };
  },
  'llama-trak': async () => {
    const { parseTrak, loadLlamaWorld } = await import('../../src/worlds/llama/index.js');
    const { FormatError } = await import('../../src/binary/format-error.js');
    const mapBytes = read('assets/worlds/llama/demo.map');
    return {
      name: 'llama-trak',
      corpus: () => filesIn('assets/worlds/llama', '.trak'),
      // A TRAK that parses is also placed by the demo MAP when its models still fit it, so the queries run on
      // worlds built from mutated models too.
      parse: (b) => {
        const trak = parseTrak(b);
        try {
          return loadLlamaWorld(b, mapBytes, 'fuzz');
        } catch (e) {
          if (e instanceof FormatError) return trak;
          throw e;
        }
      },
      query: (w, ps) => {
        if (isWorld(w)) exerciseWorld(w, ps);
      },
    };
  },
  'llama-map': async () => {
    const { parseTrak, parseMap, loadLlamaWorld } = await import('../../src/worlds/llama/index.js');
    const trakBytes = read('assets/worlds/llama/demo.trak');
    const counts = parseTrak(trakBytes).models.map((m) => m.vertices.length / 6);
    return {
      name: 'llama-map',
      corpus: () => [read('assets/worlds/llama/demo.map')],
      parse: (b) => {
        parseMap(b, counts);
        return loadLlamaWorld(trakBytes, b, 'fuzz');
      },
      query: (w, ps) => exerciseWorld(w as CollisionWorld, ps),
    };
  },
  colbin: async () => {
    const { loadColbinWorld } = await import('../../src/worlds/colbin/index.js');
    return {
      name: 'colbin',
      corpus: () => filesIn('assets/worlds/colbin', '.colbin'),
      parse: (b) => loadColbinWorld(b, 'fuzz'),
      query: (w, ps) => exerciseWorld(w as CollisionWorld, ps),
    };
  },
  'gta-col': async () => {
    const { loadGtaWorld } = await import('../../src/worlds/gta/index.js');
    return {
      name: 'gta-col',
      // The project's synthetic files, plus the real fixtures when this checkout has them beside it.
      corpus: () => [...filesIn('assets/worlds/gta', '.col'), ...filesIn('../shared/fixtures/gta-col', '.col')],
      parse: (b) => loadGtaWorld(b, 'fuzz'),
      query: (w, ps) => exerciseWorld(w as CollisionWorld, ps),
    };
  },
  'piney-tables': async () => {
    const { loadPineyTables, loadPineyWorld } = await import('../../src/worlds/piney/index.js');
    const spec = read('assets/worlds/piney/default.field.json');
    return {
      name: 'piney-tables',
      corpus: () => filesIn('assets/piney', 'field-tables.json'),
      json: true,
      // Tables that validate generate the default field with them, one case in FIELD_SAMPLE (chosen by the
      // bytes' CRC, so a case is reproducible): a field takes ~10 ms, too slow for every case in CI.
      parse: (b) => {
        const tables = loadPineyTables(b);
        return crc32(b) % FIELD_SAMPLE === 0 ? loadPineyWorld(spec, 'fuzz', tables) : tables;
      },
      query: (w, ps) => {
        if (isWorld(w)) exerciseWorld(w, ps);
      },
      allocationBound: { perInputByte: 64, fixedBytes: 16 * 1024 * 1024 },
    };
  },
  'piney-spec': async () => {
    const { loadPineyWorld, parsePineyFieldSpec } = await import('../../src/worlds/piney/index.js');
    return {
      name: 'piney-spec',
      corpus: () => filesIn('assets/worlds/piney', '.field.json'),
      json: true,
      // Every spec is validated; one valid spec in SPEC_FIELD_SAMPLE (by CRC) also generates its field and
      // answers the queries (a field and its queries take ~10–300 ms; the JSON mutations make many specs valid).
      parse: (b) => {
        const params = parsePineyFieldSpec(b);
        return crc32(b) % SPEC_FIELD_SAMPLE === 0 ? loadPineyWorld(b, 'fuzz', defaultPineyTables()) : params;
      },
      query: (w, ps) => {
        if (isWorld(w)) exerciseWorld(w, ps);
      },
      // The field's own arrays, whatever the spec: the input is a few hundred bytes.
      allocationBound: { perInputByte: 64, fixedBytes: 16 * 1024 * 1024 },
    };
  },
  'gta-placements': async () => {
    const { loadGtaWorld, parseGtaPlacements } = await import('../../src/worlds/gta/collision-world.js');
    const col = read('assets/worlds/gta/town.col');
    return {
      name: 'gta-placements',
      corpus: () => filesIn('assets/worlds/gta', '.placements.json'),
      json: true,
      parse: (b) => loadGtaWorld(col, 'fuzz', parseGtaPlacements(new TextDecoder().decode(b))),
      query: (w, ps) => exerciseWorld(w as CollisionWorld, ps),
    };
  },
  // Every format at once: each mutated file that parses is written back and parsed again (scripts/fuzz/roundtrip.ts).
  'world-roundtrip': async () => {
    const { roundTrip } = await import('./roundtrip.js');
    const llamaWads = ['demo', 'minimal', 'broken'].map((n) => {
      const t = read(`assets/worlds/llama/${n}.trak`);
      const m = read(`assets/worlds/llama/${n}.map`);
      const both = new Uint8Array(t.length + m.length);
      both.set(t);
      both.set(m, t.length);
      return both;
    });
    return {
      name: 'world-roundtrip',
      corpus: () => [
        ...filesIn('assets/worlds/rugrats', '.col'),
        ...filesIn('assets/worlds/colbin', '.colbin'),
        ...filesIn('assets/worlds/gta', '.col'),
        ...filesIn('../shared/fixtures/gta-col', '.col'),
        ...filesIn('assets/worlds/llama', '.trak'),
        ...llamaWads,
        ...filesIn('assets/worlds/piney', '.field.json'),
      ],
      json: true,
      parse: (b) => roundTrip(b),
    };
  },
  replay: async () => {
    const { readReplay } = await import('../../src/replay/format.js');
    const corpus = await recordReplays();
    return { name: 'replay', corpus: () => corpus, parse: (b) => readReplay(b) };
  },
  // The same replays with every chunk's CRC made right again after mutating, so the mutations reach the
  // payload checks behind the CRC.
  'replay-payload': async () => {
    const { readReplay } = await import('../../src/replay/format.js');
    const corpus = await recordReplays();
    return { name: 'replay-payload', corpus: () => corpus, parse: (b) => readReplay(fixReplayCrcs(b)) };
  },
  'replay-seek': replaySeekTarget,
};

/**
 * What `retrosim replay verify|seek` does with a replay after reading it: check the settings, open the world it
 * names (the built-in worlds; the recorded content hash must match), build the simulation, restore every
 * keyframe (decode, shape checks, hash check) and step a few recorded frames after the last one.
 */
async function replaySeekTarget(): Promise<FuzzTarget> {
  const { readReplay } = await import('../../src/replay/format.js');
  const { checkReplaySettings, replaySimulation } = await import('../../src/replay/rebuild.js');
  const { restoreKeyframe } = await import('../../src/replay/seek.js');
  const { openBuiltinWorld } = await import('../../src/node/open-world.js');
  const { BUTTON_MASK } = await import('../../src/systems/input.js');
  const { FormatError } = await import('../../src/binary/format-error.js');
  const corpus = await recordReplays();
  const readAbs = (p: string) => new Uint8Array(readFileSync(p));
  const worlds = new Map<string, Awaited<ReturnType<typeof openBuiltinWorld>>>();
  for (const id of ['rugrats-demo', 'piney-default']) worlds.set(`builtin:${id}`, await openBuiltinWorld(id, readAbs));
  return {
    name: 'replay-seek',
    corpus: () => corpus,
    parse: (b) => {
      const rp = readReplay(fixReplayCrcs(b), BUTTON_MASK);
      const settings = checkReplaySettings(rp.header);
      const opened = worlds.get(rp.header.world.source);
      if (!opened) throw new FormatError('replay chunk HEAD #0 (header)', -1, `world ${rp.header.world.source} is not one of the fuzzed built-in worlds`);
      // A header may ask for up to limits.agents agents and 2^20 entities: legitimate, but not a few
      // milliseconds of work and memory, which is what a CI case may take.
      if (settings.agents > REPLAY_SEEK_MAX_AGENTS || settings.capacity > REPLAY_SEEK_MAX_CAPACITY) return rp;
      const sim = replaySimulation(rp.header, { world: opened });
      for (const k of rp.keyframes) restoreKeyframe(sim, k);
      for (let f = sim.frame; f < Math.min(rp.frames.count, sim.frame + 5); f++) sim.step(rp.frames.inputs[f]!);
      return rp;
    },
    allocationBound: { perInputByte: 64, fixedBytes: 16 * 1024 * 1024 },
  };
}

/** Agents and entity capacity above which the replay-seek target stops after the header checks (see there). */
const REPLAY_SEEK_MAX_AGENTS = 64;
const REPLAY_SEEK_MAX_CAPACITY = 4096;

/** The Piney tables target generates a field for one case in this many; the spec target, SPEC_FIELD_SAMPLE. */
const FIELD_SAMPLE = 8;
const SPEC_FIELD_SAMPLE = 4;

function isWorld(v: unknown): v is CollisionWorld {
  return typeof v === 'object' && v !== null && typeof (v as CollisionWorld).segmentFraction === 'function';
}

/** A copy of a replay file with each chunk's CRC-32 recomputed, as far as the chunk walk holds. */
function fixReplayCrcs(bytes: Uint8Array): Uint8Array {
  const b = bytes.slice();
  const v = new DataView(b.buffer);
  let at = 12; // magic, version, reserved
  while (at + 8 <= b.length) {
    const length = v.getUint32(at + 4, true);
    const end = at + 8 + length;
    if (end + 4 > b.length) break;
    v.setUint32(end, crc32(b, at, end), true);
    at = end + 4;
  }
  return b;
}

/**
 * Replays to mutate, recorded here rather than shipped: short runs on the Rugrats demo and on the default
 * Piney field (whose snapshots carry the weather tasks), with keyframes every 20 frames so that every chunk
 * kind appears several times.
 */
async function recordReplays(): Promise<Uint8Array[]> {
  const { Simulation } = await import('../../src/sim/simulation.js');
  const { ReplayRecorder } = await import('../../src/replay/recorder.js');
  const { BUILTIN_WORLDS } = await import('../../src/worlds/builtin.js');
  const { defaultSettingsFor } = await import('../../src/scenarios/builtin.js');
  const { worldIdentity } = await import('../../src/replay/world-identity.js');
  const { demoButtons } = await import('../../src/sim/demo-input.js');
  const { loadWorld } = await import('../../src/node/world-files.js');
  const out: Uint8Array[] = [];
  for (const [id, frames, agents] of [
    ['rugrats-demo', 70, 6],
    ['piney-default', 45, 3],
  ] as const) {
    const rel = BUILTIN_WORLDS[id]!;
    const bytes = read(rel);
    const world = await loadWorld(bytes, { name: rel.split('/').pop()! });
    const sim = simulationFromSettings(world, defaultSettingsFor(world, { agents, capacity: 64 }));
    const rec = new ReplayRecorder(sim, worldIdentity(world, bytes, `builtin:${id}`), 20);
    for (let f = 0; f < frames; f++) rec.step(demoButtons(f));
    out.push(rec.finish());
  }
  return out;
}

export async function loadTarget(name: string): Promise<FuzzTarget> {
  const make = TARGETS[name];
  if (!make) throw new Error(`unknown fuzz target ${JSON.stringify(name)} (known: ${Object.keys(TARGETS).join(', ')})`);
  return make();
}
