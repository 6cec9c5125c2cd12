/**
 * The Piney field spec: a small JSON file that names a generated field, recognised by its
 * `"format": "retrosim-piney-field"` key: { "format", "seed", "type", "weather", "ground", "object", "event"?,
 * "protect"? }. This module detects a spec and checks one into the generator's parameters; loadPineyWorld
 * (collision-world.ts) generates the field it names.
 */
import { FormatError } from '../../binary/format-error.js';
import type { FieldParams } from './field-state.js';
import { checkFieldParams } from './generate.js';
import { parseJsonBytes } from './json-bytes.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';

/** The value of a field spec's `"format"` key. */
export const PINEY_FIELD_FORMAT = 'retrosim-piney-field';
/** The format name a FormatError about a spec carries. */
const FORMAT = 'piney field spec';
/** A spec larger than this is not a spec. */
const MAX_SPEC_BYTES = DEFAULT_LIMITS.piney.specBytes;

/** A field spec as JSON holds it; parsePineyFieldSpec checks one into generator parameters. */
export interface PineyFieldSpec {
  format: typeof PINEY_FIELD_FORMAT;
  /** fieldSeed, 0..2^32 − 1. */
  seed: number;
  /** Field type 0..10. */
  type: number;
  /** Weather (background row) 0..9. */
  weather: number;
  /** Ground 0..2 (how many hills). */
  ground: number;
  /** Object 0..2 (how many objects). */
  object: number;
  /** Story area number 0..65535; 0 (the default) draws one. */
  event?: number;
  /** The story area's protect flag, default false. */
  protect?: boolean;
}

function decodeJson(bytes: Uint8Array, maxBytes = MAX_SPEC_BYTES): unknown {
  return parseJsonBytes(bytes, FORMAT, maxBytes, 'limits.piney.specBytes');
}

/** Whether bytes are a Piney field spec (JSON with "format": "retrosim-piney-field"). Never throws. */
export function detectPineyField(bytes: Uint8Array): boolean {
  if (bytes.length > MAX_SPEC_BYTES) return false;
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  if (bytes[i] !== 0x7b) return false; // "{"
  try {
    const v = decodeJson(bytes) as Record<string, unknown> | null;
    return typeof v === 'object' && v !== null && v.format === PINEY_FIELD_FORMAT;
  } catch {
    return false;
  }
}

/**
 * Validates a spec (its bytes, or a parsed object) into generator parameters. Throws a FormatError (format
 * "piney field spec") naming the key that is missing or out of range, or saying the bytes are over
 * `limits.piney.specBytes`, not UTF-8 or not JSON.
 *
 * @example
 * ```ts
 * const params = parsePineyFieldSpec({ format: 'retrosim-piney-field', seed: 1420855, type: 10, weather: 0, ground: 1, object: 1, event: 14 });
 * const field = generateField(params, tables);
 * ```
 */
export function parsePineyFieldSpec(spec: Uint8Array | PineyFieldSpec | Record<string, unknown>, limits: Readonly<Limits> = DEFAULT_LIMITS): FieldParams {
  const v = spec instanceof Uint8Array ? decodeJson(spec, limits.piney.specBytes) : spec;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new FormatError(FORMAT, -1, 'must be a JSON object');
  const o = v as Record<string, unknown>;
  if (o.format !== PINEY_FIELD_FORMAT) throw new FormatError(FORMAT, -1, `"format" must be "${PINEY_FIELD_FORMAT}"`);
  const int = (k: string, min: number, max: number, def?: number): number => {
    const x = o[k] ?? def;
    if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) throw new FormatError(FORMAT, -1, `"${k}" must be an integer ${min}..${max}`);
    return x;
  };
  if (o.protect !== undefined && typeof o.protect !== 'boolean') throw new FormatError(FORMAT, -1, '"protect" must be true or false');
  const params: FieldParams = {
    seed: int('seed', 0, 0xffffffff),
    fieldType: int('type', 0, 10),
    weather: int('weather', 0, 9),
    ground: int('ground', 0, 2),
    object: int('object', 0, 2),
    event: int('event', 0, 0xffff, 0),
    protect: o.protect === true,
  };
  checkFieldParams(params);
  return params;
}
