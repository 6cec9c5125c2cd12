/**
 * The batch key (auth.ts), in this process: a MAC verifies only for the same value, the same kind of
 * message (a job's MAC is not a result's) and the same key; any change of the signed value, however
 * small, is refused; keys of the wrong size are refused; the key is never shown by JSON or inspect.
 */
import fc from 'fast-check';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchKey, batchKeyFrom, KeyError, threadEnv } from '../../src/batch/auth.js';

const A = new BatchKey(Buffer.from('the-first-test-key-0123456789'));
const B = new BatchKey(Buffer.from('the-other-test-key-0123456789'));

describe('batch keys', () => {
  it('a MAC verifies for its value, kind and key only; any change of the value is refused (property)', () => {
    const value = fc.jsonValue();
    fc.assert(
      fc.property(value, value, (v, w) => {
        const mac = A.sign('job', v);
        expect(A.verify('job', v, mac)).toBe(true);
        expect(A.verify('job', JSON.parse(JSON.stringify(v)) as unknown, mac)).toBe(true);
        expect(A.verify('result', v, mac)).toBe(false);
        expect(B.verify('job', v, mac)).toBe(false);
        if (JSON.stringify(v) !== JSON.stringify(w)) expect(A.verify('job', { x: w }, A.sign('job', { x: v }))).toBe(false);
      }),
      { numRuns: 300 },
    );
    const mac = A.sign('result', { key: 'k', body: '{}' });
    for (const bad of [undefined, null, 5, '', mac.slice(1), mac.toUpperCase(), `${mac}0`, 'g'.repeat(64)]) expect(A.verify('result', { key: 'k', body: '{}' }, bad)).toBe(false);
    const flipped = (mac[0] === '0' ? '1' : '0') + mac.slice(1);
    expect(A.verify('result', { key: 'k', body: '{}' }, flipped)).toBe(false);
  });

  it('keys of the wrong size are refused; the key is never shown', () => {
    expect(() => new BatchKey(Buffer.alloc(15))).toThrow(KeyError);
    expect(() => new BatchKey(Buffer.alloc(4097))).toThrow(KeyError);
    expect(JSON.stringify({ k: A })).not.toContain('first-test-key');
    expect(inspect(A)).not.toContain('first-test-key');
    expect(inspect({ a: A }, { showHidden: true, depth: 5 })).not.toContain('first-test-key');
  });

  it('from the environment: the key variable is removed once read; none given is no key', () => {
    const env: NodeJS.ProcessEnv = { RETROSIM_BATCH_KEY: 'an-environment-key-123' };
    const k = batchKeyFrom(undefined, env)!;
    expect(env['RETROSIM_BATCH_KEY']).toBeUndefined();
    expect(k.verify('job', 1, new BatchKey(Buffer.from('an-environment-key-123')).sign('job', 1))).toBe(true);
    expect(batchKeyFrom(undefined, {})).toBeNull();
    expect(() => batchKeyFrom(undefined, { RETROSIM_BATCH_KEY_FILE: '' })).toThrow(/empty: name a key file/);
  });

  it('the key variable is removed also when --key-file wins over it; threads get neither key variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrosim-auth-'));
    try {
      const file = join(dir, 'k');
      writeFileSync(file, 'a-key-from-a-file-0123456789', { mode: 0o600 });
      const env: NodeJS.ProcessEnv = { RETROSIM_BATCH_KEY: 'an-environment-key-123', HOME: '/home/x' };
      const k = batchKeyFrom(file, env)!;
      expect(k.verify('job', 1, new BatchKey(Buffer.from('a-key-from-a-file-0123456789')).sign('job', 1))).toBe(true);
      expect(env).toEqual({ HOME: '/home/x' });
      // A key that cannot be used removes it too.
      const bad: NodeJS.ProcessEnv = { RETROSIM_BATCH_KEY: 'short' };
      expect(() => batchKeyFrom(undefined, bad)).toThrow(KeyError);
      expect(bad).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const env = { RETROSIM_BATCH_KEY: 'x'.repeat(20), RETROSIM_BATCH_KEY_FILE: '/k', PATH: '/bin', PROBE: '1' };
    expect(threadEnv(env)).toEqual({ PATH: '/bin', PROBE: '1' });
    expect(env.RETROSIM_BATCH_KEY).toBe('x'.repeat(20)); // the given object is not changed
  });
});
