/**
 * The examples name what exists: every name a TSDoc `@example` of src/ spreads (`...NAME`) or uses as an
 * ALL_CAPS constant, and every name a page of docs/, the README or an example file imports from the
 * package, is exported by the package's entries.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as core from '../../src/core.js';
import * as index from '../../src/index.js';
import * as colbin from '../../src/worlds/colbin/index.js';
import * as exporter from '../../src/worlds/export/index.js';
import * as gta from '../../src/worlds/gta/index.js';
import * as llama from '../../src/worlds/llama/index.js';
import * as piney from '../../src/worlds/piney/index.js';
import * as rugrats from '../../src/worlds/rugrats/index.js';
import { repoRoot } from '../cli/run-cli.js';

function files(dir: string, ext: RegExp, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (relative(repoRoot, p) !== join('docs', 'api')) files(p, ext, out);
    } else if (ext.test(e.name)) out.push(p);
  }
  return out;
}

/** Values and types the entries export (types read from their `export type { ... }` lines; the renderer's too). */
function entryNames(): Set<string> {
  const names = new Set([index, core, colbin, exporter, gta, llama, piney, rugrats].flatMap((m) => Object.keys(m)));
  for (const f of ['src/index.ts', 'src/core.ts', 'src/render/index.ts']) {
    for (const m of readFileSync(join(repoRoot, f), 'utf8').matchAll(/export (?:type )?\{([^}]*)\}/g)) {
      for (const part of m[1]!.split(',')) {
        const n = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop();
        if (n) names.add(n);
      }
    }
  }
  return names;
}

describe('names in examples', () => {
  const exported = entryNames();

  it('TSDoc examples spread and use only exported constants', () => {
    const bad: string[] = [];
    let examples = 0;
    for (const f of files(join(repoRoot, 'src'), /\.ts$/)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/@example([\s\S]*?)(?=\n\s*\*\s*@|\*\/)/g)) {
        examples++;
        const code = m[1]!;
        const used = [...code.matchAll(/\.\.\.([A-Za-z_$][\w$]*)/g)].map((x) => x[1]!);
        used.push(...[...code.matchAll(/(?<![\w.'"])([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b/g)].map((x) => x[1]!));
        const local = new Set([...code.matchAll(/(?:const|let|var)\s+([\w$]+)/g)].map((x) => x[1]!));
        for (const n of used) if (!exported.has(n) && !local.has(n)) bad.push(`${relative(repoRoot, f)}: ${n}`);
      }
    }
    expect(examples).toBeGreaterThan(20);
    expect(bad).toEqual([]);
  });

  it('code in the docs calls and constructs only what the package exports (never a name the runtime keeps to itself)', () => {
    // The names src/ declares with `export` anywhere: a doc that uses one the entries do not export shows the
    // reader something they cannot import.
    const internal = new Set<string>();
    for (const f of files(join(repoRoot, 'src'), /\.ts$/)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/export (?:async )?(?:function|const|class|interface|type|enum) ([A-Za-z_$][\w$]*)/g)) if (!exported.has(m[1]!)) internal.add(m[1]!);
    }
    expect(internal.size).toBeGreaterThan(50);
    const bad: string[] = [];
    let blocks = 0;
    const pages = [join(repoRoot, 'README.md'), ...files(join(repoRoot, 'docs'), /\.md$/)];
    for (const f of pages) {
      for (const b of readFileSync(f, 'utf8').matchAll(/```(?:js|mjs|ts|typescript|javascript)\n([\s\S]*?)```/g)) {
        blocks++;
        const code = b[1]!;
        const local = new Set([...code.matchAll(/(?:const|let|var|function|class)\s+([\w$]+)/g)].map((x) => x[1]!));
        // Calls and constructions of a bare name (not a method: no dot before it), and names in type positions.
        const used = [...code.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(/g), ...code.matchAll(/\bnew\s+([A-Za-z_$][\w$]*)/g), ...code.matchAll(/:\s*([A-Z][\w$]*)\b/g)].map((x) => x[1]!);
        for (const n of used) if (internal.has(n) && !local.has(n)) bad.push(`${relative(repoRoot, f)}: ${n}`);
      }
    }
    expect(blocks).toBeGreaterThan(10);
    expect(bad).toEqual([]);
  });

  it("docs, the README and the examples import only the package's exports", () => {
    const bad: string[] = [];
    const pages = [join(repoRoot, 'README.md'), ...files(join(repoRoot, 'docs'), /\.md$/), ...files(join(repoRoot, 'examples'), /\.(mjs|ts|md)$/)];
    for (const f of pages) {
      for (const m of readFileSync(f, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'retrosim(?:\/[\w/]+)?'/g)) {
        for (const part of m[1]!.split(',')) {
          const n = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0];
          if (n && !exported.has(n)) bad.push(`${relative(repoRoot, f)}: ${n}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});
