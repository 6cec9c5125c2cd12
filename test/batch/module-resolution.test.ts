/**
 * Nothing of a batch's scenario resolves through the system's temporary folder: a module is imported from a
 * private copy of its whole module graph (its packages included, found through the owner's folders) in the
 * user's cache folder, so a package planted in `<tmp>/node_modules` (a folder any user can make) must never
 * load, on the local threads as on a worker. (Long ago, every pool thread wrote the module's bytes alone to a
 * cache under the temporary folder and imported that copy, whose bare imports then resolved through
 * `<tmp>/node_modules`.)
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCliAsync, writeBatch } from './helpers.js';

const name = `retrosim-resolution-probe-${randomBytes(6).toString('hex')}`;
// The batch's folder is outside the temporary folder, so that only a copy there could reach the planted package.
const dir = join(repoRoot, 'out', `test-${name}`);
const plantedRoot = join(tmpdir(), 'node_modules');
const madeRoot = !existsSync(plantedRoot);
const planted = join(plantedRoot, name);
const marker = join(dir, 'planted-package-ran');

/** A package `name` in `at` whose module says where it came from (and, for the planted one, leaves a marker). */
function writePackage(at: string, origin: string, body = ''): void {
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', main: 'index.js' }));
  writeFileSync(join(at, 'index.js'), `${body}export const origin = ${JSON.stringify(origin)};\n`);
}

afterAll(() => {
  rmSync(planted, { recursive: true, force: true });
  if (madeRoot) {
    try {
      rmdirSync(plantedRoot);
    } catch {
      // something else was put there meanwhile: left as found
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("a batch's scenario module and the temporary folder", { timeout: 600_000 }, () => {
  it("resolves its bare imports through its owner's folders, never through a package planted in <tmp>/node_modules", async () => {
    mkdirSync(dir, { recursive: true });
    writePackage(join(dir, 'node_modules', name), 'owner');
    writePackage(planted, 'planted', `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\n`);
    const guards = readFileSync(join(repoRoot, 'examples/guards/guards.mjs'), 'utf8');
    writeFileSync(join(dir, 'probe.mjs'), `import { origin } from '${name}';\nif (origin !== 'owner') throw new Error('the package planted in the temporary folder was loaded');\n${guards}`);
    cpSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(dir, 'level.col'));
    const file = writeBatch(dir, 'probe', { batch: 1, name: 'probe', retries: 0, jobs: [{ world: 'level.col', scenario: 'probe.mjs', agents: 0, params: { guards: 2 }, frames: 30 }] });
    const r = await runCliAsync(['batch', file, '--workers', '1', '--out', join(dir, 'out', 'probe.jsonl'), '--json']);
    expect(existsSync(marker)).toBe(false);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').pop()!)).toMatchObject({ done: 1, failed: 0 });
  });
});
