/**
 * The one error type every parser throws for bad bytes. It names the format, the file offset and what was
 * expected there, so a user can find the fault with a hex viewer.
 */
export class FormatError extends Error {
  override readonly name = 'FormatError';
  /** The file the bytes came from, when whoever read it knows (the parsers see bytes, not paths). */
  file?: string;
  constructor(
    /** Which format or chunk was being read, e.g. "rugrats COL" or "replay chunk INPT". */
    readonly format: string,
    /** Byte offset in the file where the problem is (-1 when it concerns the whole file). */
    readonly offset: number,
    /** What was expected or what is wrong. */
    readonly detail: string,
  ) {
    super(`${format}: ${detail}${offset >= 0 ? ` (at offset ${offset} = 0x${offset.toString(16)})` : ''}`);
  }
}

export function isFormatError(e: unknown): e is FormatError {
  return e instanceof FormatError;
}

/** Runs `f`; a FormatError it throws that names no file yet gets `file` (the parsers see bytes, not paths). */
export function inFile<T>(file: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof FormatError && e.file === undefined) e.file = file;
    throw e;
  }
}
