/**
 * Opening worlds in Node with the identity a replay records: a shipped world by id ("builtin:<id>") or any
 * world file by path ("file:<path>", with its partner files).
 */
import { resolve } from 'node:path';
import { FormatError } from '../binary/format-error.js';
import { worldIdentity, type OpenedWorld } from '../replay/world-identity.js';
import { BUILTIN_WORLDS } from '../worlds/builtin.js';
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
 * Opens a world for a simulation and its replays: a built-in id ("piney-default", "rugrats-demo") when
 * `source` names one and no such file exists, else a file path. Resolves to the world and its identity.
 *
 * @example
 * const { world, identity } = await openWorld('assets/worlds/rugrats/demo.col');
 */
export async function openWorld(source: string, options: { map?: string } = {}): Promise<OpenedWorldSource> {
  if (Object.hasOwn(BUILTIN_WORLDS, source)) return openBuiltinWorld(source);
  return openWorldFile(source, readBytes, options.map);
}
