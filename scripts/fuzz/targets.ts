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
import { fixReplayCrcs } from './replay-structure.js';

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
  'nav-graph': async () => {
    const { loadRugratsWorld } = await import('../../src/worlds/rugrats/index.js');
    const { loadLlamaWorld } = await import('../../src/worlds/llama/index.js');
    const { buildNavGraph } = await import('../../src/nav/graph.js');
    const { defaultNavBody } = await import('../../src/nav/walk.js');
    const { parseNavGraph, writeNavGraph } = await import('../../src/nav/graph-file.js');
    const { findPath, PathSearch } = await import('../../src/nav/path.js');
    return {
      name: 'nav-graph',
      // The graphs of two shipped worlds, built here (a fraction of a second each).
      corpus: () => {
        const rug = loadRugratsWorld(read('assets/worlds/rugrats/hand.col'), 'hand.col');
        const llama = loadLlamaWorld(read('assets/worlds/llama/demo.trak'), read('assets/worlds/llama/demo.map'), 'demo');
        return [writeNavGraph(buildNavGraph(rug, defaultNavBody(rug))), writeNavGraph(buildNavGraph(llama, defaultNavBody(llama)))];
      },
      parse: (b) => parseNavGraph(b),
      // Paths between hostile positions and the graph's own nodes: an answer or null, never a throw.
      query: (parsed, ps) => {
        const g = parsed as ReturnType<typeof parseNavGraph>;
        const search = new PathSearch(g);
        const nodes: [number, number, number][] = [];
        for (let k = 0; k < g.nodeCount; k += Math.max(1, Math.floor(g.nodeCount / 8))) nodes.push([g.pos[3 * k]!, g.pos[3 * k + 1]!, g.pos[3 * k + 2]!]);
        const finite = ps.filter((p) => p.every((v) => Number.isFinite(v))).map((p) => [p[0], p[1], p[2]] as [number, number, number]);
        for (const a of [...nodes, ...finite]) for (const b of nodes) findPath(g, a, b, search);
      },
      // A structure-aware half: bytes changed before the CRC, and the CRC made right again, so the checks
      // behind it are reached.
      mutateStructure: (base, rng) => {
        if (base.length < 8) return null;
        const out = base.slice();
        const n = 1 + rng.int(4);
        for (let k = 0; k < n; k++) out[rng.int(out.length - 4)] = rng.int(256);
        new DataView(out.buffer).setUint32(out.length - 4, crc32(out, 0, out.length - 4), true);
        return { bytes: out, kind: 'structure-bytes-crc' };
      },
      structuredQuarters: 2,
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
    const corpus = (await recordReplays(LONG_REPLAYS)).map((r) => r.bytes);
    return { name: 'replay', corpus: () => corpus, parse: (b) => readReplay(b) };
  },
  // The same replays with every chunk's CRC made right again after mutating, so the mutations reach the
  // payload checks behind the CRC.
  'replay-payload': async () => {
    const { readReplay } = await import('../../src/replay/format.js');
    const corpus = (await recordReplays(LONG_REPLAYS)).map((r) => r.bytes);
    return { name: 'replay-payload', corpus: () => corpus, parse: (b) => readReplay(fixReplayCrcs(b)) };
  },
  'replay-seek': replaySeekTarget,
  'snapshot-restore': snapshotRestoreTarget,
  'seek-after-tamper': () => tamperTarget('seek-after-tamper'),
  'verify-after-tamper': () => tamperTarget('verify-after-tamper'),
};

/**
 * The limits re-simulations run under in the fuzzer: a header may ask for up to limits.replay.agents agents
 * and a large capacity, which is legitimate but not the few milliseconds a case may take; these make such a
 * header a FormatError naming the limit, which is what the limits are for.
 */
async function fuzzLimits() {
  const { resolveLimits } = await import('../../src/limits.js');
  return resolveLimits({ replay: { agents: 64, capacity: 4096, ccRandInit: 100_000, agentFrames: 65 * 400 } });
}

/** The built-in worlds the corpus replays ran on, opened once, by source. */
async function corpusWorlds() {
  const { openBuiltinWorld } = await import('../../src/node/open-world.js');
  const readAbs = (p: string) => new Uint8Array(readFileSync(p));
  const worlds = new Map<string, Awaited<ReturnType<typeof openBuiltinWorld>>>();
  for (const id of ['rugrats-demo', 'piney-default']) worlds.set(`builtin:${id}`, await openBuiltinWorld(id, readAbs));
  return worlds;
}

/**
 * What `retrosim replay verify|seek` does with a replay after reading it: check the settings against the
 * limits, open the world it names (the built-in worlds; the recorded content hash must match), build the
 * simulation, restore every keyframe (decode, checks, hash check) and step a few recorded frames after the
 * last one.
 */
async function replaySeekTarget(): Promise<FuzzTarget> {
  const { readReplay } = await import('../../src/replay/format.js');
  const { checkReplaySettings, replaySimulation } = await import('../../src/replay/rebuild.js');
  const { restoreKeyframe } = await import('../../src/replay/seek.js');
  const { BUTTON_MASK } = await import('../../src/systems/input.js');
  const { FormatError } = await import('../../src/binary/format-error.js');
  const corpus = (await recordReplays(LONG_REPLAYS)).map((r) => r.bytes);
  const worlds = await corpusWorlds();
  const limits = await fuzzLimits();
  return {
    name: 'replay-seek',
    corpus: () => corpus,
    parse: (b) => {
      const rp = readReplay(fixReplayCrcs(b), BUTTON_MASK, limits);
      checkReplaySettings(rp.header, limits);
      const opened = worlds.get(rp.header.world.source);
      if (!opened) throw new FormatError('replay chunk HEAD #0 (header)', -1, `world ${rp.header.world.source} is not one of the fuzzed built-in worlds`);
      const sim = replaySimulation(rp.header, { world: opened, limits });
      for (const k of rp.keyframes) restoreKeyframe(sim, k, { limits });
      for (let f = sim.frame; f < Math.min(rp.frames.count, sim.frame + 5); f++) sim.step(rp.frames.inputs[f]!);
      return rp;
    },
    allocationBound: { perInputByte: 64, fixedBytes: 16 * 1024 * 1024 },
  };
}

/**
 * Simulations for the tamper targets, one per (world, settings, scenario), kept between cases: building a
 * Piney field takes ~20 ms, restoring its frame-0 state well under one. `fresh` gives one at frame 0.
 */
async function simulationCache() {
  const { replaySimulation } = await import('../../src/replay/rebuild.js');
  const worlds = await corpusWorlds();
  const limits = await fuzzLimits();
  const { FormatError } = await import('../../src/binary/format-error.js');
  type Sim = ReturnType<typeof replaySimulation>;
  const cache = new Map<string, { sim: Sim; start: ReturnType<Sim['save']> }>();
  return {
    limits,
    fresh(header: import('../../src/replay/format.js').ReplayHeader): Sim {
      const opened = worlds.get(header.world.source);
      if (!opened) throw new FormatError('replay chunk HEAD #0 (header)', -1, `world ${header.world.source} is not one of the fuzzed built-in worlds`);
      const key = JSON.stringify([header.world, header.scenario, header.settings]);
      let e = cache.get(key);
      if (!e) {
        const sim = replaySimulation(header, { world: opened, limits });
        e = { sim, start: sim.save() };
        if (cache.size >= 6) cache.delete(cache.keys().next().value!);
        cache.set(key, e);
      } else e.sim.restore(e.start);
      return e.sim;
    },
  };
}

/** Short replays for the targets that re-simulate every case (a case must take a few milliseconds). */
const SHORT_REPLAYS: ReplaySpec[] = [
  { world: 'rugrats-demo', frames: 16, agents: 3, interval: 6, capacity: 8 },
  { world: 'piney-default', frames: 12, agents: 2, interval: 6, capacity: 8 },
];
/** The replays the reader targets mutate: every chunk kind several times. */
const LONG_REPLAYS: ReplaySpec[] = [
  { world: 'rugrats-demo', frames: 70, agents: 6, interval: 20, capacity: 64 },
  { world: 'piney-default', frames: 45, agents: 3, interval: 20, capacity: 64 },
];

/**
 * Snapshot restore, structure-aware: a keyframe's snapshot decoded and changed value by value over its whole
 * tree (one to three values: numbers, types, array and typed-array lengths, keys), encoded again with the
 * chunk's CRC right. Each keyframe is restored straight into a simulation (`Simulation.restore`: every value
 * checked); a state that is accepted must then run 4 frames without an error, and `restoreKeyframe` must
 * agree with its hash check.
 */
async function snapshotRestoreTarget(): Promise<FuzzTarget> {
  const { readReplay } = await import('../../src/replay/format.js');
  const { restoreKeyframe } = await import('../../src/replay/seek.js');
  const { decodeValueBytes } = await import('../../src/ecs/value-codec.js');
  const { BUTTON_MASK } = await import('../../src/systems/input.js');
  const { FormatError } = await import('../../src/binary/format-error.js');
  const { mutateKeyframeSnapshot } = await import('./replay-structure.js');
  const recorded = await recordReplays(SHORT_REPLAYS);
  const sims = await simulationCache();
  // The recorded snapshots by world and frame.
  const genuine = new Map(recorded.map((r) => [r.source, new Map(readReplay(r.bytes, BUTTON_MASK).keyframes.map((k) => [k.frame, k.snapshot.slice()]))]));
  let corpusCases = recorded.length;
  return {
    name: 'snapshot-restore',
    corpus: () => recorded.map((r) => r.bytes),
    structuredQuarters: 4,
    mutateStructure: (base, rng) => mutateKeyframeSnapshot(base, rng),
    parse: (b) => {
      const rp = readReplay(fixReplayCrcs(b), BUTTON_MASK, sims.limits);
      const sim = sims.fresh(rp.header);
      let refused: unknown = null;
      const own = genuine.get(rp.header.world.source);
      for (const k of rp.keyframes) {
        // The keyframes a case left as recorded were tried by the corpus cases (the first ones): only the changed ones.
        if (corpusCases === 0 && own && sameBytes(k.snapshot, own.get(k.frame))) continue;
        let snap;
        try {
          snap = decodeValueBytes(k.snapshot, 'keyframe', { limits: sims.limits });
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
          refused ??= e;
          continue;
        }
        let restored = true;
        try {
          sim.restore(snap as never);
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
          restored = false;
        }
        if (restored) for (let i = 0; i < 4; i++) sim.step(i);
        let keyframeOk = true;
        try {
          restoreKeyframe(sim, k, { replay: rp, limits: sims.limits });
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
          keyframeOk = false;
          refused ??= e;
        }
        if (keyframeOk && !restored) throw new Error(`keyframe ${k.frame}: restoreKeyframe accepted a snapshot that Simulation.restore refused`);
      }
      if (corpusCases > 0) corpusCases--;
      // Counted as refused (a FormatError) when any keyframe was, after every keyframe was tried.
      if (refused) throw refused;
      return rp;
    },
    allocationBound: { perInputByte: 64, fixedBytes: 16 * 1024 * 1024 },
  };
}

/**
 * Seek and verify of a tampered replay: keyframe snapshots changed (half the time with the keyframe's hash
 * recomputed from the changed state, as an attacker would), keyframe hashes, one field of a frame record,
 * a header setting, or bytes anywhere; CRCs right. Seek (to a frame drawn from the case's bytes) must answer
 * or throw a FormatError, and when it says `verified` its hash must be the one the untampered recording has
 * at that frame. Verify must answer or throw a FormatError, and when it says OK every keyframe must restore
 * (a replay that verifies seeks) and the final hash must be the untampered recording's.
 */
async function tamperTarget(name: 'seek-after-tamper' | 'verify-after-tamper'): Promise<FuzzTarget> {
  const { readReplay } = await import('../../src/replay/format.js');
  const { restoreKeyframe, seekReplay } = await import('../../src/replay/seek.js');
  const { verifyReplay } = await import('../../src/replay/verify.js');
  const { decodeValueBytes } = await import('../../src/ecs/value-codec.js');
  const { BUTTON_MASK } = await import('../../src/systems/input.js');
  const { mutateReplay } = await import('./replay-structure.js');
  const recorded = await recordReplays(SHORT_REPLAYS);
  const sims = await simulationCache();
  const genuine = new Map(recorded.map((r) => [r.source, r.hashes]));
  // The hash a changed snapshot's state has, when it restores (for the recomputed-hash attack).
  const rehash = (snapshot: Uint8Array, _frame: number, replay: Uint8Array): [number, number] | null => {
    let sim;
    try {
      sim = sims.fresh(readReplay(replay, BUTTON_MASK, sims.limits).header);
      sim.restore(decodeValueBytes(snapshot, 'keyframe', { limits: sims.limits }) as never);
    } catch {
      return null;
    }
    const h = sim.hash();
    return [h.hi, h.lo];
  };
  return {
    name,
    corpus: () => recorded.map((r) => r.bytes),
    mutateStructure: (base, rng) => mutateReplay(base, rng, rehash),
    parse: (b) => {
      const rp = readReplay(fixReplayCrcs(b), BUTTON_MASK, sims.limits);
      const sim = sims.fresh(rp.header);
      const truth = genuine.get(rp.header.world.source);
      if (name === 'seek-after-tamper') {
        const frame = crc32(b) % (rp.frames.count + 1);
        const r = seekReplay(rp, sim, frame, { limits: sims.limits });
        if (r.verified && truth && frame < truth.length && r.hash !== truth[frame]) throw new Error(`seek to frame ${frame} says verified with ${r.hash}; the untampered recording has ${truth[frame]}`);
        return r;
      }
      const v = verifyReplay(rp, sim, { limits: sims.limits });
      if (v.ok) {
        if (truth && rp.frames.count < truth.length && v.finalHash !== truth[rp.frames.count]) throw new Error(`verify says OK with final hash ${v.finalHash}; the untampered recording has ${truth[rp.frames.count]}`);
        for (const k of rp.keyframes) restoreKeyframe(sim, k, { replay: rp, limits: sims.limits });
      }
      return v;
    },
    allocationBound: { perInputByte: 64, fixedBytes: 16 * 1024 * 1024 },
  };
}

/** The Piney tables target generates a field for one case in this many; the spec target, SPEC_FIELD_SAMPLE. */
const FIELD_SAMPLE = 8;
const SPEC_FIELD_SAMPLE = 4;

function sameBytes(a: Uint8Array, b: Uint8Array | undefined): boolean {
  if (!b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isWorld(v: unknown): v is CollisionWorld {
  return typeof v === 'object' && v !== null && typeof (v as CollisionWorld).segmentFraction === 'function';
}

interface ReplaySpec {
  world: 'rugrats-demo' | 'piney-default';
  frames: number;
  agents: number;
  interval: number;
  capacity: number;
}

/**
 * Replays to mutate, recorded here rather than shipped: short runs on the Rugrats demo and on the default
 * Piney field (whose snapshots carry the weather tasks), with keyframes often enough that every chunk kind
 * appears several times. Each comes with its world source and the hash of every frame (0..frames).
 */
async function recordReplays(specs: readonly ReplaySpec[]): Promise<{ bytes: Uint8Array; source: string; hashes: string[] }[]> {
  const { ReplayRecorder } = await import('../../src/replay/recorder.js');
  const { BUILTIN_WORLDS } = await import('../../src/worlds/builtin.js');
  const { defaultSettingsFor } = await import('../../src/scenarios/builtin.js');
  const { worldIdentity } = await import('../../src/replay/world-identity.js');
  const { demoButtons } = await import('../../src/sim/demo-input.js');
  const { loadWorld } = await import('../../src/node/world-files.js');
  const out: { bytes: Uint8Array; source: string; hashes: string[] }[] = [];
  for (const { world: id, frames, agents, interval, capacity } of specs) {
    const rel = BUILTIN_WORLDS[id]!;
    const bytes = read(rel);
    const world = await loadWorld(bytes, { name: rel.split('/').pop()! });
    const sim = simulationFromSettings(world, defaultSettingsFor(world, { agents, capacity }));
    const rec = new ReplayRecorder(sim, worldIdentity(world, bytes, `builtin:${id}`), interval);
    const hashes = [sim.hashHex()];
    for (let f = 0; f < frames; f++) {
      rec.step(demoButtons(f));
      hashes.push(sim.hashHex());
    }
    out.push({ bytes: rec.finish(), source: `builtin:${id}`, hashes });
  }
  return out;
}

export async function loadTarget(name: string): Promise<FuzzTarget> {
  const make = TARGETS[name];
  if (!make) throw new Error(`unknown fuzz target ${JSON.stringify(name)} (known: ${Object.keys(TARGETS).join(', ')})`);
  return make();
}
