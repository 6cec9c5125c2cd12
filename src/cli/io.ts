import { readFileSync, statSync } from 'node:fs';
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
