/**
 * What planning needs to know of a scenario module (its name, parameters and world kinds), found by
 * importing it in a worker thread of its own (scenario-facts-thread.ts) within a time limit: a module whose
 * top level never ends (`while (true) {}`) cannot hold the batch, whose own thread only waits. Past the
 * limit the thread is terminated and planning fails naming the module. Only plain data comes back; the
 * module's code stays in the thread, which ends once it has answered.
 */
import { Worker } from 'node:worker_threads';
import type { ParamSpecs, ScenarioDef, WorldKind } from '../index.js';
import { threadUrl } from './thread-url.js';
import { threadEnv } from './key-env.js';

/** The most time a scenario module may take to load while planning, seconds (less when its job's maxSeconds is less). */
export const PLAN_MODULE_SECONDS = 60;

/** The facts of a scenario that planning checks its jobs against. */
export interface ScenarioFacts {
  name: string;
  params: ParamSpecs;
  worldKinds?: readonly WorldKind[];
}

/** What the thread is given. */
export interface ScenarioFactsRequest {
  /** The module file, absolute. */
  path: string;
  /** The source it is recorded as (the path the batch file gave). */
  source: string;
  /** The module graph hash planning computed: the thread imports those bytes or nothing. */
  graph?: string;
}

/** What the thread answers. */
export type ScenarioFactsAnswer = { ok: true; facts: ScenarioFacts } | { ok: false; error: string };

/** A built-in scenario's facts. */
export function factsOf(def: ScenarioDef): ScenarioFacts {
  return { name: def.name, params: def.params ?? {}, ...(def.worldKinds ? { worldKinds: def.worldKinds } : {}) };
}

/**
 * Imports the scenario module at `path` (absolute) in a thread of its own and answers its facts; throws an
 * Error saying why when it does not load, or when it has not loaded within `seconds`.
 */
export function scenarioFacts(path: string, source: string, seconds: number, graph?: string): Promise<ScenarioFacts> {
  return new Promise((resolve, reject) => {
    const request: ScenarioFactsRequest = { path, source, ...(graph !== undefined ? { graph } : {}) };
    const w = new Worker(threadUrl('scenario-facts-thread.js'), { workerData: request, env: threadEnv() });
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void w.terminate();
      f();
    };
    const timer = setTimeout(() => settle(() => reject(new Error(`scenario module ${path} did not finish loading within ${seconds} s (while planning, a module has the time limit of the first job naming it, maxSeconds, and at most ${PLAN_MODULE_SECONDS} s)`))), seconds * 1000);
    w.on('message', (a: ScenarioFactsAnswer) => settle(() => (a.ok ? resolve(a.facts) : reject(new Error(a.error)))));
    w.on('error', (e) => settle(() => reject(new Error(`scenario module ${path} stopped its loading thread: ${e.message.split('\n')[0]}`))));
    w.on('exit', (code) => settle(() => reject(new Error(`scenario module ${path} ended its loading thread (exit code ${code}) before it loaded`))));
  });
}
