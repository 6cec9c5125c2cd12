import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBudget, decodeValueBytes, encodeValueBytes, MAX_VALUE_DEPTH, type DecodeStats } from '../../src/ecs/value-codec.js';
import { resolveLimits } from '../../src/limits.js';
import { FormatError } from '../../src/binary/format-error.js';

const leaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.string(),
  fc.integer().map((n) => n),
  fc.array(fc.nat(255)).map((a) => Uint8Array.from(a)),
  fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })).map((a) => Int32Array.from(a)),
  fc.array(fc.nat({ max: 0xffffffff })).map((a) => Uint32Array.from(a)),
  fc.array(fc.double()).map((a) => Float64Array.from(a)),
  fc.array(fc.integer({ min: -32768, max: 32767 })).map((a) => Int16Array.from(a)),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(fc.string().filter((k) => k !== '__proto__'), tie('v'), { maxKeys: 4 })),
})).v;

describe('value codec', () => {
  it('round-trips plain values, typed arrays keeping their type (property)', () => {
    fc.assert(
      fc.property(value, (v) => {
        const back = decodeValueBytes(encodeValueBytes(v), 'test');
        expect(back).toEqual(v);
      }),
    );
  });

  it('keeps −0, NaN and undefined', () => {
    const back = decodeValueBytes(encodeValueBytes({ a: -0, b: NaN, c: undefined }), 't') as Record<string, unknown>;
    expect(Object.is(back['a'], -0)).toBe(true);
    expect(back['b']).toBeNaN();
    expect('c' in back && back['c'] === undefined).toBe(true);
  });

  it('turns every truncation into a FormatError', () => {
    const bytes = encodeValueBytes({ list: [1, 'two', new Float64Array([3, 4])], ok: true });
    for (let n = 0; n < bytes.length; n++) {
      expect(() => decodeValueBytes(bytes.subarray(0, n), 'snap')).toThrow(FormatError);
    }
  });

  it('refuses a huge count without allocating for it', () => {
    // Tag 15 (Float64Array) with a count of 2^32 − 1 and no data.
    const hostile = new Uint8Array([15, 0xff, 0xff, 0xff, 0xff]);
    expect(() => decodeValueBytes(hostile, 'snap')).toThrow(/do not fit/);
    const arr = new Uint8Array([6, 0xff, 0xff, 0xff, 0x7f]);
    expect(() => decodeValueBytes(arr, 'snap')).toThrow(FormatError);
  });

  it('refuses unknown tags, bad UTF-8, trailing bytes and over-deep nesting', () => {
    expect(() => decodeValueBytes(new Uint8Array([99]), 'snap')).toThrow(/unknown value tag 99/);
    expect(() => decodeValueBytes(new Uint8Array([5, 1, 0, 0, 0, 0xff]), 'snap')).toThrow(/UTF-8/);
    expect(() => decodeValueBytes(new Uint8Array([0, 0]), 'snap')).toThrow(/trailing/);
    const bytes: number[] = []; // arrays of one array, nested past the limit
    for (let i = 0; i < MAX_VALUE_DEPTH + 5; i++) bytes.push(6, 1, 0, 0, 0);
    bytes.push(0);
    expect(() => decodeValueBytes(Uint8Array.from(bytes), 'snap')).toThrow(/nesting/);
  });

  it('counts what a decode creates: values (elements and entries included), arrays and objects, string and typed bytes', () => {
    const stats: DecodeStats = { values: 0, composites: 0, stringBytes: 0, typedBytes: 0 };
    decodeValueBytes(encodeValueBytes({ a: [1, 2, null], bc: 'xyz', t: new Uint16Array(3) }), 't', { stats });
    // The root, its 3 entries, the array's 3 elements; the root and the array; 'a' 'bc' 't' 'xyz'; 3 × 2 bytes.
    expect(stats).toEqual({ values: 7, composites: 2, stringBytes: 1 + 2 + 1 + 3, typedBytes: 6 });
  });

  it('bounds a decode by the smaller of the absolute limits and a budget relative to its size (property)', () => {
    const limits = resolveLimits({ replay: { snapshotValues: 50_000, snapshotObjects: 3_000 } });
    const seen = { decoded: 0, refused: 0 };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.boolean(), (n, objects) => {
        // An array of n nulls (n + 5 bytes) or of n empty objects (5n + 5 bytes).
        const bytes = new Uint8Array(5 + (objects ? 5 : 1) * n);
        bytes[0] = 6;
        new DataView(bytes.buffer).setUint32(1, n, true);
        if (objects) for (let i = 0; i < n; i++) bytes[5 + 5 * i] = 7;
        const b = decodeBudget(bytes.length, limits);
        expect(b.values).toBe(Math.min(50_000, 4096 + Math.floor(bytes.length / 4)));
        expect(b.composites).toBe(Math.min(3_000, 256 + Math.floor(bytes.length / 32)));
        const fits = 1 + n <= b.values && (objects ? 1 + n : 1) <= b.composites;
        const stats: DecodeStats = { values: 0, composites: 0, stringBytes: 0, typedBytes: 0 };
        let ok = true;
        try {
          expect((decodeValueBytes(bytes, 'snap', { limits, stats }) as unknown[]).length).toBe(n);
        } catch (e) {
          ok = false;
          expect(e).toBeInstanceOf(FormatError);
          expect((e as Error).message).toMatch(/holds more than \d+ (values|arrays and objects)/);
        }
        expect(ok).toBe(fits);
        seen[ok ? 'decoded' : 'refused']++;
        expect(stats.values).toBeLessThanOrEqual(b.values);
        expect(stats.composites).toBeLessThanOrEqual(b.composites);
      }),
      { numRuns: 200 },
    );
    // Both sides of the bound were tried.
    expect(seen.decoded).toBeGreaterThan(10);
    expect(seen.refused).toBeGreaterThan(10);
  });

  it('names the format in its errors', () => {
    try {
      decodeValueBytes(new Uint8Array([4, 1]), 'replay chunk KEYF (frame 600)');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      expect((e as Error).message).toContain('replay chunk KEYF (frame 600)');
    }
  });
});

describe('value codec: Float32Array as its bits', () => {
  it('keeps every float32 bit pattern, NaN payloads included, however often it ran (property)', () => {
    // Through JS numbers a signalling NaN may come back quieted, depending on how far V8 optimised the code.
    let runs = 0;
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffffffff }), { minLength: 1, maxLength: 16 }), (words) => {
        const a = new Float32Array(Uint32Array.from(words).buffer);
        const back = decodeValueBytes(encodeValueBytes({ a }), 'test') as { a: Float32Array };
        expect(back.a).toBeInstanceOf(Float32Array);
        expect(Array.from(new Uint32Array(back.a.buffer, back.a.byteOffset, back.a.length))).toEqual(words);
        runs++;
      }),
      { numRuns: 3000, seed: 7 },
    );
    expect(runs).toBe(3000);
  });
});
