/**
 * The goals run (`retrosim bench --goals`): judging a goal over runs (met in every run, none or some; every
 * figure of a goal must meet its bound), choosing goals by id, the CPU profile's summary (self time per
 * function, idle left out, heaviest first) on made-up profiles and on a real one, and the command itself: its
 * usage errors, and one real run of the Piney matrix goal whose JSON gives the figure, the verdict and, when
 * the goal is not met, a profile that names the matrix's own functions.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chooseGoals, GOALS, judgeGoal, checkGoalRuns, MAX_GOAL_RUNS, type GoalsRun } from '../../bench/goals.js';
import { profileCpu, summarizeProfile, type V8Profile } from '../../bench/cpu-profile.js';
import type { BenchResult } from '../../bench/harness.js';
import { runCli } from '../cli/run-cli.js';

const fig = (name: string, value: number, goal: number, better: 'higher' | 'lower'): BenchResult => ({ name, value, unit: 'x', goal, better });

describe('judgeGoal', () => {
  it('a run meets the goal when every figure meets its bound; the verdict counts such runs', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 })), { minLength: 1, maxLength: 8 }), (runs) => {
        const goal = { id: 'g', title: 'G', figures: ['one', 'two'] };
        // "one": higher is better, bound 10; "two": lower is better, bound 10.
        const results = runs.map(([a, b]) => [fig('one', a, 10, 'higher'), fig('other', 0, 1, 'higher'), fig('two', b, 10, 'lower')]);
        const v = judgeGoal(goal, results);
        const met = runs.filter(([a, b]) => a >= 10 && b <= 10).length;
        expect(v.metRuns).toBe(met);
        expect(v.runs).toBe(runs.length);
        expect(v.verdict).toBe(met === runs.length ? 'met' : met === 0 ? 'not met' : `met in ${met} of ${runs.length} runs`);
        expect(v.figures.map((f) => f.values)).toEqual([runs.map((r) => r[0]), runs.map((r) => r[1])]);
      }),
    );
  });

  it('a run without the figure, or with it but no bound, is an error naming the goal and the figure', () => {
    expect(() => judgeGoal({ id: 'g', title: 'G', figures: ['one'] }, [[fig('one', 1, 0, 'higher')], []])).toThrow(/goal g: run 2 gave no figure "one"/);
    expect(() => judgeGoal({ id: 'g', title: 'G', figures: ['one'] }, [[{ name: 'one', value: 1, unit: 'x' }]])).toThrow(/run 1 gave no figure "one" with a bound/);
  });
});

describe('chooseGoals and checkGoalRuns', () => {
  it('every goal of the issue is there, each with a bound', () => {
    expect(GOALS.map((g) => g.id)).toEqual(['matrix-piney', 'matrix-gta', 'peers-rugrats', 'peers-gta']);
    expect(chooseGoals('matrix').map((g) => g.id)).toEqual(['matrix-piney', 'matrix-gta']);
    expect(chooseGoals(undefined)).toHaveLength(4);
    expect(() => chooseGoals('nothing')).toThrow(/no goal matches "nothing": the goals are matrix-piney, matrix-gta, peers-rugrats, peers-gta/);
  });

  it('runs must be a whole number from 1 to the most', () => {
    expect(checkGoalRuns(1)).toBe(1);
    expect(checkGoalRuns(MAX_GOAL_RUNS)).toBe(MAX_GOAL_RUNS);
    for (const bad of [0, -1, 1.5, MAX_GOAL_RUNS + 1, Number.NaN]) expect(() => checkGoalRuns(bad, '--runs')).toThrow(/--runs must be an integer from 1 to/);
  });
});

/** A profile whose sample i is in node `picks[i]` (of `names`) and lasts `us[i]` µs (the delta after it). */
function madeUp(names: string[], picks: number[], us: number[]): V8Profile {
  return {
    nodes: names.map((n, i) => ({ id: i + 1, callFrame: { functionName: n, url: i % 2 ? `file:///x/y/f${i}.js` : '', lineNumber: i } })),
    samples: picks.map((p) => p + 1),
    timeDeltas: [0, ...us],
  };
}

describe('summarizeProfile', () => {
  it('sums self time per function, leaves idle out, and sorts heaviest first', () => {
    const names = ['work', '(idle)', 'other', 'work'];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 1000 })), { minLength: 1, maxLength: 60 }), (s) => {
        const p = summarizeProfile(madeUp(names, s.map((x) => x[0]), s.map((x) => x[1])), 10);
        // Nodes 1 and 4 are both "work" but at different places: they are named apart (file:line differs or not).
        const expectUs = new Map<string, number>();
        let total = 0;
        // The time of sample i is the delta after it (madeUp puts us[i] there).
        s.forEach(([k, us]) => {
          if (names[k] === '(idle)') return;
          const key = k === 3 ? 'work f3.js:4' : k === 0 ? 'work' : 'other';
          expectUs.set(key, (expectUs.get(key) ?? 0) + us);
          total += us;
        });
        expect(p.totalMs).toBeCloseTo(total / 1000, 9);
        for (const l of p.lines) expect(l.selfMs).toBeCloseTo((expectUs.get(l.name) ?? -1) / 1000, 9);
        for (let i = 1; i < p.lines.length; i++) expect(p.lines[i - 1]!.selfMs).toBeGreaterThanOrEqual(p.lines[i]!.selfMs);
        expect(p.lines.some((l) => l.name.startsWith('(idle)'))).toBe(false);
      }),
    );
  });
});

/** Busy work of a known name, a fixed amount of it (not a time). */
function spinForProfile(rounds: number): number {
  let x = 1;
  for (let i = 0; i < rounds; i++) x = (x * 1103515245 + 12345) >>> 0;
  return x;
}

describe('profileCpu', () => {
  it('a real profile of busy work names that work as where the time went', async () => {
    let sink = 0;
    const p = await profileCpu(() => {
      for (let k = 0; k < 20; k++) sink ^= spinForProfile(5_000_000);
    });
    expect(sink).not.toBe(-1);
    expect(p.totalMs).toBeGreaterThan(0);
    expect(p.lines[0]!.name).toMatch(/^spinForProfile goals\.test\.ts:\d+$/);
    expect(p.lines[0]!.percent).toBeGreaterThan(50);
  });
});

describe('retrosim bench --goals', () => {
  it('refuses what it cannot do, with a usage error on one line', () => {
    const cases: [string[], RegExp][] = [
      [['bench', '--goals', '--runs', '0'], /--runs must be an integer from 1 to 20/],
      [['bench', '--goals', '--runs', '21'], /--runs must be an integer from 1 to 20/],
      [['bench', '--goals', 'nothing'], /no goal matches "nothing"/],
      [['bench', '--goals', '--list'], /--goals and --list do not go together/],
      [['bench', '--runs', '2'], /--runs goes with --goals/],
    ];
    for (const [args, msg] of cases) {
      const r = runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(msg);
    }
  });

  it('runs a goal, judges it, and profiles it when it is not met', () => {
    const r = runCli(['bench', '--goals', '--runs', '1', 'matrix-piney', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const run = JSON.parse(r.stdout) as GoalsRun;
    expect(run.runs).toBe(1);
    expect(run.verdicts).toHaveLength(1);
    const v = run.verdicts[0]!;
    expect(v.id).toBe('matrix-piney');
    expect(v.figures[0]!.name).toBe('los matrix 10k piney 2 threads');
    expect(v.figures[0]!.values[0]).toBeGreaterThan(0);
    expect(v.verdict).toBe(v.figures[0]!.values[0]! <= 25 ? 'met' : 'not met');
    if (v.verdict === 'met') expect(v.profile).toBeUndefined();
    else {
      // The matrix's work is finding pairs and casting them: both show in its profile.
      const names = v.profile!.lines.map((l) => l.name).join('\n');
      expect(names).toMatch(/pairSegments/);
      expect(names).toMatch(/castMany|walk|cellHit/);
    }
  });
});
