import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BinaryReader, BinaryWriter, FormatError, crc32, fnv1a64Hex } from '../../src/binary/index.js';

describe('BinaryReader', () => {
  it('reads little-endian values written by BinaryWriter', () => {
    const w = new BinaryWriter(4);
    w.u8(0xfe).i8(-2).u16(0xbeef).i16(-1234).u32(0xdeadbeef).i32(-5).f32(1.5).f64(-0.25).fourcc('COL3');
    const r = new BinaryReader(w.finish(), 'test');
    expect([r.u8(), r.i8(), r.u16(), r.i16(), r.u32(), r.i32(), r.f32(), r.f64(), r.fourcc()]).toEqual([
      0xfe, -2, 0xbeef, -1234, 0xdeadbeef, -5, 1.5, -0.25, 'COL3',
    ]);
    r.expectEnd();
  });

  it('a read past the end throws a FormatError naming the offset and what', () => {
    const r = new BinaryReader(new Uint8Array(6), 'demo');
    r.u32('header');
    const e = (() => {
      try {
        r.u32('tile count');
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(FormatError);
    expect((e as FormatError).offset).toBe(4);
    expect((e as FormatError).message).toMatch(/demo: tile count: needs 4 bytes but only 2 remain/);
  });

  it('checkCount rejects counts that cannot fit before anything is allocated', () => {
    const r = new BinaryReader(new Uint8Array(100), 'demo');
    expect(() => r.checkCount(2 ** 31, 8, 'faces')).toThrow(FormatError);
    expect(() => r.checkCount(13, 8, 'faces')).toThrow(/13 × 8 bytes do not fit/);
    expect(() => r.checkCount(-1, 8, 'faces')).toThrow(FormatError);
    expect(() => r.checkCount(5, 1, 'faces', 4)).toThrow(/exceeds the limit 4/);
    expect(r.checkCount(12, 8, 'faces')).toBe(12);
  });

  it('seek outside the file and trailing bytes are FormatErrors', () => {
    const r = new BinaryReader(new Uint8Array(8), 'demo');
    expect(() => r.seek(9)).toThrow(FormatError);
    expect(() => r.seek(-1)).toThrow(FormatError);
    r.seek(4);
    expect(() => r.expectEnd()).toThrow(/4 unexpected trailing bytes/);
  });

  it('no read on any offset and size escapes the bounds or throws anything but FormatError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.integer({ min: -10, max: 80 }), fc.integer({ min: -5, max: 100 }), (bytes, at, n) => {
        const r = new BinaryReader(bytes, 'fuzz');
        for (const f of [() => r.u32At(at), () => r.i16At(at), () => r.u8At(at), () => r.need(n, 'x', at), () => r.seek(at).bytesCopy(n)]) {
          try {
            f();
          } catch (e) {
            if (!(e instanceof FormatError)) return false;
          }
        }
        return true;
      }),
    );
  });

  it('works on a Uint8Array that is a view into a larger buffer', () => {
    const big = new Uint8Array([9, 9, 1, 0, 0, 0, 9]);
    const r = new BinaryReader(big.subarray(2, 6), 'view');
    expect(r.u32()).toBe(1);
    expect(() => r.u8()).toThrow(FormatError);
  });
});

describe('BinaryWriter', () => {
  it('grows, aligns and back-patches', () => {
    const w = new BinaryWriter(16);
    w.u32(0);
    for (let i = 0; i < 100; i++) w.u8(i);
    w.align(8);
    expect(w.length % 8).toBe(0);
    w.setU32At(0, w.length);
    const b = w.finish();
    expect(new DataView(b.buffer).getUint32(0, true)).toBe(b.length);
    expect(() => w.setU32At(b.length - 2, 1)).toThrow(RangeError);
  });
});

describe('checksums', () => {
  it('crc32 matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('crc32 chains across pieces', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(200), (b, cut) => {
        const k = Math.min(cut, b.length);
        return crc32(b) === crc32(b, k, b.length, crc32(b, 0, k));
      }),
    );
  });

  it('fnv1a64 matches the published test values and a BigInt model', () => {
    expect(fnv1a64Hex(new Uint8Array(0))).toBe('0xcbf29ce484222325');
    expect(fnv1a64Hex(new TextEncoder().encode('a'))).toBe('0xaf63dc4c8601ec8c');
    expect(fnv1a64Hex(new TextEncoder().encode('foobar'))).toBe('0x85944171f73967e8');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (b) => {
        let h = 0xcbf29ce484222325n;
        for (const x of b) h = ((h ^ BigInt(x)) * 0x100000001b3n) & 0xffffffffffffffffn;
        return fnv1a64Hex(b) === '0x' + h.toString(16).padStart(16, '0');
      }),
    );
  });
});
