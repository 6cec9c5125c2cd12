/**
 * The scenarios the CLI runs, and the worlds shipped in assets/.
 *
 * The default (`retrosim run` with no --world) is the generated Piney field of
 * assets/worlds/piney/default.field.json with its weather and ambient tasks (the "piney-field" scenario),
 * plus a player and a few hundred agents wandering by the "wander" stream. Any other world file runs the
 * plain "wander" scenario (a Piney field spec given with --world gets its weather too).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorldIdentity } from '../replay/format.js';
import { installAmbient, type InstalledAmbient } from '../systems/piney-ambient/install.js';
import { DEFAULT_SYSTEMS } from '../systems/index.js';
import { FormatError } from '../binary/format-error.js';
import { fnv1a64Hex } from '../binary/fnv.js';
import { loadWorld, loadWorldFile, type LoadWorldOptions } from '../worlds/load-world.js';
import type { PineyWorld } from '../worlds/piney/collision-world.js';
import type { CollisionWorld } from '../worlds/world.js';
import { DEFAULT_SETTINGS, registerScenario, type ScenarioDef, type ScenarioSettings } from './scenario.js';

/** Worlds shipped with the runtime, by the id a replay records as "builtin:<id>". */
export const BUILTIN_WORLDS: Readonly<Record<string, string>> = {
  'piney-default': 'assets/worlds/piney/default.field.json',
  'rugrats-demo': 'assets/worlds/rugrats/demo.col',
};

export const DEFAULT_WORLD = 'piney-default';

/** The field's weather and ambient tasks on top of the wandering agents. */
export const pineyFieldScenario: ScenarioDef = {
  name: 'piney-field',
  description: 'a generated Piney field with its weather and ambient tasks, a player and wandering agents',
  systems: DEFAULT_SYSTEMS,
  worldKinds: ['piney'],
  setup(sim) {
    if (sim.world.kind !== 'piney') throw new Error('the piney-field scenario needs a Piney field world');
    const p = (sim.world as PineyWorld).field.params;
    installed.set(sim, installAmbient(sim.scheduler, { seed: p.seed, type: p.fieldType, row: p.weather, ground: p.ground, object: p.object }));
  },
};
registerScenario(pineyFieldScenario);

const installed = new WeakMap<object, InstalledAmbient>();

/**
 * The field weather a simulation's scenario installed (its runtime holds each frame's operation list), or
 * undefined when the scenario has none. For readers such as the renderer: they must not change it.
 */
export function ambientOf(sim: object): Readonly<InstalledAmbient> | undefined {
  return installed.get(sim);
}

/** The scenario a world runs by default. */
export function scenarioForWorld(world: CollisionWorld): string {
  return world.kind === 'piney' ? pineyFieldScenario.name : 'wander';
}

/** Default settings for a world: the field's own seed for a Piney field (GO seeds fieldrand with it). */
export function defaultSettingsFor(world: CollisionWorld, over: Partial<ScenarioSettings> = {}): ScenarioSettings {
  const fieldSeed = world.kind === 'piney' ? (world as PineyWorld).field.params.seed : DEFAULT_SETTINGS.fieldSeed;
  return { ...DEFAULT_SETTINGS, scenario: scenarioForWorld(world), fieldSeed, ...over };
}

/** The repository (or installed package) root: the nearest folder above this module holding assets/worlds. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'assets', 'worlds')) && existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error('cannot find the assets folder of the retrosim package');
}

export interface OpenedWorld {
  world: CollisionWorld;
  identity: WorldIdentity;
  bytes: Uint8Array;
}

/** Identity of a world file: kind, name, where it came from and its content hash (FNV-1a 64). */
export function worldIdentity(world: CollisionWorld, bytes: Uint8Array, source: string): WorldIdentity {
  return { kind: world.kind, name: world.name, source, contentHash: fnv1a64Hex(bytes), byteLength: bytes.length };
}

/** Loads a shipped world by id. */
export async function openBuiltinWorld(id: string, read: (path: string) => Uint8Array): Promise<OpenedWorld> {
  const rel = BUILTIN_WORLDS[id];
  if (!rel) throw new FormatError('world', -1, `no built-in world ${JSON.stringify(id)} (known: ${Object.keys(BUILTIN_WORLDS).join(', ')})`);
  const bytes = read(resolve(packageRoot(), rel));
  const world = await loadWorld(bytes, rel.split('/').pop()!);
  return { world, identity: worldIdentity(world, bytes, `builtin:${id}`), bytes };
}

/**
 * Loads a world file given by path with its partner files (a Llama MAP given with --map or found beside the
 * TRAK, GTA placements beside the COL: see src/worlds/load-world.ts). The source reads "file:<path>", plus
 * ";map:<map>" when a MAP was given explicitly; the content hash covers the file's bytes followed by each
 * partner's, so a replay notices a changed partner too.
 */
export async function openWorldFile(path: string, read: (path: string) => Uint8Array, mapPath?: string): Promise<OpenedWorld> {
  read(path); // first through the CLI's reader: a missing, unreadable or huge file is a one-line usage error
  const options: LoadWorldOptions = mapPath ? { map: read(mapPath) } : {};
  const opened = loadWorldFile(path, options);
  const parts = [opened.bytes, ...(options.map ? [options.map] : []), ...opened.partners.map((p) => read(p))];
  const total = parts.reduce((n, b) => n + b.length, 0);
  const all = new Uint8Array(total);
  let at = 0;
  for (const b of parts) {
    all.set(b, at);
    at += b.length;
  }
  const source = `file:${path}${mapPath ? `;map:${mapPath}` : ''}`;
  return { world: opened.world, identity: worldIdentity(opened.world, all, source), bytes: all };
}

/** Splits a recorded "file:" source into the world path and the optional MAP path. */
export function parseFileSource(source: string): { path: string; mapPath?: string } {
  const body = source.slice('file:'.length);
  const i = body.lastIndexOf(';map:');
  return i < 0 ? { path: body } : { path: body.slice(0, i), mapPath: body.slice(i + 5) };
}

/** Throws unless an opened world is the one a replay names (same content hash). */
export function checkWorldIdentity(expected: WorldIdentity, got: WorldIdentity): void {
  if (expected.contentHash !== got.contentHash || expected.byteLength !== got.byteLength || expected.kind !== got.kind) {
    throw new FormatError(
      'replay chunk HEAD (header)',
      -1,
      `the replay ran on ${expected.source} (${expected.kind}, ${expected.byteLength} bytes, content hash ${expected.contentHash}); the world given is ${got.kind}, ${got.byteLength} bytes with hash ${got.contentHash}`,
    );
  }
}
