/**
 * Structure-aware mutation for the JSON formats (the Piney field spec and tables, GTA placements). Byte
 * mutations of JSON mostly break its syntax, which tests only the first check; these keep the document valid
 * JSON and change one value in its tree instead: a hostile number, a value of the wrong type, a missing key,
 * a longer or shorter array, deep nesting. Seeded like the byte mutations, so a case is reproducible.
 */
import type { FuzzRng } from './mutate.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export const JSON_MUTATIONS = ['json-value', 'json-type', 'json-delete', 'json-array-length', 'json-nest'] as const;
export type JsonMutationKind = (typeof JSON_MUTATIONS)[number];

/** Numbers that stress range checks (NaN and infinities are not JSON: 1e999 parses as Infinity). */
const HOSTILE_NUMBERS = [0, -0, 1, -1, 0.5, -0.5, 255, 256, 65535, 65536, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 32, 2 ** 53, -(2 ** 53), 1e308, -1e308, 5e-324];
/** Written raw into the text: values JSON.stringify cannot produce. */
const RAW_NUMBERS = ['1e999', '-1e999', '1e-999', '123456789012345678901234567890'];

interface Slot {
  parent: Json[] | { [k: string]: Json } | null;
  key: string | number | null;
  value: Json;
}

function slots(v: Json, out: Slot[], parent: Slot['parent'] = null, key: Slot['key'] = null): Slot[] {
  out.push({ parent, key, value: v });
  if (Array.isArray(v)) v.forEach((x, i) => slots(x, out, v, i));
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) slots(v[k]!, out, v, k);
  return out;
}

function set(s: Slot, value: Json): void {
  if (s.parent === null) return;
  if (Array.isArray(s.parent)) s.parent[s.key as number] = value;
  else s.parent[s.key as string] = value;
}

/** Marker for a raw number to splice into the text after stringifying. */
const RAW = '\u0000raw:';

/**
 * One structure-aware mutation of a JSON file, or null when `base` is not JSON (the caller falls back to a
 * byte mutation).
 */
export function mutateJson(base: Uint8Array, rng: FuzzRng): { bytes: Uint8Array; kind: JsonMutationKind } | null {
  let doc: Json;
  try {
    doc = JSON.parse(new TextDecoder().decode(base)) as Json;
  } catch {
    return null;
  }
  const root: { [k: string]: Json } = { root: doc };
  const all = slots(doc, [], root, 'root');
  const kind = rng.pick(JSON_MUTATIONS);
  const s = all[rng.int(all.length)]!;
  switch (kind) {
    case 'json-value':
      if (rng.int(4) === 0) set(s, RAW + rng.pick(RAW_NUMBERS));
      else if (typeof s.value === 'number' && rng.int(2)) set(s, s.value + (rng.int(2) ? 1 : -1) * (1 + rng.int(3)));
      else set(s, rng.pick(HOSTILE_NUMBERS));
      break;
    case 'json-type': {
      const choices: Json[] = [null, true, false, '', 'x', '0', [], {}, [0], { a: 0 }, 'ÿ\u0000\ud800'];
      set(s, rng.pick(choices));
      break;
    }
    case 'json-delete':
      if (s.parent && Array.isArray(s.parent)) s.parent.splice(s.key as number, 1);
      else if (s.parent && s.key !== 'root') delete (s.parent as { [k: string]: Json })[s.key as string];
      break;
    case 'json-array-length': {
      // Grow or shrink the nearest array (itself, or the one holding it).
      const arr = Array.isArray(s.value) ? s.value : Array.isArray(s.parent) ? s.parent : null;
      if (arr) {
        if (rng.int(2) && arr.length > 0) arr.length = rng.int(arr.length);
        else {
          const extra = 1 + rng.int(rng.int(8) === 0 ? 5000 : 8);
          const fill = arr.length ? arr[rng.int(arr.length)]! : 0;
          for (let i = 0; i < extra; i++) arr.push(JSON.parse(JSON.stringify(fill)) as Json);
        }
      }
      break;
    }
    case 'json-nest': {
      let v: Json = s.value;
      const depth = 1 + rng.int(rng.int(4) === 0 ? 2000 : 4);
      for (let i = 0; i < depth; i++) v = rng.int(2) ? [v] : { v };
      set(s, v);
      break;
    }
  }
  let text = JSON.stringify(root.root);
  if (text === undefined) text = 'null';
  text = text.replace(/"\\u0000raw:([^"]*)"/g, '$1');
  return { bytes: new TextEncoder().encode(text), kind };
}
