/**
 * The fuzz targets: every parser of the project, each with its corpus (the project's synthetic files and,
 * for GTA, the real fixtures when they are present) and, for worlds, queries at hostile positions.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FuzzTarget } from './engine.js';
import { crc32 } from '../../src/worlds/binary/crc32.js';
import type { CollisionWorld, Vec3 } from '../../src/worlds/world.js';

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
    const { parseTrak } = await import('../../src/worlds/llama/index.js');
    return { name: 'llama-trak', corpus: () => filesIn('assets/worlds/llama', '.trak'), parse: (b) => parseTrak(b) };
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
    const { loadPineyTables } = await import('../../src/worlds/piney/index.js');
    return { name: 'piney-tables', corpus: () => filesIn('assets/piney', 'field-tables.json'), parse: (b) => loadPineyTables(b) };
  },
  'piney-spec': async () => {
    const { loadPineyWorld } = await import('../../src/worlds/piney/index.js');
    return {
      name: 'piney-spec',
      corpus: () => filesIn('assets/worlds/piney', '.field.json'),
      parse: (b) => loadPineyWorld(b, 'fuzz'),
      query: (w, ps) => exerciseWorld(w as CollisionWorld, ps),
    };
  },
  replay: async () => {
    const { readReplay } = await import('../../src/ecs/replay/format.js');
    const corpus = await recordReplays();
    return { name: 'replay', corpus: () => corpus, parse: (b) => readReplay(b) };
  },
  // The same replays with every chunk's CRC made right again after mutating, so the mutations reach the
  // payload checks behind the CRC.
  'replay-payload': async () => {
    const { readReplay } = await import('../../src/ecs/replay/format.js');
    const corpus = await recordReplays();
    return { name: 'replay-payload', corpus: () => corpus, parse: (b) => readReplay(fixReplayCrcs(b)) };
  },
};

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
  const { ReplayRecorder } = await import('../../src/sim/replay.js');
  const { defaultSettingsFor, worldIdentity } = await import('../../src/sim/default-scenario.js');
  const { demoButtons } = await import('../../src/sim/demo-input.js');
  const { loadWorld } = await import('../../src/worlds/load-world.js');
  const out: Uint8Array[] = [];
  for (const [rel, frames, agents] of [
    ['assets/worlds/rugrats/demo.col', 70, 6],
    ['assets/worlds/piney/default.field.json', 45, 3],
  ] as const) {
    const bytes = read(rel);
    const world = await loadWorld(bytes, rel);
    const sim = new Simulation(world, defaultSettingsFor(world, { agents, capacity: 64 }));
    const rec = new ReplayRecorder(sim, worldIdentity(world, bytes, rel), 20);
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
