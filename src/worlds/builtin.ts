/**
 * The worlds shipped with the runtime: one catalog, the same ids everywhere a world is named (`openWorld`,
 * `retrosim run --world` and every other command, a batch file's "world", a netplay room, the sandbox's
 * picker). A replay of one records "builtin:<id>". Paths are from the package root.
 *
 * Browser-safe: the sandbox fetches the same files (under its assets/ folder) and builds a variant's field
 * spec with the same `variantSpecBytes`, so a world has the same bytes, and the same content hash, in Node
 * and in a page.
 */

/** A shipped world. */
export interface BuiltinWorld {
  /** Its id, as a replay records it ("builtin:<id>"). */
  id: string;
  /** What the sandbox's picker calls it. */
  label: string;
  /** The world file, from the package root (`assets/worlds/...`). */
  file: string;
  /** A Llama world's MAP, from the package root. */
  map?: string;
  /** A GTA world's placements (the `<stem>.placements.json` beside the COL file), from the package root. */
  placements?: string;
  /**
   * A Piney field made from `file` (a field spec) with another field type and background row (and seed), to
   * show a weather the default field does not have: its spec is `variantSpecBytes(file's bytes, entry)`.
   */
  variant?: { type: number; weather: number; name: string; seed?: number };
}

/** Every shipped world, in the order the sandbox lists them; the first is the default world. */
export const BUILTIN_WORLD_CATALOG: readonly BuiltinWorld[] = Object.freeze([
  { id: 'piney-default', label: 'Piney field (default)', file: 'assets/worlds/piney/default.field.json' },
  { id: 'piney-storm', label: 'Piney field, storm at night', file: 'assets/worlds/piney/default.field.json', variant: { type: 10, weather: 7, name: 'storm at night' } },
  { id: 'piney-snow', label: 'Piney field, heavy snow', file: 'assets/worlds/piney/default.field.json', variant: { type: 5, weather: 5, name: 'heavy snow' } },
  // A seed whose Generate tail passes the TOBJ gate (fieldrand(100) ≥ 86): Δ's airship crosses, humming.
  { id: 'piney-traveller', label: 'Piney field, the traveller', file: 'assets/worlds/piney/default.field.json', variant: { type: 10, weather: 0, name: 'the traveller', seed: 1420856 } },
  { id: 'rugrats-demo', label: 'Rugrats demo level', file: 'assets/worlds/rugrats/demo.col' },
  { id: 'rugrats-hand', label: 'Rugrats hand-made level', file: 'assets/worlds/rugrats/hand.col' },
  { id: 'llama-demo', label: 'Llama demo track', file: 'assets/worlds/llama/demo.trak', map: 'assets/worlds/llama/demo.map' },
  { id: 'colbin-demo', label: 'COLBIN demo yard', file: 'assets/worlds/colbin/demo.colbin' },
  { id: 'gta-town', label: 'GTA demo town', file: 'assets/worlds/gta/town.col', placements: 'assets/worlds/gta/town.placements.json' },
].map((e) => Object.freeze(e)));

/** Worlds shipped with the runtime, by the id a replay records as "builtin:<id>": each one's world file, from the package root. */
export const BUILTIN_WORLDS: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(BUILTIN_WORLD_CATALOG.map((e) => [e.id, e.file])));

/** The world `retrosim run` uses when none is given. */
export const DEFAULT_WORLD = 'piney-default';

/** The catalog entry of a built-in id, or undefined. */
export function builtinWorld(id: string): BuiltinWorld | undefined {
  return BUILTIN_WORLD_CATALOG.find((e) => e.id === id);
}

/**
 * The built-in world `given` names, or undefined when it names a file. One rule wherever a world is named
 * (`openWorld`, every CLI command, a batch file, a netplay room): `given` is a built-in id when it is one of
 * the catalog's ids, no file of that name exists (a file of the name wins: `fileExists` answers, relative to
 * wherever the caller resolves paths) and no MAP is given with it (a MAP goes with a Llama file).
 */
export function builtinWorldId(given: string, fileExists: (path: string) => boolean, map?: string): string | undefined {
  return Object.hasOwn(BUILTIN_WORLDS, given) && map === undefined && !fileExists(given) ? given : undefined;
}

/** The file name a variant's field spec goes by (in its world's name, and when the sandbox offers it). */
export function variantFileName(e: BuiltinWorld): string {
  return `${e.id}.field.json`;
}

/** A variant's field spec: the base spec's JSON with the variant's type, weather row, name (and seed). */
export function variantSpecBytes(base: Uint8Array, e: BuiltinWorld): Uint8Array {
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
