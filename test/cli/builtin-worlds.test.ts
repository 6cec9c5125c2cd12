/**
 * Built-in world ids on the command line: every command that takes a world accepts the ids `openWorld`
 * accepts ("piney-default", "rugrats-demo"), by the same rule (a file of that name in the current folder
 * wins), and the usage texts name them. Through the built CLI.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_WORLDS, builtinWorldId } from '../../src/worlds/builtin.js';
import { PROCESS_TIMEOUT_MS, repoRoot, runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'retrosim-builtin-worlds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI run in another folder (where a file may carry a built-in id's name). */
function cliIn(cwd: string, args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin/retrosim.js'), ...args], { cwd, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function json(r: { code: number; stdout: string; stderr: string }): Record<string, any> {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, any>;
}

describe('built-in world ids on the command line', () => {
  it('run, los and the world commands take them, from any folder', () => {
    const run = json(cliIn(dir, ['run', '--world', 'rugrats-demo', '--frames', '3', '--agents', '2', '--no-replay', '--json']));
    expect(run.world).toMatchObject({ kind: 'rugrats', source: 'builtin:rugrats-demo' });
    expect(json(cliIn(dir, ['run', '--world', 'piney-default', '--frames', '1', '--agents', '1', '--no-replay', '--json'])).world.source).toBe('builtin:piney-default');
    expect(json(cliIn(dir, ['los', '--world', 'rugrats-demo', '--agents', '3', '--frames', '1', '--json'])).kind).toBe('rugrats');
    expect(json(cliIn(dir, ['world', 'info', 'rugrats-demo', '--json'])).kind).toBe('rugrats');
    expect(json(cliIn(dir, ['world', 'info', 'piney-default', '--json'])).kind).toBe('piney');
    expect(json(cliIn(dir, ['world', 'ground', 'rugrats-demo', '512', '-512', '512', '--json']))).toHaveProperty('hasFloor');
    expect(json(cliIn(dir, ['world', 'segment', 'rugrats-demo', '512', '-512', '512', '4000', '-512', '4000', '--json']))).toHaveProperty('hit');
    expect(json(cliIn(dir, ['world', 'move', 'rugrats-demo', '512', '-512', '512', '10', '0', '10', '--json']))).toHaveProperty('position');
    const png = json(cliIn(dir, ['world', 'png', 'rugrats-demo', '--out', 'demo.png', '--size', '64', '--json']));
    expect(png).toMatchObject({ kind: 'rugrats', out: 'demo.png' });
    expect(json(cliIn(dir, ['world', 'export', 'rugrats-demo', '--out', 'demo.obj', '--json'])).format).toBe('obj');
    expect(json(cliIn(dir, ['world', 'write', 'rugrats-demo', '--out', 'demo.col', '--keep-layout', '--json'])).identical).toBe(true);
    expect(json(cliIn(dir, ['rugrats', 'info', 'rugrats-demo', '--json'])).bytes).toBeGreaterThan(0);
    expect(json(cliIn(dir, ['rugrats', 'query', 'rugrats-demo', '512', '-512', '512', '--json']))).toHaveProperty('result');
    expect(json(cliIn(dir, ['field', '--spec', 'piney-default', '--json']))).toHaveProperty('seed');
  });

  it('the shipped file is never the output: --out onto it is refused', () => {
    const r = cliIn(dir, ['world', 'write', 'rugrats-demo', '--out', join(repoRoot, BUILTIN_WORLDS['rugrats-demo']!)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is the input file');
  });

  it('replay verify and seek take --world ID', () => {
    const out = join(dir, 'file.replay');
    // Recorded on the file by path; verified against the same world named by its id.
    json(runCli(['run', '--world', BUILTIN_WORLDS['rugrats-demo']!, '--frames', '20', '--agents', '2', '--keyframes', '10', '--out', out, '--json']));
    expect(json(cliIn(dir, ['replay', 'verify', out, '--world', 'rugrats-demo', '--json'])).ok).toBe(true);
    expect(json(cliIn(dir, ['replay', 'seek', out, '--frame', '15', '--world', 'rugrats-demo', '--json'])).verified).toBe(true);
    // Recorded on the id: verifies from any folder with no --world.
    const byId = join(dir, 'id.replay');
    json(cliIn(dir, ['run', '--world', 'rugrats-demo', '--frames', '5', '--agents', '2', '--out', byId, '--json']));
    expect(json(cliIn(repoRoot, ['replay', 'verify', byId, '--json'])).ok).toBe(true);
  });

  it('a file with the name of a built-in id in the current folder wins, as in openWorld and a batch file', () => {
    const own = mkdtempSync(join(dir, 'own-'));
    copyFileSync(join(repoRoot, BUILTIN_WORLDS['piney-default']!), join(own, 'rugrats-demo'));
    expect(json(cliIn(own, ['world', 'info', 'rugrats-demo', '--json'])).kind).toBe('piney');
    // The file wins, and a replay names a world by its content: these are the shipped Piney field's bytes.
    expect(json(cliIn(own, ['run', '--world', 'rugrats-demo', '--frames', '1', '--agents', '1', '--no-replay', '--json'])).world).toMatchObject({ kind: 'piney', source: 'builtin:piney-default' });
    // An unknown id is a missing file, named as given.
    const r = cliIn(own, ['world', 'info', 'rugrats-nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('rugrats-nope: cannot read (ENOENT)');
  });

  it('the one rule: an id, unless a file of that name exists or a MAP comes with it', () => {
    expect(builtinWorldId('rugrats-demo', () => false)).toBe('rugrats-demo');
    expect(builtinWorldId('rugrats-demo', (p) => p === 'rugrats-demo')).toBeUndefined();
    expect(builtinWorldId('rugrats-demo', () => false, 'x.map')).toBeUndefined();
    for (const name of ['rugrats', 'toString', '__proto__', 'RUGRATS-DEMO']) expect(builtinWorldId(name, () => false)).toBeUndefined();
  });

  it('the usage texts name the ids', () => {
    for (const cmd of ['run', 'los', 'world', 'replay', 'rugrats']) {
      const r = runCli([cmd, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout, cmd).toContain('rugrats-demo');
    }
    expect(runCli(['field', '--help']).stdout).toContain('piney-default');
  });
});
