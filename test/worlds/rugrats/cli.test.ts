import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { command } from '../../../src/cli/commands/rugrats.js';
import { UsageError } from '../../../src/cli/args.js';
import { FormatError } from '../../../src/binary/format-error.js';
import { tempDir } from '../../setup/temp-dir.js';

const asset = (n: string) => fileURLToPath(new URL(`../../../assets/worlds/rugrats/${n}`, import.meta.url));

async function run(args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    lines.push(...String(s).split('\n').filter((l) => l !== ''));
    return true;
  });
  try {
    const code = await command.run(args);
    return { code, lines };
  } finally {
    spy.mockRestore();
  }
}
afterEach(() => vi.restoreAllMocks());

describe('retrosim rugrats', () => {
  it('info --json', async () => {
    const r = await run(['info', asset('hand.col'), '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.lines[0]!);
    expect(j).toMatchObject({ bytes: 4254, min: [0, -8192, 0], max: [3071, 0, 3071], columns: 3, cells: 8, tiles: 10, halvedCells: 1, slopedTiles: 1, floorNormals: 2, ceilingNormals: 1 });
  });
  it('query --json prints result, ceiling, floor and tile', async () => {
    const r = await run(['query', asset('hand.col'), '512', '-3000', '2560', '--json']);
    expect(JSON.parse(r.lines[0]!)).toEqual({ result: 0, ceiling: -4096, floor: -2048, tile: 4170 });
  });
  it('segment --json prints null for outputs the original does not write', async () => {
    const r = await run(['segment', asset('hand.col'), '512', '-500', '2560', '512', '-3000', '2560', '--json']);
    expect(JSON.parse(r.lines[0]!)).toEqual({ result: 1, depth: null, point: [512, -1023, 2560], normal: [0, 4096, 0], tile: 4162 });
    const through = await run(['segment', asset('hand.col'), '512', '-500', '512', '1800', '-500', '512', '--json']);
    expect(JSON.parse(through.lines[0]!)).toEqual({ result: 0, depth: null, point: null, normal: null, tile: 4184 });
  });
  it('verify-trace passes the shipped trace and fails a wrong one with the first differences', async () => {
    const ok = await run(['verify-trace', asset('hand.col'), asset('hand-trace.jsonl'), '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.lines[0]!)).toMatchObject({ entries: 24, matches: 24, mismatches: 0 });
    const dir = tempDir('rugrats-trace-');
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"op":"query","pos":[512,-100,512],"expect":{"result":1}}\n');
    const r = await run(['verify-trace', asset('hand.col'), bad]);
    expect(r.code).toBe(1);
    expect(r.lines[0]).toBe('1 entries: 0 match, 1 differ');
    expect(r.lines[1]).toMatch(/line 1 query 512 -100 512: result expected 1, got 0/);
  });
  it('gives usage errors for bad arguments and a FormatError for a bad file', async () => {
    await expect(run(['query', asset('hand.col'), '1', '2'])).rejects.toThrow(UsageError);
    await expect(run(['query', asset('hand.col'), '1', 'x', '2'])).rejects.toThrow(UsageError);
    await expect(run(['query', asset('hand.col'), '1', '2', '99999999999'])).rejects.toThrow(UsageError);
    await expect(run(['fly'])).rejects.toThrow(UsageError);
    await expect(run([])).rejects.toThrow(UsageError);
    await expect(run(['info', asset('hand-trace.jsonl')])).rejects.toThrow(FormatError);
  });
});
