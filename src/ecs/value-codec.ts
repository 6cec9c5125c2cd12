/**
 * A small tagged binary encoding for plain data (what snapshots and task saves are made of): null, undefined,
 * booleans, doubles, strings, arrays, objects with string keys, and typed arrays. Little-endian, so the bytes
 * are the same on every host; decoding goes through BinaryReader, so bad bytes give a FormatError naming the
 * offset, and no count is trusted before it is checked against the bytes left.
 *
 * Decoding is bounded in heap, not only in buffers: a decode may create at most a budget of values (every
 * scalar, string, typed array, array and object, array elements and object entries included) and of
 * composite values (arrays and objects), each the smaller of an absolute limit (`limits.replay.snapshotValues`,
 * `limits.replay.snapshotObjects`) and a bound relative to the input's size (`decodeBudget`). A count is
 * checked against the budget before anything is allocated for it, so 64 MiB of empty objects or of nulls
 * is refused after reading its first count, not after building millions of JavaScript objects. Typed arrays
 * and strings take at most their own bytes again (a string twice, as UTF-16).
 *
 * Layout: one tag byte, then
 *   NULL, UNDEFINED, FALSE, TRUE: nothing      NUMBER: f64
 *   STRING: u32 byte length + UTF-8            ARRAY: u32 count + values
 *   OBJECT: u32 count + (string key, value)*   typed arrays: u32 element count + elements (LE)
 */
import { BinaryReader } from '../binary/reader.js';
import { BinaryWriter } from '../binary/writer.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { floatBits } from '../binary/float-bits.js';

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
  if (v instanceof Float32Array) {
    const bits = floatBits(v); // as their bits: a NaN's payload survives (see float-bits.ts)
    return put(Tag.Float32, v.length, (i) => w.u32(bits[i]!));
  }
  if (v instanceof Float64Array) return put(Tag.Float64, v.length, (i) => w.f64(v[i]!));
  throw new TypeError(`cannot encode a ${v.constructor.name}`);
}

export function encodeValueBytes(v: unknown): Uint8Array {
  return encodeValue(v).finish();
}

/** How many values a decode may create, and how many of them may be arrays or objects. */
export interface DecodeBudget {
  values: number;
  composites: number;
}

/** What a decode created: counted as it goes, so a test (or a caller) can see the cost of a snapshot. */
export interface DecodeStats {
  /** Every value: scalars, strings, typed arrays, arrays, objects (array elements and object entries each count). */
  values: number;
  /** Arrays and objects. */
  composites: number;
  /** UTF-8 bytes of the strings created, keys included. */
  stringBytes: number;
  /** Bytes of the typed arrays created. */
  typedBytes: number;
}

/** Values per input byte a decode may create (beyond a fixed allowance): a real snapshot has about 1 per 40. */
export const VALUES_PER_BYTE = 1 / 4;
/** Arrays and objects per input byte (beyond a fixed allowance): a real snapshot has about 1 per 100 or fewer. */
export const COMPOSITES_PER_BYTE = 1 / 32;

/**
 * The budget of a decode of `byteLength` bytes: the absolute limits, or a bound relative to the input
 * (4,096 values plus one per 4 bytes; 256 arrays and objects plus one per 32 bytes), whichever is smaller.
 */
export function decodeBudget(byteLength: number, limits: Readonly<Limits> = DEFAULT_LIMITS): DecodeBudget {
  return {
    values: Math.min(limits.replay.snapshotValues, 4096 + Math.floor(byteLength * VALUES_PER_BYTE)),
    composites: Math.min(limits.replay.snapshotObjects, 256 + Math.floor(byteLength * COMPOSITES_PER_BYTE)),
  };
}

/** A decode in progress: the budget left and what was created. */
class Decoding {
  readonly stats: DecodeStats = { values: 0, composites: 0, stringBytes: 0, typedBytes: 0 };
  constructor(
    readonly r: BinaryReader,
    readonly budget: DecodeBudget,
  ) {}

  /** Counts `n` more values (and `composites` arrays or objects) before they are made. */
  take(n: number, composites: number, at: number): void {
    const s = this.stats;
    if (s.values + n > this.budget.values || s.composites + composites > this.budget.composites) this.refuse(n, composites, at);
    s.values += n;
    s.composites += composites;
  }

  private refuse(n: number, composites: number, at: number): never {
    const s = this.stats;
    if (s.values + n > this.budget.values) {
      this.r.fail(`the value holds more than ${this.budget.values} values (the budget of a ${this.r.length}-byte value: limits.replay.snapshotValues or 4096 + 1 per 4 bytes)`, at);
    }
    return this.r.fail(`the value holds more than ${this.budget.composites} arrays and objects (the budget of a ${this.r.length}-byte value: limits.replay.snapshotObjects or 256 + 1 per 32 bytes)`, at);
  }
}

/**
 * Decodes one value at the reader's cursor, within `budget` (default: the budget of the reader's bytes);
 * `stats`, when given, receives what was created.
 */
export function decodeValue(r: BinaryReader, budget: DecodeBudget = decodeBudget(r.length), stats?: DecodeStats): PlainValue {
  const d = new Decoding(r, budget);
  d.take(1, 0, r.pos);
  try {
    return decodeOne(d, 0);
  } finally {
    if (stats) Object.assign(stats, d.stats);
  }
}

function decodeOne(d: Decoding, depth: number): PlainValue {
  const r = d.r;
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
      return readString(d);
    case Tag.Array: {
      const cAt = r.pos;
      const n = r.checkCount(r.u32('array count'), 1, 'array');
      d.take(n, 1, cAt);
      const out: PlainValue[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = decodeOne(d, depth + 1);
      return out;
    }
    case Tag.Object: {
      const cAt = r.pos;
      const n = r.checkCount(r.u32('object key count'), 5, 'object');
      d.take(n, 1, cAt);
      const out: Record<string, PlainValue> = {};
      for (let i = 0; i < n; i++) {
        const k = readString(d);
        if (k === '__proto__') r.fail('object key __proto__ is not allowed');
        out[k] = decodeOne(d, depth + 1);
      }
      return out;
    }
    case Tag.Uint8: {
      const b = r.bytesCopy(r.checkCount(r.u32('count'), 1, 'Uint8Array'), 'Uint8Array');
      d.stats.typedBytes += b.length;
      return b;
    }
    case Tag.Int8: {
      const b = r.bytesCopy(r.checkCount(r.u32('count'), 1, 'Int8Array'), 'Int8Array');
      d.stats.typedBytes += b.length;
      return new Int8Array(b.buffer, b.byteOffset, b.length);
    }
    case Tag.Uint16:
      return readTyped(d, 2, 'Uint16Array', (n) => new Uint16Array(n), () => r.u16());
    case Tag.Int16:
      return readTyped(d, 2, 'Int16Array', (n) => new Int16Array(n), () => r.i16());
    case Tag.Uint32:
      return readTyped(d, 4, 'Uint32Array', (n) => new Uint32Array(n), () => r.u32());
    case Tag.Int32:
      return readTyped(d, 4, 'Int32Array', (n) => new Int32Array(n), () => r.i32());
    case Tag.Float32:
      // Read as bits into the array's words, so the state restored is the bits saved (see float-bits.ts).
      return new Float32Array(readTyped(d, 4, 'Float32Array', (n) => new Uint32Array(n), () => r.u32()).buffer);
    case Tag.Float64:
      return readTyped(d, 8, 'Float64Array', (n) => new Float64Array(n), () => r.f64());
    default:
      return r.fail(`unknown value tag ${tag}`, at);
  }
}

function readString(d: Decoding): string {
  const r = d.r;
  const n = r.checkCount(r.u32('string length'), 1, 'string');
  const at = r.pos;
  const b = r.bytesView(n, 'string');
  d.stats.stringBytes += n;
  try {
    return utf8Decoder.decode(b);
  } catch {
    return r.fail('string is not valid UTF-8', at);
  }
}

function readTyped<T extends { [i: number]: number }>(d: Decoding, size: number, what: string, make: (n: number) => T, read: () => number): T {
  const r = d.r;
  const n = r.checkCount(r.u32(`${what} count`), size, what);
  d.stats.typedBytes += n * size;
  const out = make(n);
  for (let i = 0; i < n; i++) out[i] = read();
  return out;
}

/** Options of `decodeValueBytes`. */
export interface DecodeOptions {
  /** The limits whose `replay.snapshotValues` and `replay.snapshotObjects` bound the decode (default DEFAULT_LIMITS). */
  limits?: Readonly<Limits>;
  /** Receives what the decode created (also when it fails). */
  stats?: DecodeStats;
}

/** Decodes bytes that must hold exactly one value, within the budget of their size (`decodeBudget`). */
export function decodeValueBytes(bytes: Uint8Array, format: string, options: DecodeOptions = {}): PlainValue {
  const r = new BinaryReader(bytes, format);
  const v = decodeValue(r, decodeBudget(bytes.length, options.limits), options.stats);
  r.expectEnd('after the value');
  return v;
}
