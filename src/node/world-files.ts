/**
 * Opening worlds by path in Node: the file's bytes and the partner files a world needs, found beside it.
 *
 * - Llama: given a TRAK, its MAP is the sibling with the same stem (`demo.trak` ↔ `demo.map`, any letter case
 *   of the extension), and the other way round.
 * - GTA: a sibling `<stem>.placements.json`, if present, places the COL file's models.
 * - Piney: the shipped field tables, unless the options give others.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { FormatError, inFile } from '../binary/format-error.js';
import { checkFileBytes, DEFAULT_LIMITS } from '../limits.js';
import { checkGtaPlacementsSize, gtaPlacementsByteLimit, parseGtaPlacements } from '../worlds/gta/placements.js';
import { detectWorldFile, loadWorldBytes, type LoadWorldOptions } from '../worlds/load.js';
import type { CollisionWorld } from '../worlds/world.js';
import { defaultPineyTables } from './assets.js';
import { BoundedReadError, readBounded } from './bounded-read.js';

/** A world opened from a file by path, with what was read to open it. */
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
      const limits = options.limits ?? DEFAULT_LIMITS;
      // Sized before it is read: the placements' own bound is far below the file limit.
      const bound = Math.min(max, gtaPlacementsByteLimit(limits));
      const size = fileSize(p, 'gta placements');
      checkGtaPlacementsSize(size, limits, p);
      const text = new TextDecoder().decode(readWorldBytes(p, 'gta placements', bound));
      o.placements = inFile(p, () => parseGtaPlacements(text, limits));
      partners.push(p);
    }
  } else if (kind === 'piney' && !o.pineyTables) {
    o.pineyTables = defaultPineyTables();
  }
  let world: CollisionWorld;
  try {
    world = loadWorldBytes(bytes, name ?? basename(path), o);
  } catch (e) {
    // A fault in a partner names the partner: the Llama loader's errors say which of the two files it read.
    if (e instanceof FormatError && e.file === undefined) {
      const partner = kind === 'llama-trak' && e.format.startsWith('llama MAP') ? partners[0] : kind === 'llama-map' && e.format.startsWith('llama TRAK') ? partners[0] : undefined;
      e.file = partner ?? path;
    }
    throw e;
  }
  return { world, bytes, partners, options: o };
}

function fileSize(path: string, what: string): number {
  try {
    return statSync(path).size;
  } catch (e) {
    const err = new FormatError(what, -1, `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    err.file = path;
    throw err;
  }
}

/** Largest world file read by default (limits.fileBytes): a bigger one is refused before reading. */
export const MAX_WORLD_FILE_BYTES = DEFAULT_LIMITS.fileBytes;

/** A world or partner file's bytes: a regular file, at most `maxBytes` read whatever size it reports. */
function readWorldBytes(path: string, what: string, maxBytes = MAX_WORLD_FILE_BYTES): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = readBounded(path, maxBytes);
  } catch (e) {
    if (!(e instanceof BoundedReadError)) throw e;
    const detail = e.code === 'EFBIG' ? `${e.message} (limits.fileBytes)` : e.code === 'ENOTREG' ? e.message : `cannot read ${path}: ${e.code}`;
    const err = new FormatError(what, -1, detail);
    err.file = path;
    throw err;
  }
  checkFileBytes(what, bytes.length, { ...DEFAULT_LIMITS, fileBytes: maxBytes });
  return bytes;
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

/** Options of `loadWorld`: the loader's options, plus the world's name. */
export interface LoadWorldFileOptions extends LoadWorldOptions {
  /** A human-readable name; by default the file name, or "world" for bytes. */
  name?: string;
}

/**
 * Opens any world, its format found by content: from its bytes, or from a file path (then a Llama partner
 * file or GTA placements are looked for beside it, and a Piney field gets the shipped field tables unless
 * `pineyTables` is given). Rejects with a FormatError naming what is wrong.
 *
 * @example
 * const world = await loadWorld('assets/worlds/rugrats/demo.col');
 * const g = world.ground([1500, -600, 1500]);
 */
export async function loadWorld(source: Uint8Array | string, options: LoadWorldFileOptions = {}): Promise<CollisionWorld> {
  const { name, ...o } = options;
  if (typeof source === 'string') return loadWorldFile(source, o, name).world;
  if (!o.pineyTables && source instanceof Uint8Array && detectWorldFile(source) === 'piney') o.pineyTables = defaultPineyTables();
  return loadWorldBytes(source, name ?? 'world', o);
}
