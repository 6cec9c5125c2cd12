/**
 * Opening worlds in Node with the identity a replay records: a shipped world by id ("builtin:<id>") or any
 * world file by path ("file:<path>", with its partner files).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fnv1a64Hex } from '../binary/fnv.js';
import { parseGtaPlacements } from '../worlds/gta/collision-world.js';
import { FormatError } from '../binary/format-error.js';
import { parseFileSource, worldIdentity, type OpenedWorld } from '../replay/world-identity.js';
import { BUILTIN_WORLD_CATALOG, BUILTIN_WORLDS, builtinWorld, builtinWorldId, variantFileName, variantSpecBytes, type BuiltinWorld } from '../worlds/builtin.js';
import type { LoadWorldOptions } from '../worlds/load.js';
import type { WorldSource } from './los-pool.js';
import { packageRoot } from './assets.js';
import { loadWorld, loadWorldFile } from './world-files.js';
import { readBounded } from './bounded-read.js';
import { DEFAULT_LIMITS } from '../limits.js';

/** Reads a file's bytes (the default reader): a regular file, at most limits.fileBytes of them. */
function readBytes(path: string): Uint8Array {
  return readBounded(path, DEFAULT_LIMITS.fileBytes);
}

/** A world opened in Node: with its identity, and what loads the same world in another thread. */
export interface OpenedWorldSource extends OpenedWorld {
  /** The bytes, name and options that load the same world again (a worker's copy: `SystemPool`, `LosPool`). */
  source: WorldSource;
}

/** The bytes of a built-in world's parts, read from the package: its file (a variant's spec made), MAP, placements. */
function builtinParts(id: string, read: (path: string) => Uint8Array): { entry: BuiltinWorld; bytes: Uint8Array; map?: Uint8Array; placements?: Uint8Array } {
  const entry = builtinWorld(id);
  if (!entry) throw new FormatError('world', -1, `no built-in world ${JSON.stringify(id)} (known: ${Object.keys(BUILTIN_WORLDS).join(', ')})`);
  const bytes = variantSpecBytes(read(resolve(packageRoot(), entry.file)), entry);
  return { entry, bytes, ...(entry.map ? { map: read(resolve(packageRoot(), entry.map)) } : {}), ...(entry.placements ? { placements: read(resolve(packageRoot(), entry.placements)) } : {}) };
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const all = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of parts) {
    all.set(b, at);
    at += b.length;
  }
  return all;
}

/**
 * Loads a shipped world by id (any id of the catalog: `BUILTIN_WORLD_CATALOG`), with its MAP or placements,
 * a variant's spec made from its base; its content hash covers the same bytes as when the files are opened
 * by path (the world file's, then its partner's).
 */
export async function openBuiltinWorld(id: string, read: (path: string) => Uint8Array = readBytes): Promise<OpenedWorldSource> {
  const { entry, bytes, map, placements } = builtinParts(id, read);
  const name = entry.variant ? variantFileName(entry) : entry.file.split('/').pop()!;
  const options: LoadWorldOptions = {};
  if (map) options.map = map;
  if (placements) options.placements = parseGtaPlacements(new TextDecoder().decode(placements));
  const world = await loadWorld(bytes, { name, ...options });
  const all = concat([bytes, ...(map ? [map] : []), ...(placements ? [placements] : [])]);
  return { world, identity: worldIdentity(world, all, `builtin:${id}`), bytes: all, source: { bytes, name, ...(Object.keys(options).length ? { options } : {}) } };
}

let builtinByContent: Map<string, string> | null = null;

/**
 * The built-in id whose bytes a world's identity hashes, if any (kind, length and content hash): a world
 * opened by a path is recorded by its content, so the same bytes are the same world from any path.
 */
export function builtinIdOfContent(identity: { kind: string; contentHash: string; byteLength: number }): string | undefined {
  if (!builtinByContent) {
    builtinByContent = new Map();
    for (const e of BUILTIN_WORLD_CATALOG) {
      try {
        const { bytes, map, placements } = builtinParts(e.id, readBytes);
        const all = concat([bytes, ...(map ? [map] : []), ...(placements ? [placements] : [])]);
        const key = `${fnv1a64Hex(all)}/${all.length}`;
        if (!builtinByContent.has(key)) builtinByContent.set(key, e.id);
      } catch {
        // a package without its assets: no built-in world to match
      }
    }
  }
  return builtinByContent.get(`${identity.contentHash}/${identity.byteLength}`);
}

/** How a replay records a file's path: relative to the current folder, '/'-separated (absolute outside it). */
export function recordedPath(path: string): string {
  const abs = resolve(path);
  const rel = relative(process.cwd(), abs);
  return (rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel).split(sep).join('/');
}

/**
 * Loads a world file given by path with its partner files (a Llama MAP given with `mapPath` or found beside
 * the TRAK, GTA placements beside the COL). The source reads "file:<path>", plus ";map:<map>" when a MAP was
 * given explicitly (each path relative to the current folder, '/'-separated, as `recordedPath` writes it: the
 * same string however the path was spelled); the content hash covers the file's bytes followed by each
 * partner's, so a replay notices a changed partner too. Bytes that are a shipped world's (the same kind, size
 * and content hash) are recorded as that world, "builtin:<id>", wherever they were opened from.
 */
export async function openWorldFile(path: string, read: (path: string) => Uint8Array = readBytes, mapPath?: string): Promise<OpenedWorldSource> {
  read(path); // first through the caller's reader: a missing, unreadable or huge file is its error
  const options: LoadWorldOptions = mapPath ? { map: read(mapPath) } : {};
  const opened = loadWorldFile(path, options);
  const parts = [opened.bytes, ...(options.map ? [options.map] : []), ...opened.partners.map((p) => read(p))];
  const total = parts.reduce((n, b) => n + b.length, 0);
  const all = new Uint8Array(total);
  let at = 0;
  for (const b of parts) {
    all.set(b, at);
    at += b.length;
  }
  const identity = worldIdentity(opened.world, all, `file:${recordedPath(path)}${mapPath ? `;map:${recordedPath(mapPath)}` : ''}`);
  // The bytes of a shipped world, from wherever they were opened: recorded as that world.
  const id = builtinIdOfContent(identity);
  if (id !== undefined) identity.source = `builtin:${id}`;
  return { world: opened.world, identity, bytes: all, source: { bytes: opened.bytes, name: opened.world.name, options: opened.options } };
}

/**
 * The file a world name stands for: a built-in id's file in the package (by the rule of `builtinWorldId`: a
 * file of that name in the current folder wins, and a MAP makes it a file name), else the name itself.
 */
export function worldFilePath(given: string, map?: string): string {
  const id = builtinWorldId(given, existsSync, map);
  return id === undefined ? given : resolve(packageRoot(), BUILTIN_WORLDS[id]!);
}

/**
 * `openWorld` with the caller's reader (the CLI's reads report missing and huge files its way): a built-in id
 * by the rule of `builtinWorldId`, else a world file with its partners.
 */
export async function openNamedWorld(given: string, read: (path: string) => Uint8Array = readBytes, mapPath?: string): Promise<OpenedWorldSource> {
  const id = builtinWorldId(given, existsSync, mapPath);
  return id === undefined ? openWorldFile(given, read, mapPath) : openBuiltinWorld(id, read);
}

/**
 * Opens a world for a simulation and its replays: a built-in id ("piney-default", "llama-demo", ...: BUILTIN_WORLD_CATALOG) when
 * `source` names one, no file of that name exists in the current folder and no MAP is given; else a file
 * path. Resolves to the world and its identity. The CLI's `--world` and a batch file's "world" follow the
 * same rule.
 *
 * @example
 * const { world, identity } = await openWorld('rugrats-demo');
 */
export async function openWorld(source: string, options: { map?: string } = {}): Promise<OpenedWorldSource> {
  return openNamedWorld(source, readBytes, options.map);
}

/** Where `openRecordedWorld` looked, and why each place did not do. */
export class RecordedWorldNotFound extends Error {
  override readonly name = 'RecordedWorldNotFound';
}

/**
 * Finds and opens the world a replay recorded, by its content: the shipped world with the same bytes (kind,
 * size, content hash), else the recorded file looked for in each folder of `dirs` in turn (by the recorded
 * path, then by its file name alone), taking the first whose bytes are the recorded ones. So the same bytes
 * verify from another folder, or moved beside the replay, without naming the world. Throws
 * RecordedWorldNotFound naming every place tried (and the bytes found there, when they differ).
 */
export async function openRecordedWorld(recorded: { source: string; kind: string; contentHash: string; byteLength: number }, dirs: readonly string[], read: (path: string) => Uint8Array = readBytes): Promise<OpenedWorldSource> {
  if (recorded.source.startsWith('builtin:')) return openBuiltinWorld(recorded.source.slice(8), read);
  const id = builtinIdOfContent(recorded);
  if (id !== undefined) {
    const opened = await openBuiltinWorld(id, read);
    opened.identity.source = recorded.source;
    return opened;
  }
  if (!recorded.source.startsWith('file:')) throw new RecordedWorldNotFound(`the replay's world source ${JSON.stringify(recorded.source)} is unknown`);
  const { path, mapPath } = parseFileSource(recorded.source);
  const tried: string[] = [];
  const seen = new Set<string>();
  const base = (p: string) => p.split('/').pop()!;
  for (const dir of dirs) {
    for (const [p, m] of [[path, mapPath], [base(path), mapPath !== undefined ? base(mapPath) : undefined]] as const) {
      const at = resolve(dir, p);
      if (seen.has(at)) continue;
      seen.add(at);
      if (!existsSync(at)) {
        tried.push(`${at} (not there)`);
        continue;
      }
      let opened: OpenedWorldSource;
      try {
        opened = await openWorldFile(at, read, m !== undefined ? resolve(dir, m) : undefined);
      } catch (e) {
        tried.push(`${at} (${(e as Error).message.split('\n')[0]})`);
        continue;
      }
      const got = opened.identity;
      if (got.contentHash === recorded.contentHash && got.byteLength === recorded.byteLength && got.kind === recorded.kind) {
        opened.identity.source = recorded.source;
        return opened;
      }
      tried.push(`${at} (other bytes: ${got.kind}, ${got.byteLength} bytes, content hash ${got.contentHash})`);
    }
  }
  throw new RecordedWorldNotFound(`the replay ran on ${recorded.source} (${recorded.kind}, ${recorded.byteLength} bytes, content hash ${recorded.contentHash}), found nowhere it was looked for: ${tried.join('; ')}: give --world FILE`);
}
