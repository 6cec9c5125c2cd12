/**
 * The worlds the sandbox offers, and how a world's bytes become a CollisionWorld in the browser. Loading goes
 * through the runtime's own `loadWorld` (the same detection and parsers as Node); each world is named by the
 * same source a Node run would record ("builtin:<id>", or "file:<path from the repository root>"), so a replay
 * recorded in the page verifies with `retrosim replay verify` from the repository root.
 *
 * No pixi.js here: this module is also imported by Node tests.
 */
import { BUILTIN_WORLDS } from '../../worlds/builtin.js';
import { worldIdentity, type OpenedWorld } from '../../replay/world-identity.js';
import { detectWorldKind, loadWorldBytes, type LoadWorldOptions } from '../../worlds/load.js';
import type { PineyTables } from '../../worlds/piney/tables.js';
import { parseGtaPlacements } from '../../worlds/gta/collision-world.js';
import { loadRugratsWorld } from '../../worlds/rugrats/collision-world.js';
import type { CollisionWorld } from '../../worlds/world.js';

export interface CatalogEntry {
  id: string;
  label: string;
  /** The world file, relative to assets/ (the sandbox's public folder). */
  file: string;
  /** A Llama world's MAP, relative to assets/. */
  map?: string;
  /** A GTA world's placements (the `<stem>.placements.json` Node finds beside the COL file), relative to assets/. */
  placements?: string;
  /**
   * A Piney field made from `file` (a field spec) with another field type and background row, to show a
   * weather the default field does not have. Its replays name it "file:<id>.field.json" (the sandbox offers
   * the spec for download, for `retrosim replay verify --world`).
   */
  variant?: { type: number; weather: number; name: string; seed?: number };
}

/** In the order the picker lists them; the first is the default (the runtime's default world). */
export const CATALOG: readonly CatalogEntry[] = [
  { id: 'piney-default', label: 'Piney field (default)', file: 'worlds/piney/default.field.json' },
  { id: 'piney-storm', label: 'Piney field, storm at night', file: 'worlds/piney/default.field.json', variant: { type: 10, weather: 7, name: 'storm at night' } },
  { id: 'piney-snow', label: 'Piney field, heavy snow', file: 'worlds/piney/default.field.json', variant: { type: 5, weather: 5, name: 'heavy snow' } },
  // A seed whose Generate tail passes the TOBJ gate (fieldrand(100) ≥ 86): Δ's airship crosses, humming.
  { id: 'piney-traveller', label: 'Piney field, the traveller', file: 'worlds/piney/default.field.json', variant: { type: 10, weather: 0, name: 'the traveller', seed: 1420856 } },
  { id: 'rugrats-demo', label: 'Rugrats demo level', file: 'worlds/rugrats/demo.col' },
  { id: 'rugrats-hand', label: 'Rugrats hand-made level', file: 'worlds/rugrats/hand.col' },
  { id: 'llama-demo', label: 'Llama demo track', file: 'worlds/llama/demo.trak', map: 'worlds/llama/demo.map' },
  { id: 'colbin-demo', label: 'COLBIN demo yard', file: 'worlds/colbin/demo.colbin' },
  { id: 'gta-town', label: 'GTA demo town', file: 'worlds/gta/town.col', placements: 'worlds/gta/town.placements.json' },
];

/** The Piney field tables the page fetches (relative to assets/) and generates field specs with. */
export const PINEY_TABLES_FILE = 'piney/field-tables.json';

export function catalogEntry(id: string): CatalogEntry {
  const e = CATALOG.find((c) => c.id === id);
  if (!e) throw new Error(`no sandbox world ${JSON.stringify(id)} (known: ${CATALOG.map((c) => c.id).join(', ')})`);
  return e;
}

/**
 * The source a replay records for a catalog world: the runtime's built-in id when the file is one of
 * BUILTIN_WORLDS, else its path from the repository root (with the MAP for Llama), as `retrosim run --world`
 * given that path from the repository root would record it.
 */
export function catalogSource(e: CatalogEntry): string {
  if (e.variant) return `file:${variantFileName(e)}`;
  const path = `assets/${e.file}`;
  for (const [id, rel] of Object.entries(BUILTIN_WORLDS)) if (rel === path) return `builtin:${id}`;
  return e.map ? `file:${path};map:assets/${e.map}` : `file:${path}`;
}

/** The file name a variant field's spec is offered under. */
export function variantFileName(e: CatalogEntry): string {
  return `${e.id}.field.json`;
}

/** A variant's field spec: the base spec's JSON with the variant's type, weather row, name (and seed). */
export function variantSpecBytes(base: Uint8Array, e: CatalogEntry): Uint8Array {
  if (!e.variant) return base;
  const spec = JSON.parse(new TextDecoder().decode(base)) as Record<string, unknown>;
  const out = {
    ...spec,
    name: `${String(spec['name'] ?? 'field')} (${e.variant.name})`,
    ...(e.variant.seed !== undefined ? { seed: e.variant.seed } : {}),
    type: e.variant.type,
    weather: e.variant.weather,
  };
  return new TextEncoder().encode(JSON.stringify(out, null, 2) + '\n');
}

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
