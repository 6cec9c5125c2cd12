import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { command } from '../../../src/cli/commands/llama.js';
import { UsageError } from '../../../src/cli/args.js';
import { asLevelDescription, buildLevel } from '../../../src/worlds/llama/level-builder.js';

const A = 'assets/worlds/llama';
const read = (f: string): Buffer => readFileSync(join(A, f));

describe('llama readable level descriptions', () => {
  for (const name of ['demo', 'minimal', 'broken']) {
    it(`${name}.level.json builds exactly ${name}.trak and ${name}.map`, () => {
      const d = asLevelDescription(JSON.parse(read(`${name}.level.json`).toString('utf8')));
      const b = buildLevel(d);
      expect(Buffer.from(b.trakBytes).equals(read(`${name}.trak`))).toBe(true);
      expect(Buffer.from(b.mapBytes).equals(read(`${name}.map`))).toBe(true);
    });
  }

  it('retrosim llama build writes the same files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'llama-'));
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(command.run(['build', join(A, 'demo.level.json'), join(dir, 'd.trak'), join(dir, 'd.map'), '--json'])).toBe(0);
      expect(readFileSync(join(dir, 'd.trak')).equals(read('demo.trak'))).toBe(true);
      expect(readFileSync(join(dir, 'd.map')).equals(read('demo.map'))).toBe(true);
      expect(() => command.run(['build', join(A, 'demo.trak'), join(dir, 'x.trak'), join(dir, 'x.map')])).toThrow(UsageError);
    } finally {
      spy.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('property: a description with any field replaced by junk builds or gives a RangeError', () => {
    const base = JSON.parse(read('demo.level.json').toString('utf8')) as Record<string, unknown>;
    const paths: string[][] = [];
    const walk = (v: unknown, p: string[]): void => {
      paths.push(p);
      if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) if (p.length < 6) walk(c, [...p, k]);
    };
    walk(base, []);
    fc.assert(
      fc.property(fc.nat(paths.length - 1), fc.anything(), (i, junk) => {
        const d = structuredClone(base);
        const p = paths[i]!;
        if (p.length === 0) return;
        let o = d as Record<string, unknown>;
        for (const k of p.slice(0, -1)) o = o[k] as Record<string, unknown>;
        o[p[p.length - 1]!] = junk;
        try {
          buildLevel(asLevelDescription(d));
        } catch (e) {
          if (!(e instanceof RangeError)) throw e;
        }
      }),
      { numRuns: 500, seed: 31 },
    );
  });
});
