/**
 * Text from the network made safe to print. A peer, a room's creator or a hostile relay chooses the strings a
 * relay logs and a client shows (room configs' world and scenario names, refusal and close reasons); written
 * raw, an ESC or a C1 control could move a terminal's cursor, retitle its window or forge a line, and a
 * bidirectional override could show text in another order than it is. Every such character becomes a visible
 * escape instead: `\x1b`, `\x9b`, `\u202e`.
 */

/**
 * What is escaped: C0 controls (newlines and tabs too: a log line stays one line), DEL, C1 controls, the
 * bidirectional marks, embeddings, overrides and isolates, the line and paragraph separators, the byte-order
 * mark, and a surrogate without its pair.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` with every character a terminal could act on (see UNSAFE above) written as `\xHH` or `\uHHHH`. */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const n = c.charCodeAt(0);
    return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}

/** Whether `text` holds nothing `printable` would escape. */
export function isPrintable(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return !found;
}
