/**
 * The replay files a verify entry names: a folder (its `*.replay` files), a single file, or a glob with
 * `*` and `?` within a path segment and `**` for any number of folders. Matches come back sorted by path
 * (code-unit order), as written relative to the batch file's folder, with `/` between segments, so the
 * job order is the same on every machine.
 *
 * A wildcard segment (`*`, `?`, `**`) never enters a symlinked folder: a `loop -> .` link is not walked
 * round. Folders named literally in the pattern are followed, symlinks or not (the caller confines where
 * they lead, `allowDir`). A symlinked file matches like a file; the batch's planner then resolves it and
 * refuses it when it leads outside the allowed folders.
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

const MAGIC = /[*?]/;

/** A glob with too many entries to visit, or another problem: the message says which. */
export class GlobError extends Error {
  override readonly name = 'GlobError';
}

/**
 * The files `pattern` matches, `base` being the folder relative paths start from. `maxEntries` bounds the
 * directory entries visited (a `**` over a huge tree is refused rather than walked for minutes). `allowDir`,
 * when given, is asked of each folder before it is listed: a folder it refuses (outside the folders a batch
 * file may reach, through `..`, an absolute path or a symlink) ends the expansion with a GlobError.
 */
export function expandReplayPattern(pattern: string, base: string, maxEntries: number, allowDir?: (dir: string) => boolean): string[] {
  const abs = (p: string) => (isAbsolute(p) ? p : join(base, p));
  if (!MAGIC.test(pattern)) {
    let st;
    try {
      st = statSync(abs(pattern));
    } catch (e) {
      throw new GlobError(`cannot read ${pattern} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (st.isFile()) return [pattern];
    if (!st.isDirectory()) throw new GlobError(`${pattern} is neither a file nor a folder`);
    pattern = `${pattern.replace(/[\\/]+$/, '')}/*.replay`;
  }
  const segs = pattern.split(/[\\/]+/);
  // The literal folders before the first segment with a wildcard.
  let lit = 0;
  while (lit < segs.length - 1 && !MAGIC.test(segs[lit]!)) lit++;
  const prefix = segs.slice(0, lit).join('/') || (pattern.startsWith('/') ? '/' : '');
  const rest = segs.slice(lit).map(segmentMatcher);
  const out: string[] = [];
  let visited = 0;
  const walk = (rel: string[], at: number): void => {
    const dir = abs(join(prefix || '.', ...rel));
    if (allowDir && !allowDir(dir)) {
      throw new GlobError(`${[prefix, ...rel].filter((s) => s !== '').join('/') || '.'} is outside the batch file's folder: a batch file reaches only its own folder (allow another with --allow-dir DIR)`);
    }
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    visited += names.length;
    if (visited > maxEntries) throw new GlobError(`${pattern} visits more than ${maxEntries} folder entries (limits.batch.globEntries)`);
    const m = rest[at]!;
    const last = at === rest.length - 1;
    const found = (n: string) => out.push([prefix, ...rel, n].filter((s) => s !== '').join('/').replace(/^\/\//, '/'));
    if (m === '**') {
      // Zero folders: the next segment here (or, last, every file here); more: descend and stay on '**'.
      if (!last) walk(rel, at + 1);
      for (const n of names) {
        const p = join(dir, n);
        if (isRealDir(p)) walk([...rel, n], at);
        else if (last && isFile(p)) found(n);
      }
      return;
    }
    for (const n of names) {
      if (!m.test(n)) continue;
      const p = join(dir, n);
      if (last) {
        if (isFile(p)) found(n);
      } else if (isRealDir(p)) walk([...rel, n], at + 1);
    }
  };
  walk([], 0);
  return [...new Set(out)].sort();
}

function segmentMatcher(seg: string): RegExp | '**' {
  if (seg === '**') return '**';
  let re = '^';
  for (const c of seg) re += c === '*' ? '[^/]*' : c === '?' ? '[^/]' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${re}$`);
}

/** A folder that is not a symlink (a wildcard does not follow one). */
function isRealDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
