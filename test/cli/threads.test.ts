/**
 * `retrosim run --threads N` and `retrosim replay verify|seek --threads N`: the same summary, hash and replay
 * bytes as one thread; the thread count is checked as any other argument.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'retrosim-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--threads on the command line', () => {
  it('run: 1 and 3 threads give the same summary and the same replay bytes; verify and seek on 2 threads', () => {
    // 600 agents: more than the pool's minimum per thread, so the workers really run the moves.
    const args = ['run', '--agents', '600', '--frames', '120', '--keyframes', '50', '--json'];
    const one = runCli([...args, '--out', join(dir, 'one.replay')]);
    const three = runCli([...args, '--threads', '3', '--out', join(dir, 'three.replay')]);
    expect(one.code).toBe(0);
    expect(three.code).toBe(0);
    const a = JSON.parse(one.stdout);
    const b = JSON.parse(three.stdout);
    expect(a.threads).toBe(1);
    expect(b.threads).toBe(3);
    for (const k of ['finalHash', 'draws', 'events', 'agents', 'settings']) expect(b[k]).toEqual(a[k]);
    expect(Buffer.compare(readFileSync(join(dir, 'one.replay')), readFileSync(join(dir, 'three.replay')))).toBe(0);
    const v = runCli(['replay', 'verify', join(dir, 'one.replay'), '--threads', '2', '--json']);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ ok: true, threads: 2, frames: 120, finalHash: a.finalHash });
    const s = runCli(['replay', 'seek', join(dir, 'three.replay'), '--frame', '77', '--threads', '2', '--json']);
    expect(s.code).toBe(0);
    expect(JSON.parse(s.stdout)).toMatchObject({ frame: 77, verified: true });
  });

  it('refuses a thread count out of range with a one-line usage error', () => {
    for (const bad of ['0', '65', 'two']) {
      const r = runCli(['run', '--frames', '1', '--no-replay', '--threads', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/--threads/);
    }
  });
});
