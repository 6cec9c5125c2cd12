/**
 * `--set key=value` reads a number as a JSON number (a batch file's params are JSON numbers): decimal, with
 * an optional "-", fraction and exponent; hex, "+", "_", spaces and Infinity are refused, and every refusal
 * echoes the text given (never "NaN" or a number the text was turned into).
 */
import { describe, expect, it } from 'vitest';
import { ParamError, parseParamText } from '../../src/sim/params.js';
import { runCli } from './run-cli.js';

const SPECS = {
  players: { type: 'int', default: 4, min: 1, max: 64 },
  speed: { type: 'number', default: 1, min: 0, max: 10 },
} as const;
const read = (key: string, text: string) => parseParamText('tag', SPECS, key, text);

describe('--set numbers', () => {
  it('decimal JSON numbers are read, as a batch file reads them', () => {
    expect(read('players', '16')).toBe(16);
    expect(read('players', '1e1')).toBe(10);
    expect(read('players', '2.0')).toBe(2);
    expect(read('speed', '0.5')).toBe(0.5);
    expect(read('speed', '-0')).toBe(0);
    expect(read('speed', '25e-1')).toBe(2.5);
  });

  it('anything else is refused, echoing the text given', () => {
    for (const text of ['abc', '0x10', '+5', '1_0', ' 5', '5 ', '', '.5', '5.', 'Infinity', 'NaN', '010', '0b1']) {
      expect(() => read('players', text), text).toThrow(new ParamError(`--set players must be an integer written in decimal (as in JSON), got ${JSON.stringify(text)}`));
    }
    expect(() => read('speed', '0x1')).toThrow(new ParamError('--set speed must be a number written in decimal (as in JSON), got "0x1"'));
    expect(() => read('players', '2.5')).toThrow(new ParamError('--set players must be an integer, got "2.5"'));
    expect(() => read('players', '1e3')).toThrow(new ParamError('--set players must be in 1..64, got "1e3"'));
    expect(() => read('players', '1e999')).toThrow(new ParamError('--set players must be an integer, got "1e999"'));
  });

  it('through the CLI: the text in the one-line refusal, exit 2', () => {
    const base = ['run', '--scenario', 'examples/guards/guards.mjs', '--world', 'rugrats-demo', '--frames', '1', '--agents', '0', '--no-replay'];
    const abc = runCli([...base, '--set', 'guards=abc']);
    expect(abc.code).toBe(2);
    expect(abc.stderr).toBe('retrosim: --set guards must be an integer written in decimal (as in JSON), got "abc"\n');
    expect(abc.stderr).not.toContain('NaN');
    const hex = runCli([...base, '--set', 'guards=0x10']);
    expect(hex.code).toBe(2);
    expect(hex.stderr).toContain('got "0x10"');
    const ok = runCli([...base, '--set', 'guards=1e1', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).settings.params.guards).toBe(10);
  });
});
