/**
 * Reading a saved value: the decoded plain data of a snapshot, which may come from a file and so is hostile.
 * A `Saved` wraps one value with the path that names it ("scheduler.tasks[3].body.n"); every accessor checks
 * the type and the range before the value is used and throws a FormatError naming the path and what was
 * expected, so a restore never indexes, loops or allocates by a number it has not checked.
 */
import { FormatError } from './format-error.js';

/** The typed arrays a snapshot may hold. */
export type SavedTypedArray = Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/** The constructor of a typed array class (`Float64Array`, `Uint8Array`, ...), as `Saved.typed` takes it. */
export type TypedArrayClass<T extends SavedTypedArray> = { new (n: number): T; readonly name: string; prototype: T };

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name} of ${(v as unknown as ArrayLike<number>).length}`;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  if (typeof v === 'object') return 'an object';
  return typeof v;
}

/** True for a plain object (not an array, typed array or null). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

/** One value of a snapshot and its path; accessors check and return it or throw a FormatError. */
export class Saved {
  constructor(
    readonly value: unknown,
    /** Where the value is, e.g. "rng.ccrand.mti". */
    readonly path: string,
    /** The FormatError's format (the caller may re-wrap it with the chunk it came from). */
    readonly format = 'snapshot',
  ) {}

  /** Throws a FormatError naming this value's path. */
  fail(detail: string): never {
    throw new FormatError(this.format, -1, `${this.path}: ${detail}`);
  }

  /**
   * A child by key (for an object) or index (for an array); a missing one is `undefined`, for the caller's
   * check to name. A value that holds no children (null, a number, a string) is refused here, since reading a
   * field of null would throw a TypeError instead of naming the path.
   */
  get(key: string | number): Saved {
    const v = this.value;
    if (typeof v !== 'object' || v === null) this.fail(`expected an object or an array (to read ${typeof key === 'number' ? `[${key}]` : key}), got ${describe(v)}`);
    const child = (v as Record<string | number, unknown>)[key];
    return new Saved(child, typeof key === 'number' ? `${this.path}[${key}]` : `${this.path}.${key}`, this.format);
  }

  /** Checks that the value is a plain object with exactly `keys` (any order); returns this. */
  object(keys: readonly string[]): this {
    const v = this.value;
    if (!isPlainObject(v)) this.fail(`expected an object with ${keys.join(', ')}, got ${describe(v)}`);
    const have = Object.keys(v);
    if (have.length !== keys.length || keys.some((k) => !Object.hasOwn(v, k))) {
      const extra = have.filter((k) => !keys.includes(k)).slice(0, 4);
      const missing = keys.filter((k) => !Object.hasOwn(v, k)).slice(0, 4);
      this.fail(`expected the keys ${keys.join(', ')}${missing.length ? `; missing ${missing.join(', ')}` : ''}${extra.length ? `; unexpected ${extra.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}` : ''}`);
    }
    return this;
  }

  /** An integer in min..max (both inclusive). */
  int(min: number, max: number): number {
    const v = this.value;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) this.fail(`expected an integer in ${min}..${max}, got ${describe(v)}`);
    return v;
  }

  /** An integer in 0..2^32 − 1. */
  u32(): number {
    return this.int(0, 0xffffffff);
  }

  /** A non-negative safe integer. */
  count(max = Number.MAX_SAFE_INTEGER): number {
    return this.int(0, max);
  }

  /** A finite double. */
  finite(): number {
    const v = this.value;
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(`expected a finite number, got ${describe(v)}`);
    return v;
  }

  /** `true` or `false`. */
  bool(): boolean {
    const v = this.value;
    if (typeof v !== 'boolean') this.fail(`expected true or false, got ${describe(v)}`);
    return v;
  }

  /** A string of at most `maxLength` UTF-16 units. */
  string(maxLength: number): string {
    const v = this.value;
    if (typeof v !== 'string') this.fail(`expected a string, got ${describe(v)}`);
    if (v.length > maxLength) this.fail(`a string of ${v.length} characters is over the limit of ${maxLength}`);
    return v;
  }

  /** Checks the value equals `expected` (a number, string, boolean or null). */
  equals(expected: number | string | boolean | null, what = String(expected)): void {
    if (!Object.is(this.value, expected)) this.fail(`expected ${what}, got ${describe(this.value)}`);
  }

  /** A plain array of length in min..max; returns its elements as Saved values. */
  array(min: number, max: number): Saved[] {
    const v = this.value;
    if (!Array.isArray(v)) this.fail(`expected an array, got ${describe(v)}`);
    if (v.length < min || v.length > max) this.fail(min === max ? `expected ${min} elements, got ${v.length}` : `expected ${min}..${max} elements, got ${v.length}`);
    return v.map((_, i) => this.get(i));
  }

  /** A typed array of class `cls` and exactly `length` elements (or min..max with a pair). */
  typed<T extends SavedTypedArray>(cls: TypedArrayClass<T>, length: number | readonly [number, number]): T {
    const v = this.value;
    if (!(v instanceof cls) || Object.getPrototypeOf(v) !== cls.prototype) this.fail(`expected a ${cls.name}, got ${describe(v)}`);
    const [min, max] = typeof length === 'number' ? [length, length] : length;
    if (v.length < min || v.length > max) this.fail(min === max ? `expected a ${cls.name} of ${min} elements, got ${v.length}` : `expected a ${cls.name} of ${min}..${max} elements, got ${v.length}`);
    return v;
  }

  /** Every element of a typed array (or plain numeric array) is an integer in min..max. */
  elementsIn(values: ArrayLike<number>, min: number, max: number): void {
    for (let i = 0; i < values.length; i++) {
      const x = values[i]!;
      if (!(x >= min && x <= max) || !Number.isInteger(x)) this.get(i).fail(`expected an integer in ${min}..${max}, got ${describe(x)}`);
    }
  }

  /** Every element of a float typed array is finite. */
  elementsFinite(values: ArrayLike<number>): void {
    for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) this.get(i).fail(`expected a finite number, got ${describe(values[i])}`);
  }
}

/**
 * Runs `f`, turning any error other than a FormatError (a restore written by a scenario may throw its own)
 * into one named by `path`; a FormatError's detail gets the path in front.
 */
export function withPath<T>(path: string, f: () => T, format = 'snapshot'): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof FormatError) throw new FormatError(format, -1, `${path}: ${e.format === format ? e.detail : `${e.format}: ${e.detail}`}`);
    throw new FormatError(format, -1, `${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
