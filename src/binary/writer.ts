/**
 * A growable little-endian byte writer, the counterpart of BinaryReader. Writers of every format use it, so
 * that what they produce is read back by the same checked reader.
 */
export class BinaryWriter {
  private buf: Uint8Array;
  private view: DataView;
  /** Bytes written so far (also the current offset). */
  length = 0;

  constructor(initialCapacity = 1024) {
    this.buf = new Uint8Array(Math.max(16, initialCapacity));
    this.view = new DataView(this.buf.buffer);
  }

  private grow(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.length + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.grow(1);
    this.buf[this.length++] = v & 0xff;
    return this;
  }
  i8(v: number): this {
    return this.u8(v);
  }
  u16(v: number): this {
    this.grow(2);
    this.view.setUint16(this.length, v & 0xffff, true);
    this.length += 2;
    return this;
  }
  i16(v: number): this {
    return this.u16(v);
  }
  u32(v: number): this {
    this.grow(4);
    this.view.setUint32(this.length, v >>> 0, true);
    this.length += 4;
    return this;
  }
  i32(v: number): this {
    return this.u32(v);
  }
  f32(v: number): this {
    this.grow(4);
    this.view.setFloat32(this.length, v, true);
    this.length += 4;
    return this;
  }
  /** Writes raw float32 bits (bit-exact round trips). */
  f32bits(bits: number): this {
    return this.u32(bits);
  }
  f64(v: number): this {
    this.grow(8);
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
    return this;
  }
  bytes(b: Uint8Array): this {
    this.grow(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
  zeros(n: number): this {
    this.grow(n);
    this.buf.fill(0, this.length, this.length + n);
    this.length += n;
    return this;
  }
  /**
   * Reserves the next `n` bytes (zeroed) and returns a DataView over them, for writers that fill a large
   * array in one go; the length moves past them.
   */
  span(n: number): DataView {
    this.grow(n);
    this.buf.fill(0, this.length, this.length + n);
    const v = new DataView(this.buf.buffer, this.length, n);
    this.length += n;
    return v;
  }
  fourcc(s: string): this {
    if (s.length !== 4) throw new Error(`FourCC must be 4 characters: ${JSON.stringify(s)}`);
    for (let i = 0; i < 4; i++) this.u8(s.charCodeAt(i));
    return this;
  }
  /** Pads with zeros to a multiple of `n`. */
  align(n: number): this {
    const r = this.length % n;
    return r === 0 ? this : this.zeros(n - r);
  }
  // Back-patching at an absolute offset already written.
  setU32At(at: number, v: number): this {
    if (at < 0 || at + 4 > this.length) throw new RangeError(`setU32At ${at} outside written bytes`);
    this.view.setUint32(at, v >>> 0, true);
    return this;
  }
  setU16At(at: number, v: number): this {
    if (at < 0 || at + 2 > this.length) throw new RangeError(`setU16At ${at} outside written bytes`);
    this.view.setUint16(at, v & 0xffff, true);
    return this;
  }
  /** A copy of the bytes written. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
