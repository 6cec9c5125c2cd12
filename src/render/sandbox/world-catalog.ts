/**
 * The worlds the sandbox offers (the runtime's catalog of built-in worlds), and how a world's bytes become a
 * CollisionWorld in the browser. Loading goes through the runtime's own `loadWorld` (the same detection and
 * parsers as Node); each world is named by the same source a Node run records ("builtin:<id>"), so a replay
 * recorded in the page verifies with `retrosim replay verify` anywhere.
 *
 * No pixi.js here: this module is also imported by Node tests.
 */
import { BUILTIN_WORLD_CATALOG, variantFileName, variantSpecBytes, type BuiltinWorld } from '../../worlds/builtin.js';
import { worldIdentity, type OpenedWorld } from '../../replay/world-identity.js';
import { detectWorldKind, loadWorldBytes, type LoadWorldOptions } from '../../worlds/load.js';
import type { PineyTables } from '../../worlds/piney/tables.js';
import { parseGtaPlacements } from '../../worlds/gta/collision-world.js';
import { loadRugratsWorld } from '../../worlds/rugrats/collision-world.js';
import type { CollisionWorld } from '../../worlds/world.js';

/**
 * A world the sandbox offers: a built-in world of the runtime's catalog (src/worlds/builtin.ts), with its
 * files relative to assets/ (the sandbox's public folder) instead of the package root.
 */
export type CatalogEntry = BuiltinWorld;

/** In the order the picker lists them; the first is the default (the runtime's default world). */
export const CATALOG: readonly CatalogEntry[] = BUILTIN_WORLD_CATALOG.map((e) => ({
  ...e,
  file: fromAssets(e.file),
  ...(e.map ? { map: fromAssets(e.map) } : {}),
  ...(e.placements ? { placements: fromAssets(e.placements) } : {}),
}));

function fromAssets(path: string): string {
  return path.startsWith('assets/') ? path.slice('assets/'.length) : path;
}

/**
 * The world the page opens on without a link (and falls back to): the Rugrats demo level. It reads at a glance
 * where the runtime's default, the Piney field, does not: it opens whole, in flat blocks of a few colours
 * (walls, raised tiles, slopes), while the field opens on a close-up of a height gradient. The browser test
 * of the first screen measures it (the share of the opening view covered by distinct structure, for every
 * world of the catalog) and holds the page to the world that scores highest. A page setting, not the
 * simulation's: no replay records it.
 */
export const FIRST_WORLD = 'rugrats-demo';

/** The Piney field tables the page fetches (relative to assets/) and generates field specs with. */
export const PINEY_TABLES_FILE = 'piney/field-tables.json';

export function catalogEntry(id: string): CatalogEntry {
  const e = CATALOG.find((c) => c.id === id);
  if (!e) throw new Error(`no sandbox world ${JSON.stringify(id)} (known: ${CATALOG.map((c) => c.id).join(', ')})`);
  return e;
}

/** The source a replay records for a catalog world: its built-in id, as Node records it for the same world. */
export function catalogSource(e: CatalogEntry): string {
  return `builtin:${e.id}`;
}

export { variantFileName, variantSpecBytes };

/** The catalog entry a recorded source names, if any. */
export function entryForSource(source: string): CatalogEntry | undefined {
  return CATALOG.find((e) => catalogSource(e) === source);
}

export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** A world's second file, if it has one: a Llama MAP, or GTA placements (JSON bytes). */
export interface WorldPartners {
  map?: Uint8Array;
  placements?: Uint8Array;
  /** The field tables a Piney field spec is generated with (the page fetches assets/piney/field-tables.json). */
  pineyTables?: PineyTables;
}

/**
 * Loads a world from its bytes as Node's `openWorldFile` does: the same loader and options, the same name, the
 * same identity (its content hash covers the world file's bytes followed by the MAP's, or by the GTA
 * placements file's, in the order Node reads them).
 */
export async function openWorldBytes(bytes: Uint8Array, fileName: string, source: string, partners: WorldPartners = {}): Promise<OpenedWorld> {
  const name = baseName(fileName);
  const options: LoadWorldOptions = {};
  if (partners.map) options.map = partners.map;
  if (partners.placements) options.placements = parseGtaPlacements(new TextDecoder().decode(partners.placements));
  if (partners.pineyTables) options.pineyTables = partners.pineyTables;
  let world: CollisionWorld;
  if (!partners.map && detectWorldKind(bytes) === 'rugrats') world = loadRugratsWorld(bytes, name);
  else world = loadWorldBytes(bytes, name, options);
  const parts = [bytes, ...(partners.map ? [partners.map] : []), ...(partners.placements ? [partners.placements] : [])];
  if (parts.length === 1) return { world, identity: worldIdentity(world, bytes, source), bytes };
  const all = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of parts) {
    all.set(b, at);
    at += b.length;
  }
  return { world, identity: worldIdentity(world, all, source), bytes: all };
}

/** The sandbox's default agent count: one per 4 square metres of the world's map, from 8 up to 300. */
export const AUTO_AGENTS = { perSquareMetres: 4, min: 8, max: 300 } as const;

/**
 * How many agents the sandbox places when not told: the runtime's default (300) buries a small level under
 * arrows, so a world gets one agent per 4 m² of its map rectangle, at least 8 and at most 300.
 */
export function autoAgents(world: Pick<CollisionWorld, 'bounds' | 'up' | 'scale'>): number {
  const b = world.bounds;
  const up = world.up.axis;
  const axes = [0, 1, 2].filter((a) => a !== up);
  const s = world.scale > 0 && Number.isFinite(world.scale) ? world.scale : 1;
  const area = axes.reduce((m, a) => m * Math.max(0, (b.max[a]! - b.min[a]!) / s), 1);
  if (!Number.isFinite(area)) return AUTO_AGENTS.max;
  return Math.max(AUTO_AGENTS.min, Math.min(AUTO_AGENTS.max, Math.round(area / AUTO_AGENTS.perSquareMetres)));
}
