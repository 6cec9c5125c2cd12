/**
 * The runtime's identity beyond its version: the SHA-256 of its built files (every `.js` under the
 * package's `dist/src`, sorted by path relative to it; each file's path, length and bytes), computed once
 * per process. A worker patched or built from other sources has another hash, though it says the same
 * version: the coordinator puts its hash in every job (and in the job's key), and a worker runs only jobs
 * of its own hash.
 *
 * It identifies code, it does not prove it: a worker could announce any hash. Use a key (auth.ts) to keep
 * out parties you do not trust.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../index.js';

let cached: string | undefined;

/** The built files' folder: this module's `dist/src` (the build), or the package's (run from the sources). */
export function runtimeDir(): string {
  const src = dirname(dirname(fileURLToPath(import.meta.url)));
  if (basename(dirname(src)) === 'dist' && fileURLToPath(import.meta.url).endsWith('.js')) return src;
  return join(packageRoot(), 'dist', 'src');
}

/** SHA-256 (64 hex digits) of the runtime's built files; see the module comment. */
export function runtimeHash(): string {
  if (cached !== undefined) return cached;
  const root = runtimeDir();
  if (!existsSync(root)) throw new Error(`the built runtime is missing (${root}); build first`);
  const files: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(root, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(root, r));
      if (st.isDirectory()) walk(r);
      else if ((st.isFile() || st.isSymbolicLink()) && name.endsWith('.js')) files.push(r);
    }
  };
  walk('');
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const h = createHash('sha256');
  for (const r of files) {
    const bytes = readFileSync(join(root, r));
    h.update(`${r}\0${bytes.length}\0`);
    h.update(bytes);
  }
  return (cached = h.digest('hex'));
}
