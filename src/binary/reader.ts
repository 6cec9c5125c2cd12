import { FormatError } from './format-error.js';

/**
 * A little-endian, bounds-checked cursor over bytes. Every read checks the bytes left first and throws a
 * FormatError naming the offset, so a parser can never read out of bounds. Counts are checked against the
 * bytes left (`checkCount`) before anything is allocated for them.
 */
export class BinaryReader {
  readonly view: DataView;
  readonly bytes: Uint8Array;
  /** Current absolute offset into `bytes`. */
  pos = 0;

  constructor(
    data: Uint8Array | ArrayBuffer,
    /** Format name used in error messages. */
    readonly format: string,
  ) {
    // A plain Uint8Array view of the same memory: a subclass (Node's Buffer) would make every view taken from
    // it (a keyframe's bytes, a decoded byte array) a Buffer too, which checks of a plain Uint8Array refuse.
    this.bytes = data instanceof Uint8Array ? (Object.getPrototypeOf(data) === Uint8Array.prototype ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength)) : new Uint8Array(data);
    this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }

  get length(): number {
    return this.bytes.byteLength;
  }
  get remaining(): number {
    return this.bytes.byteLength - this.pos;
  }

  fail(detail: string, offset = this.pos): never {
    throw new FormatError(this.format, offset, detail);
  }

  /** Throws unless `n` bytes can be read at `at` (default: the cursor). */
  need(n: number, what: string, at = this.pos): void {
    if (!Number.isInteger(n) || n < 0) this.fail(`${what}: invalid size ${n}`, at);
    if (at < 0 || at > this.bytes.byteLength || n > this.bytes.byteLength - at) {
      this.fail(`${what}: needs ${n} bytes but only ${Math.max(0, this.bytes.byteLength - at)} remain`, at);
    }
  }

  /**
   * Checks a count read from the file against the bytes left: `count` elements of at least `elementSize`
   * bytes must fit, and `count` must not exceed `max`. Call before allocating anything for the elements.
   */
  checkCount(count: number, elementSize: number, what: string, max = Number.MAX_SAFE_INTEGER, at = this.pos): number {
    if (!Number.isInteger(count) || count < 0) this.fail(`${what}: count ${count} is not a non-negative integer`, at);
    if (count > max) this.fail(`${what}: count ${count} exceeds the limit ${max}`, at);
    if (count * elementSize > this.bytes.byteLength - at) {
      this.fail(`${what}: ${count} × ${elementSize} bytes do not fit in the ${Math.max(0, this.bytes.byteLength - at)} bytes left`, at);
    }
    return count;
  }

  seek(offset: number, what = 'seek'): this {
    if (!Number.isInteger(offset) || offset < 0 || offset > this.bytes.byteLength) {
      this.fail(`${what}: offset ${offset} is outside the file (length ${this.bytes.byteLength})`, this.pos);
    }
    this.pos = offset;
    return this;
  }

  skip(n: number, what = 'skip'): this {
    this.need(n, what);
    this.pos += n;
    return this;
  }

  u8(what = 'u8'): number {
    this.need(1, what);
    return this.bytes[this.pos++]!;
  }
  i8(what = 'i8'): number {
    this.need(1, what);
    return this.view.getInt8(this.pos++);
  }
  u16(what = 'u16'): number {
    this.need(2, what);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }
  i16(what = 'i16'): number {
    this.need(2, what);
    const v = this.view.getInt16(this.pos, true);
    this.pos += 2;
    return v;
  }
  u32(what = 'u32'): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  i32(what = 'i32'): number {
    this.need(4, what);
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }
  f32(what = 'f32'): number {
    this.need(4, what);
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }
  /** The raw u32 bits of a float32 (for bit-exact round trips). */
  f32bits(what = 'f32'): number {
    return this.u32(what);
  }
  f64(what = 'f64'): number {
    this.need(8, what);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }
  /** A copy of the next `n` bytes. */
  bytesCopy(n: number, what = 'bytes'): Uint8Array {
    this.need(n, what);
    const out = this.bytes.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  /** A view (no copy) of the next `n` bytes. */
  bytesView(n: number, what = 'bytes'): Uint8Array {
    this.need(n, what);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  /** Four ASCII characters. */
  fourcc(what = 'FourCC'): string {
    this.need(4, what);
    const b = this.bytes;
    const p = this.pos;
    this.pos += 4;
    return String.fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!);
  }
  /** Throws unless the cursor is at the end of the data. */
  expectEnd(what = 'end of file'): void {
    if (this.pos !== this.bytes.byteLength) {
      this.fail(`${what}: ${this.bytes.byteLength - this.pos} unexpected trailing bytes`, this.pos);
    }
  }

  // Absolute reads that do not move the cursor.
  u8At(at: number, what = 'u8'): number {
    this.need(1, what, at);
    return this.bytes[at]!;
  }
  u16At(at: number, what = 'u16'): number {
    this.need(2, what, at);
    return this.view.getUint16(at, true);
  }
  i16At(at: number, what = 'i16'): number {
    this.need(2, what, at);
    return this.view.getInt16(at, true);
  }
  u32At(at: number, what = 'u32'): number {
    this.need(4, what, at);
    return this.view.getUint32(at, true);
  }
  i32At(at: number, what = 'i32'): number {
    this.need(4, what, at);
    return this.view.getInt32(at, true);
  }
  f32At(at: number, what = 'f32'): number {
    this.need(4, what, at);
    return this.view.getFloat32(at, true);
  }
}
