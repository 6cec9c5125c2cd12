/**
 * Scenarios, systems and components of a user's own, on the public API: declarations are checked, parameters
 * resolved and recorded, declared state hashed, saved and restored (and a hostile restore refused), and a
 * system that is not deterministic is named by the synctest.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SYSTEMS,
  ParamError,
  ReplayRecorder,
  ScenarioError,
  SyncTest,
  createSimulation,
  defineComponent,
  defineScenario,
  defineSystem,
  loadScenarioFile,
  readReplay,
  scenarioIdentity,
  verifyReplay,
  wanderScenario,
  pineyFieldScenario,
  worldIdentity,
  type ScenarioDef,
} from '../../src/index.js';
import { FlatWorld } from '../sim/flat-world.js';
import { runCli } from '../cli/run-cli.js';
import { FormatError } from '../../src/binary/format-error.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-scenarios-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const Counter = defineComponent('Counter', { ticks: 'u32', last: 'f64' });

/** A system with declared state: ticks every Counter entity and keeps a running sum. */
const ticker = defineSystem({
  name: 'ticker',
  priority: 60,
  create(host) {
    const c = host.ecs.store(Counter);
    const q = host.ecs.defineQuery('counted', [c]);
    const sum = new Float64Array(1);
    const step = host.params['step'] as number;
    return {
      state: { sum },
      run(ctx) {
        for (const e of ctx.ecs.entities(q)) {
          c.ticks[e]! += 1;
          c.last[e] = ctx.frame * step;
          sum[0]! += step;
        }
      },
    };
  },
});

const counting: ScenarioDef = defineScenario({
  name: 'counting',
  version: '2.1.0',
  description: 'a test scenario',
  components: [Counter],
  params: { step: { type: 'number', default: 0.5, min: 0, max: 10 }, label: { type: 'enum', default: 'a', values: ['a', 'b'] } },
  systems: [...DEFAULT_SYSTEMS, ticker],
  place(sim) {
    sim.spawnPlayer();
    sim.spawnWanderers(sim.settings.agents);
    const c = sim.ecs.store(Counter);
    for (let e = 1; e <= sim.ecs.maxId; e++) sim.ecs.add(e, c);
  },
});

const world = () => new FlatWorld({ boxes: [] });
const id = worldIdentity(world(), new Uint8Array([1, 2, 3]), 'file:flat');
const opened = () => ({ world: world(), identity: id, bytes: new Uint8Array([1, 2, 3]) });

describe('declarations', () => {
  it('defineScenario refuses what cannot work, naming the scenario and the part', () => {
    const base = { name: 'ok', version: '1', description: '', systems: [ticker] };
    expect(() => defineScenario({ ...base, name: 'Bad Name' })).toThrow(ScenarioError);
    expect(() => defineScenario({ ...base, version: '' })).toThrow(/version/);
    expect(() => defineScenario({ ...base, systems: [ticker, ticker] })).toThrow(/two systems are named ticker/);
    expect(() => defineScenario({ ...base, components: [Counter, Counter] })).toThrow(/two components are named Counter/);
    expect(() => defineScenario({ ...base, worldKinds: ['quake' as never] })).toThrow(/unknown world kind/);
    expect(() => defineScenario({ ...base, params: { n: { type: 'int', default: 99, max: 10 } } })).toThrow(/default of n/);
    expect(() => defineSystem({ name: 'x', priority: 1.5, create: () => () => {} })).toThrow(/priority/);
    expect(() => defineComponent('Pos', { x: 'f65' as never })).toThrow(/type "f65"/);
    expect(() => defineComponent('Pos', { name: 'f64' })).toThrow(/not allowed/);
    expect(Object.isFrozen(defineScenario(base))).toBe(true);
  });

  it('the built-in scenarios are made with the same defineScenario', () => {
    for (const s of [wanderScenario, pineyFieldScenario]) {
      expect(Object.isFrozen(s)).toBe(true);
      expect(defineScenario(s)).toEqual(s);
      expect(scenarioIdentity(s).source).toBe(`builtin:${s.name}`);
    }
    expect(scenarioIdentity(counting).source).toBe('inline');
  });

  it('parameters: defaults filled in declaration order, bad ones refused by name', () => {
    const sim = createSimulation(world(), { scenario: counting, agents: 2, params: { label: 'b' } });
    expect(sim.settings.params).toEqual({ step: 0.5, label: 'b' });
    expect(Object.keys(sim.settings.params)).toEqual(['step', 'label']);
    expect(() => createSimulation(world(), { scenario: counting, params: { steps: 1 } })).toThrow(ParamError);
    expect(() => createSimulation(world(), { scenario: counting, params: { steps: 1 } })).toThrow(/no parameter "steps" \(its parameters: step, label\)/);
    expect(() => createSimulation(world(), { scenario: counting, params: { step: 11 } })).toThrow(/0\.\.10/);
    expect(() => createSimulation(world(), { scenario: counting, params: { label: 'c' } })).toThrow(/one of a, b/);
  });

  it('a component the simulation was not made with is refused by name', () => {
    const sim = createSimulation(world(), { agents: 1 });
    expect(() => sim.store(Counter)).toThrow(/component Counter is not part of this simulation/);
  });
});

describe('a scenario of your own, recorded and verified', () => {
  it('its components are hash sections; its replay records name, version, hash and params and verifies', () => {
    const sim = createSimulation(world(), { scenario: counting, agents: 3, params: { step: 2 } });
    expect(sim.sectionNames()).toContain('Counter');
    const rec = new ReplayRecorder(sim, id, 16);
    for (let f = 1; f <= 50; f++) rec.step(f & 3);
    const bytes = rec.finish();
    const rp = readReplay(bytes);
    expect(rp.header.scenario).toEqual(scenarioIdentity(counting));
    expect(rp.header.settings.params).toEqual({ step: 2, label: 'a' });
    const c = sim.store(Counter);
    expect(c.ticks[1]).toBe(50);
    const v = verifyReplay(bytes, { world: opened(), scenario: counting });
    expect(v.ok).toBe(true);
    expect(v.finalHash).toBe(sim.hashHex());
    // Another definition under the same name (a changed shape) is refused up front.
    const other = defineScenario({ ...counting, systems: [...DEFAULT_SYSTEMS] });
    expect(() => verifyReplay(bytes, { world: opened(), scenario: other })).toThrow(/changed since the replay was recorded/);
    // Without the definition, a scenario that is not built in cannot be rebuilt: the error says what to give.
    expect(() => verifyReplay(bytes, { world: opened() })).toThrow(/not built in: give its module/);
  });

  it('declared state is in the hash and survives a snapshot; a restore of the wrong shape is refused, state unchanged', () => {
    const a = createSimulation(world(), { scenario: counting, agents: 2 });
    for (let f = 0; f < 10; f++) a.step(0);
    const snap = a.save();
    const h = a.hashHex();
    const b = createSimulation(world(), { scenario: counting, agents: 2 });
    expect(b.hashHex()).not.toBe(h);
    b.restore(snap);
    expect(b.hashHex()).toBe(h);
    for (let f = 0; f < 5; f++) {
      a.step(1);
      b.step(1);
    }
    expect(b.hashHex()).toBe(a.hashHex());
    const task = (s: typeof snap) => s.scheduler.tasks.find((t) => t.name === 'ticker')!;
    const bad = [
      (s: typeof snap) => void (task(s).body = { sum: new Float64Array(2) }),
      (s: typeof snap) => void (task(s).body = { sum: new Float32Array(1) }),
      (s: typeof snap) => void (task(s).body = { total: new Float64Array(1) }),
      (s: typeof snap) => void (task(s).body = null),
    ];
    const before = b.hashHex();
    for (const mutate of bad) {
      const s = structuredClone(snap);
      mutate(s);
      expect(() => b.restore(s)).toThrow(/\(ticker, id \d+\)\.body: state/);
      expect(b.hashHex()).toBe(before);
    }
  });

  it('changing any declared state value changes the hash (property)', () => {
    const sim = createSimulation(world(), { scenario: counting, agents: 1 });
    for (let f = 0; f < 3; f++) sim.step(0);
    const snap = sim.save();
    const h = sim.hashHex();
    let runs = 0;
    fc.assert(
      fc.property(fc.double({ noNaN: true, min: -1e9, max: 1e9 }), (v) => {
        const s = structuredClone(snap);
        const body = s.scheduler.tasks.find((t) => t.name === 'ticker')!.body as { sum: Float64Array };
        fc.pre(!Object.is(v, body.sum[0]));
        body.sum[0] = v;
        sim.restore(s);
        runs++;
        return sim.hashHex() !== h;
      }),
      { numRuns: 200 },
    );
    expect(runs).toBeGreaterThan(150);
  });
});

describe('scenario modules', () => {
  const write = (name: string, text: string): string => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };

  it('a module that cannot be a scenario is a FormatError naming the file and why', async () => {
    await expect(loadScenarioFile(write('a.ts', 'export default 1'))).rejects.toThrow(/compile it to JavaScript/);
    await expect(loadScenarioFile(write('none.mjs', 'export const x = 1;'))).rejects.toThrow(/exports no scenario/);
    // Parsed before anything runs: a syntax error is found by the module graph, with its line.
    await expect(loadScenarioFile(write('syntax.mjs', 'export default {'))).rejects.toThrow(/syntax\.mjs: is not valid JavaScript: .*\(1:16\)/);
    await expect(loadScenarioFile(write('throws.mjs', 'throw new Error("boom");'))).rejects.toThrow(/failed to load: boom/);
    await expect(loadScenarioFile(write('badname.mjs', "export default { name: 'No', version: '1', description: '', systems: [] };"))).rejects.toThrow(FormatError);
    await expect(loadScenarioFile(join(tmp, 'missing.mjs'))).rejects.toThrow(/cannot be read \(ENOENT\)/);
  });

  it('the synctest names a system that is not deterministic', () => {
    const mod = write(
      'jitter.mjs',
      `import { DEFAULT_SYSTEMS, defineScenario, defineSystem } from 'retrosim';
// Taken before any step: the determinism guard replaces the global during a step, not a copy of it.
const random = Math.random;
const jitter = defineSystem({ name: 'jitter', priority: 50, create(host) {
  const v = host.ecs.components.Velocity;
  return () => { for (let e = 1; e <= host.ecs.maxId; e++) v.x[e] += random() * 1e-3; };
} });
export default defineScenario({ name: 'jitter', version: '1', description: 'not deterministic', systems: [...DEFAULT_SYSTEMS, jitter] });
`,
    );
    const r = runCli(['run', '--scenario', mod, '--world', 'assets/worlds/rugrats/demo.col', '--agents', '5', '--frames', '12', '--synctest', '3', '--no-replay', '--json']);
    expect(r.code).toBe(1);
    const s = JSON.parse(r.stdout) as { synctest: { failures: { culprit: string | null }[] } };
    expect(s.synctest.failures[0]!.culprit).toBe('jitter');
    // A deterministic module passes the same check.
    const ok = runCli(['run', '--scenario', 'examples/guards/guards.mjs', '--world', 'assets/worlds/rugrats/demo.col', '--agents', '5', '--frames', '12', '--synctest', '3', '--no-replay', '--json']);
    expect(ok.code).toBe(0);
  });

  it('a module with hidden state (a module-level counter) is named too', () => {
    const mod = write(
      'hidden.mjs',
      `import { DEFAULT_SYSTEMS, defineScenario, defineSystem } from 'retrosim';
let calls = 0;
const leaky = defineSystem({ name: 'leaky', priority: 47, create(host) {
  const h = host.ecs.components.Heading;
  return () => { calls++; for (let e = 1; e <= host.ecs.maxId; e++) h.angle[e] = (h.angle[e] + calls) & 0xffff; };
} });
export default defineScenario({ name: 'leaky', version: '1', description: 'keeps state outside the snapshot', systems: [...DEFAULT_SYSTEMS, leaky] });
`,
    );
    const r = runCli(['run', '--scenario', mod, '--world', 'assets/worlds/rugrats/demo.col', '--agents', '5', '--frames', '8', '--synctest', '2', '--no-replay']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/DESYNC at frame \d+, system leaky is not deterministic/);
  });

  it('SyncTest in the API agrees on a deterministic user scenario', () => {
    const sync = new SyncTest(createSimulation(world(), { scenario: counting, agents: 4 }), createSimulation(world(), { scenario: counting, agents: 4 }), 4);
    for (let f = 0; f < 30; f++) sync.step(f % 5);
    expect(sync.failures).toEqual([]);
    expect(sync.checkedFrames).toBeGreaterThan(20);
  });
});
