/**
 * What dropped files are, by name and size: a file over the limit is refused before anything is read; a replay
 * wins; a TRAK needs its MAP; a COL takes its placements; otherwise the first file that is not a placements file.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { planFiles, tooBigMessage, type NamedFile } from '../../../src/render/sandbox/file-plan.js';

const LIMIT = 1000;
const f = (name: string, size = 10): NamedFile => ({ name, size });

describe('file plan', () => {
  test('the kinds', () => {
    expect(planFiles([], LIMIT)).toBeNull();
    const rsr = f('run.RSR');
    expect(planFiles([f('a.col'), rsr], LIMIT)).toEqual({ kind: 'replay', file: rsr });
    const trak = f('level.trak');
    const map = f('level.MAP');
    expect(planFiles([map, trak], LIMIT)).toEqual({ kind: 'trak', trak, map });
    // A TRAK alone is opened as a world file (its parser then says what is missing).
    expect(planFiles([trak], LIMIT)).toEqual({ kind: 'world', file: trak });
    const col = f('town.col');
    const pl = f('town.placements.json');
    expect(planFiles([pl, col], LIMIT)).toEqual({ kind: 'world', file: col, placements: pl });
    // A placements file alone goes to the COL shown (the page refuses it, saying why, when none is shown).
    expect(planFiles([pl], LIMIT)).toEqual({ kind: 'placements', file: pl });
    expect(planFiles([pl, f('other.placements.json')], LIMIT)).toEqual({ kind: 'placements', file: pl });
  });

  test('any file over the limit refuses the whole drop, naming it and the limit', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ name: fc.constantFrom('a.col', 'b.rsr', 'c.trak', 'c.map', 'd.placements.json', 'e.json'), size: fc.nat(2 * LIMIT) }), { minLength: 1, maxLength: 6 }), (files) => {
        const p = planFiles(files, LIMIT)!;
        const big = files.find((x) => x.size > LIMIT);
        if (big) {
          expect(p).toEqual({ kind: 'too-big', file: big, limit: LIMIT });
          expect(tooBigMessage(big, LIMIT)).toBe(`cannot open ${big.name}: ${big.size} bytes is over the limit of ${LIMIT} bytes (limits.fileBytes)`);
        } else {
          expect(p.kind).not.toBe('too-big');
          // Whatever is opened is one of the files given.
          const chosen = p.kind === 'trak' ? [p.trak, p.map] : p.kind === 'world' ? [p.file, ...(p.placements ? [p.placements] : [])] : p.kind === 'replay' || p.kind === 'placements' ? [p.file] : [];
          for (const c of chosen) expect(files).toContain(c);
          if (files.some((x) => /\.rsr$/.test(x.name))) expect(p.kind).toBe('replay');
        }
      }),
    );
  });
});
