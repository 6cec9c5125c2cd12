/**
 * The state hash is complete: a keyframe of the default scenario, of each demo world and of Piney fields with
 * other weather is taken, then every value of the snapshot tree is changed in turn (every scalar; for an
 * array or typed array every element when it is short, else its first, last, live-entity and evenly spaced
 * elements) and restored. Each change must be refused by the restore's checks, or change the state hash, or
 * leave the next frames exactly as they were (hash for hash, far enough for the slowest timers). A change
 * that restores, keeps the hash and changes a later frame is state the hash does not cover: a failure.
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { FormatError } from '../../src/binary/format-error.js';
import { createSimulation, defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import type { Simulation, SimSnapshot } from '../../src/sim/simulation.js';
import { loadWorldFile } from '../../src/node/world-files.js';
import { defaultPineyTables } from '../../src/node/assets.js';
import { loadPineyWorld } from '../../src/worlds/piney/collision-world.js';
import { BUILTIN_WORLDS, DEFAULT_WORLD } from '../../src/worlds/builtin.js';
import type { CollisionWorld } from '../../src/worlds/world.js';
import { DEMO_KINDS, demoPath } from '../systems/demo-worlds.js';

/** Frames run before the keyframe is taken, and frames compared after an unhashed change. */
const BEFORE = 90;
const AFTER = 150;
/** Elements changed in a long array: the ends, evenly spaced ones, and the live entities' (ECS fields). */
const SAMPLES = 8;

type Node = unknown;
interface Leaf {
  path: string;
  get(): unknown;
  set(v: unknown): void;
}

/** Every leaf of the snapshot tree (scalars and array elements), with a setter to change it in place. */
function leaves(root: Node, live: ReadonlySet<number>): Leaf[] {
  const out: Leaf[] = [];
  const pick = (n: number, isIds: boolean): number[] => {
    if (n <= 48) return [...Array(n).keys()];
    const s = new Set<number>([0, 1, n - 1]);
    for (let k = 1; k < SAMPLES; k++) s.add(Math.floor((k * n) / SAMPLES));
    if (isIds) for (const id of live) if (id < n) s.add(id);
    return [...s].sort((a, b) => a - b);
  };
  const walk = (v: Node, path: string, parent: Record<string | number, unknown> | null, key: string | number, isIds: boolean): void => {
    if (ArrayBuffer.isView(v)) {
      const a = v as unknown as { length: number; [i: number]: number };
      for (const i of pick(a.length, isIds)) out.push({ path: `${path}[${i}]`, get: () => a[i], set: (x) => (a[i] = x as number) });
      return;
    }
    if (Array.isArray(v)) {
      const idx = v.length > 48 && v.every((x) => typeof x === 'number') ? pick(v.length, false) : [...v.keys()];
      for (const i of idx) walk(v[i], `${path}[${i}]`, v as unknown as Record<number, unknown>, i, false);
      return;
    }
    if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) walk(o[k], path ? `${path}.${k}` : k, o, k, k === 'values' || k === 'membership');
      return;
    }
    if (parent) out.push({ path, get: () => parent[key], set: (x) => (parent[key] = x) });
  };
  walk(root, '', null, '', false);
  return out;
}

/** Changed values to try for a leaf, in order (the first the restore accepts is the one judged). */
function changes(v: unknown): unknown[] {
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return [0];
    if (Number.isInteger(v)) return [v + 1, v - 1];
    const w = v * 1.5 + 0.25;
    return [w === v ? v + 1 : w];
  }
  if (typeof v === 'boolean') return [!v];
  if (typeof v === 'string') return [v + 'x'];
  if (v === null) return [1, 0];
  return [];
}

interface Outcome {
  refused: number;
  hashed: number;
  harmless: string[];
  failures: string[];
  snap: SimSnapshot;
}

function hashes(sim: Simulation, from: SimSnapshot, frames: number): string[] {
  sim.restore(from);
  const out: string[] = [];
  for (let f = 1; f <= frames; f++) {
    sim.step(demoButtons(from.frame + f));
    out.push(sim.hashHex());
  }
  return out;
}

function tryEveryField(sim: Simulation): Outcome {
  for (let f = 1; f <= BEFORE; f++) sim.step(demoButtons(f));
  const snap = sim.save();
  const base = sim.hashHex();
  const after = hashes(sim, snap, AFTER);
  const live = new Set(Array.from(snap.ecs.dense.subarray(0, snap.ecs.aliveCount)));
  const o: Outcome = { refused: 0, hashed: 0, harmless: [], failures: [], snap };
  for (const leaf of leaves(snap, live)) {
    const old = leaf.get();
    let judged = false;
    for (const x of changes(old)) {
      leaf.set(x);
      if (Object.is(leaf.get(), old)) continue; // a typed array that cannot hold it
      try {
        sim.restore(snap);
      } catch (e) {
        if (!(e instanceof FormatError)) o.failures.push(`${leaf.path} = ${String(x)}: restore threw ${(e as Error).name}: ${(e as Error).message}`);
        continue;
      }
      judged = true;
      if (sim.hashHex() !== base) o.hashed++;
      else {
        const later = hashes(sim, snap, AFTER);
        const first = later.findIndex((h, i) => h !== after[i]);
        if (first >= 0) o.failures.push(`${leaf.path}: ${String(old)} → ${String(x)} keeps the hash but changes frame ${snap.frame + first + 1}`);
        else o.harmless.push(leaf.path);
      }
      break;
    }
    leaf.set(old);
    if (!judged) o.refused++;
  }
  return o;
}

function pineyField(type: number, weather: number): CollisionWorld {
  const spec = { format: 'retrosim-piney-field', name: `type ${type}`, seed: 1420855 + type, type, weather, ground: 1, object: 1, event: 0, protect: false };
  return loadPineyWorld(new TextEncoder().encode(JSON.stringify(spec)), `type-${type}.field.json`, defaultPineyTables());
}

const cases: [string, () => Simulation][] = [
  [
    'the default scenario',
    () => {
      const w = loadWorldFile(fileURLToPath(new URL(`../../${BUILTIN_WORLDS[DEFAULT_WORLD]!}`, import.meta.url))).world;
      return createSimulation(w, { agents: 12 });
    },
  ],
  ...DEMO_KINDS.map((kind): [string, () => Simulation] => [`the ${kind} demo world`, () => {
    const w = loadWorldFile(demoPath(kind)).world;
    return simulationFromSettings(w, defaultSettingsFor(w, { agents: 8, capacity: 16 }));
  }]),
  ...([
    [5, 5],
    [9, 2],
    [7, 6],
  ] as const).map(([type, weather]): [string, () => Simulation] => [`a Piney field of type ${type}, weather row ${weather}`, () => {
    const w = pineyField(type, weather);
    return simulationFromSettings(w, defaultSettingsFor(w, { agents: 3, capacity: 8 }));
  }]),
];

describe('the state hash covers everything a later frame depends on', () => {
  for (const [name, make] of cases) {
    it(`${name}: every changed value of a keyframe is refused, changes the hash, or changes no later frame`, { timeout: 300_000 }, () => {
      const o = tryEveryField(make());
      expect(o.failures).toEqual([]);
      // Both checks are at work: the restore refuses values, the hash sees the rest.
      expect(o.refused).toBeGreaterThan(10);
      expect(o.hashed).toBeGreaterThan(100);
      // What restores with the same hash is only what no later frame reads: the last input (each step sets
      // its own), entity 0's fields (no entity has id 0), the draw-count record of the frame, the recording
      // system's last frame (output), and line-of-sight ids past the matrix's size; nothing else.
      const tasks = o.snap.scheduler.tasks;
      const los = tasks.find((t) => t.name === 'line-of-sight')!.body as { n: number };
      const explained = (p: string): boolean => {
        if (p === 'input' || /^ecs\.fields\[\d+\]\.values\[0\]$/.test(p) || /^scheduler\.history\[[01]\]$/.test(p)) return true;
        const m = /^scheduler\.tasks\[(\d+)\]\.body(?:\.ids\[(\d+)\])?$/.exec(p);
        if (!m) return false;
        const t = tasks[Number(m[1])]!;
        return m[2] === undefined ? t.name === 'recording' : t.name === 'line-of-sight' && Number(m[2]) >= los.n;
      };
      expect(o.harmless.filter((p) => !explained(p))).toEqual([]);
      expect(o.harmless.length).toBeGreaterThan(0);
    });
  }
});
