/**
 * The layers of src/, checked on the import graph (static, dynamic and type-only imports alike): every
 * import points down or stays in its folder, the headless entries never reach pixi.js or howler, and the
 * browser-safe entry (src/core.ts) reaches no node: module.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

/** Layer of each top-level part of src/, lowest first. A module may import its own layer or lower ones. */
const RANK: Record<string, number> = {
  'binary': 0,
  'numeric': 0,
  'rng': 0,
  'limits.ts': 0,
  'version.ts': 0,
  'worlds': 1,
  'ecs': 2,
  'systems': 3,
  // Navigation walks bodies by the movement system's rules (gravity, walk speed): beside the systems.
  'nav': 3,
  'sim': 4,
  'scenarios': 5,
  'replay': 6,
  'netplay': 7,
  'core.ts': 8,
  'node': 9,
  'index.ts': 10,
  'cli': 11,
  'batch': 11,
};
/** The renderer sits on the core: it may use anything up to core.ts, never node/ or the CLI. */
const RENDER_MAX = RANK['core.ts']!;

function files(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) files(p, out);
    else if (n.endsWith('.ts')) out.push(p);
  }
  return out;
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) out.push((m[1] ?? m[2])!);
  return out;
}

function part(file: string): string {
  return relative(SRC, file).split(/[\\/]/)[0]!;
}

const all = files(SRC);

describe('layers', () => {
  it('every import of src/ points down or within its own part', () => {
    const bad: string[] = [];
    let checked = 0;
    for (const f of all) {
      const from = part(f);
      for (const spec of importsOf(f)) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(f), spec).replace(/\.js$/, '.ts');
        const to = part(target);
        checked++;
        // Outside src/: only the CLI reaches out (its bench command runs bench/, which is not in the package).
        if (to === '..') {
          if (from !== 'cli') bad.push(`${relative(SRC, f)} imports ${spec}, outside src/`);
          continue;
        }
        if (from === to) continue;
        // The CLI draws pictures of worlds from the renderer's pure scene data (render/scene/: no pixi.js, checked
        // below), as the sandbox does; the rest of render/ stays out of its reach.
        if (from === 'cli' && relative(SRC, target).startsWith(join('render', 'scene'))) continue;
        const max = from === 'render' ? RENDER_MAX : RANK[from];
        const rank = to === 'render' ? Infinity : RANK[to];
        if (max === undefined || rank === undefined) bad.push(`${relative(SRC, f)}: unknown layer of ${from} or ${to}`);
        else if (rank > max) bad.push(`${relative(SRC, f)} imports ${relative(SRC, target)} (${from} → ${to})`);
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(bad).toEqual([]);
  });

  it('no module reaches itself again through value imports (one concept per file, no import cycles)', () => {
    // Type-only imports are erased and do not count; every other relative import does.
    const VALUE = /(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
    const graph = new Map<string, string[]>();
    for (const f of all) {
      const to: string[] = [];
      for (const m of readFileSync(f, 'utf8').matchAll(VALUE)) {
        const spec = (m[3] ?? m[4])!;
        if (!m[2] && spec.startsWith('.')) to.push(resolve(dirname(f), spec).replace(/\.js$/, '.ts'));
      }
      graph.set(f, to);
    }
    // Depth-first, colouring: a module met again while it is still on the path closes a cycle.
    const state = new Map<string, 1 | 2>();
    const cycles: string[] = [];
    const path: string[] = [];
    const visit = (f: string): void => {
      state.set(f, 1);
      path.push(f);
      for (const t of graph.get(f) ?? []) {
        if (!graph.has(t)) continue;
        if (state.get(t) === 1) cycles.push([...path.slice(path.indexOf(t)), t].map((x) => relative(SRC, x)).join(' → '));
        else if (!state.has(t)) visit(t);
      }
      path.pop();
      state.set(f, 2);
    };
    for (const f of all) if (!state.has(f)) visit(f);
    expect(graph.size).toBeGreaterThan(300);
    expect(cycles).toEqual([]);
  });

  /**
   * The TypeScript file an import of `path` (…/x.js) names: x.ts, or x.d.ts for a module the build generates as
   * JavaScript beside its declaration (the WebAssembly kernels' bytes), which imports nothing.
   */
  function sourceOf(path: string): string {
    const ts = path.replace(/\.js$/, '.ts');
    const dts = path.replace(/\.js$/, '.d.ts');
    return !existsSync(ts) && existsSync(dts) ? dts : ts;
  }

  /** Every module reachable from `entry` by relative imports, and the packages they name. */
  function graph(entry: string): { modules: Set<string>; packages: Set<string> } {
    const modules = new Set<string>();
    const packages = new Set<string>();
    const todo = [entry];
    while (todo.length) {
      const f = todo.pop()!;
      if (modules.has(f)) continue;
      modules.add(f);
      for (const spec of importsOf(f)) {
        if (spec.startsWith('.')) todo.push(sourceOf(resolve(dirname(f), spec)));
        else packages.add(spec);
      }
    }
    return { modules, packages };
  }

  it('the headless entries never load pixi.js or howler', () => {
    for (const entry of ['index.ts', 'core.ts']) {
      const g = graph(join(SRC, entry));
      expect(g.modules.size).toBeGreaterThan(100);
      const ui = [...g.packages].filter((p) => /^(pixi\.js|howler)(\/|$)/.test(p));
      expect(ui, entry).toEqual([]);
      expect([...g.modules].filter((m) => part(m) === 'render'), entry).toEqual([]);
    }
  });

  it("render/scene (the CLI's picture code) reaches no pixi.js, howler or node: module", () => {
    const dir = join(SRC, 'render', 'scene');
    let modules = 0;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      const g = graph(join(dir, f));
      modules += g.modules.size;
      expect([...g.packages].filter((p) => /^(pixi\.js|howler)(\/|$)/.test(p) || p.startsWith('node:')), f).toEqual([]);
      expect([...g.modules].filter((m) => part(m) === 'render' && !relative(SRC, m).startsWith(join('render', 'scene'))), f).toEqual([]);
    }
    expect(modules).toBeGreaterThan(20);
  });

  it('the core entry reaches no node: module (it runs in browsers)', () => {
    const g = graph(join(SRC, 'core.ts'));
    expect([...g.packages].filter((p) => p.startsWith('node:'))).toEqual([]);
    expect([...g.modules].filter((m) => part(m) === 'node')).toEqual([]);
    // ...while the Node entry does reach them (so the check above can fail).
    expect([...graph(join(SRC, 'index.ts')).packages].some((p) => p.startsWith('node:'))).toBe(true);
  });
});
