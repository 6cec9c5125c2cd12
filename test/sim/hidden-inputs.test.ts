/**
 * The determinism guard beyond randomness, clocks and timers (the calls themselves are in
 * nondeterminism.test.ts): which steps pay for the further checks (every step that runs code other than the
 * runtime's own), what stays allowed (the exact Math functions, the det* replacements, Date from a number),
 * stand-ins that escape a step, and the hidden inputs the guard cannot see, shown failing verification as the
 * documentation says: an environment variable, a file, the time zone through a date's local-time getters, and
 * the `**` operator.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineScenario, ScenarioError, type ScenarioDef } from '../../src/sim/scenario.js';
import type { Simulation } from '../../src/sim/simulation.js';
import { defaultSettingsFor, simulationFromSettings } from '../../src/scenarios/builtin.js';
import { DEFAULT_SYSTEMS } from '../../src/systems/default-systems.js';
import { defineSystem, type SystemContext } from '../../src/systems/system.js';
import { openBuiltinWorld } from '../../src/node/open-world.js';
import { ReplayRecorder } from '../../src/replay/recorder.js';
import { verifyReplay } from '../../src/replay/verify.js';
import { detExp, detPow, detSqrt } from '../../src/core.js';
import { FlatWorld } from './flat-world.js';
import { buttonsFor, makeSim, TEST_WORLD_ID, testSettings } from './helpers.js';

const G = globalThis as Record<string, any>;
const ORIGINAL = { exp: Math.exp, random: Math.random, Date: G.Date, Intl: G.Intl, toLocaleString: Number.prototype.toLocaleString, hrtime: process.hrtime };

function expectOriginals(): void {
  expect(Math.exp).toBe(ORIGINAL.exp);
  expect(Math.random).toBe(ORIGINAL.random);
  expect(G.Date).toBe(ORIGINAL.Date);
  expect(G.Intl).toBe(ORIGINAL.Intl);
  expect(Number.prototype.toLocaleString).toBe(ORIGINAL.toLocaleString);
  expect(process.hrtime).toBe(ORIGINAL.hrtime);
}

/** A scenario of the default systems and one of its own, whose frame function is `body`. */
function scenarioWith(name: string, body: (ctx: SystemContext) => void): ScenarioDef {
  const own = defineSystem({ name: 'own', priority: 70, create: () => (ctx: SystemContext) => body(ctx) });
  return defineScenario({ name, version: '1', description: 'a system of its own', systems: [...DEFAULT_SYSTEMS, own] });
}

const simOf = (scenario: ScenarioDef): Simulation => simulationFromSettings(new FlatWorld(), testSettings({ agents: 8, scenario: scenario.name }), scenario);

/**
 * What the globals were while each task ran, over `frames` steps, seen from the scheduler's profiler (the
 * program's code, told before each task): "maths/Date/random", each true when replaced.
 */
function replacedWhileRunning(sim: Simulation, frames: number): string[] {
  const seen = new Set<string>();
  sim.scheduler.profiler = {
    taskStart: () => void seen.add(`${Math.exp !== ORIGINAL.exp}/${G.Date !== ORIGINAL.Date}/${Math.random !== ORIGINAL.random}`),
    taskEnd: () => {},
  };
  for (let f = 1; f <= frames; f++) sim.step(buttonsFor(f));
  sim.scheduler.profiler = null;
  return [...seen];
}

describe('which steps pay for the further checks', () => {
  it("a built-in scenario's steps replace only randomness, clocks and timers", async () => {
    expect(replacedWhileRunning(makeSim({ agents: 12 }), 5)).toEqual(['false/false/true']);
    // The default scenario: the Piney field with its weather and ambient tasks (the runtime's own too).
    const opened = await openBuiltinWorld('piney-default');
    const piney = simulationFromSettings(opened.world, defaultSettingsFor(opened.world, { agents: 20 }));
    expect(piney.scheduler.list().length).toBeGreaterThan(DEFAULT_SYSTEMS.length);
    expect(replacedWhileRunning(piney, 5)).toEqual(['false/false/true']);
    expectOriginals();
  });

  it("a system of the scenario's own turns every check on, for every task of every step", () => {
    const sim = simOf(scenarioWith('own-system', () => {}));
    expect(replacedWhileRunning(sim, 5)).toEqual(['true/true/true']);
    expectOriginals();
  });

  it('so does a task the program adds to a built-in scenario, from the next step on, and a task factory it registers', () => {
    const sim = makeSim({ agents: 12 });
    expect(replacedWhileRunning(sim, 2)).toEqual(['false/false/true']);
    let ran = 0;
    sim.scheduler.addTask('program', 99, () => void ran++);
    expect(replacedWhileRunning(sim, 2)).toEqual(['true/true/true']);
    expect(ran).toBe(2);
    const other = makeSim({ agents: 12 });
    other.scheduler.registerTaskFactory('later', () => ({ run: () => {} }));
    expect(replacedWhileRunning(other, 2)).toEqual(['true/true/true']);
    expectOriginals();
  });
});

describe('what stays allowed', () => {
  it("the exact Math functions, the det* replacements, and Date from a number, its UTC parts and ISO text", () => {
    const got: unknown[] = [];
    const sim = simOf(
      scenarioWith('allowed', (ctx) => {
        if (ctx.frame !== 2) return;
        got.push(Math.sqrt(2), Math.abs(-3), Math.floor(2.5), Math.ceil(2.5), Math.round(2.5), Math.trunc(-2.5), Math.sign(-4));
        got.push(Math.fround(0.1), Math.imul(3, 5), Math.clz32(1), Math.min(1, 2), Math.max(1, 2));
        got.push(detExp(1), detPow(2, 0.5), detSqrt(2));
        const d = new Date(86_400_000);
        class Stamp extends Date {}
        got.push(d instanceof Date, Object.getPrototypeOf(d) === ORIGINAL.Date.prototype, d.getTime(), new Date(d).getTime(), d.toISOString(), d.getUTCHours());
        got.push(Date.UTC(2024, 0, 1), Date.parse('2024-01-01T00:00:00Z'), new Stamp(5).getTime());
      }),
    );
    for (let f = 1; f <= 3; f++) sim.step(0);
    expect(got).toEqual([
      Math.SQRT2, 3, 2, 3, 3, -2, -1, Math.fround(0.1), 15, 31, 1, 2,
      detExp(1), Math.SQRT2, Math.SQRT2,
      true, true, 86_400_000, 86_400_000, '1970-01-02T00:00:00.000Z', 0,
      1_704_067_200_000, 1_704_067_200_000, 5,
    ]);
    expectOriginals();
  });

  it('a stand-in a system keeps after its step does what the original does there', () => {
    let kept: { exp: (x: number) => number; Date: DateConstructor; NumberFormat: typeof Intl.NumberFormat } | null = null;
    const sim = simOf(
      scenarioWith('keeps', (ctx) => {
        if (ctx.frame === 1) kept = { exp: Math.exp, Date, NumberFormat: null as unknown as typeof Intl.NumberFormat };
      }),
    );
    sim.step(0);
    expect(kept!.exp).not.toBe(ORIGINAL.exp);
    expect(kept!.exp(1)).toBe(Math.exp(1));
    const D = kept!.Date;
    expect(D).not.toBe(ORIGINAL.Date);
    expect(new D(7).getTime()).toBe(7);
    expect(new D()).toBeInstanceOf(ORIGINAL.Date);
    expect(typeof D()).toBe('string');
    expectOriginals();
  });
});

describe('hidden inputs the guard does not see: verification catches them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'retrosim-hidden-inputs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A scenario whose own system adds `nudge()` to player 0's x every frame. */
  const nudging = (name: string, nudge: () => number) =>
    defineScenario({
      name,
      version: '1',
      description: 'reads something the replay does not record',
      systems: [...DEFAULT_SYSTEMS, defineSystem({ name: 'nudge', priority: 70, create: (host) => () => void (host.ecs.components.Position.x[host.player]! += nudge()) })],
    });

  /** Records 30 frames of `scenario`, calls `change`, verifies the replay; returns the result. */
  function recordThenVerify(scenario: ScenarioDef, change: () => void): ReturnType<typeof verifyReplay> {
    const rec = new ReplayRecorder(simOf(scenario), TEST_WORLD_ID, 10);
    for (let f = 1; f <= 30; f++) rec.step(buttonsFor(f));
    const bytes = rec.finish();
    // Unchanged, it verifies: the input is hidden, not random.
    expect(verifyReplay(bytes, simOf(scenario)).ok).toBe(true);
    change();
    return verifyReplay(bytes, simOf(scenario));
  }

  it('an environment variable: read without a refusal, a run with another value fails verification at frame 1', () => {
    const key = 'RETROSIM_TEST_NUDGE';
    process.env[key] = '0.25';
    try {
      const r = recordThenVerify(nudging('env', () => Number(process.env[key])), () => void (process.env[key] = '0.5'));
      expect(r.ok).toBe(false);
      expect(r.divergence?.frame).toBe(1);
    } finally {
      delete process.env[key];
    }
  });

  it('a file: read without a refusal, a run after the file changed fails verification at frame 1', () => {
    const file = join(dir, 'nudge.txt');
    writeFileSync(file, '0.25');
    const r = recordThenVerify(nudging('file', () => Number(readFileSync(file, 'utf8'))), () => writeFileSync(file, '0.5'));
    expect(r.ok).toBe(false);
    expect(r.divergence?.frame).toBe(1);
  });

  it("the time zone through a date's local-time getters: a run in another zone fails verification", () => {
    const before = process.env['TZ'];
    process.env['TZ'] = 'UTC';
    try {
      // new Date(0) is allowed (a number); getHours() reads the machine's time zone.
      const r = recordThenVerify(nudging('zone', () => new Date(0).getHours()), () => void (process.env['TZ'] = 'Asia/Tokyo'));
      expect(new Date(0).getHours()).toBe(9);
      expect(r.ok).toBe(false);
      expect(r.divergence?.frame).toBe(1);
    } finally {
      if (before === undefined) delete process.env['TZ'];
      else process.env['TZ'] = before;
    }
  });

  it('the ** operator is an operator, not a call: not refused (it is the engine\'s Math.pow under another name)', () => {
    const got: number[] = [];
    const sim = simOf(
      scenarioWith('power', (ctx) => {
        if (ctx.frame === 1) got.push(1.1 ** 2.5, 2 ** -3);
      }),
    );
    sim.step(0);
    expect(got).toEqual([Math.pow(1.1, 2.5), 0.125]);
    // Math.pow itself is refused in the same system.
    const refused = simOf(scenarioWith('power-call', (ctx) => void (ctx.frame === 1 && Math.pow(1.1, 2.5))));
    expect(() => refused.step(0)).toThrow(ScenarioError);
    expectOriginals();
  });
});
