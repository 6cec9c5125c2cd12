/**
 * Snapshots for rollback (`saveInto`/`restoreFrom`): on every demo world and the default scenario, rolling back
 * to a saved frame and stepping on gives the hashes of a run that never saved; a fast-check property over
 * mispredicted inputs; a scenario that spawns, despawns and adds tasks mid-run (the entity world's rebuild
 * path); the same state reused over 100 cycles keeps its typed arrays; with 2 system threads the arrays stay the
 * shared ones and the hashes equal one thread's.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { createSimulation, defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import type { Simulation } from '../../src/sim/simulation.js';
import { RollbackState } from '../../src/sim/rollback.js';
import { Buttons } from '../../src/systems/input.js';
import { loadWorldFile } from '../../src/node/world-files.js';
import { SystemPool } from '../../src/node/system-pool.js';
import { BUILTIN_WORLDS, DEFAULT_WORLD } from '../../src/worlds/builtin.js';
import { defineScenario, type ScenarioSettings } from '../../src/sim/scenario.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { defineSystem } from '../../src/systems/system.js';
import type { LlamaWorld } from '../../src/worlds/llama/collision-world.js';
import type { CollisionWorld } from '../../src/worlds/world.js';
import { DEMO_KINDS, demoPath, demoSource, openDemo } from '../systems/demo-worlds.js';

const buttons = (f: number) => demoButtons(f, 3) | (f % 61 === 0 ? Buttons.Jump : 0);
/** Other buttons than `buttons` (a misprediction). */
const wrong = (f: number) => demoButtons(f, 11) ^ Buttons.Jump;

/** A Llama world's swaps change from outside now and then (world run-time state a rollback must put back). */
function swapper(world: CollisionWorld): (f: number) => void {
  const w = world.kind === 'llama' ? (world as LlamaWorld) : null;
  return (f) => {
    if (w && w.swapCount > 0 && f % 50 === 0) w.setSwap((f / 50) % w.swapCount, (f / 50) % 2 === 1);
  };
}

/** Every frame's hash of a run that never saves. */
function straight(sim: Simulation, frames: number, each = (_f: number) => {}): string[] {
  const out: string[] = [];
  for (let f = 1; f <= frames; f++) {
    each(f);
    sim.step(buttons(f));
    out.push(sim.hashHex());
  }
  return out;
}

/**
 * The same run as a rollback session does it: every frame is saved; before each frame, `ahead` frames are
 * first run with wrong buttons (and a state saved on each), then the run goes back to the saved frame and
 * steps with the right ones.
 */
function rolledBack(sim: Simulation, frames: number, ahead: number, each = (_f: number) => {}): string[] {
  const out: string[] = [];
  const ring = Array.from({ length: ahead + 2 }, () => new RollbackState());
  for (let f = 1; f <= frames; f++) {
    const base = sim.saveInto(ring[f % ring.length]);
    expect(base.frame).toBe(f - 1);
    for (let k = 0; k < ahead; k++) {
      sim.step(wrong(f + k));
      sim.saveInto(ring[(f + k + 1) % ring.length]);
    }
    sim.restoreFrom(base);
    each(f);
    sim.step(buttons(f));
    out.push(sim.hashHex());
  }
  return out;
}

function openDefault(): CollisionWorld {
  return loadWorldFile(fileURLToPath(new URL(`../../${BUILTIN_WORLDS[DEFAULT_WORLD]!}`, import.meta.url))).world;
}

describe('restoreFrom(saveInto()) gives the state back on every world', () => {
  for (const kind of DEMO_KINDS) {
    it(`${kind}: rolled back every frame, the hashes of a run that never saved`, () => {
      const make = () => {
        const w = openDemo(kind);
        return { sim: simulationFromSettings(w, defaultSettingsFor(w, { agents: 40, capacity: 128 })), each: swapper(w) };
      };
      const a = make();
      const want = straight(a.sim, 150, a.each);
      const b = make();
      expect(rolledBack(b.sim, 150, 3, b.each)).toEqual(want);
      // The same number of draws and the same record of the last frame's draw counts.
      expect(b.sim.scheduler.drawCounts()).toEqual(a.sim.scheduler.drawCounts());
    });
  }

  it('the default scenario (the Piney field with its weather): rolled back 8 frames every frame', () => {
    const want = straight(createSimulation(openDefault(), { agents: 30 }), 90);
    expect(rolledBack(createSimulation(openDefault(), { agents: 30 }), 90, 8)).toEqual(want);
  });

  it('a state restored twice, and one restored after other rollbacks, still gives its frame back', () => {
    const sim = createSimulation(openDemo('gta'), { agents: 20 });
    for (let f = 1; f <= 20; f++) sim.step(buttons(f));
    const at20 = sim.saveInto();
    const h20 = sim.hashHex();
    for (let round = 0; round < 3; round++) {
      for (let f = 21; f <= 40; f++) sim.step(wrong(f + round));
      sim.restoreFrom(at20);
      expect(sim.hashHex()).toBe(h20);
      expect(sim.frame).toBe(20);
    }
  });
});

/**
 * Entities spawned and despawned, and a task added and removed, mid-run: a rollback across those rebuilds the
 * entity world (its index, memberships and query orders) and puts the task list back.
 */
const churn = defineSystem({
  name: 'churn',
  priority: 47,
  create(host) {
    const { ecs } = host;
    const c = ecs.components;
    const q = ecs.defineQuery('churned', [c.Position, c.Heading]);
    return (ctx) => {
      const r = ctx.rng.streams.get('churn');
      const roll = r.int(6);
      const mine = ecs.entities(q).filter((e) => !ecs.has(e, c.Agent) && e !== host.player);
      if (roll < 2 && mine.length < 20) {
        const e = ecs.spawn([c.Position, c.Heading]);
        c.Position.x[e] = ctx.frame;
        c.Heading.angle[e] = r.int(65536);
      } else if (roll < 4 && mine.length > 0) ecs.despawn(mine[r.int(mine.length)]!);
      else if (roll === 4 && mine.length > 0) c.Heading.angle[mine[0]!] = (c.Heading.angle[mine[0]!]! + 1) & 0xffff;
      if (ctx.frame % 9 === 0) {
        const born = ctx.frame;
        ctx.scheduler.addTask('pulse', 60, (fc2, self) => {
          fc2.rng.streams.get('pulse').next();
          if (fc2.frame >= born + 4) self.remove();
        });
      }
    };
  },
});
const churnScenario = defineScenario({ name: 'churn', version: '1', description: 'entities and tasks come and go', systems: [...DEFAULT_SYSTEMS, churn] });

function churnSim(): Simulation {
  const w = openDemo('rugrats');
  const settings: ScenarioSettings = { ...defaultSettingsFor(w, { agents: 10, capacity: 64 }), scenario: 'churn' };
  return simulationFromSettings(w, settings, churnScenario);
}

describe('rollback across spawns, despawns and tasks that come and go', () => {
  it('rolled back 5 frames every frame, the hashes of a run that never saved', () => {
    const want = straight(churnSim(), 120);
    expect(rolledBack(churnSim(), 120, 5)).toEqual(want);
  });

  it('for any split of a run, a misprediction rolled back gives the hashes of a run fed the right buttons only', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.array(fc.integer({ min: 0, max: 0x3f }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 0x3f }), { minLength: 12, maxLength: 12 }),
        fc.boolean(),
        (a, guessed, actual, churning) => {
          const make = () => (churning ? churnSim() : createSimulation(openDemo('colbin'), { agents: 12, capacity: 32 }));
          const b = guessed.length;
          const sim = make();
          for (let f = 1; f <= a; f++) sim.step(buttons(f));
          const st = sim.saveInto();
          for (let k = 0; k < b; k++) sim.step(guessed[k]!);
          sim.restoreFrom(st);
          const got: string[] = [];
          for (let k = 0; k < b; k++) {
            sim.step(actual[k]!);
            got.push(sim.hashHex());
          }
          const fresh = make();
          for (let f = 1; f <= a; f++) fresh.step(buttons(f));
          const want: string[] = [];
          for (let k = 0; k < b; k++) {
            fresh.step(actual[k]!);
            want.push(fresh.hashHex());
          }
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 40 },
    );
  });
});

/** Every typed array a RollbackState holds (to check that reuse keeps them). */
function arraysOf(st: RollbackState): ArrayBufferView[] {
  return [
    ...st.ecs.fields,
    st.ecs.dense,
    st.ecs.membership,
    ...st.ecs.queries,
    st.scheduler.sleep,
    st.scheduler.draws,
    ...st.scheduler.arrays.flatMap((a) => a ?? []),
    st.ccrand.mt,
    st.streams.words,
    st.streams.bytes,
  ];
}

describe('reused buffers', () => {
  it('100 save/restore cycles into one state keep every typed array it made the first time', () => {
    const sim = createSimulation(openDefault(), { agents: 50 });
    sim.step(buttons(1));
    const st = new RollbackState();
    sim.saveInto(st);
    const first = arraysOf(st);
    expect(first.length).toBeGreaterThan(30);
    // The systems' own state is copied through stateArrays (no save() of theirs is kept per frame).
    const kept = st.scheduler.tasks.filter((_t, i) => st.scheduler.saved[i] !== null).map((t) => t.name);
    // (the Piney weather's display task and the recording keep their own save: see saveInto)
    expect(kept).toEqual(['ccThFieldDisp', 'recording']);
    const fields = sim.ecs.components.all.flatMap((c) => c.fieldNames.map((f) => c.fields[f]!));
    for (let i = 0; i < 100; i++) {
      sim.step(buttons(i + 2));
      sim.saveInto(st);
      sim.step(wrong(i));
      sim.restoreFrom(st);
    }
    const after = arraysOf(st);
    expect(after.length).toBe(first.length);
    for (let i = 0; i < first.length; i++) expect(after[i]).toBe(first[i]);
    // The simulation's own arrays are written into, never replaced.
    expect(sim.ecs.components.all.flatMap((c) => c.fieldNames.map((f) => c.fields[f]!))).toEqual(fields);
    for (let i = 0; i < fields.length; i++) expect(sim.ecs.components.all.flatMap((c) => c.fieldNames.map((f) => c.fields[f]!))[i]).toBe(fields[i]);
  });

  it('refuses a state of another simulation and an empty one, with a clear message', () => {
    const a = createSimulation(openDemo('rugrats'), { agents: 4 });
    const b = createSimulation(openDemo('rugrats'), { agents: 4 });
    expect(() => b.restoreFrom(a.saveInto())).toThrow(/saved by another simulation/);
    expect(() => b.restoreFrom(new RollbackState())).toThrow(/is empty/);
    // A state another simulation filled can be filled again by this one (all of it is copied then).
    const st = a.saveInto();
    for (let f = 1; f <= 5; f++) b.step(buttons(f));
    const h = b.hashHex();
    b.saveInto(st);
    b.step(1);
    b.restoreFrom(st);
    expect(b.hashHex()).toBe(h);
  });
});

describe('with system threads', () => {
  for (const kind of ['rugrats', 'llama'] as const) {
    it(`${kind}, 2 threads, rolled back every frame: the one-thread hashes, and the component arrays stay the shared ones`, async () => {
      const pool = await SystemPool.create(demoSource(kind), 2, { minIdsPerThread: 1 });
      try {
        const make = (threads?: SystemPool) => {
          const w = loadWorldFile(demoPath(kind)).world;
          return { sim: simulationFromSettings(w, defaultSettingsFor(w, { agents: 60, capacity: 128 }), undefined, undefined, threads), each: swapper(w) };
        };
        const a = make();
        const want = straight(a.sim, 120, a.each);
        const b = make(pool);
        const fields = b.sim.ecs.components.all.flatMap((c) => c.fieldNames.map((f) => c.fields[f]!));
        expect(fields.every((x) => x.buffer instanceof SharedArrayBuffer)).toBe(true);
        const jobs = pool.jobs;
        // (Llama's tile swaps, put back by the rollback, reach the workers too.)
        expect(rolledBack(b.sim, 120, 4, b.each)).toEqual(want);
        expect(pool.jobs).toBeGreaterThan(jobs);
        const now = b.sim.ecs.components.all.flatMap((c) => c.fieldNames.map((f) => c.fields[f]!));
        for (let i = 0; i < fields.length; i++) expect(now[i]).toBe(fields[i]);
      } finally {
        await pool.close();
      }
    });
  }
});
