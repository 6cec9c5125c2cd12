/**
 * The thread in which planning imports a scenario module (scenario-facts.ts): it loads the module given in
 * its workerData with `loadScenarioFile` and answers with the plain facts planning checks jobs against
 * (ScenarioFacts), or one line saying why the module does not load. The thread is terminated after.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadScenarioFile } from '../index.js';
import type { ScenarioFactsAnswer, ScenarioFactsRequest } from './scenario-facts.js';

const { path, source, graph } = workerData as ScenarioFactsRequest;
let answer: ScenarioFactsAnswer;
try {
  const { scenario } = await loadScenarioFile(path, { source, ...(graph !== undefined ? { graph } : {}) });
  answer = { ok: true, facts: { name: scenario.name, params: { ...(scenario.params ?? {}) }, ...(scenario.worldKinds ? { worldKinds: [...scenario.worldKinds] } : {}) } };
} catch (e) {
  answer = { ok: false, error: e instanceof Error ? (e.message || e.name).split('\n')[0]!.slice(0, 2000) : String(e).slice(0, 2000) };
}
parentPort!.postMessage(answer);
