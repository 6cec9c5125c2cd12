/**
 * Where a scenario module's loads lead, resolved as Node resolves them, for the module graph
 * (module-graph.ts): a relative ES import to the exact file (no extension added, no folder's index); a
 * package's ES import through its package.json "exports" (conditions "node", "import", "module-sync",
 * "default") or, without one, its "main"; a CommonJS `require` by Node's own resolver
 * (`createRequire(file).resolve`). 'retrosim' and its subpaths are the runtime that loads the scenario, and
 * Node's own modules are Node's: neither is part of a graph.
 *
 * Where this resolver and the engine could ever disagree, nothing unidentified runs: a scenario is imported
 * from a sealed copy that holds only the files of its graph (sealed-module.ts), and under Node the loader
 * hooks refuse any import from inside a copy that leads out of it.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { isBuiltin, createRequire } from 'node:module';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SUBPATHS } from './scenario-hooks.js';

/** A module graph that cannot be made: the message names the file and what is wrong. */
export class ModuleGraphError extends Error {
  override readonly name = 'ModuleGraphError';
}

/**
 * Where one load leads. For a file: its real path (how Node names the module) and the path the lookup
 * asked for before symbolic links were followed (a sealed copy makes the same links).
 */
export type Resolved = { kind: 'runtime' } | { kind: 'builtin'; name: string } | { kind: 'file'; path: string; requested: string };

/** Conditions of an ES import in Node (20.19 and later: "module-sync" with require(esm)). */
const IMPORT_CONDITIONS = ['node', 'import', 'module-sync', 'default'];

/** Largest package.json read. */
const PACKAGE_JSON_BYTES = 1024 * 1024;

/** A file's bytes, read with a running count against `max` (a file may report a size it does not have). */
export function readBoundedFile(path: string, max: number, what: string): Uint8Array {
  let fd: number;
  try {
    // Non-blocking: a file swapped for a FIFO since it was checked must not hang the open.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new ModuleGraphError(`${what}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new ModuleGraphError(`${what}: not a regular file`);
    const chunks: Uint8Array[] = [];
    let n = 0;
    for (;;) {
      const buf = new Uint8Array(Math.min(65536, max + 1 - n));
      const got = readSync(fd, buf, 0, buf.length, null);
      if (got === 0) break;
      chunks.push(buf.subarray(0, got));
      n += got;
      if (n > max) throw new ModuleGraphError(`${what}: over the limit of ${max} bytes`);
    }
    const out = new Uint8Array(n);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/** The real path of a regular file (Node loads modules by their real paths); refuses a folder or a missing file. */
export function realFile(path: string, what: () => string): string {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ModuleGraphError(code === 'ENOENT' || code === 'ENOTDIR' ? `${what()}: ${path} does not exist` : `${what()}: cannot read ${path} (${code ?? (e as Error).message})`);
  }
  if (st.isDirectory()) throw new ModuleGraphError(`${what()}: ${path} is a folder (an ES module imports a file: name it, e.g. './lib/index.mjs')`);
  if (!st.isFile()) throw new ModuleGraphError(`${what()}: ${path} is not a regular file`);
  return realpathSync(path);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A package.json's fields, or null when there is none; a FormatError-like refusal when it is not JSON. */
export function readPackageJson(dir: string, what: () => string): Record<string, unknown> | null {
  const pj = join(dir, 'package.json');
  if (!isFile(pj)) return null;
  const text = new TextDecoder().decode(readBoundedFile(pj, PACKAGE_JSON_BYTES, `${what()}: its package.json ${pj}`));
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new ModuleGraphError(`${what()}: its package.json (${pj}) is not JSON`);
  }
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The package a bare specifier names, and the subpath in it ('' for its main entry). */
export function splitPackageSpecifier(spec: string, what: () => string): { name: string; subpath: string } {
  const parts = spec.split('/');
  const scoped = spec.startsWith('@');
  const name = scoped ? parts.slice(0, 2).join('/') : parts[0]!;
  if (!/^(@[a-z0-9._~-][a-z0-9._~-]*\/)?[a-z0-9._~-][a-z0-9._~-]*$/i.test(name) || name.startsWith('.') || (scoped && parts.length < 2)) {
    throw new ModuleGraphError(`${what()}: not a package name`);
  }
  const rest = parts.slice(scoped ? 2 : 1);
  return { name, subpath: rest.length ? `./${rest.join('/')}` : '' };
}

/**
 * The folder of the installed package a file lies in (`.../node_modules/<name>` or
 * `.../node_modules/@scope/<name>`), or null for a file outside any node_modules folder.
 */
export function packageRootOf(file: string): string | null {
  const parts = file.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length - 1) return null;
  const scoped = parts[at + 1]!.startsWith('@');
  const end = at + (scoped ? 3 : 2);
  if (end >= parts.length) return null;
  return parts.slice(0, end).join(sep);
}

/** Where an ES import leads from `importer` (a real file path). */
export function resolveImport(spec: string, importer: string, what: () => string): Resolved {
  if (spec === 'retrosim' || spec.startsWith('retrosim/')) {
    if (!(spec in SUBPATHS)) throw new ModuleGraphError(`${what()}: not an entry of the runtime (${Object.keys(SUBPATHS).join(', ')})`);
    return { kind: 'runtime' };
  }
  if (spec.startsWith('node:') || isBuiltin(spec)) return { kind: 'builtin', name: spec };
  if (spec.startsWith('./') || spec.startsWith('../')) {
    const requested = localPath(spec, importer, what);
    return { kind: 'file', path: realFile(requested, what), requested };
  }
  if (spec.startsWith('#')) throw new ModuleGraphError(`${what()}: a package import, which the module graph cannot follow: import the module by a relative path`);
  if (spec.startsWith('/') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(spec) || spec.includes('\\')) throw new ModuleGraphError(`${what()}: an absolute path or URL; import local modules by a relative path ('./name.mjs')`);
  const requested = packageImport(spec, importer, what);
  return { kind: 'file', path: realFile(requested, what), requested };
}

/** Where a CommonJS `require` leads from `importer`, by the engine's own resolver. */
export function resolveRequire(spec: string, importer: string, what: () => string): Resolved {
  if (spec === 'retrosim' || spec.startsWith('retrosim/')) throw new ModuleGraphError(`${what()}: require of the runtime; import it instead (import ... from 'retrosim')`);
  if (spec.startsWith('node:') || isBuiltin(spec)) return { kind: 'builtin', name: spec };
  if (spec.startsWith('#')) throw new ModuleGraphError(`${what()}: a package import, which the module graph cannot follow: require the module by a relative path`);
  if (spec.startsWith('/') || spec.includes('\\') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(spec)) throw new ModuleGraphError(`${what()}: an absolute path or URL; require local modules by a relative path`);
  let path: string;
  try {
    path = createRequire(importer).resolve(spec);
  } catch (e) {
    throw new ModuleGraphError(`${what()}: cannot be resolved (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (isBuiltin(path)) return { kind: 'builtin', name: path };
  const real = realFile(path, what);
  if (spec.startsWith('./') || spec.startsWith('../')) return { kind: 'file', path: real, requested: real };
  // A bare name: the package folder Node's lookup finds (a node_modules folder above the importer), which may
  // be a link to where the files are (pnpm). Found elsewhere (NODE_PATH, a global folder), a copy of the graph
  // could not find it the same way.
  const { name } = splitPackageSpecifier(spec, what);
  const pkg = lookupPackage(name, importer);
  const realPkg = pkg === null ? null : realpathSync(pkg);
  if (pkg === null || realPkg === null || !(real === realPkg || real.startsWith(realPkg + sep))) {
    throw new ModuleGraphError(`${what()}: resolves to ${real} through NODE_PATH or a global folder, not a node_modules folder above the module; install the package beside it`);
  }
  return { kind: 'file', path: real, requested: join(pkg, relative(realPkg, real)) };
}

/** The folder `<dir>/node_modules/<name>` Node's lookup finds first, from the importer's folder up; null if none. */
function lookupPackage(name: string, importer: string): string | null {
  for (let dir = dirname(importer); ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const pkg = join(dir, 'node_modules', name);
      if (isDir(pkg)) return pkg;
    }
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The symbolic links on a path, from the root down: each link's path and the real path it leads to, so that a
 * sealed copy can make the same links. Paths whose folders hold no link give none.
 */
export function linksOn(path: string): [string, string][] {
  const out: [string, string][] = [];
  const parts = path.split(sep);
  for (let i = 2; i <= parts.length; i++) {
    const p = parts.slice(0, i).join(sep) || sep;
    let st;
    try {
      st = lstatSync(p);
    } catch {
      break;
    }
    if (st.isSymbolicLink()) out.push([p, realpathSync(p)]);
  }
  return out;
}

/** A relative specifier resolved as Node resolves an ES module's: a URL against the importer (the path, links not followed). */
function localPath(spec: string, importer: string, what: () => string): string {
  let path: string;
  try {
    const url = new URL(spec, pathToFileURL(importer));
    url.search = '';
    url.hash = '';
    path = fileURLToPath(url);
  } catch (e) {
    throw new ModuleGraphError(`${what()}: not a file path (${(e as Error).message})`);
  }
  return path;
}

/** A bare ES specifier: the package's folder found as Node finds it, then its exports or main. */
function packageImport(spec: string, importer: string, what: () => string): string {
  const { name, subpath } = splitPackageSpecifier(spec, what);
  for (let dir = dirname(importer); ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const pkg = join(dir, 'node_modules', name);
      if (isDir(pkg)) {
        const pj = readPackageJson(pkg, what);
        const exports = pj?.['exports'];
        let target: string;
        if (exports !== undefined && exports !== null) target = exportsTarget(pkg, subpath || '.', exports, what);
        else if (subpath === '') target = legacyMain(pkg, pj, what);
        else target = join(pkg, subpath);
        return target;
      }
    }
    if (dirname(dir) === dir) break;
  }
  throw new ModuleGraphError(`${what()}: the package is not installed where Node would look for it (a node_modules folder above ${dirname(importer)})`);
}

/** Node's legacy main resolution for an ES import of a package without "exports". */
function legacyMain(pkg: string, pj: Record<string, unknown> | null, what: () => string): string {
  const main = pj?.['main'];
  if (typeof main === 'string' && main !== '') {
    for (const tail of ['', '.js', '.json', '.node', '/index.js', '/index.json', '/index.node']) {
      const f = join(pkg, main + tail);
      if (isFile(f)) return f;
    }
  }
  for (const f of ['index.js', 'index.json', 'index.node']) if (isFile(join(pkg, f))) return join(pkg, f);
  throw new ModuleGraphError(`${what()}: the package has no main entry (${pkg})`);
}

/** The file an "exports" field maps `subpath` ('.' or './x') to (Node's PACKAGE_EXPORTS_RESOLVE). */
function exportsTarget(pkg: string, subpath: string, exports: unknown, what: () => string): string {
  const notExported = () => new ModuleGraphError(`${what()}: the package does not export ${JSON.stringify(subpath)} for an import`);
  let map: Record<string, unknown>;
  const isSubpathMap = exports !== null && typeof exports === 'object' && !Array.isArray(exports) && Object.keys(exports).some((k) => k.startsWith('.'));
  if (isSubpathMap) map = exports as Record<string, unknown>;
  else map = { '.': exports };
  if (Object.prototype.hasOwnProperty.call(map, subpath) && !subpath.includes('*')) {
    const r = target(pkg, map[subpath], '', false, what);
    if (r === null) throw notExported();
    return r;
  }
  // Patterns: the key with the longest prefix before its one '*' that matches.
  let best: string | null = null;
  let match = '';
  for (const key of Object.keys(map)) {
    const star = key.indexOf('*');
    if (star < 0 || key.indexOf('*', star + 1) >= 0) continue;
    const pre = key.slice(0, star);
    const post = key.slice(star + 1);
    if (subpath.length >= key.length && subpath.startsWith(pre) && subpath.endsWith(post) && (best === null || patternKeyCompare(best, key) > 0)) {
      best = key;
      match = subpath.slice(pre.length, subpath.length - post.length);
    }
  }
  if (best !== null) {
    const r = target(pkg, map[best], match, true, what);
    if (r !== null) return r;
  }
  throw notExported();
}

/** Node's PATTERN_KEY_COMPARE: longer prefix first, then longer key. */
function patternKeyCompare(a: string, b: string): number {
  const ia = a.indexOf('*');
  const ib = b.indexOf('*');
  const la = ia < 0 ? a.length : ia + 1;
  const lb = ib < 0 ? b.length : ib + 1;
  if (la > lb) return -1;
  if (lb > la) return 1;
  if (ia < 0) return 1;
  if (ib < 0) return -1;
  if (a.length > b.length) return -1;
  if (b.length > a.length) return 1;
  return 0;
}

/** Node's PACKAGE_TARGET_RESOLVE for an import: a path in the package, or null when nothing matches. */
function target(pkg: string, t: unknown, match: string, pattern: boolean, what: () => string, depth = 0): string | null {
  if (depth > 32) throw new ModuleGraphError(`${what()}: the package's exports nest too deeply`);
  if (typeof t === 'string') {
    if (!t.startsWith('./')) throw new ModuleGraphError(`${what()}: the package's exports map to ${JSON.stringify(t)}, which is not a path in the package`);
    const segments = t.slice(2).split(/[\\/]/);
    if (segments.some((s) => s === '..' || s === '.' || s.toLowerCase() === 'node_modules')) throw new ModuleGraphError(`${what()}: the package's exports map to ${JSON.stringify(t)}, outside the package`);
    const resolved = pattern ? t.split('*').join(match) : t;
    if (pattern && match.split(/[\\/]/).some((s) => s === '..' || s === '.' || s.toLowerCase() === 'node_modules')) throw new ModuleGraphError(`${what()}: the subpath leaves the package`);
    return join(pkg, resolved.slice(2));
  }
  if (Array.isArray(t)) {
    for (const x of t) {
      try {
        const r = target(pkg, x, match, pattern, what, depth + 1);
        if (r !== null) return r;
      } catch (e) {
        if (!(e instanceof ModuleGraphError)) throw e;
      }
    }
    return null;
  }
  if (t !== null && typeof t === 'object') {
    for (const [cond, v] of Object.entries(t as Record<string, unknown>)) {
      if (!IMPORT_CONDITIONS.includes(cond)) continue;
      const r = target(pkg, v, match, pattern, what, depth + 1);
      if (r !== null) return r;
    }
    return null;
  }
  return null;
}
