/**
 * Opens any world file by its CONTENT, never its name: each adapter's `detect*` is asked in turn, most specific
 * first (a JSON spec with its format tag, magics, chunk tags), and the first that recognises the bytes loads
 * them. Rugrats COL files have no magic, so they come last, recognised by their structure.
 *
 * Two formats are more than one file:
 * - Llama: a world is a TRAK (models) and a MAP (the grid). Either file may be given; its partner is given in
 *   the options (`map` / `trak`) or, when the world is opened by path, found as the sibling file with the same
 *   stem (`demo.trak` ↔ `demo.map`, any letter case of the extension), and checked by content too. A WAD
 *   holding both chunks is a whole world on its own.
 * - GTA: a COL file holds the models; when opened by path, a sibling `<stem>.placements.json` (if present)
 *   places them, as `retrosim col` does.
 *
 * To support a new format, add an entry to ADAPTERS.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { FormatError } from '../binary/format-error.js';
import { detectColbin, loadColbinWorld } from './colbin/collision-world.js';
import { detectGtaCol, loadGtaWorld, parseGtaPlacements } from './gta/collision-world.js';
import type { GtaPlacement } from './gta/index.js';
import { detectMap, detectTrak, loadLlamaWorld } from './llama/collision-world.js';
import { detectPineyField, loadPineyWorld } from './piney/collision-world.js';
import { detectRugrats, loadRugratsWorld } from './rugrats/collision-world.js';
import type { CollisionWorld, WorldKind } from './world.js';
import { checkFileBytes, DEFAULT_LIMITS, type Limits } from '../limits.js';

export interface LoadWorldOptions {
  /** A Llama world's MAP, when the bytes given are its TRAK. */
  map?: Uint8Array;
  /** A Llama world's TRAK, when the bytes given are its MAP. */
  trak?: Uint8Array;
  /** GTA placements (the parsed `<stem>.placements.json`). */
  placements?: readonly GtaPlacement[];
  /** File size and element-count limits (src/limits.ts); DEFAULT_LIMITS when absent. */
  limits?: Readonly<Limits>;
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
  { kind: 'piney', detect: detectPineyField, load: (b, n, o) => loadPineyWorld(b, n, undefined, o.limits) },
  { kind: 'colbin', detect: detectColbin, load: (b, n, o) => loadColbinWorld(b, n, o.limits ? { limits: o.limits } : {}) },
  { kind: 'gta', detect: detectGtaCol, load: (b, n, o) => loadGtaWorld(b, n, o.placements, o.limits) },
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
  { kind: 'rugrats', detect: detectRugrats, load: (b, n, o) => loadRugratsWorld(b, n, o.limits) },
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
 * Loads a world from its bytes, or from a file path (then the name defaults to the file name and a Llama
 * partner file or GTA placements are looked for beside it). Resolves to the world; rejects with a
 * FormatError when the bytes are bad or unrecognised.
 */
export async function loadWorld(source: Uint8Array | string, name?: string, options: LoadWorldOptions = {}): Promise<CollisionWorld> {
  if (typeof source === 'string') return loadWorldFile(source, options, name).world;
  return loadWorldBytes(source, name ?? 'world', options);
}

/** Synchronous core of `loadWorld` for bytes. */
export function loadWorldBytes(bytes: Uint8Array, name: string, options: LoadWorldOptions = {}): CollisionWorld {
  if (!(bytes instanceof Uint8Array)) throw new FormatError('world', -1, 'world bytes must be a Uint8Array');
  checkFileBytes('world', bytes.length, options.limits);
  for (const a of ADAPTERS) if (a.detect(bytes)) return a.load(bytes, name, options);
  throw new FormatError('world', 0, 'not a world file this runtime recognises (Piney field spec, COLBIN, GTA COL, Llama TRAK/MAP, Rugrats COL)');
}

export interface OpenedWorldFile {
  world: CollisionWorld;
  /** The bytes of the file given. */
  bytes: Uint8Array;
  /** The other files read with it (a Llama partner, GTA placements), by path, in the order read. */
  partners: string[];
  /** The options the world was loaded with (partner bytes included): `loadWorldBytes(bytes, name, options)` rebuilds it. */
  options: LoadWorldOptions;
}

/** Reads a world file and whatever partner files it needs (see the module comment); synchronous. */
export function loadWorldFile(path: string, options: LoadWorldOptions = {}, name?: string): OpenedWorldFile {
  const max = (options.limits ?? DEFAULT_LIMITS).fileBytes;
  const bytes = readWorldBytes(path, 'world', max);
  const kind = detectWorldFile(bytes);
  const o: LoadWorldOptions = { ...options };
  const partners: string[] = [];
  if (kind === 'llama-trak' && !o.map) {
    const p = siblingWithExtension(path, 'map');
    if (p) {
      o.map = readWorldBytes(p, 'llama MAP', max);
      partners.push(p);
    }
  } else if (kind === 'llama-map' && !o.trak) {
    const p = siblingWithExtension(path, 'trak');
    if (p) {
      o.trak = readWorldBytes(p, 'llama TRAK', max);
      partners.push(p);
    }
  } else if (kind === 'gta' && !o.placements) {
    const p = gtaPlacementsPath(path);
    if (p) {
      const text = new TextDecoder().decode(readWorldBytes(p, 'GTA placements', max));
      o.placements = parseGtaPlacements(text, options.limits);
      partners.push(p);
    }
  }
  const world = loadWorldBytes(bytes, name ?? basename(path), o);
  return { world, bytes, partners, options: o };
}

/** Largest world file read by default (limits.fileBytes): a bigger one is refused before reading. */
export const MAX_WORLD_FILE_BYTES = DEFAULT_LIMITS.fileBytes;

function readWorldBytes(path: string, what: string, maxBytes = MAX_WORLD_FILE_BYTES): Uint8Array {
  let buf: Buffer;
  try {
    const size = statSync(path).size;
    if (size > maxBytes) throw new FormatError(what, -1, `${path} is ${size} bytes, over the limit of ${maxBytes} bytes (limits.fileBytes)`);
    buf = readFileSync(path);
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw new FormatError(what, -1, `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  checkFileBytes(what, buf.length, { ...DEFAULT_LIMITS, fileBytes: maxBytes });
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
}

/**
 * The sibling of `path` with the same stem and extension `ext` in any letter case (`demo.trak` → `demo.map`,
 * `LEVEL1.TRK`'s stem is `LEVEL1`); null when there is none.
 */
export function siblingWithExtension(path: string, ext: string): string | null {
  const dir = dirname(path);
  const stem = basename(path, extname(path));
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  const want = `${stem}.${ext}`.toLowerCase();
  // Sorted, so the choice among case variants is the same on every machine.
  const hit = names.filter((n) => n.toLowerCase() === want).sort()[0];
  return hit === undefined ? null : join(dir, hit);
}

/** `<stem>.placements.json` beside a GTA COL file, if it exists. */
export function gtaPlacementsPath(path: string): string | null {
  const p = join(dirname(path), `${basename(path, extname(path))}.placements.json`);
  return existsSync(p) ? p : null;
}
