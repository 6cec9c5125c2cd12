/**
 * One version, package.json's, everywhere: `retrosim --version`, RUNTIME_VERSION (replay headers, batch job
 * keys) and the constant the build generates for the core (which reads no files).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RUNTIME_VERSION } from '../../src/index.js';
import { PACKAGE_VERSION } from '../../src/version.js';
import { repoRoot, runCli } from './run-cli.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
const dir = mkdtempSync(join(tmpdir(), 'retrosim-version-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the version is package.json's", () => {
  it('in the sources and the CLI', () => {
    expect(PACKAGE_VERSION).toBe(pkg.version);
    expect(RUNTIME_VERSION).toBe(`retrosim ${pkg.version}`);
    const r = runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`retrosim ${pkg.version}\n`);
  });

  it('in the header of a replay the CLI records', () => {
    const out = join(dir, 'v.replay');
    expect(runCli(['run', '--world', 'rugrats-demo', '--frames', '2', '--agents', '1', '--out', out, '--json']).code).toBe(0);
    const info = runCli(['replay', 'info', out, '--json']);
    expect(JSON.parse(info.stdout).runtime).toBe(`retrosim ${pkg.version}`);
  });
});
