/**
 * Opens any world file by its CONTENT, never its name: each adapter's `detect*` is asked in turn, most specific
 * first (a JSON spec with its format tag, magics, chunk tags), and the first that recognises the bytes loads
 * them. Rugrats COL files have no magic, so they come last, recognised by their structure.
 *
 * Two formats are more than one file:
 * - Llama: a world is a TRAK (models) and a MAP (the grid). Either file may be given; its partner is given in
 *   the options (`map` / `trak`), and checked by content too. A WAD holding both chunks is a whole world.
 * - GTA: a COL file holds the models; the options may place them (`placements`).
 *
 * A Piney field spec is generated with the field tables, given in `pineyTables`.
 *
 * Nothing here reads a file: src/node/world-files.ts opens worlds by path (partner files found beside them).
 *
 * To support a new format, add an entry to ADAPTERS.
 */
import { FormatError } from '../binary/format-error.js';
import { detectColbin, loadColbinWorld } from './colbin/collision-world.js';
import { detectGtaCol, loadGtaWorld, parseGtaPlacements } from './gta/collision-world.js';
import type { GtaPlacement } from './gta/query.js';
import { detectMap, detectTrak, loadLlamaWorld } from './llama/collision-world.js';
import { loadPineyWorld } from './piney/collision-world.js';
import { detectPineyField } from './piney/spec.js';
import { detectRugrats, loadRugratsWorld } from './rugrats/collision-world.js';
import type { PineyTables } from './piney/tables.js';
import type { CollisionWorld, WorldKind } from './world.js';
import type { WasmMode } from './wasm-mode.js';
import { checkFileBytes, DEFAULT_LIMITS, type Limits } from '../limits.js';

/** What loadWorldBytes needs besides the bytes: a Llama level's other file, GTA placements, Piney tables, limits. */
export interface LoadWorldOptions {
  /** A Llama world's MAP, when the bytes given are its TRAK. */
  map?: Uint8Array;
  /** A Llama world's TRAK, when the bytes given are its MAP. */
  trak?: Uint8Array;
  /** GTA placements (the parsed `<stem>.placements.json`). */
  placements?: readonly GtaPlacement[];
  /** The Piney field tables a field spec is generated with (`loadPineyTables`); required for a Piney field. */
  pineyTables?: PineyTables;
  /** File size and element-count limits (src/limits.ts); DEFAULT_LIMITS when absent. */
  limits?: Readonly<Limits>;
  /**
   * Whether the world's hot walks run in WebAssembly where it has kernels (the Piney field's segment cast, the
   * GTA scene's segment walk, the Rugrats line-of-sight walk; and line of sight's pair walk over its agents):
   * `off`, `on` or `auto` (the default; see `WasmMode`). The answers are the same bit for bit either way.
   */
  wasm?: WasmMode;
}

/** What the content of a file is, as far as loading goes (a Llama world has two kinds of file). */
export type WorldFileKind = Exclude<WorldKind, 'llama'> | 'llama-trak' | 'llama-map' | 'llama-wad';

interface Adapter {
  kind: WorldFileKind;
  detect(bytes: Uint8Array): boolean;
  load(bytes: Uint8Array, name: string, options: LoadWorldOptions): CollisionWorld;
}

/** The adapters in the order they are asked. A WAD with both Llama chunks is tried before either half. */
export const ADAPTERS: readonly Adapter[] = [
  { kind: 'piney', detect: detectPineyField, load: (b, n, o) => loadPineyWorld(b, n, requirePineyTables(o), o.limits, o.wasm ?? 'auto') },
  { kind: 'colbin', detect: detectColbin, load: (b, n, o) => loadColbinWorld(b, n, o.limits ? { limits: o.limits } : {}) },
  { kind: 'gta', detect: detectGtaCol, load: (b, n, o) => loadGtaWorld(b, n, o.placements, o.limits, o.wasm ?? 'auto') },
  { kind: 'llama-wad', detect: (b) => detectTrak(b) && detectMap(b), load: (b, n, o) => loadLlamaWorld(b, b, n, undefined, o.limits) },
  {
    kind: 'llama-trak',
    detect: detectTrak,
    load: (b, n, o) => {
      if (!o.map) throw new FormatError('llama world', -1, 'a Llama world is a TRAK and a MAP file: give the MAP too (--map FILE, or a sibling file with the same stem)');
      if (!detectMap(o.map)) throw new FormatError('llama MAP', 0, 'the file given as the MAP is not a Llama MAP');
      return loadLlamaWorld(b, o.map, n, undefined, o.limits);
    },
  },
  {
    kind: 'llama-map',
    detect: detectMap,
    load: (b, n, o) => {
      if (!o.trak) throw new FormatError('llama world', -1, 'a Llama world is a TRAK and a MAP file: this is the MAP, give the TRAK too (or a sibling file with the same stem)');
      if (!detectTrak(o.trak)) throw new FormatError('llama TRAK', 0, 'the file given as the TRAK is not a Llama TRAK');
      return loadLlamaWorld(o.trak, b, n, undefined, o.limits);
    },
  },
  { kind: 'rugrats', detect: detectRugrats, load: (b, n, o) => loadRugratsWorld(b, n, o.limits, o.wasm ?? 'auto') },
];

/** Which kind of file the bytes are, by content; null when no adapter recognises them. */
export function detectWorldFile(bytes: Uint8Array): WorldFileKind | null {
  for (const a of ADAPTERS) if (a.detect(bytes)) return a.kind;
  return null;
}

/** The world kind the bytes belong to (both Llama files say "llama"); null when nothing recognises them. */
export function detectWorldKind(bytes: Uint8Array): WorldKind | null {
  const k = detectWorldFile(bytes);
  return k === null ? null : k.startsWith('llama') ? 'llama' : (k as WorldKind);
}

/**
 * Loads a world from its bytes (the format found by content). Throws a FormatError when the bytes are bad or
 * unrecognised.
 */
export function loadWorldBytes(bytes: Uint8Array, name: string, options: LoadWorldOptions = {}): CollisionWorld {
  if (!(bytes instanceof Uint8Array)) throw new FormatError('world', -1, 'world bytes must be a Uint8Array');
  checkFileBytes('world', bytes.length, options.limits);
  for (const a of ADAPTERS) if (a.detect(bytes)) return a.load(bytes, name, options);
  throw new FormatError('world', 0, 'not a world file this runtime recognises (Piney field spec, COLBIN, GTA COL, Llama TRAK/MAP, Rugrats COL)');
}

function requirePineyTables(o: LoadWorldOptions): PineyTables {
  if (!o.pineyTables) throw new FormatError('piney field spec', -1, 'a Piney field is generated with the field tables: give them in the options (pineyTables)');
  return o.pineyTables;
}
