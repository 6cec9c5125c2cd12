/**
 * What a keyed job's signature binds (job-grant.ts), in this process: a signed job checks only on the queue
 * it was signed for, before its expiry, with the key it was signed with; any change of its payload or grant
 * is refused; a job signed the old way (the payload alone) binds nothing and is refused; a run's record
 * says the run is live only for its own queue and run, under the key, until its `until`.
 * The worker processes that use these checks are tested in grants.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchKey } from '../../src/batch/auth.js';
import { checkJobGrant, checkRunRecord, GRANT_RENEW_MS, GRANT_TTL_MS, redisTimeMs, runRecord, signedJobData, type JobGrant } from '../../src/batch/job-grant.js';
import type { JobPayload } from '../../src/batch/payload.js';

const A = new BatchKey(Buffer.from('the-first-test-key-0123456789'));
const B = new BatchKey(Buffer.from('the-other-test-key-0123456789'));
const RUN = '0f1e2d3c-4b5a-4968-8776-655443322110';
const OTHER_RUN = '0f1e2d3c-4b5a-4968-8776-655443322111';
const NOW = 1_750_000_000_000;

const payload = { kind: 'run', key: 'a'.repeat(64), runtime: '0.2.0', runtimeHash: 'b'.repeat(64), frames: 60 } as unknown as JobPayload;
const queueName = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,20}$/);

describe('job grants', () => {
  it('a signed job checks on its queue before its expiry, with its key only (property)', () => {
    fc.assert(
      fc.property(queueName, queueName, fc.integer({ min: 1, max: 10 * GRANT_TTL_MS }), (q, other, ahead) => {
        const grant: JobGrant = { queue: q, run: RUN, expires: NOW + ahead };
        const data = signedJobData(A, payload, grant);
        expect(checkJobGrant(A, data, q, NOW)).toEqual(grant);
        expect(checkJobGrant(B, data, q, NOW)).toMatchObject({ reason: 'signature' });
        if (other !== q) expect(checkJobGrant(A, data, other, NOW)).toEqual({ reason: 'queue', text: `the job was signed for queue ${q}, not for this queue (${other})` });
        // At its expiry and after: refused, saying when.
        expect(checkJobGrant(A, data, q, NOW + ahead)).toMatchObject({ reason: 'expired', text: expect.stringMatching(/^the job's signature expired at \d{4}-\d\d-\d\dT/) });
        expect(checkJobGrant(A, data, q, NOW + ahead - 1)).toEqual(grant);
      }),
      { numRuns: 200 },
    );
  });

  it('any change of the grant or the payload is refused as a bad signature (property)', () => {
    const grant: JobGrant = { queue: 'q', run: RUN, expires: NOW + GRANT_TTL_MS };
    const data = signedJobData(A, payload, grant);
    const changes: ((d: Record<string, any>) => void)[] = [
      (d) => (d['grant'] = { ...grant, queue: 'other' }),
      (d) => (d['grant'] = { ...grant, run: OTHER_RUN }),
      (d) => (d['grant'] = { ...grant, expires: grant.expires + GRANT_RENEW_MS }),
      (d) => delete d['grant'],
      (d) => (d['frames'] = 61),
      (d) => (d['runtimeHash'] = 'c'.repeat(64)),
      (d) => (d['extra'] = true),
    ];
    for (const change of changes) {
      const d = structuredClone(data);
      change(d);
      expect(checkJobGrant(A, d, 'q', NOW)).toMatchObject({ reason: 'signature' });
    }
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const d = { ...structuredClone(data), frames: v };
        if (JSON.stringify(v) !== '60') expect(checkJobGrant(A, d, 'q', NOW)).toMatchObject({ reason: 'signature' });
      }),
      { numRuns: 200 },
    );
    expect(checkJobGrant(A, { ...data, mac: undefined }, 'q', NOW)).toEqual({ reason: 'signature', text: 'the job is not signed (this worker has a key: give the batch the same key)' });
  });

  it('a job signed the old way (its payload alone) binds no queue, run or expiry: refused', () => {
    const old = { ...payload, mac: A.sign('job', payload) };
    expect(checkJobGrant(A, old, 'q', NOW)).toMatchObject({ reason: 'unbound' });
    // So is a grant of the wrong form, though signed.
    for (const grant of [{ queue: 'q', run: 'not-a-uuid', expires: NOW + 1000 }, { queue: 'q', run: RUN, expires: 'later' }, { queue: '../q', run: RUN, expires: NOW + 1000 }, [1, 2]]) {
      const signed = { ...payload, grant };
      expect(checkJobGrant(A, { ...signed, mac: A.sign('job', signed) }, 'q', NOW)).toMatchObject({ reason: 'unbound' });
    }
  });

  it("a run's record says it is live only for its queue and run, under the key, before its until (property)", () => {
    fc.assert(
      fc.property(queueName, fc.integer({ min: 1, max: 3_600_000 }), (q, lease) => {
        const grant: JobGrant = { queue: q, run: RUN, expires: NOW + GRANT_TTL_MS };
        const rec = runRecord(A, q, RUN, NOW + lease);
        expect(checkRunRecord(A, rec, grant, NOW)).toBeNull();
        expect(checkRunRecord(A, rec, grant, NOW + lease - 1)).toBeNull();
        expect(checkRunRecord(A, rec, grant, NOW + lease)?.text).toMatch(new RegExp(`^its batch run ${RUN} has ended \\(its run record lapsed at `));
        expect(checkRunRecord(B, rec, grant, NOW)?.reason).toBe('run-ended');
        expect(checkRunRecord(A, rec, { ...grant, run: OTHER_RUN }, NOW)?.text).toMatch(/not signed with this worker's key for this queue and run/);
        expect(checkRunRecord(A, rec, { ...grant, queue: `${q}x` }, NOW)?.reason).toBe('run-ended');
        // Its until moved later without the key: refused.
        const moved = JSON.stringify({ ...(JSON.parse(rec) as object), until: NOW + lease + 60_000 });
        expect(checkRunRecord(A, moved, grant, NOW)?.reason).toBe('run-ended');
      }),
      { numRuns: 200 },
    );
    const grant: JobGrant = { queue: 'q', run: RUN, expires: NOW + GRANT_TTL_MS };
    expect(checkRunRecord(A, null, grant, NOW)?.text).toBe(`its batch run ${RUN} has ended (its run record is gone from the queue)`);
    for (const raw of ['', 'null', '[]', '{"until":"x"}', '{'.repeat(10_000), 'x'.repeat(5000)]) expect(checkRunRecord(A, raw, grant, NOW)?.reason).toBe('run-ended');
  });

  it("Redis's TIME reply is read as milliseconds; anything else is an error", () => {
    expect(redisTimeMs(['1750000000', '123456'])).toBe(1_750_000_000_123);
    expect(redisTimeMs([1750000000, 999999])).toBe(1_750_000_000_999);
    for (const bad of [null, 'x', ['a', 'b'], [1.5, 2]]) expect(() => redisTimeMs(bad)).toThrow(/not a time/);
  });
});
