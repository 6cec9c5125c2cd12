/**
 * Which scenario modules a worker runs: built-in scenarios always; a module only when a job names its
 * module graph's hash (node/module-graph.ts) and the worker was given a file of its own with that graph
 * (`retrosim worker --allow-scenario FILE`; the local threads get the batch's own modules). The module is
 * imported from where it is on the owner's disk, so its relative imports are the owner's files and its
 * bare imports resolve through the owner's folders only. Nothing a job carries is ever loaded as code.
 */
import { resolve } from 'node:path';
import { moduleGraph } from '../node/module-graph.js';
import type { JobPayload } from './payload.js';

/** A scenario module a worker may run: the file as given, its real path, its module graph's hash. */
export interface AllowedScenario {
  file: string;
  path: string;
  graph: string;
}

/** Hashes the module graph of each file (throws a ModuleGraphError naming the file that fails). */
export function allowScenarios(files: readonly string[]): AllowedScenario[] {
  return files.map((file) => {
    const g = moduleGraph(resolve(file));
    return { file, path: g.entry, graph: g.hash };
  });
}

/** The scenario module a payload names (its source and module graph hash), or null for a built-in one. */
export function payloadModule(p: JobPayload): { source: string; graph: string } | null {
  const s = p.scenario;
  return s && 'graph' in s ? s : null;
}

/** Why a job's scenario module is refused: the worker has no file with its module graph. */
export function notAllowedMessage(source: string, graph: string): string {
  return `scenario ${printable(source)} (module graph ${graph.slice(0, 12)}…) is not on this worker's allow-list: start the worker with --allow-scenario FILE`;
}

/** Text from a job for a one-line message: control characters replaced, at most 200 characters. */
function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  const t = s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
}
