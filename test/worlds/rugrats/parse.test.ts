import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { parseCol, writeCol, buildLevel, buildColIndex, type ColData } from '../../../src/worlds/rugrats/index.js';
import { levelArb } from './arbitraries.js';
import { FormatError } from '../../../src/binary/format-error.js';

const asset = (n: string) => new Uint8Array(readFileSync(new URL(`../../../assets/worlds/rugrats/${n}`, import.meta.url)));

function formatErrorOf(f: () => unknown): FormatError {
  try {
    f();
  } catch (e) {
    if (e instanceof FormatError) return e;
    throw e;
  }
  throw new Error('no error thrown');
}

/** A one-column level whose bytes are easy to edit: column 0 holds cells (0, 0) and (0, 1). */
function tinyBytes(): Uint8Array {
  const d = buildLevel({
    min: [0, -4096, 0],
    max: [1023, 0, 2047],
    cells: [
      { x: 0, z: 0, rooms: [{ floor: 0, ceiling: 8 }, { floor: 16, ceiling: 24, floorRise: [256, 0] }] },
      { x: 0, z: 1, halved: { diagonal: 'x+z', low: [{ floor: 0, ceiling: 24 }], high: [{ floor: 4, ceiling: 24 }] } },
    ],
  });
  return writeCol(d);
}
// Offsets in tinyBytes: cells at 0x102c (z 0 → tile 0) and 0x102e (z 1 → tile 2); tiles from 0x1030, 8 bytes each.
const CELLS = 0x102c;
const TILES = 0x1030;

describe('COL round trips', () => {
  it('writes the committed levels back byte for byte', () => {
    for (const n of ['demo.col', 'hand.col']) {
      const b = asset(n);
      expect(writeCol(parseCol(b))).toEqual(b);
    }
  });

  it('parse(write(d)) = d and write(parse(write(d))) = write(d) for random levels', () => {
    fc.assert(
      fc.property(levelArb, (desc) => {
        const d = buildLevel(desc);
        const bytes = writeCol(d);
        const back = parseCol(bytes);
        expect(back).toEqual(d);
        expect(writeCol(back)).toEqual(bytes);
      }),
      { numRuns: 60, seed: 4 },
    );
  });

  it('keeps the bytes whose meaning is unknown', () => {
    const d: ColData = parseCol(tinyBytes());
    d.pads = [0xdeadbeef, 7];
    d.unknown24 = 0x12345678;
    d.columns[0]!.pointer = 0x800c4a88;
    d.columns[3]!.pointer = 1;
    d.columns[0]!.tiles[1]!.unknown4 = 9;
    d.columns[0]!.tiles[1]!.unknown5 = 10;
    d.columns[0]!.tiles[1]!.unknown7 = 11;
    d.gap = [1, 2];
    d.trailing = [0, 0, 0];
    const bytes = writeCol(d);
    expect(parseCol(bytes)).toEqual(d);
    // The header word 0x24 and the pointer are where the layout says.
    const v = new DataView(bytes.buffer);
    expect(v.getUint32(0x24, true)).toBe(0x12345678);
    expect(v.getUint32(0x2c, true)).toBe(0x800c4a88);
  });

  it('lays out the header, the column table and the data as the seed gives them', () => {
    const b = tinyBytes();
    const v = new DataView(b.buffer);
    expect([v.getInt32(0, true), v.getInt32(4, true), v.getInt32(8, true)]).toEqual([0, -4096, 0]);
    expect([v.getInt32(16, true), v.getInt32(20, true), v.getInt32(24, true)]).toEqual([1023, 0, 2047]);
    // Column 0: 2 cells, 4 tiles (2 in the first stack, 1 per half in the second cell).
    expect([v.getInt16(0x30, true), v.getInt16(0x32, true)]).toEqual([2, 4]);
    expect(Array.from(b.subarray(CELLS, CELLS + 4))).toEqual([0, 0, 1, 2]);
    // The sloped room: floor byte 16, floor normal 1, ceiling 24, flags = last.
    expect(Array.from(b.subarray(TILES + 8, TILES + 16))).toEqual([16, 1, 24, 0, 0, 0, 1, 0]);
    // Halved x+z cell: half 1 then half 3, each its own one-tile stack.
    expect(b[TILES + 16 + 6]).toBe(0x80 | 0x20 | 0x01);
    expect(b[TILES + 24 + 6]).toBe(0x80 | 0x60 | 0x01);
    // Normals: offset at 0x28, 2 floor normals (flat + the slope), then 1 ceiling normal.
    const normals = v.getUint32(0x28, true);
    expect(normals).toBe(TILES + 32);
    expect(v.getUint32(0x20, true)).toBe(2);
    expect(b.length).toBe(normals + 3 * 6);
    expect([v.getInt16(normals, true), v.getInt16(normals + 2, true), v.getInt16(normals + 4, true)]).toEqual([0, -4096, 0]);
  });
});

describe('COL validation', () => {
  it('rejects every truncation before the ceiling normals with a FormatError', () => {
    const b = asset('hand.col');
    const v = new DataView(b.buffer, b.byteOffset);
    const ceilingStart = v.getUint32(0x28, true) + 6 * v.getUint32(0x20, true);
    for (let n = 0; n < ceilingStart; n++) {
      const e = formatErrorOf(() => parseCol(b.subarray(0, n)));
      expect(e.format).toBe('rugrats COL');
      expect(e.offset).toBeGreaterThanOrEqual(0);
    }
    // The ceiling table has no count (it runs to the end of the file), so a cut inside it can only shorten it:
    // either a FormatError or a parse whose ceiling normals are a prefix of the whole file's.
    const whole = parseCol(b).ceilingNormals;
    for (let n = ceilingStart; n < b.length; n++) {
      try {
        const d = parseCol(b.subarray(0, n));
        expect(whole.slice(0, d.ceilingNormals.length)).toEqual(d.ceilingNormals);
        expect(d.ceilingNormals.length).toBeLessThan(whole.length);
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
      }
    }
  });

  it('names the offset of a truncated header', () => {
    expect(formatErrorOf(() => parseCol(new Uint8Array(100))).offset).toBe(0);
  });

  it('rejects a normals offset past the end', () => {
    const b = tinyBytes();
    new DataView(b.buffer).setUint32(0x28, b.length + 1, true);
    expect(formatErrorOf(() => parseCol(b)).offset).toBe(0x28);
  });

  it('rejects column data that runs past the normals', () => {
    const b = tinyBytes();
    new DataView(b.buffer).setInt16(0x32, 9, true); // column 0 claims 9 tiles
    const e = formatErrorOf(() => parseCol(b));
    expect(e.offset).toBe(CELLS);
    expect(e.message).toMatch(/run past the normals/);
  });

  it('rejects a negative count', () => {
    const b = tinyBytes();
    new DataView(b.buffer).setInt16(0x2c + 8 * 5 + 4, -1, true);
    expect(formatErrorOf(() => parseCol(b)).offset).toBe(0x2c + 8 * 5 + 4);
  });

  it('rejects cells not sorted by z', () => {
    const b = tinyBytes();
    b[CELLS + 2] = 0; // second cell's z equals the first's
    const e = formatErrorOf(() => parseCol(b));
    expect(e.offset).toBe(CELLS + 2);
    expect(e.message).toMatch(/not above/);
  });

  it('rejects a cell pointing past its column tiles', () => {
    const b = tinyBytes();
    b[CELLS + 3] = 4;
    expect(formatErrorOf(() => parseCol(b)).offset).toBe(CELLS + 3);
  });

  it('rejects a stack with no last-tile flag', () => {
    const b = tinyBytes();
    // Clear the last flag of every tile: the first cell's stack never ends.
    for (let t = 0; t < 4; t++) b[TILES + t * 8 + 6]! &= ~1;
    const e = formatErrorOf(() => parseCol(b));
    expect(e.message).toMatch(/no last-tile flag/);
    expect(e.offset).toBe(TILES + 3 * 8 + 6);
  });

  it('rejects a halved cell whose other half is missing or not the opposite half', () => {
    const b = tinyBytes();
    b[TILES + 24 + 6] = 0x80 | 0x20 | 0x01; // second half says half 1 too
    const e = formatErrorOf(() => parseCol(b));
    expect(e.offset).toBe(TILES + 24 + 6);
    expect(e.message).toMatch(/opposite half/);
  });

  it('rejects a normal index beyond its table', () => {
    const b = tinyBytes();
    b[TILES + 8 + 1] = 2; // floor normal 2 of 2
    let e = formatErrorOf(() => parseCol(b));
    expect(e.offset).toBe(TILES + 8 + 1);
    const c = tinyBytes();
    c[TILES + 3] = 1; // ceiling normal 1 of 1
    e = formatErrorOf(() => parseCol(c));
    expect(e.offset).toBe(TILES + 3);
  });

  it('rejects nonzero data past the end of the ceiling normals', () => {
    const b = tinyBytes();
    const longer = new Uint8Array(b.length + 3);
    longer.set(b);
    longer[b.length + 1] = 5;
    expect(formatErrorOf(() => parseCol(longer)).offset).toBe(b.length + 1);
  });

  it('rejects min above max', () => {
    const b = tinyBytes();
    new DataView(b.buffer).setInt32(8, 5000, true);
    expect(formatErrorOf(() => parseCol(b)).offset).toBe(8);
  });

  it('rejects unexplained bytes before the normals', () => {
    const d = parseCol(tinyBytes());
    d.gap = [0, 0, 0];
    const b = writeCol(d);
    const v = new DataView(b.buffer);
    // Move the normals 4 further on, inserting 4 bytes: a gap of 7.
    const grown = new Uint8Array(b.length + 4);
    const off = v.getUint32(0x28, true);
    grown.set(b.subarray(0, off));
    grown.set(b.subarray(off), off + 4);
    new DataView(grown.buffer).setUint32(0x28, off + 4, true);
    expect(formatErrorOf(() => parseCol(grown)).offset).toBe(TILES + 32);
  });

  it('answers random corruption with a parse or a FormatError, nothing else', () => {
    const base = asset('demo.col');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), fc.nat(base.length), (edits, cut) => {
        const b = base.slice(0, Math.max(cut, 0x1100));
        for (const [at, v] of edits) if (at < b.length) b[at] = v;
        try {
          parseCol(b);
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
        }
      }),
      { numRuns: 400, seed: 7 },
    );
  });
});

describe('COL writer', () => {
  it('refuses fields that do not fit', () => {
    const d = parseCol(tinyBytes());
    d.columns[0]!.tiles[0]!.floor = 256;
    expect(() => writeCol(d)).toThrow(FormatError);
    const e = parseCol(tinyBytes());
    e.columns.pop();
    expect(() => writeCol(e)).toThrow(/512 columns/);
  });
});

describe('indexing data built in memory', () => {
  it('checks what the walks rely on, as the parser does for files', () => {
    const ok = parseCol(tinyBytes());
    expect(() => buildColIndex(ok)).not.toThrow();
    const noEnd = parseCol(tinyBytes());
    for (const t of noEnd.columns[0]!.tiles) t.flags &= ~1;
    expect(() => buildColIndex(noEnd)).toThrow(FormatError);
    const unsorted = parseCol(tinyBytes());
    unsorted.columns[0]!.cells[1]!.z = 0;
    expect(() => buildColIndex(unsorted)).toThrow(FormatError);
    const badNormal = parseCol(tinyBytes());
    badNormal.columns[0]!.tiles[0]!.ceilingNormal = 9;
    expect(() => buildColIndex(badNormal)).toThrow(FormatError);
    const noHalf = parseCol(tinyBytes());
    noHalf.columns[0]!.tiles.pop();
    expect(() => buildColIndex(noHalf)).toThrow(FormatError);
    const short = parseCol(tinyBytes());
    short.columns.pop();
    expect(() => buildColIndex(short)).toThrow(FormatError);
  });
});
