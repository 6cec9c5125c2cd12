/**
 * A scenario module imported from the bytes that were hashed, never from the files as they are now: the
 * module graph's files (module-graph.ts keeps the bytes it read) are written into a fresh private folder (a
 * sealed copy: made with mkdtemp, mode 0700), with the same layout relative to each other, and the entry is
 * imported from there. A file swapped on disk after it was hashed is not what runs; the next hash sees it.
 *
 * The copies live in the user's cache folder ($XDG_CACHE_HOME or ~/.cache, then retrosim/), not under the
 * system's temporary folder: a package lookup that walks up from a copy must never reach a folder other users
 * can write (a `node_modules` planted in /tmp). Only when that folder cannot be used (no home, or not a
 * private folder of this user's) do copies go under the temporary folder, where the loader hooks still refuse
 * any ES import that leaves a copy.
 *
 * Each copy is a new set of module URLs, so a copy imported once is a fresh instance of every module of the
 * graph (module-level state starts anew: a batch job gets one of its own). Under Node, the loader hooks
 * (scenario-hooks.ts) resolve 'retrosim' inside a copy to the runtime loading it and refuse an import that
 * leads out of its copy; under Bun, virtual modules resolve 'retrosim' (bun-scenario-modules.ts).
 *
 * Copies are removed when the process (or thread) exits; `dropSealedCopy` removes one before.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModuleGraph } from './module-graph.js';

/** The name every sealed copy's folder starts with. */
export const SEALED_PREFIX = 'retrosim-sealed-';

/** Copies older than this are removed when a process makes its first one (left by a process that was killed). */
const STALE_MS = 7 * 24 * 3600 * 1000;

let prefixPath: string | undefined;

/** The user's private folder for sealed copies, made if need be; null when it cannot be used safely. */
function privateFolder(): string | null {
  let base: string;
  try {
    const xdg = process.env['XDG_CACHE_HOME'];
    base = xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.cache');
  } catch {
    return null;
  }
  const dir = join(base, 'retrosim');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    const uid = typeof process.getuid === 'function' ? process.getuid() : st.uid;
    if (!st.isDirectory() || st.isSymbolicLink() || st.uid !== uid || (st.mode & 0o022) !== 0) return null;
    return dir;
  } catch {
    return null;
  }
}

/** The path every sealed copy's folder starts with (a folder and the prefix); the same for the whole process. */
export function sealedPrefixPath(): string {
  if (prefixPath === undefined) prefixPath = join(privateFolder() ?? tmpdir(), SEALED_PREFIX);
  return prefixPath;
}

/** Removes copies of SEALED_PREFIX in the copies' folder older than STALE_MS (best effort). */
function dropStale(): void {
  const prefix = sealedPrefixPath();
  const folder = dirname(prefix);
  try {
    for (const name of readdirSync(folder)) {
      if (!name.startsWith(SEALED_PREFIX)) continue;
      const p = join(folder, name);
      const st = lstatSync(p);
      if (st.isDirectory() && !st.isSymbolicLink() && Date.now() - st.mtimeMs > STALE_MS) rmSync(p, { recursive: true, force: true });
    }
  } catch {
    // best effort
  }
}

/** A sealed copy of a module graph: its folder and its entry's URL. */
export interface SealedCopy {
  dir: string;
  entryUrl: string;
}

const made = new Set<string>();
let cleanupHooked = false;

/** The deepest folder holding every path. */
function commonFolder(paths: readonly string[]): string {
  let common = dirname(paths[0]!).split(sep);
  for (const p of paths.slice(1)) {
    const parts = dirname(p).split(sep);
    let i = 0;
    while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  return common.join(sep) || sep;
}

/** Writes a fresh sealed copy of `graph` (its files' bytes as hashed) and gives its entry's URL. */
export function sealCopy(graph: ModuleGraph): SealedCopy {
  if (!cleanupHooked) {
    cleanupHooked = true;
    dropStale();
    process.once('exit', () => {
      for (const d of made) dropSealedCopy(d);
    });
  }
  const files = [...graph.sources.keys()];
  const links = [...(graph.links ?? new Map<string, string>())];
  const root = commonFolder([...files, ...links.flat()]);
  const dir = mkdtempSync(sealedPrefixPath());
  made.add(dir);
  for (const file of files) {
    const rel = relative(root, file);
    const to = join(dir, rel);
    mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
    writeFileSync(to, graph.sources.get(file)!, { mode: 0o600, flag: 'wx' });
  }
  // The same links, pointing at the copies of what they point at (a link to a folder of a linked package, a
  // linked helper), made from the root down so that a link under another link's folder lands where Node looks.
  links.sort((a, b) => a[0].length - b[0].length);
  for (const [link, real] of links) {
    const at = join(dir, relative(root, link));
    const to = join(dir, relative(root, real));
    mkdirSync(dirname(at), { recursive: true, mode: 0o700 });
    try {
      symlinkSync(relative(dirname(at), to), at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return { dir, entryUrl: pathToFileURL(join(dir, relative(root, graph.entry))).href };
}

/** Removes a sealed copy's folder (what was imported from it stays loaded). */
export function dropSealedCopy(dir: string): void {
  made.delete(dir);
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // best effort: the temporary folder is the system's to clear
  }
}
