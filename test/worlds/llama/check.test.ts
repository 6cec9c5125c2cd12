import { describe, expect, it } from 'vitest';
import { checkLevel, checkLevelBytes, colourBlockShift, objectSectionError, type CheckReport } from '../../../src/worlds/llama/check.js';
import { brokenLevel, demoLevel, DEMO_MODELS, flatQuad, minimalLevel } from '../../../src/worlds/llama/demo-levels.js';
import { buildLevel, type LevelDescription } from '../../../src/worlds/llama/level-builder.js';

function check(d: LevelDescription): CheckReport {
  const b = buildLevel(d);
  return checkLevelBytes(b.trakBytes, b.mapBytes);
}
const rules = (r: CheckReport): string[] => [...new Set(r.problems.filter((p) => p.severity === 'error').map((p) => p.rule))].sort();

describe('llama level checker', () => {
  it('passes the demo and the minimal level', () => {
    for (const d of [demoLevel(), minimalLevel()]) {
      const r = check(d);
      expect(r.problems).toEqual([]);
      expect(r.ok).toBe(true);
    }
  });

  it('reports every rule of the broken level with its tile and cell', () => {
    const r = check(brokenLevel());
    expect(r.ok).toBe(false);
    const find = (rule: string, tile: number): { cell: number } | undefined => r.problems.find((p) => p.rule === rule && p.tile === tile);
    expect(find('tile-outside-grid', 0)?.cell).toBe(-1);
    expect(find('float-fixed-mismatch', 1)?.cell).toBe(1);
    expect(find('model-index-mismatch', 2)?.cell).toBe(2);
    expect(find('swap-mismatch', 3)?.cell).toBe(3);
    expect(find('polygon-beyond-8', 4)?.cell).toBe(4);
    expect(find('polygon-unlisted-in-cell', 5)?.cell).toBe(5);
    expect(r.problems.find((p) => p.rule === 'polygon-unlisted-in-cell' && p.tile === 5)!.detail).toMatch(/cell 6 \(2, 1\)/);
    expect(find('invisible-geometry', 6)?.cell).toBe(7);
    expect(r.problems.some((p) => p.rule === 'colours-not-per-vertex' && p.severity === 'error')).toBe(true);
    // Each tile was broken in one way only: no tile has an error of another rule (apart from the far
    // triangle, which cannot be checked for cells, and the colour rule, which names no tile).
    const perTile = new Map<number, Set<string>>();
    for (const p of r.problems) if (p.tile >= 0 && p.severity === 'error') perTile.set(p.tile, (perTile.get(p.tile) ?? new Set()).add(p.rule));
    for (const [, s] of perTile) expect(s.size).toBe(1);
  });

  it('each rule on its own, from a good level', () => {
    const base = (): LevelDescription => demoLevel();
    let d = base();
    d.tiles[0]!.raw = { floatPos: [-0.5, -2.75, -0.5], fixedPos: [-0.5 * 4096, -2.75 * 4096, 0.5 * 4096] };
    expect(rules(check(d))).toEqual(['tile-outside-grid']);
    d = base();
    d.tiles[1]!.raw = { fixedRot: [0, 1024, 0] };
    expect(rules(check(d))).toEqual(['float-fixed-mismatch']);
    d = base();
    d.tiles[1]!.raw = { modelIndex: DEMO_MODELS.exitFloor };
    expect(rules(check(d))).toEqual(['model-index-mismatch']);
    d = base();
    d.rawSwaps = [[2, 0, 3, 6, 7]]; // wrong row
    expect(rules(check(d))).toEqual(['swap-mismatch']);
    d = base();
    d.rawSwaps = [[2, 0, 2, 6, 7], [0, 0, 0, 1, 1]]; // one too many
    expect(rules(check(d))).toEqual(['swap-mismatch']);
    d = base();
    d.rawSwaps = [[2, 0, 2, 1, 7]]; // model A is not the tile's
    expect(rules(check(d))).toEqual(['swap-mismatch']);
    d = base();
    const v = 4;
    d.tiles[3]!.colours = [new Array(v - 1).fill(0x01808080)]; // one too few
    const few = check(d);
    expect(rules(few)).toEqual(['colours-not-per-vertex']);
    expect(few.problems[0]!.detail).toMatch(/1 colour entry more in the block/);
    d.tiles[3]!.colours = [new Array(v + 3).fill(0x01808080)]; // three too many
    expect(check(d).problems[0]!.detail).toMatch(/3 colour entries fewer in the block/);
    d = base();
    d.models[DEMO_MODELS.floor] = { floors: [flatQuad(0, -0.5, 0.9)] }; // reaches 0.4 into the next cell
    const r = check(d);
    expect(rules(r)).toEqual(['polygon-unlisted-in-cell']);
    d = base();
    d.models[DEMO_MODELS.floor] = { floors: [flatQuad(0, -0.5, 0.5 + 1 / 512)] }; // within the margin
    expect(rules(check(d))).toEqual([]);
    d = base();
    d.regions = { masks: [0b01, 0b01], cells: d.regions!.cells }; // nobody sees region 1
    const inv = check(d);
    expect(rules(inv)).toEqual(['invisible-geometry']);
    expect(inv.problems.every((p) => p.cell % 6 >= 3)).toBe(true);
    d = base();
    d.regions = { masks: [0b01, 0], cells: d.regions!.cells }; // mask 0 = sees everything
    expect(rules(check(d))).toEqual([]);
  });

  it('reports degenerate and open polygons', () => {
    const d = minimalLevel();
    d.models.push({ floors: [{ raw: [[0, 0, 0, 0], [127, 0, 0, -2048], [-127, 0, 0, -2048], [0, 0, 127, -2048], [0, 0, -127, -2048]] }] });
    d.models.push({ floors: [{ raw: [[0, 127, 0, 0], [127, 0, 0, -2048], [-127, 0, 0, -2048], [0, 0, 127, -2048], [0, 0, 127, -1024]] }] });
    d.width = 3;
    d.tiles.push({ model: 1, col: 1, row: 0 }, { model: 2, col: 2, row: 0 });
    const r = check(d);
    expect(r.problems.find((p) => p.rule === 'polygon-degenerate')?.tile).toBe(1);
    expect(r.problems.find((p) => p.rule === 'polygon-open')?.tile).toBe(2);
  });

  it('the object section check finds a shifted colour block and accepts a good one', () => {
    const good = buildLevel(demoLevel());
    expect(objectSectionError(good.map)).toBeNull();
    const d = demoLevel();
    d.tail = [...d.tail ?? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0, 0];
    expect(objectSectionError(buildLevel(d).map)).toMatch(/2 bytes left/);
  });

  it('colourBlockShift is null for a good level', () => {
    expect(colourBlockShift(buildLevel(demoLevel()).map)).toBeNull();
  });

  it('checkLevel works on parsed structures too', () => {
    const b = buildLevel(demoLevel());
    expect(checkLevel(b.trak, b.map).ok).toBe(true);
  });
});

describe('llama checker warnings and model rules', () => {
  it('warns where the two cell formulas disagree and for tilted tiles', () => {
    const d = demoLevel();
    const t = d.tiles.findIndex((x) => x.col === 1 && x.row === 0 && x.model === DEMO_MODELS.floor);
    d.tiles[t]!.offset = [-0.3, 0];
    const r = check(d);
    expect(r.problems.find((p) => p.rule === 'tile-cell-formulas-disagree')?.tile).toBe(t);
    const d2 = demoLevel();
    d2.tiles[1]!.raw = { fixedRot: [1024, 0, 0] };
    const r2 = check(d2);
    expect(r2.problems.map((p) => p.rule)).toEqual(['tile-tilted']);
    expect(r2.ok).toBe(true);
  });

  it('reports a face naming a vertex beyond its model', () => {
    const b = buildLevel(minimalLevel());
    b.trak.models[0]!.faceVertices[2] = 99;
    const r = checkLevel(b.trak, b.map);
    expect(r.problems.map((p) => [p.rule, p.tile, p.cell])).toEqual([['face-vertex-out-of-range', 0, 0]]);
  });

  it('the builder refuses a polygon whose planes do not fit 4.12 (beyond ±8 units)', () => {
    const d = minimalLevel();
    d.models[0] = { floors: [flatQuad(9)] };
    expect(() => buildLevel(d)).toThrow(/beyond ±8/);
  });
});

describe('llama face batches and colours', () => {
  it('warns when the first face of a model lacks the batch flag', () => {
    const b = buildLevel(minimalLevel());
    expect(b.trak.models[0]!.faceFlags[0]! & 0x8).toBe(0x8);
    b.trak.models[0]!.faceFlags[0] = 0x800;
    const r = checkLevel(b.trak, b.map);
    expect(r.problems.map((p) => [p.rule, p.severity])).toEqual([['face-batch-flags', 'warning']]);
  });

  it('the builder restarts a batch every 256 faces', () => {
    const visuals: [number, number, number][][] = [];
    for (let i = 0; i < 300; i++) visuals.push([[-0.5, i / 512, -0.5], [0.5, i / 512, -0.5], [0.5, i / 512, 0.5]]);
    const d = minimalLevel();
    d.models[0] = { floors: [flatQuad(0)], visuals };
    const b = buildLevel(d);
    const flags = Array.from(b.trak.models[0]!.faceFlags);
    const starts = flags.map((f, i) => ((f & 0x8) !== 0 ? i : -1)).filter((i) => i >= 0);
    expect(starts).toEqual([0, 256]);
    expect(checkLevel(b.trak, b.map).problems).toEqual([]);
  });
});
