import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { llamaAssetFiles } from '../../../src/worlds/llama/assets.js';

const dir = join(process.cwd(), 'assets', 'worlds', 'llama');

describe('llama assets', () => {
  it('regenerating gives byte-identical files, and nothing else is in the folder', () => {
    const files = llamaAssetFiles();
    for (const [name, bytes] of files) {
      const onDisk = new Uint8Array(readFileSync(join(dir, name)));
      expect(onDisk.length, name).toBe(bytes.length);
      expect(Buffer.compare(Buffer.from(onDisk), Buffer.from(bytes)), name).toBe(0);
    }
    expect(readdirSync(dir).sort()).toEqual([...files.keys()].sort());
  });

  it('two generations are identical (no hidden state, clock or randomness)', () => {
    const a = llamaAssetFiles(), b = llamaAssetFiles();
    for (const [name, bytes] of a) expect(Buffer.from(b.get(name)!).equals(Buffer.from(bytes))).toBe(true);
  });
});
