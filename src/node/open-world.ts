/**
 * Opening worlds in Node with the identity a replay records: a shipped world by id ("builtin:<id>") or any
 * world file by path ("file:<path>", with its partner files).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { FormatError } from '../binary/format-error.js';
import { worldIdentity, type OpenedWorld } from '../replay/world-identity.js';
import { BUILTIN_WORLDS, builtinWorldId } from '../worlds/builtin.js';
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

/** Loads a shipped world by id. */
export async function openBuiltinWorld(id: string, read: (path: string) => Uint8Array = readBytes): Promise<OpenedWorldSource> {
  const rel = BUILTIN_WORLDS[id];
  if (!rel) throw new FormatError('world', -1, `no built-in world ${JSON.stringify(id)} (known: ${Object.keys(BUILTIN_WORLDS).join(', ')})`);
  const bytes = read(resolve(packageRoot(), rel));
  const name = rel.split('/').pop()!;
  const world = await loadWorld(bytes, { name });
  return { world, identity: worldIdentity(world, bytes, `builtin:${id}`), bytes, source: { bytes, name } };
}

/**
 * Loads a world file given by path with its partner files (a Llama MAP given with `mapPath` or found beside
 * the TRAK, GTA placements beside the COL). The source reads "file:<path>", plus ";map:<map>" when a MAP was
 * given explicitly; the content hash covers the file's bytes followed by each partner's, so a replay notices
 * a changed partner too.
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
  const source = `file:${path}${mapPath ? `;map:${mapPath}` : ''}`;
  return { world: opened.world, identity: worldIdentity(opened.world, all, source), bytes: all, source: { bytes: opened.bytes, name: opened.world.name, options: opened.options } };
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
 * Opens a world for a simulation and its replays: a built-in id ("piney-default", "rugrats-demo") when
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
