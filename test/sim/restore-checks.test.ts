/**
 * A restore checks every value it is given before using it: one bad value at a time, in each part of a
 * snapshot, is a FormatError naming its path, and the simulation is left exactly as it was.
 */
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/format-error.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { demoButtons } from '../../src/sim/demo-input.js';
import type { Simulation, SimSnapshot } from '../../src/sim/simulation.js';
import { loadWorldFile } from '../../src/node/world-files.js';
import { defaultPineyTables } from '../../src/node/assets.js';
import { loadPineyWorld } from '../../src/worlds/piney/collision-world.js';
import type { CollisionWorld } from '../../src/worlds/world.js';
import { demoPath } from '../systems/demo-worlds.js';

// Snapshots are edited as plain data here, whatever their declared types.
type Snap = Record<string, any>;
type Case = [string, (s: Snap) => void, RegExp];

function running(world: CollisionWorld, frames: number, agents = 6): Simulation {
  const sim = simulationFromSettings(world, defaultSettingsFor(world, { agents, capacity: 16 }));
  for (let f = 1; f <= frames; f++) sim.step(demoButtons(f));
  return sim;
}

function body(s: Snap, name: string): any {
  return s.scheduler.tasks.find((t: { name: string }) => t.name === name)!.body;
}

function checkAll(sim: Simulation, cases: Case[]): void {
  const good = sim.save();
  const hash = sim.hashHex();
  for (const [what, edit, message] of cases) {
    const s = structuredClone(good) as Snap;
    edit(s);
    let e: unknown = null;
    try {
      sim.restore(s as SimSnapshot);
    } catch (x) {
      e = x;
    }
    expect(e, what).toBeInstanceOf(FormatError);
    expect((e as Error).message, what).toMatch(message);
    expect(sim.hashHex(), `${what}: the simulation is unchanged`).toBe(hash);
  }
  // The good snapshot itself restores.
  sim.restore(good);
  expect(sim.hashHex()).toBe(hash);
}

describe('restore checks', () => {
  it('the snapshot, the RNGs, the entities, the scheduler and the built-in systems', () => {
    const sim = running(loadWorldFile(demoPath('rugrats')).world, 40);
    const maxId = sim.ecs.maxId;
    checkAll(sim, [
      ['an extra key', (s) => void (s['extra'] = 1), /^snapshot: snapshot: expected the keys .*unexpected "extra"/],
      ['the player out of range', (s) => void (s.player = 16), /snapshot\.player: expected an integer in 0\.\.15, got 16/],
      ['world state for a world with none', (s) => void (s.world = { swaps: [] }), /snapshot\.world: expected null/],
      ['a fieldrand seed that is not a u32', (s) => void (s.rng.fieldrand.seed = -1), /rng\.fieldrand\.seed: expected an integer in 0\.\.4294967295, got -1/],
      // Found by a 1,000,000-case fuzz run (snapshot-restore, seed 1201, cases 9881 and 110111): reading a
      // field of a null or missing part threw a TypeError instead of naming the path.
      ['a null scheduler', (s) => void (s.scheduler = null), /snapshot\.scheduler: expected an object or an array \(to read frame\), got null/],
      ['an undefined scheduler', (s) => void (s.scheduler = undefined), /snapshot\.scheduler: expected an object or an array \(to read frame\), got undefined/],
      ['a scheduler that is a number', (s) => void (s.scheduler = 7), /snapshot\.scheduler: expected an object or an array \(to read frame\), got 7/],
      ['ccRand index past its words', (s) => void (s.rng.ccrand.mti = 700), /rng\.ccrand\.mti: expected an integer in 0\.\.624, got 700/],
      ['ccRand words short', (s) => void s.rng.ccrand.mt.pop(), /rng\.ccrand\.mt: expected 624 elements, got 623/],
      ['two streams of one name', (s) => void s.rng.streams.streams.push(structuredClone(s.rng.streams.streams[0])), /rng\.streams\.streams\[\d+\]\.name: a second stream named/],
      ['an ARC4 state that is not a permutation', (s) => void (s.rng.streams.streams[0].state.S[5] = s.rng.streams.streams[0].state.S[6]), /rng\.streams\.streams\[0\]\.state\.S\[\d+\]: \d+ appears twice/],
      ['another capacity', (s) => void (s.ecs.capacity = 32), /ecs\.capacity: 32 differs from this world's capacity 16/],
      ['maxId past the capacity', (s) => void (s.ecs.maxId = 16), /ecs\.maxId: expected an integer in 0\.\.15/],
      ['an index that is not a permutation', (s) => void (s.ecs.dense[1] = s.ecs.dense[0]), /ecs\.dense\[1\]: the index must be a permutation/],
      ['unknown component bits', (s) => void (s.ecs.membership[1] |= 1 << 30), /ecs\.membership\[1\]: entity 1 has component bits 0x40000000/],
      ['a query listing an entity twice', (s) => void (s.ecs.queries[0].entities[1] = s.ecs.queries[0].entities[0]), /ecs\.queries\[0\]\.entities\[1\]: entity \d+ does not belong in query/],
      ['a component field of the wrong type', (s) => void (s.ecs.fields[0].values = new Float32Array(maxId + 1)), /ecs\.fields\[0\] \(Position\.x\)\.values: expected a Float64Array, got a Float32Array/],
      ['a draw-count record of 4 numbers', (s) => void (s.scheduler.history = new Float64Array(4)), /scheduler\.history: expected a Float64Array of 2 elements, got 4/],
      ['two tasks of one id', (s) => void (s.scheduler.tasks[1].id = s.scheduler.tasks[0].id), /scheduler\.tasks\[1\] \(wander\)\.id: a second task with id 1/],
      ['tasks out of run order', (s) => void s.scheduler.tasks.reverse(), /not in run order/],
      ['5,000 tasks', (s) => void (s.scheduler.tasks = Array.from({ length: 5000 }, () => s.scheduler.tasks[0])), /scheduler\.tasks: expected 0\.\.4096 elements, got 5000/],
      ['a task id past the next id', (s) => void (s.scheduler.tasks[8].id = s.scheduler.nextId), /scheduler\.tasks\[8\] \(recording\)\.id: expected an integer in 1\.\./],
      ['state for a task that keeps none', (s) => void (s.scheduler.tasks[0].body = { x: 1 }), /scheduler\.tasks\[0\]\.body: task input keeps no state/],
      ['the LOS matrix size 40', (s) => void (body(s, 'line-of-sight').n = 40), /\(line-of-sight, id \d+\)\.body: state\.n: expected an integer in 0\.\.32, got 40/],
      ['the LOS matrix size 1e15', (s) => void (body(s, 'line-of-sight').n = 1e15), /state\.n: expected an integer in 0\.\.32, got 1000000000000000/],
      ['a LOS bit past n × n', (s) => void ((body(s, 'line-of-sight').n = 2), body(s, 'line-of-sight').bits.fill(0), (body(s, 'line-of-sight').bits[0] = 1 << 5)), /state\.bits: bit 5 is set, past the 2 × 2 matrix/],
      ['a LOS id of no entity', (s) => void (body(s, 'line-of-sight').ids[0] = 99), /state\.ids\[0\]: expected an integer in 1\.\.15, got 99/],
      ['controller state longer than the entities', (s) => void (body(s, 'controller').behaviour = new Uint8Array(maxId + 9)), /\(controller, id \d+\)\.body: state\.behaviour: expected a Uint8Array of \d+ elements/],
      ['a behaviour that is not one', (s) => void (body(s, 'controller').behaviour[1] = 7), /state\.behaviour\[1\]: expected an integer in 0\.\.3, got 7/],
      ['a fall speed that is NaN', (s) => void (s.scheduler.tasks.find((t: { name: string }) => t.name === 'gravity').body[1] = NaN), /\(gravity, id \d+\)\.body: state\[1\]: expected a finite number, got NaN/],
      ['an exit flag of 2', (s) => void (s.scheduler.tasks.find((t: { name: string }) => t.name === 'triggers').body[1] = 2), /\(triggers, id \d+\)\.body: state\[1\]: expected an integer in 0\.\.1, got 2/],
      ['a recording frame that is not one', (s) => void (s.scheduler.tasks.find((t: { name: string }) => t.name === 'recording').body = -3), /\(recording, id \d+\)\.body: state: expected an integer in 0\.\./],
    ]);
  });

  it('a Llama world keeps its swaps 0 or 1, one per swap', () => {
    const world = loadWorldFile(demoPath('llama')).world as CollisionWorld & { swapCount: number };
    const sim = running(world, 10);
    checkAll(sim, [
      ['a swap of 2', (s) => void (s.world.swaps[0] = world.swapCount ? 2 : s.world.swaps.push(2)), world.swapCount ? /world: state\.swaps\[0\]: expected an integer in 0\.\.1, got 2/ : /world: state\.swaps: expected 0 elements, got 1/],
      ['a swap missing', (s) => void (s.world = {}), /world: state: expected the keys swaps; missing swaps/],
    ]);
  });

  it('the Piney field tasks: constants of the field, ranges, sparks, the camera walk, puffs and the frame list', () => {
    const field = (type: number, weather: number) =>
      loadPineyWorld(new TextEncoder().encode(JSON.stringify({ format: 'retrosim-piney-field', name: 't', seed: 1420855 + type, type, weather, ground: 1, object: 1, event: 0, protect: false })), 't', defaultPineyTables());
    const snowy = running(field(5, 5), 60, 2);
    const disp = (s: Snap) => body(s, 'ccThFieldDisp');
    checkAll(snowy, [
      ['another weather', (s) => void (disp(s).state.weather.weather = 2), /save\.state\.weather: differs from this field's, which never changes during a run/],
      ['another server', (s) => void (disp(s).state.server = 7), /save\.state\.server: differs from this field's/],
      ['more snowflakes', (s) => void (disp(s).state.snow.count = 300), /save\.state\.snow\.count: differs from this field's/],
      ['a snowflake array short', (s) => void (disp(s).state.snow.pos = disp(s).state.snow.pos.slice(1)), /save\.state\.snow\.pos: expected a Uint32Array of 800 elements/],
      ['a float that is not a bit pattern', (s) => void (disp(s).state.fireflies[0].pos[0] = 0.5), /save\.state\.fireflies\[0\]\.pos\[0\]: expected an integer in 0\.\.4294967295, got 0\.5/],
      ['a firefly pattern of 100', (s) => void (disp(s).state.fireflies[0].pattern = 100), /fireflies\[0\]\.pattern: expected an integer in 0\.\.99, got 100/],
      ['a spline key past its keys', (s) => void (disp(s).state.fireflies[0].splines[1].key = 5), /fireflies\[0\]\.splines\[1\]\.key: expected an integer in 0\.\.3, got 5/],
      ['a spark count that is not the sparks\'', (s) => void (disp(s).state.fireflies[0].count = 1), /fireflies\[0\]\.count: 1 sparks counted, 3 present/],
      ['a spark with sparks of its own', (s) => void (disp(s).state.fireflies[0].sparks[0].sparks[0] = structuredClone(disp(s).state.fireflies[0].sparks[1])), /sparks\[0\]\.count|sparks\[0\]\.sparks\[0\]: expected null/],
      ['a spark of the wrong kind', (s) => void (disp(s).state.fireflies[0].sparks[0].kind = 1), /fireflies\[0\]\.sparks\[0\]\.kind: expected kind 0/],
      ['a walk outside the field', (s) => void (disp(s).view.x = 0x47800000), /save\.view: view\.x: 0x47800000 is not a float in 0\.\.48000/],
      ['a walk heading past π', (s) => void (disp(s).view.heading = 0x40800000), /view\.heading: 0x40800000 is not a float in −π\.\.π/],
      ['a puff that never dies', (s) => void disp(s).puffLife.push(1e9), /save\.puffLife\[\d+\]: expected an integer in 1\.\.65535/],
      ['a list of a later frame', (s) => void (disp(s).opsFrame = 61), /save\.opsFrame: expected an integer in -1\.\.60, got 61/],
      ['more slices than frames', (s) => void (disp(s).slice = 61), /save\.slice: expected an integer in 0\.\.60, got 61/],
      ['an operation of no kind', (s) => void (disp(s).ops.words[0] = 0), /save\.ops\.words\[0\]: operation 0 has kind 0/],
      ['the steam count past 7', (s) => void (disp(s).statics.steamNum = 8), /save\.statics\.steamNum: expected an integer in 0\.\.7, got 8/],
    ]);
    const stormy = running(field(7, 6), 60, 2);
    checkAll(stormy, [
      ['a bolt past the four', (s) => void (disp(s).state.thunder.index = 4), /save\.state\.thunder\.index: expected an integer in 0\.\.3, got 4/],
      ['a rain pattern of 20', (s) => void (disp(s).state.rain.pattern[3] = 20), /save\.state\.rain\.pattern\[3\]: expected an integer in 0\.\.19, got 20/],
    ]);
  });
});
