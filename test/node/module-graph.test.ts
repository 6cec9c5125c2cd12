/**
 * The module graph of a scenario module (src/node/module-graph.ts): which imports the scanner finds (and
 * which text that looks like one it does not), how local specifiers resolve (exact files, relative to the
 * importer; a folder or a missing file refused naming the importer), packages named with their versions,
 * the bounds, and the hash: it changes when any file of the graph changes, and not when another file does.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { importSpecifiers, moduleGraph, ModuleGraphError } from '../../src/node/module-graph.js';

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

const specs = (src: string) => importSpecifiers(src).map((s) => s.specifier);

describe('the import scanner', () => {
  it('finds static imports, side-effect imports, re-exports and dynamic imports of a literal, in order', () => {
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
      `const m = import.meta.url; const o = { import: 1 }; o.import('./p.mjs');`,
      `class K { import() { return 1; } }`,
      `import real from './real.mjs';`,
    ].join('\n');
    expect(specs(src)).toEqual(['./real.mjs']);
  });

  it('an import() of anything but a literal is reported (null), not guessed', () => {
    expect(specs('const name = "./x.mjs"; await import(name);')).toEqual([null]);
    expect(specs('await import(`./x-${n}.mjs`);')).toEqual([null]);
  });

  it('any text at all gives a list of imports or an Error, never another exception (property)', () => {
    const js = fc.array(fc.constantFrom('import', 'export', 'from', '(', ')', '{', '}', '`', '${', "'", '"', '/', '*', '\\', '\n', ' ', 'x', './a.mjs', ';', '.', 'as', '[', ']', '1'), { maxLength: 60 }).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.oneof(js, fc.string({ maxLength: 80 })), (src) => {
        try {
          for (const s of importSpecifiers(src)) expect(s.specifier === null || typeof s.specifier === 'string').toBe(true);
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
          expect((e as Error).message).toMatch(/^an unterminated /);
        }
      }),
      { numRuns: 2000 },
    );
  });

  // A look-ahead to the end of the file from each of these would be quadratic: hours here, not a second.
  it('a hostile file of unclosed import clauses is scanned with a bounded look-ahead', { timeout: 120_000 }, () => {
    const src = 'import(a '.repeat(100_000) + 'export { '.repeat(100_000);
    expect(importSpecifiers(src).length).toBe(100_000);
  });

  it('unterminated text is an error naming its line', () => {
    expect(() => importSpecifiers('const a = 1;\n/* never closed')).toThrow(/unterminated comment \(line 2\)/);
    expect(() => importSpecifiers('const a = `never closed')).toThrow(/unterminated template literal/);
    expect(() => importSpecifiers("const a = 'never closed\n';")).toThrow(/unterminated string/);
  });

  it('text that merely contains import in comments or strings yields no import (property)', () => {
    const noise = fc.stringMatching(/^[a-z ./'"()*{}=;]{0,40}$/).map((s) => s.replace(/\*\//g, '').replace(/[\n\r]/g, ' '));
    const wrapped = fc.oneof(
      noise.map((s) => `// import x from './a.mjs' ${s}\n`),
      noise.map((s) => `/* import './a.mjs' ${s} */`),
      noise.map((s) => JSON.stringify(`import x from './a.mjs' ${s}`) + ';'),
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

  it('a package is named with the version of its package.json, found as Node finds it; upgrading it changes the hash', () => {
    const dir = folder({
      'proj/node_modules/dep/package.json': JSON.stringify({ name: 'dep', version: '1.2.3' }),
      'proj/node_modules/@sc/pkg/package.json': JSON.stringify({ name: '@sc/pkg', version: '0.1.0' }),
      'proj/scen/main.mjs': `import dep from 'dep';\nimport sub from 'dep/sub.js';\nimport p from '@sc/pkg/x';\nexport default dep;`,
    });
    const g = moduleGraph(join(dir, 'proj/scen/main.mjs'));
    expect(g.packages).toEqual(['@sc/pkg@0.1.0', 'dep@1.2.3']);
    writeFileSync(join(dir, 'proj/node_modules/dep/package.json'), JSON.stringify({ name: 'dep', version: '1.2.4' }));
    expect(moduleGraph(join(dir, 'proj/scen/main.mjs')).hash).not.toBe(g.hash);
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
    expect(graphError({ 'main.mjs': `import './lib/helper.mjs';`, 'lib/helper.mjs': `import './gone.mjs';` })).toMatch(/^lib\/helper\.mjs imports "\.\/gone\.mjs": .*gone\.mjs does not exist$/);
    expect(graphError({ 'main.mjs': `import './lib';`, 'lib/index.mjs': '' })).toMatch(/imports "\.\/lib": .* is a folder/);
    expect(graphError({ 'main.mjs': `import './helper';`, 'helper.mjs': '' })).toMatch(/imports "\.\/helper": .*helper does not exist/);
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
