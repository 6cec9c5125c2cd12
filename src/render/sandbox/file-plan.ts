/**
 * What a set of dropped or picked files is, by their names and sizes alone (nothing is read yet): a file over
 * the runtime's limit (refused before it is read), a replay, a Llama TRAK with its MAP, or a world file with,
 * for a GTA COL, its placements (as Node finds `<stem>.placements.json` beside the file), or placements alone
 * (for the COL shown).
 *
 * No DOM here: Node tests run it.
 */

/** A file as the plan sees it (a DOM File, or anything with a name and a size). */
export interface NamedFile {
  readonly name: string;
  readonly size: number;
}

export type FilePlan<F extends NamedFile> =
  | { kind: 'too-big'; file: F; limit: number }
  | { kind: 'replay'; file: F }
  | { kind: 'trak'; trak: F; map: F }
  | { kind: 'world'; file: F; placements?: F }
  /** Placements alone: added to the GTA COL shown (the page refuses them when it shows none). */
  | { kind: 'placements'; file: F };

const REPLAY = /\.(rsr|replay|rply)$/i;
const TRAK = /\.trak$/i;
const MAP = /\.map$/i;
const PLACEMENTS = /\.placements\.json$/i;

/** The plan for `files` (null for none); `maxBytes` is the runtime's file limit (limits.fileBytes). */
export function planFiles<F extends NamedFile>(files: readonly F[], maxBytes: number): FilePlan<F> | null {
  if (files.length === 0) return null;
  const tooBig = files.find((f) => f.size > maxBytes);
  if (tooBig) return { kind: 'too-big', file: tooBig, limit: maxBytes };
  const replay = files.find((f) => REPLAY.test(f.name));
  if (replay) return { kind: 'replay', file: replay };
  const trak = files.find((f) => TRAK.test(f.name));
  const map = files.find((f) => MAP.test(f.name));
  if (trak && map) return { kind: 'trak', trak, map };
  const placements = files.find((f) => PLACEMENTS.test(f.name));
  if (placements && files.every((f) => PLACEMENTS.test(f.name))) return { kind: 'placements', file: placements };
  const file = files.find((x) => x !== placements) ?? files[0]!;
  return placements && placements !== file ? { kind: 'world', file, placements } : { kind: 'world', file };
}

/** The refusal of a file over the limit, one line naming the file and the limit. */
export function tooBigMessage(f: NamedFile, limit: number): string {
  return `cannot open ${f.name}: ${f.size} bytes is over the limit of ${limit} bytes (limits.fileBytes)`;
}
