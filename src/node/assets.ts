/**
 * The package's shipped assets, found on disk from this module's location (the sources run from src/node,
 * the build from dist/src/node, an installed package from node_modules/retrosim/dist/src/node): the nearest
 * folder above holding both package.json and assets/worlds.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError } from '../binary/format-error.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { readBounded } from './bounded-read.js';
import { loadPineyTables, DEFAULT_TABLES_FILE, type PineyTables } from '../worlds/piney/tables.js';

let root: string | undefined;

/** The repository (or installed package) root. */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'assets', 'worlds')) && existsSync(join(dir, 'package.json'))) return (root = dir);
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error('cannot find the assets folder of the retrosim package');
}

/** The absolute path of a shipped asset, given relative to assets/ ("piney/field-tables.json"). */
export function assetPath(rel: string): string {
  return join(packageRoot(), 'assets', rel);
}

/** A shipped asset's bytes. */
export function readAsset(rel: string): Uint8Array {
  const p = assetPath(rel);
  if (!existsSync(p)) throw new FormatError('asset', -1, `cannot find assets/${rel}`);
  return readBounded(p, DEFAULT_LIMITS.fileBytes);
}

/** `assets/piney/<file>`. */
export function pineyAssetPath(file: string): string {
  return assetPath(`piney/${file}`);
}

let tables: PineyTables | undefined;

/** The shipped Piney field tables (public values plus the synthetic object tables), read once. */
export function defaultPineyTables(): PineyTables {
  tables ??= loadPineyTables(readAsset(`piney/${DEFAULT_TABLES_FILE}`));
  return tables;
}

/** assets/worlds/gta. */
export function gtaAssetsDir(): string {
  return assetPath('worlds/gta');
}
