/**
 * GTA placements as JSON: an array of {model, position: [x, y, z], rotation?: [x, y, z, w]}, or an object with
 * such an array under "placements" (the shape of an IPL's instances).
 *
 * The text is bounded before it is parsed, so that a hostile file cannot make JSON.parse take minutes and
 * gigabytes: first its length, against the count limit times the largest sensible entry
 * (`gtaPlacementsByteLimit`); then the number of JSON values it can hold, counted by one pass over the text
 * that allocates nothing, against the count limit times the values a generous entry has. Only then is it
 * parsed, and every entry is checked.
 */
import { FormatError } from '../../binary/format-error.js';
import { checkJsonDepth, jsonValuesOver } from '../../binary/json-depth.js';
import { checkLimit, DEFAULT_LIMITS, type Limits } from '../../limits.js';
import type { Vec3 } from '../world.js';
import type { GtaPlacement } from './query.js';

const FORMAT = 'gta placements';

/**
 * Bytes allowed per placement: a pretty-printed entry (two-space indentation, one number a line) with a
 * 21-character model name and seven numbers at full precision is about 250 bytes; real ones are under 200.
 */
export const GTA_PLACEMENT_ENTRY_BYTES = 256;

/**
 * JSON values allowed per placement (containers, keys, strings and numbers: an entry with a rotation has
 * 14), leaving room for a few extra fields an IPL converter may carry.
 */
export const GTA_PLACEMENT_ENTRY_VALUES = 24;

/** The largest placements text accepted, in bytes: limits.gta.placements × GTA_PLACEMENT_ENTRY_BYTES. */
export function gtaPlacementsByteLimit(limits: Readonly<Limits> = DEFAULT_LIMITS): number {
  return limits.gta.placements * GTA_PLACEMENT_ENTRY_BYTES;
}

/**
 * Throws a FormatError when a placements file of `length` bytes is over gtaPlacementsByteLimit, naming the
 * file (when given) and the limit. Call it with the file's size before reading it.
 */
export function checkGtaPlacementsSize(length: number, limits: Readonly<Limits> = DEFAULT_LIMITS, file?: string): void {
  const max = gtaPlacementsByteLimit(limits);
  if (length <= max) return;
  const e = new FormatError(
    FORMAT,
    -1,
    `${file ?? 'the placements text'} is ${length} bytes, over the limit of ${max} bytes ` +
      `(limits.gta.placements = ${limits.gta.placements} placements × ${GTA_PLACEMENT_ENTRY_BYTES} bytes each)`,
  );
  if (file !== undefined) e.file = file;
  throw e;
}

/**
 * Reads placements from JSON text. Anything else than the shape above is a FormatError naming the entry; a
 * text over the byte bound or the value bound is refused before it is parsed.
 */
export function parseGtaPlacements(text: string, limits: Readonly<Limits> = DEFAULT_LIMITS): GtaPlacement[] {
  checkGtaPlacementsSize(text.length, limits);
  const maxValues = limits.gta.placements * GTA_PLACEMENT_ENTRY_VALUES + 2;
  const at = jsonValuesOver(text, maxValues);
  if (at >= 0) {
    throw new FormatError(
      FORMAT,
      at,
      `more than ${maxValues} JSON values, more than ${limits.gta.placements} placements can hold ` +
        `(limits.gta.placements × ${GTA_PLACEMENT_ENTRY_VALUES} values each)`,
    );
  }
  checkJsonDepth(text, limits.jsonDepth, FORMAT);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new FormatError(FORMAT, -1, `not JSON: ${(e as Error).message}`);
  }
  const list = Array.isArray(v) ? v : (v as { placements?: unknown } | null)?.placements;
  if (!Array.isArray(list)) throw new FormatError(FORMAT, -1, 'expected an array of placements');
  checkLimit(FORMAT, -1, 'placements', list.length, limits.gta.placements, 'gta.placements');
  const num = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x);
  return list.map((p: unknown, i: number) => {
    const o = p as Record<string, unknown> | null;
    if (!o || typeof o !== 'object') throw new FormatError(FORMAT, -1, `placement ${i} is not an object`);
    if (typeof o.model !== 'string' && !(typeof o.model === 'number' && Number.isInteger(o.model))) {
      throw new FormatError(FORMAT, -1, `placement ${i}: model must be a name or an index`);
    }
    const pos = o.position;
    if (!Array.isArray(pos) || pos.length !== 3 || !pos.every(num)) throw new FormatError(FORMAT, -1, `placement ${i}: position must be 3 numbers`);
    const rot = o.rotation;
    if (rot !== undefined && (!Array.isArray(rot) || rot.length !== 4 || !rot.every(num))) {
      throw new FormatError(FORMAT, -1, `placement ${i}: rotation must be a quaternion of 4 numbers`);
    }
    const out: GtaPlacement = { model: o.model as string | number, position: [pos[0], pos[1], pos[2]] as Vec3 };
    if (rot) out.rotation = [rot[0], rot[1], rot[2], rot[3]] as [number, number, number, number];
    return out;
  });
}
