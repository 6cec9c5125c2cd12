import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { rugratsAssets, handLevel, demoLevel } from '../../../scripts/make-rugrats-assets.js';
import { buildLevel, loadColIndex, parseCol, parseTrace, verifyTrace, isHalved, halfOf } from '../../../src/worlds/rugrats/index.js';
import { FLAG_DIAGONAL_SUM } from '../../../src/worlds/rugrats/layout.js';
import { FormatError } from '../../../src/binary/format-error.js';

const dir = new URL('../../../assets/worlds/rugrats/', import.meta.url);
const committed = (n: string) => new Uint8Array(readFileSync(new URL(n, dir)));

describe('rugrats assets', () => {
  it('regenerate byte for byte from scripts/make-rugrats-assets.ts', () => {
    const made = rugratsAssets();
    expect(made.map((a) => a.name).sort()).toEqual(['demo.col', 'demo.level.json', 'hand-trace.jsonl', 'hand.col', 'hand.level.json']);
    for (const a of made) expect(Buffer.from(committed(a.name)).equals(Buffer.from(a.bytes))).toBe(true);
  });

  it('keep each level description next to the COL built from it', () => {
    for (const [name, desc] of [['hand', handLevel()], ['demo', demoLevel()]] as const) {
      expect(JSON.parse(new TextDecoder().decode(committed(`${name}.level.json`)))).toEqual(desc);
      expect(parseCol(committed(`${name}.col`))).toEqual(buildLevel(desc));
    }
  });

  it('give the demo level halved tiles of both diagonals, slopes, overhangs, missing tiles and walls', () => {
    const d = parseCol(committed('demo.col'));
    const tiles = d.columns.flatMap((c) => c.tiles);
    const halved = tiles.filter((t) => isHalved(t.flags));
    expect(halved.some((t) => t.flags & FLAG_DIAGONAL_SUM)).toBe(true);
    expect(halved.some((t) => !(t.flags & FLAG_DIAGONAL_SUM))).toBe(true);
    expect(new Set(halved.map((t) => halfOf(t.flags)))).toEqual(new Set([0, 1, 2, 3]));
    expect(tiles.some((t) => t.floorNormal !== 0)).toBe(true);
    expect(tiles.some((t) => t.ceilingNormal !== 0)).toBe(true);
    expect(tiles.some((t) => t.floor === t.ceiling)).toBe(true); // closed tiles: walls
    // A stack of more than one tile in one cell's half: an overhang.
    expect(d.columns.some((c) => c.cells.some((cell) => (c.tiles[cell.tile]!.flags & 1) === 0 && !isHalved(c.tiles[cell.tile]!.flags)))).toBe(true);
    // Missing cells inside the bounds.
    const cellsIn = d.columns.slice(0, 12).reduce((n, c) => n + c.cells.length, 0);
    expect(cellsIn).toBeLessThan(12 * 10);
  });
});

describe('hand-worked conformance trace', () => {
  it('matches the port on every line', () => {
    const ix = loadColIndex(committed('hand.col'));
    const t = parseTrace(new TextDecoder().decode(committed('hand-trace.jsonl')));
    expect(t.header).toEqual({ trace: 'rugrats-col', version: 1, db: 'hand.col' });
    expect(t.entries.length).toBe(24);
    expect(t.entries.filter((e) => e.op === 'segment').length).toBe(12);
    const r = verifyTrace(ix, t.entries);
    expect(r.differences).toEqual([]);
    expect(r).toMatchObject({ entries: 24, matches: 24, mismatches: 0 });
  });

  it('reports a changed expectation as a mismatch naming the line and field', () => {
    const ix = loadColIndex(committed('hand.col'));
    const text = [
      '{"op":"query","pos":[512,-100,512],"expect":{"result":0,"ceiling":-4096,"floor":5,"tile":4146}}',
      '',
      '# a comment',
      '{"op":"segment","from":[512,-500,512],"to":[512,500,512],"expect":{"result":1,"depth":0,"point":[512,0,512]}}',
      '{"op":"segment","from":[512,-500,512],"to":[1800,-500,512],"expect":{"result":0,"tile":4184}}',
    ].join('\n');
    const r = verifyTrace(ix, parseTrace(text).entries);
    expect(r).toMatchObject({ entries: 3, matches: 1, mismatches: 2 });
    expect(r.differences).toEqual([
      { line: 1, op: 'query', input: [512, -100, 512], field: 'floor', expected: 5, actual: 0 },
      // A floor hit does not write depth: expecting one is a difference.
      { line: 4, op: 'segment', input: [512, -500, 512, 512, 500, 512], field: 'depth', expected: 0, actual: 'not written' },
    ]);
  });

  it('rejects malformed lines with a FormatError at the line offset', () => {
    const bad = ['{"op":"query","pos":[1,2,3],"expect":{"result":0}}', '{"op":"query","pos":[1,2],"expect":{"result":0}}'].join('\n');
    try {
      parseTrace(bad);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      expect((e as FormatError).offset).toBe(bad.indexOf('\n') + 1);
    }
    expect(() => parseTrace('not json')).toThrow(FormatError);
    expect(() => parseTrace('{"op":"walk","expect":{"result":0}}')).toThrow(/"op"/);
    expect(() => parseTrace('{"op":"query","pos":[1,2,3],"expect":{"result":3}}')).toThrow(/result/);
  });
});
