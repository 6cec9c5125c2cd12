import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';
import { loadGtaTown } from '../../../src/node/gta-town.js';

const town = 'assets/worlds/gta/town.col';
const places = 'assets/worlds/gta/town.placements.json';

describe('retrosim col', () => {
  it('info --json lists every model with its counts and bounds', () => {
    const r = runCli(['col', 'info', town, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.trailingBytes).toBe(0);
    expect(out.models.map((m: { name: string }) => m.name)).toEqual(['town_ground', 'town_house', 'town_tower', 'town_tree', 'town_ramp']);
    const ramp = out.models[4];
    expect(Object.keys(ramp)).toEqual(['version', 'name', 'modelId', 'flags', 'spheres', 'boxes', 'faces', 'vertices', 'faceGroups', 'shadowFaces', 'shadowVertices', 'bounds']);
    expect([ramp.version, ramp.flags, ramp.boxes, ramp.shadowFaces, ramp.shadowVertices]).toEqual([3, 26, 1, 12, 8]);
    expect(Object.keys(ramp.bounds)).toEqual(['min', 'max', 'center', 'radius']);
    expect(out.models[3].version).toBe(1);
    expect(out.models[2].version).toBe(2);
  });

  it('ray --json agrees with the library, with placements', () => {
    const r = runCli(['col', 'ray', town, '15', '20', '1', '15', '40', '1', '--placements', places, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const lib = loadGtaTown().segmentHit([15, 20, 1], [15, 40, 1]);
    expect(out).toEqual({ hit: true, fraction: lib.fraction, point: lib.point, normal: lib.normal, what: lib.what, id: lib.id, material: lib.material, model: 'town_house', instance: lib.instance });
    const miss = JSON.parse(runCli(['col', 'ray', town, '0', '0', '50', '0', '0', '40', '--json']).stdout);
    expect([miss.hit, miss.fraction, miss.model]).toEqual([false, 1, '']);
  });

  it('ground and sphere --json', () => {
    const g = JSON.parse(runCli(['col', 'ground', town, '0', '0', '5', '--placements', places, '--json']).stdout);
    expect([g.hasFloor, g.floor, g.ceiling, g.model, g.normal]).toEqual([true, 0, null, 'town_ground', [0, 0, 1]]);
    // Without placements every model sits at the origin: the tower's box holds the point, so it is its own floor.
    const alone = JSON.parse(runCli(['col', 'ground', town, '0', '0', '5', '--json']).stdout);
    expect([alone.floor, alone.model]).toEqual([5, 'town_tower']);
    const s = JSON.parse(runCli(['col', 'sphere', town, '0', '0', '0.2', '0.5', '--placements', places, '--json']).stdout);
    expect(s.overlaps).toBe(true);
    expect(s.position[2]).toBeCloseTo(0.5, 9);
    expect(s.contacts[0]).toMatchObject({ what: 'face', model: 'town_ground', instance: 0 });
  });

  it('usage errors exit 2, bad files exit 1 with the offset', () => {
    expect(runCli(['col', 'ray', town, '1', '2']).code).toBe(2);
    expect(runCli(['col', 'frob', town]).code).toBe(2);
    expect(runCli(['col', 'ray', town, '1', '2', '3', '4', '5', 'x']).code).toBe(2);
    const dir = mkdtempSync(join(tmpdir(), 'gta-col-'));
    try {
      const bad = join(dir, 'bad.col');
      writeFileSync(bad, Buffer.from('COL3\xff\xff\x00\x00', 'latin1'));
      const r = runCli(['col', 'info', bad, '--json']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/gta col: model 0 size 65535 runs past the end of the file .*offset 4/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
