/**
 * The round-trip fuzz target: every mutated world file that parses (any format, found by content) is written
 * back with its format's writer and parsed again, and must give the same model: for Rugrats and COLBIN the
 * same bytes too; for GTA the same models with their flags made canonical; for Llama the same TRAK and MAP
 * (file offsets aside); for a Piney spec the same values. With the layout kept, the bytes must be the input's.
 * A difference is a failure (a plain Error), not a FormatError.
 */
import { isDeepStrictEqual } from 'node:util';
import { FormatError } from '../../src/binary/format-error.js';
import { detectWorldFile } from '../../src/worlds/load.js';
import { llamaContents, rewriteWorldFile } from '../../src/worlds/rewrite.js';
import { parseCol } from '../../src/worlds/rugrats/parse.js';
import { parseColbin } from '../../src/worlds/colbin/parse.js';
import { parseColFile } from '../../src/worlds/gta/parse.js';
import { canonicalColModel } from '../../src/worlds/gta/layout.js';
import { readPineyFieldSpec } from '../../src/worlds/piney/spec-write.js';

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** A Llama model without the file offsets it was found at (they move when the container changes). */
function withoutOffsets(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutOffsets);
  if (v && typeof v === 'object' && !ArrayBuffer.isView(v)) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== 'offsets' && k !== 'payloadOffset' && k !== 'headerOffset' && k !== 'dataOffset') o[k] = withoutOffsets(x);
    return o;
  }
  return v;
}

function mismatch(kind: string, what: string): never {
  throw new Error(`${kind}: ${what}`);
}

/** Parses, writes, parses again and compares (see the module comment); returns the rewritten world. */
export function roundTrip(bytes: Uint8Array): unknown {
  const kind = detectWorldFile(bytes);
  if (kind === null) throw new FormatError('world', 0, 'not a world file');
  const r = rewriteWorldFile(bytes);
  const kept = rewriteWorldFile(bytes, { keepLayout: true });
  if (!equalBytes(kept.bytes, bytes)) mismatch(kind, 'the layout-keeping write did not give the input back');
  switch (kind) {
    case 'rugrats':
      if (!equalBytes(r.bytes, bytes)) mismatch(kind, 'parse → write changed the bytes');
      if (!isDeepStrictEqual(parseCol(r.bytes), parseCol(bytes))) mismatch(kind, 'parse → write → parse changed the model');
      break;
    case 'colbin':
      if (!equalBytes(r.bytes, bytes)) mismatch(kind, 'parse → write changed the bytes');
      if (!isDeepStrictEqual(parseColbin(r.bytes), parseColbin(bytes))) mismatch(kind, 'parse → write → parse changed the model');
      break;
    case 'gta': {
      const a = parseColFile(bytes);
      const b = parseColFile(r.bytes);
      if (!isDeepStrictEqual(b.models, a.models.map(canonicalColModel))) mismatch(kind, 'parse → write → parse changed a model');
      if (!equalBytes(b.trailing, a.trailing)) mismatch(kind, 'the trailing bytes changed');
      if (r.identical !== (r.differences.length === 0)) mismatch(kind, `identical ${r.identical} but ${r.differences.length} differences listed`);
      break;
    }
    case 'llama-trak':
    case 'llama-wad': {
      const a = llamaContents(kind, bytes, undefined);
      const outKind = detectWorldFile(r.bytes);
      if (outKind !== kind) mismatch(kind, `the written file reads as ${outKind}`);
      const b = llamaContents(kind, r.bytes, undefined);
      if (!isDeepStrictEqual(withoutOffsets(b), withoutOffsets(a))) mismatch(kind, 'parse → write → parse changed the TRAK or the MAP');
      break;
    }
    case 'llama-map':
      break; // a MAP alone is read with its TRAK: rewriteWorldFile refused it above (no TRAK given)
    case 'piney':
      if (!isDeepStrictEqual(readPineyFieldSpec(r.bytes), readPineyFieldSpec(bytes))) mismatch(kind, 'parse → write → parse changed the spec');
      break;
  }
  return r;
}
