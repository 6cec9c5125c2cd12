import { FormatError } from '../../binary/format-error.js';

/**
 * PC WAD chunk framing: a 4-byte tag stored reversed ("KART" in the file is TRAK), a u32 payload size, the
 * payload. A whole WAD starts with a u32 (file size − 4, often wrong, ignored) and ends at the END chunk.
 * Our .trak and .map files are chunk sequences cut from a WAD (TRAK; WFPC + MAP), so either form is read.
 */

export interface ChunkRef {
  /** The chunk name in reading order, e.g. "TRAK", "MAP ", "WFPC". */
  name: string;
  /** File offset of the tag. */
  offset: number;
  /** File offset of the payload. */
  payload: number;
  /** Payload size in bytes, clamped to the file (see MAP_SIZE_SLACK). */
  size: number;
}

/** Chunk names of the Croc 2 engine family (reading order), for recognising a chunk sequence. */
export const KNOWN_CHUNKS: readonly string[] = [
  'INFO', 'VERS', 'WFPC', 'SMPC', 'AMPC', 'TEXT', 'SPRT', 'FONT', 'RIMG', 'TRAK', 'STPC', 'MAP ', 'LGHT', 'LGPC', 'END ',
  'NAME', 'SRPC', 'LNFO',
];

/** Croc 2 files sometimes give a MAP size 4 bytes too large; the reader clamps it to the file. */
export const MAP_SIZE_SLACK = 4;

/** The 4 file bytes of a chunk name (reversed). */
export function chunkTagBytes(name: string): number[] {
  if (name.length !== 4) throw new RangeError(`chunk name must have 4 characters: ${JSON.stringify(name)}`);
  return [name.charCodeAt(3), name.charCodeAt(2), name.charCodeAt(1), name.charCodeAt(0)];
}

function nameAt(bytes: Uint8Array, at: number): string | null {
  if (at < 0 || at + 4 > bytes.length) return null;
  let s = '';
  for (let i = 3; i >= 0; i--) {
    const c = bytes[at + i]!;
    if (c < 0x20 || c > 0x7e) return null;
    s += String.fromCharCode(c);
  }
  return s;
}

function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

/**
 * Reads a chunk sequence starting at `start` until END or the end of the file. Returns null when the first
 * chunk is not a known name (not a chunk sequence); throws FormatError for a chunk that overruns the file.
 */
function readSequence(bytes: Uint8Array, start: number, format: string): ChunkRef[] | null {
  const first = nameAt(bytes, start);
  if (first === null || !KNOWN_CHUNKS.includes(first)) return null;
  const out: ChunkRef[] = [];
  let at = start;
  while (at < bytes.length) {
    const name = nameAt(bytes, at);
    if (name === null) throw new FormatError(format, at, 'chunk tag is not four printable characters');
    if (at + 8 > bytes.length) throw new FormatError(format, at, `chunk ${name}: header needs 8 bytes but only ${bytes.length - at} remain`);
    let size = u32(bytes, at + 4);
    const left = bytes.length - (at + 8);
    if (size > left) {
      if (name === 'MAP ' && size - left <= MAP_SIZE_SLACK) size = left;
      else throw new FormatError(format, at + 4, `chunk ${name}: size ${size} exceeds the ${left} bytes left`);
    }
    out.push({ name, offset: at, payload: at + 8, size });
    at += 8 + size;
    if (name === 'END ') break;
  }
  return out;
}

/**
 * The chunks of a file that is either a chunk sequence or a whole WAD (u32 length prefix, then chunks).
 * Returns null when neither form is recognised.
 */
export function findChunks(bytes: Uint8Array, format: string): ChunkRef[] | null {
  return readSequence(bytes, 0, format) ?? readSequence(bytes, 4, format);
}

/** The first chunk of that name, or null. */
export function chunkNamed(chunks: readonly ChunkRef[], name: string): ChunkRef | null {
  for (const c of chunks) if (c.name === name) return c;
  return null;
}

/**
 * Whether the bytes hold a chunk of that name (alone, in a chunk sequence or in a whole WAD), for format
 * detection: unreadable bytes are simply not that format, never an error.
 */
export function holdsChunk(bytes: Uint8Array, format: string, name: string): boolean {
  try {
    const chunks = findChunks(bytes, format);
    return chunks !== null && chunkNamed(chunks, name) !== null;
  } catch {
    return false;
  }
}
