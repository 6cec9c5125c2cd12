import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './args.js';
import { DEFAULT_LIMITS } from '../limits.js';

/** Default ceiling on an input file's size (limits.fileBytes): far above any real level, far below what would exhaust memory. */
export const DEFAULT_MAX_FILE_BYTES = DEFAULT_LIMITS.fileBytes;

/** Reads a whole file for a command, with a clear one-line error for a missing, unreadable or huge file. */
export function readInputFile(path: string, maxBytes = DEFAULT_MAX_FILE_BYTES): Uint8Array {
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
 * Writes a command's output file (its folder made when missing), with a one-line usage error when it cannot be
 * written. Refuses to overwrite `inputPath`, the file the command read.
 */
export function writeOutputFile(path: string, bytes: Uint8Array, inputPath?: string): void {
  if (inputPath !== undefined && resolve(path) === resolve(inputPath)) throw new UsageError(`--out ${path} is the input file: write to another file`);
  try {
    mkdirSync(dirname(resolve(path)), { recursive: true });
    writeFileSync(path, bytes);
  } catch (e) {
    throw new UsageError(`${path}: cannot write (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
