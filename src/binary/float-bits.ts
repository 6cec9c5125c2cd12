/**
 * Float32 values that come from a file travel as their bits, never through a JS number. Reading a float32
 * into a number and storing it back can quiet a signalling NaN (set its mantissa's top bit), and whether it
 * does depends on how far V8 has optimised the code doing it: the same parse or write gave other bits after
 * a few thousand files than on the first. Readers fill a Float32Array through `floatBits` of it with the
 * file's u32 words, and writers write the words back, so a model holds exactly the file's bits and a
 * written file exactly the model's, whatever the compiler did.
 */

/** The u32 words under a Float32Array (the same memory), for copying its floats bit for bit. */
export function floatBits(a: Float32Array): Uint32Array {
  // A plain array or another typed array has no float32 words: refused, not read as zeros or garbage.
  if (!(a instanceof Float32Array)) throw new TypeError(`expected a Float32Array, got ${Array.isArray(a) ? 'an array' : Object.prototype.toString.call(a).slice(8, -1)}`);
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}
