/**
 * The RunnerEnv of a worker (a local pool thread, or a thread of a `retrosim worker` process): inputs from
 * the bytes it was sent, the shipped field tables, and scenario modules from its allow-list.
 *
 * A scenario module is never loaded from bytes a job carries. The env is told which files it may run, by
 * their module graph's hash (`allow`: the files of `retrosim worker --allow-scenario`, or the modules the
 * batch file itself names for the local threads); a job naming another graph fails with a message saying
 * so. For every job, an allowed file is hashed again (a file edited since the worker started is refused),
 * compared with what the job expects before anything of it runs, and imported afresh from a sealed copy of
 * the bytes just hashed (`loadScenarioFile` with `fresh`), recorded under the path the batch file gave it.
 *
 * Worlds are kept between jobs: a sweep runs many jobs on one world, and loading it is a good part of a
 * short job (generating a Piney field from its spec takes about a sixth of a 600-frame job's CPU time). A
 * world is kept only when it holds no run-time state (no `saveState`, `restoreState` or `hashState`: a
 * Llama level, whose tile swaps a simulation changes, is loaded afresh for every job), so what one job did
 * cannot reach the next: such a world answers every query from its files alone, as when it was loaded.
 * The last WORLD_CACHE_SIZE worlds used are kept, by their parts' hashes, roles, source and name.
 *
 * The last run job's simulation is kept too, until the next run job has run its first frames
 * (`RunnerEnv.keep`), and never read. Each simulation makes its systems' functions anew, and V8 keeps the
 * optimised code it compiled for them only while one of them is alive: dropped between two jobs (by a
 * collection while the thread waits for its next job), every system of the next job was compiled again on
 * V8's compiler threads. In a 200-job sweep that was about a sixth of the jobs' own CPU time, which with a
 * thread per core is taken from the other threads.
 */
import { defaultPineyTables, loadScenarioFile, type CollisionWorld, type OpenedWorld, type ScenarioDef, type ScenarioIdentity, type Simulation } from '../index.js';
import type { BlobRef, WorldInput } from './payload.js';
import type { RunnerEnv } from './runner.js';
import { openWorldInput } from './runner.js';
import { checkThreadMemory } from './memory-limit.js';
import { notAllowedMessage } from './scenario-allow.js';
import { dropSealedCopyOf, GraphMismatchError, scenarioSealedUrl } from '../node/scenario-file.js';

/** Worlds a worker keeps between jobs (the ones used last). */
export const WORLD_CACHE_SIZE = 4;

/** Whether a world keeps run-time state a simulation changes (the simulation's optional world hooks). */
export function keepsRunTimeState(world: CollisionWorld): boolean {
  const w = world as CollisionWorld & { saveState?: unknown; restoreState?: unknown; hashState?: unknown };
  return typeof w.saveState === 'function' || typeof w.restoreState === 'function' || typeof w.hashState === 'function';
}

export class WorkerEnv implements RunnerEnv {
  /** Inputs this worker holds, by SHA-256. */
  readonly blobs = new Map<string, Uint8Array>();
  /** The scenario modules this env may run: module graph hash -> absolute path. */
  private readonly allowed = new Map<string, string>();
  /** Kept worlds, the one used last at the end. */
  private readonly worlds = new Map<string, OpenedWorld>();
  /** The simulation kept alive between jobs (see the module comment); never read. */
  private kept: Simulation | null = null;
  /** The running job's memory limit, MiB (its `maxMemoryMiB`), checked by `checkMemory`; null: none. */
  memoryLimitMiB: number | null = null;

  checkMemory(): void {
    if (this.memoryLimitMiB !== null) checkThreadMemory(this.memoryLimitMiB);
  }

  keep(sim: Simulation | null): void {
    this.kept = sim;
  }

  /** Whether a simulation is kept now (for the tests). */
  get keepsSimulation(): boolean {
    return this.kept !== null;
  }

  /** A job's world: the one kept for the same parts, source and name, or loaded now (and kept when it may be). */
  world(w: WorldInput): OpenedWorld {
    const key = JSON.stringify([w.source, w.name, w.parts.map((p) => [p.role, p.blob.sha256])]);
    const kept = this.worlds.get(key);
    if (kept) {
      this.worlds.delete(key);
      this.worlds.set(key, kept);
      return kept;
    }
    const opened = openWorldInput(w, this);
    if (!keepsRunTimeState(opened.world)) {
      this.worlds.set(key, opened);
      for (const k of this.worlds.keys()) {
        if (this.worlds.size <= WORLD_CACHE_SIZE) break;
        this.worlds.delete(k);
      }
    }
    return opened;
  }

  /** Worlds kept now (for the tests). */
  get worldsKept(): number {
    return this.worlds.size;
  }

  blob(ref: BlobRef): Uint8Array {
    const b = this.blobs.get(ref.sha256);
    if (!b) throw new Error(`input ${ref.sha256} was not sent to this worker`);
    return b;
  }

  pineyTables() {
    return defaultPineyTables();
  }

  /** Allows the scenario module at `path` (absolute), whose module graph hash is `graph`. */
  allow(graph: string, path: string): void {
    this.allowed.set(graph, path);
  }

  /**
   * The scenario of one job, from the allow-list's file with that graph: hashed again, compared with the
   * allowed graph (and with the replay's recorded one, for a verify job) before anything of it runs, and
   * imported afresh from a sealed copy of the bytes just hashed, so that module-level state of one job never
   * reaches the next.
   */
  async scenarioModule(source: string, graph: string, recorded?: ScenarioIdentity): Promise<ScenarioDef> {
    const path = this.allowed.get(graph);
    if (path === undefined) throw new Error(notAllowedMessage(source, graph));
    this.instances++;
    try {
      const def = (await loadScenarioFile(path, { source, graph, fresh: true, ...(recorded ? { recorded } : {}) })).scenario;
      const url = scenarioSealedUrl(def);
      if (url !== undefined) this.copies.push(url);
      return def;
    } catch (e) {
      if (e instanceof GraphMismatchError) throw new Error(`scenario ${path}: its module graph changed since it was allowed (now ${e.actual.slice(0, 12)}…, allowed ${e.expected.slice(0, 12)}…): start the worker again; nothing of it was run`);
      throw e;
    }
  }

  /** Scenario module instances this env has made (each job of a module makes one). */
  instances = 0;
  /** The sealed copies this env's jobs were imported from, until `dropCopies`. */
  private copies: string[] = [];

  /** Removes the sealed copies of the jobs that ended (what was imported from them stays loaded). */
  dropCopies(): void {
    for (const url of this.copies) dropSealedCopyOf(url);
    this.copies = [];
  }

  now(): number {
    return performance.now();
  }
}
