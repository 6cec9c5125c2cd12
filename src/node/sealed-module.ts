/**
 * A scenario module imported from the bytes that were hashed, never from the files as they are now: the
 * module graph's files (module-graph.ts keeps the bytes it read) are written into a fresh private folder (a
 * sealed copy: made with mkdtemp, mode 0700, under the system's temporary folder), with the same layout
 * relative to each other, and the entry is imported from there. A file swapped on disk after it was hashed
 * is not what runs; the next hash sees it.
 *
 * Each copy is a new set of module URLs, so a copy imported once is a fresh instance of every module of the
 * graph (module-level state starts anew: a batch job gets one of its own). Under Node, the loader hooks
 * (scenario-hooks.ts) resolve 'retrosim' inside a copy to the runtime loading it and refuse an import that
 * leads out of its copy; under Bun, virtual modules resolve 'retrosim' (bun-scenario-modules.ts).
 *
 * Copies are removed when the process (or thread) exits; `dropSealedCopy` removes one before.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModuleGraph } from './module-graph.js';

/** The name every sealed copy's folder starts with, under the temporary folder. */
export const SEALED_PREFIX = 'retrosim-sealed-';

/** The folder sealed copies are made in (its path, ending in the separator and the prefix). */
export function sealedPrefixPath(): string {
  return join(tmpdir(), SEALED_PREFIX);
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
    process.once('exit', () => {
      for (const d of made) dropSealedCopy(d);
    });
  }
  const files = [...graph.sources.keys()];
  const root = commonFolder(files);
  const dir = mkdtempSync(sealedPrefixPath());
  made.add(dir);
  for (const file of files) {
    const rel = relative(root, file);
    const to = join(dir, rel);
    mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
    writeFileSync(to, graph.sources.get(file)!, { mode: 0o600, flag: 'wx' });
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
