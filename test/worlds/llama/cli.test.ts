import { afterEach, describe, expect, it, vi } from 'vitest';
import { command } from '../../../src/cli/commands/llama.js';
import { UsageError } from '../../../src/cli/args.js';

const A = 'assets/worlds/llama';

function run(argv: string[]): { code: number; out: string } {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  try {
    const code = command.run(argv) as number;
    return { code, out };
  } finally {
    spy.mockRestore();
  }
}

describe('retrosim llama', () => {
  afterEach(() => vi.restoreAllMocks());

  it('info --json describes the demo level', () => {
    const { code, out } = run(['info', `${A}/demo.trak`, `${A}/demo.map`, '--json']);
    expect(code).toBe(0);
    const j = JSON.parse(out);
    expect(j).toMatchObject({ width: 6, height: 5, models: 11, swaps: 1, wfpc: '0x10000', spawn: [0.5, 0, 0.5] });
    expect(j.polygons).toEqual({ floors: 11, ceilings: 3, walls: 4 });
  });

  it('ground --json gives floor, ceiling, material, tile and cell', () => {
    const j = JSON.parse(run(['ground', `${A}/demo.trak`, `${A}/demo.map`, '5.5', '1', '4.5', '--json']).out);
    expect(j).toMatchObject({ hasFloor: true, floor: 0, ceiling: null, material: 16, cell: 29 });
    const none = JSON.parse(run(['ground', `${A}/demo.trak`, `${A}/demo.map`, '9', '1', '1', '--json']).out);
    expect(none).toMatchObject({ hasFloor: false, floor: null, tile: -1, cell: -1 });
  });

  it('move --json reports contacts per step; --swaps opens the door', () => {
    const base = ['move', `${A}/demo.trak`, `${A}/demo.map`, '2.5', '0', '2.2', '0', '0', '0.1', '--steps', '3', '--json'];
    const shut = JSON.parse(run(base).out);
    expect(shut.position[2]).toBeCloseTo(2.3, 3);
    expect(shut.contacts.filter((c: { kind: string }) => c.kind === 'wall').length).toBe(3);
    const open = JSON.parse(run([...base, '--swaps', '0']).out);
    expect(open.position[2]).toBeCloseTo(2.5, 9);
    const fall = JSON.parse(run(['move', `${A}/demo.trak`, `${A}/demo.map`, '2.5', '0', '3.5', '0', '-1', '0', '--steps', '3', '--json']).out);
    expect(fall.contacts.map((c: { kind: string }) => c.kind)).toEqual(['death']);
  });

  it('check exits 1 with the problems of the broken level, 0 for the demo', () => {
    const bad = run(['check', `${A}/broken.trak`, `${A}/broken.map`, '--json']);
    expect(bad.code).toBe(1);
    const j = JSON.parse(bad.out);
    expect(j.ok).toBe(false);
    expect(new Set(j.problems.map((p: { rule: string }) => p.rule))).toEqual(
      new Set(['tile-outside-grid', 'float-fixed-mismatch', 'model-index-mismatch', 'swap-mismatch', 'colours-not-per-vertex', 'polygon-beyond-8', 'polygon-unlisted-in-cell', 'invisible-geometry']),
    );
    expect(run(['check', `${A}/demo.trak`, `${A}/demo.map`]).code).toBe(0);
  });

  it('regions --json lists the cells a camera sees', () => {
    const j = JSON.parse(run(['regions', `${A}/broken.trak`, `${A}/broken.map`, '0.5', '0.5', '--json']).out);
    // Region 0 sees only region 0: every cell but cell 7 (region 5).
    expect(j).toEqual({ cell: 0, region: 0, mask: '0x1', visible: [0, 1, 2, 3, 4, 5, 6] });
    const out = JSON.parse(run(['regions', `${A}/broken.trak`, `${A}/broken.map`, '-1', '0.5', '--json']).out);
    expect(out.visible).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('usage errors are UsageErrors', () => {
    expect(() => run(['ground', `${A}/demo.trak`, `${A}/demo.map`, '1', '2'])).toThrow(UsageError);
    expect(() => run(['fly'])).toThrow(UsageError);
    expect(() => run(['ground', `${A}/demo.trak`, `${A}/demo.map`, '1', '2', '3', '--swaps', '4'])).toThrow(UsageError);
    expect(() => run(['info', `${A}/demo.trak`, `${A}/demo.map`, '--plane-sign', '0'])).toThrow(UsageError);
  });
});
