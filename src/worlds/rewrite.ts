/**
 * Any world file parsed and written back with its format's own writer (the format found by content, as
 * load.ts finds it): the canonical bytes, or the bytes with the original layout kept, and the list of ways
 * the canonical bytes differ from the file (offsets in the file and reasons).
 *
 * - Rugrats COL and COLBIN: the writers are exact inverses of the parsers, so a file always comes back as it was.
 * - GTA COL: the canonical layout (write.ts); the original layout through layout.ts.
 * - Llama TRAK / MAP / WAD: the chunks the writers make; the original container through file-write.ts. A MAP
 *   needs its TRAK (the colour block's layout depends on the models), given in the options.
 * - Piney field spec: the canonical JSON; the original text with changed values replaced (spec-write.ts).
 */
import { FormatError } from '../binary/format-error.js';
import { parseColbin } from './colbin/parse.js';
import { writeColbin } from './colbin/write.js';
import { colLayoutDifferences, colLayoutOf, writeColFileCanonical, writeColFileKeepingLayout, type LayoutDifference } from './gta/layout.js';
import { parseColFile } from './gta/parse.js';
import { llamaFileDifferences, writeLlamaFile, writeLlamaFileKeepingLayout, type LlamaFileContents } from './llama/file-write.js';
import { parseMap } from './llama/map-parse.js';
import { parseTrak } from './llama/trak-parse.js';
import { detectWorldFile, type WorldFileKind } from './load.js';
import { pineySpecDifferences, readPineyFieldSpec, writePineyFieldSpec, writePineyFieldSpecKeepingLayout } from './piney/spec-write.js';
import { parseCol } from './rugrats/parse.js';
import { writeCol } from './rugrats/write.js';
import { checkFileBytes, DEFAULT_LIMITS, type Limits } from '../limits.js';

export type { LayoutDifference } from './gta/layout.js';

/** What rewriteWorldFile needs besides the bytes: a MAP's TRAK, limits, and whether to keep the layout. */
export interface RewriteOptions {
  /** A Llama MAP's TRAK (its models' vertex counts lay out the MAP's colour block). */
  trak?: Uint8Array;
  /** Keep the original layout (the output is then the input's bytes for an unchanged world). Default false. */
  keepLayout?: boolean;
  limits?: Readonly<Limits>;
}

/** A world file written back: the bytes, whether they equal the input, and how the canonical bytes differ. */
export interface RewrittenWorld {
  kind: WorldFileKind;
  /** The bytes written (canonical, or with the layout kept). */
  bytes: Uint8Array;
  /** Whether `bytes` equal the input. */
  identical: boolean;
  /** Whether the layout was kept. */
  keepLayout: boolean;
  /** Each way the canonical writer's bytes differ from the input (empty when the input is canonical). */
  differences: LayoutDifference[];
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** When an exact writer (Rugrats, COLBIN) gives other bytes: where they start to differ (never expected). */
function exactDifferences(out: Uint8Array, input: Uint8Array, what: string): LayoutDifference[] {
  if (equal(out, input)) return [];
  let k = 0;
  while (k < out.length && k < input.length && out[k] === input[k]) k++;
  return [{ offset: k, reason: `the ${what} writer's bytes differ from here (${out.length} bytes written, ${input.length} read)` }];
}

/**
 * Parses a world file (its format by content) and writes it with its format's writer: canonically, or keeping
 * the original layout with `keepLayout`. The differences of the canonical bytes from the input are listed in
 * both cases. Throws FormatError for bytes no format reads (and for a Llama MAP given without its TRAK).
 */
export function rewriteWorldFile(bytes: Uint8Array, options: RewriteOptions = {}): RewrittenWorld {
  const limits = options.limits ?? DEFAULT_LIMITS;
  checkFileBytes('world', bytes.length, limits);
  const kind = detectWorldFile(bytes);
  if (kind === null) throw new FormatError('world', 0, 'not a world file this runtime recognises (Piney field spec, COLBIN, GTA COL, Llama TRAK/MAP, Rugrats COL)');
  const keep = options.keepLayout === true;
  let out: Uint8Array;
  let differences: LayoutDifference[];
  switch (kind) {
    case 'rugrats': {
      out = writeCol(parseCol(bytes, limits));
      differences = exactDifferences(out, bytes, 'Rugrats COL');
      if (keep && differences.length > 0) throw new FormatError('rugrats COL writer', -1, 'the writer cannot reproduce this file');
      break;
    }
    case 'colbin': {
      out = writeColbin(parseColbin(bytes, { limits }));
      differences = exactDifferences(out, bytes, 'COLBIN');
      if (keep && differences.length > 0) throw new FormatError('colbin writer', -1, 'the writer cannot reproduce this file');
      break;
    }
    case 'gta': {
      const file = parseColFile(bytes, limits);
      differences = colLayoutDifferences(bytes, file);
      out = keep ? writeColFileKeepingLayout(file.models, colLayoutOf(bytes, file)).bytes : writeColFileCanonical(file);
      break;
    }
    case 'llama-trak':
    case 'llama-map':
    case 'llama-wad': {
      const contents = llamaContents(kind, bytes, options.trak, limits);
      differences = llamaFileDifferences(contents, bytes);
      out = keep ? writeLlamaFileKeepingLayout(contents, bytes) : writeLlamaFile(contents);
      break;
    }
    case 'piney': {
      const spec = readPineyFieldSpec(bytes, limits);
      differences = pineySpecDifferences(bytes);
      out = keep ? writePineyFieldSpecKeepingLayout(spec, bytes) : writePineyFieldSpec(spec);
      break;
    }
  }
  return { kind, bytes: out, identical: equal(out, bytes), keepLayout: keep, differences };
}

/** A Llama file's parsed contents: its TRAK, its MAP (read with `trak`'s vertex counts for a MAP alone), or both. */
export function llamaContents(kind: 'llama-trak' | 'llama-map' | 'llama-wad', bytes: Uint8Array, trak: Uint8Array | undefined, limits: Readonly<Limits> = DEFAULT_LIMITS): LlamaFileContents {
  if (kind === 'llama-trak') return { trak: parseTrak(bytes, limits) };
  const t = kind === 'llama-wad' ? parseTrak(bytes, limits) : trak ? parseTrak(trak, limits) : null;
  if (!t) throw new FormatError('llama world', -1, 'a Llama MAP is read with its TRAK (the colour block depends on the models): give the TRAK too (--trak FILE, or a sibling file with the same stem)');
  const map = parseMap(bytes, t.models.map((m) => m.vertices.length / 6), limits);
  return kind === 'llama-wad' ? { trak: t, map } : { map };
}
