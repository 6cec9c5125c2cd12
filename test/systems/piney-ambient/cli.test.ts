import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../cli/run-cli.js';
import { tempDir } from '../../setup/temp-dir.js';

describe('retrosim ambient', () => {
  it('--json prints the summary: op counts by kind and the final RNG states', () => {
    const r = runCli(['ambient', '--seed', '987654321', '--type', '5', '--row', '6', '--frames', '40', '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.weather).toBe(5);
    expect(s.afterInit).toBe(1621);
    expect(s.made.snow).toBe(200);
    // 10 settling passes and 38 drawn frames of 200 flakes, plus the night's fireflies.
    expect(s.counts.sprite).toBeGreaterThanOrEqual(200 * (10 + 38));
    expect(s.fieldrand.count).toBeGreaterThan(s.afterGenerate);
    expect(s.ccrand.draws).toBe(0);
  });

  it('--trace writes one line per frame with cumulative counts; a menu repeats the list', () => {
    const dir = tempDir('ambient-');
    const file = join(dir, 'trace.jsonl');
    const r = runCli(['ambient', '--seed', '5', '--type', '2', '--row', '0', '--frames', '30', '--menu', '10,5', '--trace', file, '--json']);
    expect(r.code).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBe(30);
    expect(Object.keys(lines[0])).toEqual(['frame', 'fieldrand', 'ccrand', 'ops']);
    expect(lines[0].ops).toEqual([]);
    expect(lines[1].ops).toEqual([]);
    expect(lines[2].ops.length).toBeGreaterThan(0);
    for (let i = 1; i < 30; i++) expect(lines[i].fieldrand).toBeGreaterThanOrEqual(lines[i - 1].fieldrand);
    // Frames 10..14 asleep: the list of frame 9 again, and no draws.
    for (let f = 10; f < 15; f++) {
      expect(lines[f - 1].ops).toEqual(lines[8].ops);
      expect(lines[f - 1].fieldrand).toBe(lines[8].fieldrand);
    }
    expect(JSON.parse(r.stdout).asleepFrames).toBe(5);
  });

  it('a bad tables file is a one-line format error', () => {
    const dir = tempDir('ambient-');
    const file = join(dir, 'tables.json');
    writeFileSync(file, '{"format": 1');
    const r = runCli(['ambient', '--seed', '1', '--type', '1', '--row', '0', '--frames', '2', '--tables', file]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n').length).toBe(1);
    expect(r.stderr).toMatch(/tables/);
  });

  it('usage errors exit 2 with one line', () => {
    for (const args of [
      ['ambient', '--seed', '1', '--type', '11', '--row', '0', '--frames', '1'],
      ['ambient', '--seed', '1', '--type', '1', '--frames', '1'],
      ['ambient', '--seed', '1', '--type', '1', '--row', '0', '--frames', '1', '--fires', '1,2'],
      ['ambient', '--seed', '1', '--type', '1', '--row', '0', '--frames', '1', '--entry-draws', '0'],
    ]) {
      const r = runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n').length).toBe(1);
    }
  });
});
