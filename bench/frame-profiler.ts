/**
 * A profile of a simulation's frame: wall and CPU time per scheduler task (each system, the Piney field's
 * ambient tasks together), per range-kernel run on a pool (the main thread's own range, then its wait for the
 * other threads: the join), stages inside the movement system, the state hash, and what is left of the step
 * (the scheduler, the determinism guard). The bench (profile.bench.ts) prints its table; a test checks that a
 * profiled run has every hash of an unprofiled one.
 *
 * How it reads clocks without touching the simulation: the runtime calls this object's hooks at fixed points
 * (`Scheduler.profiler`, `SystemPool.profiler`; unset, they cost one test each and no clock). The hooks read
 * `now` and `cpuNow` below, references taken when this module loads, before any step: the determinism guard
 * replaces `performance.now` only while a step runs, so these read the real clock, and `process.cpuUsage` is
 * not a source the guard refuses. The runtime itself reads no clock.
 *
 * Stages inside movement are measured by re-running the pure world queries of the frame just run, on that
 * frame's own inputs, right after the movement system and outside its timing: `world.move` for every body
 * from the position it had before the move (saved when the system starts) with its velocity, into a scratch
 * result, and the height query (`heightAt`) at every body's new position (on a world with `moveMany`, both
 * in batches as the movement system runs them: `moveMany`, and `surfacesAt` on the Piney field). Neither
 * writes any state. The re-runs are warm in cache, so they are estimates of the in-situ cost (a lower bound,
 * if anything); their own time is taken out of the frame's. On several threads movement only stages its
 * moves (they run after it, with gravity's and ground contact's work, as one dispatch: a "stage" row), so
 * the re-run reads the velocities before gravity and the height query the positions before the move: the same
 * work on inputs one step apart.
 */
import { performance } from 'node:perf_hooks';
import type { KernelProfiler, TaskProfiler } from '../src/ecs/profile-hooks.js';
import type { TaskHandle } from '../src/ecs/scheduler.js';
import type { Simulation } from '../src/sim/simulation.js';
import type { SystemPool } from '../src/node/system-pool.js';
import { newMoveBatch, newMoveResult, type Body, type Vec3 } from '../src/worlds/world.js';
import { MOVE_BATCH } from '../src/systems/movement.js';
import type { PineyWorld } from '../src/worlds/piney/collision-world.js';

/** The real clocks, taken at load (see the module comment). */
const now: () => number = performance.now.bind(performance);
const cpuUsage = process.cpuUsage.bind(process);
/** CPU time of this process (every thread), in ns. */
const cpuNow = (): number => {
  const c = cpuUsage();
  return (c.user + c.system) * 1000;
};

/** The key of the Piney field's ambient tasks (every scheduler task that is not one of the scenario's systems). */
export const AMBIENT_KEY = 'piney ambient tasks';
/** Key of a stage of kernels the scheduler ran between tasks. */
export const STAGE_PREFIX = 'stage ';

/** One line of the profile: ns per agent (median over windows of frames), CPU ns per agent, share of the frame. */
export interface ProfileRow {
  /** What was measured ("system movement", "  height queries (re-run)", ...). */
  label: string;
  /** Wall ns per agent, the median over windows of the window's mean per frame. */
  wallNs: number;
  /** CPU ns per agent of the whole process (all threads), the mean over the profiled frames; null where not measured. */
  cpuNs: number | null;
  /** Share of the frame's wall time (the profiled frame without the profiler's own work). */
  share: number;
  /** 'system', 'stage' (a part of the row above), 'kernel', 'frame'. */
  kind: 'system' | 'stage' | 'kernel' | 'frame' | 'outside';
}

/** A profile: its rows and what it was taken over. */
export interface Profile {
  rows: ProfileRow[];
  agents: number;
  threads: number;
  frames: number;
  window: number;
}

type Sums = Map<string, [number, number]>;

/** The profiler: attach it to a simulation (and its pool), step through `frame`, then read `profile`. */
export class FrameProfiler implements TaskProfiler, KernelProfiler {
  private readonly systems: Set<string>;
  private readonly frames: Sums[] = [];
  private readonly plain: [number, number][] = [];
  private cur: Sums = new Map();
  private t0 = 0;
  private c0 = 0;
  private k0 = 0;
  private kc0 = 0;
  private k1 = -1;
  /** Between a task's start and end (a kernel run outside one is a stage run between tasks). */
  private inTask = false;
  private own = 0;
  private hooks = 0;
  private hookCost = 0;
  // Bodies saved when movement starts, for the re-runs.
  private ids = new Uint32Array(0);
  private fx = new Float64Array(0);
  private fy = new Float64Array(0);
  private fz = new Float64Array(0);
  private count = 0;
  private readonly body: Body = { radius: 0, height: 0, stepHeight: 0 };
  private readonly from: Vec3 = [0, 0, 0];
  private readonly delta: Vec3 = [0, 0, 0];
  private readonly out = newMoveResult();
  private readonly moveBatch = newMoveBatch(MOVE_BATCH);
  private readonly scratchIds = { ids: new Uint32Array(64) };
  sink = 0;

  constructor(
    private readonly sim: Simulation,
    private readonly pool: SystemPool | null = null,
  ) {
    this.systems = new Set(sim.scenario.systems.map((s) => s.name));
    this.calibrate();
  }

  /** Mean cost of one task's pair of hooks with nothing between (taken out of the step's remainder). */
  private calibrate(): void {
    const fake = { name: '(calibration)' } as TaskHandle;
    const n = 2000;
    const t = now();
    for (let i = 0; i < n; i++) {
      this.taskStart(fake);
      this.taskEnd(fake);
    }
    this.hookCost = (now() - t) / n;
    this.cur = new Map();
    this.own = 0;
    this.hooks = 0;
  }

  private add(key: string, wall: number, cpu: number): void {
    const s = this.cur.get(key);
    if (s) {
      s[0] += wall;
      s[1] += cpu;
    } else this.cur.set(key, [wall, cpu]);
  }

  private keyOf(task: TaskHandle): string {
    return this.systems.has(task.name) ? `system ${task.name}` : AMBIENT_KEY;
  }

  taskStart(task: TaskHandle): void {
    if (task.name === 'movement') {
      const s = now();
      this.saveBodies();
      this.own += now() - s;
    }
    this.hooks++;
    this.inTask = true;
    this.c0 = cpuNow();
    this.t0 = now();
  }

  taskEnd(task: TaskHandle): void {
    const w = now() - this.t0;
    const c = cpuNow() - this.c0;
    this.inTask = false;
    this.add(this.keyOf(task), w, c);
    if (task.name === 'movement') {
      const s = now();
      this.rerunMovement();
      this.own += now() - s;
    }
  }

  kernelStart(): void {
    this.k1 = -1;
    this.kc0 = cpuNow();
    this.k0 = now();
  }

  kernelJoin(): void {
    this.k1 = now();
  }

  kernelEnd(name: string): void {
    const t = now();
    const split = this.k1 >= 0;
    this.add(`kernel ${name}: ${split ? "main thread's range" : 'whole run (kept on the main thread)'}`, (split ? this.k1 : t) - this.k0, 0);
    if (split) this.add(`kernel ${name}: join (main thread waits)`, t - this.k1, 0);
    // A run outside every task is a stage the scheduler ran between tasks (gravity, movement and ground
    // contact on several threads): it gets a row of its own, wall and CPU time, out of the step's remainder.
    if (!this.inTask) this.add(`${STAGE_PREFIX}${name}`, t - this.k0, cpuNow() - this.kc0);
  }

  private saveBodies(): void {
    const sim = this.sim;
    const ecs = sim.ecs;
    const { Position, Velocity, BodySize, Motion } = ecs.components;
    const n = ecs.aliveIdsAscending(this.scratchIds);
    if (this.ids.length < n) {
      this.ids = new Uint32Array(n);
      this.fx = new Float64Array(n);
      this.fy = new Float64Array(n);
      this.fz = new Float64Array(n);
    }
    let k = 0;
    for (let i = 0; i < n; i++) {
      const e = this.scratchIds.ids[i]!;
      if (!ecs.has(e, Position) || !ecs.has(e, Velocity) || !ecs.has(e, BodySize) || !ecs.has(e, Motion)) continue;
      this.ids[k] = e;
      this.fx[k] = Position.x[e]!;
      this.fy[k] = Position.y[e]!;
      this.fz[k] = Position.z[e]!;
      k++;
    }
    this.count = k;
  }

  /** The movement's world queries again, on this frame's inputs (see the module comment); writes no state. */
  private rerunMovement(): void {
    const sim = this.sim;
    const world = sim.world;
    const { Position, Velocity, BodySize } = sim.ecs.components;
    const { ids, fx, fy, fz, body, from, delta, out } = this;
    const n = this.count;
    let acc = 0;
    let c = cpuNow();
    let t = now();
    // A world with moveMany is moved in batches, as the movement system moves it.
    const mb = this.moveBatch;
    if (world.moveMany !== undefined) {
      for (let at = 0; at < n; at += mb.capacity) {
        const m = Math.min(mb.capacity, n - at);
        for (let i = 0; i < m; i++) {
          const e = ids[at + i]!;
          mb.x[i] = fx[at + i]!;
          mb.y[i] = fy[at + i]!;
          mb.z[i] = fz[at + i]!;
          mb.dx[i] = Velocity.x[e]!;
          mb.dy[i] = Velocity.y[e]!;
          mb.dz[i] = Velocity.z[e]!;
          mb.radius[i] = BodySize.radius[e]!;
          mb.height[i] = BodySize.height[e]!;
          mb.step[i] = BodySize.step[e]!;
        }
        world.moveMany(mb, m);
        acc += mb.z[0]!;
      }
    }
    for (let i = 0; world.moveMany === undefined && i < n; i++) {
      const e = ids[i]!;
      body.radius = BodySize.radius[e]!;
      body.height = BodySize.height[e]!;
      body.stepHeight = BodySize.step[e]!;
      from[0] = fx[i]!;
      from[1] = fy[i]!;
      from[2] = fz[i]!;
      delta[0] = Velocity.x[e]!;
      delta[1] = Velocity.y[e]!;
      delta[2] = Velocity.z[e]!;
      acc += world.move(body, from, delta, out).position[2];
    }
    let t1 = now();
    let c1 = cpuNow();
    this.add('move', t1 - t, c1 - c);
    const p: Vec3 = [0, 0, 0];
    c = cpuNow();
    t = now();
    // The query `move` makes (a method call, as there): GetHeight on a Piney field, `ground` elsewhere.
    if (world.kind === 'piney' && world.moveMany !== undefined) {
      // moveMany's own query: the batch's heights in one staged call.
      const cache = (world as PineyWorld).heightCache;
      for (let at = 0; at < n; at += mb.capacity) {
        const m = Math.min(mb.capacity, n - at);
        for (let i = 0; i < m; i++) {
          const e = ids[at + i]!;
          mb.x[i] = Position.x[e]!;
          mb.y[i] = Position.y[e]!;
        }
        cache.surfacesAt(mb.x, mb.y, mb.z, m);
        acc += mb.z[0]!;
      }
    } else if (world.kind === 'piney') {
      const w = world as PineyWorld;
      for (let i = 0; i < n; i++) {
        const e = ids[i]!;
        acc += w.heightAt(Position.x[e]!, Position.y[e]!);
      }
    } else {
      for (let i = 0; i < n; i++) {
        const e = ids[i]!;
        p[0] = Position.x[e]!;
        p[1] = Position.y[e]!;
        p[2] = Position.z[e]!;
        acc += world.ground(p).floor;
      }
    }
    t1 = now();
    c1 = cpuNow();
    this.add('height', t1 - t, c1 - c);
    this.sink += acc;
  }

  /** Runs one frame through `step` with the profiler attached, then the state hash; records it. */
  frame(step: () => void): void {
    this.sim.scheduler.profiler = this;
    if (this.pool) this.pool.profiler = this;
    this.cur = new Map();
    this.own = 0;
    this.hooks = 0;
    const c = cpuNow();
    const t = now();
    try {
      step();
    } finally {
      this.sim.scheduler.profiler = null;
      if (this.pool) this.pool.profiler = null;
    }
    const w = now() - t;
    const cw = cpuNow() - c;
    const own = this.own + this.hooks * this.hookCost;
    const rerunCpu = (this.cur.get('move')?.[1] ?? 0) + (this.cur.get('height')?.[1] ?? 0);
    this.add('frame', w - own, cw - rerunCpu);
    this.add('profiler', own, 0);
    const hc = cpuNow();
    const ht = now();
    this.sink += this.sim.hash().lo;
    this.add('hash', now() - ht, cpuNow() - hc);
    this.frames.push(this.cur);
  }

  /** Runs one frame through `step` without the profiler (its wall and CPU time are kept for comparison). */
  unprofiledFrame(step: () => void): void {
    const c = cpuNow();
    const t = now();
    step();
    this.plain.push([now() - t, cpuNow() - c]);
  }

  /**
   * The table: each row the median over windows of `window` profiled frames (in recording order) of the
   * window's mean per frame, per agent. A window of the line-of-sight rate (4) holds one look of the
   * line-of-sight system, which runs every fourth frame.
   */
  profile(agents: number, window = 4): Profile {
    const per = agents > 0 ? agents : 1;
    const windows = Math.max(1, Math.floor(this.frames.length / window));
    const keys = new Set<string>();
    for (const f of this.frames) for (const k of f.keys()) keys.add(k);
    const med = (get: (f: Sums) => [number, number] | null): [number, number] => {
      const w: number[] = [];
      const c: number[] = [];
      for (let i = 0; i < windows; i++) {
        let sw = 0;
        let sc = 0;
        for (let j = i * window; j < Math.min(this.frames.length, (i + 1) * window); j++) {
          const v = get(this.frames[j]!);
          if (v) {
            sw += v[0];
            sc += v[1];
          }
        }
        w.push(sw / window);
        c.push(sc / window);
      }
      // CPU time: the mean over every profiled frame. The process's CPU clock advances in coarse steps, so a
      // short task reads 0 or a step; the mean of many frames is unbiased, a median is not.
      let total = 0;
      for (const x of c) total += x;
      return [(median(w) * 1e6) / per, total / c.length / per];
    };
    const one = (k: string) => med((f) => f.get(k) ?? null);
    const one_ = one;
    const threads = this.pool?.threads ?? 1;
    const frame = one('frame');
    const rows: ProfileRow[] = [];
    const row = (label: string, v: [number, number], kind: ProfileRow['kind'], cpu = true) => rows.push({ label, wallNs: v[0], cpuNs: cpu ? v[1] : null, share: frame[0] > 0 ? v[0] / frame[0] : 0, kind });
    const taskKeys = (f: Sums) => [...f.keys()].filter((k) => k.startsWith('system ') || k.startsWith(STAGE_PREFIX) || k === AMBIENT_KEY);
    for (const s of this.sim.scenario.systems) {
      row(`system ${s.name}`, one(`system ${s.name}`), 'system');
      if (s.name === 'movement') {
        // The re-runs run on the main thread alone: on several threads they are one thread's cost of the work.
        const one = threads > 1 ? ', on one thread' : '';
        row(`  world.move (re-run${one})`, one_('move'), 'stage');
        row(`    height queries (re-run${one})`, one_('height'), 'stage');
        row(`    steps, object footprints, contacts (move − height)`, med((f) => diff(f.get('move'), f.get('height'))), 'stage');
        if (threads === 1) row('  component reads/writes, kernel dispatch (system − move)', med((f) => diff(f.get('system movement'), f.get('move'))), 'stage');
      }
      // The main thread's range (or the whole run), then the join.
      for (const k of [...keys].filter((k) => k.startsWith('kernel ') && ownerOf(k) === s.name).sort().reverse()) row(`  ${k}`, one(k), 'kernel', false);
    }
    for (const k of [...keys].filter((k) => k.startsWith(STAGE_PREFIX)).sort()) {
      const name = k.slice(STAGE_PREFIX.length);
      row(`${k} (staged by those systems, run between tasks)`, one(k), 'system');
      for (const kk of [...keys].filter((x) => x.startsWith(`kernel ${name}: `)).sort().reverse()) row(`  ${kk}`, one(kk), 'kernel', false);
    }
    if (keys.has(AMBIENT_KEY)) row(AMBIENT_KEY, one(AMBIENT_KEY), 'system');
    row('scheduler, guard and step (frame − tasks; CPU also V8 helper threads)', med((f) => {
      const fr = f.get('frame');
      if (!fr) return null;
      let w = fr[0];
      let c = fr[1];
      for (const k of taskKeys(f)) {
        w -= f.get(k)![0];
        c -= f.get(k)![1];
      }
      return [w, c];
    }), 'system');
    row('frame (profiled, without the profiler’s own work)', frame, 'frame');
    const plainW = this.plain.map((p) => p[0]);
    const plainC = this.plain.map((p) => p[1]);
    if (this.plain.length) rows.push({ label: 'frame (unprofiled)', wallNs: (median(plainW) * 1e6) / per, cpuNs: median(plainC) / per, share: frame[0] > 0 ? (median(plainW) * 1e6) / per / frame[0] : 0, kind: 'frame' });
    row('profiler’s own work (re-runs, hooks)', one('profiler'), 'outside', false);
    row('state hash (sim.hash(), outside the step)', one('hash'), 'outside');
    return { rows, agents, threads, frames: this.frames.length, window };
  }
}

/** The system a kernel row belongs to ("kernel retrosim:movement: ..." → "movement"). */
function ownerOf(key: string): string {
  const m = /^kernel (?:[a-z0-9-]+:)?([a-z0-9-]+):/.exec(key);
  return m ? m[1]! : '';
}

function diff(a: [number, number] | undefined, b: [number, number] | undefined): [number, number] | null {
  return a && b ? [a[0] - b[0], a[1] - b[1]] : null;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** The profile as a Markdown table: per row, wall and CPU ns per agent and the share of the frame. */
export function formatProfile(p: Profile): string {
  const lines = [
    `| ${p.agents.toLocaleString('en-US')} agents, ${p.threads} thread${p.threads > 1 ? 's' : ''} | wall ns/agent | CPU ns/agent | share of frame |`,
    '|---|---:|---:|---:|',
  ];
  for (const r of p.rows) {
    const label = r.label.replace(/^( +)/, (s) => '\u00a0'.repeat(2 * s.length));
    const share = r.kind === 'outside' || r.label === 'frame (unprofiled)' ? (r.kind === 'outside' ? '(outside)' : `${(100 * r.share).toFixed(0)} %`) : `${(100 * r.share).toFixed(1)} %`;
    lines.push(`| ${label} | ${r.wallNs.toFixed(1)} | ${r.cpuNs === null ? '–' : r.cpuNs.toFixed(1)} | ${share} |`);
  }
  return lines.join('\n');
}
