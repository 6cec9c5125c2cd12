import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../cli/run-cli.js';
import { tempDir } from '../../setup/temp-dir.js';

const DEMO = 'assets/worlds/colbin/demo.colbin';
const json = (args: string[]) => {
  const r = runCli(['colbin', ...args, '--json']);
  expect(r.stderr).toBe('');
  return { code: r.code, out: JSON.parse(r.stdout) };
};

describe('retrosim colbin', () => {
  it('info --json on the worked example', () => {
    const { code, out } = json(['info', 'assets/worlds/colbin/worked-example.colbin']);
    expect(code).toBe(0);
    expect(out).toMatchObject({ bytes: 161, version: 2, floorCount: 1, wallCount: 1, grid: { originX: -384, originZ: -288, cellSize: 256, width: 3, height: 3, references: 2 }, up: { axis: 1, sign: -1 }, scale: 128, thinAxisCounts: [0, 0, 1] });
  });

  it('info --list adds float views', () => {
    const { out } = json(['info', 'assets/worlds/colbin/worked-example.colbin', '--list']);
    expect(out.walls).toEqual([{ center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], halfExtents: [1, 1, 0.25], flags: 0 }]);
    expect(out.floors[0].vertices).toEqual([[-2, 0, -2], [2, 0, -2], [0, 0, 2]]);
  });

  it('ground --json: platform from above, yard from below, ceiling under the slab', () => {
    expect(json(['ground', DEMO, '640', '-300', '-512']).out).toMatchObject({ hasFloor: true, floor: -128, ceiling: null, ceilingId: -1 });
    expect(json(['ground', DEMO, '-320', '-10', '384']).out).toMatchObject({ hasFloor: true, floor: 0, ceiling: -320 });
    expect(json(['ground', DEMO, '5000', '0', '0']).out).toEqual({ hasFloor: false, floor: null, floorId: -1, ceiling: null, ceilingId: -1 });
  });

  it('move --json: walking into the south wall (inner face z = −768) stops the 32-radius body at z = −736', () => {
    const { code, out } = json(['move', DEMO, '0', '0', '-700', '0', '0', '-60']);
    expect(code).toBe(0);
    expect(out.position).toEqual([0, 0, -736]);
    expect(out.grounded).toBe(true);
    expect(out.contacts[0]).toEqual({ kind: 'wall', normal: [0, 0, 1], id: 0, material: 0 });
  });

  it('move --touch-separates keeps a flush body in place; the engine response pushes it down', () => {
    expect(json(['move', DEMO, '0', '0', '-736', '0', '0', '0', '--touch-separates']).out.position).toEqual([0, 0, -736]);
    expect(json(['move', DEMO, '0', '0', '-736', '0', '0', '0']).out.position).not.toEqual([0, 0, -736]);
  });

  it('move accepts a box body and a step height', () => {
    const { out } = json(['move', DEMO, '0', '0', '-700', '0', '0', '-60', '--half', '10,64,10', '--step', '0']);
    expect(out.position).toEqual([0, 0, -758]);
  });

  it('segment --json', () => {
    expect(json(['segment', DEMO, '0', '-64', '0', '0', '-64', '-1000']).out).toMatchObject({ hit: true, fraction: 0.768, what: 'wall', id: 0 });
  });

  it('check: exit 0 for a complete grid, 1 listing walls for the exporter grid', () => {
    expect(json(['check', DEMO])).toMatchObject({ code: 0, out: { ok: true, hasGrid: true, missingRefs: 0 } });
    const r = json(['check', 'assets/worlds/colbin/demo-exporter-grid.colbin']);
    expect(r.code).toBe(1);
    expect(r.out.ok).toBe(false);
    expect(r.out.missing.map((m: { wall: number }) => m.wall)).toContain(4);
    expect(r.out.missing[0].cells[0]).toHaveProperty('gx');
  });

  it('a corrupt file is a one-line FormatError with exit 1', () => {
    const d = tempDir('colbin-');
    const f = join(d, 'bad.colbin');
    writeFileSync(f, Buffer.from('COLBIN\x09' + '\0'.repeat(8)));
    const r = runCli(['colbin', 'info', f]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/version: 9 is not 1 or 2/);
  });

  it.each([[['colbin']], [['colbin', 'ground', DEMO, '1', '2']], [['colbin', 'move', DEMO, '0', '0', '0', '0', '0', 'x']], [['colbin', 'ground', DEMO, '0', '0', '0', '--up', '0']], [['colbin', 'move', DEMO, '0', '0', '0', '0', '0', '0', '--half', '1,2']]])(
    'usage errors exit 2 with one line: %j',
    (args) => {
      const r = runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    },
  );
});
