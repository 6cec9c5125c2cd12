/**
 * Where a world's bytes come from, kept to rebuild it (each simulation gets a fresh world): a catalog entry
 * fetched from the page's public folder, or files the user gave (a world file, a TRAK with its MAP, a COL with
 * its placements). No DOM here; the bytes are read with the fetch and File.arrayBuffer a page and Node share.
 */
import type { OpenedWorld } from '../../replay/world-identity.js';
import type { PineyTables } from '../../worlds/piney/tables.js';
import { catalogEntry, catalogSource, openWorldBytes, variantFileName, variantSpecBytes } from './world-catalog.js';

export interface WorldSource {
  label: string;
  /** The source a replay records ("builtin:<id>", "file:<name>"). */
  source: string;
  fileName: string;
  bytes: Uint8Array;
  map?: Uint8Array;
  /** GTA placements (JSON bytes). */
  placements?: Uint8Array;
  /** For a variant field, its spec, offered for download. */
  spec?: { name: string; bytes: Uint8Array };
  /** The catalog entry, for a catalog world. */
  catalogId?: string;
}

/** Reads a file of the page's public folder (relative to the page). */
export type FetchBytes = (path: string) => Promise<Uint8Array>;

/** A fetch of the page's public folder at `base`, refusing an HTTP error. */
export function publicFolder(base: string): FetchBytes {
  return async (path) => {
    const r = await fetch(new URL(path, base));
    if (!r.ok) throw new Error(`cannot fetch ${path}: HTTP ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  };
}

/** A catalog world's source: its file, MAP and placements fetched, a variant field's spec made. */
export async function catalogWorldSource(id: string, fetchBytes: FetchBytes): Promise<WorldSource> {
  const e = catalogEntry(id);
  let bytes = await fetchBytes(e.file);
  const map = e.map ? await fetchBytes(e.map) : undefined;
  const placements = e.placements ? await fetchBytes(e.placements) : undefined;
  let spec: WorldSource['spec'];
  if (e.variant) {
    bytes = variantSpecBytes(bytes, e);
    spec = { name: variantFileName(e), bytes };
  }
  const fileName = e.variant ? variantFileName(e) : e.file;
  return { label: e.label, source: catalogSource(e), fileName, bytes, catalogId: e.id, ...(map ? { map } : {}), ...(placements ? { placements } : {}), ...(spec ? { spec } : {}) };
}

const read = async (f: Blob): Promise<Uint8Array> => new Uint8Array(await f.arrayBuffer());

/** A TRAK and its MAP, read. */
export async function trakSource(trak: File, map: File): Promise<WorldSource> {
  return { label: trak.name, source: `file:${trak.name};map:${map.name}`, fileName: trak.name, bytes: await read(trak), map: await read(map) };
}

/** A world file (with a COL's placements), read. */
export async function fileSource(f: File, placements?: File): Promise<WorldSource> {
  return { label: f.name, source: `file:${f.name}`, fileName: f.name, bytes: await read(f), ...(placements ? { placements: await read(placements) } : {}) };
}

/** A dropped or picked file's bytes. */
export const readFile = read;

/** The opener of a source: a fresh world from its bytes each call. */
export function openerOf(src: WorldSource, pineyTables: PineyTables | null): () => Promise<OpenedWorld> {
  return () => openWorldBytes(src.bytes, src.fileName, src.source, { ...(src.map ? { map: src.map } : {}), ...(src.placements ? { placements: src.placements } : {}), ...(pineyTables ? { pineyTables } : {}) });
}
