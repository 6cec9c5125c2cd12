/**
 * Failures as JSON: with --json, a command that fails prints one line {"error":{"kind","message","file",
 * "offset"}} on stdout as well as its one line on stderr, with the usual exit codes (2 usage, 1 bad input,
 * 70 internal). Across commands, through the built CLI; the classification itself directly.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/main.js';
import { UsageError } from '../../src/cli/args.js';
import { FormatError } from '../../src/binary/format-error.js';
import { ScenarioError } from '../../src/sim/scenario.js';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'retrosim-json-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Uint8Array): string => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

interface ErrorLine {
  kind: string;
  message: string;
  file: string | null;
  offset: number | null;
}

/** Runs the CLI with --json and checks the shape common to every failure; returns the error object. */
function failure(args: string[], code: number): ErrorLine {
  const r = runCli([...args, '--json']);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
  const lines = r.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const v = JSON.parse(lines[0]!) as { error: ErrorLine };
  expect(Object.keys(v)).toEqual(['error']);
  expect(Object.keys(v.error)).toEqual(['kind', 'message', 'file', 'offset']);
  // The same failure on stderr, one line, carrying the message.
  const err = r.stderr.trim().split('\n');
  expect(err).toHaveLength(1);
  expect(err[0]).toContain(v.error.message);
  // Without --json the stdout stays empty.
  const plain = runCli(args);
  expect(plain.code).toBe(code);
  expect(plain.stdout).toBe('');
  expect(plain.stderr).toBe(r.stderr);
  return v.error;
}

describe('errors as JSON', () => {
  it('usage errors: kind "usage", exit 2, no file', () => {
    expect(failure(['no-such-command'], 2)).toMatchObject({ kind: 'usage', file: null, offset: null });
    expect(failure(['rng', 'fieldrand', '--draws', 'many'], 2)).toMatchObject({ kind: 'usage', message: expect.stringContaining('--draws') });
    expect(failure(['col', 'ray', 'x.col', '1', '2'], 2).kind).toBe('usage');
    expect(failure(['run', '--scenario', 'wander', '--set', 'bogus=1', '--frames', '1', '--no-replay'], 2).message).toContain('bogus');
  });

  it('bad files: kind "format", exit 1, with the file and the byte offset', () => {
    const text = file('notes.txt', 'plain text, not a world\n'.repeat(20));
    for (const args of [['col', 'info', text], ['rugrats', 'info', text], ['world', 'info', text], ['colbin', 'info', text]]) {
      const e = failure(args, 1);
      expect(e.kind).toBe('format');
      expect(e.file).toBe(text);
      expect(e.offset).toBe(0);
    }
    const replay = file('bad.replay', 'RSIMxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx');
    expect(failure(['replay', 'info', replay], 1)).toMatchObject({ kind: 'format', file: replay, offset: 0 });
    const spec = file('field.json', '{}');
    expect(failure(['field', '--spec', spec], 1)).toMatchObject({ kind: 'format', file: spec, offset: null });
  });

  it('scenario modules: kind "scenario", exit 1, with the module file', () => {
    const bad = file('bad-scenario.mjs', 'export default { name: 42 };\n');
    expect(failure(['run', '--scenario', bad, '--frames', '1', '--no-replay'], 1)).toMatchObject({ kind: 'scenario', file: bad, offset: null });
    const throws = file('throws.mjs', 'throw new Error("broken at load");\n');
    expect(failure(['run', '--scenario', throws, '--frames', '1', '--no-replay'], 1).message).toContain('broken at load');
  });

  it('--json after "--" is a positional, not a request for JSON', () => {
    // The file named "--json" does not exist: a usage error, reported on stderr only.
    const r = runCli(['col', 'info', '--', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--json: cannot read');
    expect(r.stdout).toBe('');
  });

  it('the classification: kinds, exit codes, file and offset', () => {
    expect(describeError(new UsageError('u'))).toMatchObject({ code: 2, error: { kind: 'usage', message: 'u', file: null, offset: null } });
    const fe = new FormatError('gta col', 12, 'bad');
    fe.file = 'a.col';
    const d = describeError(fe);
    expect(d).toMatchObject({ code: 1, error: { kind: 'format', file: 'a.col', offset: 12 } });
    expect(d.line.startsWith('a.col: gta col: bad')).toBe(true);
    expect(describeError(new FormatError('world', -1, 'x')).error.offset).toBeNull();
    expect(describeError(new ScenarioError('s')).error.kind).toBe('scenario');
    const internal = describeError(new RangeError('offset is out of bounds'));
    expect(internal.code).toBe(70);
    expect(internal.error).toEqual({ kind: 'internal', message: 'offset is out of bounds', file: null, offset: null });
    expect(internal.line).toContain('internal error');
    expect(describeError(new Error('other')).error.kind).toBe('input');
    expect(describeError('a string').code).toBe(1);
  });
});
