/**
 * Writing a Llama level file back: a `.trak` (its TRAK chunk), a `.map` (WFPC and MAP chunks) or a file holding
 * both (a chunk sequence or a whole WAD). The canonical form is what the writers make (TRAK; WFPC + MAP; for
 * both, TRAK then WFPC then MAP); the layout-keeping form rewrites those chunks' payloads in place inside the
 * original container, so the other chunks, their order, a WAD's length word and a MAP size that overruns the
 * file stay as they were. Both forms write every float as the model's bits (the reader keeps the file's: see
 * binary/float-bits.ts), NaN payloads included.
 */
import { BinaryWriter } from '../../binary/writer.js';
import { FormatError } from '../../binary/format-error.js';
import { chunkNamed, chunkTagBytes, findChunks, type ChunkRef } from './chunks.js';
import { writeMapFile, writeMapPayload } from './map-write.js';
import type { LlamaMap } from './map-parse.js';
import { writeTrakFile, writeTrakPayload } from './trak-write.js';
import type { Trak } from './trak-parse.js';

/** What a Llama level file holds: a TRAK, a MAP (with its WFPC flags), or both. */
export interface LlamaFileContents {
  trak?: Trak;
  map?: LlamaMap;
}

/** The canonical bytes of a level file: the TRAK chunk, then the WFPC and MAP chunks, for what it holds. */
export function writeLlamaFile(contents: LlamaFileContents): Uint8Array {
  const parts: Uint8Array[] = [];
  if (contents.trak) parts.push(writeTrakFile(contents.trak));
  if (contents.map) parts.push(writeMapFile(contents.map));
  if (parts.length === 0) throw new RangeError('writeLlamaFile: nothing to write (no TRAK, no MAP)');
  return concat(parts);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function chunksOf(original: Uint8Array): ChunkRef[] {
  const chunks = findChunks(original, 'llama file');
  if (chunks === null) throw new FormatError('llama file', 0, 'not a chunk sequence or WAD (no known chunk tag at offset 0 or 4)');
  return chunks;
}

/**
 * The contents written into the original file's container: the TRAK, WFPC and MAP chunks' payloads replaced
 * by the written ones (each chunk's size field kept when its payload length is unchanged, so an overrunning
 * MAP size stays), every other byte as it was. A chunk the contents hold but the file lacks is appended (a
 * WFPC chunk only when the flags are not 0, the value a file without one has).
 * For the contents parsed from `original`, unchanged, this is `original`. Throws FormatError.
 */
export function writeLlamaFileKeepingLayout(contents: LlamaFileContents, original: Uint8Array): Uint8Array {
  const chunks = chunksOf(original);
  const payloads = new Map<string, Uint8Array>();
  if (contents.trak) payloads.set('TRAK', writeTrakPayload(contents.trak).finish());
  if (contents.map) {
    payloads.set('WFPC', new BinaryWriter(4).u32(contents.map.wfpc).finish());
    payloads.set('MAP ', writeMapPayload(contents.map).finish());
  }
  const parts: Uint8Array[] = [];
  let at = 0;
  const done = new Set<string>();
  for (const c of chunks) {
    const p = done.has(c.name) ? undefined : payloads.get(c.name);
    if (!p) continue;
    done.add(c.name);
    parts.push(original.subarray(at, c.offset + 4));
    const storedSize = new DataView(original.buffer, original.byteOffset + c.offset + 4, 4).getUint32(0, true);
    parts.push(new BinaryWriter(4).u32(p.length === c.size ? storedSize : p.length).finish());
    parts.push(p);
    at = c.payload + c.size;
  }
  parts.push(original.subarray(at));
  for (const [name, p] of payloads) {
    // A file without a WFPC chunk has flags 0: the layout keeps it without one while the flags are 0.
    if (done.has(name) || (name === 'WFPC' && contents.map?.wfpc === 0)) continue;
    parts.push(Uint8Array.from(chunkTagBytes(name)), new BinaryWriter(4).u32(p.length).finish(), p);
  }
  const out = concat(parts);
  // A WAD's first word is its length − 4 (readers ignore it): keep it, unless the length changed.
  const wad = chunks.length > 0 && chunks[0]!.offset === 4;
  if (wad && out.length !== original.length) new DataView(out.buffer).setUint32(0, out.length - 4, true);
  return out;
}

/** Why the canonical file differs from the original: a WAD's length word, chunks the writers do not write, order, size fields. */
export function llamaFileDifferences(contents: LlamaFileContents, original: Uint8Array): { offset: number; reason: string }[] {
  const canon = writeLlamaFile(contents);
  if (canon.length === original.length && canon.every((b, i) => b === original[i])) return [];
  const chunks = chunksOf(original);
  const out: { offset: number; reason: string }[] = [];
  if (chunks.length > 0 && chunks[0]!.offset === 4) out.push({ offset: 0, reason: 'a WAD: its length word is not written (the canonical file is a chunk sequence)' });
  const kept = new Set<string>();
  if (contents.trak) kept.add('TRAK');
  if (contents.map) kept.add('WFPC').add('MAP ');
  const order = contents.trak ? ['TRAK', 'WFPC', 'MAP '] : ['WFPC', 'MAP '];
  const seen: string[] = [];
  for (const c of chunks) {
    if (!kept.has(c.name) || seen.includes(c.name)) {
      out.push({ offset: c.offset, reason: `chunk ${JSON.stringify(c.name)} (${c.size} bytes) is not written: the canonical file holds only ${[...kept].map((k) => JSON.stringify(k)).join(', ')}` });
      continue;
    }
    seen.push(c.name);
    const stored = new DataView(original.buffer, original.byteOffset + c.offset + 4, 4).getUint32(0, true);
    if (stored !== c.size) out.push({ offset: c.offset + 4, reason: `chunk ${JSON.stringify(c.name)}: size field ${stored} overruns the file by ${stored - c.size} bytes (read as ${c.size}); the writer stores ${c.size}` });
  }
  const present = seen.filter((n) => order.includes(n));
  const expected = order.filter((n) => present.includes(n));
  if (present.join() !== expected.join()) {
    const c = chunkNamed(chunks, present.find((n, i) => n !== expected[i])!)!;
    out.push({ offset: c.offset, reason: `chunks in the order ${present.map((n) => JSON.stringify(n)).join(', ')}; the canonical order is ${order.map((n) => JSON.stringify(n)).join(', ')}` });
  }
  if (contents.map && !seen.includes('WFPC')) out.push({ offset: -1, reason: 'no WFPC chunk (flags 0): the writer adds one' });
  if (out.length === 0) {
    let k = 0;
    while (k < canon.length && k < original.length && canon[k] === original[k]) k++;
    out.push({ offset: k, reason: "the writers' bytes differ from here" });
  }
  return out;
}
