/**
 * Reading a Piney field spec into its values and writing one back: the canonical form (the keys in the order
 * below, two-space indent, a final newline: the shape of the shipped spec), or the original text with only
 * the changed values replaced (its key order, spacing and unknown keys kept).
 */
import { FormatError } from '../../binary/format-error.js';
import { parseJsonBytes } from './json-bytes.js';
import { parsePineyFieldSpec, PINEY_FIELD_FORMAT, type PineyFieldSpec } from './spec.js';
import { DEFAULT_LIMITS, type Limits } from '../../limits.js';

const FORMAT = 'piney field spec';

/** The keys a spec holds, in the canonical order. */
export const PINEY_SPEC_KEYS = ['format', 'name', 'seed', 'type', 'weather', 'ground', 'object', 'event', 'protect'] as const;

/** A field spec's values as read: the checked parameters' keys, plus the optional name; optional keys only when present. */
export interface PineyFieldSpecValues extends PineyFieldSpec {
  /** A human-readable name (not used by the generator). */
  name?: string;
}

/**
 * Reads a spec's bytes into its values, checked as parsePineyFieldSpec checks them; `name`, `event` and
 * `protect` are kept only when the file has them. Keys the spec does not know are not part of the values.
 * Throws FormatError.
 */
export function readPineyFieldSpec(bytes: Uint8Array, limits: Readonly<Limits> = DEFAULT_LIMITS): PineyFieldSpecValues {
  const v = parseJsonBytes(bytes, FORMAT, limits.piney.specBytes, 'limits.piney.specBytes');
  parsePineyFieldSpec(v as Record<string, unknown>, limits);
  const o = v as Record<string, unknown>;
  if (o.name !== undefined && typeof o.name !== 'string') throw new FormatError(FORMAT, -1, '"name" must be a string');
  const out: PineyFieldSpecValues = {
    format: PINEY_FIELD_FORMAT,
    seed: o.seed as number,
    type: o.type as number,
    weather: o.weather as number,
    ground: o.ground as number,
    object: o.object as number,
  };
  if (o.name !== undefined) out.name = o.name as string;
  if (o.event !== undefined) out.event = o.event as number;
  if (o.protect !== undefined) out.protect = o.protect as boolean;
  return out;
}

function checked(spec: PineyFieldSpecValues): void {
  parsePineyFieldSpec(spec as unknown as Record<string, unknown>);
  if (spec.name !== undefined && typeof spec.name !== 'string') throw new FormatError(FORMAT, -1, '"name" must be a string');
}

/**
 * The canonical bytes of a spec: a JSON object with the keys in PINEY_SPEC_KEYS order (optional ones only
 * when present), two-space indent, a final newline. Throws FormatError for values the spec cannot hold.
 */
export function writePineyFieldSpec(spec: PineyFieldSpecValues): Uint8Array {
  checked(spec);
  const o: Record<string, unknown> = {};
  for (const k of PINEY_SPEC_KEYS) if ((spec as unknown as Record<string, unknown>)[k] !== undefined) o[k] = (spec as unknown as Record<string, unknown>)[k];
  return new TextEncoder().encode(JSON.stringify(o, null, 2) + '\n');
}

/** Where each top-level key's value lies in a JSON object's text (UTF-16 indices), in text order. */
interface KeySpan {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

/** The top-level keys of a JSON object text and their value spans. The text must be valid JSON (it was parsed). */
function topLevelSpans(text: string): { spans: KeySpan[]; close: number } {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  const str = (): void => {
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '"') return str();
    if (c === '{' || c === '[') {
      let depth = 0;
      while (i < text.length) {
        const d = text[i]!;
        if (d === '"') {
          str();
          continue;
        }
        if (d === '{' || d === '[') depth++;
        else if (d === '}' || d === ']') {
          depth--;
          if (depth === 0) {
            i++;
            return;
          }
        }
        i++;
      }
      return;
    }
    while (i < text.length && !/[,}\]\s]/.test(text[i]!)) i++;
  };
  ws();
  if (text[i] !== '{') throw new FormatError(FORMAT, -1, 'must be a JSON object');
  i++;
  const spans: KeySpan[] = [];
  for (;;) {
    ws();
    if (text[i] === '}') return { spans, close: i };
    const keyStart = i;
    str();
    const key = JSON.parse(text.slice(keyStart, i)) as string;
    ws();
    i++; // ':'
    ws();
    const valueStart = i;
    value();
    spans.push({ key, keyStart, valueStart, valueEnd: i });
    ws();
    if (text[i] === ',') i++;
  }
}

/**
 * A spec written into its original text: each value that changed replaced in place, keys the original lacks
 * added before its closing brace, keys the values lack (unknown ones included) kept as they are. For the values
 * `readPineyFieldSpec(original)` returned, unchanged, this is the original's bytes. Throws FormatError.
 */
export function writePineyFieldSpecKeepingLayout(spec: PineyFieldSpecValues, original: Uint8Array): Uint8Array {
  checked(spec);
  const text = new TextDecoder('utf-8', { fatal: true }).decode(original);
  const old = JSON.parse(text) as Record<string, unknown>;
  const { spans, close } = topLevelSpans(text);
  const values = spec as unknown as Record<string, unknown>;
  let out = '';
  let at = 0;
  for (const s of spans) {
    const want = values[s.key];
    if (want === undefined || !(PINEY_SPEC_KEYS as readonly string[]).includes(s.key) || JSON.stringify(old[s.key]) === JSON.stringify(want)) continue;
    out += text.slice(at, s.valueStart) + JSON.stringify(want);
    at = s.valueEnd;
  }
  const missing = PINEY_SPEC_KEYS.filter((k) => values[k] !== undefined && !Object.hasOwn(old, k));
  out += text.slice(at, close);
  if (missing.length > 0) {
    const body = out.trimEnd();
    const sep = spans.length > 0 ? ',' : '';
    out = body + sep + missing.map((k) => `\n  ${JSON.stringify(k)}: ${JSON.stringify(values[k])}`).join(',') + '\n';
  }
  out += text.slice(close);
  return new TextEncoder().encode(out);
}

/** Why the canonical spec differs from a spec file: unknown keys, key order, formatting; offsets in bytes. */
export function pineySpecDifferences(original: Uint8Array): { offset: number; reason: string }[] {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(original);
  const canon = new TextDecoder().decode(writePineyFieldSpec(readPineyFieldSpec(original)));
  if (canon === text) return [];
  const { spans } = topLevelSpans(text);
  const byteAt = (i: number): number => new TextEncoder().encode(text.slice(0, i)).length;
  const out: { offset: number; reason: string }[] = [];
  const known = PINEY_SPEC_KEYS as readonly string[];
  for (const s of spans) if (!known.includes(s.key)) out.push({ offset: byteAt(s.keyStart), reason: `key ${JSON.stringify(s.key)} is not part of a field spec; the canonical writer leaves it out` });
  const order = spans.filter((s) => known.includes(s.key));
  for (let k = 1; k < order.length; k++) {
    if (known.indexOf(order[k]!.key) < known.indexOf(order[k - 1]!.key)) {
      out.push({ offset: byteAt(order[k]!.keyStart), reason: `key ${JSON.stringify(order[k]!.key)} comes after ${JSON.stringify(order[k - 1]!.key)}; the canonical order is ${known.join(', ')}` });
      break;
    }
  }
  if (out.length === 0) {
    let k = 0;
    while (k < canon.length && k < text.length && canon[k] === text[k]) k++;
    out.push({ offset: byteAt(k), reason: 'spacing or number spelling differs from the canonical form (two-space indent, one key per line, a final newline)' });
  }
  return out;
}
