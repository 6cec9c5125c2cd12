/**
 * Nondeterminism refused where it happens: a system (or a scheduler task) that calls Math.random, a clock
 * (Date.now, performance.now, Date(), new Date(), process.hrtime, ...), crypto's randomness, a timer, one of
 * the engine's own Math functions (Math.exp, ...) or the locale (Intl, toLocaleString) fails the step at once
 * with a ScenarioError naming it and the deterministic replacement, instead of recording a replay that fails
 * later. Every guarded global is the engine's own again after each step, after each refusal and for the
 * next simulation; outside a step nothing is refused; a step inside a step keeps the guard; a range kernel
 * on a system worker is refused too, named after its system; the CLI reports it as a scenario error.
 */
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defineScenario, ScenarioError, type ScenarioDef } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import { simulationFromSettings } from '../../src/scenarios/builtin.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { defineSystem, type SystemContext } from '../../src/systems/system.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { SystemPool } from '../../src/node/system-pool.js';
import type { RangeKernel } from '../../src/systems/range-kernel.js';
import { FlatWorld } from './flat-world.js';
import { findBun } from '../engines/bun.js';
import { buttonsFor, makeSim, testSettings } from './helpers.js';
import { repoRoot, runCli, PROCESS_TIMEOUT_MS } from '../cli/run-cli.js';
// @ts-expect-error a plain JS module (the workers import it by path)
import { everyRandomKernel, quietKernel, workerExpKernel, workerRandomKernel } from './fixtures/random-kernel.mjs';

const KERNEL_MODULE = fileURLToPath(new URL('./fixtures/random-kernel.mjs', import.meta.url));

const G = globalThis as Record<string, any>;

/** The engine's Math functions the guard refuses (ECMAScript's implementation-approximated ones). */
const ENGINE_MATHS = ['exp', 'expm1', 'log', 'log1p', 'log2', 'log10', 'pow', 'cbrt', 'hypot', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh'] as const;
/** The Math functions that stay allowed (exact by the standard). */
const EXACT_MATHS = ['sqrt', 'abs', 'floor', 'ceil', 'round', 'trunc', 'sign', 'fround', 'imul', 'clz32', 'min', 'max'] as const;
const TYPED_ARRAY_PROTO = Object.getPrototypeOf(Uint8Array.prototype) as object;
const LOCALE_PROTOS: [string, object, string[]][] = [
  ['Number.prototype', Number.prototype, ['toLocaleString']],
  ['BigInt.prototype', BigInt.prototype, ['toLocaleString']],
  ['Array.prototype', Array.prototype, ['toLocaleString']],
  ['TypedArray.prototype', TYPED_ARRAY_PROTO, ['toLocaleString']],
  ['Date.prototype', Date.prototype, ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']],
  ['String.prototype', String.prototype, ['localeCompare', 'toLocaleUpperCase', 'toLocaleLowerCase']],
];

/** Every guarded property, by where it lives: each object on the way to it with its own property descriptors. */
function globalsNow(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const chain = (name: string, o: unknown, keys: readonly string[]) => {
    for (let i = 0; o !== null && (typeof o === 'object' || typeof o === 'function'); i++, o = Object.getPrototypeOf(o)) {
      for (const k of keys) {
        const d = Object.getOwnPropertyDescriptor(o, k);
        if (d) out[`${name}[${i}].${k}`] = d;
      }
      out[`${name}[${i}] own keys`] = Reflect.ownKeys(o as object).length;
    }
  };
  chain('Math', Math, ['random', ...ENGINE_MATHS, ...EXACT_MATHS]);
  chain('Date', Date, ['now']);
  chain('performance', G.performance, ['now']);
  chain('crypto', G.crypto, ['getRandomValues', 'randomUUID']);
  chain('process', G.process, ['hrtime', 'uptime', 'cpuUsage', 'resourceUsage']);
  chain('Intl', G.Intl, Object.getOwnPropertyNames(G.Intl));
  for (const [name, proto, keys] of LOCALE_PROTOS) chain(name, proto, keys);
  for (const k of ['Date', 'Intl', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'Math', 'performance', 'crypto', 'process']) out[`globalThis.${k}`] = Object.getOwnPropertyDescriptor(globalThis, k);
  return out;
}

const ORIGINAL = globalsNow();
const ORIGINAL_FUNCTIONS = {
  random: Math.random,
  now: Date.now,
  Date: G.Date,
  Intl: G.Intl,
  perfNow: G.performance.now,
  getRandomValues: G.crypto.getRandomValues,
  randomUUID: G.crypto.randomUUID,
  setTimeout: G.setTimeout,
  setInterval: G.setInterval,
  setImmediate: G.setImmediate,
  queueMicrotask: G.queueMicrotask,
  hrtime: G.process.hrtime,
  exp: Math.exp,
};

/** Every guarded global is the one from before any test (same function, same descriptor, no own property added). */
function expectOriginalGlobals(): void {
  expect(Math.random).toBe(ORIGINAL_FUNCTIONS.random);
  expect(Date.now).toBe(ORIGINAL_FUNCTIONS.now);
  expect(G.Date).toBe(ORIGINAL_FUNCTIONS.Date);
  expect(G.Intl).toBe(ORIGINAL_FUNCTIONS.Intl);
  expect(G.performance.now).toBe(ORIGINAL_FUNCTIONS.perfNow);
  expect(G.crypto.getRandomValues).toBe(ORIGINAL_FUNCTIONS.getRandomValues);
  expect(G.crypto.randomUUID).toBe(ORIGINAL_FUNCTIONS.randomUUID);
  expect(G.setTimeout).toBe(ORIGINAL_FUNCTIONS.setTimeout);
  expect(G.setInterval).toBe(ORIGINAL_FUNCTIONS.setInterval);
  expect(G.setImmediate).toBe(ORIGINAL_FUNCTIONS.setImmediate);
  expect(G.queueMicrotask).toBe(ORIGINAL_FUNCTIONS.queueMicrotask);
  expect(G.process.hrtime).toBe(ORIGINAL_FUNCTIONS.hrtime);
  expect(Math.exp).toBe(ORIGINAL_FUNCTIONS.exp);
  expect(globalsNow()).toEqual(ORIGINAL);
}

const capitalised = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}`;
/** Arguments each engine Math function is called with in a culprit system. */
const MATH_ARGS: Record<(typeof ENGINE_MATHS)[number], number[]> = {
  exp: [0.5], expm1: [0.5], log: [2], log1p: [0.5], log2: [3], log10: [3], pow: [1.5, 2.5], cbrt: [3], hypot: [3, 4, 5], sin: [1], cos: [1], tan: [1],
  asin: [0.5], acos: [0.5], atan: [1], atan2: [1, 2], sinh: [1], cosh: [1], tanh: [1], asinh: [1], acosh: [2], atanh: [0.5],
};
const CLOCK = /ctx\.frame/;
const LOCALE = /depends on the machine's locale and the engine's locale data \(refused while systems run\): format outside the step/;

/** The calls refused, each with what its message must point to. */
const CALLS: { call: string; run: () => unknown; advice: RegExp }[] = [
  { call: 'Math.random()', run: () => Math.random(), advice: /ctx\.rng\.streams/ },
  { call: 'crypto.getRandomValues()', run: () => G.crypto.getRandomValues(new Uint8Array(4)), advice: /ctx\.rng\.streams/ },
  { call: 'crypto.randomUUID()', run: () => G.crypto.randomUUID(), advice: /ctx\.rng\.streams/ },
  { call: 'Date.now()', run: () => Date.now(), advice: CLOCK },
  { call: 'performance.now()', run: () => performance.now(), advice: CLOCK },
  { call: 'setTimeout()', run: () => clearTimeout(setTimeout(() => {}, 0)), advice: /later frame's run/ },
  { call: 'setInterval()', run: () => clearInterval(setInterval(() => {}, 1000)), advice: /later frame's run/ },
  { call: 'setImmediate()', run: () => clearImmediate(setImmediate(() => {})), advice: /later frame's run/ },
  { call: 'queueMicrotask()', run: () => queueMicrotask(() => {}), advice: /later frame's run/ },
  // the wall clock and the time zone through Date, and process's clocks
  { call: 'new Date()', run: () => new Date(), advice: /ctx\.frame .*new Date\(ms\) of a number the system computed is allowed/ },
  { call: 'Date()', run: () => (Date as unknown as () => string)(), advice: CLOCK },
  { call: 'new Date(year, month, ...)', run: () => new Date(2024, 0, 1), advice: /reads the machine's time zone .*Date\.UTC/ },
  { call: 'process.hrtime()', run: () => process.hrtime(), advice: CLOCK },
  { call: 'process.hrtime.bigint()', run: () => process.hrtime.bigint(), advice: CLOCK },
  { call: 'process.uptime()', run: () => process.uptime(), advice: CLOCK },
  { call: 'process.cpuUsage()', run: () => process.cpuUsage(), advice: CLOCK },
  { call: 'process.resourceUsage()', run: () => process.resourceUsage(), advice: CLOCK },
  // the engine's maths
  ...ENGINE_MATHS.map((name) => ({
    call: `Math.${name}()`,
    run: () => (Math[name] as (...a: number[]) => number)(...MATH_ARGS[name]),
    advice: new RegExp(`whose last bits ECMAScript leaves to each engine, so a replay recorded in one can diverge in another \\(refused while systems run\\): use det${capitalised(name)} from retrosim instead`),
  })),
  // the locale
  { call: 'Intl.NumberFormat', run: () => new Intl.NumberFormat('en').format(1.5), advice: LOCALE },
  { call: 'Intl.DateTimeFormat', run: () => new Intl.DateTimeFormat('en').format(0), advice: LOCALE },
  { call: 'Intl.Collator', run: () => new Intl.Collator('en').compare('a', 'b'), advice: LOCALE },
  { call: 'Number.prototype.toLocaleString()', run: () => (1234.5).toLocaleString(), advice: LOCALE },
  { call: 'BigInt.prototype.toLocaleString()', run: () => (12n).toLocaleString(), advice: LOCALE },
  { call: 'Array.prototype.toLocaleString()', run: () => [1, 2].toLocaleString(), advice: LOCALE },
  { call: 'TypedArray.prototype.toLocaleString()', run: () => new Uint8Array(2).toLocaleString(), advice: LOCALE },
  { call: 'Date.prototype.toLocaleString()', run: () => new Date(0).toLocaleString(), advice: LOCALE },
  { call: 'Date.prototype.toLocaleDateString()', run: () => new Date(0).toLocaleDateString(), advice: LOCALE },
  { call: 'Date.prototype.toLocaleTimeString()', run: () => new Date(0).toLocaleTimeString(), advice: LOCALE },
  { call: 'String.prototype.localeCompare()', run: () => 'a'.localeCompare('b'), advice: LOCALE },
  { call: 'String.prototype.toLocaleUpperCase()', run: () => 'i'.toLocaleUpperCase(), advice: LOCALE },
  { call: 'String.prototype.toLocaleLowerCase()', run: () => 'I'.toLocaleLowerCase(), advice: LOCALE },
];

/**
 * The default systems plus `culprit` (a system, or with `asTask` a scheduler task added in `setup`), which
 * makes `call` in frame `at`; with `swallow` it catches the refusal and carries on.
 */
function culpritScenario(call: () => unknown, at: number, opts: { asTask?: boolean; swallow?: boolean } = {}): ScenarioDef {
  const body = (ctx: { frame: number }) => {
    if (ctx.frame !== at) return;
    if (!opts.swallow) call();
    else
      try {
        call();
      } catch {
        // carries on as if nothing happened
      }
  };
  const culprit = defineSystem({ name: 'culprit', priority: 70, create: () => (ctx: SystemContext) => body(ctx) });
  return defineScenario({
    name: 'culprit',
    version: '1',
    description: 'a system that reaches for nondeterminism',
    systems: opts.asTask ? DEFAULT_SYSTEMS : [...DEFAULT_SYSTEMS, culprit],
    ...(opts.asTask ? { setup: (sim) => void sim.scheduler.addTask('culprit-task', 90, (ctx) => body(ctx)) } : {}),
  });
}

function simOf(scenario: ScenarioDef): Simulation {
  return simulationFromSettings(new FlatWorld(), testSettings({ agents: 8, scenario: scenario.name }), scenario);
}

/** Steps until a step throws (returning the frame and the error) or `frames` steps pass. */
function runUntilError(sim: Simulation, frames: number): { frame: number; error: unknown } | null {
  for (let f = 1; f <= frames; f++) {
    try {
      sim.step(buttonsFor(f));
    } catch (e) {
      return { frame: f, error: e };
    }
    expectOriginalGlobals();
  }
  return null;
}

/** As runUntilError, without checking the globals between steps (a test has changed one on purpose). */
function runUntilErrorLoose(sim: Simulation, frames: number): { frame: number; error: unknown } | null {
  for (let f = 1; f <= frames; f++) {
    try {
      sim.step(buttonsFor(f));
    } catch (e) {
      return { frame: f, error: e };
    }
  }
  return null;
}

/** The hash of a clean simulation after 30 frames, for "another simulation steps fine". */
function cleanRun(): string {
  const sim = makeSim({ agents: 12 });
  for (let f = 1; f <= 30; f++) sim.step(buttonsFor(f));
  return sim.hashHex();
}
const CLEAN = cleanRun();

describe('nondeterminism refused while systems run', () => {
  it('nothing is refused and every global is the original between steps of a clean run', () => {
    const sim = makeSim({ agents: 12 });
    for (let f = 1; f <= 30; f++) {
      sim.step(buttonsFor(f));
      expectOriginalGlobals();
      // Outside a step the program uses them as ever.
      expect(Math.random()).toBeLessThan(1);
      expect(Date.now()).toBeGreaterThan(0);
      expect(new Date().getTime()).toBeGreaterThan(0);
    }
    expect(sim.hashHex()).toBe(CLEAN);
  });

  for (const c of CALLS) {
    it(`${c.call} in a system fails the run at once naming the system; the globals are the originals after`, () => {
      const sim = simOf(culpritScenario(c.run, 4));
      const got = runUntilError(sim, 10);
      expect(got?.frame).toBe(4);
      expect(got!.error).toBeInstanceOf(ScenarioError);
      const m = (got!.error as Error).message;
      expect(m).toContain('system culprit (scenario culprit, frame 4)');
      expect(m).toContain(`called ${c.call}`);
      expect(m).toMatch(c.advice);
      expectOriginalGlobals();
      expect(cleanRun()).toBe(CLEAN);
    });
  }

  it('for any refused call, frame, system or setup task, caught by the system or not: the step of that frame fails naming it, and nothing stays changed (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: CALLS.length - 1 }), fc.integer({ min: 1, max: 12 }), fc.boolean(), fc.boolean(), (k, at, asTask, swallow) => {
        const c = CALLS[k]!;
        const sim = simOf(culpritScenario(c.run, at, { asTask, swallow }));
        const got = runUntilError(sim, 14);
        expect(got?.frame).toBe(at);
        expect(got!.error).toBeInstanceOf(ScenarioError);
        const m = (got!.error as Error).message;
        expect(m).toContain(`${asTask ? 'task culprit-task' : 'system culprit'} (scenario culprit, frame ${at}) called ${c.call}`);
        expect(m).toMatch(c.advice);
        expectOriginalGlobals();
        // Outside the step, the same call works.
        c.run();
      }),
      { numRuns: 60 },
    );
    expect(cleanRun()).toBe(CLEAN);
  });

  it('a step inside a step keeps the guard, names the innermost system, and puts everything back once', () => {
    const inner = simOf(culpritScenario(() => Date.now(), 2));
    const calls: string[] = [];
    const outerSystem = defineSystem({
      name: 'outer',
      priority: 70,
      create: () => (ctx: SystemContext) => {
        if (ctx.frame !== 1) return;
        const clean = makeSim({ agents: 4 });
        clean.step(0); // a clean nested step: the guard stays on after it
        try {
          Math.random();
        } catch (e) {
          calls.push((e as Error).message);
        }
        try {
          inner.step(0);
          inner.step(0);
        } catch (e) {
          calls.push((e as Error).message);
        }
      },
    });
    const outer = simulationFromSettings(new FlatWorld(), testSettings({ agents: 4, scenario: 'outer' }), defineScenario({ name: 'outer', version: '1', description: 'steps others', systems: [outerSystem] }));
    // The outer system caught both refusals: the step fails anyway, with the first.
    expect(() => outer.step(0)).toThrow(/system outer \(scenario outer, frame 1\) called Math\.random\(\)/);
    expect(calls).toHaveLength(2);
    expect(calls[0]).toContain('system outer (scenario outer, frame 1) called Math.random()');
    expect(calls[1]).toContain('system culprit (scenario culprit, frame 2) called Date.now()');
    expectOriginalGlobals();
    expect(cleanRun()).toBe(CLEAN);
  });

  it("the simulation's event listeners (the program's code) may use clocks and timers; the emitting system may not", () => {
    const seen: string[] = [];
    const emitter = defineSystem({
      name: 'emitter',
      priority: 70,
      create: () => (ctx: SystemContext) => {
        ctx.events.emit('signal', { frame: ctx.frame, name: 'ping', entity: 0 });
        if (ctx.frame === 3) Math.random();
      },
    });
    const sim = simOf(defineScenario({ name: 'emitter', version: '1', description: 'emits', systems: [...DEFAULT_SYSTEMS, emitter] }));
    const timers: ReturnType<typeof setTimeout>[] = [];
    sim.events.on('signal', (e) => {
      // A sound player or a renderer: the wall clock, a timer, a random jitter, all fine here.
      timers.push(setTimeout(() => {}, 1000));
      seen.push(`${e.frame}:${typeof Date.now()}:${typeof performance.now()}:${Math.random() < 1}:${new Date().getFullYear() > 2000}`);
    });
    const got = runUntilError(sim, 5);
    for (const t of timers) clearTimeout(t);
    expect(seen).toEqual(['1:number:number:true:true', '2:number:number:true:true', '3:number:number:true:true']);
    expect(got?.frame).toBe(3);
    expect((got!.error as Error).message).toContain('system emitter (scenario emitter, frame 3) called Math.random()');
    expectOriginalGlobals();
  });

  it('verify-style code between steps is free: clocks and timers outside a step are not refused', async () => {
    const sim = makeSim({ agents: 4 });
    sim.step(0);
    const t0 = performance.now();
    await new Promise<void>((r) => setTimeout(r, 1));
    await new Promise<void>((r) => queueMicrotask(r));
    sim.step(0);
    expect(performance.now()).toBeGreaterThanOrEqual(t0);
    expectOriginalGlobals();
  });
});

describe('the guard holds however the globals are set up', () => {
  /** Runs `body` with `obj[key]` defined as `d`, then puts the property back as it was. */
  function withProperty(obj: object, key: string, d: PropertyDescriptor, body: () => void): void {
    const before = Object.getOwnPropertyDescriptor(obj, key);
    Object.defineProperty(obj, key, d);
    try {
      body();
    } finally {
      if (before) Object.defineProperty(obj, key, before);
      else delete (obj as Record<string, unknown>)[key];
    }
  }

  it('a system that replaces, deletes or shadows a guarded global leaves nothing changed after the step', () => {
    const tampering: (() => void)[] = [
      () => void (Math.random = () => 0.5),
      () => void delete (Math as { random?: unknown }).random,
      () => void ((performance as { now: () => number }).now = () => 1),
      () => void Object.defineProperty(Date, 'now', { value: () => 0, writable: false, configurable: true }),
      () => void (G.setTimeout = undefined),
    ];
    for (const tamper of tampering) {
      const sim = simOf(culpritScenario(tamper, 2));
      expect(runUntilError(sim, 3)).toBeNull();
      expectOriginalGlobals();
    }
  });

  it('a read-only (configurable) property and an accessor are guarded too, and put back as they were', () => {
    const now = Date.now;
    withProperty(Date, 'now', { value: now, writable: false, enumerable: false, configurable: true }, () => {
      const got = runUntilErrorLoose(simOf(culpritScenario(() => Date.now(), 2)), 3);
      expect((got?.error as Error).message).toContain('system culprit (scenario culprit, frame 2) called Date.now()');
      expect(Object.getOwnPropertyDescriptor(Date, 'now')).toEqual({ value: now, writable: false, enumerable: false, configurable: true });
    });
    const random = Math.random;
    const getter = () => random;
    withProperty(Math, 'random', { get: getter, enumerable: false, configurable: true }, () => {
      const got = runUntilErrorLoose(simOf(culpritScenario(() => Math.random(), 2)), 3);
      expect((got?.error as Error).message).toContain('called Math.random()');
      expect(Object.getOwnPropertyDescriptor(Math, 'random')).toEqual({ get: getter, set: undefined, enumerable: false, configurable: true });
    });
    expectOriginalGlobals();
  });

  it('an install that fails half-way leaves no global replaced and fails the step (and the construction)', () => {
    for (const name of ['crypto', 'performance']) {
      const sim = makeSim({ agents: 4 });
      withProperty(globalThis, name, { get: () => { throw new Error(`no ${name} here`); }, configurable: true }, () => {
        expect(() => makeSim({ agents: 4 })).toThrow(`no ${name} here`);
        expect(() => sim.step(0)).toThrow(`no ${name} here`);
        // Math.random, replaced before the failing one, is back.
        expect(Math.random).toBe(ORIGINAL_FUNCTIONS.random);
        expect(Date.now).toBe(ORIGINAL_FUNCTIONS.now);
        expect(G.setTimeout).toBe(ORIGINAL_FUNCTIONS.setTimeout);
        expect(G.Date).toBe(ORIGINAL_FUNCTIONS.Date);
      });
    }
    expectOriginalGlobals();
    expect(cleanRun()).toBe(CLEAN);
  });
});

describe('a range kernel on a system worker', () => {
  const systemWith = (kernel: RangeKernel) =>
    defineSystem({
      name: 'rolls',
      priority: 60,
      create(host) {
        const ecs = host.ecs;
        const q = ecs.defineQuery('rollers', [ecs.components.Position]);
        const runner = host.parallel!.runner(kernel);
        return (ctx: SystemContext) => {
          if (ctx.frame < 3) return;
          const ents = ecs.entities(q);
          runner.run(ents, ents.length);
        };
      },
    });
  const scenarioWith = (kernel: RangeKernel) => defineScenario({ name: 'rolls', version: '1', description: 'a kernel', systems: [...DEFAULT_SYSTEMS, systemWith(kernel)] });

  it('calling Math.random or Math.exp on a 2-thread pool fails the step naming the system (from the worker, and from this thread)', async () => {
    const opened = await openBuiltinWorld('rugrats-demo');
    const pool = await SystemPool.create(opened.source, 2, { minIdsPerThread: 1, kernelModules: [KERNEL_MODULE] });
    try {
      const settings = { ...testSettings({ agents: 20, capacity: 64 }), scenario: 'rolls' };
      for (const [kernel, where] of [
        [workerRandomKernel, /in its range kernel test:random-on-worker, on system worker 1\)/],
        [everyRandomKernel, /called Math\.random\(\), which/],
      ] as const) {
        const sim = simulationFromSettings(opened.world, settings, scenarioWith(kernel), undefined, pool);
        const jobs = pool.jobs;
        const got = runUntilError(sim, 6);
        expect(pool.jobs).toBeGreaterThan(jobs);
        expect(got?.frame, String(got?.error)).toBe(3);
        expect(got!.error).toBeInstanceOf(ScenarioError);
        const m = (got!.error as Error).message;
        expect(m).toContain('system rolls (scenario rolls, frame 3) called Math.random()');
        expect(m).toMatch(where);
        expect(m).toContain('ctx.rng.streams');
        expectOriginalGlobals();
        sim.releaseThreads();
      }
      // The engine's maths on a worker: refused there (a worker checks everything), named after the system here.
      {
        const sim = simulationFromSettings(opened.world, settings, scenarioWith(workerExpKernel), undefined, pool);
        const got = runUntilError(sim, 6);
        expect(got?.frame, String(got?.error)).toBe(3);
        const m = (got!.error as Error).message;
        expect(m).toContain('system rolls (scenario rolls, frame 3) called Math.exp() (in its range kernel test:exp-on-worker, on system worker');
        expect(m).toContain('use detExp from retrosim instead');
        expectOriginalGlobals();
        sim.releaseThreads();
      }
      // The pool still serves: a clean kernel runs on the workers.
      const sim = simulationFromSettings(opened.world, settings, scenarioWith(quietKernel), undefined, pool);
      const jobs = pool.jobs;
      expect(runUntilError(sim, 6)).toBeNull();
      expect(pool.jobs - jobs).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
    expectOriginalGlobals();
  });
});

describe('the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'retrosim-nondeterminism-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a scenario module whose system calls Date.now exits with a scenario error naming the system', () => {
    const mod = join(dir, 'clocked.mjs');
    writeFileSync(
      mod,
      `import { DEFAULT_SYSTEMS, defineScenario, defineSystem } from 'retrosim';
const clocked = defineSystem({ name: 'clocked', priority: 70, create: () => (ctx) => { if (ctx.frame === 5) globalThis.lastSeen = Date.now(); } });
export default defineScenario({ name: 'clocked', version: '1', description: 'reads the wall clock', systems: [...DEFAULT_SYSTEMS, clocked] });
`,
    );
    const out = join(dir, 'c.replay');
    const r = runCli(['run', '--scenario', mod, '--world', 'rugrats-demo', '--agents', '2', '--frames', '20', '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(1);
    const e = (JSON.parse(r.stdout) as { error: { kind: string; message: string } }).error;
    expect(e.kind).toBe('scenario');
    expect(e.message).toContain('system clocked (scenario clocked, frame 5) called Date.now()');
    expect(e.message).toContain('ctx.frame');
    expect(r.stderr.trim().split('\n')).toEqual([`retrosim: ${e.message}`]);
    expect(existsSync(out)).toBe(false);
  });
});

describe('in Bun (JavaScriptCore)', () => {
  it('a system calling Math.random, performance.now, Math.exp, new Date() or Intl fails naming it, and the globals are the originals after', () => {
    // Bun is a devDependency: a missing binary fails here, naming where it looked (run npm ci).
    const bun = findBun().path;
    const script = `
import { Simulation, defineScenario, defineSystem, DEFAULT_SYSTEMS, ScenarioError, openWorld } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'dist/src/index.js')).href)};
const before = [Math.random, Math.exp, Math.hypot, Date.now, Date, Intl, performance.now, crypto.getRandomValues, setTimeout, setImmediate, queueMicrotask];
const opened = await openWorld('rugrats-demo');
const out = [];
for (const [name, call] of [['Math.random()', () => Math.random()], ['performance.now()', () => performance.now()], ['Date.now()', () => Date.now()], ['setTimeout()', () => clearTimeout(setTimeout(() => {}, 0))], ['Math.exp()', () => Math.exp(1)], ['Math.hypot()', () => Math.hypot(3, 4)], ['new Date()', () => new Date()], ['Intl.NumberFormat', () => new Intl.NumberFormat('en')]]) {
  const sys = defineSystem({ name: 'culprit', priority: 70, create: () => (ctx) => { if (ctx.frame === 3) call(); } });
  const sc = defineScenario({ name: 'culprit', version: '1', description: 'x', systems: [...DEFAULT_SYSTEMS, sys] });
  const sim = new Simulation(opened.world, sc, { scenario: 'culprit', agents: 4, fieldSeed: 1, ccRandInit: 0, streamSeed: 's', capacity: 64, params: {} });
  let got = null;
  for (let f = 1; f <= 5 && !got; f++) try { sim.step(0); } catch (e) { got = { f, scenario: e instanceof ScenarioError, message: e.message }; }
  const after = [Math.random, Math.exp, Math.hypot, Date.now, Date, Intl, performance.now, crypto.getRandomValues, setTimeout, setImmediate, queueMicrotask];
  out.push({ name, got, same: after.every((v, i) => v === before[i]) });
}
console.log(JSON.stringify(out));
`;
    const dir = mkdtempSync(join(tmpdir(), 'retrosim-nondeterminism-bun-'));
    const file = join(dir, 'check.mjs');
    writeFileSync(file, script);
    try {
      const r = spawnSync(bun, [file], { cwd: repoRoot, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS });
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { name: string; got: { f: number; scenario: boolean; message: string } | null; same: boolean }[];
      expect(out).toHaveLength(8);
      for (const o of out) {
        expect(o.got, o.name).toMatchObject({ f: 3, scenario: true });
        expect(o.got!.message).toContain(`system culprit (scenario culprit, frame 3) called ${o.name}`);
        expect(o.same, o.name).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('building a simulation is guarded too', () => {
  const settings = (name: string) => testSettings({ scenario: name, agents: 2 });
  for (const [phase, make] of [
    ['place()', (call: () => unknown) => defineScenario({ name: 'builds', version: '1', description: 'x', systems: DEFAULT_SYSTEMS, place: (sim) => (call(), sim.spawnPlayer()) })],
    ["system stamp's create()", (call: () => unknown) => defineScenario({ name: 'builds', version: '1', description: 'x', systems: [...DEFAULT_SYSTEMS, defineSystem({ name: 'stamp', priority: 70, create: () => (call(), () => {}) })] })],
    ['setup()', (call: () => unknown) => defineScenario({ name: 'builds', version: '1', description: 'x', systems: DEFAULT_SYSTEMS, setup: () => void call() })],
  ] as const) {
    it(`a call in ${phase} fails the construction naming the scenario and ${phase}; nothing is left changed`, () => {
      for (const [what, call] of [
        ['Math.random()', () => Math.random()],
        ['Date.now()', () => Date.now()],
        ['setTimeout()', () => clearTimeout(setTimeout(() => {}, 0))],
      ] as const) {
        let err: unknown = null;
        try {
          new Simulation(new FlatWorld(), make(call), settings('builds'));
        } catch (e) {
          err = e;
        }
        expect(err, what).toBeInstanceOf(ScenarioError);
        expect((err as Error).message).toContain(`scenario builds's ${phase}, building the simulation`);
        expect((err as Error).message).toContain(`called ${what}`);
        expectOriginalGlobals();
      }
      // The same scenario without the call builds and steps.
      const sim = new Simulation(new FlatWorld(), make(() => 0), settings('builds'));
      sim.step(0);
      expect(sim.frame).toBe(1);
    });
  }
});
