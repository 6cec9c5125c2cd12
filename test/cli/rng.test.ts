import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('retrosim rng', () => {
  it('fieldrand --json prints the raw steps and the state', () => {
    const r = runCli(['rng', 'fieldrand', '--seed', '12345', '--draws', '6', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      values: [1346626, 146783255, 3114473928, 175242789, 1921595838, 3295517155],
      state: { seed: 3295517155, count: 6 },
    });
  });

  it('fieldrand --mod applies fieldrand(n)', () => {
    const r = runCli(['rng', 'fieldrand', '--seed', '1420855', '--draws', '2', '--mod', '1000', '--json']);
    expect(JSON.parse(r.stdout).values).toEqual([154874216 % 1000, 3996388677 % 1000]);
  });

  it('ccrand --json prints unsigned words', () => {
    const r = runCli(['rng', 'ccrand', '--init', '0', '--draws', '5', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.values).toEqual([0x889c77e9, 0xc8c10059, 0x4f014569, 0x3b11bcc1, 0x0e34b264]);
    expect(out.state.draws).toBe(5);
  });

  it('ccrand --init skips draws', () => {
    const all = JSON.parse(runCli(['rng', 'ccrand', '--draws', '5', '--json']).stdout).values;
    const skipped = JSON.parse(runCli(['rng', 'ccrand', '--init', '3', '--draws', '2', '--json']).stdout).values;
    expect(skipped).toEqual(all.slice(3));
  });

  it.each([
    [['rng', 'fieldrand', '--draws', '3']],
    [['rng', 'fieldrand', '--seed', 'abc', '--draws', '3']],
    [['rng', 'fieldrand', '--seed', '-1', '--draws', '3']],
    [['rng', 'ccrand', '--draws', '99999999999']],
    [['rng', 'mersenne', '--draws', '3']],
    [['rng', 'ccrand', '--draws', '3', '--bogus']],
  ])('wrong arguments %j give one line and exit 2', (args) => {
    const r = runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

  it('--help lists the commands', () => {
    const r = runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('rng');
  });
});

describe('retrosim output to a closed pipe', () => {
  it('stops quietly when the reader closes early (EPIPE)', async () => {
    const { spawn } = await import('node:child_process');
    const { repoRoot } = await import('./run-cli.js');
    const child = spawn(process.execPath, ['bin/retrosim.js', 'rng', 'ccrand', '--draws', '2000000'], { cwd: repoRoot });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  });
});

describe('retrosim bench', () => {
  it('--list names the benchmarks of every area without running them', () => {
    const r = runCli(['bench', '--list', '--json']);
    expect(r.code).toBe(0);
    const names: string[] = JSON.parse(r.stdout).benches;
    for (const area of ['rugrats', 'llama', 'colbin', 'gta', 'piney', 'ambient', 'kernel', 'los', 'peers']) {
      expect(names.some((n) => n.startsWith(`${area}:`)), area).toBe(true);
    }
  });

  it('an unknown filter is a usage error', () => {
    const r = runCli(['bench', 'no-such-benchmark']);
    expect(r.code).toBe(2);
  });
});
