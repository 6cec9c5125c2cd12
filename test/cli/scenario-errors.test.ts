/**
 * Scenario errors as JSON: a scenario given to replay verify/seek that is not the one recorded (changed,
 * another name) is kind "scenario" with the scenario module's path as the file, as a module that fails to
 * load is; not kind "format" with no file.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'retrosim-scenario-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function error(args: string[], code = 1): { kind: string; message: string; file: string | null; offset: number | null } {
  const r = runCli([...args, '--json']);
  expect(r.code, r.stderr).toBe(code);
  return (JSON.parse(r.stdout) as { error: { kind: string; message: string; file: string | null; offset: number | null } }).error;
}

describe('scenario errors in --json', () => {
  it('a changed scenario module: kind "scenario", file the module, for verify and seek', () => {
    const mod = join(dir, 'guards.mjs');
    copyFileSync(join(repoRoot, 'examples/guards/guards.mjs'), mod);
    const out = join(dir, 'g.replay');
    expect(runCli(['run', '--scenario', mod, '--world', 'rugrats-demo', '--agents', '0', '--frames', '20', '--keyframes', '10', '--out', out]).code).toBe(0);
    // Without --scenario: a usage error naming the module the replay needs (the recorded path is never loaded).
    const needs = error(['replay', 'verify', out], 2);
    expect(needs).toMatchObject({ kind: 'usage' });
    expect(needs.message).toMatch(/the replay ran scenario "guards" 1\.0\.0 from the module .*guards\.mjs \(module graph 0x[0-9a-f]{16}\): give that module with --scenario FILE/);
    writeFileSync(mod, readFileSync(mod, 'utf8') + '\n// an edit\n');
    for (const sub of [['verify', out], ['seek', out, '--frame', '15']]) {
      const e = error(['replay', ...sub, '--scenario', mod]);
      expect(e).toMatchObject({ kind: 'scenario', file: mod, offset: null });
      expect(e.message).toMatch(/is not the module the replay was recorded with: .*\(guards\.mjs changed \(recorded [0-9a-f]{64}, now [0-9a-f]{64}\)\); nothing of it was run/);
    }
    // Another scenario module given with --scenario: named as the file.
    const other = join(dir, 'other.mjs');
    writeFileSync(other, "export default { name: 'other', version: '1', description: 'x', systems: [] };\n");
    expect(error(['replay', 'verify', out, '--scenario', other])).toMatchObject({ kind: 'scenario', file: other });
  });
});
