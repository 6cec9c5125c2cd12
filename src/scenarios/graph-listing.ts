/**
 * The listing a scenario module graph's hash is taken over (graph 2): a head line, then one line per local
 * module (its path relative to the scenario file's folder and the SHA-256 of its bytes) and one per package
 * ("name@version#<SHA-256 of its content>"), sorted. Node computes it when it hashes a graph
 * (src/node/module-graph.ts); a replay header carries the same list, so any reader, in a browser too,
 * recomputes the hash and refuses a header whose list does not match its recorded one.
 */
import { sha256Hex } from '../binary/sha256.js';
import type { ScenarioIdentity } from '../sim/scenario.js';

/** The first line of a graph's listing: its version. */
export const GRAPH_LISTING_HEAD = 'retrosim module graph 2';

/** A module's hash in a graph-2 listing: 64 lower-case hex digits (a graph-1 replay has "0x" + 16). */
export const GRAPH2_MODULE_HASH = /^[0-9a-f]{64}$/;

/** A package's entry in a graph-2 listing: "name@version#" and 64 hex digits. */
export const GRAPH2_PACKAGE = /^[^#\s]+@[^#\s]*#[0-9a-f]{64}$/;

const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The listing of a graph's modules and packages (each sorted here). */
export function graphListing(modules: readonly { path: string; hash: string }[], packages: readonly string[]): string {
  const lines = [GRAPH_LISTING_HEAD];
  for (const m of [...modules].sort(byPath)) lines.push(`module ${JSON.stringify(m.path)} ${m.hash}`);
  for (const p of [...packages].sort()) lines.push(`package ${JSON.stringify(p)}`);
  return `${lines.join('\n')}\n`;
}

/** The SHA-256 (64 hex digits) of a graph's listing, in plain JavaScript (any engine). */
export function graphListingHash(modules: readonly { path: string; hash: string }[], packages: readonly string[]): string {
  return sha256Hex(new TextEncoder().encode(graphListing(modules, packages)));
}

/** Whether a scenario identity lists a graph-2 module graph (its module hashes are SHA-256s). */
export function isGraph2(identity: Pick<ScenarioIdentity, 'modules'>): boolean {
  const m = identity.modules;
  return !!m && m.length > 0 && m.every((x) => GRAPH2_MODULE_HASH.test(x.hash));
}
