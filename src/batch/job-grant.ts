/**
 * What a keyed job's signature binds beyond its payload, and how a keyed worker checks it before it runs
 * the job. With a key (auth.ts), the coordinator signs each job's payload together with its grant:
 *
 * - `queue`: the queue it put the job on. A worker takes jobs from one queue; a signed job copied onto
 *   another queue is refused there.
 * - `run`: the id of the batch run (one `retrosim batch` process's run of its file; a random UUID). While
 *   the run goes on, its coordinator keeps a signed record in Redis saying so (`runRecordKey`: the queue,
 *   the run and `until`, a time RUN_LEASE_MS ahead on the Redis server's clock, written again every
 *   RUN_REFRESH_MS and given the same lifetime in Redis), and deletes it when the run ends. A worker runs a
 *   job only when its run's record is there, signed with its key, for that queue and run, and `until` has
 *   not passed on the Redis server's clock (read in the same round trip): a job of a run that has ended,
 *   put on the queue again, is refused. The record's own signature bounds a copy of it planted after the
 *   run ended: it says the run is live only until its `until`, at most RUN_LEASE_MS after the run's last
 *   write. (The Redis server's clock is the one clock the coordinator and every worker read alike, so their
 *   machines' clocks need not agree to the second.)
 * - `expires`: when the signature lapses, milliseconds since 1970 on the coordinator's clock, GRANT_TTL_MS
 *   after it signed; checked against the worker's own clock (so a party who controls the Redis server's
 *   clock cannot stretch it). A coordinator signs again, in place, every job of its run still on the queue
 *   GRANT_RENEW_MS after it signed it, so a job waiting behind many others does not lapse; a worker whose
 *   clock runs more than GRANT_TTL_MS - GRANT_RENEW_MS ahead of the coordinator's refuses jobs as expired.
 *
 * Without a key nothing of this applies: a job carries its payload alone, as before.
 */
import type { Redis as RedisClient } from 'ioredis';
import type { BatchKey } from './auth.js';
import type { JobPayload } from './payload.js';

/** How long a job's signature holds after it is signed, ms (one hour). */
export const GRANT_TTL_MS = 3_600_000;
/** A job of a live run still on the queue this long after it was signed is signed again, ms (half an hour). */
export const GRANT_RENEW_MS = 1_800_000;
/** How far ahead a run's record says the run is live, and its lifetime in Redis, ms. */
export const RUN_LEASE_MS = 30_000;
/** How often a coordinator writes its run's record again, ms. */
export const RUN_REFRESH_MS = 5_000;

/** What a job's signature binds besides its payload (see the module comment). */
export interface JobGrant {
  /** The queue the job was put on. */
  queue: string;
  /** The batch run that put it there. */
  run: string;
  /** When the signature lapses: milliseconds since 1970, on the signing coordinator's clock. */
  expires: number;
}

/** Why a keyed worker will not run a job: `reason` names the check, `text` says it in one line. */
export interface JobRefusal {
  reason: 'signature' | 'unbound' | 'queue' | 'expired' | 'run-ended';
  text: string;
}

/** The Redis key of a batch run's record. */
export const runRecordKey = (queue: string, run: string) => `retrosim:${queue}:run:${run}`;

const QUEUE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const RUN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A job's data on the queue with a key: the payload, its grant, and the MAC of both. */
export function signedJobData(key: BatchKey, payload: JobPayload, grant: JobGrant): Record<string, unknown> {
  const signed = { ...payload, grant };
  return { ...signed, mac: key.sign('job', signed) };
}

/**
 * Checks a job's data taken from queue `queue` against `key`, at `nowMs` on this worker's clock: its MAC,
 * then its grant's queue and expiry. Returns the grant, or why the job is refused. The run's record is
 * checked apart (`checkRun`: it needs Redis).
 */
export function checkJobGrant(key: BatchKey, data: Record<string, unknown>, queue: string, nowMs: number): JobGrant | JobRefusal {
  const { mac, ...signed } = data;
  if (!key.verify('job', signed, mac)) {
    return { reason: 'signature', text: mac === undefined ? 'the job is not signed (this worker has a key: give the batch the same key)' : "the job's signature does not match this worker's key" };
  }
  const g = signed['grant'];
  const grant = typeof g === 'object' && g !== null && !Array.isArray(g) ? (g as Record<string, unknown>) : null;
  if (!grant || typeof grant['queue'] !== 'string' || !QUEUE.test(grant['queue']) || typeof grant['run'] !== 'string' || !RUN.test(grant['run']) || !Number.isSafeInteger(grant['expires'])) {
    return { reason: 'unbound', text: "the job's signature binds no queue, batch run and expiry (signed by an older retrosim batch: run the batch with this version)" };
  }
  const out: JobGrant = { queue: grant['queue'], run: grant['run'], expires: grant['expires'] as number };
  if (out.queue !== queue) return { reason: 'queue', text: `the job was signed for queue ${out.queue}, not for this queue (${queue})` };
  if (out.expires <= nowMs) return { reason: 'expired', text: `the job's signature expired at ${isoTime(out.expires)} (this worker's clock: ${isoTime(nowMs)})` };
  return out;
}

/** A batch run's record: its queue, its id, until when it is live (Redis server time, ms), signed. */
export function runRecord(key: BatchKey, queue: string, run: string, until: number): string {
  const signed = { queue, run, until };
  return JSON.stringify({ ...signed, mac: key.sign('run', signed) });
}

/**
 * Whether the run of `grant` is live, from its record as read (`raw`, null when absent) at `redisNowMs` on
 * the Redis server's clock: null when it is, else why the job is refused.
 */
export function checkRunRecord(key: BatchKey, raw: string | null, grant: JobGrant, redisNowMs: number): JobRefusal | null {
  const ended = (why: string): JobRefusal => ({ reason: 'run-ended', text: `its batch run ${grant.run} has ended (${why})` });
  if (raw === null) return ended('its run record is gone from the queue');
  let rec: unknown;
  try {
    rec = raw.length <= 4096 ? JSON.parse(raw) : null;
  } catch {
    rec = null;
  }
  const r = typeof rec === 'object' && rec !== null && !Array.isArray(rec) ? (rec as Record<string, unknown>) : null;
  const until = r?.['until'];
  if (!r || !Number.isSafeInteger(until) || !key.verify('run', { queue: grant.queue, run: grant.run, until }, r['mac'])) {
    return ended("its run record is not signed with this worker's key for this queue and run");
  }
  if ((until as number) <= redisNowMs) return ended(`its run record lapsed at ${isoTime(until as number)}, Redis time`);
  return null;
}

/** Reads the run record of `grant` and the Redis server's time in one round trip, and checks them. */
export async function checkRun(client: RedisClient, key: BatchKey, grant: JobGrant): Promise<JobRefusal | null> {
  const replies = (await client.multi().get(runRecordKey(grant.queue, grant.run)).time().exec()) ?? [];
  const [got, time] = replies;
  if (!got || got[0] || !time || time[0]) throw got?.[0] ?? time?.[0] ?? new Error('Redis gave no answer to a run check');
  return checkRunRecord(key, got[1] as string | null, grant, redisTimeMs(time[1]));
}

/** The Redis server's clock, ms, from a TIME reply (seconds and microseconds). */
export function redisTimeMs(reply: unknown): number {
  const [s, us] = Array.isArray(reply) ? reply.map(Number) : [NaN, NaN];
  if (!Number.isSafeInteger(s) || !Number.isSafeInteger(us)) throw new Error('Redis answered TIME with something that is not a time');
  return s! * 1000 + Math.floor(us! / 1000);
}

function isoTime(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}
