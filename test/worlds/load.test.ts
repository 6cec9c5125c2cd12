import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { GtaWorld } from '../../src/worlds/gta/collision-world.js';
import { FormatError } from '../../src/binary/format-error.js';
import { detectWorldFile, detectWorldKind, loadWorldBytes } from '../../src/worlds/load.js';
import { loadWorld, loadWorldFile, siblingWithExtension } from '../../src/node/world-files.js';

const assetPath = (p: string) => fileURLToPath(new URL(`../../assets/worlds/${p}`, import.meta.url));
const asset = (p: string) => new Uint8Array(readFileSync(assetPath(p)));

const tmp = mkdtempSync(join(tmpdir(), 'retrosim-load-world-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('loadWorld picks the format by content', () => {
  const cases: [string, string, string][] = [
    ['piney/default.field.json', 'piney', 'piney'],
    ['colbin/demo.colbin', 'colbin', 'colbin'],
    ['gta/town.col', 'gta', 'gta'],
    ['rugrats/demo.col', 'rugrats', 'rugrats'],
    ['llama/demo.trak', 'llama-trak', 'llama'],
    ['llama/demo.map', 'llama-map', 'llama'],
  ];
  it('recognises every shipped world file under a meaningless name', async () => {
    for (const [file, fileKind, kind] of cases) {
      const bytes = asset(file);
      expect(detectWorldFile(bytes)).toBe(fileKind);
      expect(detectWorldKind(bytes)).toBe(kind);
      // Copied under a name that says nothing: the content decides.
      const p = join(tmp, `${kind}-${fileKind}.bin`);
      writeFileSync(p, bytes);
      if (kind !== 'llama') {
        const w = await loadWorld(p);
        expect(w.kind).toBe(kind);
        expect(w.name).toBe(`${kind}-${fileKind}.bin`);
      }
    }
  });

  it('opens a Llama world from either file, finding the partner with the same stem', async () => {
    const dir = join(tmp, 'llama');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    copyFileSync(assetPath('llama/demo.trak'), join(dir, 'level.trak'));
    copyFileSync(assetPath('llama/demo.map'), join(dir, 'LEVEL.MAP'));
    const a = loadWorldFile(join(dir, 'level.trak'));
    expect(a.world.kind).toBe('llama');
    expect(a.partners).toEqual([join(dir, 'LEVEL.MAP')]);
    const b = loadWorldFile(join(dir, 'LEVEL.MAP'));
    expect(b.world.kind).toBe('llama');
    expect(b.partners).toEqual([join(dir, 'level.trak')]);
    // Both ways give the same world.
    expect(a.world.bounds).toEqual(b.world.bounds);
    expect(a.world.spawnPoint()).toEqual(b.world.spawnPoint());
    expect(siblingWithExtension(join(dir, 'level.trak'), 'map')).toBe(join(dir, 'LEVEL.MAP'));
  });

  it('says what is missing when a Llama file has no partner', async () => {
    await expect(loadWorld(asset('llama/demo.trak'), { name: 'demo' })).rejects.toThrow(/MAP/);
    await expect(loadWorld(asset('llama/demo.map'), { name: 'demo' })).rejects.toThrow(/TRAK/);
    await expect(loadWorld(asset('llama/demo.map'), { name: 'demo', trak: asset('llama/demo.map') })).rejects.toThrow(/not a Llama TRAK/);
    const lone = join(tmp, 'lone.trak');
    copyFileSync(assetPath('llama/demo.trak'), lone);
    await expect(loadWorld(lone)).rejects.toThrow(FormatError);
    const w = await loadWorld(asset('llama/demo.map'), { name: 'demo', trak: asset('llama/demo.trak') });
    expect(w.kind).toBe('llama');
  });

  it('loads GTA placements from the sibling placements file when opened by path', () => {
    const byPath = loadWorldFile(assetPath('gta/town.col'));
    expect(byPath.partners.map((p) => p.split(/[\\/]/).pop())).toEqual(['town.placements.json']);
    const bare = loadWorldBytes(asset('gta/town.col'), 'town.col');
    const placements = JSON.parse(readFileSync(assetPath('gta/town.placements.json'), 'utf8')).placements as unknown[];
    // Placed: one instance per placement; bare: each model once at the origin.
    expect((byPath.world as GtaWorld).scene.instanceCount).toBe(placements.length);
    expect((bare as GtaWorld).scene.instanceCount).toBe((bare as GtaWorld).file.models.length);
    expect(placements.length).not.toBe((bare as GtaWorld).file.models.length);
  });

  it('refuses unreadable paths and unknown bytes with a FormatError', async () => {
    await expect(loadWorld(join(tmp, 'does-not-exist.col'))).rejects.toThrow(FormatError);
    for (const junk of [new Uint8Array(0), new Uint8Array([1, 2, 3]), new TextEncoder().encode('{"format":"something else"}')]) {
      expect(detectWorldKind(junk)).toBeNull();
      await expect(loadWorld(junk, { name: 'junk' })).rejects.toThrow(FormatError);
    }
  });

  it('never throws anything but a FormatError for arbitrary or damaged bytes', () => {
    const seeds = cases.map(([f]) => asset(f));
    fc.assert(
      fc.property(fc.nat(seeds.length - 1), fc.nat(), fc.nat(255), fc.nat(), (which, at, value, cut) => {
        const src = seeds[which]!;
        const b = src.slice(0, src.length === 0 ? 0 : cut % (src.length + 1));
        if (b.length > 0) b[at % b.length] = value;
        try {
          loadWorldBytes(b, 'damaged');
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
        }
      }),
      { numRuns: 150 },
    );
  });
});
