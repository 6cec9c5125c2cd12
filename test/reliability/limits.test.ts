/**
 * The configurable limits (src/limits.ts): resolving overrides, and each loader refusing a file over a limit
 * with a FormatError that names the limit, while the same file loads at the limit and at the defaults.
 * Each world's actual counts come from parsing it with the defaults, never from constants copied here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, resolveLimits, type Limits, type LimitsOverride } from '../../src/limits.js';
import { FormatError } from '../../src/binary/format-error.js';
import { parseCol } from '../../src/worlds/rugrats/parse.js';
import { loadRugratsWorld } from '../../src/worlds/rugrats/collision-world.js';
import { loadLlamaWorld, parseMap, parseTrak } from '../../src/worlds/llama/index.js';
import { loadColbinWorld, parseColbin } from '../../src/worlds/colbin/index.js';
import { loadPineyWorld, loadPineyTables } from '../../src/worlds/piney/index.js';
import { loadGtaWorld, parseGtaPlacements } from '../../src/worlds/gta/collision-world.js';
import { parseColFile } from '../../src/worlds/gta/parse.js';
import { buildColFromJson } from '../../src/worlds/gta/describe.js';
import { buildColFromObj } from '../../src/worlds/gta/describe-obj.js';
import { loadWorldBytes } from '../../src/worlds/load.js';
import { loadWorldFile } from '../../src/node/world-files.js';
import { fileURLToPath } from 'node:url';
import { readReplay } from '../../src/replay/format.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { worldIdentity } from '../../src/replay/world-identity.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { Simulation } from '../../src/sim/simulation.js';
import { defaultPineyTables } from '../../src/node/assets.js';
import { checkReplaySettings, checkReplayWork } from '../../src/replay/rebuild.js';
import { restoreKeyframe } from '../../src/replay/seek.js';
import { decodeValueBytes } from '../../src/ecs/value-codec.js';

const root = new URL('../../', import.meta.url);
const read = (rel: string): Uint8Array => new Uint8Array(readFileSync(new URL(rel, root)));

/** Runs `f` and returns the FormatError it throws (fails the test if it throws anything else or nothing). */
function formatErrorOf(f: () => unknown): FormatError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('expected a FormatError, nothing was thrown');
}

/** Expects `load(limits)` to pass at `value` and fail naming `name` at `value − 1`. */
function expectLimitBites(name: string, value: number, over: (v: number) => LimitsOverride, load: (l: Limits) => unknown): void {
  expect(value).toBeGreaterThan(0);
  expect(() => load(resolveLimits(over(value)))).not.toThrow();
  const e = formatErrorOf(() => load(resolveLimits(over(value - 1))));
  expect(e.message).toContain(`limits.${name}`);
}

describe('resolveLimits', () => {
  it('gives the defaults, applies overrides to one entry only, and freezes the result', () => {
    expect(resolveLimits()).toEqual(DEFAULT_LIMITS);
    const l = resolveLimits({ fileBytes: 1000, replay: { frames: 60 } });
    expect(l.fileBytes).toBe(1000);
    expect(l.replay.frames).toBe(60);
    expect(l.replay.keyframes).toBe(DEFAULT_LIMITS.replay.keyframes);
    expect(l.gta).toEqual(DEFAULT_LIMITS.gta);
    expect(Object.isFrozen(l)).toBe(true);
    expect(Object.isFrozen(l.replay)).toBe(true);
    // The defaults themselves are untouched.
    expect(DEFAULT_LIMITS.fileBytes).toBe(256 * 1024 * 1024);
  });

  it('refuses unknown names and values that are not positive integers', () => {
    expect(() => resolveLimits({ fileByte: 1 } as unknown as LimitsOverride)).toThrow(/unknown limit "fileByte"/);
    expect(() => resolveLimits({ replay: { frame: 1 } } as unknown as LimitsOverride)).toThrow(/unknown limit replay\.frame/);
    for (const bad of [0, -1, 1.5, NaN, Infinity, 2 ** 60]) expect(() => resolveLimits({ agents: bad })).toThrow(RangeError);
    expect(() => resolveLimits({ gta: 5 } as unknown as LimitsOverride)).toThrow(/must be an object/);
  });

  it('keeps every default far above the shipped levels and replays', () => {
    // A real level is at most a few MB; the replay default covers more than a day at 60 frames a second.
    expect(DEFAULT_LIMITS.fileBytes).toBeGreaterThanOrEqual(64 * 1024 * 1024);
    expect(DEFAULT_LIMITS.replay.frames).toBeGreaterThan(60 * 60 * 60 * 24);
  });
});

describe('limits wired into the loaders', () => {
  it('Rugrats COL: file size, floor and ceiling normals, cells and tiles', () => {
    const bytes = read('assets/worlds/rugrats/demo.col');
    const col = parseCol(bytes);
    expectLimitBites('fileBytes', bytes.length, (v) => ({ fileBytes: v }), (l) => loadRugratsWorld(bytes, 'demo', l));
    const normals = Math.max(col.floorNormals.length, col.ceilingNormals.length);
    expectLimitBites('rugrats.normals', normals, (v) => ({ rugrats: { normals: v } }), (l) => parseCol(bytes, l));
    const cellsAndTiles = col.columns.reduce((n, c) => n + c.cells.length + c.tiles.length, 0);
    expectLimitBites('rugrats.cellsAndTiles', cellsAndTiles, (v) => ({ rugrats: { cellsAndTiles: v } }), (l) => loadRugratsWorld(bytes, 'demo', l));
  });

  it('Llama TRAK and MAP: file size, models, tiles, grid cells', () => {
    const trak = read('assets/worlds/llama/demo.trak');
    const map = read('assets/worlds/llama/demo.map');
    const t = parseTrak(trak);
    const m = parseMap(map, t.models.map((x) => x.vertices.length / 6));
    const load = (l: Limits) => loadLlamaWorld(trak, map, 'demo', undefined, l);
    expectLimitBites('fileBytes', Math.max(trak.length, map.length), (v) => ({ fileBytes: v }), load);
    expectLimitBites('llama.models', t.models.length, (v) => ({ llama: { models: v } }), load);
    expectLimitBites('llama.tiles', m.tileCount, (v) => ({ llama: { tiles: v } }), load);
    expectLimitBites('llama.gridCells', m.width * m.height, (v) => ({ llama: { gridCells: v } }), load);
  });

  it('COLBIN: file size, floors, walls, grid cells', () => {
    const bytes = read('assets/worlds/colbin/demo.colbin');
    const f = parseColbin(bytes);
    expect(f.version).toBe(2);
    const load = (l: Limits) => loadColbinWorld(bytes, 'demo', { limits: l });
    expectLimitBites('fileBytes', bytes.length, (v) => ({ fileBytes: v }), load);
    expectLimitBites('colbin.floors', f.floorCount, (v) => ({ colbin: { floors: v } }), load);
    expectLimitBites('colbin.walls', f.wallCount, (v) => ({ colbin: { walls: v } }), load);
    expectLimitBites('colbin.gridCells', f.grid!.width * f.grid!.height, (v) => ({ colbin: { gridCells: v } }), load);
  });

  it('GTA COL: file size, models, placements', () => {
    const bytes = read('assets/worlds/gta/town.col');
    const text = new TextDecoder().decode(read('assets/worlds/gta/town.placements.json'));
    const placements = parseGtaPlacements(text);
    const models = parseColFile(bytes).models.length;
    expect(models).toBeGreaterThan(1);
    const load = (l: Limits) => loadGtaWorld(bytes, 'town', placements, l);
    expectLimitBites('fileBytes', bytes.length, (v) => ({ fileBytes: v }), load);
    expectLimitBites('gta.models', models, (v) => ({ gta: { models: v } }), load);
    expectLimitBites('gta.placements', placements.length, (v) => ({ gta: { placements: v } }), load);
    expectLimitBites('gta.placements', placements.length, (v) => ({ gta: { placements: v } }), (l) => parseGtaPlacements(text, l));
  });

  it('GTA descriptions (col build): bytes, JSON values, elements, OBJ line length, face vertices, objects', () => {
    const crate = { models: [{ name: 'crate', boxes: [{ min: [-1, -1, 0], max: [1, 1, 2] }], mesh: { vertices: [[-4, -4, 0], [4, -4, 0], [4, 4, 0], [-4, 4, 0]], faces: [[0, 1, 2], [0, 2, 3]] } }] };
    const json = new TextEncoder().encode(JSON.stringify(crate));
    const values = JSON.stringify(crate).split(/[,:[{]/).length; // every value but the first follows one of these
    const fromJson = (l: Limits) => buildColFromJson(json, l);
    expectLimitBites('gta.descriptionBytes', json.length, (v) => ({ gta: { descriptionBytes: v } }), fromJson);
    expectLimitBites('gta.descriptionValues', values, (v) => ({ gta: { descriptionValues: v } }), fromJson);
    expectLimitBites('gta.descriptionElements', 1 + 4 + 2, (v) => ({ gta: { descriptionElements: v } }), fromJson);
    const obj = ['o floor', 'v 0 0 0', 'v 4 0 0', 'v 4 0 -4', 'v 0 0 -4', 'f 1 2 3 4', 'o post', 'v 0 0 0', 'v 0 2 0', 'v 1 0 0', 'f -3 -2 -1'].join('\n');
    const fromObj = (l: Limits) => buildColFromObj(obj, { limits: l });
    expectLimitBites('gta.descriptionBytes', obj.length, (v) => ({ gta: { descriptionBytes: v } }), fromObj);
    expectLimitBites('gta.objLineChars', Math.max(...obj.split('\n').map((l) => l.length)), (v) => ({ gta: { objLineChars: v } }), fromObj);
    expectLimitBites('gta.objFaceVertices', 4, (v) => ({ gta: { objFaceVertices: v } }), fromObj);
    expectLimitBites('gta.models', 2, (v) => ({ gta: { models: v } }), fromObj);
    // 11 statements; 3 triangles (the quad fans into two) within them.
    expectLimitBites('gta.descriptionElements', 11, (v) => ({ gta: { descriptionElements: v } }), fromObj);
    const quads = ['v 0 0 0', 'v 4 0 0', 'v 4 0 -4', 'v 0 0 -4', ...Array.from({ length: 6 }, () => 'f 1 2 3 4')].join('\n');
    expectLimitBites('gta.descriptionElements', 12, (v) => ({ gta: { descriptionElements: v } }), (l) => buildColFromObj(quads, { limits: l }));
  });

  it('Piney: spec bytes and tables bytes', () => {
    const spec = read('assets/worlds/piney/default.field.json');
    expectLimitBites('piney.specBytes', spec.length, (v) => ({ piney: { specBytes: v } }), (l) => loadPineyWorld(spec, 'default', defaultPineyTables(), l));
    const tables = read('assets/piney/field-tables.json');
    expectLimitBites('piney.tablesBytes', tables.length, (v) => ({ piney: { tablesBytes: v } }), (l) => loadPineyTables(tables, l));
  });

  it('loadWorld passes the limits to every format and refuses a big file before reading it', () => {
    const cases: [string, LimitsOverride][] = [
      ['assets/worlds/rugrats/demo.col', { rugrats: { normals: 1 } }],
      ['assets/worlds/colbin/demo.colbin', { colbin: { walls: 1 } }],
      ['assets/worlds/gta/town.col', { gta: { models: 1 } }],
      ['assets/worlds/llama/demo.trak', { llama: { tiles: 1 } }],
      ['assets/worlds/piney/default.field.json', { piney: { specBytes: 10 } }],
    ];
    for (const [rel, over] of cases) {
      const path = fileURLToPath(new URL(rel, root));
      expect(() => loadWorldFile(path)).not.toThrow();
      const limits = resolveLimits(over);
      const e = formatErrorOf(() => loadWorldFile(path, { limits }));
      expect(e.message).toMatch(/limits\./);
      // By bytes too (the Llama MAP as the partner).
      const options = rel.endsWith('.trak') ? { map: read('assets/worlds/llama/demo.map'), limits } : { limits, pineyTables: defaultPineyTables() };
      // A Piney spec over its byte limit is no longer recognised as one, which is also a refusal.
      expect(formatErrorOf(() => loadWorldBytes(read(rel), 'w', options)).message).toMatch(rel.endsWith('.json') ? /not a world file|limits\./ : /limits\./);
      const small = resolveLimits({ fileBytes: 16 });
      expect(formatErrorOf(() => loadWorldFile(path, { limits: small })).message).toContain('limits.fileBytes');
      expect(formatErrorOf(() => loadWorldBytes(read(rel), 'w', { limits: small })).message).toContain('limits.fileBytes');
    }
  });

  it('replays: file size, frames, keyframes, snapshot bytes', () => {
    const bytes = read('assets/worlds/rugrats/demo.col');
    const world = loadRugratsWorld(bytes, 'demo.col');
    const sim = simulationFromSettings(world, defaultSettingsFor(world, { agents: 4, capacity: 16 }));
    const rec = new ReplayRecorder(sim, worldIdentity(world, bytes, 'builtin:rugrats-demo'), 10);
    for (let f = 1; f <= 45; f++) rec.step(demoButtons(f));
    const file = rec.finish();
    const rp = readReplay(file);
    expect(rp.frames.count).toBe(45);
    const load = (l: Limits) => readReplay(file, undefined, l);
    expectLimitBites('fileBytes', file.length, (v) => ({ fileBytes: v }), load);
    expectLimitBites('replay.frames', rp.frames.count, (v) => ({ replay: { frames: v } }), load);
    expectLimitBites('replay.keyframes', rp.keyframes.length, (v) => ({ replay: { keyframes: v } }), load);
    const biggest = Math.max(...rp.keyframes.map((k) => k.snapshot.length));
    expectLimitBites('replay.snapshotBytes', biggest, (v) => ({ replay: { snapshotBytes: v } }), load);
  });

  it('re-simulating a replay: agents, capacity, ccRand init, frames and agents × frames; snapshot values and objects', () => {
    const bytes = read('assets/worlds/rugrats/demo.col');
    const world = loadRugratsWorld(bytes, 'demo.col');
    const settings = defaultSettingsFor(world, { agents: 4, capacity: 16, ccRandInit: 7 });
    const sim = simulationFromSettings(world, settings);
    const rec = new ReplayRecorder(sim, worldIdentity(world, bytes, 'builtin:rugrats-demo'), 10);
    for (let f = 1; f <= 30; f++) rec.step(demoButtons(f));
    const rp = readReplay(rec.finish());
    const h = rp.header;
    expectLimitBites('replay.agents', 4, (v) => ({ replay: { agents: v } }), (l) => checkReplaySettings(h, l));
    expectLimitBites('replay.capacity', 16, (v) => ({ replay: { capacity: v } }), (l) => checkReplaySettings(h, l));
    expectLimitBites('replay.ccRandInit', 7, (v) => ({ replay: { ccRandInit: v } }), (l) => checkReplaySettings(h, l));
    expectLimitBites('replay.frames', 30, (v) => ({ replay: { frames: v } }), (l) => checkReplayWork(h, 30, l));
    expectLimitBites('replay.agentFrames', 5 * 30, (v) => ({ replay: { agentFrames: v } }), (l) => checkReplayWork(h, 30, l));
    // The errors say which flag raises the limit.
    expect(formatErrorOf(() => checkReplaySettings(h, resolveLimits({ replay: { agents: 3 } }))).message).toMatch(/^replay chunk HEAD #0 \(header\): agents 4 is over the limit of 3 for a re-simulation \(limits\.replay\.agents; CLI: --max-agents N\)$/);
    // A keyframe's decode: within limits.replay.snapshotValues / snapshotObjects, refused one below its count.
    const k = rp.keyframes[1]!;
    const stats = { values: 0, composites: 0, stringBytes: 0, typedBytes: 0 };
    decodeValueBytes(k.snapshot, 'k', { stats });
    expect(stats.values).toBeGreaterThan(100);
    expect(stats.composites).toBeGreaterThan(10);
    const restore = (l: Limits) => restoreKeyframe(simulationFromSettings(world, settings), k, { limits: l });
    expectLimitBites('replay.snapshotValues', stats.values, (v) => ({ replay: { snapshotValues: v } }), restore);
    expectLimitBites('replay.snapshotObjects', stats.composites, (v) => ({ replay: { snapshotObjects: v } }), restore);
  });
});
