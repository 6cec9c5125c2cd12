/**
 * What one JavaScript module loads, read from its syntax tree (acorn, a real parser: text in comments,
 * strings, templates and regular expressions is never taken for an import). A scenario's module graph
 * (module-graph.ts) follows these loads; anything that could load code it cannot follow is refused here,
 * naming the line, so that a replay or a batch job never records an identity that leaves code out.
 *
 * Followed: static imports and re-exports, `import()` of a string literal (or a template without
 * substitutions), `require("literal")` and `module.require("literal")`, and the `require` made by
 * `createRequire(import.meta.url)` (called at once, or bound to a name that is only ever called with a
 * literal). JSON imports (`with { type: 'json' }`) are data. `Function("literal body")` is parsed and its
 * body checked like the rest.
 *
 * Refused: `import()` or `require()` of anything else; `require` (or a createRequire's result) used as a
 * value; `createRequire` of another base than `import.meta.url`; `eval` in any form; `Function(...)` of
 * anything but literals; `process.binding`, `process.dlopen`, `process._linkedBinding`,
 * `process.mainModule`; Node's modules that run or load code of their own (REFUSED_BUILTINS), and any part of
 * `node:module` but `createRequire`, `isBuiltin` and `builtinModules` (it can register loaders).
 *
 * What it cannot see: code reached through computed names (`globalThis['ev' + 'al']`), a `Function` constructor
 * reached through an object (`(() => {}).constructor`), a value aliased before it is called. The graph
 * identifies code written in the open; it is not a sandbox (docs/batch.md, security model).
 */
import { parse, type Node as AcornNode, type Options } from 'acorn';

/** How a module is parsed: an ES module or a CommonJS script. */
export type ModuleFormat = 'esm' | 'cjs';

/** One load a module makes. */
export interface ModuleLoad {
  /** `import`: resolved as an ES module import; `require`: as CommonJS `require` resolves. */
  kind: 'import' | 'require';
  specifier: string;
  /** An import with `with { type: 'json' }`. */
  json: boolean;
  /** 1-based line. */
  line: number;
}

/** A load the graph cannot follow, or text that does not parse: the message names the line. */
export class ModuleScanError extends Error {
  override readonly name = 'ModuleScanError';
  constructor(
    message: string,
    /** 1-based line, or 0 when the whole file is at fault. */
    readonly line: number,
  ) {
    super(message);
  }
}

/** Node's modules that run or load code the module graph cannot follow (a process, a thread, a context). */
export const REFUSED_BUILTINS: ReadonlySet<string> = new Set(['child_process', 'worker_threads', 'vm', 'cluster', 'inspector', 'inspector/promises', 'wasi', 'repl', 'trace_events']);

/**
 * What a module may take by name from a refused built-in: facts about the thread it runs on and the data it
 * was started with, which load no code (a Worker would).
 */
const HARMLESS_NAMES: Readonly<Record<string, ReadonlySet<string>>> = { worker_threads: new Set(['isMainThread', 'threadId', 'workerData']) };

/** What a module may take from `node:module` (the rest can register loaders or load by computed names). */
const MODULE_EXPORTS_ALLOWED = new Set(['createRequire', 'isBuiltin', 'builtinModules']);

/** Properties of `process` that load native code or reach the main module's loader. */
const PROCESS_LOADERS = new Set(['binding', '_linkedBinding', 'dlopen', 'mainModule']);

/** Properties of `require` that only read (resolve a name, the cache, the main module), never load. */
const REQUIRE_READS = new Set(['resolve', 'cache', 'main']);

/** Globals through which `eval` or `Function` may be named as a property. */
const GLOBAL_NAMES = new Set(['globalThis', 'global', 'window', 'self']);

/** Deepest nesting of a `Function("...")` body inside another. */
const MAX_FUNCTION_BODY_DEPTH = 4;

type N = AcornNode & Record<string, any>;

const bare = (spec: string): string => (spec.startsWith('node:') ? spec.slice(5) : spec);

/** Whether `spec` names Node's module loader (`module`, `node:module`). */
export function isModuleBuiltin(spec: string): boolean {
  return bare(spec) === 'module';
}

/** Why a built-in module is refused, or null when it may be imported. */
export function refusedBuiltin(spec: string): string | null {
  return REFUSED_BUILTINS.has(bare(spec)) ? `${spec}, which runs code of its own (a process, a thread or a context)` : null;
}

function parseText(text: string, format: ModuleFormat): N {
  const options: Options = { ecmaVersion: 'latest', sourceType: format === 'esm' ? 'module' : 'script', locations: true, allowHashBang: true, allowReturnOutsideFunction: format === 'cjs', allowAwaitOutsideFunction: format === 'cjs' ? false : undefined };
  try {
    return parse(text, options) as N;
  } catch (e) {
    if (e instanceof RangeError) throw new ModuleScanError('is nested too deeply to parse', 0);
    const loc = (e as { loc?: { line: number } }).loc;
    throw new ModuleScanError(`is not valid JavaScript: ${(e as Error).message}`, loc?.line ?? 0);
  }
}

/**
 * Whether `text` parses as a CommonJS script; if not, whether as an ES module: Node's format detection for a
 * `.js` file whose package.json gives no "type". Null when it parses as neither.
 */
export function detectFormat(text: string): ModuleFormat | null {
  for (const format of ['cjs', 'esm'] as const) {
    try {
      parseText(text, format);
      return format;
    } catch {
      // try the next
    }
  }
  return null;
}

/** A string literal's value, or a template literal's without substitutions; undefined otherwise. */
function literalString(n: N | null | undefined): string | undefined {
  if (!n) return undefined;
  if (n.type === 'Literal' && typeof n.value === 'string') return n.value;
  if (n.type === 'TemplateLiteral' && n.expressions.length === 0) return n.quasis[0].value.cooked ?? undefined;
  return undefined;
}

function propertyName(m: N): string | undefined {
  if (m.type !== 'MemberExpression') return undefined;
  if (!m.computed && m.property.type === 'Identifier') return m.property.name as string;
  if (m.computed) return literalString(m.property);
  return undefined;
}

const isImportMetaUrl = (n: N | undefined): boolean => n?.type === 'MemberExpression' && !n.computed && n.object.type === 'MetaProperty' && n.object.meta.name === 'import' && n.object.property.name === 'meta' && n.property.type === 'Identifier' && n.property.name === 'url';

function jsonAttributes(attrs: N[] | undefined): boolean {
  return (attrs ?? []).some((a) => (a.key.type === 'Identifier' ? a.key.name : a.key.value) === 'type' && a.value.value === 'json');
}

/** Whether the options argument of `import(x, { with: { type: 'json' } })` asks for JSON. */
function jsonOptions(n: N | undefined | null): boolean {
  if (!n || n.type !== 'ObjectExpression') return false;
  for (const p of n.properties as N[]) {
    const key = p.key?.type === 'Identifier' ? p.key.name : p.key?.value;
    if ((key === 'with' || key === 'assert') && p.value?.type === 'ObjectExpression') {
      for (const q of p.value.properties as N[]) {
        const k = q.key?.type === 'Identifier' ? q.key.name : q.key?.value;
        if (k === 'type' && q.value?.value === 'json') return true;
      }
    }
  }
  return false;
}

/** Identifier nodes that declare a name (parameters, variables, catch clauses, classes, functions). */
function collectBindings(pattern: N | null | undefined, out: Set<N>): void {
  if (!pattern) return;
  switch (pattern.type) {
    case 'Identifier':
      out.add(pattern);
      return;
    case 'ObjectPattern':
      for (const p of pattern.properties as N[]) collectBindings(p.type === 'RestElement' ? p.argument : p.value, out);
      return;
    case 'ArrayPattern':
      for (const e of pattern.elements as (N | null)[]) collectBindings(e, out);
      return;
    case 'RestElement':
      collectBindings(pattern.argument, out);
      return;
    case 'AssignmentPattern':
      collectBindings(pattern.left, out);
      return;
  }
}

/**
 * The loads of a module's text, in source order; throws a ModuleScanError (naming the line) at the first
 * load the graph cannot follow, or when the text does not parse as `format`.
 */
export function moduleLoads(text: string, format: ModuleFormat): ModuleLoad[] {
  const loads: ModuleLoad[] = [];
  scan(parseText(text, format), format, loads, 0);
  return loads;
}

function scan(root: N, format: ModuleFormat, loads: ModuleLoad[], depth: number): void {
  const lineOf = (n: N): number => n.loc?.start.line ?? 0;
  const refuse = (n: N, what: string): never => {
    throw new ModuleScanError(`${what} (line ${lineOf(n)}), which the module graph cannot follow`, lineOf(n));
  };
  /** Names bound to a require function: `require` itself, and createRequire(import.meta.url)'s results. */
  const requireNames = new Set(['require']);
  /** Local names of `createRequire` imported from node:module. */
  const createRequireNames = new Set<string>();
  const bindings = new Set<N>();
  /** Identifier nodes already accounted for (a callee checked, a `typeof` operand, a read of require's). */
  const handled = new Set<N>();

  const addImport = (n: N, specifier: string, json: boolean): void => {
    const why = refusedBuiltin(specifier);
    const harmless = HARMLESS_NAMES[bare(specifier)];
    const onlyHarmless = n.type === 'ImportDeclaration' && harmless !== undefined && n.specifiers.length > 0 && (n.specifiers as N[]).every((x) => x.type === 'ImportSpecifier' && harmless.has(x.imported.name ?? x.imported.value));
    if (why && !onlyHarmless) refuse(n, `an import of ${why}${harmless ? ` (only ${[...harmless].join(', ').replace(/, ([^,]*)$/, ' and $1')} may be imported from it by name)` : ''}`);
    loads.push({ kind: 'import', specifier, json, line: lineOf(n) });
  };
  const addRequire = (call: N, arg: N | undefined): void => {
    const spec = literalString(arg);
    if (spec === undefined || call.arguments.length !== 1) refuse(call, 'a require() of something other than one string literal');
    if (isModuleBuiltin(spec!)) refuse(call, `a require of ${spec}, whose loader`);
    const why = refusedBuiltin(spec!);
    if (why) refuse(call, `a require of ${why}`);
    loads.push({ kind: 'require', specifier: spec!, json: false, line: lineOf(call) });
  };
  const checkFunctionBody = (call: N): void => {
    const args = call.arguments as N[];
    const texts = args.map(literalString);
    if (texts.some((t) => t === undefined)) refuse(call, 'Function() of something other than string literals');
    if (depth >= MAX_FUNCTION_BODY_DEPTH) refuse(call, 'Function() bodies nested too deeply');
    const params = texts.slice(0, -1).join(',');
    const body = texts.length ? texts[texts.length - 1]! : '';
    let inner: N;
    try {
      inner = parseText(`(function anonymous(${params}\n) {\n${body}\n})`, 'cjs');
    } catch (e) {
      refuse(call, `Function() of a body that does not parse (${(e as Error).message})`);
    }
    scan(inner!, 'cjs', loads, depth + 1);
  };

  // Pass 1: the names bound to createRequire (imports of node:module, at the top level of a module), then the
  // names bound to the requires it makes and every other binding, wherever they are in the text.
  for (const n of root.body as N[]) {
    if (n.type !== 'ImportDeclaration' || !isModuleBuiltin(n.source.value)) continue;
    for (const s of n.specifiers as N[]) {
      const imported = s.type === 'ImportSpecifier' ? (s.imported.name ?? s.imported.value) : undefined;
      if (imported === undefined || !MODULE_EXPORTS_ALLOWED.has(imported)) refuse(n, `an import of ${s.type === 'ImportSpecifier' ? `${imported} from ` : ''}${n.source.value} (only createRequire, isBuiltin and builtinModules may be taken from it)`);
      if (imported === 'createRequire') createRequireNames.add(s.local.name);
    }
  }
  const stack: N[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'VariableDeclarator') {
      collectBindings(n.id, bindings);
      const init = n.init as N | null;
      if (n.id.type === 'Identifier' && init?.type === 'CallExpression' && init.callee.type === 'Identifier' && createRequireNames.has(init.callee.name)) requireNames.add(n.id.name);
    }
    if (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression') {
      if (n.id) bindings.add(n.id);
      for (const p of n.params as N[]) collectBindings(p, bindings);
    }
    if (n.type === 'CatchClause') collectBindings(n.param, bindings);
    if ((n.type === 'ClassDeclaration' || n.type === 'ClassExpression') && n.id) bindings.add(n.id);
    if (n.type === 'ImportSpecifier' || n.type === 'ImportDefaultSpecifier' || n.type === 'ImportNamespaceSpecifier') bindings.add(n.local);
    pushChildren(n, stack);
  }

  // Pass 2: the loads, in source order (children pushed in reverse so that they come off the stack in order).
  const work: { n: N; parent: N | null; key: string }[] = [{ n: root, parent: null, key: '' }];
  while (work.length) {
    const { n, parent, key } = work.pop()!;
    switch (n.type) {
      case 'ImportDeclaration':
        addImport(n, n.source.value as string, jsonAttributes(n.attributes));
        break;
      case 'ExportAllDeclaration':
      case 'ExportNamedDeclaration':
        if (n.source) {
          if (isModuleBuiltin(n.source.value)) refuse(n, `a re-export of ${n.source.value}`);
          addImport(n, n.source.value as string, jsonAttributes(n.attributes));
        }
        break;
      case 'ImportExpression': {
        const spec = literalString(n.source);
        if (spec === undefined) refuse(n, 'an import() of something other than a string literal');
        if (isModuleBuiltin(spec!)) refuse(n, `an import() of ${spec}`);
        addImport(n, spec!, jsonOptions(n.options));
        break;
      }
      case 'CallExpression':
      case 'NewExpression': {
        const callee = n.callee as N;
        if (callee.type === 'Identifier') {
          handled.add(callee);
          if (callee.name === 'eval') refuse(n, 'eval');
          if (callee.name === 'Function') checkFunctionBody(n);
          if (n.type === 'CallExpression' && requireNames.has(callee.name)) addRequire(n, n.arguments[0]);
          if (createRequireNames.has(callee.name)) {
            if (n.arguments.length !== 1 || !isImportMetaUrl(n.arguments[0])) refuse(n, 'a createRequire() of another base than import.meta.url');
            if (parent?.type === 'CallExpression' && key === 'callee') {
              // createRequire(import.meta.url)("spec"): the outer call is the require.
            } else if (parent?.type === 'VariableDeclarator' && key === 'init' && parent.id.type === 'Identifier') {
              // bound to a name (collected in pass 1): every use of the name is checked
            } else refuse(n, 'a require made by createRequire() used otherwise than called with a literal or bound to a name');
          }
        } else if (callee.type === 'CallExpression' && callee.callee.type === 'Identifier' && createRequireNames.has(callee.callee.name) && n.type === 'CallExpression') {
          addRequire(n, n.arguments[0]);
        } else if (callee.type === 'MemberExpression') {
          const prop = propertyName(callee);
          const obj = callee.object as N;
          if (prop === 'require' && obj.type === 'Identifier' && obj.name === 'module' && n.type === 'CallExpression') addRequire(n, n.arguments[0]);
          if (prop === 'Function' && obj.type === 'Identifier' && GLOBAL_NAMES.has(obj.name)) checkFunctionBody(n);
        }
        break;
      }
      case 'MemberExpression': {
        const prop = propertyName(n);
        const obj = n.object as N;
        if (prop === 'eval') refuse(n, 'eval');
        if (obj.type === 'Identifier' && obj.name === 'process' && prop !== undefined && PROCESS_LOADERS.has(prop)) refuse(n, `process.${prop}`);
        if (obj.type === 'Identifier' && requireNames.has(obj.name) && prop !== undefined && REQUIRE_READS.has(prop)) handled.add(obj);
        break;
      }
      case 'UnaryExpression':
        if (n.operator === 'typeof' && n.argument.type === 'Identifier') handled.add(n.argument);
        break;
      case 'Identifier': {
        if (handled.has(n) || bindings.has(n)) break;
        if (parent && (parent.type === 'MemberExpression' || parent.type === 'MetaProperty') && key === 'property' && !parent.computed) break;
        if (parent && (parent.type === 'Property' || parent.type === 'PropertyDefinition' || parent.type === 'MethodDefinition') && key === 'key' && !parent.computed) break;
        if (parent && (parent.type === 'LabeledStatement' || parent.type === 'BreakStatement' || parent.type === 'ContinueStatement')) break;
        if (parent && (parent.type === 'ExportSpecifier' || parent.type === 'ImportSpecifier') && key !== 'local') break;
        if (n.name === 'eval') refuse(n, 'eval');
        if (requireNames.has(n.name)) refuse(n, `${n.name} used as a value (only ${n.name}("literal") is followed)`);
        if (createRequireNames.has(n.name)) refuse(n, `${n.name} used as a value (only ${n.name}(import.meta.url) is followed)`);
        break;
      }
    }
    const kids: { n: N; parent: N; key: string }[] = [];
    for (const k of Object.keys(n)) {
      if (k === 'loc' || k === 'type' || k === 'start' || k === 'end' || k === 'range') continue;
      const v = n[k];
      if (Array.isArray(v)) {
        for (const c of v) if (c && typeof c.type === 'string') kids.push({ n: c, parent: n, key: k });
      } else if (v && typeof v === 'object' && typeof v.type === 'string') kids.push({ n: v, parent: n, key: k });
    }
    for (let i = kids.length - 1; i >= 0; i--) work.push(kids[i]!);
  }
}

function pushChildren(n: N, stack: N[]): void {
  for (const k of Object.keys(n)) {
    if (k === 'loc' || k === 'type' || k === 'start' || k === 'end') continue;
    const v = n[k];
    if (Array.isArray(v)) {
      for (const c of v) if (c && typeof c.type === 'string') stack.push(c);
    } else if (v && typeof v === 'object' && typeof v.type === 'string') stack.push(v);
  }
}
