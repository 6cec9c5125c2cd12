/**
 * A small tagged binary encoding for plain data (what snapshots and task saves are made of): null, undefined,
 * booleans, doubles, strings, arrays, objects with string keys, and typed arrays. Little-endian, so the bytes
 * are the same on every host; decoding goes through BinaryReader, so bad bytes give a FormatError naming the
 * offset, and no count is trusted before it is checked against the bytes left.
 *
 * Layout: one tag byte, then
 *   NULL, UNDEFINED, FALSE, TRUE: nothing      NUMBER: f64
 *   STRING: u32 byte length + UTF-8            ARRAY: u32 count + values
 *   OBJECT: u32 count + (string key, value)*   typed arrays: u32 element count + elements (LE)
 */
import { BinaryReader } from '../binary/reader.js';
import { BinaryWriter } from '../binary/writer.js';

const enum Tag {
  Null = 0,
  Undefined = 1,
  False = 2,
  True = 3,
  Number = 4,
  String = 5,
  Array = 6,
  Object = 7,
  Uint8 = 8,
  Int8 = 9,
  Uint16 = 10,
  Int16 = 11,
  Uint32 = 12,
  Int32 = 13,
  Float32 = 14,
  Float64 = 15,
}

/** Nesting deeper than this is refused on both sides (a hostile file cannot exhaust the stack). */
export const MAX_VALUE_DEPTH = 64;

export type PlainValue =
  | null
  | undefined
  | boolean
  | number
  | string
  | PlainValue[]
  | { [key: string]: PlainValue }
  | Uint8Array
  | Int8Array
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | Float32Array
  | Float64Array;

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

export function encodeValue(v: unknown, w: BinaryWriter = new BinaryWriter(), depth = 0): BinaryWriter {
  if (depth > MAX_VALUE_DEPTH) throw new RangeError(`value nesting deeper than ${MAX_VALUE_DEPTH}`);
  if (v === null) return w.u8(Tag.Null);
  if (v === undefined) return w.u8(Tag.Undefined);
  if (typeof v === 'boolean') return w.u8(v ? Tag.True : Tag.False);
  if (typeof v === 'number') return w.u8(Tag.Number).f64(v);
  if (typeof v === 'string') {
    const b = utf8.encode(v);
    return w.u8(Tag.String).u32(b.length).bytes(b);
  }
  if (ArrayBuffer.isView(v)) return encodeTyped(v, w);
  if (Array.isArray(v)) {
    w.u8(Tag.Array).u32(v.length);
    for (const x of v) encodeValue(x, w, depth + 1);
    return w;
  }
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) throw new TypeError(`cannot encode a ${proto?.constructor?.name ?? 'non-plain'} object`);
    const keys = Object.keys(v);
    w.u8(Tag.Object).u32(keys.length);
    for (const k of keys) {
      const b = utf8.encode(k);
      w.u32(b.length).bytes(b);
      encodeValue((v as Record<string, unknown>)[k], w, depth + 1);
    }
    return w;
  }
  throw new TypeError(`cannot encode a ${typeof v}`);
}

function encodeTyped(v: ArrayBufferView, w: BinaryWriter): BinaryWriter {
  if (v instanceof Uint8Array) return w.u8(Tag.Uint8).u32(v.length).bytes(v);
  if (v instanceof Int8Array) return w.u8(Tag.Int8).u32(v.length).bytes(new Uint8Array(v.buffer, v.byteOffset, v.length));
  const put = (tag: Tag, n: number, f: (i: number) => void): BinaryWriter => {
    w.u8(tag).u32(n);
    for (let i = 0; i < n; i++) f(i);
    return w;
  };
  if (v instanceof Uint16Array) return put(Tag.Uint16, v.length, (i) => w.u16(v[i]!));
  if (v instanceof Int16Array) return put(Tag.Int16, v.length, (i) => w.i16(v[i]!));
  if (v instanceof Uint32Array) return put(Tag.Uint32, v.length, (i) => w.u32(v[i]!));
  if (v instanceof Int32Array) return put(Tag.Int32, v.length, (i) => w.i32(v[i]!));
  if (v instanceof Float32Array) return put(Tag.Float32, v.length, (i) => w.f32(v[i]!));
  if (v instanceof Float64Array) return put(Tag.Float64, v.length, (i) => w.f64(v[i]!));
  throw new TypeError(`cannot encode a ${v.constructor.name}`);
}

export function encodeValueBytes(v: unknown): Uint8Array {
  return encodeValue(v).finish();
}

/** Decodes one value at the reader's cursor. */
export function decodeValue(r: BinaryReader, depth = 0): PlainValue {
  if (depth > MAX_VALUE_DEPTH) r.fail(`value nesting deeper than ${MAX_VALUE_DEPTH}`);
  const at = r.pos;
  const tag = r.u8('value tag');
  switch (tag) {
    case Tag.Null:
      return null;
    case Tag.Undefined:
      return undefined;
    case Tag.False:
      return false;
    case Tag.True:
      return true;
    case Tag.Number:
      return r.f64('number');
    case Tag.String:
      return readString(r);
    case Tag.Array: {
      const n = r.checkCount(r.u32('array count'), 1, 'array');
      const out: PlainValue[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = decodeValue(r, depth + 1);
      return out;
    }
    case Tag.Object: {
      const n = r.checkCount(r.u32('object key count'), 5, 'object');
      const out: Record<string, PlainValue> = {};
      for (let i = 0; i < n; i++) {
        const k = readString(r);
        if (k === '__proto__') r.fail('object key __proto__ is not allowed');
        out[k] = decodeValue(r, depth + 1);
      }
      return out;
    }
    case Tag.Uint8:
      return r.bytesCopy(r.checkCount(r.u32('count'), 1, 'Uint8Array'), 'Uint8Array');
    case Tag.Int8: {
      const b = r.bytesCopy(r.checkCount(r.u32('count'), 1, 'Int8Array'), 'Int8Array');
      return new Int8Array(b.buffer, b.byteOffset, b.length);
    }
    case Tag.Uint16:
      return readTyped(r, 2, 'Uint16Array', (n) => new Uint16Array(n), () => r.u16());
    case Tag.Int16:
      return readTyped(r, 2, 'Int16Array', (n) => new Int16Array(n), () => r.i16());
    case Tag.Uint32:
      return readTyped(r, 4, 'Uint32Array', (n) => new Uint32Array(n), () => r.u32());
    case Tag.Int32:
      return readTyped(r, 4, 'Int32Array', (n) => new Int32Array(n), () => r.i32());
    case Tag.Float32:
      return readTyped(r, 4, 'Float32Array', (n) => new Float32Array(n), () => r.f32());
    case Tag.Float64:
      return readTyped(r, 8, 'Float64Array', (n) => new Float64Array(n), () => r.f64());
    default:
      return r.fail(`unknown value tag ${tag}`, at);
  }
}

function readString(r: BinaryReader): string {
  const n = r.checkCount(r.u32('string length'), 1, 'string');
  const at = r.pos;
  const b = r.bytesView(n, 'string');
  try {
    return utf8Decoder.decode(b);
  } catch {
    return r.fail('string is not valid UTF-8', at);
  }
}

function readTyped<T extends { [i: number]: number }>(r: BinaryReader, size: number, what: string, make: (n: number) => T, read: () => number): T {
  const n = r.checkCount(r.u32(`${what} count`), size, what);
  const out = make(n);
  for (let i = 0; i < n; i++) out[i] = read();
  return out;
}

/** Decodes bytes that must hold exactly one value. */
export function decodeValueBytes(bytes: Uint8Array, format: string): PlainValue {
  const r = new BinaryReader(bytes, format);
  const v = decodeValue(r);
  r.expectEnd('after the value');
  return v;
}
