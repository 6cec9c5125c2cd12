/**
 * Cheap pre-scans of JSON text, before JSON.parse. Its nesting depth: a file of 100,000 nested arrays
 * parses, but every recursive walk of the value after it (a checker, JSON.stringify) then overflows the
 * stack. Counting `[` and `{` outside strings is enough: the text is parsed (and refused if malformed) after.
 * And how many values it holds (`jsonValuesOver`): what JSON.parse would allocate is in proportion to it.
 */
import { FormatError } from './format-error.js';

/** The offset of the first `[` or `{` that opens a level deeper than `maxDepth`, or -1 when there is none. */
export function jsonTooDeepAt(text: string, maxDepth: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/**
 * Throws a FormatError of `format` when `text` nests arrays and objects deeper than `maxDepth`; `limitName`
 * names the setting (e.g. "limits.jsonDepth"). The message gives the character where the limit is passed.
 */
export function checkJsonDepth(text: string, maxDepth: number, format: string, limitName = 'limits.jsonDepth'): void {
  const at = jsonTooDeepAt(text, maxDepth);
  if (at >= 0) throw new FormatError(format, -1, `JSON nested deeper than ${maxDepth} levels (at character ${at}; ${limitName})`);
}

/**
 * An upper bound on the JSON values in `text` (every value but the first follows a comma, a colon or an
 * opening bracket outside a string), and the offset where the count passed `max` (-1 when it did not). One
 * pass over the text; it allocates nothing.
 */
export function jsonValuesOver(text: string, max: number): number {
  let n = 1;
  let inString = false;
  for (let i = 0, len = text.length; i < len; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x2c || c === 0x3a || c === 0x5b || c === 0x7b) {
      if (++n > max) return i;
    }
  }
  return -1;
}
