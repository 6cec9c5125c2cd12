/**
 * Kernel benchmarks: the scheduler's overhead (its step under the determinism guard, as a Simulation runs
 * the built-in systems; and with every check, as it runs a scenario's own) against a bare bitecs loop doing
 * the same work, the state hash, and replay verification of the default scenario.
 */
import { readFileSync } from 'node:fs';
import { addComponent, addEntity, commitRemovals, createWorld, registerQuery } from 'bitecs';
import { createComponents } from '../src/ecs/components.js';
import { EcsWorld } from '../src/ecs/ecs-world.js';
import { createEventBus } from '../src/ecs/events.js';
import { CcRand } from '../src/rng/ccrand.js';
import { FieldRand } from '../src/rng/fieldrand.js';
import { RandomStreams } from '../src/rng/streams.js';
import { readReplay } from '../src/replay/format.js';
import { Scheduler, type TaskBody, type TaskFunction } from '../src/ecs/scheduler.js';
import { moveBodies, movementSystem, newMoveScratch } from '../src/systems/movement.js';
import { BUTTON_MASK } from '../src/systems/input.js';
import { DEFAULT_WORLD } from '../src/worlds/builtin.js';
import { defaultSettingsFor, simulationFromSettings } from '../src/scenarios/builtin.js';
import { openBuiltinWorld } from '../src/node/open-world.js';
import { demoButtons } from '../src/sim/demo-input.js';
import { ReplayRecorder } from '../src/replay/recorder.js';
import { verifyReplay } from '../src/replay/verify.js';
import { Simulation } from '../src/sim/simulation.js';
import { enterGuard, leaveGuard } from '../src/sim/determinism-guard.js';
import { newMoveResult, type Body, type CollisionWorld, type MoveResult, type Vec3 } from '../src/worlds/world.js';
import { consume, medianMs, type Bench } from './harness.js';

const ENTITIES = 10_000;
/** Frames per timed sample: short samples, so that some of them run undisturbed on a busy machine. */
const FRAMES_PER_SAMPLE = 10;

/** An endless flat plane: `move` adds the delta. The cheapest honest world, so the loop overhead shows. */
const plane: CollisionWorld = {
  kind: 'rugrats',
  name: 'plane',
  bounds: { min: [-1e9, 0, -1e9], max: [1e9, 0, 1e9] },
  up: { axis: 1, sign: 1 },
  scale: 1,
  integer: false,
  spawnPoint: () => [0, 0, 0],
  sampleOpen: (u, v) => [u * 1000, 0, v * 1000],
  ground: () => ({ hasFloor: true, floor: 0, ceiling: NaN, material: 0, id: 0, status: 0 }),
  segment: () => ({ hit: false, fraction: 1, point: [0, 0, 0], normal: [0, 0, 0], id: -1, material: 0, what: '', status: 0 }),
  segmentFraction: () => -1,
  move(_b: Body, from: Vec3, d: Vec3, out: MoveResult = newMoveResult()): MoveResult {
    out.position[0] = from[0] + d[0];
    out.position[1] = from[1] + d[1];
    out.position[2] = from[2] + d[2];
    out.grounded = true;
    out.contacts.length = 0;
    return out;
  },
};

/**
 * A frame as a Simulation runs the built-in systems: the scheduler's step under the determinism guard (its
 * cost is part of the overhead), which refuses randomness, clocks and timers; the runtime's own tasks skip the
 * further checks (src/systems/runtime-code.ts). `everyCheck`: as a scenario's own system runs, with the
 * engine's maths, Date, process's clocks and the locale refused too.
 */
const builtinTask = { describe: () => 'a bench task', runtimeCodeOnly: true };
const ownTask = { describe: () => "a scenario's own bench task" };
function guardedStep(s: Scheduler, everyCheck = false): void {
  enterGuard(everyCheck ? ownTask : builtinTask);
  try {
    s.step();
  } finally {
    leaveGuard();
  }
}

function makeRng() {
  const ccrand = new CcRand();
  ccrand.init(0);
  return { fieldrand: new FieldRand(1), ccrand, streams: new RandomStreams('bench') };
}

/** Integrating velocity: the scheduler with one task over an EcsWorld vs a bare bitecs query loop. */
function integrateRatio(): Promise<{ bare: number; sched: number; checked: number }> {
  // Bare: bitecs world, the same typed arrays, a plain loop per frame.
  const c0 = createComponents(ENTITIES + 2);
  const w0 = createWorld();
  for (let i = 0; i < ENTITIES; i++) {
    const e = addEntity(w0);
    addComponent(w0, e, c0.Position);
    addComponent(w0, e, c0.Velocity);
    c0.Velocity.x[e] = 0.5;
    c0.Velocity.z[e] = 0.25;
  }
  // The best bare loop: the query registered once (bitecs' query() re-hashes its terms on every call), the
  // frame's work in a function of its own as the task's is, so both get the same optimisation.
  const q0 = registerQuery(w0, [c0.Position, c0.Velocity]);
  const frame = () => {
    commitRemovals(w0);
    const ents = q0.dense as number[];
    const px = c0.Position.x, pz = c0.Position.z, vx = c0.Velocity.x, vz = c0.Velocity.z;
    for (let i = 0; i < ents.length; i++) {
      const e = ents[i]!;
      px[e]! += vx[e]!;
      pz[e]! += vz[e]!;
    }
  };
  const bare = () => {
    for (let f = 0; f < FRAMES_PER_SAMPLE; f++) frame();
    consume(c0.Position.x[1]!);
  };
  // Scheduler: the same work as a task, through EcsWorld's defined query.
  const ecs = new EcsWorld(ENTITIES + 2);
  const c1 = ecs.components;
  for (let i = 0; i < ENTITIES; i++) {
    const e = ecs.spawn([c1.Position, c1.Velocity]);
    c1.Velocity.x[e] = 0.5;
    c1.Velocity.z[e] = 0.25;
  }
  const q = ecs.defineQuery('integrate', [c1.Position, c1.Velocity]);
  const s = new Scheduler(makeRng(), createEventBus());
  s.addTask('integrate', 50, () => {
    const ents = ecs.entities(q);
    const px = c1.Position.x, pz = c1.Position.z, vx = c1.Velocity.x, vz = c1.Velocity.z;
    for (let i = 0; i < ents.length; i++) {
      const e = ents[i]!;
      px[e]! += vx[e]!;
      pz[e]! += vz[e]!;
    }
  });
  const sched = () => {
    for (let f = 0; f < FRAMES_PER_SAMPLE; f++) guardedStep(s);
    consume(c1.Position.x[1]!);
  };
  const checked = () => {
    for (let f = 0; f < FRAMES_PER_SAMPLE; f++) guardedStep(s, true);
    consume(c1.Position.x[1]!);
  };
  return alternate(bare, sched, checked);
}

/** The real movement system (world.move per body) under the scheduler vs the same calls in a bare loop. */
function movementRatio(): Promise<{ bare: number; sched: number; checked: number }> {
  const c0 = createComponents(ENTITIES + 2);
  const w0 = createWorld();
  for (let i = 0; i < ENTITIES; i++) {
    const e = addEntity(w0);
    for (const c of [c0.Position, c0.Velocity, c0.BodySize, c0.Motion]) addComponent(w0, e, c);
    c0.Velocity.x[e] = 0.5;
    c0.BodySize.radius[e] = 0.3;
  }
  const q0 = registerQuery(w0, [c0.Position, c0.Velocity, c0.BodySize, c0.Motion]);
  const scratch = newMoveScratch();
  const frame = () => {
    commitRemovals(w0);
    const ents = q0.dense as number[];
    moveBodies(ents, ents.length, plane, c0, scratch);
  };
  const bare = () => {
    for (let f = 0; f < FRAMES_PER_SAMPLE; f++) frame();
    consume(c0.Position.x[1]!);
  };
  const ecs = new EcsWorld(ENTITIES + 2);
  const c1 = ecs.components;
  for (let i = 0; i < ENTITIES; i++) {
    const e = ecs.spawn([c1.Position, c1.Velocity, c1.BodySize, c1.Motion]);
    c1.Velocity.x[e] = 0.5;
    c1.BodySize.radius[e] = 0.3;
  }
  const host = { ecs, world: plane, player: 0, input: 0, params: {} };
  const s = new Scheduler(makeRng(), createEventBus(), { ...host });
  s.addTask(movementSystem.name, movementSystem.priority, movementSystem.create(host) as TaskBody | TaskFunction);
  const sched = () => {
    for (let f = 0; f < FRAMES_PER_SAMPLE; f++) guardedStep(s);
    consume(c1.Position.x[1]!);
  };
  return alternate(bare, sched);
}

/**
 * The fastest of many alternating runs of each. Both do the same work, so the difference is overhead; the
 * minimum is the estimate least disturbed by other processes (this machine is shared, often at load > 4).
 * A warm-up, then a pause, lets V8's background compiler finish optimising both loops before timing (on a
 * loaded machine the optimised code can otherwise arrive in the middle of the measurement, for one side only).
 */
async function alternate(a: () => void, b: () => void, c?: () => void): Promise<{ bare: number; sched: number; checked: number }> {
  for (let w = 0; w < 3; w++) {
    for (let i = 0; i < 40; i++) {
      a();
      b();
      c?.();
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  let ta = Infinity;
  let tb = Infinity;
  let tc = Infinity;
  for (let round = 0; round < 150; round++) {
    let t0 = performance.now();
    a();
    ta = Math.min(ta, performance.now() - t0);
    t0 = performance.now();
    b();
    tb = Math.min(tb, performance.now() - t0);
    if (c) {
      t0 = performance.now();
      c();
      tc = Math.min(tc, performance.now() - t0);
    }
  }
  return { bare: ta, sched: tb, checked: tc };
}

export const benches: Bench[] = [
  {
    name: 'kernel scheduler overhead',
    async run() {
      const i = await integrateRatio();
      const m = await movementRatio();
      const fps = (ms: number) => (FRAMES_PER_SAMPLE / ms) * 1000;
      return [
        { name: 'integrate 10k: bare bitecs loop', value: fps(i.bare), unit: 'frames/s' },
        { name: 'integrate 10k: scheduler task', value: fps(i.sched), unit: 'frames/s' },
        { name: 'integrate 10k: scheduler / bare time', value: i.sched / i.bare, unit: 'ratio', goal: 1.25, better: 'lower' },
        // A scenario's own task: the guard's further checks too (1.5 to 3 µs a step)
        { name: 'integrate 10k: every check / bare time', value: i.checked / i.bare, unit: 'ratio' },
        { name: 'movement 10k: bare loop calling world.move', value: fps(m.bare), unit: 'frames/s' },
        { name: 'movement 10k: scheduler + movement system', value: fps(m.sched), unit: 'frames/s' },
        { name: 'movement 10k: scheduler / bare time', value: m.sched / m.bare, unit: 'ratio', goal: 1.25, better: 'lower' },
      ];
    },
  },
  {
    name: 'kernel default scenario',
    async run() {
      const opened = await openBuiltinWorld(DEFAULT_WORLD, (p) => new Uint8Array(readFileSync(p)));
      const settings = defaultSettingsFor(opened.world);
      const frames = 600;
      const sim = simulationFromSettings(opened.world, settings);
      const rec = new ReplayRecorder(sim, opened.identity);
      const t0 = performance.now();
      for (let f = 1; f <= frames; f++) rec.step(demoButtons(f));
      const recordMs = performance.now() - t0;
      const bytes = rec.finish();
      const rp = readReplay(bytes, BUTTON_MASK);
      const v = verifyReplay(rp, simulationFromSettings(opened.world, settings));
      if (!v.ok) throw new Error('default scenario replay did not verify');
      let hashes = 0;
      const hashMs = medianMs(() => {
        for (let k = 0; k < 100; k++) hashes += sim.hash().lo & 1;
      }, 5);
      consume(hashes);
      const note = `${settings.agents} agents, ${opened.identity.source}, ${frames} frames`;
      return [
        { name: 'default scenario: run + record', value: (frames / recordMs) * 1000, unit: 'frames/s', note },
        { name: 'default scenario: replay verification', value: v.framesPerSecond, unit: 'frames/s', note },
        { name: 'default scenario: state hash', value: (100 / hashMs) * 1000, unit: 'hashes/s', note: `${sim.ecs.aliveCount} entities` },
      ];
    },
  },
];
