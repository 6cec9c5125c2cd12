/**
 * The module graph of a scenario module (src/node/module-graph.ts): which imports the scanner finds (and
 * which text that looks like one it does not), how local specifiers resolve (exact files, relative to the
 * importer; a folder or a missing file refused naming the importer), packages named with their versions,
 * the bounds, and the hash: it changes when any file of the graph changes, and not when another file does.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { moduleGraph, ModuleGraphError } from '../../src/node/module-graph.js';
import { moduleLoads, ModuleScanError } from '../../src/node/module-loads.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-module-graph-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A fresh folder holding `files` (relative path -> text). */
function folder(files: Record<string, string>): string {
  const dir = join(tmp, `g${n++}`);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const specs = (src: string, format: 'esm' | 'cjs' = 'esm') => moduleLoads(src, format).map((s) => s.specifier);
const refusal = (src: string, format: 'esm' | 'cjs' = 'esm'): string => {
  try {
    moduleLoads(src, format);
  } catch (e) {
    expect(e).toBeInstanceOf(ModuleScanError);
    return (e as Error).message;
  }
  throw new Error('not refused');
};

describe('what a module loads, from its syntax tree', () => {
  it('finds static imports, side-effect imports, re-exports, JSON imports and dynamic imports of a literal, in order', () => {
    const src = [
      `import a from './a.mjs';`,
      `import * as b from "./b.mjs"`,
      `import { c, d as e } from './c.mjs';`,
      `import f, { g } from './f.mjs';`,
      `import './side.mjs';`,
      `import json from './data.json' with { type: 'json' };`,
      `export * from './x.mjs';`,
      `export * as y from './y.mjs';`,
      `export { z } from './z.mjs';`,
      `export const notFrom = 1;`,
      `const later = () => import('./lazy.mjs');`,
      'const tpl = import(`./tpl.mjs`);',
      `import {from} from './from.mjs';`,
    ].join('\n');
    expect(specs(src)).toEqual(['./a.mjs', './b.mjs', './c.mjs', './f.mjs', './side.mjs', './data.json', './x.mjs', './y.mjs', './z.mjs', './lazy.mjs', './tpl.mjs', './from.mjs']);
    expect(moduleLoads(src, 'esm').find((l) => l.specifier === './data.json')!.json).toBe(true);
  });

  it('import in comments, strings, templates and regular expressions is not an import; import.meta and properties are not either', () => {
    const src = [
      `// import a from './c1.mjs';`,
      `/* import b from './c2.mjs'; export * from './c3.mjs' */`,
      `const s = "import c from './s1.mjs'";`,
      `const t = 'import(\\'./s2.mjs\\')';`,
      'const u = `import d from "./t1.mjs" ${`import("./t2.mjs")`} ${ { a: 1 }.a }`;',
      `const r = /import e from '.\\/r1.mjs'/g;`,
      `const q = 4 / 2; const w = q / 1; // import('./c4.mjs')`,
      `const m = import.meta.url; const o = { import: 1, require: 2 }; o.import; o.require;`,
      `class K { import() { return 1; } require() { return 2; } }`,
      `import real from './real.mjs';`,
    ].join('\n');
    expect(specs(src)).toEqual(['./real.mjs']);
  });

  it('CommonJS: require of a literal, module.require, and the require createRequire(import.meta.url) makes', () => {
    expect(specs(`const a = require('./a.cjs'); const { b } = require("b-pkg"); module.require('./c.cjs'); if (typeof require === 'function') require.resolve('./d');`, 'cjs')).toEqual(['./a.cjs', 'b-pkg', './c.cjs']);
    const esm = [
      `import { createRequire } from 'node:module';`,
      `function early() { return req('./early.cjs'); }`,
      `const req = createRequire(import.meta.url);`,
      `const x = req('./x.cjs');`,
      `const y = createRequire(import.meta.url)('./y.cjs');`,
    ].join('\n');
    const loads = moduleLoads(esm, 'esm');
    expect(loads.filter((l) => l.kind === 'require').map((l) => l.specifier)).toEqual(['./early.cjs', './x.cjs', './y.cjs']);
    // A wrapper's parameter named require is a binding, and calls of it are followed like require's.
    expect(specs(`define(function (require, exports) { require('./u.cjs'); });`, 'cjs')).toEqual(['./u.cjs']);
  });

  it('refuses every load it cannot follow, naming the line', () => {
    expect(refusal('const name = "./x.mjs";\nawait import(name);')).toMatch(/an import\(\) of something other than a string literal \(line 2\)/);
    expect(refusal('await import(`./x-${n}.mjs`);')).toMatch(/import\(\) of something other than a string literal \(line 1\)/);
    expect(refusal('const n = "./x.cjs";\nrequire(n);', 'cjs')).toMatch(/a require\(\) of something other than one string literal \(line 2\)/);
    expect(refusal('const r = require;\nr("./x.cjs");', 'cjs')).toMatch(/require used as a value .*\(line 1\)/);
    expect(refusal(`import { createRequire } from 'module';\nconst r = createRequire('/somewhere/else.js');`)).toMatch(/createRequire\(\) of another base than import\.meta\.url \(line 2\)/);
    expect(refusal(`import { createRequire } from 'node:module';\nconst r = createRequire(import.meta.url);\nconst n = 'x';\nr(n);`)).toMatch(/\(line 4\)/);
    expect(refusal(`import { createRequire } from 'node:module';\nconst r = createRequire(import.meta.url);\nexport const load = [r];`)).toMatch(/r used as a value/);
    expect(refusal(`import { register } from 'node:module';`)).toMatch(/an import of register from node:module/);
    expect(refusal(`import * as m from 'node:module';`)).toMatch(/only createRequire, isBuiltin and builtinModules/);
    expect(refusal(`import('node:module');`)).toMatch(/import\(\) of node:module/);
    expect(refusal(`eval('1');`)).toMatch(/eval \(line 1\)/);
    expect(refusal(`const e = globalThis.eval;`)).toMatch(/eval/);
    expect(refusal(`const f = (0, eval);`)).toMatch(/eval/);
    expect(refusal(`new Function(code);`)).toMatch(/Function\(\) of something other than string literals/);
    expect(refusal(`process.binding('fs');`)).toMatch(/process\.binding/);
    expect(refusal(`import { spawn } from 'node:child_process';`)).toMatch(/node:child_process, which runs code of its own/);
    expect(refusal(`const { Worker } = require('worker_threads');`, 'cjs')).toMatch(/worker_threads, which runs code of its own/);
    expect(refusal(`import { Worker, isMainThread } from 'node:worker_threads';`)).toMatch(/only isMainThread, threadId and workerData may be imported from it by name/);
    expect(refusal(`import * as wt from 'node:worker_threads';`)).toMatch(/worker_threads, which runs code of its own/);
    expect(specs(`import { isMainThread, threadId } from 'node:worker_threads';`)).toEqual(['node:worker_threads']);
    expect(refusal(`import vm from 'vm';`)).toMatch(/vm, which runs code of its own/);
    expect(refusal(`export default {`)).toMatch(/is not valid JavaScript/);
  });

  it('a Function of literal text is parsed, and a load in it is found (or refused)', () => {
    expect(specs(`const g = Function('return this')();`)).toEqual([]);
    expect(specs(`const f = new Function('a', 'return import("./in-body.mjs")');`)).toEqual(['./in-body.mjs']);
    expect(refusal(`new Function('return import(x)');`)).toMatch(/import\(\) of something other than a string literal/);
  });

  it('any text at all gives a list of loads or a ModuleScanError, never another exception (property)', () => {
    const js = fc.array(fc.constantFrom('import', 'export', 'from', 'require', 'eval', '(', ')', '{', '}', '`', '${', "'", '"', '/', '*', '\\', '\n', ' ', 'x', './a.mjs', ';', '.', 'as', '[', ']', '1', '=', 'const'), { maxLength: 60 }).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.oneof(js, fc.string({ maxLength: 80 })), fc.constantFrom('esm' as const, 'cjs' as const), (src, format) => {
        try {
          for (const s of moduleLoads(src, format)) expect(typeof s.specifier).toBe('string');
        } catch (e) {
          expect(e).toBeInstanceOf(ModuleScanError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a file nested deeper than a parser can go is refused, not a crash', () => {
    expect(refusal('x = ' + '['.repeat(200_000) + ']'.repeat(200_000))).toMatch(/nested too deeply|not valid JavaScript/);
  });

  it('text that merely contains import or require in comments or strings yields no load (property)', () => {
    const noise = fc.stringMatching(/^[a-z ./'"()*{}=;]{0,40}$/).map((s) => s.replace(/\*\//g, '').replace(/[\n\r]/g, ' '));
    const wrapped = fc.oneof(
      noise.map((s) => `// import x from './a.mjs' ${s}\n`),
      noise.map((s) => `/* import './a.mjs'; require(x) ${s} */`),
      noise.map((s) => JSON.stringify(`import x from './a.mjs' ${s} eval(x)`) + ';'),
      noise.map((s) => '`' + `import('./a.mjs') ${s}`.replace(/[`\\$]/g, '') + '`;'),
    );
    fc.assert(
      fc.property(fc.array(wrapped, { maxLength: 6 }), (parts) => {
        const src = `${parts.join('\n')}\nimport real from './real.mjs';\n${parts.join('\n')}`;
        expect(specs(src)).toEqual(['./real.mjs']);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the module graph', () => {
  it('follows local imports recursively, names files relative to the entry\'s folder, skips retrosim and Node built-ins', () => {
    const dir = folder({
      'scen/main.mjs': `import { defineScenario } from 'retrosim';\nimport { readFileSync } from 'node:fs';\nimport path from 'path';\nimport { h } from './lib/helper.mjs';\nexport default defineScenario({ name: 'x', version: '1', description: h });`,
      'scen/lib/helper.mjs': `export { more } from '../../shared/more.mjs';\nexport const h = 'helper';`,
      'shared/more.mjs': `import './helper-loop.mjs';\nexport const more = 1;`,
      'shared/helper-loop.mjs': `import './more.mjs';`,
      'scen/unrelated.mjs': `export const not = 'imported';`,
    });
    const g = moduleGraph(join(dir, 'scen/main.mjs'));
    expect(g.files).toEqual(['../shared/helper-loop.mjs', '../shared/more.mjs', 'lib/helper.mjs', 'main.mjs']);
    expect(g.packages).toEqual([]);
    expect(g.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('editing a helper module the scenario imports changes the hash; editing a file it does not import does not', () => {
    const dir = folder({ 'main.mjs': `import { h } from './helper.mjs';\nexport default { name: 'x', version: '1', description: h };`, 'helper.mjs': `export const h = 'one';`, 'other.mjs': 'export const o = 1;' });
    const before = moduleGraph(join(dir, 'main.mjs')).hash;
    writeFileSync(join(dir, 'other.mjs'), 'export const o = 2;');
    expect(moduleGraph(join(dir, 'main.mjs')).hash).toBe(before);
    writeFileSync(join(dir, 'helper.mjs'), `export const h = 'two';`);
    const after = moduleGraph(join(dir, 'main.mjs')).hash;
    expect(after).not.toBe(before);
    writeFileSync(join(dir, 'helper.mjs'), `export const h = 'one';`);
    expect(moduleGraph(join(dir, 'main.mjs')).hash).toBe(before);
  });

  it('the same files in another folder have the same hash; a renamed helper has another', () => {
    const files = { 'main.mjs': `import './helper.mjs';`, 'helper.mjs': 'export const h = 1;' };
    const a = moduleGraph(join(folder(files), 'main.mjs')).hash;
    expect(moduleGraph(join(folder(files), 'main.mjs')).hash).toBe(a);
    expect(moduleGraph(join(folder({ 'main.mjs': `import './helper2.mjs';`, 'helper2.mjs': 'export const h = 1;' }), 'main.mjs')).hash).not.toBe(a);
  });

  it('the hash changes when any file of the graph changes, not when a file outside it does (property)', () => {
    const text = fc.stringMatching(/^[a-z0-9 =;]{0,30}$/).map((s) => `export const v = ${JSON.stringify(s)};`);
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), fc.nat(), text, (bodies, pick, changed) => {
        // main imports m0..m(k-1) in a chain; 'outside.mjs' is beside them, imported by nothing.
        const files: Record<string, string> = { 'main.mjs': `import './m0.mjs';`, 'outside.mjs': 'export const o = 0;' };
        bodies.forEach((b, i) => (files[`m${i}.mjs`] = `${i + 1 < bodies.length ? `import './m${i + 1}.mjs';\n` : ''}${b}`));
        const dir = folder(files);
        const base = moduleGraph(join(dir, 'main.mjs'));
        expect(base.files).toHaveLength(bodies.length + 1);
        writeFileSync(join(dir, 'outside.mjs'), changed);
        expect(moduleGraph(join(dir, 'main.mjs')).hash).toBe(base.hash);
        const i = pick % bodies.length;
        const file = join(dir, `m${i}.mjs`);
        const edited = `${files[`m${i}.mjs`]}\n// edited`;
        writeFileSync(file, edited);
        expect(moduleGraph(join(dir, 'main.mjs')).hash).not.toBe(base.hash);
      }),
      { numRuns: 40 },
    );
  });

  it('a package is named by its version and its content, found as Node finds it; another version or a patched file changes the hash', () => {
    const dir = folder({
      'proj/node_modules/dep/package.json': JSON.stringify({ name: 'dep', version: '1.2.3', type: 'module', exports: { '.': './index.js', './sub.js': './lib/sub.js' } }),
      'proj/node_modules/dep/index.js': `export default 1;`,
      'proj/node_modules/dep/lib/sub.js': `export default 2;`,
      'proj/node_modules/dep/unused.js': `export default 3;`,
      'proj/node_modules/@sc/pkg/package.json': JSON.stringify({ name: '@sc/pkg', version: '0.1.0', main: 'main.cjs' }),
      'proj/node_modules/@sc/pkg/main.cjs': `module.exports = require('./helper.cjs');`,
      'proj/node_modules/@sc/pkg/helper.cjs': `module.exports = 4;`,
      'proj/scen/main.mjs': `import dep from 'dep';\nimport sub from 'dep/sub.js';\nimport p from '@sc/pkg';\nexport default dep;`,
    });
    const g = moduleGraph(join(dir, 'proj/scen/main.mjs'));
    expect(g.packages.map((p) => p.replace(/#[0-9a-f]{64}$/, ''))).toEqual(['@sc/pkg@0.1.0', 'dep@1.2.3']);
    expect(g.files).toEqual(['main.mjs']);
    // Every file loaded from a package is in the sealed copy's sources; a file nothing loads is not.
    const loaded = [...g.sources.keys()].filter((f) => f.includes('node_modules')).map((f) => f.slice(f.indexOf('node_modules'))).sort();
    expect(loaded).toEqual(['node_modules/@sc/pkg/helper.cjs', 'node_modules/@sc/pkg/main.cjs', 'node_modules/@sc/pkg/package.json', 'node_modules/dep/index.js', 'node_modules/dep/lib/sub.js', 'node_modules/dep/package.json'].map((f) => f.split('/').join(sep)).sort());
    // A file the package does not load: no change.
    writeFileSync(join(dir, 'proj/node_modules/dep/unused.js'), 'export default 33;');
    expect(moduleGraph(join(dir, 'proj/scen/main.mjs')).hash).toBe(g.hash);
    // A file it loads, patched in place (same version): another package.
    writeFileSync(join(dir, 'proj/node_modules/@sc/pkg/helper.cjs'), 'module.exports = 5;');
    const patched = moduleGraph(join(dir, 'proj/scen/main.mjs'));
    expect(patched.hash).not.toBe(g.hash);
    expect(patched.packages.find((p) => p.startsWith('@sc/pkg@0.1.0#'))).not.toBe(g.packages.find((p) => p.startsWith('@sc/pkg@0.1.0#')));
    writeFileSync(join(dir, 'proj/node_modules/@sc/pkg/helper.cjs'), 'module.exports = 4;');
    expect(moduleGraph(join(dir, 'proj/scen/main.mjs')).hash).toBe(g.hash);
    writeFileSync(join(dir, 'proj/node_modules/dep/package.json'), JSON.stringify({ name: 'dep', version: '1.2.4', type: 'module', exports: { '.': './index.js', './sub.js': './lib/sub.js' } }));
    expect(moduleGraph(join(dir, 'proj/scen/main.mjs')).hash).not.toBe(g.hash);
  });

  it('exports: conditions, patterns and subpaths a package does not export', () => {
    const dir = folder({
      'node_modules/cond/package.json': JSON.stringify({ name: 'cond', version: '1.0.0', exports: { '.': { require: './r.cjs', import: './i.mjs', default: './d.js' }, './feat/*': { import: './features/*.mjs' }, './feat/internal/*': null } }),
      'node_modules/cond/i.mjs': `export default 'import';`,
      'node_modules/cond/r.cjs': `module.exports = 'require';`,
      'node_modules/cond/features/a.mjs': `export default 'a';`,
      'main.mjs': `import i from 'cond';\nimport a from 'cond/feat/a';`,
    });
    const g = moduleGraph(join(dir, 'main.mjs'));
    const loaded = [...g.sources.keys()].filter((f) => f.includes('node_modules')).map((f) => f.slice(f.indexOf('cond') + 5)).sort();
    expect(loaded).toEqual(['features/a.mjs', 'i.mjs', 'package.json'].map((f) => f.split('/').join(sep)));
    writeFileSync(join(dir, 'hidden.mjs'), `import x from 'cond/feat/internal/x';`);
    expect(() => moduleGraph(join(dir, 'hidden.mjs'))).toThrow(/does not export "\.\/feat\/internal\/x"/);
    writeFileSync(join(dir, 'other.mjs'), `import x from 'cond/other';`);
    expect(() => moduleGraph(join(dir, 'other.mjs'))).toThrow(/does not export "\.\/other"/);
  });

  it('a .js file is run as its package.json says: that package.json is part of the graph; a .mjs graph has none', () => {
    const dir = folder({ 'package.json': JSON.stringify({ name: 'mine', type: 'module', scripts: { a: 'b' } }), 'main.js': `import './helper.js';`, 'helper.js': 'export const h = 1;', 'plain.mjs': `import './helper.mjs';`, 'helper.mjs': '' });
    const g = moduleGraph(join(dir, 'main.js'));
    expect(g.files).toEqual(['helper.js', 'main.js', 'package.json']);
    expect(moduleGraph(join(dir, 'plain.mjs')).files).toEqual(['helper.mjs', 'plain.mjs']);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'mine', type: 'commonjs' }));
    // Now CommonJS: its ES syntax does not parse as a script, and the graph says so.
    expect(() => moduleGraph(join(dir, 'main.js'))).toThrow(/main\.js: is not valid JavaScript/);
  });

  it('refusals name the importing file: a missing file, a folder, a bare extensionless path, an unfollowable specifier, a missing package', () => {
    const graphError = (files: Record<string, string>): string => {
      const dir = folder(files);
      try {
        moduleGraph(join(dir, 'main.mjs'));
      } catch (e) {
        expect(e).toBeInstanceOf(ModuleGraphError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(graphError({ 'main.mjs': `import './lib/helper.mjs';`, 'lib/helper.mjs': `import './gone.mjs';` })).toMatch(/^lib\/helper\.mjs imports "\.\/gone\.mjs" \(line 1\): .*gone\.mjs does not exist$/);
    expect(graphError({ 'main.mjs': `import './lib';`, 'lib/index.mjs': '' })).toMatch(/imports "\.\/lib" \(line 1\): .* is a folder/);
    expect(graphError({ 'main.mjs': `import './helper';`, 'helper.mjs': '' })).toMatch(/imports "\.\/helper" \(line 1\): .*helper does not exist/);
    expect(graphError({ 'main.mjs': `await import(name);` })).toMatch(/import\(\) of something other than a string literal \(line 1\)/);
    expect(graphError({ 'main.mjs': `import '/etc/hostname';` })).toMatch(/an absolute path or URL/);
    expect(graphError({ 'main.mjs': `import 'data:text/javascript,1';` })).toMatch(/an absolute path or URL/);
    expect(graphError({ 'main.mjs': `import '#internal';` })).toMatch(/a package import/);
    expect(graphError({ 'main.mjs': `import 'not-installed-anywhere-x';` })).toMatch(/not installed where Node would look for it/);
    expect(() => moduleGraph(join(tmp, 'no-such.mjs'))).toThrow(/^scenario module .*no-such\.mjs: .* does not exist$/);
  });

  it('bounds: files in a graph, bytes a file, bytes in all', () => {
    const chain: Record<string, string> = {};
    for (let i = 0; i < 6; i++) chain[i === 0 ? 'main.mjs' : `m${i}.mjs`] = `import './m${i + 1}.mjs';`;
    chain['m6.mjs'] = '';
    const dir = folder(chain);
    expect(moduleGraph(join(dir, 'main.mjs')).files).toHaveLength(7);
    expect(() => moduleGraph(join(dir, 'main.mjs'), { files: 5 })).toThrow(/more than 5 files/);
    expect(() => moduleGraph(join(dir, 'main.mjs'), { fileBytes: 10 })).toThrow(/over the limit of 10 bytes/);
    expect(() => moduleGraph(join(dir, 'main.mjs'), { totalBytes: 40 })).toThrow(/over the limit of 40 bytes in all/);
  });

  it('a special file in the graph (a device) is refused, never read', () => {
    const dir = folder({ 'main.mjs': `import './self.mjs';` });
    symlinkSync('/dev/zero', join(dir, 'self.mjs'));
    expect(() => moduleGraph(join(dir, 'main.mjs'))).toThrow(/is not a regular file/);
  });
});
