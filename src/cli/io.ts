import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './args.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { inFile } from '../binary/format-error.js';

export { inFile };

/** Default ceiling on an input file's size (limits.fileBytes): far above any real level, far below what would exhaust memory. */
export const DEFAULT_MAX_FILE_BYTES = DEFAULT_LIMITS.fileBytes;

/**
 * Reads a whole file for a command, with a clear one-line error for a missing, unreadable or huge file.
 * `checkSize`, when given, sees the size before anything is read (to apply a bound of the file's own kind).
 */
export function readInputFile(path: string, maxBytes = DEFAULT_MAX_FILE_BYTES, checkSize?: (size: number) => void): Uint8Array {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new UsageError(`${path}: not a file`);
    size = st.size;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (size > maxBytes) throw new UsageError(`${path}: ${size} bytes is over the ${maxBytes}-byte limit`);
  if (checkSize) inFile(path, () => checkSize(size));
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Prints a value as one line of JSON on stdout. */
export function printJson(v: unknown): void {
  process.stdout.write(JSON.stringify(v) + '\n');
}

export function print(line: string): void {
  process.stdout.write(line + '\n');
}

/**
 * Writes a command's output file whole (its folder made when missing): into a temporary file beside it, then
 * renamed over it, so that a reader (a `replay verify` of the file, started while it is written) sees the old
 * file or the new one, never a part. A one-line usage error when it cannot be written; refuses to overwrite
 * `inputPath`, the file the command read.
 */
export function writeOutputFile(path: string, data: Uint8Array | string, inputPath?: string): void {
  if (inputPath !== undefined && resolve(path) === resolve(inputPath)) throw new UsageError(`--out ${path} is the input file: write to another file`);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(resolve(path)), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new UsageError(`${path}: cannot write (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
