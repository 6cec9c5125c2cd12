/**
 * Writing an output file whole without following a symlink planted at its path: the bytes go to a new file
 * beside it, created exclusively (O_CREAT | O_EXCL, which refuses any existing name, a symlink included)
 * under a name nobody can guess ahead, then renamed over the target. A rename replaces a symlink at the
 * target itself; it never writes through it. A reader sees the old file or the new one, never a part.
 */
import { closeSync, constants, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

let counter = 0;

/**
 * Writes `data` to `path` (see the module comment). The folder must exist. Throws the system error of the
 * failing step (the temporary file is removed when it was made).
 */
export function replaceFile(path: string, data: Uint8Array | string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.${randomBytes(6).toString('hex')}.tmp`);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o666);
  try {
    try {
      let at = 0;
      while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Opens `path` to append to it (created when missing) and refuses a symlink there (O_NOFOLLOW): a journal
 * or log that someone replaced with a link to another file is an error, not a write into that file.
 */
export function openAppendNoFollow(path: string): number {
  return openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o666);
}
