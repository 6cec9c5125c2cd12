/**
 * A scenario module's graph: every file of code it loads, found by parsing each (module-loads.ts) and
 * resolving each load as Node does (module-resolve.ts), and the hash that names it. A replay records the
 * graph, a batch job names a module by it, and a module is imported only from a sealed copy of exactly these
 * bytes (sealed-module.ts): what runs is what was hashed.
 *
 * The graph holds:
 * - the local modules: the entry (wherever it lies: a package's example run in place is the user's module too)
 *   and every file outside a node_modules folder it loads, by path relative to
 *   the entry's folder ('/'-separated), with the SHA-256 of its bytes; for a `.js` file, the package.json that
 *   says whether it is an ES module or CommonJS is one of them too (name the file `.mjs` to keep the
 *   package.json out);
 * - the packages: each installed package a load reaches, as "name@version#<SHA-256 of its content>", where
 *   its content is every file the graph loads from it and the package.json files that say how they load.
 *   A patched package of the same version is another package.
 *
 * 'retrosim' (the runtime loading the scenario) and Node's own modules are not part of it. Refused with a
 * ModuleGraphError naming the file (and the line): a load the graph cannot follow (module-loads.ts), a
 * missing file or a folder, a specifier that is an absolute path or URL, a package import ('#x'), a package
 * not installed or not exporting what is imported, a native add-on or WebAssembly file, and a graph over
 * the limits (MODULE_GRAPH_FILES files, limits.scenarioBytes a file, MODULE_GRAPH_BYTES in all).
 *
 * The hash (graph 2) is the SHA-256 of the graph's listing (`graphListing`, src/scenarios/graph-listing.ts): one line per local module and
 * one per package, sorted. A replay header holds the same list, so a reader recomputes it and refuses a
 * header whose list does not hash to its recorded hash. Replays written before this graph have a graph-1
 * hash (the local files' bytes and the packages' versions), which `legacyHash` computes for them.
 */
import { createHash } from 'node:crypto';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fnv1a64Hex } from '../binary/fnv.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { graphListing } from '../scenarios/graph-listing.js';
import { detectFormat, moduleLoads, ModuleScanError, type ModuleFormat } from './module-loads.js';
import { linksOn, ModuleGraphError, packageRootOf, readBoundedFile, readPackageJson, realFile, resolveImport, resolveRequire, type Resolved } from './module-resolve.js';

export { ModuleGraphError } from './module-resolve.js';

/** Most files one module graph may hold (local modules and package files together). */
export const MODULE_GRAPH_FILES = 1000;

/** Most bytes all files of one module graph may hold together. */
export const MODULE_GRAPH_BYTES = 4 * DEFAULT_LIMITS.scenarioBytes;

/** A scenario module's graph and its hash. */
export interface ModuleGraph {
  /** SHA-256 (64 lower-case hex digits) of the graph's listing. */
  hash: string;
  /** "0x" + the first 16 hex digits of `hash`: what a replay records as the scenario's content hash. */
  contentHash: string;
  /** The entry file's real path. */
  entry: string;
  /** The local modules, entry included, relative to the entry's folder ('/'-separated), sorted. */
  files: string[];
  /** SHA-256 (64 hex digits) of each local module's bytes, in the order of `files`. */
  fileHashes: string[];
  /** The packages, as "name@version#<SHA-256 of the content>", sorted. */
  packages: string[];
  /** The graph-1 content hash ("0x" + 16 hex digits) of replays recorded before graph 2. */
  legacyHash: string;
  /** The local modules as a graph-1 replay lists them: by path, with the FNV-1a 64 of their bytes. */
  legacyModules: { path: string; hash: string }[];
  /** The packages as a graph-1 replay lists them: those the local modules import, as "name@version", sorted. */
  legacyPackages: string[];
  /** Every file the graph loads, by real path, with the bytes that were hashed: what a sealed copy holds. */
  sources: ReadonlyMap<string, Uint8Array>;
  /** The symbolic links the graph's loads pass through (a linked package, a linked helper): link -> real path. */
  links: ReadonlyMap<string, string>;
}

/** Bounds of one graph (defaults: MODULE_GRAPH_FILES, limits.scenarioBytes, MODULE_GRAPH_BYTES). */
export interface ModuleGraphLimits {
  files?: number;
  fileBytes?: number;
  totalBytes?: number;
}

/** Files whose bytes are data, not code (hashed, never parsed). */
const DATA = new Set(['.json']);
/** How Node runs a file by its extension (`.js` depends on its package.json). */
const FORMATS: Record<string, ModuleFormat | 'scope'> = { '.mjs': 'esm', '.cjs': 'cjs', '.js': 'scope' };

/** The SHA-256 of a graph's listing (graph-listing.ts), by node:crypto. */
function listingHash(modules: readonly { path: string; hash: string }[], packages: readonly string[]): string {
  return createHash('sha256').update(graphListing(modules, packages)).digest('hex');
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const slash = (p: string): string => p.split(sep).join('/');

interface PackageFiles {
  name: string;
  version: string;
  files: Map<string, Uint8Array>;
}

/**
 * The module graph of the scenario module at `entry`, and its hash; see the module comment.
 *
 * @example
 * const { hash, files } = moduleGraph('examples/guards/guards.mjs');
 */
export function moduleGraph(entry: string, limits: ModuleGraphLimits = {}): ModuleGraph {
  const maxFiles = limits.files ?? MODULE_GRAPH_FILES;
  const fileBytes = limits.fileBytes ?? DEFAULT_LIMITS.scenarioBytes;
  const totalBytes = limits.totalBytes ?? MODULE_GRAPH_BYTES;
  const first = realFile(resolve(entry), () => `scenario module ${entry}`);
  const root = dirname(first);
  const shown = (p: string) => (p === first ? entry : slash(relative(root, p)));
  const sources = new Map<string, Uint8Array>();
  /** Local files: modules, data, and the package.json files that set a `.js` file's format. */
  const local = new Map<string, Uint8Array>();
  /** Local module files and data only (what graph 1 hashed), and the packages they import directly. */
  const legacyFiles = new Set<string>();
  const legacyPackages = new Set<string>();
  const packages = new Map<string, PackageFiles>();
  const links = new Map<string, string>();
  let total = 0;

  const read = (file: string, what: string): Uint8Array => {
    const known = sources.get(file);
    if (known) return known;
    if (sources.size >= maxFiles) throw new ModuleGraphError(`scenario module ${entry}: its module graph has more than ${maxFiles} files`);
    const bytes = readBoundedFile(file, fileBytes, what);
    total += bytes.length;
    if (total > totalBytes) throw new ModuleGraphError(`scenario module ${entry}: its module graph is over the limit of ${totalBytes} bytes in all`);
    sources.set(file, bytes);
    return bytes;
  };
  /** The entry is the user's own module wherever it lies (a package's example run in place too). */
  const localFile = (file: string): boolean => file === first || packageRootOf(file) === null;
  const place = (file: string, bytes: Uint8Array): void => {
    const pkg = packageRootOf(file);
    if (pkg === null || file === first) {
      local.set(file, bytes);
      return;
    }
    let p = packages.get(pkg);
    if (!p) {
      const pj = readPackageJson(pkg, () => `package ${slash(pkg)}`);
      const version = typeof pj?.['version'] === 'string' ? (pj['version'] as string).slice(0, 256) : '';
      const name = packageName(pkg);
      p = { name, version, files: new Map() };
      packages.set(pkg, p);
      const pjPath = join(pkg, 'package.json');
      if (pj !== null) p.files.set('package.json', read(pjPath, `package ${name}: its package.json`));
    }
    p.files.set(slash(relative(pkg, file)), bytes);
  };
  /** The format of a `.js` file: its nearest package.json's "type" (that file joins the graph), else detected. */
  const scopeFormat = (file: string, text: string): ModuleFormat => {
    const stop = packageRootOf(file);
    for (let dir = dirname(file); ; dir = dirname(dir)) {
      const pj = readPackageJson(dir, () => shown(file));
      if (pj !== null) {
        const pjPath = join(dir, 'package.json');
        place(pjPath, read(pjPath, `${shown(file)}: its package.json`));
        if (pj['type'] === 'module') return 'esm';
        if (pj['type'] === 'commonjs') return 'cjs';
        break;
      }
      if (dir === stop || dirname(dir) === dir) break;
    }
    const detected = detectFormat(text);
    if (detected === null) throw new ModuleGraphError(`${shown(file)}: is not valid JavaScript (neither a CommonJS script nor an ES module)`);
    return detected;
  };

  const todo: { file: string; from: string | null; direct: boolean }[] = [{ file: first, from: null, direct: true }];
  const seen = new Set<string>();
  while (todo.length) {
    const { file, direct } = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const bytes = read(file, `scenario module ${shown(file)}`);
    place(file, bytes);
    const isLocal = localFile(file);
    if (isLocal) legacyFiles.add(file);
    const ext = extname(file).toLowerCase();
    if (DATA.has(ext)) continue;
    const kind = FORMATS[ext];
    if (kind === undefined) throw new ModuleGraphError(`${shown(file)}: not a file Node runs as a module here (.mjs, .cjs, .js or .json)`);
    const text = new TextDecoder().decode(bytes);
    const format = kind === 'scope' ? scopeFormat(file, text) : kind;
    let loads;
    try {
      loads = moduleLoads(text, format);
    } catch (e) {
      if (!(e instanceof ModuleScanError)) throw e;
      throw new ModuleGraphError(`${shown(file)}: ${e.message}`);
    }
    for (const load of loads) {
      const what = () => `${shown(file)} ${load.kind === 'require' ? 'requires' : 'imports'} ${JSON.stringify(load.specifier)} (line ${load.line})`;
      const r: Resolved = load.kind === 'import' ? resolveImport(load.specifier, file, what) : resolveRequire(load.specifier, file, what);
      if (r.kind !== 'file') continue;
      for (const [link, real] of linksOn(r.requested)) links.set(link, real);
      const ext2 = extname(r.path).toLowerCase();
      if (ext2 === '.node' || ext2 === '.wasm') throw new ModuleGraphError(`${what()}: a native add-on or WebAssembly file, whose code the module graph cannot read`);
      if (isLocal && direct && packageRootOf(r.path) !== null) {
        const pkg = packageRootOf(r.path)!;
        const pj = readPackageJson(pkg, what);
        const name = packageName(pkg);
        legacyPackages.add(`${name}@${typeof pj?.['version'] === 'string' ? (pj['version'] as string).slice(0, 256) : ''}`);
      }
      todo.push({ file: r.path, from: file, direct: isLocal });
    }
  }

  const modules = [...local].map(([f, b]) => ({ path: slash(relative(root, f)), hash: sha256(b) }));
  modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const pkgs = [...packages.values()].map((p) => `${p.name}@${p.version}#${packageContentHash(p.files)}`);
  pkgs.sort();
  const hash = listingHash(modules, pkgs);
  return {
    hash,
    contentHash: `0x${hash.slice(0, 16)}`,
    entry: first,
    files: modules.map((m) => m.path),
    fileHashes: modules.map((m) => m.hash),
    packages: [...new Set(pkgs)],
    legacyHash: legacyGraphHash(root, legacyFiles, sources, legacyPackages),
    legacyPackages: [...legacyPackages].sort(),
    legacyModules: [...legacyFiles].map((f) => ({ path: slash(relative(root, f)), hash: fnv1a64Hex(sources.get(f)!) })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    sources,
    links,
  };
}

/** SHA-256 of a package's content: its files' paths (relative to the package), lengths and bytes, sorted. */
function packageContentHash(files: ReadonlyMap<string, Uint8Array>): string {
  const h = createHash('sha256').update('retrosim package 1\n');
  for (const rel of [...files.keys()].sort()) {
    const b = files.get(rel)!;
    h.update(`file ${JSON.stringify(rel)} ${b.length}\n`);
    h.update(b);
    h.update('\n');
  }
  return h.digest('hex');
}

/** The graph-1 hash of replays recorded before graph 2: local files by path and bytes, packages by version. */
function legacyGraphHash(root: string, files: ReadonlySet<string>, sources: ReadonlyMap<string, Uint8Array>, packages: ReadonlySet<string>): string {
  const list = [...files].map((f) => ({ rel: slash(relative(root, f)), bytes: sources.get(f)! }));
  list.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const h = createHash('sha256').update('retrosim module graph 1\n');
  for (const f of list) {
    h.update(`file ${JSON.stringify(f.rel)} ${f.bytes.length}\n`);
    h.update(f.bytes);
    h.update('\n');
  }
  for (const p of [...packages].sort()) h.update(`package ${JSON.stringify(p)}\n`);
  return `0x${h.digest('hex').slice(0, 16)}`;
}

/** A package's name from its folder: the part of the path after the last node_modules. */
function packageName(pkgRoot: string): string {
  const parts = pkgRoot.split(sep);
  return parts.slice(parts.lastIndexOf('node_modules') + 1).join('/');
}
