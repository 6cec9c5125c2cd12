/**
 * What changed in a scenario's module graph since a replay recorded it: the modules whose bytes differ,
 * the ones added or removed, and the packages at another version or with other content. Verify refuses a changed scenario up
 * front with these, so the author sees which file to put back, not a divergence many frames later.
 */
import type { ScenarioIdentity } from '../sim/scenario.js';

/** Longest list of changes named in one message (the rest are counted). */
const SHOWN = 8;

/**
 * The changes from `recorded` to `given`, one short phrase each ("lib/rules.mjs changed", "lib/new.mjs
 * was added", "package x@1.0.0 is now x@1.1.0"); empty when neither lists modules or nothing listed differs.
 */
export function scenarioModuleChanges(recorded: ScenarioIdentity, given: ScenarioIdentity): string[] {
  const a = new Map((recorded.modules ?? []).map((m) => [m.path, m.hash]));
  const b = new Map((given.modules ?? []).map((m) => [m.path, m.hash]));
  const out: string[] = [];
  for (const [path, hash] of a) {
    const now = b.get(path);
    if (now === undefined) out.push(`${path} is no longer imported`);
    else if (now !== hash) out.push(`${path} changed (recorded ${hash}, now ${now})`);
  }
  for (const path of b.keys()) if (!a.has(path)) out.push(`${path} is imported now and was not then`);
  const name = (p: string) => (p.indexOf('@', 1) > 0 ? p.slice(0, p.indexOf('@', 1)) : p);
  const pa = new Map((recorded.packages ?? []).map((p) => [name(p), p]));
  const pb = new Map((given.packages ?? []).map((p) => [name(p), p]));
  for (const [n, p] of pa) {
    const now = pb.get(n);
    if (now === undefined) out.push(`package ${shownPackage(p)} is no longer imported`);
    else if (now !== p) out.push(`package ${shownPackage(p)} is now ${shownPackage(now)}`);
  }
  for (const [n, p] of pb) if (!pa.has(n)) out.push(`package ${shownPackage(p)} is imported now and was not then`);
  return out;
}

/** A package entry for a message: "name@version" and, for a graph-2 entry, "(content 1a2b3c4d5e6f…)". */
function shownPackage(p: string): string {
  const hash = p.lastIndexOf('#');
  return hash < 0 ? p : `${p.slice(0, hash)} (content ${p.slice(hash + 1, hash + 13)}…)`;
}

/** The changes as one clause for a message: the first few, then how many more. */
export function describeChanges(changes: string[]): string {
  const shown = changes.slice(0, SHOWN).join('; ');
  return changes.length > SHOWN ? `${shown}; and ${changes.length - SHOWN} more` : shown;
}
