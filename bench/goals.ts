/**
 * The performance goals of line of sight, run several times and judged: `retrosim bench --goals` (or
 * `npm run bench -- --goals`). Each run measures every goal chosen (the same benches as `los matrix 10k` and
 * `peers`); the summary gives each goal's figure in every run and whether it was met in all of them, some or
 * none. For every goal not met in every run, one piece of its work runs again under V8's CPU profiler and the
 * functions the time went to are printed, heaviest first: the profile that shows where the time goes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { BenchResult } from './harness.js';
import { meetsGoal } from './run.js';
import { formatProfile, profileCpu, type ProfileSummary } from './cpu-profile.js';
import { agentPairSegments, matrixFigures, matrixScene } from './los.bench.js';
import { openBenchWorld, LOS_WORLDS } from './bench-worlds.js';
import { peerFigures, PEER_RATIO_GOAL, PEER_SCENE_AGENTS } from './peers.bench.js';
import { losBatch, newLosOutput, SEGMENT_STRIDE } from '../src/systems/los/los-batch.js';

/** One goal: what measures it, which of the measurement's figures it judges, and what to profile. */
export interface Goal {
  /** Short name, for the filter: "matrix-piney", "peers-gta", ... */
  id: string;
  /** The goal in words, with its bound. */
  title: string;
  /** The names of the figures (BenchResult.name) the goal judges; all must be met. */
  figures: string[];
  /** Measures the goal once: the figures (and others beside them). */
  measure(): Promise<BenchResult[]>;
  /** What the profile of this goal shows, in words. */
  profileTitle: string;
  /** Sets up the goal's work and returns one piece of it, which the profiler runs. */
  profileWork(): Promise<() => void>;
}

/** Frames of the matrix profiled (one thread; the simulation steps once before them, untimed). */
const PROFILED_MATRIX_FRAMES = 3;
/** Passes over the peers' segment set profiled (one thread). */
const PROFILED_PEER_PASSES = 10;

function matrixGoal(kind: 'piney' | 'gta', goalMs: number, world: string): Goal {
  return {
    id: `matrix-${kind}`,
    title: `10,000-agent visibility matrix, ${world}, 2 threads ≤ ${goalMs} ms a frame`,
    figures: [`los matrix 10k ${kind} 2 threads`],
    measure: () => matrixFigures(kind, goalMs),
    profileTitle: `the matrix of one frame on one thread (pairs found, then cast), ${world}, ${PROFILED_MATRIX_FRAMES} times`,
    async profileWork() {
      const scene = matrixScene(kind);
      for (let f = 0; f < 3; f++) scene.step();
      scene.single();
      return () => {
        for (let f = 0; f < PROFILED_MATRIX_FRAMES; f++) scene.single();
      };
    },
  };
}

function peersGoal(kind: 'rugrats' | 'gta', world: string): Goal {
  const ratio = PEER_RATIO_GOAL[kind];
  return {
    id: `peers-${kind}`,
    title: `line of sight ÷ the faster peer (Rapier, three-mesh-bvh), ${world}, ≥ ${ratio} on 1 and on 2 threads`,
    figures: [`ours ÷ faster peer ${kind} 1 thread`, `ours ÷ faster peer ${kind} 2 threads`],
    measure: () => peerFigures(kind),
    profileTitle: `our line of sight on one thread over the segments the peers cast on ${world}, ${PROFILED_PEER_PASSES} passes`,
    async profileWork() {
      const world = openBenchWorld(LOS_WORLDS[kind]).world;
      const seg = agentPairSegments(world, PEER_SCENE_AGENTS[kind]);
      const out = newLosOutput(seg.length / SEGMENT_STRIDE);
      losBatch(world, seg, out);
      return () => {
        for (let i = 0; i < PROFILED_PEER_PASSES; i++) losBatch(world, seg, out);
      };
    },
  };
}

/** Every goal, in the order they are run and printed. */
export const GOALS: readonly Goal[] = [
  matrixGoal('piney', 25, 'the Piney field'),
  matrixGoal('gta', 100, 'the GTA town'),
  peersGoal('rugrats', 'the Rugrats level'),
  peersGoal('gta', 'the GTA town'),
];

/** A goal judged over the runs. */
export interface GoalVerdict {
  id: string;
  title: string;
  /** Per figure: its name, unit, bound and value in each run, in run order. */
  figures: { name: string; unit: string; goal: number; better: 'higher' | 'lower'; values: number[] }[];
  /** Runs in which every figure met its bound. */
  metRuns: number;
  runs: number;
  /** "met" in every run, "not met" in none, else "met in k of n runs". */
  verdict: string;
  /** Where the time goes, for a goal not met in every run. */
  profile?: ProfileSummary & { title: string };
}

/**
 * Judges one goal over the runs' results (one list of figures per run). A figure missing from a run, or
 * without a bound, is an error: the goal's measurement did not give what the goal judges.
 */
export function judgeGoal(goal: Pick<Goal, 'id' | 'title' | 'figures'>, runs: readonly (readonly BenchResult[])[]): GoalVerdict {
  const figures: GoalVerdict['figures'] = [];
  const met = runs.map(() => true);
  for (const name of goal.figures) {
    const values: number[] = [];
    let first: BenchResult | undefined;
    runs.forEach((results, r) => {
      const f = results.find((x) => x.name === name);
      if (!f || f.goal === undefined || f.better === undefined) throw new Error(`goal ${goal.id}: run ${r + 1} gave no figure "${name}" with a bound`);
      first ??= f;
      values.push(f.value);
      if (!meetsGoal(f)) met[r] = false;
    });
    if (first) figures.push({ name, unit: first.unit, goal: first.goal!, better: first.better!, values });
  }
  const metRuns = met.filter(Boolean).length;
  const n = runs.length;
  const verdict = metRuns === n ? 'met' : metRuns === 0 ? 'not met' : `met in ${metRuns} of ${n} runs`;
  return { id: goal.id, title: goal.title, figures, metRuns, runs: n, verdict };
}

/** The goals whose id contains `filter` (all without one); an error naming the ids when none does. */
export function chooseGoals(filter: string | undefined, goals: readonly Goal[] = GOALS): Goal[] {
  const chosen = goals.filter((g) => filter === undefined || g.id.includes(filter));
  if (chosen.length === 0) throw new RangeError(`no goal matches ${JSON.stringify(filter)}: the goals are ${goals.map((g) => g.id).join(', ')}`);
  return chosen;
}

/** Runs of each goal by default, and at most. */
export const DEFAULT_GOAL_RUNS = 3;
export const MAX_GOAL_RUNS = 20;

/** Throws a RangeError naming `what` unless `runs` is an integer in 1..MAX_GOAL_RUNS. */
export function checkGoalRuns(runs: number, what = 'runs'): number {
  if (!Number.isInteger(runs) || runs < 1 || runs > MAX_GOAL_RUNS) throw new RangeError(`${what} must be an integer from 1 to ${MAX_GOAL_RUNS} (got ${runs})`);
  return runs;
}

function fmt(v: number): string {
  return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3);
}

/** The verdicts as text: per goal, its figures run by run, the verdict, and the profile when there is one. */
export function formatVerdicts(verdicts: readonly GoalVerdict[]): string[] {
  const out: string[] = [];
  for (const v of verdicts) {
    out.push(`${v.title}: ${v.verdict === 'met' ? 'met' : v.verdict === 'not met' ? 'NOT met' : v.verdict}`);
    for (const f of v.figures) {
      out.push(`  ${f.name} (goal ${f.better === 'lower' ? '≤' : '≥'} ${fmt(f.goal)} ${f.unit}): ${f.values.map(fmt).join(', ')}`);
    }
    if (v.profile) out.push(...formatProfile(`profile: ${v.profile.title}`, v.profile));
  }
  return out;
}

/** Everything a goals run gives, as written to out/goals.json. */
export interface GoalsRun {
  date: string;
  node: string;
  /** The load average (1, 5, 15 minutes) before the first run and after the last. */
  loadBefore: number[];
  loadAfter: number[];
  runs: number;
  verdicts: GoalVerdict[];
}

/**
 * Runs the chosen goals `runs` times (every goal once per run, in order), judges them, profiles those not met
 * in every run, prints the verdicts (text, or JSON with `json`) and writes out/goals.json.
 */
export async function runGoals(filter: string | undefined, runs: number, json: boolean): Promise<GoalsRun> {
  checkGoalRuns(runs);
  const goals = chooseGoals(filter);
  const round = (v: number) => Math.round(v * 100) / 100;
  const loadBefore = loadavg().map(round);
  const results: BenchResult[][][] = goals.map(() => []);
  for (let r = 0; r < runs; r++) {
    for (let g = 0; g < goals.length; g++) {
      process.stderr.write(`goals: run ${r + 1} of ${runs}: ${goals[g]!.id} ...\n`);
      results[g]!.push(await goals[g]!.measure());
    }
  }
  const verdicts: GoalVerdict[] = [];
  for (let g = 0; g < goals.length; g++) {
    const goal = goals[g]!;
    const v = judgeGoal(goal, results[g]!);
    if (v.metRuns < v.runs) {
      process.stderr.write(`goals: profiling ${goal.id} ...\n`);
      const work = await goal.profileWork();
      v.profile = { title: goal.profileTitle, ...(await profileCpu(work)) };
    }
    verdicts.push(v);
  }
  const run: GoalsRun = { date: new Date().toISOString().slice(0, 10), node: process.version, loadBefore, loadAfter: loadavg().map(round), runs, verdicts };
  mkdirSync('out', { recursive: true });
  writeFileSync('out/goals.json', JSON.stringify(run, null, 2));
  if (json) process.stdout.write(JSON.stringify(run) + '\n');
  else {
    process.stdout.write(`goals over ${runs} run${runs === 1 ? '' : 's'} (Node ${run.node}, load average ${loadBefore.join(' ')} before, ${run.loadAfter.join(' ')} after):\n`);
    for (const line of formatVerdicts(verdicts)) process.stdout.write(line + '\n');
  }
  return run;
}
