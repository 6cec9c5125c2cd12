/**
 * The content hash of a scenario module's graph: the entry file and every local module it imports,
 * followed through static imports (`import x from "spec"`, `import "spec"`), re-exports (`export ... from
 * "spec"`) and dynamic imports of a string literal (`import("spec")`), as Node would load them. A batch job
 * names a scenario module by this hash, and a worker runs only modules whose graph it was given on its own
 * disk: the hash changes when any file of the graph changes, and not when any other file does.
 *
 * Specifiers are found by a small scanner that skips comments, strings, template literals and regular
 * expressions, so `import` inside them is not an import. Local specifiers ('./x.mjs', '../y.js') resolve
 * as Node resolves an ES module's: a URL relative to the importing file's real path, to an exact file (no
 * extension added, no folder's index). 'retrosim' and its subpaths are the runtime loading the scenario,
 * and Node's built-in modules are Node's: neither is hashed. Any other package is hashed by its name and
 * the version in its package.json, found where Node would find it (the `node_modules` folders above the
 * importing file), so upgrading it changes the hash.
 *
 * What the hash covers: each module's path relative to the entry's folder and its bytes, and each
 * package's name and version; files sorted by that path and packages by name, so the hash does not depend
 * on the order the scanner met them. Refused with a ModuleGraphError naming the importing file: a missing
 * file or a folder, a specifier the graph cannot follow (an absolute path or URL, a package import '#x',
 * a dynamic import of anything but a string literal), a package not installed, and a graph over the
 * limits (MODULE_GRAPH_FILES files, limits.scenarioBytes a file, MODULE_GRAPH_BYTES in all).
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fnv1a64Hex } from '../binary/fnv.js';
import { DEFAULT_LIMITS } from '../limits.js';

/** Most files one module graph may hold. */
export const MODULE_GRAPH_FILES = 1000;

/** Most bytes all files of one module graph may hold together. */
export const MODULE_GRAPH_BYTES = 4 * DEFAULT_LIMITS.scenarioBytes;

/** Largest package.json read for a package's version. */
const PACKAGE_JSON_BYTES = 1024 * 1024;

/** A scenario module's graph and its hash. */
export interface ModuleGraph {
  /** SHA-256 (64 lower-case hex digits) of the files' relative paths and bytes and the packages' versions. */
  hash: string;
  /** The entry file's real path. */
  entry: string;
  /** The local modules, entry included, relative to the entry's folder ('/'-separated), sorted. */
  files: string[];
  /** FNV-1a 64 ("0x" + 16 hex digits) of each file's bytes, in the order of `files`. */
  fileHashes: string[];
  /** The packages imported, as "name@version", sorted. */
  packages: string[];
}

/** Bounds of one graph (defaults: MODULE_GRAPH_FILES, limits.scenarioBytes, MODULE_GRAPH_BYTES). */
export interface ModuleGraphLimits {
  files?: number;
  fileBytes?: number;
  totalBytes?: number;
}

/** A module graph that cannot be hashed: the message names the file and what is wrong. */
export class ModuleGraphError extends Error {
  override readonly name = 'ModuleGraphError';
}

/** Extensions whose files are read for imports (others, such as JSON, are hashed as data). */
const NOT_SCANNED = new Set(['.json', '.wasm', '.node']);

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
  const shown = (p: string) => (p === first ? entry : relative(root, p).split(sep).join('/'));
  const bytesOf = new Map<string, Uint8Array>();
  const packages = new Set<string>();
  const todo = [first];
  let total = 0;
  while (todo.length) {
    const file = todo.pop()!;
    if (bytesOf.has(file)) continue;
    if (bytesOf.size >= maxFiles) throw new ModuleGraphError(`scenario module ${entry}: its module graph has more than ${maxFiles} files`);
    const bytes = readBounded(file, fileBytes, `scenario module ${shown(file)}`);
    total += bytes.length;
    if (total > totalBytes) throw new ModuleGraphError(`scenario module ${entry}: its module graph is over the limit of ${totalBytes} bytes in all`);
    bytesOf.set(file, bytes);
    if (NOT_SCANNED.has(extname(file).toLowerCase())) continue;
    const text = new TextDecoder().decode(bytes);
    let specs: Specifier[];
    try {
      specs = importSpecifiers(text);
    } catch (e) {
      throw new ModuleGraphError(`${shown(file)}: ${(e as Error).message}`);
    }
    for (const s of specs) {
      const what = () => `${shown(file)} imports ${JSON.stringify(s.specifier)}`;
      if (s.specifier === null) throw new ModuleGraphError(`${shown(file)}: an import() of something other than a string literal (line ${s.line}), which the module graph cannot follow: import a module named by a literal`);
      const spec = s.specifier;
      if (spec.startsWith('./') || spec.startsWith('../')) {
        todo.push(localModule(spec, file, what));
      } else if (spec === 'retrosim' || spec.startsWith('retrosim/') || spec.startsWith('node:') || isBuiltin(spec)) {
        continue; // the runtime loading the scenario, or Node's own
      } else if (spec.startsWith('#')) {
        throw new ModuleGraphError(`${what()}: a package import, which the module graph cannot follow: import the module by a relative path`);
      } else if (spec.startsWith('/') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(spec) || spec.includes('\\')) {
        throw new ModuleGraphError(`${what()}: an absolute path or URL; import local modules by a relative path ('./name.mjs')`);
      } else {
        packages.add(packageVersion(spec, file, what));
      }
    }
  }
  const files = [...bytesOf.keys()].map((f) => ({ rel: relative(root, f).split(sep).join('/'), bytes: bytesOf.get(f)! }));
  files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const pkgs = [...packages].sort();
  const h = createHash('sha256').update('retrosim module graph 1\n');
  for (const f of files) {
    h.update(`file ${JSON.stringify(f.rel)} ${f.bytes.length}\n`);
    h.update(f.bytes);
    h.update('\n');
  }
  for (const p of pkgs) h.update(`package ${JSON.stringify(p)}\n`);
  return { hash: h.digest('hex'), entry: first, files: files.map((f) => f.rel), fileHashes: files.map((f) => fnv1a64Hex(f.bytes)), packages: pkgs };
}

/** A relative specifier resolved as Node resolves an ES module's: a URL against the importer, an exact file. */
function localModule(spec: string, importer: string, what: () => string): string {
  let path: string;
  try {
    const url = new URL(spec, pathToFileURL(importer));
    url.search = '';
    url.hash = '';
    path = fileURLToPath(url);
  } catch (e) {
    throw new ModuleGraphError(`${what()}: not a file path (${(e as Error).message})`);
  }
  return realFile(path, what);
}

/** The real path of a regular file (Node loads modules by their real paths); refuses a folder or a missing file. */
function realFile(path: string, what: () => string): string {
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

/** A file's bytes, read with a running count against `max` (a file may report a size it does not have). */
function readBounded(path: string, max: number, what: string): Uint8Array {
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
      if (n > max) throw new ModuleGraphError(`${what}: over the limit of ${max} bytes (limits.scenarioBytes)`);
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

/** "name@version" of the package a bare specifier names, its package.json found as Node finds it. */
function packageVersion(spec: string, importer: string, what: () => string): string {
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  if (!/^(@[a-z0-9._~-][a-z0-9._~-]*\/)?[a-z0-9._~-][a-z0-9._~-]*$/i.test(name) || name.startsWith('.') || (spec.startsWith('@') && parts.length < 2)) {
    throw new ModuleGraphError(`${what()}: not a package name`);
  }
  for (let dir = dirname(importer); ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const pj = join(dir, 'node_modules', name, 'package.json');
      let isFile = false;
      try {
        isFile = statSync(pj).isFile();
      } catch {
        isFile = false;
      }
      if (isFile) {
        const text = new TextDecoder().decode(readBounded(pj, PACKAGE_JSON_BYTES, `${what()}: its package.json ${pj}`));
        let version: unknown;
        try {
          version = (JSON.parse(text) as { version?: unknown } | null)?.version;
        } catch {
          throw new ModuleGraphError(`${what()}: its package.json (${pj}) is not JSON`);
        }
        return `${name}@${typeof version === 'string' ? version.slice(0, 256) : ''}`;
      }
    }
    if (dirname(dir) === dir) break;
  }
  throw new ModuleGraphError(`${what()}: the package is not installed where Node would look for it (a node_modules folder above ${dirname(importer)})`);
}

/** An import the scanner found: the specifier, or null for an import() of something else than a literal. */
export interface Specifier {
  specifier: string | null;
  /** 1-based line of the `import` or `export` keyword. */
  line: number;
}

type Tok = { t: 'id' | 'str' | 'punct' | 'other'; v: string; line: number; at: number };

/**
 * Tokens the scanner looks ahead from an `import` or `export` for the rest of its statement (far more than
 * any real import clause or method's parameter list), so that a hostile file cannot make it quadratic.
 */
const LOOKAHEAD = 1024;

/** Keywords after which a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await', 'extends']);

/**
 * The module specifiers a JavaScript module's text imports, in order (see the module comment): static
 * imports, re-exports, and dynamic imports (null when not of a string literal). Throws on an unterminated
 * comment, string, template or regular expression.
 */
export function importSpecifiers(src: string): Specifier[] {
  const toks = tokens(src);
  const out: Specifier[] = [];
  const strAt = (i: number): string | undefined => (toks[i]?.t === 'str' ? toks[i]!.v : undefined);
  for (let i = 0; i < toks.length; i++) {
    const k = toks[i]!;
    if (k.t !== 'id' || (k.v !== 'import' && k.v !== 'export')) continue;
    const prev = toks[i - 1];
    if (prev && prev.t === 'punct' && (prev.v === '.' || prev.v === '?.')) continue; // a property: x.import
    const next = toks[i + 1];
    if (!next) break;
    if (k.v === 'import') {
      if (next.t === 'punct' && next.v === '(') {
        const arg = toks[i + 2];
        if (arg?.t === 'punct' && arg.v === ')') continue; // import() {}: a method named import
        const s = strAt(i + 2);
        const after = toks[i + 3];
        if (s !== undefined && after?.t === 'punct' && (after.v === ')' || after.v === ',')) out.push({ specifier: s, line: k.line });
        else if (!isMethod(toks, i + 1)) out.push({ specifier: null, line: k.line });
        continue;
      }
      if (next.t === 'punct' && (next.v === '.' || next.v === ':' || next.v === '=' || next.v === ',' || next.v === ')')) continue; // import.meta, { import: x }
      if (next.t === 'str') {
        out.push({ specifier: next.v, line: k.line });
        continue;
      }
      // import <clause> from "spec": the first `from` followed by a string, before the statement ends.
      for (let j = i + 1; j < Math.min(toks.length, i + LOOKAHEAD); j++) {
        const x = toks[j]!;
        if (x.t === 'punct' && x.v === ';') break;
        if (x.t === 'id' && x.v === 'from' && toks[j + 1]?.t === 'str') {
          out.push({ specifier: toks[j + 1]!.v, line: k.line });
          i = j + 1;
          break;
        }
        if (x.t === 'str' || (x.t === 'id' && (x.v === 'import' || x.v === 'export'))) break;
      }
    } else {
      // export * from "spec", export * as ns from "spec", export { a, b as c } from "spec"
      let j = i + 1;
      if (next.t === 'punct' && next.v === '*') {
        j++;
        if (toks[j]?.t === 'id' && toks[j]!.v === 'as') j += 2;
      } else if (next.t === 'punct' && next.v === '{') {
        const end = Math.min(toks.length, j + LOOKAHEAD);
        while (j < end && !(toks[j]!.t === 'punct' && toks[j]!.v === '}')) j++;
        j++;
      } else continue;
      if (toks[j]?.t === 'id' && toks[j]!.v === 'from' && toks[j + 1]?.t === 'str') {
        out.push({ specifier: toks[j + 1]!.v, line: k.line });
        i = j + 1;
      }
    }
  }
  return out;
}

/** Whether the parenthesis at `open` closes on a `{`: `import(a) { ... }`, a method named import. */
function isMethod(toks: Tok[], open: number): boolean {
  let depth = 0;
  for (let j = open; j < Math.min(toks.length, open + LOOKAHEAD); j++) {
    const x = toks[j]!;
    if (x.t !== 'punct') continue;
    if (x.v === '(') depth++;
    else if (x.v === ')' && --depth === 0) return toks[j + 1]?.t === 'punct' && toks[j + 1]!.v === '{';
  }
  return false;
}

const isIdStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 36 || c === 95 || c >= 128 || c === 92;
const isIdPart = (c: number) => isIdStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * The significant tokens of a module's text: identifiers, strings (with their value; a template literal
 * without substitutions counts as a string), punctuators, and "other" (numbers, regular expressions, the
 * text parts of templates). Comments and white space are dropped.
 */
function tokens(src: string): Tok[] {
  const out: Tok[] = [];
  /** For each template literal we are inside of the `${`: the open braces of its expression. */
  const templates: number[] = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  const fail = (what: string, from: number): never => {
    throw new Error(`an unterminated ${what} (line ${lineOf(src, from)})`);
  };
  const regexAllowed = (): boolean => {
    const p = out[out.length - 1];
    if (!p) return true;
    if (p.t === 'id') return BEFORE_REGEX.has(p.v);
    if (p.t === 'str' || p.t === 'other') return false;
    return !(p.v === ')' || p.v === ']' || p.v === '}');
  };
  /** Reads a template literal's text from `i` (after the backtick or the `}` of a substitution). */
  const templateText = (start: number): void => {
    let cooked = '';
    let j = i;
    for (;;) {
      if (j >= n) fail('template literal', start);
      const c = src.charCodeAt(j);
      if (c === 96) {
        // whole template without substitutions (opened here): a string
        const opened = src.charCodeAt(start) === 96;
        out.push({ t: opened ? 'str' : 'other', v: cooked, line, at: start });
        i = j + 1;
        return;
      }
      if (c === 36 && src.charCodeAt(j + 1) === 123) {
        out.push({ t: 'other', v: '`', line, at: start });
        templates.push(0);
        i = j + 2;
        return;
      }
      if (c === 92) {
        cooked += src[j + 1] ?? '';
        if (src.charCodeAt(j + 1) === 10) line++;
        j += 2;
        continue;
      }
      if (c === 10) line++;
      cooked += src[j];
      j++;
    }
  };
  if (src.startsWith('#!')) while (i < n && src.charCodeAt(i) !== 10) i++;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 10) {
      line++;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff || c === 0x2028 || c === 0x2029) {
      i++;
      continue;
    }
    if (c === 47 && src.charCodeAt(i + 1) === 47) {
      while (i < n && src.charCodeAt(i) !== 10) i++;
      continue;
    }
    if (c === 47 && src.charCodeAt(i + 1) === 42) {
      const end = src.indexOf('*/', i + 2);
      if (end < 0) fail('comment', i);
      for (let j = i; j < end; j++) if (src.charCodeAt(j) === 10) line++;
      i = end + 2;
      continue;
    }
    if (c === 34 || c === 39) {
      const start = i;
      let v = '';
      i++;
      for (;;) {
        if (i >= n) fail('string', start);
        const d = src.charCodeAt(i);
        if (d === c) break;
        if (d === 10) fail('string', start);
        if (d === 92) {
          v += src[i + 1] ?? '';
          if (src.charCodeAt(i + 1) === 10) line++;
          i += 2;
          continue;
        }
        v += src[i];
        i++;
      }
      i++;
      out.push({ t: 'str', v, line, at: start });
      continue;
    }
    if (c === 96) {
      const start = i;
      i++;
      templateText(start);
      continue;
    }
    if (isIdStart(c)) {
      const start = i;
      while (i < n && isIdPart(src.charCodeAt(i))) i++;
      out.push({ t: 'id', v: src.slice(start, i), line, at: start });
      continue;
    }
    if (isDigit(c) || (c === 46 && isDigit(src.charCodeAt(i + 1)))) {
      const start = i;
      while (i < n && (isIdPart(src.charCodeAt(i)) || src.charCodeAt(i) === 46)) i++;
      out.push({ t: 'other', v: src.slice(start, i), line, at: start });
      continue;
    }
    if (c === 47 && regexAllowed()) {
      const start = i;
      let inClass = false;
      i++;
      for (;;) {
        if (i >= n || src.charCodeAt(i) === 10) fail('regular expression', start);
        const d = src.charCodeAt(i);
        if (d === 92) {
          i += 2;
          continue;
        }
        if (d === 91) inClass = true;
        else if (d === 93) inClass = false;
        else if (d === 47 && !inClass) break;
        i++;
      }
      i++;
      while (i < n && isIdPart(src.charCodeAt(i))) i++; // flags
      out.push({ t: 'other', v: src.slice(start, i), line, at: start });
      continue;
    }
    if (templates.length) {
      if (c === 123) templates[templates.length - 1]!++;
      else if (c === 125) {
        if (templates[templates.length - 1] === 0) {
          templates.pop();
          const start = i;
          i++;
          templateText(start);
          continue;
        }
        templates[templates.length - 1]!--;
      }
    }
    const two = src.slice(i, i + 2);
    if (two === '?.' && !isDigit(src.charCodeAt(i + 2))) {
      out.push({ t: 'punct', v: '?.', line, at: i });
      i += 2;
      continue;
    }
    out.push({ t: 'punct', v: src[i]!, line, at: i });
    i++;
  }
  if (templates.length) fail('template literal substitution', n);
  return out;
}

function lineOf(src: string, at: number): number {
  let l = 1;
  for (let j = 0; j < at && j < src.length; j++) if (src.charCodeAt(j) === 10) l++;
  return l;
}
