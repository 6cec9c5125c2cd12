/**
 * `retrosim run --threads N` and `retrosim replay verify|seek --threads N`: the same summary, hash and replay
 * bytes as one thread; the thread count is checked as any other argument.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { availableParallelism } from 'node:os';
import { autoThreads, AUTO_THREADS_MAX, AUTO_THREADS_MIN_AGENT_FRAMES, AUTO_THREADS_MIN_AGENTS } from '../../src/node/system-pool.js';
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

  it('auto, the default, keeps small runs on one thread and splits large ones across the cores, in run and in replay verify', () => {
    const small = runCli(['run', '--agents', '600', '--frames', '30', '--no-replay', '--json']);
    expect(small.code, small.stderr).toBe(0);
    expect(JSON.parse(small.stdout).threads).toBe(1);
    // 20,000 agents for 500 frames: 10 million agent-frames, the threshold.
    const large = ['run', '--agents', '20000', '--frames', '500', '--keyframes', '250', '--json'];
    const auto = runCli([...large, '--threads', 'auto', '--out', join(dir, 'auto.replay')]);
    expect(auto.code, auto.stderr).toBe(0);
    const a = JSON.parse(auto.stdout);
    expect(a.threads).toBe(autoThreads(20000, 500, availableParallelism()));
    // (Any thread count gives the one-thread hashes: test/systems/parallel-systems.test.ts.)
    const v = runCli(['replay', 'verify', join(dir, 'auto.replay'), '--max-agents', '20000', '--max-capacity', '32768', '--max-agent-frames', '20000000', '--no-restore-check', '--json']);
    expect(v.code, v.stderr).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ ok: true, threads: a.threads, finalHash: a.finalHash });
  });

  it('autoThreads: one thread for small work or one core; the cores up to 4 from 10,000 agents and 10 million agent-frames', () => {
    expect(autoThreads(300, 3600, 8)).toBe(1);
    expect(autoThreads(9_999, 100_000, 8)).toBe(1);
    expect(autoThreads(10_000, 999, 8)).toBe(1);
    expect(autoThreads(10_000, 1000, 8)).toBe(AUTO_THREADS_MAX);
    expect(autoThreads(100_000, 120, 2)).toBe(2);
    expect(autoThreads(100_000, 120, 1)).toBe(1);
    expect(autoThreads(100_000, 120, 3)).toBe(3);
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(10_000_000), fc.integer({ min: 1, max: 256 }), (agents, frames, cores) => {
        const t = autoThreads(agents, frames, cores);
        expect(t).toBeGreaterThanOrEqual(1);
        expect(t).toBeLessThanOrEqual(Math.min(cores, AUTO_THREADS_MAX));
        if (agents < AUTO_THREADS_MIN_AGENTS || agents * frames < AUTO_THREADS_MIN_AGENT_FRAMES) expect(t).toBe(1);
        // More work never takes fewer threads.
        expect(autoThreads(agents * 2, frames * 2, cores)).toBeGreaterThanOrEqual(t);
      }),
    );
  });

  it('refuses a thread count out of range with a one-line usage error', () => {
    for (const bad of ['0', '65', 'two', '2.5', '-1', '']) {
      const r = runCli(['run', '--frames', '1', '--no-replay', '--threads', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/--threads/);
    }
  });
});
