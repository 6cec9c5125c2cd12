import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseColbin, hasColbinMagic } from '../../../src/worlds/colbin/parse.js';
import { writeColbin } from '../../../src/worlds/colbin/write.js';
import { buildColbin } from '../../../src/worlds/colbin/level-builder.js';
import { colbinByteLength } from '../../../src/worlds/colbin/types.js';
import { FormatError } from '../../../src/binary/format-error.js';
import { levelArb } from './arbitraries.js';

/** The reference sheet's worked example: 1 floor, 1 wall at the origin, half extents (128, 128, 32), exporter grid. */
function workedExample(): Uint8Array {
  return writeColbin(
    buildColbin({
      version: 2,
      grid: 'exporter',
      floors: [{ vertices: [[-2, 0, -2], [2, 0, -2], [0, 0, 2]] }],
      walls: [{ center: [0, 0, 0], halfExtents: [1, 1, 0.25] }],
    }),
  );
}

function expectFormatError(bytes: Uint8Array, offset: number, text: RegExp): void {
  let err: unknown;
  try {
    parseColbin(bytes);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(FormatError);
  expect((err as FormatError).offset).toBe(offset);
  expect((err as FormatError).message).toMatch(text);
}

describe('COLBIN worked example (reference A2)', () => {
  const bytes = workedExample();
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  it('is 161 bytes with the documented header and grid header at odd offsets', () => {
    expect(bytes.length).toBe(15 + 16 + 18 + 4 + 44 + 64);
    expect(bytes.length).toBe(161);
    expect(String.fromCharCode(...bytes.subarray(0, 6))).toBe('COLBIN');
    expect(bytes[6]).toBe(2);
    expect(dv.getUint32(7, true)).toBe(1);
    expect(dv.getUint32(11, true)).toBe(1);
    expect(dv.getInt32(15, true)).toBe(-384);
    expect(dv.getInt32(19, true)).toBe(-288);
    expect(dv.getUint32(23, true)).toBe(256);
    expect(dv.getUint16(27, true)).toBe(3);
    expect(dv.getUint16(29, true)).toBe(3);
  });

  it('lists the wall in cells 4 and 7 only (gx 1..2, gz 1), X-major', () => {
    const counts: number[] = [];
    let p = 31;
    for (let c = 0; c < 9; c++) {
      const n = dv.getUint16(p, true);
      counts.push(n);
      p += 2;
      for (let k = 0; k < n; k++) {
        expect(dv.getUint16(p, true)).toBe(0);
        p += 2;
      }
    }
    expect(counts).toEqual([0, 0, 0, 0, 1, 0, 0, 1, 0]);
    expect(p).toBe(161 - 44 - 64);
    // the wall record: centre 0, identity axes, half extents 128 128 32, flags 0
    const w = 161 - 64;
    expect([dv.getInt32(w + 12, true), dv.getInt32(w + 28, true), dv.getInt32(w + 44, true)]).toEqual([4096, 4096, 4096]);
    expect([dv.getInt32(w + 48, true), dv.getInt32(w + 52, true), dv.getInt32(w + 56, true)]).toEqual([128, 128, 32]);
  });

  it('parses back to the same values and writes back byte for byte', () => {
    const f = parseColbin(bytes);
    expect(f.version).toBe(2);
    expect(f.grid!.width * f.grid!.height).toBe(9);
    expect(Array.from(f.grid!.cellStart)).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 2, 2]);
    expect(Array.from(f.wallHalfExtents)).toEqual([128, 128, 32]);
    expect(Array.from(f.floorVertices)).toEqual([-256, 0, -256, 256, 0, -256, 0, 0, 256]);
    expect(writeColbin(f)).toEqual(bytes);
  });

  it('is detected by content', () => {
    expect(hasColbinMagic(bytes)).toBe(true);
    expect(hasColbinMagic(new TextEncoder().encode('COLBI'))).toBe(false);
    expect(hasColbinMagic(new TextEncoder().encode('COLL....'))).toBe(false);
  });
});

describe('COLBIN version 1', () => {
  const file = buildColbin({
    version: 1,
    floors: [{ vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]] }],
    walls: [
      { center: [1, -0.5, 2], axes: [[3, 0, 4], [0, 1, 0], [-4, 0, 3]], halfExtents: [1, 0.5, 0.25] },
      { center: [-3, 0, 0], halfExtents: [0.25, 1, 1] },
    ],
  });
  const bytes = writeColbin(file);

  it('has no grid and 52-byte walls with i16 axes and pad words', () => {
    expect(bytes.length).toBe(15 + 44 + 2 * 52);
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    const w0 = 15 + 44;
    expect(dv.getInt16(w0 + 12, true)).toBe(2457); // trunc(0.6 × 4096)
    expect(dv.getInt16(w0 + 16, true)).toBe(3276); // trunc(0.8 × 4096)
    expect(dv.getUint16(w0 + 18, true)).toBe(0); // pad
    expect(dv.getInt32(w0 + 36, true)).toBe(128);
  });

  it('round-trips', () => {
    const f = parseColbin(bytes);
    expect(f.version).toBe(1);
    expect(f.grid).toBeNull();
    expect(Array.from(f.wallAxes.subarray(0, 9))).toEqual([2457, 0, 3276, 0, 4096, 0, -3276, 0, 2457]);
    expect(writeColbin(f)).toEqual(bytes);
  });

  it('validates with 52-byte walls: one wall too many, a truncation anywhere, trailing bytes', () => {
    const more = bytes.slice();
    new DataView(more.buffer).setUint32(11, 3, true);
    expectFormatError(more, 7, /3 walls × 52/);
    for (let n = 0; n < bytes.length; n++) expect(() => parseColbin(bytes.subarray(0, n))).toThrow(FormatError);
    const long = new Uint8Array(bytes.length + 12);
    long.set(bytes);
    expectFormatError(long, bytes.length, /trailing/);
  });

  it('the writer refuses an axis a version-1 file cannot hold', () => {
    const f = buildColbin({ version: 1, floors: [], walls: [{ center: [0, 0, 0], halfExtents: [1, 1, 1] }] });
    f.wallAxes[0] = 40000;
    expect(() => writeColbin(f)).toThrow(RangeError);
  });

  it('keeps non-zero pads so odd files round-trip', () => {
    const odd = bytes.slice();
    odd[15 + 36 + 6] = 0xab; // floor pad
    odd[15 + 44 + 18] = 0xcd; // first axis pad of wall 0
    const f = parseColbin(odd);
    expect(f.floorPads[0]).toBe(0xab);
    expect(f.wallAxisPads[0]).toBe(0xcd);
    expect(writeColbin(f)).toEqual(odd);
  });
});

describe('COLBIN validation', () => {
  const good = workedExample();
  const set = (b: Uint8Array, at: number, f: (dv: DataView) => void): Uint8Array => {
    const c = b.slice();
    f(new DataView(c.buffer));
    void at;
    return c;
  };

  it('accepts zero walls (a valid file the exporter itself cannot write)', () => {
    const f = buildColbin({ floors: [{ vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]] }], walls: [] });
    const b = writeColbin(f);
    expect(b.length).toBe(15 + 16 + 44);
    const back = parseColbin(b);
    expect(back.wallCount).toBe(0);
    expect(back.grid!.width).toBe(0);
  });

  it('a short header', () => expectFormatError(good.subarray(0, 10), 0, /header/));
  it('a wrong magic', () => expectFormatError(set(good, 0, (dv) => dv.setUint8(3, 0x58)), 0, /magic/));
  it.each([0, 3, 255])('unknown version %i', (v) => expectFormatError(set(good, 6, (dv) => dv.setUint8(6, v)), 6, /version/));
  it('a floor count larger than the file', () => expectFormatError(set(good, 7, (dv) => dv.setUint32(7, 0xffffffff, true)), 7, /counts/));
  it('a wall count larger than the file', () => expectFormatError(set(good, 11, (dv) => dv.setUint32(11, 3, true)), 7, /counts/));
  it('a grid larger than the file', () => expectFormatError(set(good, 27, (dv) => dv.setUint16(27, 0xffff, true)), 31, /grid cells/));
  it('a zero cell size', () => expectFormatError(set(good, 23, (dv) => dv.setUint32(23, 0, true)), 23, /cellSize/));
  it('a cell count running past the data', () => expectFormatError(set(good, 31, (dv) => dv.setUint16(31, 60, true)), 31, /grid cell 0/));
  it('a wall index not below the wall count', () => {
    // cell 4 is at 31 + 4·2, its one index right after its count
    expectFormatError(set(good, 41, (dv) => dv.setUint16(41, 1, true)), 41, /wall index 1 is not below the wall count 1/);
  });
  it('trailing bytes', () => {
    const b = new Uint8Array(good.length + 3);
    b.set(good);
    expectFormatError(b, good.length, /trailing/);
    expect(parseColbin(b, { allowTrailingBytes: true }).wallCount).toBe(1);
  });
  it('a truncated file at every length gives a FormatError, never another exception', () => {
    for (let n = 0; n < good.length; n++) expect(() => parseColbin(good.subarray(0, n))).toThrow(FormatError);
  });
  it('random corruption gives a FormatError or a valid file, nothing else', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(good.length - 1), fc.nat(255)), { minLength: 1, maxLength: 6 }), (edits) => {
        const b = good.slice();
        for (const [at, v] of edits) b[at] = v;
        try {
          const f = parseColbin(b);
          expect(writeColbin(f)).toEqual(b);
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
        }
      }),
      { numRuns: 500 },
    );
  });
  it('hostile counts do not allocate: a 31-byte file claiming 2^32−1 of everything fails fast', () => {
    const b = new Uint8Array(31);
    b.set(new TextEncoder().encode('COLBIN'));
    b[6] = 2;
    new DataView(b.buffer).setUint32(7, 0xffffffff, true);
    new DataView(b.buffer).setUint32(11, 0xffffffff, true);
    expectFormatError(b, 7, /counts/);
  });
});

describe('COLBIN round trip (property)', () => {
  it.each([1, 2] as const)('version %i: build → write → parse → write is byte-identical and the size formula holds', (version) => {
    fc.assert(
      fc.property(levelArb(version), (desc) => {
        const f = buildColbin(desc);
        const bytes = writeColbin(f);
        expect(bytes.length).toBe(colbinByteLength(f));
        const back = parseColbin(bytes);
        expect(back.floorCount).toBe(desc.floors.length);
        expect(back.wallCount).toBe(desc.walls.length);
        expect(writeColbin(back)).toEqual(bytes);
      }),
      { numRuns: 200 },
    );
  });
});
