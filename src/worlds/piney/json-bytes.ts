/**
 * Reading a Piney JSON file (a field spec, a tables file) from bytes: over-size, non-UTF-8 and non-JSON input
 * each become a FormatError naming the format, before any parse of the content.
 */
import { FormatError } from '../../binary/format-error.js';
import { checkJsonDepth } from '../../binary/json-depth.js';
import { DEFAULT_LIMITS } from '../../limits.js';

/**
 * Parses `bytes` as UTF-8 JSON. `maxBytes` is checked first; `limitName` names the limit that sets it, so the
 * message says which setting to raise. Nesting deeper than `maxDepth` (limits.jsonDepth) is refused before
 * the parse.
 */
export function parseJsonBytes(bytes: Uint8Array, format: string, maxBytes: number, limitName: string, maxDepth = DEFAULT_LIMITS.jsonDepth): unknown {
  if (bytes.length > maxBytes) throw new FormatError(format, -1, `${bytes.length} bytes is over the ${maxBytes}-byte limit (${limitName})`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new FormatError(format, -1, 'not UTF-8 text');
  }
  checkJsonDepth(text, maxDepth, format);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new FormatError(format, -1, `not JSON (${(e as Error).message})`);
  }
}
