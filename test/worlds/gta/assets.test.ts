import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeGtaAssets } from '../../../scripts/make-gta-assets.js';
import { loadGtaTown } from '../../../src/node/gta-town.js';
import { gtaAssetsDir } from '../../../src/node/assets.js';
import { parseColFile } from '../../../src/worlds/gta/parse.js';
import { writeColFileOf } from '../../../src/worlds/gta/write.js';
import type { Body, Vec3 } from '../../../src/worlds/world.js';

describe('GTA synthetic assets', () => {
  it('regenerating them gives byte-identical files', () => {
    const dir = gtaAssetsDir();
    const made = makeGtaAssets();
    expect(Object.keys(made).sort()).toEqual(['bench-4k.col', 'town.col', 'town.placements.json']);
    for (const [name, bytes] of Object.entries(made)) {
      const onDisk = new Uint8Array(readFileSync(join(dir, name)));
      expect(Buffer.from(bytes).equals(Buffer.from(onDisk)), name).toBe(true);
    }
  });

  it('the asset files read back and write back unchanged', () => {
    for (const name of ['town.col', 'bench-4k.col']) {
      const bytes = new Uint8Array(readFileSync(join(gtaAssetsDir(), name)));
      const f = parseColFile(bytes);
      expect(f.trailingBytes).toBe(0);
      expect(Buffer.from(writeColFileOf(f)).equals(Buffer.from(bytes))).toBe(true);
    }
    const bench = parseColFile(new Uint8Array(readFileSync(join(gtaAssetsDir(), 'bench-4k.col')))).models[0]!;
    expect(bench.mesh.faceCount).toBeGreaterThanOrEqual(4000);
    expect(bench.faceGroups!.every((g) => g.last - g.first < 50)).toBe(true);
  });

  it('the town mixes versions, stands a body at its spawn point and lets it walk', () => {
    const town = loadGtaTown();
    expect(new Set(town.file.models.map((m) => m.version))).toEqual(new Set([1, 2, 3]));
    expect(town.scene.instanceCount).toBeGreaterThanOrEqual(8);
    const s = town.spawnPoint();
    const body: Body = { radius: 0.35, height: 1.8, stepHeight: 0.4 };
    let p: Vec3 = s;
    let grounded = 0;
    for (let i = 0; i < 200; i++) {
      const r = town.move(body, p, [0.1, 0.05, -0.2]);
      p = r.position;
      if (r.grounded) grounded++;
    }
    expect(grounded).toBeGreaterThan(150);
    // The rotated house (90° about z at (15, 30)) is 6 m wide along x and 8 m along y there.
    const hit = town.segmentHit([15, 20, 1], [15, 40, 1]);
    expect(hit.model).toBe('town_house');
    expect(hit.point[1]).toBeCloseTo(26, 9);
  });
});
