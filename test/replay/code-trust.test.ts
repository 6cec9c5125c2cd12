/**
 * A replay never makes retrosim run code the user did not name. Every scenario module here writes a marker
 * file when it is imported (at its top level), so a test sees whether any of it ran:
 *
 * - `replay verify`, `replay seek` and `verify --threads 2` of a replay of a module, without --scenario:
 *   a usage error naming the module and its graph, and the module the replay names (even at an absolute
 *   path or one with ../) never imported;
 * - with --scenario naming another module: refused before any of it runs, naming it;
 * - `loadScenarioFile(path, { recorded })` in a program: the same;
 * - a batch `verify` over submitted replays that name modules: each job refused, nothing imported;
 * - a file swapped after its graph was hashed: what runs is the bytes hashed (a sealed copy), and an import
 *   that leads out of a copy is refused by the loader hooks.
 *
 * Real processes for the CLI; the library in this process for the rest.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarioFile, readReplay } from '../../src/index.js';
import { moduleGraph, type ModuleGraph } from '../../src/node/module-graph.js';
import { importSealedUrl } from '../../src/node/scenario-file.js';
import { sealCopy } from '../../src/node/sealed-module.js';
import { ReplayWriter } from '../../src/replay/format.js';
import { runCli } from '../cli/run-cli.js';

let dir = '';
const marker = (name: string) => join(dir, `${name}.ran`);

/** A scenario module named `name` that writes its marker file when imported. */
function markingModule(name: string, scenario = 'marked', extra = ''): string {
  return `import { writeFileSync } from 'node:fs';
import { defineScenario, DEFAULT_SYSTEMS } from 'retrosim';
writeFileSync(${JSON.stringify(marker(name))}, 'imported');
${extra}
export default defineScenario({ name: ${JSON.stringify(scenario)}, version: '1.0.0', description: 'writes a marker when imported', systems: DEFAULT_SYSTEMS });
`;
}

const cli = (args: string[]) => runCli(args);
const lastJson = (out: string) => JSON.parse(out.trim().split('\n').pop()!) as { error?: { kind: string; message: string; file: string | null } };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'retrosim-code-trust-'));
  writeFileSync(join(dir, 'evil.mjs'), markingModule('evil'));
  writeFileSync(join(dir, 'other.mjs'), markingModule('other'));
  const r = cli(['run', '--scenario', join(dir, 'evil.mjs'), '--world', 'rugrats-demo', '--agents', '4', '--frames', '30', '--keyframes', '10', '--out', join(dir, 'evil.replay'), '--json']);
  expect(r.code, r.stderr).toBe(0);
  expect(existsSync(marker('evil'))).toBe(true); // recording imports it: the user named it
  unlinkSync(marker('evil'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The replay with its scenario's recorded path replaced (the list, and so the graph hash, unchanged). */
let edits = 0;
function withScenarioSource(source: string): string {
  const bytes = new Uint8Array(readFileSync(join(dir, 'evil.replay')));
  const rp = readReplay(bytes);
  const w = new ReplayWriter();
  w.header({ ...rp.header, scenario: { ...rp.header.scenario, source } });
  const fresh = w.end(0, 0, 0);
  const head = fresh.subarray(12, fresh.length - 24); // the new HEAD chunk (less the END chunk: 8 + 12 + 4 bytes)
  const oldEnd = 20 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(16, true) + 4;
  const out = new Uint8Array(12 + head.length + bytes.length - oldEnd);
  out.set(fresh.subarray(0, 12), 0);
  out.set(head, 12);
  out.set(bytes.subarray(oldEnd), 12 + head.length);
  expect(readReplay(out).header.scenario.source).toBe(source);
  const file = join(dir, `evil-${edits++}.replay`);
  writeFileSync(file, out);
  return file;
}

describe('a replay never imports the module it names', () => {
  for (const [what, args] of [
    ['verify', ['replay', 'verify']],
    ['seek', ['replay', 'seek', '--frame', '12']],
    ['verify --threads 2', ['replay', 'verify', '--threads', '2']],
  ] as const) {
    it(`replay ${what} without --scenario: a usage error naming the module and its graph; nothing of it ran`, () => {
      const recorded = readReplay(readFileSync(join(dir, 'evil.replay'))).header.scenario;
      for (const file of [join(dir, 'evil.replay'), withScenarioSource(`file:${join(dir, 'evil.mjs')}`), withScenarioSource('file:../../../tmp/evil.mjs')]) {
        const r = cli([...args.slice(0, 2), file, ...args.slice(2), '--json']);
        expect(r.code, r.stderr).toBe(2);
        const e = lastJson(r.stdout).error!;
        expect(e.kind).toBe('usage');
        expect(e.message).toContain(`module graph ${recorded.contentHash}`);
        expect(e.message).toContain('give that module with --scenario FILE');
        expect(existsSync(marker('evil'))).toBe(false);
      }
    });
  }

  it('with --scenario naming another module: refused before any of it runs, naming it (verify, seek, threads)', () => {
    for (const extra of [[], ['--threads', '2']]) {
      for (const sub of [['verify'], ['seek', '--frame', '12']]) {
        const r = cli(['replay', sub[0]!, join(dir, 'evil.replay'), ...sub.slice(1), '--scenario', join(dir, 'other.mjs'), ...extra, '--json']);
        expect(r.code, r.stderr).toBe(1);
        const e = lastJson(r.stdout).error!;
        expect(e).toMatchObject({ kind: 'scenario', file: join(dir, 'other.mjs') });
        expect(e.message).toMatch(/is not the module the replay was recorded with: .*nothing of it was run/);
        expect(existsSync(marker('other'))).toBe(false);
      }
    }
  });

  it('with --scenario naming the module it ran: it verifies, and only then is the module imported', () => {
    const r = cli(['replay', 'verify', join(dir, 'evil.replay'), '--scenario', join(dir, 'evil.mjs'), '--json']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(existsSync(marker('evil'))).toBe(true);
    unlinkSync(marker('evil'));
  });

  it('a program: loadScenarioFile with the recorded identity refuses another module before importing it', async () => {
    const recorded = readReplay(readFileSync(join(dir, 'evil.replay'))).header.scenario;
    await expect(loadScenarioFile(join(dir, 'other.mjs'), { recorded })).rejects.toThrow(/other\.mjs: is not the module the replay was recorded with/);
    expect(existsSync(marker('other'))).toBe(false);
  });

  it('a batch verify of submitted replays that name modules: every job refused, nothing imported', () => {
    const batchDir = join(dir, 'batch');
    mkdirSync(join(batchDir, 'submitted'), { recursive: true });
    writeFileSync(join(batchDir, 'evil.mjs'), markingModule('batch-evil'));
    writeFileSync(join(batchDir, 'submitted', 'a.replay'), readFileSync(join(dir, 'evil.replay')));
    writeFileSync(join(batchDir, 'submitted', 'b.replay'), readFileSync(withScenarioSource('file:evil.mjs')));
    writeFileSync(join(batchDir, 'check.json'), JSON.stringify({ batch: 1, name: 'check', verify: [{ replays: 'submitted/*.replay', world: 'rugrats-demo' }] }));
    const results = join(batchDir, 'check.jsonl');
    const r = cli(['batch', join(batchDir, 'check.json'), '--workers', '1', '--out', results, '--json']);
    expect(r.code, r.stderr).toBe(1);
    const lines = readFileSync(results, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { ok?: boolean; error?: string });
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(String(l.error)).toMatch(/from the module .*\(module graph 0x[0-9a-f]{16}\): name that module as "scenario" in verify\[0\] \(a module a replay names is never run on its own\)/);
    expect(existsSync(marker('batch-evil'))).toBe(false);
  });
});

describe('what runs is what was hashed', () => {
  it('a file changed after its graph was hashed: the sealed copy of the hashed bytes is what is imported', async () => {
    const d = join(dir, 'swap');
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'main.mjs'), `import { v } from './lib.mjs';\nexport const value = v;\n`);
    writeFileSync(join(d, 'lib.mjs'), `export const v = 'hashed';\n`);
    const graph = moduleGraph(join(d, 'main.mjs'));
    writeFileSync(join(d, 'lib.mjs'), `export const v = 'swapped';\n`);
    const copy = sealCopy(graph);
    expect((await importSealedUrl(copy.entryUrl))['value']).toBe('hashed');
    // And the next hash sees the swap.
    expect(moduleGraph(join(d, 'main.mjs')).hash).not.toBe(graph.hash);
  });

  it('links load from the copy as from the original: a linked helper, a package installed as a link (as pnpm does)', async () => {
    const d = join(dir, 'links');
    mkdirSync(join(d, 'scen'), { recursive: true });
    mkdirSync(join(d, 'shared', 'deep'), { recursive: true });
    mkdirSync(join(d, 'node_modules', '.store', 'lvl@1.0.0', 'node_modules', 'lvl'), { recursive: true });
    mkdirSync(join(d, 'node_modules', '.store', 'dep@2.0.0', 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(d, 'shared', 'helper.mjs'), `export { deep } from './deep/more.mjs';\nexport const h = 'helper';\n`);
    writeFileSync(join(d, 'shared', 'deep', 'more.mjs'), `export const deep = 'deep';\n`);
    symlinkSync('../shared/helper.mjs', join(d, 'scen', 'helper.mjs'));
    const lvl = join(d, 'node_modules', '.store', 'lvl@1.0.0', 'node_modules', 'lvl');
    writeFileSync(join(lvl, 'package.json'), JSON.stringify({ name: 'lvl', version: '1.0.0', type: 'module', exports: './index.js' }));
    writeFileSync(join(lvl, 'index.js'), `import { D } from 'dep';\nexport const LEVEL = 'level+' + D;\n`);
    const dep = join(d, 'node_modules', '.store', 'dep@2.0.0', 'node_modules', 'dep');
    writeFileSync(join(dep, 'package.json'), JSON.stringify({ name: 'dep', version: '2.0.0', main: 'index.cjs' }));
    writeFileSync(join(dep, 'index.cjs'), `exports.D = 'dep';\n`);
    symlinkSync('.store/lvl@1.0.0/node_modules/lvl', join(d, 'node_modules', 'lvl'));
    symlinkSync('../../dep@2.0.0/node_modules/dep', join(d, 'node_modules', '.store', 'lvl@1.0.0', 'node_modules', 'dep'));
    writeFileSync(join(d, 'scen', 'main.mjs'), `import { h, deep } from './helper.mjs';\nimport { LEVEL } from 'lvl';\nexport const value = [h, deep, LEVEL].join(' ');\n`);
    const graph = moduleGraph(join(d, 'scen', 'main.mjs'));
    expect(graph.files).toEqual(['../shared/deep/more.mjs', '../shared/helper.mjs', 'main.mjs']);
    expect(graph.packages.map((p) => p.replace(/#.*/, ''))).toEqual(['dep@2.0.0', 'lvl@1.0.0']);
    const copy = sealCopy(graph);
    expect((await importSealedUrl(copy.entryUrl))['value']).toBe('helper deep level+dep');
  });

  it('an import from inside a sealed copy that leads out of it is refused by the loader hooks', async () => {
    const d = join(dir, 'escape');
    mkdirSync(join(d, 'inner'), { recursive: true });
    writeFileSync(join(d, 'outside.mjs'), `export const x = 1;\n`);
    // A graph that misses a file (as if a resolver had disagreed with Node's): its copy holds main.mjs, whose
    // import leads from the copy (up to the root, as many ../ as it takes) back to this folder's outside.mjs.
    const main = join(d, 'inner', 'main.mjs');
    const text = `export { x } from '${'../'.repeat(40)}${join(d, 'outside.mjs').slice(1)}';\n`;
    writeFileSync(main, text);
    const sources = new Map([[main, new TextEncoder().encode(text)], [join(d, 'pad.mjs'), new Uint8Array(0)]]);
    const graph: ModuleGraph = { hash: '0'.repeat(64), contentHash: '0x0000000000000000', entry: main, files: [], fileHashes: [], packages: [], legacyHash: '0x0000000000000000', legacyModules: [], legacyPackages: [], sources, links: new Map() };
    const copy = sealCopy(graph);
    await expect(importSealedUrl(copy.entryUrl)).rejects.toThrow(/leads to file:.*outside\.mjs, outside the files of its module graph/);
  });
});
