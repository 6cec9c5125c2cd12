import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Hash64, hashHex } from '../../src/ecs/state-hash.js';

const hashWords = (ws: number[]) => {
  const h = new Hash64();
  for (const w of ws) h.u32(w);
  return h.hex();
};

describe('Hash64', () => {
  it('is a function of the words fed, and resets cleanly', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffffffff })), (ws) => {
        const h = new Hash64();
        h.u32(123);
        h.reset();
        for (const w of ws) h.u32(w);
        expect(h.hex()).toBe(hashWords(ws));
      }),
    );
  });

  it('tells apart sequences that differ in one word, in order or in length (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffffffff }), { minLength: 1, maxLength: 50 }), fc.nat(), fc.nat({ max: 0xffffffff }), (ws, i, v) => {
        const k = i % ws.length;
        fc.pre(ws[k] !== v);
        const changed = ws.slice();
        changed[k] = v;
        expect(hashWords(changed)).not.toBe(hashWords(ws));
        expect(hashWords([...ws, 0])).not.toBe(hashWords(ws));
        if (ws.length > 1 && ws[0] !== ws[1]) expect(hashWords([ws[1]!, ws[0]!, ...ws.slice(2)])).not.toBe(hashWords(ws));
      }),
    );
  });

  it('hashes doubles by their bits, every NaN alike, and 0 apart from −0', () => {
    const of = (v: number) => new Hash64().number(v).hex();
    const otherNaN = new Float64Array(new Uint32Array([1, 0x7ff00001]).buffer)[0]!;
    expect(Number.isNaN(otherNaN)).toBe(true);
    expect(of(otherNaN)).toBe(of(NaN));
    expect(of(0)).not.toBe(of(-0));
    expect(of(1)).not.toBe(of(1 + Number.EPSILON));
  });

  it('feeds a double as its low word then its high word', () => {
    const v = 1.2345678901234567e89;
    const u = new Uint32Array(new Float64Array([v]).buffer);
    // The test host is little-endian (all current JS hosts are): u[0] is the low half.
    expect(new Hash64().number(v).hex()).toBe(new Hash64().u32(u[0]!).u32(u[1]!).hex());
  });

  it('gathers integer arrays as words and float arrays as doubles, by the ids given', () => {
    const ids = new Uint32Array([3, 1]);
    const ints = new Int32Array([0, -5, 0, 9]);
    expect(new Hash64().gather(ints, ids, 2).hex()).toBe(new Hash64().u32(9).u32(-5).hex());
    const f = new Float64Array([0, 0.5, 0, 2.5]);
    expect(new Hash64().gather(f, ids, 2).hex()).toBe(new Hash64().number(2.5).number(0.5).hex());
  });

  it('gather is number() or u32() per element, bit for bit, after any prefix: every array kind, NaNs, zeros, infinities, any ids', () => {
    const double = fc.oneof(fc.double(), fc.constantFrom(NaN, -0, 0, Infinity, -Infinity, 5e-324, -1.7976931348623157e308));
    const kinds = [Float64Array, Float32Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array, Uint8Array] as const;
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 5 }), fc.nat({ max: kinds.length - 1 }), fc.array(double, { minLength: 1, maxLength: 60 }), fc.array(fc.nat(), { maxLength: 80 }), (prefix, kind, values, picks) => {
        const Kind = kinds[kind]!;
        const arr = new Kind(values.length);
        values.forEach((v, i) => (arr[i] = Kind === Float64Array || Kind === Float32Array ? v : Math.trunc(Number.isFinite(v) ? v : 7)));
        const ids = Uint32Array.from(picks, (p) => p % values.length);
        const bulk = new Hash64();
        const each = new Hash64();
        for (const w of prefix) {
          bulk.u32(w);
          each.u32(w);
        }
        bulk.gather(arr, ids, ids.length);
        for (const id of ids) {
          if (arr instanceof Float64Array) each.number(arr[id]!);
          else each.u32(arr[id]!);
        }
        expect(bulk.hex()).toBe(each.hex());
        // And the lanes go on the same afterwards.
        expect(bulk.u32(12345).hex()).toBe(each.u32(12345).hex());
      }),
      { numRuns: 2000 },
    );
  });

  it('keyed is u32(id) then u32(arr[id]) per id, and u32s is u32 per element, bit for bit', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 5 }), fc.array(fc.nat({ max: 0xffffffff }), { minLength: 1, maxLength: 60 }), fc.array(fc.nat(), { maxLength: 80 }), (prefix, values, picks) => {
        const arr = Uint32Array.from(values);
        const ids = Uint32Array.from(picks, (p) => p % values.length);
        const start = () => {
          const h = new Hash64();
          for (const w of prefix) h.u32(w);
          return h;
        };
        const each = start();
        for (const id of ids) each.u32(id).u32(arr[id]!);
        expect(start().keyed(arr, ids, ids.length).hex()).toBe(each.hex());
        const plain = start();
        for (const v of values) plain.u32(v);
        expect(start().u32s(values, values.length).hex()).toBe(plain.hex());
        expect(start().u32s(arr, arr.length).u32(1).hex()).toBe(plain.u32(1).hex());
      }),
      { numRuns: 1000 },
    );
  });

  it('prints 0x and 16 hex digits', () => {
    expect(hashHex(0xab, 0x1)).toBe('0x000000ab00000001');
    expect(new Hash64().hex()).toMatch(/^0x[0-9a-f]{16}$/);
  });
});
