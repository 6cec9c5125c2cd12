import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectWorldKind, loadWorld } from '../../src/worlds/load-world.js';
import { FormatError } from '../../src/worlds/binary/format-error.js';
import { parseFileSource } from '../../src/sim/default-scenario.js';

const asset = (p: string) => new Uint8Array(readFileSync(new URL(`../../assets/worlds/${p}`, import.meta.url)));

describe('loadWorld', () => {
  it('recognises each shipped world by its content, whatever its name', async () => {
    const cases: [string, string][] = [
      ['piney/default.field.json', 'piney'],
      ['colbin/demo.colbin', 'colbin'],
      ['gta/town.col', 'gta'],
    ];
    for (const [file, kind] of cases) {
      const bytes = asset(file);
      expect(detectWorldKind(bytes)).toBe(kind);
      const w = await loadWorld(bytes, 'renamed.bin');
      expect(w.kind).toBe(kind);
      expect(w.name).toBe('renamed.bin');
    }
  });

  it('loads a Llama world from its TRAK and MAP, and says what is missing without the MAP', async () => {
    const trak = asset('llama/demo.trak');
    expect(detectWorldKind(trak)).toBe('llama');
    await expect(loadWorld(trak, 'demo')).rejects.toThrow(/--map/);
    await expect(loadWorld(trak, 'demo', { map: trak })).rejects.toThrow(/not a Llama MAP/);
    const w = await loadWorld(trak, 'demo', { map: asset('llama/demo.map') });
    expect(w.kind).toBe('llama');
  });

  it('refuses bytes no adapter recognises with a FormatError', async () => {
    for (const junk of [new Uint8Array(0), new Uint8Array([1, 2, 3]), new TextEncoder().encode('{"format":"something else"}')]) {
      await expect(loadWorld(junk, 'junk')).rejects.toThrow(FormatError);
    }
  });

  it('parses recorded file sources with and without a MAP', () => {
    expect(parseFileSource('file:a/b.col')).toEqual({ path: 'a/b.col' });
    expect(parseFileSource('file:x.trak;map:y.map')).toEqual({ path: 'x.trak', mapPath: 'y.map' });
  });
});
