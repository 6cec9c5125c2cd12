/**
 * The runtime's identity beyond its version: the SHA-256 of its built files and of the packages it loads,
 * computed once per process. A worker patched, built from other sources, or running on a patched
 * dependency has another hash, though it says the same version: the coordinator puts its hash in every job
 * (and in the job's key), and a worker runs only jobs of its own hash.
 *
 * What is hashed (`runtimeHashOf`):
 * - the runtime's own built files: every `.js` under the package's `dist/src`;
 * - its dependencies as Node loads them: each name in the package's `dependencies` and
 *   `optionalDependencies` is looked up as Node does from the package's folder (`node_modules/<name>` in
 *   it and in each folder above it, the first found, through symbolic links to where it really is), and
 *   so on for each dependency's own, from where it really is. Each package found is hashed by its
 *   `.js`, `.mjs`, `.cjs`, `.json` and `.node` files: path relative to the package (a nested `node_modules`
 *   is another package's, left out), length and bytes, sorted by path. Symbolic links inside a package are
 *   not followed. A dependency that is not installed counts as missing (an optional one is left out).
 *   Peer dependencies are not hashed: the runtime's own (bullmq and ioredis, which carry jobs, and
 *   pixi.js, the browser renderer) change no result.
 *
 * Each package is named in the hash by its name and version and its files' hash, not by where it is, so
 * the same runtime installed in two places has one hash. At most RUNTIME_HASH_MAX_FILES files and
 * RUNTIME_HASH_MAX_BYTES bytes are read (an error past them, naming the package).
 *
 * It identifies code, it does not prove it: a worker could announce any hash. Use a key (auth.ts) to keep
 * out parties you do not trust.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from './assets.js';
import { readBounded } from './bounded-read.js';
import { RUNTIME_VERSION } from '../replay/format.js';
import type { RuntimeIdentity } from '../netplay/protocol.js';

/** Most files the runtime hash reads (the runtime's own and its packages'). */
export const RUNTIME_HASH_MAX_FILES = 50_000;
/** Most bytes the runtime hash reads. */
export const RUNTIME_HASH_MAX_BYTES = 512 * 1024 * 1024;

/** The extensions of a dependency's files that are hashed. */
const PACKAGE_FILES = ['.js', '.mjs', '.cjs', '.json', '.node'];

/** One package the runtime loads, as hashed. */
export interface HashedPackage {
  /** The name it is depended on by. */
  name: string;
  /** Its package.json's version, or "missing" when it is not installed. */
  version: string;
  /** Where it is (its real path), or null when missing. */
  dir: string | null;
  /** SHA-256 of its files (see the module comment). */
  sha256: string;
  files: number;
  bytes: number;
}

/** A runtime's hash and what went into it. */
export interface RuntimeHashDetail {
  /** SHA-256, 64 hex digits. */
  hash: string;
  /** The runtime's own built files. */
  builtFiles: number;
  /** The packages it loads, sorted by name, version and hash. */
  packages: HashedPackage[];
  /** Files and bytes read in all. */
  files: number;
  bytes: number;
}

let cached: string | undefined;

/** The built files' folder: this module's `dist/src` (the build), or the package's (run from the sources). */
export function runtimeDir(): string {
  const src = dirname(dirname(fileURLToPath(import.meta.url)));
  if (basename(dirname(src)) === 'dist' && fileURLToPath(import.meta.url).endsWith('.js')) return src;
  return join(packageRoot(), 'dist', 'src');
}

/** SHA-256 (64 hex digits) of this runtime (see the module comment), computed once per process. */
export function runtimeHash(): string {
  if (cached !== undefined) return cached;
  const built = runtimeDir();
  return (cached = runtimeHashOf(dirname(dirname(built)), built).hash);
}

/**
 * This runtime as a netplay `join` names it: its version and the hash of its built files and the packages
 * it loads (kind "files"). The relay seats a client only in a room of the same runtime.
 */
export function nodeRuntimeIdentity(): RuntimeIdentity {
  return { version: RUNTIME_VERSION, kind: 'files', hash: runtimeHash() };
}

/**
 * The hash of the runtime whose package folder (the one with its package.json) is `root` and whose built
 * files are in `built` (`root`/dist/src by default). See the module comment.
 */
export function runtimeHashOf(root: string, built = join(root, 'dist', 'src')): RuntimeHashDetail {
  if (!existsSync(built)) throw new Error(`the built runtime is missing (${built}); build first`);
  const budget = { files: 0, bytes: 0 };
  const own = hashFiles(built, (name) => name.endsWith('.js'), budget, 'the runtime');
  const packages = new Map<string, HashedPackage>();
  const seen = new Set<string>();
  const visit = (dir: string, deps: string[]): void => {
    for (const name of deps) {
      const found = resolvePackage(dir, name);
      if (found === null) {
        const p: HashedPackage = { name, version: 'missing', dir: null, sha256: '', files: 0, bytes: 0 };
        packages.set(`${name}\0missing`, p);
        continue;
      }
      if (seen.has(found)) continue;
      seen.add(found);
      const pkg = readPackageJson(found);
      const files = hashFiles(found, (n) => PACKAGE_FILES.some((e) => n.endsWith(e)), budget, `package ${name} (${found})`);
      const p: HashedPackage = { name, version: pkg.version, dir: found, sha256: files.sha256, files: files.files, bytes: files.bytes };
      packages.set(`${name}\0${p.version}\0${p.sha256}`, p);
      visit(found, pkg.installed(found));
    }
  };
  const top = realpathSync(root);
  visit(top, readPackageJson(top).installed(top));
  const list = [...packages.values()].sort((a, b) => cmp(`${a.name}\0${a.version}\0${a.sha256}`, `${b.name}\0${b.version}\0${b.sha256}`));
  const h = createHash('sha256');
  h.update(`retrosim-runtime\nbuilt\0${own.sha256}\n`);
  for (const p of list) h.update(`package\0${p.name}\0${p.version}\0${p.sha256}\n`);
  return { hash: h.digest('hex'), builtFiles: own.files, packages: list, files: budget.files, bytes: budget.bytes };
}

/**
 * Where Node finds package `name` from folder `from`: `node_modules/<name>` in `from` and each folder above
 * (not inside a `node_modules` folder itself), the first that is a folder, by its real path; null if none.
 */
function resolvePackage(from: string, name: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name);
      try {
        if (statSync(candidate).isDirectory()) return realpathSync(candidate);
      } catch {
        // not here
      }
    }
    if (dirname(dir) === dir) return null;
  }
}

/** A package.json's version and the dependencies to hash after it (only the installed optional ones). */
function readPackageJson(dir: string): { version: string; installed: (from: string) => string[] } {
  let pkg: Record<string, unknown> = {};
  try {
    const text = readFileSync(join(dir, 'package.json'), 'utf8');
    if (text.length <= 1024 * 1024) {
      const v: unknown = JSON.parse(text);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) pkg = v as Record<string, unknown>;
    }
  } catch {
    // No readable package.json: no version, no dependencies (its bytes, if any, are hashed with the files).
  }
  const names = (field: string): string[] => {
    const d = pkg[field];
    return typeof d === 'object' && d !== null && !Array.isArray(d) ? Object.keys(d).filter((n) => /^(@[a-z0-9._~-]+\/)?[a-z0-9._~-]+$/i.test(n)).sort(cmp) : [];
  };
  return {
    version: typeof pkg['version'] === 'string' ? pkg['version'].slice(0, 128) : 'unknown',
    installed: (from) => {
      const optional = new Set(names('optionalDependencies'));
      const required = names('dependencies').filter((n) => !optional.has(n));
      return [...required, ...[...optional].filter((n) => resolvePackage(from, n) !== null)];
    },
  };
}

/**
 * SHA-256 of the files under `dir` that `take` names (path relative to `dir`, length, bytes; sorted by
 * path), not following symbolic links and leaving out `node_modules` folders; counted against `budget`.
 */
function hashFiles(dir: string, take: (name: string) => boolean, budget: { files: number; bytes: number }, what: string): { sha256: string; files: number; bytes: number } {
  const files: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(rel ? join(dir, rel) : dir)) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, r));
      if (st.isDirectory()) {
        if (name !== 'node_modules') walk(r);
      } else if (st.isFile() && take(name)) {
        files.push(r);
        budget.bytes += st.size;
        if (++budget.files > RUNTIME_HASH_MAX_FILES) throw new Error(`the runtime hash reads at most ${RUNTIME_HASH_MAX_FILES} files; ${what} takes it over`);
        if (budget.bytes > RUNTIME_HASH_MAX_BYTES) throw new Error(`the runtime hash reads at most ${RUNTIME_HASH_MAX_BYTES} bytes; ${what} takes it over`);
      }
    }
  };
  walk('');
  files.sort(cmp);
  const h = createHash('sha256');
  let bytes = 0;
  for (const r of files) {
    // Sized before it is read (above); one that grew since is read with a running count, to the limit at most.
    let b: Uint8Array;
    try {
      b = readBounded(join(dir, r), RUNTIME_HASH_MAX_BYTES);
    } catch (e) {
      throw new Error(`the runtime hash: ${what}: ${(e as Error).message}`);
    }
    bytes += b.length;
    h.update(`${r}\0${b.length}\0`);
    h.update(b);
  }
  return { sha256: h.digest('hex'), files: files.length, bytes };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
