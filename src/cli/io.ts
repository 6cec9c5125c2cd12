import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './args.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { inFile } from '../binary/format-error.js';
import { BoundedReadError, readBounded } from '../node/bounded-read.js';
import { replaceFile } from '../node/replace-file.js';

export { inFile };

/** Default ceiling on an input file's size (limits.fileBytes): far above any real level, far below what would exhaust memory. */
export const DEFAULT_MAX_FILE_BYTES = DEFAULT_LIMITS.fileBytes;

/**
 * Reads a whole file for a command, with a clear one-line error for a missing, unreadable or huge file, or
 * one that is not a regular file. The limit holds on the bytes read, not only on the size the file reports
 * (files under /proc report 0 and may read without end). `checkSize`, when given, sees the size the file
 * reports before anything is read, and the size read after (to apply a bound of the file's own kind).
 */
export function readInputFile(path: string, maxBytes = DEFAULT_MAX_FILE_BYTES, checkSize?: (size: number) => void): Uint8Array {
  if (checkSize) {
    let reported: number | undefined;
    try {
      reported = statSync(path).size;
    } catch {
      // the read below says why
    }
    if (reported !== undefined && reported <= maxBytes) inFile(path, () => checkSize(reported));
  }
  let b: Uint8Array;
  try {
    b = readBounded(path, maxBytes);
  } catch (e) {
    if (!(e instanceof BoundedReadError)) throw e;
    if (e.code === 'ENOTREG') throw new UsageError(`${path}: not a file`);
    if (e.code === 'EFBIG') throw new UsageError(`${path}: ${e.message.includes('reads past') ? `reads past the ${maxBytes}-byte limit (its reported size is wrong)` : `${e.size} bytes is over the ${maxBytes}-byte limit`}`);
    throw new UsageError(`${path}: cannot read (${e.code})`);
  }
  if (checkSize) inFile(path, () => checkSize(b.length));
  return b;
}

/** Prints a value as one line of JSON on stdout. */
export function printJson(v: unknown): void {
  process.stdout.write(JSON.stringify(v) + '\n');
}

export function print(line: string): void {
  process.stdout.write(line + '\n');
}

/**
 * Writes a command's output file whole (its folder made when missing): into a new temporary file beside it,
 * made exclusively under an unguessable name, then renamed over it, so that a reader (a `replay verify` of
 * the file, started while it is written) sees the old file or the new one, never a part, and a symlink
 * planted at `path` is replaced rather than written through. A one-line usage error when it cannot be
 * written; refuses to overwrite `inputPath`, the file the command read.
 */
export function writeOutputFile(path: string, data: Uint8Array | string, inputPath?: string): void {
  if (inputPath !== undefined && resolve(path) === resolve(inputPath)) throw new UsageError(`--out ${path} is the input file: write to another file`);
  try {
    mkdirSync(dirname(resolve(path)), { recursive: true });
    replaceFile(path, data);
  } catch (e) {
    throw new UsageError(`${path}: cannot write (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
