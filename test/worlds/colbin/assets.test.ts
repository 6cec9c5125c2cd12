import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { colbinAssets } from '../../../scripts/make-colbin-assets.js';
import { parseColbin } from '../../../src/worlds/colbin/parse.js';
import { checkGrid } from '../../../src/worlds/colbin/check.js';
import { ColbinWorld } from '../../../src/worlds/colbin/collision-world.js';

const dir = fileURLToPath(new URL('../../../assets/worlds/colbin/', import.meta.url));

describe('COLBIN assets (synthetic)', () => {
  const assets = colbinAssets();

  it('regenerating gives byte-identical files, and every .colbin there is generated', () => {
    for (const { name, bytes } of assets) expect(new Uint8Array(readFileSync(dir + name))).toEqual(bytes);
    const onDisk = readdirSync(dir).filter((f) => f.endsWith('.colbin')).sort();
    expect(onDisk).toEqual(assets.map((a) => a.name).sort());
  });

  it('the README labels them synthetic', () => {
    expect(readFileSync(dir + 'README.md', 'utf8')).toMatch(/synthetic/i);
  });

  it('the worked example is the 161-byte file of the reference sheet', () => {
    expect(assets.find((a) => a.name === 'worked-example.colbin')!.bytes.length).toBe(161);
  });

  it('the demo grid covers every wall; the exporter-grid demo misses the rotated and [0]/[2]-mismatched walls', () => {
    const get = (n: string) => parseColbin(assets.find((a) => a.name === n)!.bytes);
    expect(checkGrid(get('demo.colbin')).missing).toEqual([]);
    const miss = checkGrid(get('demo-exporter-grid.colbin')).missing.map((m) => m.wall);
    expect(miss).toContain(4); // the 3-4-5 yawed pillar
    expect(miss).toContain(5); // the 45° screen
    expect(miss).not.toContain(0); // unrotated with the thin axis at index 2: the exporter's footprint is right
    expect(checkGrid(get('demo-v1.colbin')).hasGrid).toBe(false);
  });

  it('the demo level is usable: spawn on a floor, the ramp rises to the platform', () => {
    const w = new ColbinWorld(parseColbin(assets.find((a) => a.name === 'demo.colbin')!.bytes), 'demo');
    const s = w.spawnPoint();
    expect(w.ground(s).hasFloor).toBe(true);
    expect(w.ground([384, -500, -512]).floor).toBe(-64); // halfway up the ramp (x = 3 m)
    expect(w.ground([640, -500, -512]).floor).toBe(-128); // on the platform
    expect(w.ground([-320, -10, 384])).toMatchObject({ floor: 0, ceiling: -320 }); // under the overhead slab
  });
});
