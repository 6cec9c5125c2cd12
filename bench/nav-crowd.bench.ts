/**
 * 10,000 agents with goals on the default Piney field, on one thread: the built-in systems (gravity, movement,
 * ground contact, the field's ambient tasks) with the navigation system, every agent walking the field's
 * navigation graph to a goal node, and sent to another one when it arrives or finds none (every 100 frames).
 * Two ways of giving goals, each in its own simulation, stepped in turn in blocks of frames:
 *
 * - groups: 16 goals, agent k going to goal k mod 16 (16 flow fields shared by 625 agents each);
 * - distinct: each agent its own goal node, drawn at random (as many flow fields as agents, over the cache).
 *
 * The frame rate is over every measured frame (blocks of 10 frames, alternating, after a warm-up of 20 frames);
 * the worst block is noted. The first frame, where every agent chooses its first step, is timed apart.
 * Then a profile of each (bench/frame-profiler.ts): wall and CPU ns per agent per system.
 *
 * Run alone: `npm run bench -- nav-crowd`, or `node dist/bench/nav-crowd.bench.js [agents] [frames]`.
 */
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { Bench, BenchResult } from './harness.js';
import { consume, loadNote, median } from './harness.js';
import { FrameProfiler, formatProfile, type Profile } from './frame-profiler.js';
import { openBuiltinWorld } from '../src/node/open-world.js';
import { createSimulation } from '../src/scenarios/builtin.js';
import { defineScenario, type ScenarioDef } from '../src/sim/scenario.js';
import type { Simulation } from '../src/sim/simulation.js';
import { DEFAULT_SYSTEMS } from '../src/systems/default-systems.js';
import { navigationSystem } from '../src/systems/navigation.js';
import { defineSystem } from '../src/systems/system.js';
import { Goal, GoalStatus, navCacheFor } from '../src/nav/navigator.js';
import { nodePosition } from '../src/nav/graph.js';
import type { CollisionWorld } from '../src/worlds/world.js';

const AGENTS = 10_000;
/** Measured frames per simulation. */
const FRAMES = 300;
const BLOCK = 10;
const WARM = 20;
/** Profiled frames per simulation (as many unprofiled ones interleaved). */
const PROFILED = 40;
const GROUPS = 16;
/** Idle agents are sent on every this many frames. */
const RESEND = 100;
export const NAV_CROWD_GOAL = 30;

type Mode = 'groups' | 'distinct';

/** The scenario: `agents` agents on nodes drawn from "nav-place", sent to goals as `mode` says. */
export function navCrowdScenario(agents: number, mode: Mode): ScenarioDef {
  const dispatcher = defineSystem({
    name: 'nav-crowd-goals',
    priority: 40,
    create: (host) => {
      const goal = host.ecs.store(Goal);
      const q = host.ecs.defineQuery('nav-crowd-goals', [host.ecs.components.Position, goal]);
      let goals: number[] | null = null;
      return (ctx) => {
        if (ctx.frame % RESEND !== 1) return;
        const g = ctx.nav.graph();
        const s = ctx.rng.streams.get('nav-goals');
        if (mode === 'groups') goals ??= Array.from({ length: GROUPS }, () => s.int(g.nodeCount));
        const ents = [...ctx.ecs.entities(q)].sort((a, b) => a - b);
        const round = Math.floor(ctx.frame / RESEND);
        for (let k = 0; k < ents.length; k++) {
          const e = ents[k]!;
          if (goal.active[e] === 1) continue;
          const node = mode === 'groups' ? goals![(k + round) % GROUPS]! : s.int(g.nodeCount);
          ctx.nav.setGoal(e, nodePosition(g, node));
        }
      };
    },
  });
  return defineScenario({
    name: `nav-crowd-${mode}`,
    version: '1',
    description: `${agents} agents with goals (${mode})`,
    components: [Goal],
    systems: [...DEFAULT_SYSTEMS, navigationSystem, dispatcher],
    place(sim) {
      const g = navCacheFor(sim.world).graph;
      const c = sim.ecs.components;
      const goal = sim.ecs.store(Goal);
      const s = sim.rng.streams.get('nav-place');
      for (let k = 0; k < agents; k++) {
        const e = sim.ecs.spawn([c.Position, c.Velocity, c.BodySize, c.Motion, c.Heading, goal]);
        const p = nodePosition(g, s.int(g.nodeCount));
        c.Position.x[e] = p[0];
        c.Position.y[e] = p[1];
        c.Position.z[e] = p[2];
        c.BodySize.radius[e] = g.body.radius;
        c.BodySize.height[e] = g.body.height;
        c.BodySize.step[e] = g.body.step;
        c.Motion.contact[e] = -1;
        goal.target[e] = -1;
      }
    },
  });
}

/** A simulation of the scenario on `world` (capacity for the agents). */
export function navCrowdSimulation(world: CollisionWorld, agents: number, mode: Mode): Simulation {
  let capacity = 2;
  while (capacity < agents + 8) capacity *= 2;
  return createSimulation(world, { scenario: navCrowdScenario(agents, mode), agents: 0, capacity });
}

/** How many agents are going, arrived, unreachable, and the re-plans, summed. */
function counts(sim: Simulation): string {
  const goal = sim.ecs.store(Goal);
  let going = 0, arrived = 0, unreachable = 0, replans = 0;
  for (let e = 1; e <= sim.ecs.maxId; e++) {
    if (!sim.ecs.has(e, goal)) continue;
    if (goal.active[e] === 1) going++;
    else if (goal.status[e] === GoalStatus.arrived) arrived++;
    else if (goal.status[e] === GoalStatus.unreachable) unreachable++;
    replans += goal.replans[e]!;
  }
  return `going ${going}, arrived ${arrived}, unreachable ${unreachable}, re-plans ${replans}`;
}

export async function runNavCrowd(agents: number, frames: number, print: (s: string) => void): Promise<BenchResult[]> {
  const { world } = await openBuiltinWorld('piney-default');
  const load0 = loadNote();
  let t0 = performance.now();
  navCacheFor(world);
  const build = performance.now() - t0;
  const modes: Mode[] = ['groups', 'distinct'];
  const sims = modes.map((m) => navCrowdSimulation(world, agents, m));
  const frame = [0, 0];
  // The first frame, where every agent chooses its first step at once, timed apart (then the warm-up).
  const first = sims.map((s, i) => {
    t0 = performance.now();
    s.step(0);
    frame[i]++;
    return performance.now() - t0;
  });
  for (let f = 1; f < WARM; f++) sims.forEach((s, i) => (s.step(0), frame[i]++));
  const blocks: number[][] = [[], []];
  for (let b = 0; b < frames / BLOCK; b++) {
    sims.forEach((s, i) => {
      t0 = performance.now();
      for (let f = 0; f < BLOCK; f++) s.step(0);
      frame[i]! += BLOCK;
      blocks[i]!.push((performance.now() - t0) / BLOCK);
    });
  }
  const load1 = loadNote();
  const out: BenchResult[] = [];
  modes.forEach((m, i) => {
    const ms = blocks[i]!;
    const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
    out.push({
      name: `nav crowd ${agents / 1000}k agents, ${m} goals: frames/s, 1 thread`,
      value: 1000 / mean,
      unit: 'frames/s',
      goal: NAV_CROWD_GOAL,
      better: 'higher',
      note: `${frames} frames in blocks of ${BLOCK}, alternating with the other; median block ${median(ms).toFixed(1)} ms a frame, worst ${Math.max(...ms).toFixed(1)} ms; ${counts(sims[i]!)}; load ${load0} at the start, ${load1} at the end`,
    });
  });
  modes.forEach((m, i) => out.push({ name: `nav crowd ${m} goals: the first frame (every agent's first step)`, value: first[i]!, unit: 'ms', note: 'not in the frame rate' }));
  out.push({ name: 'nav crowd: the field’s graph build (once, before)', value: build, unit: 'ms' });
  // Profiles: each simulation on, blocks of 4 frames profiled and unprofiled in turn.
  for (const [i, m] of modes.entries()) {
    const sim = sims[i]!;
    const profiler = new FrameProfiler(sim, null);
    for (let block = 0; block < (PROFILED / 4) * 2; block++) {
      for (let k = 0; k < 4; k++) {
        if (block % 2 === 0) profiler.frame(() => sim.step(0));
        else profiler.unprofiledFrame(() => sim.step(0));
      }
    }
    consume(profiler.sink);
    const p: Profile = profiler.profile(agents, 4);
    print(`\nnav crowd, ${m} goals: profile, load ${loadNote()}\n${formatProfile(p)}\n`);
    for (const r of p.rows) {
      out.push({ name: `nav crowd ${m}: ${r.label.trim()}`, value: r.wallNs, unit: 'ns/agent', note: `${r.cpuNs === null ? '' : `CPU ${r.cpuNs.toFixed(1)} ns/agent, `}${(100 * r.share).toFixed(1)} % of the frame` });
    }
  }
  return out;
}

export const benches: Bench[] = [
  {
    name: 'nav crowd',
    run: () => runNavCrowd(AGENTS, FRAMES, (s) => (process.argv.includes('--json') ? process.stderr : process.stdout).write(s + '\n')),
  },
];

// Run directly: node dist/bench/nav-crowd.bench.js [agents] [frames]
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const agents = Number(process.argv[2] ?? AGENTS);
  const frames = Number(process.argv[3] ?? FRAMES);
  const results = await runNavCrowd(agents, frames, (s) => process.stdout.write(s + '\n'));
  for (const r of results.slice(0, 5)) process.stdout.write(`${r.name}: ${r.value.toFixed(2)} ${r.unit}${r.note ? `  [${r.note}]` : ''}\n`);
}
