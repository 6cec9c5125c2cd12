/**
 * Inputs that made `col build` and `world export` take minutes and gigabytes, each made by a generator
 * (./hostile-files.ts) in a temporary folder: each now ends in a `format` error naming the file, the figure
 * and the limit. The CLI runs them with its V8 heap held to 128 MiB (`--max-old-space-size`): they must be
 * refused within it, where before they ran to gigabytes.
 *  - `col build`: an OBJ with one face line of 4 million indices, a 100 MiB OBJ, a face of 2,001 vertices,
 *    a COL3 object fanning out past 65,535 faces, a JSON description of 5 million vertices, JSON nested
 *    100,000 deep.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/format-error.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { buildColFromObj } from '../../src/worlds/gta/describe-obj.js';
import { PROCESS_TIMEOUT_MS, repoRoot } from '../cli/run-cli.js';
import { writeManyVerticesJson, writeOneFaceObj, writeSparseFile } from './hostile-files.js';

const dir = mkdtempSync(join(tmpdir(), 'retrosim-hostile-builds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MiB = 1 << 20;

/** The CLI with its V8 heap held to `heapMiB`, and its --json error. */
function cliError(args: string[], heapMiB = 128): { code: number; error: { kind: string; message: string; file: string | null } } {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${heapMiB}`, 'bin/retrosim.js', ...args, '--json'], { cwd: repoRoot, encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS });
  const lines = r.stdout.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  return { code: r.status ?? -1, error: (JSON.parse(lines[0]!) as { error: { kind: string; message: string; file: string | null } }).error };
}

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

describe('col build: a description is bounded before it is built', () => {
  const out = join(dir, 'out.col');

  it('an OBJ with one face line of 4 million indices: refused at the line, by its length, in a 128 MiB heap', () => {
    const file = join(dir, 'one-face.obj');
    const length = writeOneFaceObj(file, 4_000_000);
    const { code, error } = cliError(['col', 'build', file, '--out', out]);
    expect(code).toBe(1);
    expect(error.kind).toBe('format');
    expect(error.file).toBe(file);
    expect(error.message).toBe(`gta col description: OBJ line 4: ${length} characters, over the limit of ${DEFAULT_LIMITS.gta.objLineChars} characters a line (limits.gta.objLineChars)`);
  });

  it('a 100 MiB OBJ: refused by its size before it is read', () => {
    const file = join(dir, 'big.obj');
    writeSparseFile(file, 'v 0 0 0\n', 100 * MiB);
    const { code, error } = cliError(['col', 'build', file, '--out', out]);
    expect(code).toBe(1);
    expect(error.kind).toBe('format');
    expect(error.file).toBe(file);
    expect(error.message).toBe(`gta col description: the description is ${100 * MiB} bytes, over the limit of ${DEFAULT_LIMITS.gta.descriptionBytes} bytes (limits.gta.descriptionBytes)`);
  });

  it('a face of more vertices than a face may have, and a COL3 object fanning out past 65,535 faces: refused at their line', () => {
    const verts = 'v 0 0 0\nv 1 0 0\nv 0 0 -1\n';
    const face = (n: number) => `f${' 1 2 3'.repeat(Math.ceil(n / 3)).slice(0, n * 2)}`;
    const wide = DEFAULT_LIMITS.gta.objFaceVertices + 1;
    expect(formatErrorOf(() => buildColFromObj(`${verts}${face(wide)}\n`)).message).toBe(`gta col description: OBJ line 4: a face of ${wide} vertices, over the limit of ${DEFAULT_LIMITS.gta.objFaceVertices} (limits.gta.objFaceVertices)`);
    // Faces of 1,000 vertices fan into 998 triangles each: the 66th line passes 65,535.
    const many = verts + `${face(1000)}\n`.repeat(66);
    expect(formatErrorOf(() => buildColFromObj(many)).message).toBe('gta col description: OBJ line 69: object "model" has more than 65535 faces: COL3 counts them in 16 bits');
    // COLL counts faces in 32 bits: the same file builds.
    expect(buildColFromObj(many, { version: 1 }).models[0]!.mesh.faceCount).toBe(66 * 998);
  });

  it('a JSON description of 5 million vertices: refused by its count of values before it is parsed, in a 128 MiB heap; JSON nested 100,000 deep by its depth', () => {
    const file = join(dir, 'many.json');
    writeManyVerticesJson(file, 5_000_000);
    const { code, error } = cliError(['col', 'build', file, '--out', out]);
    expect(code).toBe(1);
    expect(error.kind).toBe('format');
    expect(error.file).toBe(file);
    expect(error.message).toMatch(new RegExp(`^gta col description: more than ${DEFAULT_LIMITS.gta.descriptionValues} JSON values \\(limits\\.gta\\.descriptionValues\\) \\(at offset \\d+ = 0x[0-9a-f]+\\)$`));
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, `{"models":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    const d = cliError(['col', 'build', deep, '--out', out]);
    expect(d.code).toBe(1);
    expect(d.error.kind).toBe('format');
    expect(d.error.message).toMatch(/JSON nested deeper than 64 levels \(at character \d+; limits\.jsonDepth\)/);
  });
});
