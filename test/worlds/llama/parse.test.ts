import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/binary/format-error.js';
import { detectMap, detectTrak, loadLlamaWorld } from '../../../src/worlds/llama/collision-world.js';
import { brokenLevel, demoLevel, minimalLevel } from '../../../src/worlds/llama/demo-levels.js';
import { buildLevel } from '../../../src/worlds/llama/level-builder.js';
import { parseMap } from '../../../src/worlds/llama/map-parse.js';
import { writeMapFile } from '../../../src/worlds/llama/map-write.js';
import { MODEL_HEADER_SIZE, parseTrak, POLYGON_SIZE } from '../../../src/worlds/llama/trak-parse.js';
import { writeTrakFile } from '../../../src/worlds/llama/trak-write.js';
import { minimalWad } from './minimal-wad.js';

const vcounts = (t: ReturnType<typeof parseTrak>): number[] => t.models.map((m) => m.vertices.length / 6);

function le32(b: Uint8Array, at: number, v: number): void {
  new DataView(b.buffer, b.byteOffset, b.byteLength).setUint32(at, v >>> 0, true);
}

describe('llama TRAK/MAP parsing and writing', () => {
  const demo = buildLevel(demoLevel());

  it('reads the layouts: header 0x84, 24-byte vertices, 28-byte faces, 32-byte polygons', () => {
    const t = parseTrak(demo.trakBytes);
    expect(t.models.length).toBe(demoLevel().models.length);
    // File = tag + size + u32 n + headers + data; sum the data sizes from the counts read.
    let size = 8 + 4 + t.models.length * MODEL_HEADER_SIZE;
    for (const m of t.models) size += m.vertices.length * 4 + m.faceFlags.length * 28 + (m.floorCount + m.ceilingCount + m.wallCount) * POLYGON_SIZE;
    expect(size).toBe(demo.trakBytes.length);
    // The first model's header starts right after the count, its data right after all headers.
    expect(t.models[0]!.headerOffset).toBe(12);
    expect(t.models[0]!.dataOffset).toBe(12 + t.models.length * MODEL_HEADER_SIZE);
    // The tag is stored reversed.
    expect(String.fromCharCode(...demo.trakBytes.subarray(0, 4))).toBe('KART');
    expect(String.fromCharCode(...demo.mapBytes.subarray(0, 4))).toBe('CPFW');
    expect(String.fromCharCode(...demo.mapBytes.subarray(12, 16))).toBe(' PAM');
  });

  it('round-trips what it wrote, byte for byte', () => {
    for (const d of [demoLevel(), minimalLevel(), brokenLevel()]) {
      const b = buildLevel(d);
      const t = parseTrak(b.trakBytes);
      expect(Buffer.from(writeTrakFile(t)).equals(Buffer.from(b.trakBytes))).toBe(true);
      const m = parseMap(b.mapBytes, vcounts(t));
      expect(Buffer.from(writeMapFile(m)).equals(Buffer.from(b.mapBytes))).toBe(true);
      expect(m.tileCount).toBe(d.tiles.length);
      expect(Array.from(m.modelIndex)).toEqual(d.tiles.map((x) => x.raw?.modelIndex ?? x.model));
    }
  });

  it('keeps the float block in export space and the fixed block in game space', () => {
    const m = parseMap(demo.mapBytes, vcounts(parseTrak(demo.trakBytes)));
    const d = demoLevel();
    d.tiles.forEach((t, i) => {
      expect(m.floatPos[i * 3]).toBe(t.col + 0.5);
      expect(m.floatPos[i * 3 + 2]).toBe(-(t.row + 0.5));
      expect(m.fixedPos[i * 3]).toBe((t.col + 0.5) * 4096);
      expect(m.fixedPos[i * 3 + 2]).toBe((t.row + 0.5) * 4096);
    });
    // The door is the only tile with a swap; its swap names its cell and both models.
    expect(m.hasSwapBlock).toBe(true);
    expect(m.swapCount).toBe(1);
    const door = d.tiles.findIndex((t) => t.swapModel !== undefined);
    expect(m.hasAlt[door]).toBe(1);
    expect(Array.from(m.swaps)).toEqual([2, 0, 2, 6, 7]);
    expect(m.swapColourStart[door]).toBeGreaterThan(m.colourStart[door]!);
  });

  it('reads the reference minimal level from a whole WAD and detects by content', () => {
    const wad = minimalWad();
    expect(detectTrak(wad)).toBe(true);
    expect(detectMap(wad)).toBe(true);
    expect(detectTrak(demo.trakBytes)).toBe(true);
    expect(detectMap(demo.trakBytes)).toBe(false);
    expect(detectMap(demo.mapBytes)).toBe(true);
    expect(detectTrak(demo.mapBytes)).toBe(false);
    expect(detectTrak(new Uint8Array([1, 2, 3]))).toBe(false);
    const m = parseMap(wad, [4]);
    expect(m.colours.length).toBe(4);
    expect(m.tail.length).toBe(14);
  });

  it('reads colour sets: extra sets when the largest alpha says so, and the swap model after them', () => {
    const d = demoLevel();
    const door = d.tiles.findIndex((t) => t.swapModel !== undefined);
    const v = buildLevel(d).trak.models[d.tiles[door]!.model]!.vertices.length / 6;
    d.tiles[door]!.colours = [new Array(v).fill(0x02808080), new Array(v).fill(0x02404040)];
    const b = buildLevel(d);
    const m = parseMap(b.mapBytes, vcounts(parseTrak(b.trakBytes)));
    expect(m.colourSets[door]).toBe(2);
    expect(m.colours[m.colourStart[door]! + v]).toBe(0x02404040);
    expect(m.swapColourStart[door]).toBe(m.colourStart[door]! + 2 * v);
    expect(m.colourStart[door + 1]).toBe(m.swapColourStart[door]! + 2 * m.swapColourVertices[door]!);
  });

  it('bad bytes give a FormatError with the offset, never another exception', () => {
    const t = demo.trakBytes.slice();
    le32(t, 8, 0x7fffffff); // model count
    expect(() => parseTrak(t)).toThrowError(FormatError);
    try {
      parseTrak(t);
    } catch (e) {
      expect((e as FormatError).offset).toBe(12);
    }
    const m = demo.mapBytes.slice();
    le32(m, 24, 100000); // grid width (payload at 20: count, W, H)
    expect(() => parseMap(m, vcounts(parseTrak(demo.trakBytes)))).toThrowError(/region numbers/);
    expect(() => parseMap(demo.mapBytes, [4])).toThrowError(/beyond the 1 TRAK models/);
    expect(() => parseTrak(demo.trakBytes.subarray(0, 100))).toThrowError(FormatError);
    expect(() => parseTrak(new Uint8Array(0))).toThrowError(FormatError);
    expect(() => parseMap(demo.trakBytes, [])).toThrowError(/no MAP chunk/);
  });

  it('property: every truncation or byte corruption parses or throws FormatError, and the world answers', () => {
    const tv = vcounts(parseTrak(demo.trakBytes));
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        fc.boolean(),
        (whichMap, cut, edits, truncate) => {
          const src = whichMap ? demo.mapBytes : demo.trakBytes;
          let b = src.slice();
          for (const [at, v] of edits) b[at % b.length] = v;
          if (truncate) b = b.subarray(0, cut % (b.length + 1));
          try {
            if (whichMap) parseMap(b, tv);
            else parseTrak(b);
            const w = whichMap ? loadLlamaWorld(demo.trakBytes, b, 'x') : loadLlamaWorld(b, demo.mapBytes, 'x');
            w.ground([0.5, 1, 0.5]);
            w.move({ radius: 0.2, height: 0.75 }, [0.5, 0, 0.5], [0.3, 0, 0.3]);
            w.segmentFraction(0.1, 1, 0.1, 3, -1, 3);
          } catch (e) {
            if (!(e instanceof FormatError)) throw e;
          }
        },
      ),
      { numRuns: 400, seed: 5 },
    );
  });
});

describe('llama vertex colours', () => {
  it('0x80 is full brightness and the game doubles and clamps', async () => {
    const { vertexColourRgb } = await import('../../../src/worlds/llama/map-parse.js');
    expect(vertexColourRgb(0x01808080)).toEqual([1, 1, 1]);
    expect(vertexColourRgb(0x01ff0000)).toEqual([1, 0, 0]);
    expect(vertexColourRgb(0x00000040)).toEqual([0, 0, 128 / 255]);
  });
});

describe('llama placed-polygon ceiling', () => {
  it('a MAP placing more polygons than the ceiling is a FormatError, not a huge allocation', async () => {
    const { MAX_PLACED_POLYGONS } = await import('../../../src/worlds/llama/collision.js');
    const raw: [number, number, number, number][] = [[0, 127, 0, 0], [127, 0, 0, -2048], [-127, 0, 0, -2048], [0, 0, 127, -2048], [0, 0, -127, -2048]];
    const polys = 2048;
    const tilesNeeded = Math.floor(MAX_PLACED_POLYGONS / polys) + 1;
    const w = 64;
    const h = Math.ceil(tilesNeeded / w);
    const tiles = Array.from({ length: tilesNeeded }, (_, i) => ({ model: 0, col: i % w, row: Math.floor(i / w) }));
    const b = buildLevel({ name: 'big', width: w, height: h, models: [{ floors: Array.from({ length: polys }, () => ({ raw })) }], tiles });
    expect(b.trakBytes.length).toBeLessThan(100_000);
    expect(() => loadLlamaWorld(b.trakBytes, b.mapBytes, 'big')).toThrowError(/more than the/);
    expect(() => loadLlamaWorld(b.trakBytes, b.mapBytes, 'big')).toThrowError(FormatError);
  });
});
