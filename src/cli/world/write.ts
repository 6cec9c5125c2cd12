/**
 * `retrosim world write FILE --out OUT [--keep-layout]`: any world file parsed and written back with its
 * format's writer, the differences from the input listed.
 */
import { detectWorldFile } from '../../worlds/load.js';
import { rewriteWorldFile } from '../../worlds/rewrite.js';
import { siblingWithExtension } from '../../node/world-files.js';
import { UsageError, type ParsedArgs } from '../args.js';
import { print, printJson, readInputFile, writeOutputFile } from '../io.js';

/** Most differences printed as text (all of them go into --json). */
const MAX_PRINTED = 40;

export function runWorldWrite(file: string, o: ParsedArgs['options']): number {
  const out = o['out'];
  if (typeof out !== 'string') throw new UsageError('world write needs --out OUT');
  const bytes = readInputFile(file);
  let trak: Uint8Array | undefined;
  if (typeof o['trak'] === 'string') trak = readInputFile(o['trak']);
  else if (detectWorldFile(bytes) === 'llama-map') {
    const p = siblingWithExtension(file, 'trak');
    if (p) trak = readInputFile(p);
  }
  const keepLayout = o['keep-layout'] === true;
  const r = rewriteWorldFile(bytes, { keepLayout, ...(trak ? { trak } : {}) });
  writeOutputFile(out, r.bytes, file);
  if (o['json'] === true) {
    printJson({ kind: r.kind, file, out, bytes: r.bytes.length, identical: r.identical, keepLayout: r.keepLayout, differences: r.differences });
    return 0;
  }
  print(`${r.kind} ${file} -> ${out}: ${r.bytes.length} bytes, ${r.identical ? 'byte-identical to the input' : 'different from the input'}${keepLayout ? ' (layout kept)' : ''}`);
  if (r.differences.length === 0) print('the input is in the canonical layout');
  else {
    print(`${r.differences.length} difference(s) of the canonical layout from the input${keepLayout ? ' (kept as they were)' : ''}:`);
    for (const d of r.differences.slice(0, MAX_PRINTED)) print(`  ${d.offset >= 0 ? `@${d.offset}` : '(file)'}: ${d.reason}`);
    if (r.differences.length > MAX_PRINTED) print(`  ... ${r.differences.length - MAX_PRINTED} more (see --json)`);
  }
  return 0;
}
