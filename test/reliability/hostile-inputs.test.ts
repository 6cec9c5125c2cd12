/**
 * Inputs an attacker would send, each made by a generator (./hostile-files.ts) in a temporary folder, each
 * answered with a clear error naming the file and the limit, or with the right answer, without the minutes
 * and gigabytes they used to cost:
 *  - a placements JSON of 128 MiB and of 250 MiB beside a GTA .col (refused by size before it is read), and
 *    one under the size bound made of tiny values (refused by a count before JSON.parse);
 *  - 100,000 placements at one spot (the broad phase answers a ground query like a single placement would;
 *    a 10-agent run goes through);
 *  - `llama build` of a 65535 × 65535 grid (refused before allocating);
 *  - `col` on a text and on a picture (refused: no model), for every subcommand and the library loader.
 */
import { mkdtempSync, readFileSync, rmSync, copyFileSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/format-error.js';
import { resolveLimits } from '../../src/limits.js';
import { loadWorldFile } from '../../src/node/world-files.js';
import { GtaWorld, loadGtaWorld, newGtaGroundResult } from '../../src/worlds/gta/collision-world.js';
import { gtaPlacementsByteLimit, parseGtaPlacements } from '../../src/worlds/gta/placements.js';
import { parseColFile } from '../../src/worlds/gta/parse.js';
import { buildLevel, asLevelDescription } from '../../src/worlds/llama/level-builder.js';
import { repoRoot, runCli } from '../cli/run-cli.js';
import { llamaGridDescription, pngBytes, writeBigPlacements, writeOneSpotPlacements, writeSparsePlacements, writeTinyValues } from './hostile-files.js';

const dir = mkdtempSync(join(tmpdir(), 'retrosim-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOWN = join(repoRoot, 'assets/worlds/gta/town.col');
const MiB = 1 << 20;

/** The FormatError `f` throws (fails when it throws anything else or nothing). */
function formatErrorOf(f: () => unknown): FormatError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('expected a FormatError');
}

/** A copy of town.col beside which `<stem>.placements.json` can be written. */
function townCopy(stem: string): string {
  const p = join(dir, `${stem}.col`);
  copyFileSync(TOWN, p);
  return p;
}

const jsonError = (stdout: string): { kind: string; message: string; file: string | null; offset: number | null } => {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return (JSON.parse(lines[0]!) as { error: { kind: string; message: string; file: string | null; offset: number | null } }).error;
};

describe('GTA placements are bounded before they are parsed', () => {
  const bound = gtaPlacementsByteLimit();

  it('the bound is far below the file limit and far above a real file', () => {
    expect(bound).toBe(resolveLimits().gta.placements * 256);
    expect(bound).toBeLessThan(resolveLimits().fileBytes);
    expect(statSync(join(repoRoot, 'assets/worlds/gta/town.placements.json')).size * 1000).toBeLessThan(bound);
  });

  for (const [label, size, sparse] of [['128 MiB', 128 * MiB, false], ['250 MiB', 250 * MiB, true]] as const) {
    it(`a ${label} placements file beside a .col is a FormatError naming the file and the limit`, () => {
      const col = townCopy(`big${size}`);
      const places = join(dir, `big${size}.placements.json`);
      if (sparse) writeSparsePlacements(places, size);
      else expect(writeBigPlacements(places, size)).toBeGreaterThanOrEqual(size);
      expect(statSync(places).size).toBeGreaterThan(bound);
      const e = formatErrorOf(() => loadWorldFile(col));
      expect(e.file).toBe(places);
      expect(e.message).toContain(places);
      expect(e.message).toContain('limits.gta.placements');
      expect(e.message).toContain(`${bound} bytes`);
      // The CLI's two routes: the sibling file (world) and --placements (col), exit 1 with the error as JSON.
      for (const args of [['world', 'ground', col, '0', '0', '5', '--json'], ['col', 'ground', TOWN, '0', '0', '5', '--placements', places, '--json']]) {
        const r = runCli(args);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain('limits.gta.placements');
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        const err = jsonError(r.stdout);
        expect(err).toMatchObject({ kind: 'format', file: places, offset: null });
      }
    });
  }

  it('under the size bound, a file of tiny values is refused by counting before JSON.parse', () => {
    const limits = resolveLimits({ gta: { placements: 4096 } });
    const places = join(dir, 'tiny.placements.json');
    writeTinyValues(places, gtaPlacementsByteLimit(limits) - 1);
    const text = readFileSync(places, 'utf8');
    expect(text.length).toBeLessThan(gtaPlacementsByteLimit(limits));
    const e = formatErrorOf(() => parseGtaPlacements(text, limits));
    expect(e.message).toMatch(/JSON values.*limits\.gta\.placements/);
    expect(e.offset).toBeGreaterThan(0);
    expect(e.offset).toBeLessThan(text.length);
  });

  it('at the bounds a file loads, one entry or one byte more is refused', () => {
    const n = 300;
    const limits = resolveLimits({ gta: { placements: n } });
    const entries = Array.from({ length: n }, (_, i) => ({ model: 'town_house', position: [i * 20, 0, 0], rotation: [0, 0, 0.7071067811865476, 0.7071067811865476] }));
    const text = JSON.stringify({ placements: entries }, null, 2);
    expect(text.length).toBeLessThan(gtaPlacementsByteLimit(limits));
    expect(parseGtaPlacements(text, limits)).toHaveLength(n);
    const more = JSON.stringify({ placements: [...entries, entries[0]] });
    expect(formatErrorOf(() => parseGtaPlacements(more, limits)).message).toContain('limits.gta.placements');
    const padded = text + ' '.repeat(gtaPlacementsByteLimit(limits) - text.length + 1);
    expect(formatErrorOf(() => parseGtaPlacements(padded, limits)).message).toMatch(/over the limit of \d+ bytes \(limits\.gta\.placements/);
  });
});

describe('100,000 placements at one spot', () => {
  const col = townCopy('spot');
  const spot = [4, -6, 0] as const;
  writeOneSpotPlacements(join(dir, 'spot.placements.json'), 100_000, 'town_house', spot);

  it('a ground query at the spot answers what one placement there answers (copies never win)', () => {
    const opened = loadWorldFile(col);
    const w = opened.world as GtaWorld;
    expect(w.scene.instanceCount).toBe(100_000);
    expect(w.scene.broad!.classCount).toBe(1);
    const one = loadGtaWorld(readFileSync(TOWN), 'one', [{ model: 'town_house', position: [...spot] }]);
    for (const p of [[spot[0], spot[1], 30], [spot[0] + 1.5, spot[1] - 2, 12], [spot[0] + 0.25, spot[1], 0.5], [200, 200, 5]] as const) {
      const a = w.ground([...p], newGtaGroundResult());
      const b = one.ground([...p], newGtaGroundResult());
      expect(a).toEqual(b);
    }
    expect(w.ground([spot[0], spot[1], 30], newGtaGroundResult()).hasFloor).toBe(true);
    // A sphere at the spot is pushed out by the first copy and left alone by the others.
    const n = w.scene.pushOutSphere(spot[0], spot[1], 1, 0.5);
    const m = one.scene.pushOutSphere(spot[0], spot[1], 1, 0.5);
    expect(n).toBe(m);
    expect([w.scene.push.x, w.scene.push.y, w.scene.push.z]).toEqual([one.scene.push.x, one.scene.push.y, one.scene.push.z]);
  });

  it('a 10-agent run of 10 frames on it goes through (retrosim run)', () => {
    const r = runCli(['run', '--world', col, '--agents', '10', '--frames', '10', '--no-replay', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { frames: number; finalHash: string };
    expect(out.frames).toBe(10);
    expect(out.finalHash).toMatch(/^0x[0-9a-f]{16}$/);
  });
});

describe('llama build checks the products it allocates by', () => {
  it('a 65535 × 65535 grid is refused naming llama.gridCells, before anything is allocated by it', () => {
    const desc = asLevelDescription(JSON.parse(llamaGridDescription(65535, 65535)));
    expect(formatErrorOf(() => buildLevel(desc)).message).toContain('limits.llama.gridCells');
    const path = join(dir, 'huge-grid.level.json');
    writeFileSync(path, llamaGridDescription(65535, 65535));
    const r = runCli(['llama', 'build', path, join(dir, 'h.trak'), join(dir, 'h.map'), '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('65535×65535');
    expect(jsonError(r.stdout)).toMatchObject({ kind: 'format', file: path });
  });

  it('the limit bites exactly: a grid at it builds, one cell over is refused', () => {
    const limits = resolveLimits({ llama: { gridCells: 64 * 64 } });
    expect(() => buildLevel(asLevelDescription(JSON.parse(llamaGridDescription(64, 64))), limits)).not.toThrow();
    expect(formatErrorOf(() => buildLevel(asLevelDescription(JSON.parse(llamaGridDescription(65, 64))), limits)).message).toContain('limits.llama.gridCells');
  });
});

describe('col refuses files that hold no model', () => {
  const text = join(dir, 'notes.md');
  writeFileSync(text, '# retrosim\n\nA headless, deterministic game-simulation runtime.\n'.repeat(80));
  const png = join(dir, 'picture.png');
  writeFileSync(png, pngBytes());

  it('the library loader refuses them with a FormatError at offset 0', () => {
    for (const p of [text, png]) {
      const bytes = new Uint8Array(readFileSync(p));
      expect(formatErrorOf(() => parseColFile(bytes)).offset).toBe(0);
      expect(formatErrorOf(() => loadGtaWorld(bytes, 'x')).message).toContain('no collision model');
    }
  });

  it('every col subcommand exits 1 naming the file, with the error as JSON', () => {
    for (const p of [text, png]) {
      for (const args of [['info', p], ['ray', p, '0', '0', '10', '0', '0', '-10'], ['sphere', p, '0', '0', '0', '1'], ['ground', p, '0', '0', '5']]) {
        const r = runCli(['col', ...args, '--json']);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stderr).toContain(p);
        expect(r.stderr).toContain('no collision model');
        expect(jsonError(r.stdout)).toMatchObject({ kind: 'format', file: p, offset: 0 });
      }
      // Without --json, stdout is empty: nothing that looks like an answer.
      const plain = runCli(['col', 'info', p]);
      expect(plain.code).toBe(1);
      expect(plain.stdout).toBe('');
    }
  });
});
