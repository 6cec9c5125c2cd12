/**
 * Reading a whole input file under a byte limit that holds even when the file lies about its size: files
 * under /proc report 0 bytes and may read without end, and a file may grow while it is read. The size the
 * file reports only refuses it early; the limit is enforced on the bytes actually read, with a running
 * count, so no more than the limit plus one read's worth (1 MiB) is ever held in memory. Reads ask for
 * whole chunks, never odd sizes: some special files (pagemap) refuse a read that is not a multiple of 8.
 *
 * Only regular files are read: a FIFO, a socket or a device (`/dev/zero`, through a symlink or not) is
 * refused without a read. The file is opened non-blocking, so that opening a FIFO with no writer does not
 * wait forever before it can be refused.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Why a bounded read failed: `code` is the errno code, or `ENOTREG` (not a regular file), or `EFBIG` (over the limit). */
export class BoundedReadError extends Error {
  override readonly name = 'BoundedReadError';
  constructor(
    message: string,
    /** The errno code (`ENOENT`, `EACCES`, ...), `ENOTREG` for a file that is not a regular file, `EFBIG` for one over the limit. */
    readonly code: string,
    /** For `EFBIG`: the size the file reports, or the bytes read when that is what went over the limit. */
    readonly size?: number,
  ) {
    super(message);
  }
}

/** Bytes asked of the kernel at a time when the file's reported size cannot be trusted. */
const CHUNK = 1 << 20;
/** Room read past the size a file reports, to find its end (or that it goes on). */
const PROBE = 1 << 16;

/**
 * The bytes of the regular file at `path`, at most `maxBytes` of them. Throws a BoundedReadError when the
 * file cannot be opened or read (its errno code), is not a regular file (`ENOTREG`), or reports or reads
 * more than `maxBytes` (`EFBIG`); the message names `path` and, for a size, the limit.
 */
export function readBounded(path: string, maxBytes: number): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new BoundedReadError(`cannot read ${path} (${code})`, code);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new BoundedReadError(`${path} is not a regular file`, 'ENOTREG');
    if (st.size > maxBytes) throw new BoundedReadError(`${path} is ${st.size} bytes, over the limit of ${maxBytes} bytes`, 'EFBIG', st.size);
    // A file that tells its size truthfully is read into one buffer of exactly that size (its own memory,
    // never a slice of a shared pool: callers may hand it to a worker thread), then a probe finds the end;
    // one that said less (0, for /proc) goes on in chunks, counted against the limit.
    const first = Buffer.allocUnsafeSlow(st.size);
    const got = fill(fd, first, path);
    if (got < st.size) {
      const shrunk = Buffer.allocUnsafeSlow(got); // it shrank meanwhile
      first.copy(shrunk, 0, 0, got);
      return bytesOf(shrunk);
    }
    const chunks: Buffer[] = [first];
    let total = got;
    for (let size = PROBE; ; size = CHUNK) {
      const chunk = Buffer.allocUnsafeSlow(size);
      const n = fill(fd, chunk, path);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) throw new BoundedReadError(`${path} reads past the limit of ${maxBytes} bytes (it reports ${st.size} bytes)`, 'EFBIG', total);
      if (n < size) break;
    }
    if (chunks.length === 1) return bytesOf(first);
    const all = Buffer.allocUnsafeSlow(total);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
    return bytesOf(all);
  } catch (e) {
    if (e instanceof BoundedReadError) throw e;
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new BoundedReadError(`cannot read ${path} (${code})`, code);
  } finally {
    closeSync(fd);
  }
}

/** A Uint8Array view of a whole, unpooled Buffer (the same memory, not a Buffer). */
function bytesOf(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Reads into `buf` until it is full or the file ends; the bytes read. */
function fill(fd: number, buf: Buffer, path: string): number {
  let at = 0;
  while (at < buf.length) {
    let n: number;
    try {
      n = readSync(fd, buf, at, buf.length - at, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      throw new BoundedReadError(`cannot read ${path} (${code})`, code);
    }
    if (n === 0) break;
    at += n;
  }
  return at;
}

/** `readBounded` decoded as UTF-8 (a byte-order mark kept, invalid sequences replaced, as `readFileSync(path, 'utf8')` does). */
export function readBoundedText(path: string, maxBytes: number): string {
  const b = readBounded(path, maxBytes);
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
}
