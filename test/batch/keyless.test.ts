/**
 * A queue without a key says so, and is refused off loopback unless asked for: `batch --redis` and `worker`
 * without a key on an address that is not loopback stop at their arguments with one usage line (exit 2)
 * naming --insecure, before any connection is tried (the addresses here are never contacted: each command
 * stops at its arguments or at a missing file first), and go on with `--insecure` or a key; which
 * addresses count as loopback, as a property; against a real redis-server on loopback, a batch and a
 * worker without a key say so on their first line, and the batch's summary says so (`key`: false in JSON,
 * a sentence in text), while a keyed one says `key`: true and nothing of the kind.
 */
import fc from 'fast-check';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackRedis } from '../../src/cli/redis-url.js';
import { cli, killAll, repoRoot, startRedis, waitFor, writeBatch, type Proc, type RedisServer } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-batch-keyless-'));
let redis: RedisServer;
const KEY = `keyless-${'0b9d44'.repeat(6)}`;
const keyFile = join(tmp, 'a.key');
writeFileSync(keyFile, KEY, { mode: 0o600 });

const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);
const json = (s: string) => JSON.parse(s.trim().split('\n').pop()!) as Record<string, any>;

async function ended(p: Proc): Promise<number> {
  const code = await p.exited;
  await waitFor('the output read to its end', () => p.child.stdout!.readableEnded && p.child.stderr!.readableEnded);
  return code;
}

function batchFolder(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  cpSync(join(repoRoot, 'assets/worlds/rugrats/demo.col'), join(dir, 'level.col'));
  return writeBatch(dir, 'k', { batch: 1, name: 'k', retries: 0, jobs: [{ world: 'level.col', agents: 2, frames: 30 }] });
}

beforeAll(async () => {
  redis = await startRedis();
}, 120_000);

afterAll(async () => {
  await killAll();
  await redis?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 120_000);

describe('a queue without a key', { timeout: 600_000 }, () => {
  it('loopback addresses are 127.0.0.0/8, ::1 (also as mapped IPv4) and localhost; no other name or address is (property)', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(octet, octet, octet, fc.integer({ min: 1, max: 65535 }), (b, c, d, port) => {
        expect(isLoopbackRedis(`redis://127.${b}.${c}.${d}:${port}`)).toBe(true);
        expect(isLoopbackRedis(`rediss://user:pw@127.${b}.${c}.${d}:${port}/2`)).toBe(true);
        expect(isLoopbackRedis(`redis://[::ffff:127.${b}.${c}.${d}]:${port}`)).toBe(true);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(octet.filter((a) => a !== 127), octet, octet, octet, (a, b, c, d) => {
        expect(isLoopbackRedis(`redis://${a}.${b}.${c}.${d}:6379`)).toBe(false);
        expect(isLoopbackRedis(`redis://[::ffff:${a}.${b}.${c}.${d}]:6379`)).toBe(false);
      }),
      { numRuns: 300 },
    );
    for (const yes of ['redis://localhost:6379', 'redis://LocalHost:6379', 'redis://[::1]:6379', 'redis://[0:0:0:0:0:0:0:1]:6379']) expect(isLoopbackRedis(yes), yes).toBe(true);
    for (const no of ['redis://localhost.example.com:6379', 'redis://x.localhost:6379', 'redis://[::2]:6379', 'redis://[fe80::1]:6379', 'redis://0.0.0.0:6379', 'redis://example.com:6379', 'redis://127.1:6379', 'redis://127.0.0.1.example.com:6379']) {
      expect(isLoopbackRedis(no), no).toBe(false);
    }
  });

  it('off loopback without a key: one usage line naming --insecure (batch and worker); with --insecure or a key they go on', async () => {
    const missing = join(tmp, 'no-such-batch.json');
    const missingScenario = join(tmp, 'no-such-scenario.mjs');
    // Documentation addresses and names: refused before any connection, so never contacted.
    const urls = ['redis://192.0.2.7:6379', 'rediss://user:s3cret@redis.example.com:6380/1', 'redis://[2001:db8::7]:6379'];
    for (const url of urls) {
      const cases: { argv: string[]; env?: NodeJS.ProcessEnv; code: number; message: RegExp }[] = [
        { argv: ['batch', missing, '--redis', url], code: 2, message: /is not a loopback address and there is no key: .*give --key-file FILE \(or RETROSIM_BATCH_KEY_FILE\), or --insecure to run without a key$/ },
        { argv: ['worker', '--redis', url, '--allow-scenario', missingScenario], code: 2, message: /is not a loopback address and there is no key: .*or --insecure to run without a key$/ },
        // Past the rule: they stop at the missing file instead.
        { argv: ['batch', missing, '--redis', url, '--insecure'], code: 1, message: /no-such-batch\.json/ },
        { argv: ['worker', '--redis', url, '--allow-scenario', missingScenario, '--insecure'], code: 2, message: /^retrosim: --allow-scenario: / },
        { argv: ['batch', missing, '--redis', url, '--key-file', keyFile], code: 1, message: /no-such-batch\.json/ },
        { argv: ['worker', '--redis', url, '--allow-scenario', missingScenario], env: { RETROSIM_BATCH_KEY: KEY }, code: 2, message: /^retrosim: --allow-scenario: / },
      ];
      await Promise.all(
        cases.map(async ({ argv, env, code, message }) => {
          const p = cli(argv, env);
          expect(await ended(p), `${argv.join(' ')}: ${p.stderr()}`).toBe(code);
          const lines = p.stderr().trim().split('\n');
          expect(lines, argv.join(' ')).toHaveLength(1);
          expect(lines[0], argv.join(' ')).toMatch(message);
          noStack(p.stderr());
          expect(p.stderr()).not.toContain('s3cret');
          expect(p.stderr()).not.toContain(KEY);
        }),
      );
    }
    const local = cli(['batch', batchFolder('local'), '--insecure']);
    expect(await ended(local)).toBe(2);
    expect(local.stderr()).toMatch(/--insecure is for a batch on a queue \(--redis\)/);
  });

  it('on loopback: a batch and a worker without a key say so on their first line, and the summary says so; a keyed batch does not', async () => {
    const file = batchFolder('plain');
    const w = cli(['worker', '--redis', redis.url, '--queue', 'plain', '--name', 'open']);
    const b = cli(['batch', file, '--redis', redis.url, '--queue', 'plain', '--out', join(tmp, 'plain', 'out', 'k.jsonl'), '--json']);
    expect(await ended(b)).toBe(0);
    const first = b.stderr().split('\n')[0]!;
    expect(first).toMatch(new RegExp(`^batch k: no key: its jobs and results on queue plain at redis://127\\.0\\.0\\.1:${redis.port} are not signed; anyone who can reach that Redis can add jobs the workers run and answer jobs with false results \\(give --key-file FILE to sign them\\)$`));
    expect(json(b.stdout())).toMatchObject({ done: 1, key: false });
    await waitFor("the worker's first line", () => w.stderr().includes('\n'));
    expect(w.stderr().split('\n')[0]).toBe(`worker open: no key: this worker runs any job that anyone who can reach ${redis.url} puts on queue plain (give it the batch's --key-file to run only signed jobs)`);
    // In text: the summary line says it.
    const t = cli(['batch', file, '--redis', redis.url, '--queue', 'plain', '--out', join(tmp, 'plain', 'out', 'k2.jsonl')]);
    expect(await ended(t)).toBe(0);
    expect(t.stdout().split('\n')[0]).toMatch(/^batch k: 1 jobs .*; no key: jobs and results were not signed$/);
    w.child.kill('SIGTERM');
    expect(await ended(w)).toBe(0);

    const kw = cli(['worker', '--redis', redis.url, '--queue', 'keyed', '--name', 'keyed', '--key-file', keyFile]);
    const kb = cli(['batch', file, '--redis', redis.url, '--queue', 'keyed', '--out', join(tmp, 'plain', 'out', 'k3.jsonl'), '--json', '--key-file', keyFile]);
    expect(await ended(kb)).toBe(0);
    expect(json(kb.stdout())).toMatchObject({ done: 1, key: true });
    expect(kb.stderr()).not.toMatch(/no key/);
    kw.child.kill('SIGTERM');
    expect(await ended(kw)).toBe(0);
    expect(kw.stderr()).not.toMatch(/no key/);
    for (const p of [w, b, t, kw, kb]) expect(p.stdout() + p.stderr()).not.toContain(KEY);
  });
});
