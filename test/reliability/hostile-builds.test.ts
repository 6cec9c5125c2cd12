/**
 * Inputs that made `col build` and `world export` take minutes and gigabytes, each made by a generator
 * (./hostile-files.ts) in a temporary folder: each now ends in a `format` error naming the file, the figure
 * and the limit. The CLI runs them with its V8 heap held to 128 MiB (`--max-old-space-size`): they must be
 * refused within it, where before they ran to gigabytes.
 *  - `col build`: an OBJ with one face line of 4 million indices, a 100 MiB OBJ, a face of 1,025 vertices,
 *    a COL3 object fanning out past 65,535 faces, a JSON description of 5 million vertices, JSON nested
 *    100,000 deep;
 *  - `world export`: a GTA model of 100 spheres placed 200 times (about 10 KB of input, 3,360,000 triangles),
 *    refused by its count before anything is built; the count exact on every shipped world and on a scene of
 *    every GTA part.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/format-error.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { loadWorldFile } from '../../src/node/world-files.js';
import { DEFAULT_MAX_EXPORT_TRIANGLES, exportScene, exportTriangleCount, SPHERE_TRIANGLES } from '../../src/worlds/export/worlds.js';
import { loadGtaWorld } from '../../src/worlds/gta/collision-world.js';
import { buildColFromDescription } from '../../src/worlds/gta/describe.js';
import { buildColFromObj } from '../../src/worlds/gta/describe-obj.js';
import { writeColFile } from '../../src/worlds/gta/write.js';
import type { CollisionWorld } from '../../src/worlds/world.js';
import { PROCESS_TIMEOUT_MS, repoRoot } from '../cli/run-cli.js';
import { writeManyVerticesJson, writeOneFaceObj, writeSparseFile, writeSphereTown } from './hostile-files.js';

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

describe('world export: counted before it is built, refused past its triangle limit', () => {
  it('a GTA model of 100 spheres placed 200 times (about 10 KB): 3,360,000 triangles, refused by the count with the figure and the limit; --max-triangles changes the limit', () => {
    const col = join(dir, 'balls.col');
    const bytes = writeSphereTown(col, join(dir, 'balls.placements.json'), 100, 200);
    expect(bytes).toBeLessThan(12_000);
    const out = join(dir, 'balls.glb');
    const { code, error } = cliError(['world', 'export', col, '--out', out]);
    expect(code).toBe(1);
    expect(error.kind).toBe('format');
    expect(error.file).toBe(col);
    const count = 100 * 200 * SPHERE_TRIANGLES;
    expect(error.message).toBe(`gta world export: balls.col would export ${count} triangles, over the limit of ${DEFAULT_MAX_EXPORT_TRIANGLES} (maxTriangles; --max-triangles N to change it)`);
    expect(existsSync(out)).toBe(false);
    // A limit of its own, both ways, on the shipped town (its triangles counted by the export itself).
    const town = join(repoRoot, 'assets/worlds/gta/town.col');
    const built = spawnSync(process.execPath, ['bin/retrosim.js', 'world', 'export', town, '--out', join(dir, 'town.glb'), '--json'], { cwd: repoRoot, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    const triangles = (JSON.parse(built.stdout) as { triangles: number }).triangles;
    const at = spawnSync(process.execPath, ['bin/retrosim.js', 'world', 'export', town, '--out', join(dir, 'town2.glb'), '--max-triangles', String(triangles)], { cwd: repoRoot, encoding: 'utf8' });
    expect(at.status, at.stderr).toBe(0);
    const under = cliError(['world', 'export', town, '--out', join(dir, 'town3.glb'), '--max-triangles', String(triangles - 1)]);
    expect(under.code).toBe(1);
    expect(under.error.message).toBe(`gta world export: town.col would export ${triangles} triangles, over the limit of ${triangles - 1} (maxTriangles; --max-triangles N to change it)`);
    const usage = spawnSync(process.execPath, ['bin/retrosim.js', 'world', 'info', town, '--max-triangles', '5'], { cwd: repoRoot, encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/--max-triangles is an option of world export/);
  });

  it('the count is exact: every shipped world, and a GTA scene of spheres, boxes, meshes and shadows placed and rotated, give as many triangles as they count', () => {
    const worlds = ['rugrats/demo.col', 'rugrats/hand.col', 'llama/demo.trak', 'llama/minimal.trak', 'llama/broken.trak', 'colbin/demo.colbin', 'colbin/demo-v1.colbin', 'colbin/worked-example.colbin', 'gta/town.col', 'gta/bench-4k.col', 'piney/default.field.json'];
    const counted = (w: CollisionWorld) => {
      const scene = exportScene(w, { maxTriangles: exportTriangleCount(w) });
      return scene.parts.reduce((n, p) => n + p.count, 0);
    };
    for (const rel of worlds) {
      const w = loadWorldFile(join(repoRoot, 'assets/worlds', rel)).world;
      const n = exportTriangleCount(w);
      expect(n, rel).toBeGreaterThan(1);
      expect(counted(w), rel).toBe(n);
      expect(() => exportScene(w, { maxTriangles: n - 1 }), rel).toThrow(FormatError);
    }
    const parts = buildColFromDescription({
      version: 3,
      models: [
        { name: 'a', spheres: [{ center: [0, 0, 1], radius: 1 }, { center: [3, 0, 1], radius: 2 }], boxes: [{ min: [0, 0, 0], max: [1, 1, 1] }], mesh: { vertices: [[0, 0, 0], [4, 0, 0], [0, 4, 0]], faces: [[0, 1, 2]] }, shadow: { vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0]], faces: [[0, 1, 2], [0, 2, 1]] } },
        { name: 'b', boxes: [{ min: [0, 0, 0], max: [2, 2, 2] }, { min: [3, 0, 0], max: [4, 1, 1] }] },
      ],
    }).models;
    const placements = [
      { model: 'a', position: [0, 0, 0] as [number, number, number] },
      { model: 'a', position: [10, 0, 0] as [number, number, number], rotation: [0, 0, 1, 0] as [number, number, number, number] },
      { model: 'b', position: [0, 10, 0] as [number, number, number] },
      { model: 'a', position: [0, 20, 0] as [number, number, number] },
    ];
    const scene = loadGtaWorld(writeColFile(parts), 'scene', placements);
    expect(exportTriangleCount(scene)).toBe(3 * (2 * SPHERE_TRIANGLES + 12 + 1 + 2) + 2 * 12);
    expect(counted(scene)).toBe(exportTriangleCount(scene));
    expect(() => exportScene(scene, { maxTriangles: 0 })).toThrow(RangeError);
    expect(() => exportScene(scene, { maxTriangles: 1.5 })).toThrow(/maxTriangles must be a positive integer, got 1.5/);
  });
});
