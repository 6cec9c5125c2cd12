/**
 * A batch's shared secret: with one, the coordinator signs every job it puts on the queue (bound to the
 * queue, the batch run and an expiry: job-grant.ts) and the record saying its run is live, and every worker
 * signs every result it returns and every note of a job it put back (HMAC-SHA-256 over the canonical JSON of
 * what is signed, with a prefix saying what it is, so one cannot pass for another). A worker with a key runs
 * no job that is not signed with it; a coordinator with a key takes no result that is not.
 *
 * The key comes from a file (`--key-file FILE`, or the file named by RETROSIM_BATCH_KEY_FILE) or from
 * RETROSIM_BATCH_KEY; never from a command-line value, which any user of the machine can read in `ps`.
 * A key file is refused, as ssh refuses a private key, when it is a symbolic link, not a regular file, not
 * the user's own, or open to group or others; and when its key (trailing line breaks dropped) is shorter
 * than KEY_MIN_BYTES or longer than KEY_MAX_BYTES. Messages name the file, never the key.
 *
 * Where the key lives: read on the thread that signs and checks (the process's main thread), kept as a
 * `KeyObject` (in the crypto library's memory, not on the JavaScript heap; the bytes read are zeroed), and
 * never sent to a worker thread. RETROSIM_BATCH_KEY is removed from `process.env` when the key is read,
 * whichever source is used, and the batch's threads get an environment without it (`threadEnv`): scenario
 * code on them cannot find it there. What the process was started with stays in `/proc/self/environ`.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { canonicalJson } from './plan.js';
import { KEY_ENV, KEY_FILE_ENV } from './key-env.js';

export { KEY_ENV, KEY_FILE_ENV, threadEnv } from './key-env.js';

/** Shortest key taken, bytes (128 bits). */
export const KEY_MIN_BYTES = 16;
/** Longest key file taken, bytes. */
export const KEY_MAX_BYTES = 4096;


/** A key that cannot be used: the message names where it came from and what is wrong (never the key). */
export class KeyError extends Error {
  override readonly name = 'KeyError';
}

/**
 * What a MAC covers: a job's payload with its grant, a worker's result, a worker's note that it put a job
 * back, or a coordinator's record that its batch run is live.
 */
export type Signed = 'job' | 'result' | 'refusal' | 'run';

/** A shared secret, used only to sign and check (it is never printed: see toJSON and inspect). */
export class BatchKey {
  readonly #key: KeyObject;

  constructor(key: Uint8Array) {
    if (key.length < KEY_MIN_BYTES || key.length > KEY_MAX_BYTES) throw new KeyError(`a key has ${KEY_MIN_BYTES} to ${KEY_MAX_BYTES} bytes, not ${key.length}`);
    this.#key = createSecretKey(key);
  }

  /** The MAC of `value` (64 hex digits): HMAC-SHA-256 of "retrosim-<what>\n" and its canonical JSON. */
  sign(what: Signed, value: unknown): string {
    return createHmac('sha256', this.#key).update(`retrosim-${what}\n`).update(canonicalJson(value)).digest('hex');
  }

  /** True when `mac` is `value`'s MAC under this key (compared in constant time). */
  verify(what: Signed, value: unknown, mac: unknown): boolean {
    if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
    return timingSafeEqual(Buffer.from(this.sign(what, value), 'hex'), Buffer.from(mac, 'hex'));
  }

  toJSON(): string {
    return '[batch key]';
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'BatchKey [hidden]';
  }
}

/**
 * The key to use: `--key-file FILE` when given, else the file named by RETROSIM_BATCH_KEY_FILE, else
 * RETROSIM_BATCH_KEY; null when none is given. RETROSIM_BATCH_KEY is removed from `env` in every case
 * (read or not), so the threads and modules started after this do not see it. Throws KeyError for a key
 * that cannot be used.
 */
export function batchKeyFrom(keyFile: string | undefined, env: NodeJS.ProcessEnv = process.env): BatchKey | null {
  const value = env[KEY_ENV];
  delete env[KEY_ENV];
  if (keyFile !== undefined) return readKeyFile(keyFile, `--key-file ${keyFile}`);
  const file = env[KEY_FILE_ENV];
  if (file !== undefined && value !== undefined) throw new KeyError(`both ${KEY_FILE_ENV} and ${KEY_ENV} are set: give one`);
  if (file !== undefined) {
    if (file === '') throw new KeyError(`${KEY_FILE_ENV} is empty: name a key file`);
    return readKeyFile(file, `${KEY_FILE_ENV} ${file}`);
  }
  if (value !== undefined) return keyOf(Buffer.from(value, 'utf8'), KEY_ENV);
  return null;
}

/** A key file's key; `where` names it in errors. See the module comment for what is refused. */
export function readKeyFile(path: string, where = path): BatchKey {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    throw new KeyError(`${where}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (st.isSymbolicLink()) throw new KeyError(`${where}: a symbolic link; give the key file itself`);
  if (!st.isFile()) throw new KeyError(`${where}: not a regular file`);
  checkOwnership(st, where);
  if (st.size > KEY_MAX_BYTES) throw new KeyError(`${where}: ${st.size} bytes, over the ${KEY_MAX_BYTES} bytes a key file may have`);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    throw new KeyError(`${where}: cannot open it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    // The file opened may not be the one looked at (replaced in between): check it again, and read with a cap.
    const st2 = fstatSync(fd);
    if (!st2.isFile() || st2.ino !== st.ino || st2.dev !== st.dev) throw new KeyError(`${where}: changed while it was read`);
    checkOwnership(st2, where);
    const buf = Buffer.alloc(KEY_MAX_BYTES + 1);
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
      if (n > KEY_MAX_BYTES) throw new KeyError(`${where}: over the ${KEY_MAX_BYTES} bytes a key file may have`);
    }
    try {
      return keyOf(buf.subarray(0, n), where);
    } finally {
      buf.fill(0);
    }
  } finally {
    closeSync(fd);
  }
}

function checkOwnership(st: { mode: number; uid: number }, where: string): void {
  if (process.platform === 'win32') return;
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new KeyError(`${where}: owned by another user; a key file must be your own`);
  if ((st.mode & 0o077) !== 0) throw new KeyError(`${where}: open to group or others (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}); a key file must be private: chmod 600 it`);
}

function keyOf(bytes: Uint8Array, where: string): BatchKey {
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] === 0x0a || bytes[end - 1] === 0x0d)) end--;
  if (end === 0) throw new KeyError(`${where}: empty; a key has at least ${KEY_MIN_BYTES} bytes (e.g. openssl rand -hex 32)`);
  if (end < KEY_MIN_BYTES) throw new KeyError(`${where}: a key of ${end} bytes is too short; a key has at least ${KEY_MIN_BYTES} bytes (e.g. openssl rand -hex 32)`);
  if (end > KEY_MAX_BYTES) throw new KeyError(`${where}: a key of ${end} bytes is too long (at most ${KEY_MAX_BYTES})`);
  const key = Buffer.from(bytes.subarray(0, end));
  try {
    return new BatchKey(key);
  } finally {
    key.fill(0);
  }
}
